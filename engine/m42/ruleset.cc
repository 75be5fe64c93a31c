#include "engine/m42/ruleset.h"

namespace pbem::m42 {

std::string_view ActionName(Action action) {
  switch (action) {
    case Action::kAdvance:
      return "ADVANCE";
    case Action::kAtTheDouble:
      return "AT_THE_DOUBLE";
    case Action::kOpenFire:
      return "OPEN_FIRE";
    case Action::kGetDown:
      return "GET_DOWN";
  }
  return "?";
}

Ruleset DefaultRuleset() {
  Ruleset r;
  r.ruleset = "m42_movement_v0_5";
  r.epsilon_in = 10;
  r.default_base_diameter_in = 1000;
  r.measure = Measure::kBaseEdge;
  r.distance_3d = false;
  r.action_move_factor = {1, 2, 0, 0};
  r.difficult_model = DifficultModel::kHalveAllowanceOnce;
  r.enemy_clearance_in = 2000;
  r.close_combat_range_in = 6000;
  r.coherency_in = 2000;
  r.coherency_check = CoherencyCheck::kConnected;
  r.leader_moves_first = false;
  r.task_force_scope = TaskForceScope::kPlayer;
  r.non_task_force_friend = NonTaskForceFriend::kImpassable;
  r.area_slow_when_inside = true;
  r.hill_slow_on = HillSlowOn::kAscentOnly;
  r.count_vertical_distance = false;
  r.floor_access = FloorAccess::kAnywhere;
  r.opening_requires_fit = true;
  r.leaper_ignores_walls = false;
  r.linear_obstacle_thickness_in = 250;
  r.allow_end_on_obstacle = false;
  r.explicit_impassable = true;
  r.table_edge = TableEdge::kWall;
  r.facing_default = FacingDefault::kKeep;
  r.on_illegal_order = OnIllegalOrder::kHoldAndSpend;
  r.roads = Roads::kNone;
  const Going slow{.slow = true};
  const Going slow_difficult{.slow = true, .difficult = true};
  const Going impassible{.impassible = true};
  // normal: <= 2 Slow (001:L78-80); (2, 4] Slow + Difficult (4 itself: GAP-04); > 4 Impassible.
  r.obstacle_bands_normal = {
      {2000, true, slow}, {4000, true, slow_difficult}, {{}, true, impassible}};
  // leaper (001:L146-150): <= 2 Clear; < 4 Slow; < 6 Slow + Difficult; 6 or more Impassible.
  r.obstacle_bands_leaper = {{2000, true, Going{}},
                             {4000, false, slow},
                             {6000, false, slow_difficult},
                             {{}, true, impassible}};
  r.max_path_vertices = 64;
  return r;
}

Going ObstacleGoing(const std::vector<ObstacleBand>& bands, Thou height) {
  for (const ObstacleBand& band : bands) {
    if (!band.max || height < *band.max || (band.inclusive && height == *band.max)) {
      return band.going;
    }
  }
  return Going{.impassible = true};
}

namespace {

bool BandsIncrease(const std::vector<ObstacleBand>& bands) {
  std::optional<Thou> previous;
  for (std::size_t i = 0; i < bands.size(); ++i) {
    if (!bands[i].max) return i + 1 == bands.size();
    if (previous && *bands[i].max < *previous) return false;
    previous = bands[i].max;
  }
  return true;
}

}  // namespace

std::vector<RulesetProblem> CheckRuleset(const Ruleset& r) {
  std::vector<RulesetProblem> out;
  auto range = [&](std::string_view key, Thou value, Thou max) {
    if (value < 0 || value > max) out.push_back({std::string(key), "out_of_range"});
  };
  // 1000" is beyond any table; the bounds keep every product inside engine/table's ranges.
  range("epsilon_in", r.epsilon_in, 1000);
  range("default_base_diameter_in", r.default_base_diameter_in, 100000);
  if (r.default_base_diameter_in == 0) out.push_back({"default_base_diameter_in", "out_of_range"});
  range("enemy_clearance_in", r.enemy_clearance_in, 1000000);
  range("close_combat_range_in", r.close_combat_range_in, 1000000);
  range("coherency_in", r.coherency_in, 1000000);
  range("linear_obstacle_thickness_in", r.linear_obstacle_thickness_in, 100000);
  for (int factor : r.action_move_factor) {
    if (factor < 0 || factor > 100) out.push_back({"action_move_factor", "out_of_range"});
  }
  if (r.distance_3d) out.push_back({"distance_3d", "not_implemented"});
  if (r.difficult_model == DifficultModel::kDoubleCostInside) {
    out.push_back({"difficult_model", "not_implemented"});
  }
  if (r.leader_moves_first) out.push_back({"leader_moves_first", "not_implemented"});
  if (r.count_vertical_distance) out.push_back({"count_vertical_distance", "not_implemented"});
  if (!BandsIncrease(r.obstacle_bands_normal)) {
    out.push_back({"obstacle_bands.normal", "bands_not_increasing"});
  }
  if (!BandsIncrease(r.obstacle_bands_leaper)) {
    out.push_back({"obstacle_bands.leaper", "bands_not_increasing"});
  }
  if (r.max_path_vertices < 2 || r.max_path_vertices > 10000) {
    out.push_back({"max_path_vertices", "out_of_range"});
  }
  return out;
}

}  // namespace pbem::m42
