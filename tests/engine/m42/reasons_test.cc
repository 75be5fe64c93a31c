// One case per reason code of m42.md §5.2 not already reached by a §6 worked case (those are
// in worked_cases*_test.cc), hostile orders of the acceptance, and the order in which
// the pipeline reports (ruling M-R3) and names (ruling M-R4).
#include <string>

#include "tests/engine/m42/fixtures.h"

namespace pbem::m42::test {
namespace {

World Pair() {
  World w;
  w.Model("a1", "alpha", 10, 10).Model("a2", "alpha", 11, 10).Model("b1", "bravo", 30, 30);
  return w;
}

void ExpectInvalid(const Verdict& v, const std::string& code, const std::string& model = "") {
  ExpectVerdict(v, VerdictKind::kInvalid, code, model);
}

// §5.2 step 1: UNKNOWN_UNIT.
TEST_CASE_MINI(ReasonUnknownUnit) {
  ExpectInvalid(Pair().Check(Act("zulu", Action::kAdvance, {})), "UNKNOWN_UNIT");
}

// §5.2 step 1: UNKNOWN_MODEL, including a removed model (validate.h reading).
TEST_CASE_MINI(ReasonUnknownModel) {
  World w = Pair();
  ExpectInvalid(w.Check(Act("alpha", Action::kAdvance, {Move("a9", {V(10, 10), V(10, 11)})})),
                "UNKNOWN_MODEL", "a9");
  State s = w.Start();
  for (ModelState& m : s.models) m.alive = m.id != "a2";
  const auto v = CheckAction(w.ruleset, w.scenario, s, "blue",
                             Act("alpha", Action::kAdvance, {Move("a2", {V(11, 10), V(11, 11)})}));
  ExpectInvalid(v.verdict, "UNKNOWN_MODEL", "a2");
}

// §5.2 step 1: MODEL_NOT_IN_UNIT.
TEST_CASE_MINI(ReasonModelNotInUnit) {
  ExpectInvalid(Pair().Check(Act("alpha", Action::kAdvance, {Move("b1", {V(30, 30), V(30, 31)})})),
                "MODEL_NOT_IN_UNIT", "b1");
}

// §5.2 step 1: DUPLICATE_MODEL (one entry per model).
TEST_CASE_MINI(ReasonDuplicateModel) {
  ExpectInvalid(Pair().Check(Act("alpha", Action::kAdvance,
                                 {Move("a1", {V(10, 10), V(10, 11)}), Move("a1", {V(10, 11)})})),
                "DUPLICATE_MODEL", "a1");
}

// §5.2 step 1: MALFORMED_PATH: a 100,000-vertex path, absurd coordinates, a floor below 0, a
// vertex that changes floor and moves at once (M42-P03). The limit itself is accepted.
TEST_CASE_MINI(ReasonMalformedPath) {
  World w = Pair();
  std::vector<PathVertex> huge(100000, V(10, 10));
  ExpectInvalid(w.Check(Act("alpha", Action::kAdvance, {Move("a1", huge)})), "MALFORMED_PATH",
                "a1");
  std::vector<PathVertex> at_limit(w.ruleset.max_path_vertices, V(10, 10));
  CHECK_MINI(Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", at_limit)}))));
  at_limit.push_back(V(10, 10));
  ExpectInvalid(w.Check(Act("alpha", Action::kAdvance, {Move("a1", at_limit)})), "MALFORMED_PATH",
                "a1");
  const PathVertex absurd{std::int64_t{1} << 60, 0, std::nullopt};
  ExpectInvalid(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), absurd})})),
                "MALFORMED_PATH", "a1");
  const PathVertex most_negative{INT64_MIN, INT64_MIN, std::nullopt};
  ExpectInvalid(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {most_negative})})),
                "MALFORMED_PATH", "a1");
  ExpectInvalid(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 11, -1)})})),
                "MALFORMED_PATH", "a1");
  ExpectInvalid(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10, 0), V(10, 11, 1)})})),
                "MALFORMED_PATH", "a1");
}

// §5.2 step 1, M42-P03, M-R2: PATH_START_MISMATCH beyond eps or on another floor.
TEST_CASE_MINI(ReasonPathStartMismatch) {
  World w = Pair();
  const auto r =
      w.Resolve({Act("alpha", Action::kAdvance,
                     {Move("a1", {V(10.01, 10), V(10, 12)}), Move("a2", {V(11, 10), V(11, 12)})})});
  CHECK_MINI(Legal(r.verdicts.at(0)));
  CHECK_EQ_MINI(EventsOf<ModelMoved>(r).at(0).length, 2000);  // from the stored position
  ExpectInvalid(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10.011, 10), V(10, 12)})})),
                "PATH_START_MISMATCH", "a1");
  ExpectInvalid(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10, 1), V(10, 12, 1)})})),
                "PATH_START_MISMATCH", "a1");
}

// §5.2 step 1: UNIT_ALREADY_ACTED (one action per unit per Action Phase).
TEST_CASE_MINI(ReasonUnitAlreadyActed) {
  const auto order = Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 11)})});
  const auto r =
      Pair().Resolve({order, Act("alpha", Action::kAdvance, {Move("a1", {V(10, 11), V(10, 12)})})});
  CHECK_MINI(Legal(r.verdicts.at(0)));
  ExpectInvalid(r.verdicts.at(1), "UNIT_ALREADY_ACTED");
  CHECK_MINI(ModelIn(r.next, "a1").pos == P(10, 11));
}

// §5.2 step 1: NOT_ACTIVE_PLAYER: orders out of turn, or a unit of the other side.
TEST_CASE_MINI(ReasonNotActivePlayer) {
  World w = Pair();
  w.Model("x1", "xray", 50, 40);
  const auto out_of_turn = ResolvePlayerTurn(
      w.ruleset, w.scenario, w.StartFor("blue"),
      Orders{"red", {Act("xray", Action::kAdvance, {Move("x1", {V(50, 40), V(50, 41)})})}});
  ExpectInvalid(out_of_turn.verdicts.at(0), "NOT_ACTIVE_PLAYER");
  CHECK_EQ_MINI(out_of_turn.next.active_player, 0u);  // nothing changed, the phase goes on
  CHECK_MINI(out_of_turn.events.empty());
  const auto theirs =
      w.Resolve({Act("xray", Action::kAdvance, {Move("x1", {V(50, 40), V(50, 41)})})});
  ExpectInvalid(theirs.verdicts.at(0), "NOT_ACTIVE_PLAYER");
  CHECK_MINI(ModelIn(theirs.next, "x1").pos == P(50, 40));
}

World OnFloor() {
  World w;
  w.scenario.terrain.structures.push_back(FloorOneStructure("R1", false));
  w.Model("a1", "alpha", 31, 11, 90, 1, "R1");
  return w;
}

// §5.2 step 5, M42-P10: OFF_FLOOR when a segment on floor 1 leaves its polygon; the edge itself
// is still on the floor (closed region).
TEST_CASE_MINI(ReasonOffFloor) {
  World w = OnFloor();
  ExpectIllegal(
      w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(31, 11, 1), V(29.999, 11)})})),
      "OFF_FLOOR", "a1");
  CHECK_MINI(
      Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(31, 11, 1), V(30, 11)})}))));
}

// §5.2 step 5, M42-P17, GAP-17: the base may touch the table edge, never cross it.
TEST_CASE_MINI(ReasonOffTable) {
  World w;
  w.Model("a1", "alpha", 2, 2);
  CHECK_MINI(Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(2, 2), V(0.5, 2)})}))));
  ExpectIllegal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(2, 2), V(0.499, 2)})})),
                "OFF_TABLE", "a1");
  ExpectIllegal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(2, 2), V(-1, 2), V(2, 1)})})),
                "OFF_TABLE", "a1");
  w.ruleset.table_edge = TableEdge::kNone;
  CHECK_MINI(Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(2, 2), V(0.499, 2)})}))));
}

// §5.2 step 9, GAP-18, M42-P07, P08: ENDS_ON_OBSTACLE; half thickness 0.125 + r 0.5 - eps.
TEST_CASE_MINI(ReasonEndsOnObstacle) {
  World w;
  w.Model("a1", "alpha", 10, 14);
  w.O1(1);
  CHECK_MINI(
      Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 14), V(10, 12.615)})}))));
  ExpectIllegal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 14), V(10, 12.614)})})),
                "ENDS_ON_OBSTACLE", "a1", "O1");
  World p;
  p.Model("a1", "alpha", 20, 14);
  p.scenario.terrain.point_obstacles.push_back(PointObstacle{"P1", Square(19, 11, 21, 12), 1000});
  CHECK_MINI(
      Legal(p.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(20, 14), V(20, 12.49)})}))));
  ExpectIllegal(p.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(20, 14), V(20, 12.489)})})),
                "ENDS_ON_OBSTACLE", "a1", "P1");
  p.ruleset.allow_end_on_obstacle = true;  // GAP-18 configurable
  CHECK_MINI(
      Legal(p.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(20, 14), V(20, 12.489)})}))));
}

// §5.2 step 9, GAP-12, ruling M-R8: CROSSES_NON_TASK_FORCE only with task_force_scope: scenario.
TEST_CASE_MINI(ReasonCrossesNonTaskForce) {
  World w;
  w.Unit("charlie").task_force = "green";
  w.Model("a1", "alpha", 10, 10).Model("c1", "charlie", 10, 12.5);
  const auto order = Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 15)})});
  const auto as_player = w.Resolve({order});  // default scope: one Task Force per player
  CHECK_MINI(Legal(as_player.verdicts.at(0)));
  CHECK_MINI(EventsOf<SlowGoing>(as_player).at(0) == (SlowGoing{"a1", "c1"}));
  w.ruleset.task_force_scope = TaskForceScope::kScenario;
  ExpectIllegal(w.Check(order), "CROSSES_NON_TASK_FORCE", "a1", "c1");
  w.ruleset.non_task_force_friend = NonTaskForceFriend::kSlow;
  CHECK_MINI(Legal(w.Check(order)));
}

// §5.2 step 8 reports the enemy with the smallest clearance (M-R4), ties by smallest id.
TEST_CASE_MINI(RulingEnemyNamed) {
  World w;
  w.Model("a1", "alpha", 10, 10).Model("x2", "xray", 12, 14).Model("x1", "xray", 8, 14.5);
  ExpectIllegal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 14)})})),
                "ENEMY_TOO_CLOSE", "a1", "x2", 1000, 2000);
  World t;
  t.Model("a1", "alpha", 10, 10).Model("x2", "xray", 12, 14).Model("x1", "xray", 8, 14);
  ExpectIllegal(t.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 14)})})),
                "ENEMY_TOO_CLOSE", "a1", "x1", 1000, 2000);
}

// Ruling M-R4: of two woods crossed, the smallest id (byte-wise) is named.
TEST_CASE_MINI(RulingFeatureNamed) {
  World w;
  w.Model("a1", "alpha", 10, 10);
  w.scenario.terrain.areas.push_back(Area("W2", Square(8, 11, 12, 12)));
  w.scenario.terrain.areas.push_back(Area("W10", Square(8, 13, 12, 14)));
  ExpectIllegal(w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 16)})})),
                "AT_THE_DOUBLE_IN_SLOW_GOING", "a1", "W10");
}

// Ruling M-R3: step 6 (a later model's Slow) is reported before step 8 (an earlier model's
// clearance fault); the first failing step decides the whole unit's order.
TEST_CASE_MINI(RulingStepOrder) {
  World w;
  w.Model("a1", "alpha", 10, 10).Model("a2", "alpha", 11.5, 10).Model("x1", "xray", 10, 16);
  w.scenario.terrain.areas.push_back(Area("W1", Square(11, 12, 13, 13)));
  const auto order =
      Act("alpha", Action::kAtTheDouble,
          {Move("a1", {V(10, 10), V(10, 14)}), Move("a2", {V(11.5, 10), V(11.5, 14)})});
  ExpectIllegal(w.Check(order), "AT_THE_DOUBLE_IN_SLOW_GOING", "a2", "W1");
  const auto advance =
      Act("alpha", Action::kAdvance,
          {Move("a1", {V(10, 10), V(10, 14)}), Move("a2", {V(11.5, 10), V(11.5, 14)})});
  ExpectIllegal(w.Check(advance), "ENEMY_TOO_CLOSE", "a1", "x1", 1000, 2000);
}

}  // namespace
}  // namespace pbem::m42::test
