// §5.4 step 8, *charge enveloppante* (WME-R60, R61; GAP-21): the digest's WME-T18, its
// variants, and the warning ENVELOP_CONDITIONS_NOT_MET, hand-worked.
#include "engine/wme/charge.h"
#include "tests/engine/wme/fixtures.h"

namespace pbem::wme {
namespace {

using namespace testing;

ChargeOrder Enveloping(const std::string& unit, const std::string& target) {
  ChargeOrder c = ChargeAt(unit, target);
  c.envelop = true;
  return c;
}

Verdict Warning(const std::string& unit, const std::string& target) {
  Verdict v = Ok(unit);
  v.reason = Reason::kEnvelopConditionsNotMet;
  v.other = target;
  return v;
}

// WME-T18: T15 with `envelop: true`. Step 7 leaves C.1 and C.3 in a column behind the first
// base; both wheel onto T, C.3 (the farther) first:
//
//          T.1 faces east, x 59-61, y 48-52
//     [C.1]|T.1|[C.3]     C.1 (58,50) faces east, front edge on T's rear edge x = 59
//          [C.2]          C.3 (62,50) faces west, front edge on T's front edge x = 61
//                         both edge-touch C.2 (x 58-62, y 46-48) along y = 48 over 1 cm
// AUTO path (W-R7): turn 90 degrees about the centre (corners travel sqrt(5) pi / 2 = 3.512),
// then straight, sqrt(2^2 + 14^2) = 14.142: 17.655 <= 20 (the digest's explicit legs, with a
// dog-leg, travel 19.512 to the same places).
TEST_CASE_MINI(T18_EnvelopingCharge) {
  const Game g = T15Game();
  const ChargeCheck c = TryCharge(g, Enveloping("C", "T"));
  CHECK_EQ_MINI(c.verdict, Ok("C"));
  REQUIRE_MINI(c.line.has_value() && c.line->bases.size() == 3);
  CHECK_EQ_MINI(c.line->enveloped, 2);
  const State s = g.Start();
  CHECK_EQ_MINI(s.bases[c.line->bases[1].base].id, "C.1");
  CHECK_MINI(c.line->bases[1].slot.centre() == Pt(Cm(58), Cm(50)));
  CHECK_EQ_MINI(NormaliseHeading(c.line->bases[1].slot.heading()), 0);
  CHECK_EQ_MINI(NearestMilli(c.line->bases[1].travel), Cm(17, 655));
  CHECK_EQ_MINI(s.bases[c.line->bases[2].base].id, "C.3");
  CHECK_MINI(c.line->bases[2].slot.centre() == Pt(Cm(62), Cm(50)));
  CHECK_EQ_MINI(NormaliseHeading(c.line->bases[2].slot.heading()), 180000);
  CHECK_EQ_MINI(NearestMilli(c.line->bases[2].travel), Cm(17, 655));
  CHECK_EQ_MINI(c.line->touching_target, 3);  // W-R4: every base on T, all frontal
  CHECK_EQ_MINI(c.line->frontal, 3);
  // Carried out: the three bases where the check put them, the unit now IRREGULAR.
  ScriptedDice dice({});
  const PlayerTurnResult r = ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(),
                                               {"blue", {}, {Enveloping("C", "T")}}, dice);
  CHECK_MINI(FindBase(r.next, "C.1")->centre == Pt(Cm(58), Cm(50)));
  CHECK_MINI(FindBase(r.next, "C.3")->centre == Pt(Cm(62), Cm(50)));
  CHECK_MINI(std::find(r.events.begin(), r.events.end(),
                       Event{FormationNow{"C", table::Formation::kIrregular}}) != r.events.end());
  // With `envelop: false` the result is T15's (front_line_test.cc).
  const ChargeCheck plain = TryCharge(g, ChargeAt("C", "T"));
  CHECK_EQ_MINI(plain.line->enveloped, 0);
  CHECK_MINI(plain.line->bases[1].slot.centre() == Pt(Cm(60), Cm(45)));
}

// WME-T18's last sentence (WME-R60 first condition): a CHOC charger gets the warning and no
// envelopment. Cavalry C (x 57-63, y 34-38) charges T's flank: first base (60,46), the others
// corner to corner with T at (58,46) and (62,46) (step 7); the verdict is OK with the warning.
TEST_CASE_MINI(T18_ChocChargerCannotEnvelop) {
  Game g;
  g.Unit("T", "red", TroopType::kInfantry,
         {{Cm(60), Cm(50), 0}, {Cm(60), Cm(54), 0}, {Cm(60), Cm(58), 0}});
  g.Unit("C", "blue", TroopType::kCavalry, {{Cm(58), Cm(36)}, {Cm(60), Cm(36)}, {Cm(62), Cm(36)}});
  const ChargeCheck c = TryCharge(g, Enveloping("C", "T"));
  CHECK_EQ_MINI(c.verdict, Warning("C", "T"));
  REQUIRE_MINI(c.line.has_value());
  CHECK_EQ_MINI(c.line->enveloped, 0);
  CHECK_MINI(c.line->bases[0].slot.centre() == Pt(Cm(60), Cm(46)));
  CHECK_EQ_MINI(c.line->touching_target, 3);
  CHECK_EQ_MINI(c.line->frontal, 1);
  // The warning does not stop the charge: it is carried out.
  ScriptedDice dice({});
  const PlayerTurnResult r = ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(),
                                               {"blue", {}, {Enveloping("C", "T")}}, dice);
  CHECK_EQ_MINI(r.verdicts[0], Warning("C", "T"));
  CHECK_MINI(FindUnit(r.next, "C")->engaged);
}

// WME-R60's second condition: a charge into the front zone (T17's) does not envelop.
TEST_CASE_MINI(EnvelopNeedsAFlankCharge) {
  Game g;
  g.Unit("R", "red", TroopType::kInfantry,
         {{Cm(40), Cm(60), 270000}, {Cm(44), Cm(60), 270000}, {Cm(48), Cm(60), 270000}});
  g.Unit("B", "blue", TroopType::kInfantry, {{Cm(40), Cm(40)}, {Cm(44), Cm(40)}, {Cm(48), Cm(40)}});
  CHECK_EQ_MINI(TryCharge(g, Enveloping("B", "R")).verdict, Warning("B", "R"));
}

// WME-R61: a base that cannot reach a wheeling place keeps its step-7 place. T18 with the
// infantry speed cut to 17.644 (+ eps = 17.654): the side bases need 17.6545 and stay in the
// column; the charge still goes in. At 17.645 (+ eps = 17.655) both wheel.
TEST_CASE_MINI(EnvelopBeyondReachKeepsTheColumn) {
  Game g = T15Game();
  g.ruleset.speed_cm[static_cast<std::size_t>(TroopType::kInfantry)] = Cm(17, 644);
  const ChargeCheck c = TryCharge(g, Enveloping("C", "T"));
  CHECK_EQ_MINI(c.verdict, Ok("C"));
  REQUIRE_MINI(c.line.has_value());
  CHECK_EQ_MINI(c.line->enveloped, 0);
  CHECK_MINI(c.line->bases[2].slot.centre() == Pt(Cm(60), Cm(43)));
  g.ruleset.speed_cm[static_cast<std::size_t>(TroopType::kInfantry)] = Cm(17, 645);
  CHECK_EQ_MINI(TryCharge(g, Enveloping("C", "T")).line->enveloped, 2);
}

}  // namespace
}  // namespace pbem::wme
