#include "engine/morne_plaine/combat.h"

#include <algorithm>
#include <optional>

namespace pbem::engine {

namespace {

int FloorTimes(int value, Rational multiplier) {
  return static_cast<int>((Rational(value) * multiplier).Floor());
}

}  // namespace

bool InCombatContact(const Ruleset& ruleset, const Map& map, Hex a, Hex b) {
  if (!map.Contains(a) || !map.Contains(b)) return false;
  const std::optional<Hexside> side = SideBetween(a, b);
  if (!side) return false;
  // Digest 5.1: no combat across slopes of more than one level.
  if (map.SlopeCount(*side) >= 2) return false;
  // Nor across rivers and major rivers; R8, #24: a bridge or ford opens them.
  const HexsideInfo info = map.side(*side);
  if (info.water == Water::kRiver || info.water == Water::kMajorRiver) {
    return info.crossing != Crossing::kNone && ruleset.params.combat_across_river_crossings;
  }
  return true;
}

std::vector<UnitId> CombatSupports(const Ruleset& ruleset, const Scenario& scenario,
                                   const GameState& state, UnitId focus, Side side,
                                   UnitId exclude) {
  return CombatSupports(ruleset, scenario, state, Board(scenario, state), focus, side, exclude);
}

std::vector<UnitId> CombatSupports(const Ruleset& ruleset, const Scenario& scenario,
                                   const GameState& state, const Board& board, UnitId focus,
                                   Side side, UnitId exclude) {
  std::vector<UnitId> out;
  const Map& map = scenario.map;
  const Hex at = *state.unit(focus).hex;
  for (const Hex n : Neighbors(at)) {
    if (!map.Contains(n)) continue;
    const std::optional<UnitId> u = board.UnitAt(n);
    if (!u || *u == exclude || scenario.unit(*u).side != side) continue;
    const UnitState& us = state.unit(*u);
    if (!us.on_map() || !InCombatContact(ruleset, map, n, at)) continue;
    // Digest 5.12: demoralised units never support (leaders have no MV and
    // are never demoralised).
    if (!scenario.unit(*u).is_leader() && us.demoralised()) continue;
    // Digest 5.11: victorious units always support.
    bool free = true;
    if (!us.victorious) {
      for (const Hex m : Neighbors(n)) {
        if (m == at || !map.Contains(m)) continue;
        const std::optional<UnitId> e = board.UnitAt(m);
        if (e && scenario.unit(*e).side != side && InCombatContact(ruleset, map, n, m)) {
          free = false;
          break;
        }
      }
    }
    if (free) out.push_back(*u);
  }
  return out;
}

CorrectedStrength CorrectStrength(const Ruleset& ruleset, const Scenario& scenario,
                                  const GameState& state, UnitId unit, CombatSide side,
                                  UnitId defender) {
  const Map& map = scenario.map;
  const UnitSpec& spec = scenario.unit(unit);
  const UnitState& us = state.unit(unit);
  CorrectedStrength s;
  s.cs = us.cs;
  s.after_charge = s.cs;
  if (side == CombatSide::kAttacking &&
      std::find(us.charged_targets.begin(), us.charged_targets.end(), defender) !=
          us.charged_targets.end()) {
    s.after_charge = FloorTimes(s.cs, ruleset.params.charge_cs_multiplier);
  }
  s.after_terrain = s.after_charge;
  if (side == CombatSide::kDefending) {
    const TerrainId t = map.terrain(*us.hex);
    for (const TerrainCombatEffect& e : ruleset.terrain_combat) {
      if (e.terrain != t) continue;
      if (!e.arms.empty() && std::find(e.arms.begin(), e.arms.end(), spec.arm) == e.arms.end()) {
        continue;
      }
      s.after_terrain = FloorTimes(s.after_charge, e.cs_multiplier);
      if (s.after_terrain != s.after_charge) s.terrain = ruleset.terrain_type(t).name;
      break;
    }
  }
  s.after_water = s.after_terrain;
  if (side == CombatSide::kAttacking) {
    const std::optional<Hexside> between = SideBetween(*us.hex, *state.unit(defender).hex);
    if (between) {
      const HexsideInfo info = map.side(*between);
      const bool stream = info.water == Water::kStream;
      const bool crossing = (info.water == Water::kRiver || info.water == Water::kMajorRiver) &&
                            info.crossing != Crossing::kNone;
      if (stream || crossing) {
        s.after_water = FloorTimes(s.after_terrain, ruleset.params.water_attack_multiplier);
        s.water = info.crossing == Crossing::kBridge ? "bridge"
                  : info.crossing == Crossing::kFord ? "ford"
                                                     : "stream";
      }
    }
  }
  s.value = std::max(s.after_water, 1);
  return s;
}

Odds ComputeOdds(const CombatResultsTable& crt, int attack, int defence) {
  Odds odds;
  odds.ratio = Rational(attack, defence);
  odds.column = 0;
  for (std::size_t i = 0; i < crt.columns.size(); ++i) {
    const OddsColumn& c = crt.columns[i];
    if (c.attacker / c.defender <= odds.ratio) odds.column = static_cast<int>(i);
  }
  return odds;
}

int CombatMorale(const UnitSpec& spec, const UnitState& state) {
  return spec.is_leader() ? state.cs + spec.command_radius : state.mv;
}

CombatDie ModifyCombatDie(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
                          UnitId attacker, UnitId defender, int roll) {
  const Map& map = scenario.map;
  const Hex a = *state.unit(attacker).hex;
  const Hex d = *state.unit(defender).hex;
  CombatDie die;
  die.roll = roll;
  // Digest 5.5: the attacker's and defender's hexes only, never supports.
  if (map.level(a) > map.level(d)) die.elevation = 1;
  if (map.level(a) < map.level(d)) die.elevation = -1;
  const int diff = CombatMorale(scenario.unit(attacker), state.unit(attacker)) -
                   CombatMorale(scenario.unit(defender), state.unit(defender));
  die.morale = diff / 2;  // C++ division truncates towards zero (#22)
  if (ruleset.params.morale_drm_model == MoraleDrmModel::kAttackerOnly) {
    die.morale = std::max(die.morale, 0);
  }
  const TerrainId t = map.terrain(d);
  for (const TerrainCombatEffect& e : ruleset.terrain_combat) {
    const UnitSpec& ds = scenario.unit(defender);
    if (e.terrain != t) continue;
    if (!e.arms.empty() && std::find(e.arms.begin(), e.arms.end(), ds.arm) == e.arms.end()) {
      continue;
    }
    die.terrain = e.attacker_die_modifier;
    if (die.terrain != 0) die.terrain_name = ruleset.terrain_type(t).name;
    break;
  }
  die.unclamped = die.roll + die.elevation + die.morale + die.terrain;
  die.result = std::clamp(die.unclamped, ruleset.crt.min_result, ruleset.crt.max_result);
  return die;
}

const CrtCell& CrtLookup(const CombatResultsTable& crt, int column, int result) {
  return crt
      .rows[static_cast<std::size_t>(result - crt.min_result)][static_cast<std::size_t>(column)];
}

}  // namespace pbem::engine
