#include "engine/morne_plaine/ruleset.h"

#include <charconv>
#include <set>

namespace pbem::engine {

namespace {

template <typename IdT, typename T>
std::optional<IdT> FindByName(const std::vector<T>& items, std::string_view name) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].name == name) return IdT{static_cast<std::int32_t>(i)};
  }
  return std::nullopt;
}

std::string Indexed(std::string_view list, std::size_t i) {
  return std::string(list) + "[" + std::to_string(i) + "]";
}

template <typename T>
void CheckNames(const std::vector<T>& items, std::string_view list, std::string_view what,
                std::vector<RulesetProblem>& out) {
  std::set<std::string, std::less<>> seen;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string& name = items[i].name;
    if (name.empty()) {
      out.push_back({Indexed(list, i) + ".name", std::string(what) + " has no name"});
    } else if (!seen.insert(name).second) {
      out.push_back(
          {Indexed(list, i) + ".name", "duplicate " + std::string(what) + " name '" + name + "'"});
    }
  }
}

std::optional<int> ParseSmallInt(std::string_view s) {
  int v = 0;
  if (s.empty() || s.size() > 3) return std::nullopt;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

// "3*" -> (3, true); "0" -> (0, false).
bool ParseLoss(std::string_view s, int& loss, bool& test) {
  test = !s.empty() && s.back() == '*';
  if (test) s.remove_suffix(1);
  const auto v = ParseSmallInt(s);
  if (!v) return false;
  loss = *v;
  return true;
}

}  // namespace

std::optional<TerrainId> Ruleset::FindTerrain(std::string_view n) const {
  return FindByName<TerrainId>(terrain, n);
}
std::optional<MovementClassId> Ruleset::FindMovementClass(std::string_view n) const {
  return FindByName<MovementClassId>(movement_classes, n);
}
std::optional<UnitTypeId> Ruleset::FindUnitType(std::string_view n) const {
  return FindByName<UnitTypeId>(unit_types, n);
}

std::optional<OddsColumn> ParseOddsColumn(std::string_view label) {
  const auto dash = label.find('-');
  if (dash == std::string_view::npos || dash == 0) return std::nullopt;
  const auto a = ParseRational(label.substr(0, dash));
  const auto d = ParseRational(label.substr(dash + 1));
  if (!a || !d || *a <= Rational(0) || *d <= Rational(0)) return std::nullopt;
  return OddsColumn{std::string(label), *a, *d};
}

std::optional<CrtCell> ParseCrtCell(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  CrtCell cell;
  if (!ParseLoss(text.substr(0, slash), cell.attacker_loss, cell.attacker_test)) {
    return std::nullopt;
  }
  if (!ParseLoss(text.substr(slash + 1), cell.defender_loss, cell.defender_test)) {
    return std::nullopt;
  }
  return cell;
}

std::vector<RulesetProblem> ValidateRuleset(const Ruleset& rs) {
  std::vector<RulesetProblem> out;
  if (rs.name.empty()) out.push_back({"name", "the ruleset has no name"});
  if (rs.movement_classes.empty()) {
    out.push_back({"movement_classes", "no movement classes are defined"});
  }
  if (rs.terrain.empty()) out.push_back({"terrain", "no terrain types are defined"});
  if (rs.unit_types.empty()) out.push_back({"unit_types", "no unit types are defined"});
  CheckNames(rs.movement_classes, "movement_classes", "movement class", out);
  CheckNames(rs.terrain, "terrain", "terrain", out);
  CheckNames(rs.unit_types, "unit_types", "unit type", out);

  // Every terrain has a cost (or an explicit impassable flag) for every
  // movement class: the movement chart has no holes.
  for (std::size_t t = 0; t < rs.terrain.size(); ++t) {
    const TerrainType& terrain = rs.terrain[t];
    for (std::size_t c = 0; c < rs.movement_classes.size(); ++c) {
      const bool has = c < terrain.move_costs.size() && terrain.move_costs[c].has_value();
      if (!has) {
        out.push_back({Indexed("terrain", t) + ".move_costs",
                       "terrain '" + terrain.name + "' has no cost for movement class '" +
                           rs.movement_classes[c].name + "'"});
        continue;
      }
      const MoveCost& mc = *terrain.move_costs[c];
      if (!mc.impassable && mc.cost < 0) {
        out.push_back({Indexed("terrain", t) + ".move_costs",
                       "terrain '" + terrain.name + "' has a negative cost for '" +
                           rs.movement_classes[c].name + "'"});
      }
    }
    for (std::size_t c = 0; c < terrain.stuck_chance_in_4.size(); ++c) {
      const int chance = terrain.stuck_chance_in_4[c];
      if (chance < 0 || chance > 4) {
        out.push_back({Indexed("terrain", t) + ".stuck_chances",
                       "terrain '" + terrain.name + "': a stuck chance must be 0 to 4 in 4, got " +
                           std::to_string(chance)});
      }
    }
  }

  for (std::size_t u = 0; u < rs.unit_types.size(); ++u) {
    const UnitType& type = rs.unit_types[u];
    if (!type.movement_class.valid() || type.movement_class.index() >= rs.movement_classes.size()) {
      out.push_back({Indexed("unit_types", u) + ".movement_class",
                     "unit type '" + type.name + "' has no movement class"});
    }
    if (type.defaults.cs && *type.defaults.cs < 1) {
      out.push_back({Indexed("unit_types", u) + ".defaults.cs",
                     "unit type '" + type.name + "': CS must be at least 1"});
    }
  }

  // The CRT is complete: columns in strictly increasing odds, one row per
  // result from min to max, one cell per column in each row.
  const CombatResultsTable& crt = rs.crt;
  if (crt.columns.empty()) out.push_back({"crt.columns", "the CRT has no columns"});
  for (std::size_t c = 1; c < crt.columns.size(); ++c) {
    const Rational prev = crt.columns[c - 1].attacker / crt.columns[c - 1].defender;
    const Rational cur = crt.columns[c].attacker / crt.columns[c].defender;
    if (!(prev < cur)) {
      out.push_back({Indexed("crt.columns", c), "CRT column '" + crt.columns[c].label +
                                                    "' must give better odds than '" +
                                                    crt.columns[c - 1].label + "'"});
    }
  }
  if (crt.max_result < crt.min_result) {
    out.push_back({"crt.max_result", "the CRT's max_result is below its min_result"});
  } else {
    const std::size_t want_rows = static_cast<std::size_t>(crt.max_result - crt.min_result + 1);
    if (crt.rows.size() != want_rows) {
      out.push_back({"crt.rows", "the CRT needs " + std::to_string(want_rows) + " rows (results " +
                                     std::to_string(crt.min_result) + " to " +
                                     std::to_string(crt.max_result) + "), found " +
                                     std::to_string(crt.rows.size())});
    }
    for (std::size_t r = 0; r < crt.rows.size(); ++r) {
      if (crt.rows[r].size() != crt.columns.size()) {
        out.push_back({Indexed("crt.rows", r) + ".cells",
                       "CRT row for result " +
                           std::to_string(crt.min_result + static_cast<int>(r)) + " has " +
                           std::to_string(crt.rows[r].size()) + " cells, expected " +
                           std::to_string(crt.columns.size())});
      }
    }
  }

  for (std::size_t i = 0; i < rs.terrain_combat.size(); ++i) {
    const TerrainCombatEffect& e = rs.terrain_combat[i];
    if (!e.terrain.valid() || e.terrain.index() >= rs.terrain.size()) {
      out.push_back({Indexed("terrain_combat", i) + ".terrain", "unknown terrain"});
    }
    if (e.cs_multiplier <= Rational(0)) {
      out.push_back(
          {Indexed("terrain_combat", i) + ".cs_multiplier", "a CS multiplier must be positive"});
    }
  }

  const Parameters& p = rs.params;
  if (!rs.movement_classes.empty() && !rs.FindMovementClass(p.leaders_move_as)) {
    out.push_back({"parameters.leaders_move_as",
                   "leaders_move_as names unknown movement class '" + p.leaders_move_as + "'"});
  }
  if (p.min_bombard_distance < 1) {
    out.push_back({"parameters.min_bombard_distance", "min_bombard_distance must be at least 1"});
  }
  if (p.bombard.die_faces != 4 && p.bombard.die_faces != 6 && p.bombard.die_faces != 9) {
    out.push_back({"parameters.bombard_model.die", "the bombardment die must be d4, d6 or d9"});
  }
  if (p.charge_cs_multiplier < Rational(1)) {
    out.push_back({"parameters.charge_cs_multiplier", "charge_cs_multiplier must be at least 1"});
  }
  if (p.water_attack_multiplier <= Rational(0)) {
    out.push_back(
        {"parameters.water_attack_multiplier", "water_attack_multiplier must be positive"});
  }
  if (p.zoc_leave_cost < 0) {
    out.push_back({"parameters.zoc_leave_cost",
                   "zoc_leave_cost must be 0 or more, got " + std::to_string(p.zoc_leave_cost)});
  }
  if (p.reaction_fire_per_enemy_turn < 0) {
    out.push_back({"parameters.reaction_fire_per_enemy_turn",
                   "reaction_fire_per_enemy_turn must be 0 or more, got " +
                       std::to_string(p.reaction_fire_per_enemy_turn)});
  }
  if (rs.routes.road_alternating_costs.empty()) {
    out.push_back({"routes.road_alternating_costs", "road costs must list at least one value"});
  }
  if (rs.routes.track_slope_costs.size() != 4) {
    out.push_back({"routes.track_slope_costs",
                   "track_slope_costs needs four values (slopes of 0 to 3 levels)"});
  }
  return out;
}

}  // namespace pbem::engine
