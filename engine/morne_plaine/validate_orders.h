// The check of a player's orders, done at once when they arrive (pbemd
// answers the player with it): every order is understood (known units, hexes
// on the map, paths of adjacent hexes) and judged as the resolution will
// judge it. Placements are judged in sequence against the state. The rest is
// judged on a dry run of the resolver's own phases (check_dry_run.h) over a
// copy of the state, from the turn's start (placements and command check
// applied) through bombardment and movement with the same order sequence:
// a shot's range, line of sight, terrain and zone of control, a move's every
// step after the earlier moves of the set (occupied hexes, zones of control,
// points, a destination's path), attacks on the board as movement leaves it.
// Where a die rolled earlier in the turn may change an order's outcome, the
// check cannot promise it: the verdict is ok with the reason depends_on_dice;
// a move that charges is ok with will_charge {hex, target hex, target} (the
// charged unit's morale test decides the rest); a destination order the dry
// run carries out whole is ok with via_path {hexes entered}, the path the
// resolution takes. Any other verdict is what the resolution will give.
// A refused order consumes nothing: only accepted attacks count as their
// units' one attack and one defence, only accepted shots as a battery's one
// shot (digest 3.1, 5.1).
#ifndef PBEM_ENGINE_MORNE_PLAINE_VALIDATE_ORDERS_H_
#define PBEM_ENGINE_MORNE_PLAINE_VALIDATE_ORDERS_H_

#include <vector>

#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/orders.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/verdict.h"

namespace pbem::engine {

// Returns one verdict per order, in the order placements, bombardments,
// moves, attacks, preceded by header verdicts (kind kHeader) when the game,
// turn or side is wrong. Pure: the same inputs give the same verdicts (the
// dry run's dice are fixed, and what they decide is never promised).
std::vector<OrderVerdict> ValidateOrders(const Ruleset& ruleset, const Scenario& scenario,
                                         const GameState& state, const Orders& orders);

// True when no verdict is invalid or illegal (kPartial is acceptable: the
// move is carried out up to the hex its verdict names).
bool AllAcceptable(const std::vector<OrderVerdict>& verdicts);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_VALIDATE_ORDERS_H_
