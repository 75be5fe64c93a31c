#include "engine/morne_plaine/bombardment.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "engine/morne_plaine/line_of_sight.h"
#include "engine/morne_plaine/movement.h"

namespace pbem::engine {

Die BombardDie(const BombardModel& model) {
  if (model.die_faces == 4) return Die::kD4;
  if (model.die_faces == 9) return Die::kD9;
  return Die::kD6;
}

BombardShot JudgeBombardShot(const Ruleset& ruleset, const UnitSpec& firer,
                             const TerrainType& target_terrain, int distance, int roll) {
  const BombardModel& bm = ruleset.params.bombard;
  BombardShot shot;
  shot.roll = roll;
  shot.bv = firer.bv;
  // Digest 3.4 step 1: +1 in a town or hamlet, +2 in a fort (terrain data),
  // +1 at the artillery's maximum range.
  shot.target_modifier = target_terrain.bombard_target_modifier;
  shot.range_modifier = distance == firer.range ? bm.max_range_modifier : 0;
  shot.modified = roll + shot.target_modifier + shot.range_modifier;
  // Step 2: a hit when the modified number is at most BV; an unmodified 1
  // that is also at most BV - 2 after modifiers costs twice the loss.
  shot.hit = shot.modified <= shot.bv;
  shot.doubled = shot.hit && roll == 1 && shot.modified <= shot.bv - bm.double_loss_margin;
  shot.loss = shot.hit ? (shot.doubled ? 2 * bm.loss_mv : bm.loss_mv) : 0;
  return shot;
}

MoraleLossSplit SplitMoraleLoss(const UnitSpec& spec, const UnitState& state, int points) {
  MoraleLossSplit out;
  if (points <= 0) return out;
  if (!spec.is_leader()) out.mv_lost = std::min(std::max(state.mv, 0), points);
  out.cs_lost = std::min(points - out.mv_lost, std::max(state.cs, 0));
  return out;
}

std::optional<BombardRefusal> CheckBombardment(const Ruleset& ruleset, const Scenario& scenario,
                                               const GameState& state, UnitId firer, Hex target) {
  const Map& map = scenario.map;
  const UnitSpec& spec = scenario.unit(firer);
  const UnitState& us = state.unit(firer);
  const Hex from = *us.hex;
  // Digest 3.1: each artillery unit fires at most once in the phase.
  if (us.bombarded_this_turn) {
    return BombardRefusal{Reason::kAlreadyFired, {spec.id}};
  }
  // Digest 3.1, #2: not from woods or a town (V2006, kept as DEFAULT).
  const TerrainType& from_terrain = ruleset.terrain_type(map.terrain(from));
  if (from_terrain.no_artillery_fire) {
    return BombardRefusal{Reason::kCannotFireFromTerrain, {from, from_terrain.name}};
  }
  // Digest 3.1 GAP: allowed in an enemy ZoC unless the ruleset says not.
  if (!ruleset.params.bombard_allowed_in_enemy_zoc) {
    const Board board(scenario, state);
    if (ControlOf(ruleset, scenario, state, board, from, Opponent(spec.side)).any()) {
      return BombardRefusal{Reason::kBombardInEnemyZoc, {from}};
    }
  }
  // Digest 3.1: the target is an enemy unit. (Firing over units of either
  // side is allowed: units never block, digest 3.3 step 6.)
  const std::optional<UnitId> victim = state.UnitAt(target);
  if (!victim || scenario.unit(*victim).side == spec.side || !state.unit(*victim).on_map()) {
    return BombardRefusal{Reason::kNoTarget, {target}};
  }
  // Digest 3.2: 1..range hexes (min_bombard_distance, GAP).
  const int distance = Distance(from, target);
  if (distance < ruleset.params.min_bombard_distance || distance > spec.range) {
    return BombardRefusal{
        Reason::kOutOfRange,
        {target, std::int64_t{distance}, std::int64_t{ruleset.params.min_bombard_distance},
         std::int64_t{spec.range}}};
  }
  // Digest 3.3: line of sight.
  const LosResult los = LineOfSight(ruleset, map, from, target);
  if (!los.clear) {
    std::vector<Arg> args{target};
    for (const Hex h : los.block->hexes) args.emplace_back(h);
    return BombardRefusal{Reason::kNoLineOfSight, std::move(args)};
  }
  return std::nullopt;
}

namespace {

void Emit(std::vector<Event>& events, std::optional<UnitId> unit, std::vector<Hex> hexes,
          EventBody body, std::optional<DieRoll> die = std::nullopt) {
  events.push_back(
      Event{Phase::kBombardment, unit, std::move(hexes), std::move(body), std::move(die)});
}

// One battery fires at the unit in `at` (CheckBombardment passed).
void Fire(const Ruleset& ruleset, const Scenario& scenario, GameState& state, UnitId firer, Hex at,
          DiceSource& dice, std::vector<Event>& events) {
  const UnitSpec& fs = scenario.unit(firer);
  const Hex from = *state.unit(firer).hex;
  const UnitId target = *state.UnitAt(at);
  const UnitSpec& ts = scenario.unit(target);
  state.unit(firer).bombarded_this_turn = true;

  const Die die = BombardDie(ruleset.params.bombard);
  const int roll = dice.Roll(die);
  Emit(events, firer, {from, at}, payload::Die{}, DieRoll{die, roll, "bombardment"});
  const BombardShot shot = JudgeBombardShot(
      ruleset, fs, ruleset.terrain_type(scenario.map.terrain(at)), Distance(from, at), roll);
  Emit(events, firer, {from, at},
       payload::Bombard{ts.id, shot.roll, shot.target_modifier, shot.range_modifier, shot.modified,
                        shot.bv,
                        !shot.hit      ? "miss"
                        : shot.doubled ? "double_hit"
                                       : "hit"});
  if (shot.loss <= 0) return;

  // Digest 3.4 steps 2 and 3, 5.12: MV first, then CS; CS 0 eliminates.
  UnitState& t = state.unit(target);
  const MoraleLossSplit split = SplitMoraleLoss(ts, t, shot.loss);
  t.mv -= split.mv_lost;
  t.cs -= split.cs_lost;
  Emit(events, target, {at}, payload::Loss{split.mv_lost, split.cs_lost, "bombardment"});
  if (t.cs <= 0) {
    t.eliminated = true;
    t.cs = 0;
    t.hex.reset();
    Emit(events, target, {at}, payload::Eliminated{"bombardment"});
    GrantEliminationBonus(ruleset, scenario, state, firer, Phase::kBombardment, events);
  }
}

}  // namespace

void GrantEliminationBonus(const Ruleset& ruleset, const Scenario& scenario, GameState& state,
                           UnitId winner, Phase phase, std::vector<Event>& events) {
  if (ruleset.params.elimination_bonus_scope != EliminationBonusScope::kAll) return;
  UnitState& w = state.unit(winner);
  if (scenario.unit(winner).is_leader() || !w.on_map() || w.mv >= w.mv_initial) return;
  ++w.mv;
  events.push_back(Event{phase, winner, {*w.hex}, payload::MoraleGained{1, "elimination"}, {}});
}

BombardmentPhaseResult ResolveBombardmentPhase(const Ruleset& ruleset, const Scenario& scenario,
                                               GameState& state, Side mover, const Orders& orders,
                                               const std::vector<OrderVerdict>& checked,
                                               DiceSource& dice, std::vector<Event>& events) {
  BombardmentPhaseResult result;
  for (const OrderVerdict& v : checked) {
    if (v.order_kind != OrderKind::kBombardment) continue;
    OrderVerdict out = v;
    if (v.verdict != VerdictKind::kOk) {
      result.verdicts.push_back(std::move(out));
      continue;
    }
    const BombardmentOrder& order = orders.bombardments[static_cast<std::size_t>(v.index)];
    const UnitId firer = *scenario.FindUnit(order.unit);
    if (scenario.unit(firer).side != mover || !state.unit(firer).on_map()) {
      out.verdict = VerdictKind::kIllegal;
      out.reason = Reason::kUnitNotOnMap;
      out.args = {order.unit};
    } else if (auto refusal = CheckBombardment(ruleset, scenario, state, firer, order.target)) {
      out.verdict = VerdictKind::kIllegal;
      out.reason = refusal->reason;
      out.args = std::move(refusal->args);
    } else {
      Fire(ruleset, scenario, state, firer, order.target, dice, events);
      // Fired: the check's note (depends_on_dice) has been answered.
      out.reason = Reason::kNone;
      out.args.clear();
    }
    result.verdicts.push_back(std::move(out));
  }
  return result;
}

}  // namespace pbem::engine
