// m42.md §6 worked cases M42-T13 .. M42-T25, hand-worked (each cites its case and rule), with
// the boundary at the digest's limit and one epsilon-step (0.001") either side.
#include "tests/engine/m42/fixtures.h"

namespace pbem::m42::test {
namespace {

// M42-T13, M42-R12, R13, P05: X1 at (20, 12). (a) passes 1.500 from X1; (b) closest edge
// distance exactly 2.000, ends 4.000 away -> CloseCombatJoined(alpha, xray).
TEST_CASE_MINI(T13EnemyClearance) {
  World a;
  a.Model("a1", "alpha", 17.5, 6).Model("x1", "xray", 20, 12);
  const Verdict va =
      a.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(17.5, 6), V(17.5, 16)})}));
  CHECK_EQ_MINI(Code(va), "ENEMY_TOO_CLOSE");
  CHECK_EQ_MINI(va.model, "a1");
  CHECK_EQ_MINI(va.other, "x1");
  CHECK_EQ_MINI(va.value, std::optional<Thou>(1500));
  auto at = [](double x) {
    World w;
    w.Model("a1", "alpha", x, 6).Model("x1", "xray", 20, 12);
    return w.Resolve({Act("alpha", Action::kAtTheDouble, {Move("a1", {V(x, 6), V(x, 16)})})});
  };
  const auto b = at(17);
  CHECK_MINI(Legal(b.verdicts.at(0)));
  CHECK_MINI(EventsOf<CloseCombatJoined>(b).at(0) == (CloseCombatJoined{"alpha", "xray", 4000}));
  CHECK_MINI(EventsOf<ClosestEnemy>(b).at(0) == (ClosestEnemy{"a1", "x1", 2000}));
  CHECK_MINI(Legal(at(17.01).verdicts.at(0)));  // 1.990 = 2 - eps
  const Verdict over = at(17.011).verdicts.at(0);
  CHECK_EQ_MINI(Code(over), "ENEMY_TOO_CLOSE");
  CHECK_EQ_MINI(over.value, std::optional<Thou>(1989));
}

// M42-T14, M42-R24, P15, GAP-15: within 6" (inclusive, + eps) joins close combat.
TEST_CASE_MINI(T14CloseCombatRange) {
  auto to = [](double x) {
    World w;
    w.Model("a1", "alpha", 10, 12).Model("x1", "xray", 20, 12);
    return w.Resolve({Act("alpha", Action::kAdvance, {Move("a1", {V(10, 12), V(x, 12)})})});
  };
  const auto a = to(13);
  CHECK_MINI(Legal(a.verdicts.at(0)));
  CHECK_MINI(EventsOf<CloseCombatJoined>(a).at(0) == (CloseCombatJoined{"alpha", "xray", 6000}));
  CHECK_MINI(FindUnit(a.next, "alpha")->close_combat_with.count("xray") == 1);
  CHECK_MINI(FindUnit(a.next, "xray")->close_combat_with.count("alpha") == 1);
  const auto b = to(12.9);
  CHECK_MINI(Legal(b.verdicts.at(0)));
  CHECK_EQ_MINI(EventsOf<CloseCombatJoined>(b).size(), 0u);
  CHECK_MINI(FindUnit(b.next, "alpha")->close_combat_with.empty());
  CHECK_EQ_MINI(EventsOf<CloseCombatJoined>(to(12.99)).size(), 1u);   // 6.010
  CHECK_EQ_MINI(EventsOf<CloseCombatJoined>(to(12.989)).size(), 0u);  // 6.011
}

// M42-T15, M42-R09: passing through a model of one's own unit is free.
TEST_CASE_MINI(T15OwnUnitPassThrough) {
  World w;
  w.Model("a1", "alpha", 10, 10).Model("a2", "alpha", 10, 12.5);
  const auto r = w.Resolve(
      {Act("alpha", Action::kAtTheDouble,
           {Move("a1", {V(10, 10), V(10, 20)}), Move("a2", {V(10, 12.5), V(10, 18.5)})})});
  CHECK_MINI(Legal(r.verdicts.at(0)));
  CHECK_EQ_MINI(EventsOf<SlowGoing>(r).size(), 0u);
  CHECK_MINI(ModelIn(r.next, "a1").pos == P(10, 20));
  CHECK_MINI(ModelIn(r.next, "a2").pos == P(10, 18.5));
}

World AlphaAndB1() {
  World w;
  w.Model("a1", "alpha", 10, 10).Model("b1", "bravo", 10, 12.5);
  return w;
}

// M42-T16, M42-R10, R05: another unit of the Task Force is Slow Going.
TEST_CASE_MINI(T16TaskForcePassThrough) {
  World w = AlphaAndB1();
  const Verdict a =
      w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 20)})}));
  ExpectIllegal(a, "AT_THE_DOUBLE_IN_SLOW_GOING", "a1", "b1");
  const auto b = w.Resolve({Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 15)})})});
  CHECK_MINI(Legal(b.verdicts.at(0)));
  CHECK_MINI(EventsOf<SlowGoing>(b).at(0) == (SlowGoing{"a1", "b1"}));
}

// M42-T17, M42-R11, P13: ending 0.8 from B1's centre overlaps; 1.000 touches (legal) and the
// sweep passes 0.928 from B1's centre (< 1.0 - eps) -> SlowGoing(a1, b1).
TEST_CASE_MINI(T17EndsOnFriendly) {
  World w = AlphaAndB1();
  const Verdict a =
      w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10.8, 12.5)})}));
  ExpectIllegal(a, "ENDS_ON_FRIENDLY", "a1", "b1");
  const auto b =
      w.Resolve({Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(11, 12.5)})})});
  CHECK_MINI(Legal(b.verdicts.at(0)));
  CHECK_MINI(EventsOf<SlowGoing>(b).at(0) == (SlowGoing{"a1", "b1"}));
  // Overlap by exactly eps (centres 0.990) is a touch; 0.989 overlaps.
  CHECK_MINI(
      Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10.99, 12.5)})}))));
  CHECK_EQ_MINI(
      Code(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10.989, 12.5)})}))),
      "ENDS_ON_FRIENDLY");
}

World WithHill() {
  World w;
  w.scenario.terrain.hills.push_back(Hill{"H1", {Square(0, 14, 20, 30)}});
  return w;
}

// M42-T18, M42-R14, R15, P09: going up a hill is Slow, going down Clear.
TEST_CASE_MINI(T18Hill) {
  World w = WithHill();
  w.Model("a1", "alpha", 10, 10);
  const Verdict a =
      w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 20)})}));
  CHECK_EQ_MINI(Code(a), "AT_THE_DOUBLE_IN_SLOW_GOING");
  CHECK_EQ_MINI(a.other, "H1");
  const auto b = w.Resolve({Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 15)})})});
  CHECK_MINI(Legal(b.verdicts.at(0)));
  CHECK_MINI(EventsOf<SlowGoing>(b).at(0) == (SlowGoing{"a1", "H1"}));
  World c = WithHill();
  c.Model("a1", "alpha", 10, 20);
  CHECK_MINI(
      Legal(c.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 20), V(10, 10)})}))));
  // The centre reaching the step's edge (closed) is going up; stopping 0.001" short is not.
  CHECK_EQ_MINI(
      Code(w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 14)})}))),
      "AT_THE_DOUBLE_IN_SLOW_GOING");
  CHECK_MINI(
      Legal(w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 13.999)})}))));
}

World Ruin(double x, double y, int floor) {
  World w;
  w.scenario.terrain.structures.push_back(FloorOneStructure("R1", true));
  w.Model("a1", "alpha", x, y, 90, floor,
          floor > 0 ? std::optional<std::string>("R1") : std::nullopt);
  return w;
}

// M42-T19, M42-R22, R30, P10: climbing a floor is Difficult (Leaper: Clear), down is Clear.
TEST_CASE_MINI(T19Floors) {
  World w = Ruin(31, 11, 0);
  const auto a = w.Resolve(
      {Act("alpha", Action::kAdvance, {Move("a1", {V(31, 11, 0), V(31, 11, 1), V(32, 12, 1)})})});
  CHECK_MINI(Legal(a.verdicts.at(0)));
  CHECK_MINI(EventsOf<DifficultGoing>(a).at(0) == (DifficultGoing{"a1", "R1", 2}));
  CHECK_EQ_MINI(EventsOf<ModelMoved>(a).at(0).length, 1414);
  CHECK_EQ_MINI(ModelIn(a.next, "a1").floor, 1);
  CHECK_EQ_MINI(ModelIn(a.next, "a1").structure, std::optional<std::string>("R1"));
  const auto b =
      Act("alpha", Action::kAdvance, {Move("a1", {V(31, 11, 0), V(31, 11, 1), V(33, 13, 1)})});
  const Verdict vb = w.Check(b);
  CHECK_EQ_MINI(Code(vb), "EXCEEDS_ALLOWANCE");
  CHECK_EQ_MINI(vb.value, std::optional<Thou>(2828));
  CHECK_EQ_MINI(vb.limit, std::optional<Thou>(2000));
  const Verdict c = w.Check(
      Act("alpha", Action::kAdvance, {Move("a1", {V(31, 11, 0), V(29, 11, 0), V(29, 11, 1)})}));
  CHECK_EQ_MINI(Code(c), "LEVEL_CHANGE_OUTSIDE_FLOOR");
  CHECK_EQ_MINI(c.model, "a1");
  w.Unit("alpha").leaper = true;
  CHECK_MINI(Legal(w.Check(b)));
  World e = Ruin(33, 13, 1);
  const auto re = e.Resolve({Act("alpha", Action::kAtTheDouble,
                                 {Move("a1", {V(33, 13, 1), V(33, 13, 0), V(33, 20, 0)})})});
  CHECK_MINI(Legal(re.verdicts.at(0)));
  CHECK_EQ_MINI(EventsOf<DifficultGoing>(re).size(), 0u);
  CHECK_EQ_MINI(ModelIn(re.next, "a1").floor, 0);
  CHECK_EQ_MINI(ModelIn(re.next, "a1").structure, std::nullopt);
}

// M42-T20, M42-R21, P11, GAP-10: a wall is Difficult unless the base fits an opening.
TEST_CASE_MINI(T20Wall) {
  World w;
  Structure bld;
  bld.id = "Bld1";
  table::Wall wall{{P(40, 10), P(40, 20)}, {{ToUnits(4000), ToUnits(5500)}}};
  bld.walls.push_back(StructureWall{wall, 5000});
  w.scenario.terrain.structures.push_back(bld);
  auto across = [&](double y) {
    World c = w;
    c.Model("a1", "alpha", 38, y);
    return c.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(38, y), V(42, y)})}));
  };
  const Verdict a = across(12);
  CHECK_EQ_MINI(Code(a), "EXCEEDS_ALLOWANCE");
  CHECK_EQ_MINI(a.value, std::optional<Thou>(4000));
  CHECK_EQ_MINI(a.limit, std::optional<Thou>(2000));
  CHECK_MINI(Legal(across(14.75)));
  CHECK_EQ_MINI(Code(across(14.3)), "EXCEEDS_ALLOWANCE");
  CHECK_MINI(Legal(across(14.49)));  // s0 + r - eps
  CHECK_EQ_MINI(Code(across(14.489)), "EXCEEDS_ALLOWANCE");
  CHECK_MINI(Legal(across(15.01)));  // s1 - r + eps
  CHECK_EQ_MINI(Code(across(15.011)), "EXCEEDS_ALLOWANCE");
}

// M42-T21, M42-R23, GAP-07: moving within a structure's base is Slow.
TEST_CASE_MINI(T21StructureBase) {
  World w;
  Structure s3;
  s3.id = "S3";
  s3.base = Square(50, 10, 60, 20);
  w.scenario.terrain.structures.push_back(s3);
  w.Model("a1", "alpha", 52, 12);
  const Verdict a =
      w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(52, 12), V(52, 18)})}));
  CHECK_EQ_MINI(Code(a), "AT_THE_DOUBLE_IN_SLOW_GOING");
  CHECK_EQ_MINI(a.other, "S3.base");
  CHECK_MINI(Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(52, 12), V(52, 17)})}))));
}

// M42-T22, M42-R26, P16: arcs; touching the shoulder line counts as Forward.
TEST_CASE_MINI(T22Arcs) {
  World w;
  w.Model("a1", "alpha", 10, 10, 90)
      .Model("x1", "xray", 12, 9.6)
      .Model("x2", "xray", 15, 9.4)
      .Model("x3", "xray", 15, 9.5)
      .Model("x4", "xray", 20, 9.49)
      .Model("x5", "xray", 20, 9.489);
  const State s = w.Start();
  CHECK_MINI(ArcOf(w.ruleset, s, "a1", "x1") == Arc::kForward);
  CHECK_MINI(ArcOf(w.ruleset, s, "a1", "x2") == Arc::kRear);
  CHECK_MINI(ArcOf(w.ruleset, s, "a1", "x3") == Arc::kForward);
  CHECK_MINI(ArcOf(w.ruleset, s, "a1", "x4") == Arc::kForward);  // top 9.990 = -eps
  CHECK_MINI(ArcOf(w.ruleset, s, "a1", "x5") == Arc::kRear);
  CHECK_MINI(!ArcOf(w.ruleset, s, "a1", "nobody").has_value());
}

// M42-T23, M42-R27: turning at the end of a move is free.
TEST_CASE_MINI(T23TurnAfterMove) {
  World w;
  w.Model("a1", "alpha", 10, 10, 90);
  const auto r =
      w.Resolve({Act("alpha", Action::kAdvance, {Turn("a1", 270, {V(10, 10), V(10, 15)})})});
  CHECK_MINI(Legal(r.verdicts.at(0)));
  CHECK_EQ_MINI(ModelIn(r.next, "a1").facing_mdeg, 270000);
  CHECK_MINI(EventsOf<ModelTurned>(r).at(0) == (ModelTurned{"a1", 270000}));
  CHECK_EQ_MINI(EventsOf<ModelMoved>(r).at(0).length, 5000);
}

// M42-T24, M42-R28, R32, M-R5: Limited Vision may not turn in Open Fire; others may.
TEST_CASE_MINI(T24LimitedVision) {
  World w;
  w.Unit("yankee").limited_vision = true;
  w.Model("y1", "yankee", 30, 30, 90).Model("a1", "alpha", 10, 10, 90);
  const Verdict a = w.Check(Act("yankee", Action::kOpenFire, {Turn("y1", 0)}));
  CHECK_EQ_MINI(Code(a), "TURN_FORBIDDEN");
  CHECK_EQ_MINI(a.model, "y1");
  const auto b = w.Resolve({Act("alpha", Action::kOpenFire, {Turn("a1", 0)})});
  CHECK_MINI(Legal(b.verdicts.at(0)));
  CHECK_EQ_MINI(ModelIn(b.next, "a1").facing_mdeg, 0);
  // M-R5: the facing it already has (modulo 360) is no turn.
  CHECK_MINI(Legal(w.Check(Act("yankee", Action::kOpenFire, {Turn("y1", 450)}))));
  CHECK_EQ_MINI(Code(w.Check(Act("yankee", Action::kOpenFire, {Turn("y1", 90.001)}))),
                "TURN_FORBIDDEN");
}

// M42-T25, M42-R34, GAP-01, M-R2: Open Fire and Get Down do not move; a path of at most eps is
// no path.
TEST_CASE_MINI(T25NoMoveActions) {
  World w;
  w.Model("a1", "alpha", 10, 10);
  const Verdict a =
      w.Check(Act("alpha", Action::kOpenFire, {Move("a1", {V(10, 10), V(10, 12.5)})}));
  CHECK_EQ_MINI(Code(a), "ACTION_FORBIDS_MOVE");
  CHECK_EQ_MINI(a.model, "a1");
  CHECK_EQ_MINI(Code(w.Check(Act("alpha", Action::kGetDown, {Move("a1", {V(10, 10), V(10, 11)})}))),
                "ACTION_FORBIDS_MOVE");
  const auto still =
      w.Resolve({Act("alpha", Action::kOpenFire, {Move("a1", {V(10, 10), V(10, 10.01)})})});
  CHECK_MINI(Legal(still.verdicts.at(0)));
  CHECK_MINI(ModelIn(still.next, "a1").pos == P(10, 10));  // stays put
  CHECK_EQ_MINI(
      Code(w.Check(Act("alpha", Action::kOpenFire, {Move("a1", {V(10, 10), V(10, 10.011)})}))),
      "ACTION_FORBIDS_MOVE");
  // GAP-01 configurable: Get Down moving up to Mv when its factor is 1.
  w.ruleset.action_move_factor[static_cast<std::size_t>(Action::kGetDown)] = 1;
  CHECK_MINI(Legal(w.Check(Act("alpha", Action::kGetDown, {Move("a1", {V(10, 10), V(10, 11)})}))));
}

}  // namespace
}  // namespace pbem::m42::test
