// `placement: EXPLICIT` (§5.1, §5.4 step 7, W-R4): the player's legs for every base, checked
// like AUTO and against its maximum contact, hand-worked: WME-T17 (b), T18 (the digest's own
// legs), T23 (b), and the per-base codes.
#include "engine/wme/charge.h"
#include "tests/engine/wme/fixtures.h"

namespace pbem::wme {
namespace {

using namespace testing;
constexpr TroopType kInf = TroopType::kInfantry;

ChargeOrder Explicit(const std::string& unit, const std::string& target,
                     std::vector<BaseOrder> bases) {
  ChargeOrder c = ChargeAt(unit, target);
  c.placement = Placement::kExplicit;
  c.bases = std::move(bases);
  return c;
}

Verdict NotMaximised(const std::string& unit, const std::string& target, Milli got,
                     Milli expected) {
  Verdict v = Refused(unit, Reason::kContactNotMaximised, "", target);
  v.value = got;
  v.limit = expected;
  return v;
}

// WME-T17 (b): first base B.2 (44,40) -> (44,58) on R.2; B.1 -> (40,58) on R.1; B.3 stops at
// (48,56), only corner to corner with B.2:
//
//   [R1][R2][R3]      y 59-61
//   [B1][B2]          y 57-59
//           [B3]      y 55-57: touches no enemy -> (a) 2 where AUTO makes 3
TEST_CASE_MINI(T17b_ExplicitPlacementMustMaximiseContact) {
  Game g;
  g.Unit("R", "red", kInf,
         {{Cm(40), Cm(60), 270000}, {Cm(44), Cm(60), 270000}, {Cm(48), Cm(60), 270000}});
  g.Unit("B", "blue", kInf, {{Cm(40), Cm(40)}, {Cm(44), Cm(40)}, {Cm(48), Cm(40)}});
  ChargeOrder c = Explicit("B", "R",
                           {{"B.2", {Translate(Cm(44), Cm(58))}},
                            {"B.1", {Translate(Cm(40), Cm(58))}},
                            {"B.3", {Translate(Cm(48), Cm(56))}}});
  c.first_base = "B.2";
  CHECK_EQ_MINI(TryCharge(g, c).verdict, NotMaximised("B", "R", 2, 3));
  c.bases[2].legs = {Translate(Cm(48), Cm(58))};  // B.3 on R.3: 3 frontal contacts, LEGAL
  const ChargeCheck ok = TryCharge(g, c);
  CHECK_EQ_MINI(ok.verdict, Ok("B"));
  REQUIRE_MINI(ok.line.has_value());
  CHECK_EQ_MINI(ok.line->frontal, 3);
}

// WME-T23 (b): the right base put behind the first at (100,76): (a) 2 where AUTO makes 3.
TEST_CASE_MINI(T23b_ExplicitBaseBehindFallsShort) {
  Game g;
  g.Unit("T4", "red", kInf, {{Cm(100), Cm(80), 270000}});
  g.Unit("T5", "red", kInf, {{Cm(104), Cm(80), 270000}});
  g.Unit("B", "blue", kInf, {{Cm(96), Cm(60)}, {Cm(100), Cm(60)}, {Cm(104), Cm(60)}});
  const ChargeOrder c = Explicit("B", "T4",
                                 {{"B.2", {Translate(Cm(100), Cm(78))}},
                                  {"B.1", {Translate(Cm(96), Cm(78))}},
                                  {"B.3", {Translate(Cm(100), Cm(76))}}});
  CHECK_EQ_MINI(TryCharge(g, c).verdict, NotMaximised("B", "T4", 2, 3));
}

// WME-T18 as the digest writes it: the side bases' legs turn about the centre, go north, then
// slide 2 cm onto T: travel 3.512 + 14 + 2 = 19.512 <= 20; the same counts as AUTO with
// envelopment (3, 3, 3): LEGAL, and carried out where the legs end.
TEST_CASE_MINI(T18_ExplicitEnvelopingLegs) {
  const Game g = T15Game();
  ChargeOrder c =
      Explicit("C", "T",
               {{"C.2", {Translate(Cm(60), Cm(47))}},
                {"C.1", {Rotate(-90000), Translate(Cm(56), Cm(50)), Translate(Cm(58), Cm(50))}},
                {"C.3", {Rotate(90000), Translate(Cm(64), Cm(50)), Translate(Cm(62), Cm(50))}}});
  c.envelop = true;
  const ChargeCheck k = TryCharge(g, c);
  CHECK_EQ_MINI(k.verdict, Ok("C"));
  REQUIRE_MINI(k.line.has_value());
  CHECK_EQ_MINI(NearestMilli(k.line->bases[1].travel), Cm(19, 512));
  CHECK_EQ_MINI(k.line->touching_target, 3);
  CHECK_EQ_MINI(k.line->frontal, 3);
  ScriptedDice dice({});
  const PlayerTurnResult r =
      ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(), {"blue", {}, {c}}, dice);
  CHECK_MINI(FindBase(r.next, "C.1")->centre == Pt(Cm(58), Cm(50)));
  CHECK_EQ_MINI(FindBase(r.next, "C.1")->heading_mdeg, 0);
  CHECK_MINI(FindBase(r.next, "C.3")->centre == Pt(Cm(62), Cm(50)));
  CHECK_MINI(FindUnit(r.next, "T")->engaged);
  // Without `envelop` AUTO expects T15's counts (1 on T): the same legs still pass (more).
  c.envelop = false;
  CHECK_EQ_MINI(TryCharge(g, c).verdict, Ok("C"));
  // One more centimetre on the slide: 3.512 + 14 + 3 = 20.512 > 20 (WME-R19).
  c.bases[1].legs.back() = Translate(Cm(59), Cm(50));
  Verdict far = Refused("C", Reason::kExceedsAllowance, "C.1");
  far.value = Cm(20, 512);
  far.limit = Cm(20);
  CHECK_EQ_MINI(TryCharge(g, c).verdict, far);
}

// The per-base and end-state codes of an EXPLICIT charge (charge_explicit.cc).
TEST_CASE_MINI(ExplicitPathFormationAndOverlap) {
  Game g;
  g.Unit("R", "red", kInf, {{Cm(100), Cm(60), 270000}});  // front edge y = 59, x 98-102
  g.Unit("B", "blue", kInf, {{Cm(100), Cm(40)}, {Cm(104), Cm(40)}});
  g.Unit("F", "blue", kInf, {{Cm(104), Cm(50)}});  // x 102-106, y 49-51
  // B.2 straight north runs into F: PATH_BLOCKED.
  ChargeOrder c = Explicit(
      "B", "R", {{"B.1", {Translate(Cm(100), Cm(58))}}, {"B.2", {Translate(Cm(104), Cm(58))}}});
  CHECK_EQ_MINI(TryCharge(g, c).verdict, Refused("B", Reason::kPathBlocked, "B.2", "R"));
  g.scenario.units.pop_back();  // no F from here on
  g.scenario.bases.pop_back();
  // B.2 left behind at (104,40): the unit is no longer in formation.
  c.bases.pop_back();
  CHECK_EQ_MINI(TryCharge(g, c).verdict, Refused("B", Reason::kFormationBroken));
  // B.2 onto B.1 (y 56-58 against y 57-59): BASE_OVERLAP.
  c.bases.push_back({"B.2", {Translate(Cm(101), Cm(57))}});
  CHECK_EQ_MINI(TryCharge(g, c).verdict, Refused("B", Reason::kBaseOverlap, "B.1", "B.2"));
  // B.2 behind B.1 touches nothing of R, where AUTO puts it corner to corner with R at (102,59):
  //   [R ]
  //   [B1][B2]   AUTO: (a) 2, (b) 2, (c) 1
  //   [B2]       explicit: (a) 1
  c.bases.back().legs = {Translate(Cm(100), Cm(56))};
  CHECK_EQ_MINI(TryCharge(g, c).verdict, NotMaximised("B", "R", 1, 2));
  c.bases.back().legs = {Translate(Cm(104), Cm(58))};
  CHECK_EQ_MINI(TryCharge(g, c).verdict, Ok("B"));
}

}  // namespace
}  // namespace pbem::wme
