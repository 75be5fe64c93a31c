// The digest's §7 charge cases as far as charge.h goes: steps 1-5 (eligibility, sight,
// allowance, zone, availability) and step 6 (first base, slot, range), hand-worked; the front
// line (step 7) is in front_line_test.cc, pinned and fortified targets in their own files. A
// charge with support is CHARGE_NOT_SUPPORTED.
#include "engine/wme/charge.h"
#include "tests/engine/wme/fixtures.h"

namespace pbem::wme {
namespace {

using namespace testing;
constexpr TroopType kInf = TroopType::kInfantry;

ChargeCheck Try(const Game& g, const ChargeOrder& c, std::vector<int> rolls = {},
                Subphase subphase = Subphase::kOrders) {
  ScriptedDice dice(std::move(rolls));
  return CheckCharge(g.ruleset, g.scenario, g.Start(), "blue", c, subphase, dice);
}

Verdict Refused(Reason reason, const std::string& unit, const std::string& target) {
  return testing::Refused(unit, reason, "", target);
}

// WME-T13 setup: red line T facing east, x 59-61, y 48-60.
Game T13() {
  Game g;
  g.Unit("T", "red", kInf, {{Cm(60), Cm(50), 0}, {Cm(60), Cm(54), 0}, {Cm(60), Cm(58), 0}});
  return g;
}

// WME-T13 (WME-R43, P09): the charger's zone.
TEST_CASE_MINI(T13_ZoneOfTheCharger) {
  Game g = T13();
  g.Unit("C", "blue", kInf, {{Cm(56), Cm(36)}, {Cm(60), Cm(36)}, {Cm(64), Cm(36)}});
  g.Unit("W", "blue", kInf,
         {{Cm(75), Cm(50), 180000}, {Cm(75), Cm(54), 180000}, {Cm(75), Cm(58), 180000}});
  const table::Rect ref = ReferenceRect(g.ruleset, g.Start(), "T", "C");
  CHECK_MINI(ref.FL() == Pt(Cm(61), Cm(60)) && ref.RR() == Pt(Cm(59), Cm(48)));
  const ChargeCheck c = Try(g, ChargeAt("C", "T"));
  CHECK_MINI(c.zone == table::Zone::kRightFlank);
  CHECK_MINI(!c.zone_roll);
  CHECK_EQ_MINI(c.verdict, Ok("C"));  // WME-T15's charge (front_line_test.cc)
  CHECK_MINI(Try(g, ChargeAt("W", "T")).zone == table::Zone::kFront);
}

// WME-T14 (WME-R44, GAP-34): an exact tie is decided by a D6; 5.0 / 3.0 is not a tie.
TEST_CASE_MINI(T14_ZoneTieRollsADie) {
  Game g = T13();
  g.Unit("B", "blue", kInf, {{Cm(68), Cm(41)}});
  ChargeCheck c = Try(g, ChargeAt("B", "T"), {2});
  CHECK_EQ_MINI(c.zone_roll, std::optional<int>(2));
  CHECK_MINI(c.zone == table::Zone::kFront);
  c = Try(g, ChargeAt("B", "T"), {5});
  CHECK_MINI(c.zone == table::Zone::kRightFlank);
  g.scenario.bases.back().centre = Pt(Cm(68, 500), Cm(41));
  c = Try(g, ChargeAt("B", "T"), {5});
  CHECK_MINI(!c.zone_roll);
  CHECK_MINI(c.zone == table::Zone::kFront);
}

// WME-T16 (WME-R42, C-1): an irregular charger has half its allowance; with `full`, all of it.
TEST_CASE_MINI(T16_IrregularChargerHalfAllowance) {
  Game g = T13();
  g.Unit("C", "blue", kInf, {{Cm(56), Cm(36)}, {Cm(60), Cm(36, 500)}, {Cm(64), Cm(36)}});
  const ChargeCheck half = Try(g, ChargeAt("C", "T"));
  CHECK_EQ_MINI(half.allowance, ToUnits(Cm(10)));
  Verdict out = testing::Refused("C", Reason::kChargeOutOfRange, "C.2", "T");
  out.value = Cm(10, 500);  // the closest base needs 10.5 cm
  out.limit = Cm(10);
  CHECK_EQ_MINI(half.verdict, out);
  g.ruleset.irregular_charge_speed = IrregularChargeSpeed::kFull;
  const ChargeCheck full = Try(g, ChargeAt("C", "T"));
  CHECK_EQ_MINI(full.allowance, ToUnits(Cm(20)));
  CHECK_EQ_MINI(full.verdict, Ok("C"));  // its front line: front_line_test.cc
}

// W-R13 with C-1: a line of bases partly on broken ground counts as irregular for speed, so it
// charges at half, as it would advance; entering broken ground during the charge changes
// nothing, and a flyer keeps its whole allowance.
TEST_CASE_MINI(ChargerOnBrokenGroundHasHalfAllowance) {
  Game g = T13();
  g.Unit("C", "blue", kInf, {{Cm(56), Cm(35)}, {Cm(60), Cm(35)}, {Cm(64), Cm(35)}});
  const ChargeCheck open = Try(g, ChargeAt("C", "T"));
  CHECK_EQ_MINI(open.allowance, ToUnits(Cm(20)));
  CHECK_EQ_MINI(open.verdict, Ok("C"));
  TerrainFeature marsh;
  marsh.id = "marsh";
  marsh.broken = true;
  marsh.pieces = {Box(Cm(50), Cm(30), Cm(57), Cm(35))};  // under C.1's rear half only
  g.scenario.terrain.push_back(marsh);
  const ChargeCheck half = Try(g, ChargeAt("C", "T"));
  CHECK_EQ_MINI(half.allowance, ToUnits(Cm(10)));
  CHECK_MINI(half.verdict.reason == Reason::kChargeOutOfRange);
  CHECK_MINI(half.verdict.kind == VerdictKind::kIllegal);
  CHECK_MINI(half.verdict.limit == std::optional<Milli>(Cm(10)));
  // Broken ground on the way only (x 56-64, y 40-45): full allowance, the charge passes.
  g.scenario.terrain.back().pieces = {Box(Cm(54), Cm(40), Cm(66), Cm(45))};
  CHECK_EQ_MINI(Try(g, ChargeAt("C", "T")).allowance, ToUnits(Cm(20)));
  // With `irregular_charge_speed: full` the marsh under C.1 does not halve it either.
  g.scenario.terrain.back().pieces = {Box(Cm(50), Cm(30), Cm(57), Cm(35))};
  g.ruleset.irregular_charge_speed = IrregularChargeSpeed::kFull;
  CHECK_EQ_MINI(Try(g, ChargeAt("C", "T")).allowance, ToUnits(Cm(20)));
}

// WME-T19 setup: red P behind a rock that leaves `free` cm of its front edge.
Game T19(Milli rock_east) {
  Game g;
  g.Unit("P", "red", kInf, {{Cm(80), Cm(60), 270000}});
  g.Unit("N", "blue", kInf, {{Cm(83), Cm(45)}});
  g.Feature("rock", TerrainCategory::kImpassable,
            Poly({{Cm(70), Cm(55)}, {rock_east, Cm(55)}, {rock_east, Cm(59)}, {Cm(70), Cm(59)}}));
  return g;
}

// WME-T19 (WME-R54, P11, W-R3, W-R8): *ennemi protégé*.
TEST_CASE_MINI(T19_ProtectedEnemy) {
  Verdict protected_ = Refused(Reason::kTargetProtected, "N", "P");
  protected_.value = Cm(0, 800);
  protected_.limit = Cm(1);
  CHECK_EQ_MINI(Try(T19(Cm(81, 200)), ChargeAt("N", "P")).verdict, protected_);
  // (b) LEGAL: first base -> (83,58) (x 81-85), contact 1.0 "as centred as possible", travel 13.
  const ChargeCheck b = Try(T19(Cm(81)), ChargeAt("N", "P"));
  CHECK_EQ_MINI(b.available, std::optional<Milli>(Cm(1)));
  CHECK_EQ_MINI(b.verdict, Ok("N"));
  REQUIRE_MINI(b.first.has_value());
  CHECK_MINI(b.first->slot->centre() == Pt(Cm(83), Cm(58)));
  CHECK_EQ_MINI(NearestMilli(b.first->travel), Cm(13));
  // Boundary: 1 - ε is available (slot at x 81.01), 0.989 is not.
  const ChargeCheck edge = Try(T19(Cm(81, 10)), ChargeAt("N", "P"));
  CHECK_EQ_MINI(edge.verdict, Ok("N"));
  CHECK_MINI(edge.first->slot->centre() == Pt(Cm(83, 10), Cm(58)));
  protected_.value = Cm(0, 989);
  CHECK_EQ_MINI(Try(T19(Cm(81, 11)), ChargeAt("N", "P")).verdict, protected_);
}

// WME-T20 (WME-R41, P10): the target must be seen at declaration.
TEST_CASE_MINI(T20_TargetMustBeVisible) {
  Game g;
  g.Unit("S", "blue", kInf, {{Cm(100), Cm(30)}});
  g.Unit("R", "red", kInf, {{Cm(100), Cm(50), 270000}});
  g.Feature("woods", TerrainCategory::kDifficult, Box(Cm(90), Cm(38), Cm(110), Cm(42)), true);
  CHECK_EQ_MINI(Try(g, ChargeAt("S", "R")).verdict,
                Refused(Reason::kChargeTargetNotVisible, "S", "R"));
  g.scenario.terrain[0].pieces = {Box(Cm(90), Cm(38), Cm(97), Cm(42))};
  const ChargeCheck b = Try(g, ChargeAt("S", "R"));  // (b) LEGAL: -> (100,48), travel 18
  CHECK_EQ_MINI(b.verdict, Ok("S"));
  CHECK_MINI(b.first->slot->centre() == Pt(Cm(100), Cm(48)));
  CHECK_EQ_MINI(NearestMilli(b.first->travel), Cm(18));
}

// WME-T21 setup: red Q with blue bases on every side.
Game T21(bool with_p2) {
  Game g;
  g.Unit("Q", "red", kInf, {{Cm(150), Cm(60), 270000}});
  g.Unit("P1", "blue", kInf, {{Cm(150), Cm(58), 90000}});
  if (with_p2) g.Unit("P2", "blue", kInf, {{Cm(150), Cm(62), 270000}});
  g.Unit("P3", "blue", TroopType::kCavalry, {{Cm(146), Cm(60), 0}});
  g.Unit("P4", "blue", TroopType::kCavalry, {{Cm(154), Cm(60), 180000}});
  g.Unit("N", "blue", kInf, {{Cm(146), Cm(45)}});
  return g;
}

// WME-T21 (WME-R56, R57, P17): a pinned target, and a zone with no edge left.
TEST_CASE_MINI(T21_PinnedTargetAndNoEdgeInZone) {
  const ChargeCheck a = Try(T21(true), ChargeAt("N", "Q"));
  CHECK_MINI(a.pinned);
  // WME-R58: LEGAL, N -> (146,58,90), its FR corner on Q's corner (148,59), edge to edge with
  // P1 (x = 148) and P3 (y = 59), travel 13 (charge_pinned.cc).
  CHECK_EQ_MINI(a.verdict, Ok("N"));
  REQUIRE_MINI(a.first.has_value());
  CHECK_MINI(a.first->slot->centre() == Pt(Cm(146), Cm(58)));
  CHECK_EQ_MINI(NormaliseHeading(a.first->slot->heading()), 90000);
  CHECK_EQ_MINI(NearestMilli(a.first->travel), Cm(13));
  // Carried out: N in contact, Q and N engaged.
  ScriptedDice dice({});
  const Game g = T21(true);
  const PlayerTurnResult r =
      ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(), {"blue", {}, {ChargeAt("N", "Q")}}, dice);
  CHECK_MINI(FindBase(r.next, "N.1")->centre == Pt(Cm(146), Cm(58)));
  CHECK_MINI(FindUnit(r.next, "N")->engaged && FindUnit(r.next, "Q")->engaged);
  // Out of reach: N 0.02 cm farther needs 13.02 > 13.01 with a speed of 13.
  Game slow = T21(true);
  slow.ruleset.speed_cm[static_cast<std::size_t>(kInf)] = Cm(13);
  CHECK_EQ_MINI(Try(slow, ChargeAt("N", "Q")).verdict, Ok("N"));
  slow.scenario.bases.back().centre = Pt(Cm(146), Cm(44, 980));
  CHECK_EQ_MINI(Try(slow, ChargeAt("N", "Q")).verdict,
                Refused(Reason::kFrontLineImpossible, "N", "Q"));
  const ChargeCheck b = Try(T21(false), ChargeAt("N", "Q"));
  CHECK_MINI(!b.pinned);
  Verdict none = Refused(Reason::kNoEdgeInZone, "N", "Q");
  none.value = 0;
  none.limit = Cm(1);
  CHECK_EQ_MINI(b.verdict, none);
}

// WME-T22 (WME-R64, R65): only infantry charges a fortified enemy, always in front.
TEST_CASE_MINI(T22_FortifiedEnemy) {
  Game g;
  g.Unit("Fo", "red", kInf,
         {{Cm(40), Cm(100), 270000}, {Cm(44), Cm(100), 270000}, {Cm(48), Cm(100), 270000}})
      .fortified = true;
  TerrainFeature wall;
  wall.id = "wall";
  wall.fortification = true;
  wall.pieces = {Box(Cm(37), Cm(98), Cm(51), Cm(99))};
  g.scenario.terrain.push_back(wall);
  g.Unit("K", "blue", TroopType::kCavalry, {{Cm(44), Cm(85)}});
  g.Unit("I", "blue", kInf, {{Cm(56), Cm(94)}});
  CHECK_EQ_MINI(Try(g, ChargeAt("K", "Fo")).verdict,
                Refused(Reason::kFortifiedNeedsInfantry, "K", "Fo"));
  // (b) zone = left (east) flank by area but fortified -> front (WME-R65): I -> (48,97,90),
  // front edge on the wall's outer face y = 98, facing Fo.3 (48,100); travel sqrt(8^2 + 3^2)
  // = 8.544; in contact with Fo across the wall (WME-P18) -> LEGAL (charge_fortified.cc).
  const ChargeCheck b = Try(g, ChargeAt("I", "Fo"));
  CHECK_MINI(b.zone == table::Zone::kFront);
  CHECK_EQ_MINI(b.verdict, Ok("I"));
  REQUIRE_MINI(b.first.has_value());
  CHECK_MINI(b.first->slot->centre() == Pt(Cm(48), Cm(97)));
  CHECK_EQ_MINI(NormaliseHeading(b.first->slot->heading()), 90000);
  CHECK_EQ_MINI(NearestMilli(b.first->travel), Cm(8, 544));
  CHECK_EQ_MINI(g.Start().bases[b.first->target_base].id, "Fo.3");
  ScriptedDice dice({});
  const PlayerTurnResult r = ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(),
                                               {"blue", {}, {ChargeAt("I", "Fo")}}, dice);
  CHECK_MINI(FindUnit(r.next, "I")->engaged && FindUnit(r.next, "Fo")->engaged);
  // A wall 3 cm in front of Fo (reach = 1 + 1 cm): no contact across it, no place.
  g.scenario.terrain[0].pieces = {Box(Cm(37), Cm(95), Cm(51), Cm(96))};
  CHECK_EQ_MINI(Try(g, ChargeAt("I", "Fo")).verdict,
                Refused(Reason::kFrontLineImpossible, "I", "Fo"));
}

// W-R14, §5.4 step 1: an initiative charge goes at the nearest visible enemy within 20 cm.
TEST_CASE_MINI(InitiativeChargeAtTheNearestVisibleEnemy) {
  Game g;
  g.Unit("C", "blue", kInf, {{Cm(50), Cm(30)}});
  g.Unit("N", "red", kInf, {{Cm(50), Cm(40), 270000}});
  g.Unit("F", "red", kInf, {{Cm(60), Cm(45), 270000}});
  g.Unit("O", "blue", kInf, {{Cm(120), Cm(30)}});
  Verdict v = testing::Refused("C", Reason::kNotNearestVisibleEnemy, "", "N");
  CHECK_EQ_MINI(Try(g, ChargeAt("C", "F"), {}, Subphase::kInitiative).verdict, v);
  CHECK_EQ_MINI(Try(g, ChargeAt("C", "N"), {}, Subphase::kInitiative).verdict, Ok("C"));
  CHECK_EQ_MINI(Try(g, ChargeAt("C", "F")).verdict, Ok("C"));  // by order any visible enemy
  CHECK_EQ_MINI(Try(g, ChargeAt("O", "N"), {}, Subphase::kInitiative).verdict,
                testing::Refused("O", Reason::kNoEnemyInInitiativeRange));
  CHECK_EQ_MINI(Try(g, ChargeAt("C", "O")).verdict, Refused(Reason::kTargetNotEnemy, "C", "O"));
  ChargeOrder named = ChargeAt("C", "N");
  named.first_base = "N.1";
  CHECK_EQ_MINI(Try(g, named).verdict, testing::Refused("C", Reason::kBaseNotInUnit, "N.1"));
  named.first_base = "C.1";
  named.target_base = "C.1";
  CHECK_EQ_MINI(Try(g, named).verdict, testing::Refused("C", Reason::kBaseNotInUnit, "C.1"));
}

// §5.4 step 6: the range of the first base, at the limit and one ε either side (WME-R19).
TEST_CASE_MINI(ChargeRangeBoundary) {
  auto at = [](Milli y) {
    Game g;
    g.Unit("S", "blue", kInf, {{Cm(100), Cm(30)}});
    g.Unit("R", "red", kInf, {{Cm(100), y, 270000}});  // front edge y - 1, slot y - 2
    return g;
  };
  CHECK_EQ_MINI(Try(at(Cm(52)), ChargeAt("S", "R")).verdict, Ok("S"));  // travel 20
  CHECK_EQ_MINI(Try(at(Cm(52, 10)), ChargeAt("S", "R")).verdict, Ok("S"));
  Verdict out = testing::Refused("S", Reason::kChargeOutOfRange, "S.1", "R");
  out.value = Cm(20, 11);
  out.limit = Cm(20);
  CHECK_EQ_MINI(Try(at(Cm(52, 11)), ChargeAt("S", "R")).verdict, out);
}

// §5.4 step 6, W-R7: the AUTO path is straight; a base of another unit in the way blocks it.
TEST_CASE_MINI(ChargePathBlocked) {
  Game g;
  g.Unit("S", "blue", kInf, {{Cm(100), Cm(30)}});
  g.Unit("R", "red", kInf, {{Cm(100), Cm(45), 270000}});
  g.Unit("F", "blue", kInf, {{Cm(103, 990), Cm(37)}});  // x 101.99-105.99: 0.01 into the path
  CHECK_EQ_MINI(Try(g, ChargeAt("S", "R")).verdict, Ok("S"));
  g.scenario.bases.back().centre = Pt(Cm(103, 989), Cm(37));  // 0.011 into it
  CHECK_EQ_MINI(Try(g, ChargeAt("S", "R")).verdict,
                testing::Refused("S", Reason::kPathBlocked, "S.1", "R"));
}

// GAP-29, WME-R54: the slot stays on the table, as centred as the table edge allows.
TEST_CASE_MINI(ChargeSlotStaysOnTheTable) {
  Game g;
  g.Unit("R", "red", kInf, {{Cm(100), Cm(1)}});  // y 0-2, right flank edge x = 102
  g.Unit("K", "blue", kInf, {{Cm(112), Cm(2), 180000}});
  const ChargeCheck c = Try(g, ChargeAt("K", "R"));
  CHECK_MINI(c.zone == table::Zone::kRightFlank);
  CHECK_EQ_MINI(c.verdict, Ok("K"));
  CHECK_MINI(c.first->slot->centre() == Pt(Cm(103), Cm(2)));  // y 0-4, contact 2 cm
}

}  // namespace
}  // namespace pbem::wme
