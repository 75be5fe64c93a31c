#include "engine/morne_plaine/scenario.h"

namespace pbem::engine {

void Scenario::IndexUnits() {
  unit_index.clear();
  leader_index.clear();
  for (std::size_t i = 0; i < units.size(); ++i) {
    const auto n = static_cast<std::int32_t>(i);
    unit_index.emplace(units[i].id, n);
    if (units[i].is_leader()) {
      leader_index.emplace(std::make_pair(units[i].side, units[i].corps), n);
    }
  }
}

std::optional<UnitId> Scenario::FindUnit(std::string_view id) const {
  if (!unit_index.empty()) {
    const auto it = unit_index.find(std::string(id));
    if (it != unit_index.end()) {
      const auto i = static_cast<std::size_t>(it->second);
      if (i < units.size() && units[i].id == id) return UnitId{it->second};
    }
  }
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (units[i].id == id) return UnitId{static_cast<std::int32_t>(i)};
  }
  return std::nullopt;
}

std::optional<UnitId> Scenario::LeaderOf(Side side, std::string_view corps) const {
  if (!leader_index.empty()) {
    const auto it = leader_index.find(std::make_pair(side, std::string(corps)));
    if (it != leader_index.end()) {
      const auto i = static_cast<std::size_t>(it->second);
      if (i < units.size() && units[i].is_leader() && units[i].side == side &&
          units[i].corps == corps) {
        return UnitId{it->second};
      }
    }
  }
  for (std::size_t i = 0; i < units.size(); ++i) {
    const UnitSpec& u = units[i];
    if (u.is_leader() && u.side == side && u.corps == corps) {
      return UnitId{static_cast<std::int32_t>(i)};
    }
  }
  return std::nullopt;
}

std::vector<ScenarioProblem> ValidateScenario(const Scenario& s) {
  std::vector<ScenarioProblem> out;
  if (s.turns < 1) out.push_back({"turns", "a scenario needs at least one turn"});
  std::map<std::string, std::size_t> ids;
  std::map<Hex, std::size_t> occupied;
  std::map<std::pair<int, std::string>, std::size_t> leaders;
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    const UnitSpec& u = s.units[i];
    const std::string path = "units[" + std::to_string(i) + "]";
    if (u.id.empty()) out.push_back({path + ".id", "a unit has no id"});
    if (!ids.emplace(u.id, i).second) {
      out.push_back({path + ".id", "duplicate unit id '" + u.id + "'"});
    }
    if (u.cs < 1) out.push_back({path + ".cs", "unit '" + u.id + "' needs a CS of at least 1"});
    if (u.ma < 0) out.push_back({path + ".ma", "unit '" + u.id + "' has a negative MA"});
    if (!u.is_leader() && u.mv < 0) {
      out.push_back({path + ".mv", "unit '" + u.id + "' has a negative MV"});
    }
    if (u.arm == Arm::kArtillery && u.range < 1) {
      out.push_back({path + ".range", "artillery unit '" + u.id + "' needs a range of at least 1"});
    }
    if (u.is_leader()) {
      if (u.command_radius < 0) {
        out.push_back({path + ".command_radius", "leader '" + u.id + "' has a negative radius"});
      }
      const auto key = std::make_pair(static_cast<int>(u.side), u.corps);
      if (const auto [it, fresh] = leaders.emplace(key, i); !fresh) {
        out.push_back({path + ".corps", "corps '" + u.corps + "' of " +
                                            std::string(SideName(u.side)) + " has two leaders: '" +
                                            s.units[it->second].id + "' and '" + u.id + "'"});
      }
    }
    if (u.start_hex) {
      if (!s.map.Contains(*u.start_hex)) {
        out.push_back({path + ".start_hex",
                       "unit '" + u.id + "' starts off the map at " + FormatLabel(*u.start_hex)});
      } else if (const auto [it, fresh] = occupied.emplace(*u.start_hex, i); !fresh) {
        out.push_back({path + ".start_hex", "units '" + s.units[it->second].id + "' and '" + u.id +
                                                "' both start in " + FormatLabel(*u.start_hex) +
                                                " (no stacking, ever)"});
      }
    }
  }
  for (int side = 0; side < 2; ++side) {
    for (const Hex& h : s.deployment[side]) {
      if (!s.map.Contains(h)) {
        out.push_back({"deployment_zones", "deployment hex " + FormatLabel(h) + " is off the map"});
      }
    }
  }
  for (std::size_t i = 0; i < s.objectives.size(); ++i) {
    for (const Hex& h : s.objectives[i].hexes) {
      if (!s.map.Contains(h)) {
        out.push_back({"objectives[" + std::to_string(i) + "]",
                       "objective hex " + FormatLabel(h) + " is off the map"});
      }
    }
  }
  return out;
}

}  // namespace pbem::engine
