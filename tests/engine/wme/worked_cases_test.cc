// The digest's §7 worked cases that the Advance / Evade rules cover (french-fantasy.md
// WME-T01..T12, T25), hand-worked, with the boundaries at each limit and one epsilon either
// side (ε = 0.01 cm = 10 thousandths). The charge cases (T13-T23) and leaving the table (T24)
// need §5.4 and §6, not implemented yet (README.md).
#include "tests/engine/wme/fixtures.h"

namespace pbem::wme {
namespace {

using namespace testing;
constexpr TroopType kInf = TroopType::kInfantry;

// WME-T01 setup: blue infantry line I1 facing north.
Game T01() {
  Game g;
  g.Unit("I1", "blue", kInf, {{Cm(20), Cm(30)}, {Cm(24), Cm(30)}, {Cm(28), Cm(30)}});
  return g;
}

MoveOrder LineForward(const std::string& unit, std::vector<Milli> xs, Milli y0, Milli dy) {
  std::vector<BaseOrder> bases;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    bases.push_back({unit + "." + std::to_string(i + 1), {Translate(xs[i], y0 + dy)}});
  }
  return Advance(unit, bases);
}

// WME-T01 (WME-R03, R19): 20 cm is legal, 20.5 is not; the limit is 20 + ε.
TEST_CASE_MINI(T01_InfantryLineAdvancesItsFullSpeed) {
  const Game g = T01();
  const std::vector<Milli> xs{Cm(20), Cm(24), Cm(28)};
  const MoveCheck ok = CheckMove(g.ruleset, g.scenario, g.Start(), "blue",
                                 LineForward("I1", xs, Cm(30), Cm(20)), Subphase::kOrders);
  CHECK_EQ_MINI(ok.verdict, Ok("I1"));
  CHECK_EQ_MINI(NearestMilli(ok.bases[0].travelled), Cm(20));
  CHECK_MINI(ok.formation == table::Formation::kLine);
  Verdict over = Refused("I1", Reason::kExceedsAllowance, "I1.1");
  over.value = Cm(20, 500);
  over.limit = Cm(20);
  CHECK_EQ_MINI(Check(g, LineForward("I1", xs, Cm(30), Cm(20, 500))), over);
  // Boundary: 20.010 = limit + ε is legal, 20.011 is not.
  CHECK_EQ_MINI(Check(g, LineForward("I1", xs, Cm(30), Cm(20, 10))), Ok("I1"));
  over.value = Cm(20, 11);
  CHECK_EQ_MINI(Check(g, LineForward("I1", xs, Cm(30), Cm(20, 11))), over);
}

// WME-T02 (WME-R08, R09, R10): irregular infantry moves at half speed, 10 cm.
TEST_CASE_MINI(T02_IrregularInfantryMovesAtHalfSpeed) {
  Game g;
  g.Unit("I2", "blue", kInf, {{Cm(20), Cm(30)}, {Cm(24), Cm(31)}, {Cm(28), Cm(30)}});
  auto order = [](Milli dy) {
    return Advance("I2", {{"I2.1", {Translate(Cm(20), Cm(30) + dy)}},
                          {"I2.2", {Translate(Cm(24), Cm(31) + dy)}},
                          {"I2.3", {Translate(Cm(28), Cm(30) + dy)}}});
  };
  Verdict over = Refused("I2", Reason::kExceedsAllowance, "I2.1");
  over.value = Cm(12);
  over.limit = Cm(10);
  CHECK_EQ_MINI(Check(g, order(Cm(12))), over);
  CHECK_EQ_MINI(Check(g, order(Cm(10))), Ok("I2"));
  CHECK_EQ_MINI(Check(g, order(Cm(10, 10))), Ok("I2"));
  over.value = Cm(10, 11);
  CHECK_EQ_MINI(Check(g, order(Cm(10, 11))), over);
}

// WME-T03 (WME-R10, R14): irregular flyers keep 60 cm.
TEST_CASE_MINI(T03_IrregularFlyersKeepSixtyCentimetres) {
  Game g;
  g.Unit("F1", "blue", TroopType::kFlyer,
         {{Cm(100), Cm(10)}, {Cm(102), Cm(11)}, {Cm(104), Cm(10)}});
  auto order = [](Milli dy) {
    return Advance("F1", {{"F1.1", {Translate(Cm(100), Cm(10) + dy)}},
                          {"F1.2", {Translate(Cm(102), Cm(11) + dy)}},
                          {"F1.3", {Translate(Cm(104), Cm(10) + dy)}}});
  };
  CHECK_EQ_MINI(Check(g, order(Cm(60))), Ok("F1"));
  CHECK_EQ_MINI(Check(g, order(Cm(60, 10))), Ok("F1"));
  Verdict over = Refused("F1", Reason::kExceedsAllowance, "F1.1");
  over.value = Cm(60, 11);
  over.limit = Cm(60);
  CHECK_EQ_MINI(Check(g, order(Cm(60, 11))), over);
}

// WME-T04 (WME-R18, R19, P03): a turn about the centre costs √5·π/2 = 3.512 at the corners.
TEST_CASE_MINI(T04_TurningAboutTheCentreCountsAtTheCorners) {
  Game g;
  g.Unit("B", "blue", kInf, {{Cm(50), Cm(50)}});
  auto order = [](Milli x) {
    return Advance("B", {{"B.1", {Rotate(90000), Translate(x, Cm(50))}}});
  };
  const MoveCheck ok =
      CheckMove(g.ruleset, g.scenario, g.Start(), "blue", order(Cm(34)), Subphase::kOrders);
  CHECK_EQ_MINI(ok.verdict, Ok("B"));
  CHECK_EQ_MINI(NearestMilli(ok.bases[0].travelled), Cm(19, 512));
  Verdict over = Refused("B", Reason::kExceedsAllowance, "B.1");
  over.value = Cm(20, 512);
  over.limit = Cm(20);
  CHECK_EQ_MINI(Check(g, order(Cm(33))), over);
  // Boundary: 16.488 + 3.51241 = 20.00041 (legal), 16.499 → 20.01141 (not).
  CHECK_EQ_MINI(Check(g, order(Cm(50) - Cm(16, 488))), Ok("B"));
  over.value = Cm(20, 11);
  CHECK_EQ_MINI(Check(g, order(Cm(50) - Cm(16, 499))), over);
}

// WME-T05 (WME-R18, R19, P03): a turn about FL; the RR corner travels √20·π/2 = 7.025.
TEST_CASE_MINI(T05_TurningAboutACornerCountsTheFarCorner) {
  Game g;
  g.Unit("B", "blue", kInf, {{Cm(50), Cm(50)}});
  auto order = [](Milli x) {
    return Advance("B", {{"B.1", {Rotate(90000, Pivot::kFL), Translate(x, Cm(53))}}});
  };
  const MoveCheck ok =
      CheckMove(g.ruleset, g.scenario, g.Start(), "blue", order(Cm(37)), Subphase::kOrders);
  CHECK_EQ_MINI(ok.verdict, Ok("B"));
  CHECK_EQ_MINI(NearestMilli(ok.bases[0].travelled), Cm(19, 25));
  CHECK_EQ_MINI(ok.bases[0].legs.poses[1].centre(), Pt(Cm(49), Cm(53)));
  Verdict over = Refused("B", Reason::kExceedsAllowance, "B.1");
  over.value = Cm(20, 25);  // 0.025 > ε
  over.limit = Cm(20);
  CHECK_EQ_MINI(Check(g, order(Cm(36))), over);
}

// WME-T06 setup: blue U2 at (40,60), a rock east of it, blue M below.
Game T06(Milli rock_west, bool rock = true, const std::string& u2_owner = "blue") {
  Game g;
  g.Unit("U2", u2_owner, kInf, {{Cm(40), Cm(60)}});
  g.Unit("M", "blue", kInf, {{Cm(43), Cm(50)}});
  if (rock) {
    g.Feature("rock", TerrainCategory::kImpassable, Box(rock_west, Cm(58), Cm(50), Cm(62)));
  }
  return g;
}

MoveOrder MNorth(Milli x) { return Advance("M", {{"M.1", {Translate(x, Cm(70))}}}); }

// WME-T06 (WME-R17, R21, R25, R27, P12): the squeeze between two non-aggressive obstacles.
TEST_CASE_MINI(T06_SqueezeBetweenTwoObstacles) {
  CHECK_EQ_MINI(Check(T06(Cm(44)), MNorth(Cm(43))), Ok("M"));  // (a) gap 2.0
  Verdict narrow = Refused("M", Reason::kNoPassage, "M.1");
  narrow.value = Cm(1, 900);
  narrow.limit = Cm(2);  // the gap needed, min_gap_cm: the words say it
  CHECK_EQ_MINI(Check(T06(Cm(43, 900)), MNorth(Cm(43))), narrow);  // (b) gap 1.9
  Game c = T06(0, false);
  c.scenario.bases[1].centre = Pt(Cm(44), Cm(50));
  CHECK_EQ_MINI(Check(c, MNorth(Cm(44))), Ok("M"));  // (c) sliding along U2
  // Boundary of the neck (b): centre 1 - ε from the rock passes, 1 - ε - 0.001 does not.
  CHECK_EQ_MINI(Check(T06(Cm(43, 990)), MNorth(Cm(43))), Ok("M"));
  narrow.value = Cm(1, 989);
  CHECK_EQ_MINI(Check(T06(Cm(43, 989)), MNorth(Cm(43))), narrow);
  // (c) one unit over: M overlapping U2 by 0.011 with no second obstacle crosses it.
  c.scenario.bases[1].centre = Pt(Cm(43, 989), Cm(50));
  CHECK_EQ_MINI(Check(c, MNorth(Cm(43, 989))),
                Refused("M", Reason::kCrossesOtherUnit, "M.1", "U2"));
  c.scenario.bases[1].centre = Pt(Cm(43, 990), Cm(50));
  CHECK_EQ_MINI(Check(c, MNorth(Cm(43, 990))), Ok("M"));
}

// WME-T07 (WME-R21, R26): an enemy is never a side of a squeeze.
TEST_CASE_MINI(T07_EnemyIsNeverASqueezeSide) {
  CHECK_EQ_MINI(Check(T06(Cm(44), true, "red"), MNorth(Cm(43))),
                Refused("M", Reason::kCrossesOtherUnit, "M.1", "U2"));
}

// WME-T08 setup: blue column C, a red commander in the way.
Game T08() {
  Game g;
  g.Unit("C", "blue", kInf, {{Cm(60), Cm(40)}, {Cm(60), Cm(38)}});
  g.scenario.commanders.push_back(CommanderSpec{"rc", "red", Pt(Cm(60), Cm(50)), false, false, {}});
  return g;
}

// WME-T08 (WME-R20, R22, P13, W-R1).
TEST_CASE_MINI(T08_PassingThroughOwnBasesAndCommanders) {
  const Game g = T08();
  const MoveCheck a =
      CheckMove(g.ruleset, g.scenario, g.Start(), "blue",
                Advance("C", {{"C.2", {Translate(Cm(60), Cm(42))}}}), Subphase::kOrders);
  CHECK_EQ_MINI(a.verdict, Ok("C"));
  CHECK_MINI(a.formation == table::Formation::kColumn);
  CHECK_EQ_MINI(Check(g, Advance("C", {{"C.2", {Translate(Cm(60), Cm(42))}},
                                       {"C.1", {Translate(Cm(61), Cm(40))}}})),
                Refused("C", Reason::kOwnBaseCrossNotAllowed, "C.2", "C.1"));
  const MoveCheck c = CheckMove(
      g.ruleset, g.scenario, g.Start(), "blue",
      Advance("C", {{"C.1", {Translate(Cm(60), Cm(54))}}, {"C.2", {Translate(Cm(60), Cm(52))}}}),
      Subphase::kOrders);
  CHECK_EQ_MINI(c.verdict, Ok("C"));
  CHECK_EQ_MINI(NearestMilli(c.bases[0].travelled), Cm(14));
  CHECK_EQ_MINI(NearestMilli(c.bases[1].travelled), Cm(14));
  CHECK_MINI(c.formation == table::Formation::kColumn);
  // W-R1: the same rigid motion may cross (C.2 goes through C.1, which then moves the same).
  CHECK_EQ_MINI(Check(g, Advance("C", {{"C.2", {Translate(Cm(60), Cm(44))}},
                                       {"C.1", {Translate(Cm(60), Cm(46))}}})),
                Ok("C"));
}

// WME-T09 setup: blue V facing a red base whose rear... front edge is at y = 49.
Game T09() {
  Game g;
  g.Unit("V", "blue", kInf, {{Cm(70), Cm(40)}});
  g.Unit("R", "red", kInf, {{Cm(70), Cm(50), 270000}});
  return g;
}

MoveOrder VTo(Milli y) { return Advance("V", {{"V.1", {Translate(Cm(70), y)}}}); }

// WME-T09 (WME-R26, W-R12, GAP-16).
TEST_CASE_MINI(T09_NoEnemyContactWithoutACharge) {
  Game g = T09();
  const Verdict contact = Refused("V", Reason::kEnemyContactWithoutCharge, "V.1", "R");
  CHECK_EQ_MINI(Check(g, VTo(Cm(48))), contact);
  CHECK_EQ_MINI(Check(g, VTo(Cm(47, 900))), Ok("V"));
  // Boundary: a gap of ε touches, ε + 0.001 does not.
  CHECK_EQ_MINI(Check(g, VTo(Cm(47, 990))), contact);
  CHECK_EQ_MINI(Check(g, VTo(Cm(47, 989))), Ok("V"));
  g.ruleset.min_enemy_gap_cm = Cm(1);  // (c)
  CHECK_EQ_MINI(Check(g, VTo(Cm(47, 900))), contact);
  CHECK_EQ_MINI(Check(g, VTo(Cm(47, 10))), Ok("V"));  // gap 0.99 = 1 - ε
  CHECK_EQ_MINI(Check(g, VTo(Cm(47, 11))), contact);  // gap 0.989
}

}  // namespace
}  // namespace pbem::wme
