// M42's rules entry points, shaped like the game-system interface (engine/system/game_system.h):
// initial state from a scenario (state.h), check orders -> a verdict per order, resolve a
// player-turn (state, orders) -> events + next state + verdicts. Pure: no clock, file or log.
//
// How a player-turn is sequenced (m42.md §5, [ACT-05] "pick units one at a time"; the digest
// leaves the batch reading open, this is the one chosen):
// - The player's actions are taken in the order the player listed them. Each is validated
//   (validate.h, §5.2) against the state left by the actions before it, and executed at once
//   when legal (step 11), so a later unit sees earlier units at their new positions and can
//   rely on them having moved (as at the table). CheckOrders gives exactly the verdicts
//   ResolvePlayerTurn would: "acknowledged means played".
// - INVALID (step 1): nothing happens; the unit has not acted and may be ordered again in a
//   later action of the same batch.
// - ILLEGAL: on_illegal_order: hold_and_spend (GAP-20): the unit does not move, counts as
//   having acted with no action (no fire), event unit_held.
// - Units given no action do nothing this phase.
// - Close-Combat (M42-R24, P15, GAP-15): checked after each legal action (the acting unit's
//   models against every enemy) and again at the end of the Action Phase (every unit of the
//   active player); close_combat_joined is emitted once per new pair. Flags from the previous
//   player-turn are cleared first (the Close-Combat phase that used them is out of scope).
// - At the end: action_phase_ended; every unit's `acted` and `action` are reset; the next
//   player in Scenario::players is active, and `turn` grows by one after the last player.
#ifndef PBEM_ENGINE_M42_RESOLVE_H_
#define PBEM_ENGINE_M42_RESOLVE_H_

#include <string>
#include <vector>

#include "engine/m42/event.h"
#include "engine/m42/orders.h"
#include "engine/m42/ruleset.h"
#include "engine/m42/scenario.h"
#include "engine/m42/state.h"
#include "engine/m42/verdict.h"

namespace pbem::m42 {

struct PlayerTurnResult {
  State next;
  std::vector<Verdict> verdicts;  // one per action, in order
  std::vector<Event> events;
};

// §5.2 step 11 and §5.3 for a whole Action Phase (sequencing above).
PlayerTurnResult ResolvePlayerTurn(const Ruleset& ruleset, const Scenario& scenario,
                                   const State& state, const Orders& orders);

// The verdicts ResolvePlayerTurn would give, without keeping its state.
std::vector<Verdict> CheckOrders(const Ruleset& ruleset, const Scenario& scenario,
                                 const State& state, const Orders& orders);

// M42-R26, P16 (for the shooting chapter, §5.3): is `target` in `model`'s Forward Arc?
// nullopt when either id is unknown.
enum class Arc : std::uint8_t { kForward, kRear };
std::optional<Arc> ArcOf(const Ruleset& ruleset, const State& state, const std::string& model,
                         const std::string& target);

}  // namespace pbem::m42

#endif  // PBEM_ENGINE_M42_RESOLVE_H_
