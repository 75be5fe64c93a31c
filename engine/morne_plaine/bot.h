// A simple bot that gives legal orders, for soak runs (`pbem play`), and the
// invariants a state must keep between player-turns.
#ifndef PBEM_ENGINE_MORNE_PLAINE_BOT_H_
#define PBEM_ENGINE_MORNE_PLAINE_BOT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/orders.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"

namespace pbem::engine {

// Orders for state.side_to_move (header: the state's game id, turn and side),
// planned on the state as it will be once the turn starts (ResetForPlayerTurn,
// the bot's own placements and the command check applied to a copy). One
// Pcg32 seeded by `seed` draws every choice. In this order:
//  * Placements, turn 1 only (digest 2): every own unit off the map, and one
//    non-fixed own unit on the map in four, is placed on a free hex of the
//    side's deployment zone (one within its corps leader's command radius of
//    the leader when there is one), drawn among the candidates in label
//    order. In a set-up-only first turn the orders stop here.
//  * Attacks: each own unit on the map in scenario order that is not
//    demoralised attacks the first enemy unit, in neighbour order (NE then
//    clockwise), in combat contact (InCombatContact) that no earlier attack
//    names. Leaders and artillery attack only where the ruleset allows it
//    (leaders_may_attack, artillery_may_attack), a leader one time in four and
//    a battery one time in two (it bombards otherwise). Each attacker and each
//    defender once; since only the two combatants of a combat move or lose
//    anything, later attacks stay in contact.
//  * Bombardments: each own artillery unit on the map in scenario order that
//    does not attack fires at the nearest enemy unit (ties: scenario order)
//    that CheckBombardment allows, that no attack names and no other battery
//    targets (a shot may eliminate its target).
//  * Moves: every other own unit on the map, in scenario order: one time in
//    four it stays put. Otherwise its target is the nearest enemy unit on the
//    map or objective hex not held by its side (ties: enemies in scenario
//    order, then objectives in order), and it moves along ReachableThisTurn's
//    path to the reachable hex closest to the target (ties: ReachableThisTurn's
//    order), when that is closer than where it stands. Paths avoid every hex
//    of an earlier mover's path, so an earlier move (even one cut short) never
//    blocks a later one. Path orders with no_charge set: the bot never
//    charges.
// Deterministic: the same inputs give the same orders.
Orders BotOrders(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
                 std::uint64_t seed);

// What must hold in any state between player-turns; one message per breach,
// naming the unit or hex ("b-i1: CS 6 above its initial 5"). Empty: all hold.
//  * state.units has one entry per scenario unit;
//  * no two units on the map in one hex;
//  * CS within 0..the scenario's CS; a unit on the map has CS >= 1;
//  * MV within 0..mv_initial;
//  * an eliminated unit has no hex;
//  * every unit on the map stands on a hex of the map.
std::vector<std::string> CheckInvariants(const Scenario& scenario, const GameState& state);

// "Only legal moves": every change of position between `before` and `after`
// (one player-turn, whose log is `events`) is explained by the log, one
// adjacent step at a time: kPlace puts a unit down (turn 1 only); kMoveStep,
// kRetreat and kAdvance go {from, to} from where the unit stands to an
// adjacent hex of the map; kEliminated takes it off. One message per breach
// ("b-i1: move_step from 1203 but it stands at 1204"); empty: all explained.
std::vector<std::string> CheckMovesExplained(const Scenario& scenario, const GameState& before,
                                             const std::vector<Event>& events,
                                             const GameState& after);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_BOT_H_
