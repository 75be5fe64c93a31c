// The French mass-battle game's rules entry points, shaped like the game-system interface
// (engine/system/game_system.h): initial state from a scenario (state.h), check orders -> a verdict
// per entry, resolve a player-turn (state, orders, dice) -> events + next state + verdicts.
// Pure: no clock, file or log.
//
// How a player-turn is sequenced (french-fantasy.md §5.2, [WME-CMD]):
// 1. The units acting by initiative are those with an entry in the `initiative` block. Fanatic
//    units' automatic charge (GAP-26) is not generated yet (charges are not resolved).
// 2. Initiative entries are resolved one by one in the order written, each validated
//    (validate.h) against the state the earlier ones left: sight and "nearest" are re-evaluated
//    at each entry (003:L85).
// 3. Then the `orders` entries, in the order written. The command roll belongs to the orders
//    chapter, which was not recovered (GAP-10): each ordered move is validated on its own and
//    none is refused by dice. A unit may receive several ordered moves (GAP-10).
// 4. Commanders (GAP-38) are not moved by orders yet.
// CheckOrders gives exactly the verdicts ResolvePlayerTurn would ("acknowledged means played").
//
// Consequences (GAP-20, on_illegal_move: hold):
// - INVALID: nothing happens; the entry is as if not written.
// - ILLEGAL: the unit does not move (event unit_held). An initiative unit loses its initiative
//   move but may still receive orders; an ordered unit's order is spent, which changes nothing
//   further since orders are not counted (GAP-10).
// - Charges (§5.4, charge.h): an illegal charge is held like a move; a charge of up to 7 bases
//   is carried out, AUTO or EXPLICIT, with its front line, envelopment when asked for, pinned
//   or fortified targets, and its supporter when one is named and can follow (events moved,
//   formation_now, then the supporter's moved, formation_now and supporting_charge, then
//   charge_contact, additional_charged_unit; the charger, its supporter and the target
//   engaged); a supporter that cannot follow leaves the charge OK with the warning
//   SUPPORT_NOT_ELIGIBLE; an EXPLICIT charge at a pinned or fortified target is refused
//   INVALID CHARGE_NOT_SUPPORTED and changes nothing. A zone tie's D6 (GAP-34) is drawn from
//   `dice` and logged (zone_tie_roll).
// - A legal move: the bases take their end poses (events moved, formation_now, unit_moved);
//   after a *traversée de rangs* (WME-R35, R36) events ranks_passed_through per crossed unit,
//   then a *test de confusion* (GAP-07: one die of confusion_die faces, confused on
//   <= confusion_confused_if_le) for the evader, then for each crossed unit in state order.
// - At the end: phase_ended; every unit's moved flags are reset; the next player in
//   Scenario::players is active, and `turn` grows by one after the last player.
#ifndef PBEM_ENGINE_WME_RESOLVE_H_
#define PBEM_ENGINE_WME_RESOLVE_H_

#include <vector>

#include "engine/wme/dice.h"
#include "engine/wme/event.h"
#include "engine/wme/orders.h"
#include "engine/wme/ruleset.h"
#include "engine/wme/scenario.h"
#include "engine/wme/state.h"
#include "engine/wme/verdict.h"

namespace pbem::wme {

struct PlayerTurnResult {
  State next;
  std::vector<Verdict> verdicts;  // one per entry: initiative entries, then orders
  std::vector<Event> events;
};

PlayerTurnResult ResolvePlayerTurn(const Ruleset& ruleset, const Scenario& scenario,
                                   const State& state, const TurnOrders& orders, DiceSource& dice);

// The verdicts ResolvePlayerTurn would give. A *test de confusion* can decide a later verdict
// (a crossed unit that becomes confused may not move afterwards), so `dice` must be a copy of
// the dice ResolvePlayerTurn will get (a SeededDice in the same state).
std::vector<Verdict> CheckOrders(const Ruleset& ruleset, const Scenario& scenario,
                                 const State& state, const TurnOrders& orders, DiceSource& dice);

}  // namespace pbem::wme

#endif  // PBEM_ENGINE_WME_RESOLVE_H_
