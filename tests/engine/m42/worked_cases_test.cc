// m42.md §6 worked cases M42-T01 .. M42-T12, hand-worked (each cites its case and rule), with
// the boundary at the digest's limit and one epsilon-step (0.001") either side.
#include "tests/engine/m42/fixtures.h"

namespace pbem::m42::test {
namespace {

World Alpha1(double x = 10, double y = 10) {
  World w;
  w.Model("a1", "alpha", x, y);
  return w;
}

void ExpectExceeds(const Verdict& v, const std::string& model, Thou length, Thou allowance) {
  ExpectIllegal(v, "EXCEEDS_ALLOWANCE", model, "", length, allowance);
}

void ExpectSlowAtTheDouble(const Verdict& v, const std::string& model, const std::string& what) {
  ExpectIllegal(v, "AT_THE_DOUBLE_IN_SLOW_GOING", model, what);
}

// M42-T01, M42-R02, R04, P18: length 5.000 = allowance 5 is legal; the limit is A + eps.
TEST_CASE_MINI(T01AdvanceExactlyMv) {
  World w = Alpha1();
  CHECK_MINI(Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 15)})}))));
  CHECK_MINI(
      Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 15.01)})}))));
  ExpectExceeds(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 15.011)})})),
                "a1", 5011, 5000);
}

// M42-T02, M42-R02: 2 + 5 = 7 > 5.
TEST_CASE_MINI(T02AdvanceTooFar) {
  ExpectExceeds(Alpha1().Check(Act("alpha", Action::kAdvance,
                                   {Move("a1", {V(10, 10), V(10, 12), V(13, 16)})})),
                "a1", 7000, 5000);
}

// M42-T03, M42-R03: At The Double allows 2 x Mv = 10.
TEST_CASE_MINI(T03AtTheDoubleTwiceMv) {
  World w = Alpha1();
  CHECK_MINI(
      Legal(w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 20)})}))));
  ExpectExceeds(
      w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 20.011)})})), "a1",
      10011, 10000);
}

// M42-T04, M42-R05, R16, P06: woods W1; touching its boundary is not entering.
TEST_CASE_MINI(T04Woods) {
  World w = Alpha1();
  w.scenario.terrain.areas.push_back(Area("W1", Square(8, 14, 12, 18)));
  ExpectSlowAtTheDouble(
      w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 20)})})), "a1",
      "W1");
  const auto b = w.Resolve({Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 15)})})});
  CHECK_MINI(Legal(b.verdicts.at(0)));
  CHECK_EQ_MINI(EventsOf<SlowGoing>(b).size(), 1u);
  CHECK_MINI(EventsOf<SlowGoing>(b).at(0) == (SlowGoing{"a1", "W1"}));
  // (c) top edge at 14.000 = boundary: Clear, so At The Double is allowed too.
  CHECK_MINI(
      Legal(w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 13.5)})}))));
  // Overlap by exactly eps (edge at 14.010) is still a touch; 14.011 enters.
  CHECK_MINI(
      Legal(w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 13.51)})}))));
  ExpectSlowAtTheDouble(
      w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 13.511)})})), "a1",
      "W1");
}

// M42-T05, M42-R05, R17, P07: a 1" obstacle is Slow only.
TEST_CASE_MINI(T05LowObstacle) {
  World w = Alpha1();
  w.O1(1);
  const auto a = w.Resolve({Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 14)})})});
  CHECK_MINI(Legal(a.verdicts.at(0)));
  CHECK_EQ_MINI(EventsOf<SlowGoing>(a).size(), 1u);
  CHECK_EQ_MINI(EventsOf<DifficultGoing>(a).size(), 0u);
  ExpectSlowAtTheDouble(
      w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 14)})})), "a1",
      "O1");
}

// M42-T06, M42-R06, R07, R18: a 3" obstacle is Slow + Difficult; allowance floor(5/2) = 2.
TEST_CASE_MINI(T06MidObstacle) {
  World w = Alpha1(10, 11);
  w.O1(3);
  const auto a = w.Resolve({Act("alpha", Action::kAdvance, {Move("a1", {V(10, 11), V(10, 13)})})});
  CHECK_MINI(Legal(a.verdicts.at(0)));
  CHECK_MINI(EventsOf<DifficultGoing>(a).at(0) == (DifficultGoing{"a1", "O1", 2}));
  CHECK_MINI(EventsOf<SlowGoing>(a).at(0) == (SlowGoing{"a1", "O1"}));
  CHECK_MINI(
      Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 11), V(10, 13.01)})}))));
  ExpectExceeds(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 11), V(10, 13.011)})})),
                "a1", 2011, 2000);
  ExpectExceeds(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 11), V(10, 13.5)})})),
                "a1", 2500, 2000);
  w.Unit("alpha").mv_in = 6;  // (c) allowance floor(6/2) = 3
  CHECK_MINI(
      Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 11), V(10, 13.5)})}))));
}

// M42-T07, M42-R08, R17, R19, GAP-04: heights 2.0 (Slow), 4.5 (Impassible), 4.0 (Slow + Difficult).
TEST_CASE_MINI(T07ObstacleHeights) {
  const auto order = Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 15)})});
  World a = Alpha1();
  a.O1(2.0);
  CHECK_MINI(Legal(a.Check(order)));
  World b = Alpha1();
  b.O1(4.5);
  const Verdict vb = b.Check(order);
  CHECK_EQ_MINI(Code(vb), "IMPASSABLE");
  CHECK_EQ_MINI(vb.model, "a1");
  CHECK_EQ_MINI(vb.other, "O1");
  World c = Alpha1();
  c.O1(4.0);
  ExpectExceeds(c.Check(order), "a1", 5000, 2000);
  World d = Alpha1();  // one thousandth above 4": Impassible (M42-R19)
  d.O1(4.001);
  CHECK_EQ_MINI(Code(d.Check(order)), "IMPASSABLE");
  World e = Alpha1();  // one thousandth above 2": Slow + Difficult (M42-R18)
  e.O1(2.001);
  ExpectExceeds(e.Check(order), "a1", 5000, 2000);
}

// M42-T08, M42-R31: Leaper over 3": Slow only.
TEST_CASE_MINI(T08LeaperMidObstacle) {
  World w = Alpha1();
  w.Unit("alpha").leaper = true;
  w.O1(3);
  CHECK_MINI(Legal(w.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 15)})}))));
  ExpectSlowAtTheDouble(
      w.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 20)})})), "a1",
      "O1");
}

// M42-T09, M42-R31: Leaper: 2" Clear, 5" Slow + Difficult, 6" Impassible; 4" itself is
// Slow + Difficult ("4 or more").
TEST_CASE_MINI(T09LeaperHeights) {
  World a = Alpha1();
  a.Unit("alpha").leaper = true;
  a.O1(2);
  CHECK_MINI(
      Legal(a.Check(Act("alpha", Action::kAtTheDouble, {Move("a1", {V(10, 10), V(10, 20)})}))));
  World b = Alpha1(10, 11);
  b.Unit("alpha").leaper = true;
  b.O1(5);
  ExpectExceeds(b.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 11), V(10, 13.5)})})),
                "a1", 2500, 2000);
  World c = Alpha1();
  c.Unit("alpha").leaper = true;
  c.O1(6);
  CHECK_EQ_MINI(Code(c.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 14)})}))),
                "IMPASSABLE");
  World d = Alpha1(10, 11);
  d.Unit("alpha").leaper = true;
  d.O1(4);
  ExpectExceeds(d.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 11), V(10, 13.5)})})),
                "a1", 2500, 2000);
  World e = Alpha1(10, 11);  // 5.999": still Slow + Difficult, not Impassible
  e.Unit("alpha").leaper = true;
  e.O1(5.999);
  ExpectExceeds(e.Check(Act("alpha", Action::kAdvance, {Move("a1", {V(10, 11), V(10, 13.5)})})),
                "a1", 2500, 2000);
}

World Trio() {
  World w;
  w.Model("a1", "alpha", 13, 16).Model("a2", "alpha", 10, 16).Model("a3", "alpha", 16, 16);
  return w;
}

// M42-T10, M42-R29, P14: a3 ends 2.100 from a1.
TEST_CASE_MINI(T10Coherency) {
  World w = Trio();
  auto order = [](double a3x) {
    return Act("alpha", Action::kAdvance,
               {Move("a2", {V(10, 16), V(10, 20)}), Move("a1", {V(13, 16), V(13, 20)}),
                Move("a3", {V(16, 16), V(a3x, 20)})});
  };
  const Verdict v = w.Check(order(16.1));
  CHECK_EQ_MINI(Code(v), "COHERENCY");
  CHECK_EQ_MINI(v.model, "a3");
  CHECK_EQ_MINI(v.other, "a1");
  CHECK_EQ_MINI(v.value, std::optional<Thou>(2100));
  CHECK_EQ_MINI(v.limit, std::optional<Thou>(2000));
  CHECK_MINI(Legal(w.Check(order(16))));
  CHECK_MINI(Legal(w.Check(order(16.01))));  // 2.010 = C + eps
  CHECK_EQ_MINI(Code(w.Check(order(16.011))), "COHERENCY");
}

// M42-T11, M42-R29, GAP-13: listed order does not matter by default; literal form refuses.
TEST_CASE_MINI(T11CoherencyOrder) {
  World w = Trio();
  const auto order = Act("alpha", Action::kAdvance,
                         {Move("a2", {V(10, 16), V(10, 20)}), Move("a3", {V(16, 16), V(16, 20)}),
                          Move("a1", {V(13, 16), V(13, 20)})});
  CHECK_MINI(Legal(w.Check(order)));
  w.ruleset.coherency_check = CoherencyCheck::kSequence;
  const Verdict v = w.Check(order);
  CHECK_EQ_MINI(Code(v), "COHERENCY");
  CHECK_EQ_MINI(v.model, "a3");
  CHECK_EQ_MINI(v.other, "a2");
  CHECK_EQ_MINI(v.value, std::optional<Thou>(5000));
  CHECK_EQ_MINI(v.limit, std::optional<Thou>(2000));
}

// M42-T12, M42-R33: SPREAD(3") makes 3.000 coherent; a3's path is 4.123 <= 5.
TEST_CASE_MINI(T12Spread) {
  World w = Trio();
  const auto order = Act("alpha", Action::kAdvance,
                         {Move("a2", {V(10, 16), V(10, 20)}), Move("a1", {V(13, 16), V(13, 20)}),
                          Move("a3", {V(16, 16), V(17, 20)})});
  CHECK_EQ_MINI(Code(w.Check(order)), "COHERENCY");
  w.Unit("alpha").spread_in = 3000;
  const auto r = w.Resolve({order});
  CHECK_MINI(Legal(r.verdicts.at(0)));
  const auto moved = EventsOf<ModelMoved>(r);
  CHECK_EQ_MINI(moved.size(), 3u);
  CHECK_EQ_MINI(moved.at(2).model, "a3");
  CHECK_EQ_MINI(moved.at(2).length, 4123);
}

}  // namespace
}  // namespace pbem::m42::test
