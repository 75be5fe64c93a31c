// The movement phase of one player-turn (digest 4), resolved in batch from
// written move orders, with cavalry charges (4.7) and the opponent's reaction
// fire (3.5) happening inside it.
#ifndef PBEM_ENGINE_MORNE_PLAINE_MOVEMENT_PHASE_H_
#define PBEM_ENGINE_MORNE_PLAINE_MOVEMENT_PHASE_H_

#include <functional>
#include <optional>
#include <vector>

#include "engine/core/dice.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/orders.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"
#include "engine/morne_plaine/verdict.h"

namespace pbem::engine {

struct MovementPhaseResult {
  // One verdict per entry of orders.moves, in order (order_kind kMove,
  // index = position in orders.moves).
  std::vector<OrderVerdict> verdicts;
};

// Resolves orders.moves for `mover` against `state`, which it changes.
//
// Batch semantics (issue 3):
//  * Orders run in the order given; each step is checked against the state
//    at that moment (StepRules::Check). An illegal step ends that unit's move
//    at its last legal hex: kPartial when a step was taken, kIllegal when
//    none was, with the reason of the refused step (see verdict.h for the
//    arguments). The remaining orders still run.
//  * Orders that are not understood (unknown unit, hex off the map, path not
//    adjacent, path and destination both or neither) are kInvalid and change
//    nothing.
//  * Several orders for one unit continue where the last one ended, with the
//    points and road chain left. A unit that entered an enemy ZoC, got stuck
//    in a marsh or was eliminated moves no more this turn.
//  * A move that stops early for a rule of the game (entering an enemy ZoC,
//    stuck in a marsh, eliminated by reaction fire) with steps of its path
//    left is kPartial with that reason; stopping on the last hex is kOk.
//  * A destination order follows the path Reachable() gives (the cheapest
//    legal path, deterministic tie-break) and never charges.
//  * Path orders of mounted units charge automatically (digest 4.7, batch
//    translation): two consecutive steps in the same direction into clear
//    (charge_path) hexes, with a chargeable enemy next in line. `no_charge`
//    turns this off for the order; a step into a hex of `no_charge_at` cannot
//    be one of the two charge steps.
//  * Reaction fire (digest 3.5, R4): after each step, every battery of the
//    other side in contact with the hex entered that was in no enemy ZoC
//    just before the step and has not reacted this enemy turn fires at the
//    mover, NE first then clockwise around the hex entered; then passing
//    objectives are checked (W08-QA), then the marsh test, then the ZoC stop.
//
// Events (phase kMovement): kMoveStep {from, to} {cost, points_left, basis};
// kDie for every die with its purpose ("marsh_stuck_test",
// "charge_morale_test", "reaction_fire"); kStuck; kCharge, kMoraleTest,
// kRetreat, kLoss, kEliminated; kReactionFire; kFortTaken, kObjectiveTaken;
// kMoveEnd {final hex} {points_left, reason code} once per order that could
// be tried.
//
// REQUIRES: the command check of the turn has set in_command (see turn.h).
MovementPhaseResult ResolveMovementPhase(const Ruleset& ruleset, const Scenario& scenario,
                                         GameState& state, Side mover, const Orders& orders,
                                         DiceSource& dice, std::vector<Event>& events);

// What one move order did, for the check's dry run (validate_orders.h).
struct MoveOrderTrace {
  int index = 0;                // in orders.moves
  std::size_t first_event = 0;  // the order's events are events[first_event..]
  std::optional<Hex> start;     // where the unit stood when the order was tried
  std::vector<Hex> path;        // the path it set out on (a destination's: Reachable's)
  std::vector<Hex> considered;  // the hexes its route was chosen among: the path,
                                // or every hex a destination order could reach
  bool destination = false;
  const OrderVerdict* verdict = nullptr;
};
using MoveOrderObserver = std::function<void(const MoveOrderTrace&)>;

// As above, calling `observer` after each order.
MovementPhaseResult ResolveMovementPhase(const Ruleset& ruleset, const Scenario& scenario,
                                         GameState& state, Side mover, const Orders& orders,
                                         DiceSource& dice, std::vector<Event>& events,
                                         const MoveOrderObserver& observer);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_MOVEMENT_PHASE_H_
