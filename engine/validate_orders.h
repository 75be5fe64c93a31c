// The first check of a player's orders, done at once when they arrive: every
// order is understood (known units, hexes on the map, paths of adjacent
// hexes) and plausible against the current state (the player's own units,
// still on the map, one order of a kind per unit, set-up only when allowed).
// What the board of the moment already decides is judged here too, with the
// reason the resolution would give: a bombardment's range, line of sight,
// terrain and zone of control (CheckBombardment: bombardment opens the turn,
// so the board now is the board it fires on; skipped when placements come
// first), and an attack's combat contact between where the attacker's move
// order ends (or where it stands) and the defender, a demoralised attacker,
// and leaders or artillery when the ruleset forbids them to attack. Rules
// that depend on what happens earlier in the same turn (costs, zones of
// control, charges, earlier results) are judged when the turn is resolved.
#ifndef PBEM_ENGINE_VALIDATE_ORDERS_H_
#define PBEM_ENGINE_VALIDATE_ORDERS_H_

#include <vector>

#include "engine/game_state.h"
#include "engine/orders.h"
#include "engine/ruleset.h"
#include "engine/scenario.h"
#include "engine/verdict.h"

namespace pbem::engine {

// Returns one verdict per order, in the order placements, bombardments,
// moves, attacks, preceded by header verdicts (kind kHeader) when the game,
// turn or side is wrong. Pure: the same inputs give the same verdicts.
std::vector<OrderVerdict> ValidateOrders(const Ruleset& ruleset, const Scenario& scenario,
                                         const GameState& state, const Orders& orders);

// True when no verdict is invalid or illegal.
bool AllAcceptable(const std::vector<OrderVerdict>& verdicts);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_VALIDATE_ORDERS_H_
