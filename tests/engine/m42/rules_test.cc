// One case per numbered rule of m42.md §3 that no §6 worked case reaches alone, and the GAP
// alternatives of §8 this engine implements (ruleset.h), hand-worked.
#include "tests/engine/m42/fixtures.h"

namespace pbem::m42::test {
namespace {

// M42-R01, P18, GAP-01, GAP-05: the allowance depends only on Mv, the action and Difficult.
TEST_CASE_MINI(R01Allowance) {
  const Ruleset r = DefaultRuleset();
  CHECK_EQ_MINI(Allowance(r, Action::kAdvance, 5, 0), 5);
  CHECK_EQ_MINI(Allowance(r, Action::kAtTheDouble, 5, 0), 10);
  CHECK_EQ_MINI(Allowance(r, Action::kOpenFire, 5, 0), 0);
  CHECK_EQ_MINI(Allowance(r, Action::kGetDown, 5, 0), 0);
  CHECK_EQ_MINI(Allowance(r, Action::kAtTheDouble, 5, 1), 5);  // M42-R06: halved
  CHECK_EQ_MINI(Allowance(r, Action::kAdvance, 5, 3), 2);      // once, however many (GAP-05)
  Ruleset per = r;
  per.difficult_model = DifficultModel::kHalvePerFeature;
  CHECK_EQ_MINI(Allowance(per, Action::kAdvance, 5, 2), 1);
  CHECK_EQ_MINI(Allowance(per, Action::kAtTheDouble, 6, 2), 3);
}

// M42-R05: Slow Going does not shorten an Advance (full 5" across a 1" obstacle and woods).
TEST_CASE_MINI(R05SlowKeepsAdvance) {
  World w;
  w.Model("a1", "alpha", 10, 10);
  w.O1(1);
  w.scenario.terrain.areas.push_back(Area("W1", Square(8, 13, 12, 14)));
  CHECK_MINI(Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 15)})}))));
}

// M42-R08, ruling M-R6, GAP-19: an explicit impassable polygon stops the base; touching it
// does not; explicit_impassable: false ignores the flag.
TEST_CASE_MINI(R08ExplicitImpassable) {
  World w;
  w.Model("a1", "alpha", 10, 10);
  w.scenario.terrain.impassable.push_back(ImpassableArea{"Lake", Square(8, 14, 12, 18)});
  ExpectIllegal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 15)})})),
                "IMPASSABLE", "a1", "Lake");
  CHECK_MINI(
      Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 13.51)})}))));
  ExpectIllegal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 13.511)})})),
                "IMPASSABLE", "a1", "Lake");
  w.ruleset.explicit_impassable = false;
  CHECK_MINI(Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 15)})}))));
}

// M42-R13: passing within 2" is illegal even when the move ends far away.
TEST_CASE_MINI(R13PassingTooClose) {
  World w;
  w.Model("a1", "alpha", 10, 10).Model("x1", "xray", 14, 12);
  ExpectIllegal(
      w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(11.5, 12), V(10, 14)})})),
      "ENEMY_TOO_CLOSE", "a1", "x1", 1500, 2000);
}

// M42-R20: an intact structure moves like a ruin (T19 (a) again).
TEST_CASE_MINI(R20IntactLikeRuin) {
  for (bool ruin : {true, false}) {
    World w;
    w.scenario.terrain.structures.push_back(FloorOneStructure("S1", ruin));
    w.Model("a1", "alpha", 31, 11);
    const auto r = w.Resolve(
        {Act("alpha", Action::kAdvance, {Move("a1", {V(31, 11, 0), V(31, 11, 1), V(32, 12, 1)})})});
    CHECK_MINI(Legal(r.verdicts.at(0)));
    CHECK_MINI(EventsOf<DifficultGoing>(r).at(0) == (DifficultGoing{"a1", "S1", 2}));
  }
}

// M42-R29, P14: a model with no entry stays put and is still checked (GAP-13); the first
// listed model outside the group is named with its nearest model. A unit that does not move
// is not checked ("When a unit moves").
TEST_CASE_MINI(R29UnlistedModel) {
  World w;
  w.Model("a1", "alpha", 10, 10).Model("a2", "alpha", 12, 10);
  ExpectIllegal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 14)})})),
                "COHERENCY", "a2", "a1", 3472, 2000);
  World apart;
  apart.Model("a1", "alpha", 10, 10).Model("a2", "alpha", 20, 10);
  CHECK_MINI(Legal(apart.Check(Act("alpha", Action::kOpenFire, {Turn("a1", 0)}))));
}

// M42-R30: a Leaper goes up hills at the double.
TEST_CASE_MINI(R30LeaperHill) {
  World w;
  w.scenario.terrain.hills.push_back(Hill{"H1", {Square(0, 14, 20, 30), Square(5, 16, 15, 25)}});
  w.Model("a1", "alpha", 10, 10);
  const auto order = Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 20)})});
  ExpectIllegal(w.Check(order), "AT_THE_DOUBLE_IN_SLOW_GOING", "a1", "H1");
  w.Unit("alpha").leaper = true;
  CHECK_MINI(Legal(w.Check(order)));
}

// GAP-24 (hill_slow_on: any_crossing): crossing a hill downwards becomes Slow.
TEST_CASE_MINI(Gap24HillAnyCrossing) {
  World w;
  w.scenario.terrain.hills.push_back(Hill{"H1", {Square(0, 14, 20, 30)}});
  w.Model("a1", "alpha", 10, 20);
  const auto order = Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 20), V(10, 10)})});
  CHECK_MINI(Legal(w.Check(order)));
  w.ruleset.hill_slow_on = HillSlowOn::kAnyCrossing;
  ExpectIllegal(w.Check(order), "AT_THE_DOUBLE_IN_SLOW_GOING", "a1", "H1");
}

// GAP-07, ruling M-R9: moving only inside woods is Slow by default; a model standing in woods
// that does not move collects nothing.
TEST_CASE_MINI(Gap07InsideArea) {
  World w;
  w.scenario.terrain.areas.push_back(Area("W1", Square(8, 8, 20, 20)));
  w.Model("a1", "alpha", 10, 10).Model("a2", "alpha", 11.5, 10).Model("a3", "alpha", 7.5, 10);
  const auto inside = Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 11)})});
  ExpectIllegal(w.Check(inside), "AT_THE_DOUBLE_IN_SLOW_GOING", "a1", "W1");
  // M-R9: a1 and a2 stand in the woods and do not move; a3 moves along their edge (touching).
  CHECK_MINI(
      Legal(w.Check(Act("alpha", Action::kAtTheDouble, {Move("a3", {V(7.5, 10), V(7.5, 9)})}))));
  w.ruleset.area_slow_when_inside = false;
  CHECK_MINI(Legal(w.Check(inside)));
}

// Ruling M-R10: area terrain and structure bases act on floor 0 only; walls on every floor.
TEST_CASE_MINI(RulingUpperFloors) {
  World w;
  Structure s;
  s.id = "S1";
  s.base = Square(30, 10, 40, 20);
  s.floors.push_back(Floor{1, Square(30, 10, 40, 20)});
  s.walls.push_back(StructureWall{table::Wall{{P(35, 10), P(35, 20)}, {}}, 3000});
  w.scenario.terrain.structures.push_back(s);
  w.Model("a1", "alpha", 31, 11, 90, 1, "S1");
  CHECK_MINI(
      Legal(w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(31, 11, 1), V(31, 19)})}))));
  ExpectIllegal(
      w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(31, 11, 1), V(34, 11), V(36, 11)})})),
      "EXCEEDS_ALLOWANCE", "a1", "", 5000, 2000);
}

// GAP-10 and GAP-11 alternatives: the centre alone through an opening; Leapers over walls.
TEST_CASE_MINI(Gap10Gap11Walls) {
  World w;
  Structure b;
  b.id = "Bld1";
  b.walls.push_back(
      StructureWall{table::Wall{{P(40, 10), P(40, 20)}, {{ToUnits(4000), ToUnits(5500)}}}, 5000});
  w.scenario.terrain.structures.push_back(b);
  w.Model("a1", "alpha", 38, 14.3);
  const auto order = Act("alpha", Action::kAdvance, {Move("a1", {V(38, 14.3), V(42, 14.3)})});
  CHECK_EQ_MINI(Code(w.Check(order)), "EXCEEDS_ALLOWANCE");
  World fit = w;
  fit.ruleset.opening_requires_fit = false;
  CHECK_MINI(Legal(fit.Check(order)));
  w.Unit("alpha").leaper = true;
  CHECK_EQ_MINI(Code(w.Check(order)), "EXCEEDS_ALLOWANCE");  // GAP-11 default: unchanged
  w.ruleset.leaper_ignores_walls = true;
  CHECK_MINI(Legal(w.Check(order)));
}

// GAP-03 (measure: centre): T13 (a) is legal when distances run centre to centre (2.5 >= 2).
TEST_CASE_MINI(Gap03MeasureCentre) {
  World w;
  w.Model("a1", "alpha", 17.5, 6).Model("x1", "xray", 20, 12);
  const auto order = Act("alpha", Action::kAtTheDouble, {Move("a1", {V(17.5, 6), V(17.5, 16)})});
  CHECK_EQ_MINI(Code(w.Check(order)), "ENEMY_TOO_CLOSE");
  w.ruleset.measure = Measure::kCentre;
  CHECK_MINI(Legal(w.Check(order)));
}

// §9: every parameter of the digest's block, set explicitly, and the obstacle bands.
TEST_CASE_MINI(DefaultsAreTheDigests) {
  const Ruleset r = DefaultRuleset();
  CHECK_EQ_MINI(r.ruleset, "m42_movement_v0_5");
  CHECK_EQ_MINI(r.epsilon_in, 10);
  CHECK_EQ_MINI(r.default_base_diameter_in, 1000);
  CHECK_MINI(r.measure == Measure::kBaseEdge && !r.distance_3d);
  CHECK_MINI((r.action_move_factor == std::array<int, kActionCount>{1, 2, 0, 0}));
  CHECK_MINI(r.difficult_model == DifficultModel::kHalveAllowanceOnce);
  CHECK_EQ_MINI(r.enemy_clearance_in, 2000);
  CHECK_EQ_MINI(r.close_combat_range_in, 6000);
  CHECK_EQ_MINI(r.coherency_in, 2000);
  CHECK_MINI(r.coherency_check == CoherencyCheck::kConnected && !r.leader_moves_first);
  CHECK_MINI(r.task_force_scope == TaskForceScope::kPlayer);
  CHECK_MINI(r.non_task_force_friend == NonTaskForceFriend::kImpassable);
  CHECK_MINI(r.area_slow_when_inside && r.hill_slow_on == HillSlowOn::kAscentOnly);
  CHECK_MINI(!r.count_vertical_distance && r.floor_access == FloorAccess::kAnywhere);
  CHECK_MINI(r.opening_requires_fit && !r.leaper_ignores_walls);
  CHECK_EQ_MINI(r.linear_obstacle_thickness_in, 250);
  CHECK_MINI(!r.allow_end_on_obstacle && r.explicit_impassable);
  CHECK_MINI(r.table_edge == TableEdge::kWall && r.facing_default == FacingDefault::kKeep);
  CHECK_MINI(r.on_illegal_order == OnIllegalOrder::kHoldAndSpend && r.roads == Roads::kNone);
  CHECK_MINI(CheckRuleset(r).empty());
  // Obstacle bands (M42-R17..R19, R31, GAP-04), at each limit and 0.001" above.
  const auto& n = r.obstacle_bands_normal;
  CHECK_MINI((ObstacleGoing(n, 2000) == Going{.slow = true}));
  CHECK_MINI((ObstacleGoing(n, 2001) == Going{.slow = true, .difficult = true}));
  CHECK_MINI((ObstacleGoing(n, 4000) == Going{.slow = true, .difficult = true}));
  CHECK_MINI((ObstacleGoing(n, 4001) == Going{.impassible = true}));
  const auto& l = r.obstacle_bands_leaper;
  CHECK_MINI((ObstacleGoing(l, 2000) == Going{}));
  CHECK_MINI((ObstacleGoing(l, 2001) == Going{.slow = true}));
  CHECK_MINI((ObstacleGoing(l, 3999) == Going{.slow = true}));
  CHECK_MINI((ObstacleGoing(l, 4000) == Going{.slow = true, .difficult = true}));
  CHECK_MINI((ObstacleGoing(l, 5999) == Going{.slow = true, .difficult = true}));
  CHECK_MINI((ObstacleGoing(l, 6000) == Going{.impassible = true}));
}

// CheckRuleset names the keys whose values this engine cannot honour.
TEST_CASE_MINI(RulesetProblems) {
  Ruleset r = DefaultRuleset();
  r.difficult_model = DifficultModel::kDoubleCostInside;
  r.distance_3d = true;
  r.epsilon_in = -1;
  r.obstacle_bands_normal = {{4000, true, Going{}}, {2000, true, Going{}}};
  const std::vector<RulesetProblem> expected{{"epsilon_in", "out_of_range"},
                                             {"distance_3d", "not_implemented"},
                                             {"difficult_model", "not_implemented"},
                                             {"obstacle_bands.normal", "bands_not_increasing"}};
  CHECK_MINI(CheckRuleset(r) == expected);
}

}  // namespace
}  // namespace pbem::m42::test
