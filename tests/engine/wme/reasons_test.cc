// One case per reason code of §5.3 not already shown by a worked case (worked_cases_test.cc,
// evade_cases_test.cc), hand-worked, citing the rule; each refused move changes nothing.
#include "tests/engine/wme/fixtures.h"

namespace pbem::wme {
namespace {

using namespace testing;
constexpr TroopType kInf = TroopType::kInfantry;

Game Two() {
  Game g;
  g.Unit("A", "blue", kInf, {{Cm(20), Cm(30)}, {Cm(24), Cm(30)}});
  g.Unit("R", "red", kInf, {{Cm(100), Cm(100), 270000}});
  g.Unit("S", "blue", kInf, {{Cm(150), Cm(30)}});
  return g;
}

MoveOrder AOne(std::vector<LegOrder> legs) { return Advance("A", {{"A.1", std::move(legs)}}); }

// §5.3 step 1: not understood (INVALID), in the order validate.h gives.
TEST_CASE_MINI(Step1CodesAreInvalid) {
  const Game g = Two();
  CHECK_EQ_MINI(Check(g, Advance("Q", {})), Refused("Q", Reason::kUnknownUnit, "", "Q"));
  MoveOrder from = EvadeFrom("A", "nobody", {});
  CHECK_EQ_MINI(Check(g, from, Subphase::kInitiative),
                Refused("A", Reason::kUnknownUnit, "", "nobody"));
  CHECK_EQ_MINI(Check(g, Advance("A", {{"A.9", {Translate(Cm(20), Cm(31))}}})),
                Refused("A", Reason::kUnknownBase, "A.9"));
  CHECK_EQ_MINI(Check(g, Advance("A", {{"R.1", {Translate(Cm(20), Cm(31))}}})),
                Refused("A", Reason::kBaseNotInUnit, "R.1"));
  CHECK_EQ_MINI(Check(g, Advance("A", {{"A.1", {Translate(Cm(20), Cm(31))}},
                                       {"A.1", {Translate(Cm(20), Cm(32))}}})),
                Refused("A", Reason::kDuplicateBase, "A.1"));
  const Verdict malformed = Refused("A", Reason::kMalformedLeg, "A.1");
  CHECK_EQ_MINI(Check(g, AOne({})), malformed);                                       // no leg
  CHECK_EQ_MINI(Check(g, AOne(std::vector<LegOrder>(17, Rotate(1000)))), malformed);  // > 16
  CHECK_EQ_MINI(Check(g, Advance("S", {{"S.1", std::vector<LegOrder>(16, Rotate(1000))}})),
                Ok("S"));
  CHECK_EQ_MINI(Check(g, AOne({Translate(Cm(6000000), Cm(30))})), malformed);  // 60 km
  CHECK_EQ_MINI(Check(g, AOne({Rotate(360001)})), malformed);                  // > one turn
  CHECK_EQ_MINI(Check(g, Advance("S", {{"S.1", {Rotate(360000)}}})),
                Ok("S"));  // a full turn in place: 2π√5 = 14.05 cm
  CHECK_EQ_MINI(Check(g, AOne({Translate(Cm(20), Cm(31))}), Subphase::kInitiative),
                Refused("A", Reason::kWrongSubphase));  // an advance by initiative
  CHECK_EQ_MINI(Check(g, AOne({Translate(Cm(20), Cm(31))}), Subphase::kOrders, "red"),
                Refused("A", Reason::kNotOwnUnit));
}

// §5.3 step 2, WME-R01, [WME-CMD]: confused or engaged units may not move.
TEST_CASE_MINI(ConfusedOrEngagedUnitsCannotMove) {
  Game g = Two();
  g.scenario.units[0].confused = true;
  g.scenario.units[0].engaged = true;
  Verdict v = Refused("A", Reason::kUnitCannotMove);
  v.detail = "confused";
  CHECK_EQ_MINI(Check(g, AOne({Translate(Cm(20), Cm(31))})), v);
  g.scenario.units[0].confused = false;
  v.detail = "engaged";
  CHECK_EQ_MINI(Check(g, AOne({Translate(Cm(20), Cm(31))})), v);
}

// WME-R30, P10: the nearest *visible* enemy; a nearer one hidden by woods does not count.
TEST_CASE_MINI(EvadeFromTheNearestVisibleEnemy) {
  Game g;
  g.Unit("E", "blue", kInf, {{Cm(50), Cm(30)}});
  g.Unit("N", "red", kInf, {{Cm(50), Cm(40), 270000}});  // 8 cm ahead
  g.Unit("F", "red", kInf, {{Cm(60), Cm(45), 270000}});  // farther, to the side
  auto evade = [](const std::string& from, Milli dx) {
    return EvadeFrom("E", from, {{"E.1", {Translate(Cm(50) + dx, Cm(22))}}});
  };
  Verdict wrong = Refused("E", Reason::kNotNearestVisibleEnemy, "", "N");
  CHECK_EQ_MINI(Check(g, evade("F", 0), Subphase::kInitiative), wrong);
  CHECK_EQ_MINI(Check(g, evade("N", 0), Subphase::kInitiative), Ok("E"));
  g.Feature("woods", TerrainCategory::kDifficult, Box(Cm(45), Cm(34), Cm(53), Cm(36)), true);
  wrong.other = "F";
  CHECK_EQ_MINI(Check(g, evade("N", 0), Subphase::kInitiative), wrong);
}

// WME-R17, §2: terrain the unit's type may not enter, with no second obstacle near.
TEST_CASE_MINI(TerrainForbiddenByType) {
  Game g;
  g.Unit("K", "blue", TroopType::kCavalry, {{Cm(20), Cm(30)}});
  g.Unit("I", "blue", kInf, {{Cm(60), Cm(30)}});
  g.Feature("wood", TerrainCategory::kDifficult, Box(Cm(10), Cm(40), Cm(80), Cm(45)));
  CHECK_EQ_MINI(Check(g, Advance("K", {{"K.1", {Translate(Cm(20), Cm(50))}}})),
                Refused("K", Reason::kTerrainForbidden, "K.1", "wood"));
  CHECK_EQ_MINI(Check(g, Advance("I", {{"I.1", {Translate(Cm(60), Cm(43))}}})), Ok("I"));
  // Boundary: the cavalry's front edge may reach the wood's edge + ε, not 0.011 more.
  CHECK_EQ_MINI(Check(g, Advance("K", {{"K.1", {Translate(Cm(20), Cm(38, 10))}}})), Ok("K"));
  CHECK_EQ_MINI(Check(g, Advance("K", {{"K.1", {Translate(Cm(20), Cm(38, 11))}}})),
                Refused("K", Reason::kTerrainForbidden, "K.1", "wood"));
}

// GAP-37: flyers pass over terrain and units but may not end on them.
TEST_CASE_MINI(FlyersPassOverButDoNotEndOn) {
  Game g;
  g.Unit("Y", "blue", TroopType::kFlyer, {{Cm(20), Cm(30)}});
  g.Unit("R", "red", kInf, {{Cm(20), Cm(40), 270000}});
  g.Feature("lake", TerrainCategory::kImpassable, Box(Cm(10), Cm(50), Cm(30), Cm(60)));
  auto to = [](Milli y) { return Advance("Y", {{"Y.1", {Translate(Cm(20), y)}}}); };
  CHECK_EQ_MINI(Check(g, to(Cm(70))), Ok("Y"));
  CHECK_EQ_MINI(Check(g, to(Cm(55))), Refused("Y", Reason::kTerrainForbidden, "Y.1", "lake"));
  CHECK_EQ_MINI(Check(g, to(Cm(40))), Refused("Y", Reason::kCrossesOtherUnit, "Y.1", "R"));
  g.ruleset.flyers_pass_over = false;
  CHECK_EQ_MINI(Check(g, to(Cm(70))), Refused("Y", Reason::kCrossesOtherUnit, "Y.1", "R"));
}

// WME-P14, GAP-29: a voluntary move may not leave the table, by more than ε.
TEST_CASE_MINI(VoluntaryMovesStayOnTheTable) {
  Game g;
  g.Unit("A", "blue", kInf, {{Cm(10), Cm(10)}});
  auto to = [](Milli y) { return Advance("A", {{"A.1", {Translate(Cm(10), y)}}}); };
  CHECK_EQ_MINI(Check(g, to(Cm(0, 990))), Ok("A"));  // rear edge at -0.01
  CHECK_EQ_MINI(Check(g, to(Cm(0, 989))), Refused("A", Reason::kOffTable, "A.1"));
}

// WME-R25, P02: bases may touch but not end overlapping (A.2 may cross A.1, which does not
// move, W-R1, but not end on it).
TEST_CASE_MINI(EndingOnAnotherBaseIsBaseOverlap) {
  const Game g = Two();
  CHECK_EQ_MINI(Check(g, Advance("A", {{"A.2", {Translate(Cm(20), Cm(30))}}})),
                Refused("A", Reason::kBaseOverlap, "A.2", "A.1"));
  CHECK_EQ_MINI(Check(g, Advance("A", {{"A.2", {Translate(Cm(23, 990), Cm(30))}}})), Ok("A"));
  CHECK_EQ_MINI(Check(g, Advance("A", {{"A.2", {Translate(Cm(23, 989), Cm(30))}}})),
                Refused("A", Reason::kBaseOverlap, "A.2", "A.1"));
}

}  // namespace
}  // namespace pbem::wme
