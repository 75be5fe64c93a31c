// A bot that orders every unit of the active player, for soak runs (issue 16 point 8; the
// soak loop is soak.h). Not a player: it walks the table in straight-ish lines, and on purpose
// gives some orders the pipeline refuses, so that refusals are exercised too.
#ifndef PBEM_ENGINE_M42_BOT_H_
#define PBEM_ENGINE_M42_BOT_H_

#include <cstdint>

#include "engine/m42/orders.h"
#include "engine/m42/ruleset.h"
#include "engine/m42/scenario.h"
#include "engine/m42/state.h"

namespace pbem::m42 {

// Orders for scenario.players[state.active_player]. One engine::Pcg32 seeded by `seed` (the
// project's own generator: the same draws under every compiler) draws every choice, one draw
// per statement. For each unit of that player with a living model, in scenario order:
//  * one time in ten it gets no order;
//  * its action: ADVANCE 8 in 16 (fire before, after or unset), AT_THE_DOUBLE 4, GET_DOWN 2,
//    OPEN_FIRE 2;
//  * its target: one time in four an objective (the table's centre or a structure's centre,
//    drawn; a first plan may also draw a point 5" beyond the west edge: OFF_TABLE), else the enemy
//    model nearest the unit's centre (ties: state order); the move then stops 3" short of that
//    model (its front models then often come too close: ENEMY_TOO_CLOSE);
//  * an action that forbids moving (action_move_factor 0) stays put, except one time in eight
//    (then it moves as below and is refused ACTION_FORBIDS_MOVE); OPEN_FIRE turns every model
//    towards the target one time in two (a Limited Vision unit is refused TURN_FORBIDDEN);
//  * a moving unit moves together: one displacement of 60-100% of its allowance (one time in
//    ten 110-150%: EXCEEDS_ALLOWANCE) towards the target, in 1-3 legs whose inner vertices
//    stray sideways by up to a third of a leg, the same for every model, so that the formation
//    keeps its shape. Models are listed front first (projection on the displacement, ties:
//    state order) so no model ends where a later one still stands. Per model: one time in six
//    its last vertex moves by up to 0.3" each way, one time in fifteen by up to 2.5" (a
//    straggler: COHERENCY); a model on an upper floor first steps down to the ground three
//    times in four (else it walks on its floor: often OFF_FLOOR); a model whose end lies on a
//    floor of a structure climbs one level one time in two, then one more one time in two; one
//    time in four it faces its direction of travel (to the nearest 45 degrees); one time in two
//    hundred its order is corrupted (the path starts 0.5" off: PATH_START_MISMATCH or
//    MALFORMED_PATH, or the model is named "nobody": UNKNOWN_MODEL), an INVALID order;
//  * the order is checked (CheckAction) where the earlier units' actions leave the table; a
//    refused one is kept one time in four, else planned again (up to three plans; later plans
//    never overreach nor corrupt, and their displacement is halved, then quartered).
// Integers only (thousandths of an inch, engine/table's ISqrt). Deterministic: the same inputs
// give the same orders.
Orders BotOrders(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                 std::uint64_t seed);

}  // namespace pbem::m42

#endif  // PBEM_ENGINE_M42_BOT_H_
