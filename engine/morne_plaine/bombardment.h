// The bombardment phase (digest 3) and the default results model shared with
// reaction fire (digest 3.4, 3.5): who may fire at what, one shot's result,
// and how morale losses come off MV, then CS (digest 5.12).
#ifndef PBEM_ENGINE_MORNE_PLAINE_BOMBARDMENT_H_
#define PBEM_ENGINE_MORNE_PLAINE_BOMBARDMENT_H_

#include <optional>
#include <string_view>
#include <vector>

#include "engine/core/dice.h"
#include "engine/hex/hex.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/orders.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"
#include "engine/morne_plaine/verdict.h"

namespace pbem::engine {

// The die of the bombardment model (bombard.die_faces: 4, 6 or 9; any other
// count falls back to a d6).
Die BombardDie(const BombardModel& model);

// One shot of the default model (digest 3.4, GAP default_v1).
struct BombardShot {
  int roll = 0;
  int target_modifier = 0;  // terrain of the target's hex: town/hamlet +1, fort +2
  int range_modifier = 0;   // +max_range_modifier at exactly the firer's range
  int modified = 0;
  int bv = 0;
  bool hit = false;      // modified <= BV
  bool doubled = false;  // hit, unmodified 1 and modified <= BV - double_loss_margin
  int loss = 0;          // morale points the target loses: 0, loss_mv or 2 * loss_mv
};

// Judges one shot of `firer` at a target standing on terrain `target_terrain`
// `distance` hexes away, given the draw `roll`. Pure: the caller draws the die
// and applies the loss (TakeMoraleLoss).
BombardShot JudgeBombardShot(const Ruleset& ruleset, const UnitSpec& firer,
                             const TerrainType& target_terrain, int distance, int roll);

// How `points` of morale loss split for one unit (digest 5.12, W08-QA 7):
// from MV while it lasts, the rest from CS (at most the CS left); leaders have
// no MV and take it all on CS. The unit is eliminated when cs - cs_lost <= 0.
struct MoraleLossSplit {
  int mv_lost = 0;
  int cs_lost = 0;
};
MoraleLossSplit SplitMoraleLoss(const UnitSpec& spec, const UnitState& state, int points);

// Why one battery may not fire at `target` now (digest 3.1 to 3.3), checked
// in this order: already_fired {unit} (bombarded_this_turn), cannot_fire_from
// _terrain {firer hex, terrain}, bombard_in_enemy_zoc {firer hex} (only when
// bombard_allowed_in_enemy_zoc is false), no_target {target} (no enemy unit
// there), out_of_range {target, distance, min, range} (legal: min_bombard
// _distance..range), no_line_of_sight {target, blocking hex(es)}.
// nullopt: it may fire. REQUIRES: `firer` is an artillery unit on the map.
// Digest 5.11 GAP, elimination_bonus_scope kAll: a unit that eliminated an
// enemy outside the combat phase (a battery's shot; in the movement phase a
// charge or a reaction fire) regains 1 MV, never above its initial
// MV, logged as kMoraleGained {1, "elimination"} in `phase`. Nothing happens
// with the scope kCombatPhase (the combat phase gives its own bonus), for a
// leader (no MV), or for a unit no longer on the map.
void GrantEliminationBonus(const Ruleset& ruleset, const Scenario& scenario, GameState& state,
                           UnitId winner, Phase phase, std::vector<Event>& events);

struct BombardRefusal {
  Reason reason = Reason::kNone;
  std::vector<Arg> args;
};
std::optional<BombardRefusal> CheckBombardment(const Ruleset& ruleset, const Scenario& scenario,
                                               const GameState& state, UnitId firer, Hex target);

struct BombardmentPhaseResult {
  std::vector<OrderVerdict> verdicts;  // one per bombardment order, in order
};

// The bombardment phase of `mover` (digest 3, 3.6): the orders are resolved
// in the order listed. `checked` holds ValidateOrders' verdicts for the
// bombardment orders (kind kBombardment, by index); what it refused stays
// refused. Each accepted order is checked again against the board of the
// moment (CheckBombardment: an earlier shot may have eliminated the target)
// and, when it may fire, the battery fires once: a kDie event (purpose
// "bombardment"), a kBombard event {target id, roll, target modifier, range
// modifier, modified, BV, "hit" | "double_hit" | "miss"}, then on a hit a
// kLoss {mv lost, cs lost, "bombardment"} and, at CS 0, kEliminated
// {"bombardment"}. The battery's bombarded_this_turn is set (it may not move
// in the following movement phase, digest 3.1). Bombardment never causes a
// retreat nor a morale test (digest 3.4).
BombardmentPhaseResult ResolveBombardmentPhase(const Ruleset& ruleset, const Scenario& scenario,
                                               GameState& state, Side mover, const Orders& orders,
                                               const std::vector<OrderVerdict>& checked,
                                               DiceSource& dice, std::vector<Event>& events);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_BOMBARDMENT_H_
