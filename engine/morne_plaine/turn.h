// The pure entry point of adjudication: one player-turn resolved in batch.
#ifndef PBEM_ENGINE_MORNE_PLAINE_TURN_H_
#define PBEM_ENGINE_MORNE_PLAINE_TURN_H_

#include <functional>

#include "engine/core/dice.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/orders.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"

namespace pbem::engine {

// Resolves the player-turn of state.side_to_move with `orders`.
//
// What it does today, in the order of digest 1.3:
//  1. Header: when ValidateOrders finds the orders are for another game,
//     turn or side, or the game is over, only those header verdicts come back
//     and next_state is `state` unchanged: nothing is resolved.
//  2. Turn start: the mover's per-turn flags are cleared (stuck,
//     moved_this_turn, charged_targets, victorious, has_attacked) and the
//     other side's reaction_fires and has_been_attacked, since its
//     batteries' reaction fires count per enemy player-turn (digest 3.5).
//  3. Set-up: placements as ValidateOrders accepts them (digest 2), each a
//     kPlace event.
//  4. Command check of the mover's units on the map (digest 1.6), one
//     kCommandCheck event each: {unit hex, leader hex if any}
//     {"in_command" | "out_of_command", basis, distance}.
//  5. In a set-up-only first turn (scenario.setup_only_first_turn) the other
//     orders are refused (setup_only_turn) and the turn ends here.
//  6. Bombardment phase (bombardment.h): the accepted bombardment orders in
//     the order listed, each checked again against the board of the moment
//     (range, line of sight, terrain, once per battery, a target still
//     there); the batteries that fire set bombarded_this_turn, which the
//     movement phase honours.
//  7. Movement phase (movement_phase.h), with charges and reaction fire.
//  8. Combat phase (combat_phase.h): the accepted attack orders in the order
//     listed, each checked again against the board of the moment.
//  9. Rally phase (rally.h): the mover's units regain MV (it takes no orders).
// 10. End of turn: the mover's bombarded_this_turn flags are cleared, the
//     message is passed on, and play passes to the other side (or to the
//     first side of the next game turn), with a kTurnEnd event
//     {next turn, next side}.
// 11. Victory (victory.h): when the turn that ended was the last player-turn
//     of the game (the scenario's last turn, side moving second), the game is
//     scored on the final positions: one kObjectiveTaken event per objective
//     and one for the strength comparison, then kGameEnd {winner or "draw",
//     level, vp_blue, vp_orange}; next_state.finished and .outcome are set
//     (turn and side still advance as after any turn; ValidateOrders refuses
//     every later order).
//
// Verdicts come in the order header, placements, bombardments, moves,
// attacks (as ValidateOrders). Pure: the same inputs and dice give the same
// result.
TurnResult ResolvePlayerTurn(const Ruleset& ruleset, const Scenario& scenario,
                             const GameState& state, const Orders& orders, DiceSource& dice);

// Called by ResolvePlayerTurn after each phase with the phase just finished
// and the state as it stands (kSetup after placements and the command check,
// then kBombardment, kMovement, kCombat, kRally, and kEndOfTurn with the next
// state, scored when the game ended). Not called when the header is refused;
// a set-up-only turn goes from kSetup to kEndOfTurn. For soak runs that check
// invariants after every phase (`pbem play`); it must not change anything.
using PhaseObserver = std::function<void(Phase, const GameState&)>;

// As above, calling `observer` (when set) after each phase.
TurnResult ResolvePlayerTurn(const Ruleset& ruleset, const Scenario& scenario,
                             const GameState& state, const Orders& orders, DiceSource& dice,
                             const PhaseObserver& observer);

// Step 2 of ResolvePlayerTurn: the per-turn resets for a turn of `side`.
void ResetForPlayerTurn(const Scenario& scenario, GameState& state, Side side);

// Step 4 of ResolvePlayerTurn: sets in_command of every unit of `side` on
// the map and logs a kCommandCheck event for each (phase kSetup in turn 1
// right after placement, else kBombardment: the check opens the turn).
void RunCommandCheck(const Ruleset& ruleset, const Scenario& scenario, GameState& state, Side side,
                     std::vector<Event>& events);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_TURN_H_
