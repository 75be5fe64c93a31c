// §5.4 step 7, building the front line base by base (WME-R49..R52, R55; GAP-40; W-R4): the
// digest's worked cases T15, T16 (full), T17 (a), T23 (a), and FRONT_LINE_IMPOSSIBLE,
// hand-worked. Diagrams: north is up, one character ~ 1 cm when said; [F] the first base.
#include "engine/wme/charge.h"
#include "tests/engine/wme/fixtures.h"

namespace pbem::wme {
namespace {

using namespace testing;
constexpr TroopType kInf = TroopType::kInfantry;

// The id, centre and heading of each placed base, in the order they move.
struct Placed {
  std::string id;
  table::Point centre;
  std::int64_t heading = 90000;
  Milli travel = 0;
  friend bool operator==(const Placed&, const Placed&) = default;
};
std::vector<Placed> PlacedOf(const Game& g, const ChargeCheck& c) {
  std::vector<Placed> out;
  if (!c.line) return out;
  const State s = g.Start();
  for (const PlacedBase& b : c.line->bases) {
    out.push_back({s.bases[b.base].id, b.slot.centre(), NormaliseHeading(b.slot.heading()),
                   NearestMilli(b.travel)});
  }
  return out;
}

// WME-T15: red line T faces east (x 59-61, y 48-60); blue line C charges its right (south)
// flank, only 2 cm wide, from y = 36:
//
//        T T        y 48-60 (T's flank edge y = 48, x 59-61)
//      1 [F] 3      (a) LINE: C.1 (56,47) and C.3 (64,47), 1 cm short of T's corners
//        [1]        (b) BEHIND: C.1 (60,45) then C.3 (60,43), a column behind the first
//        [3]
//   C.1 C.2 C.3     start, y 35-37

TEST_CASE_MINI(T15_FrontLineAgainstANarrowFlank) {
  const Game g = T15Game();
  // (a) reserve LINE: the first base C.2 (travel 11), then the row beside it, left first.
  const ChargeCheck a = TryCharge(g, ChargeAt("C", "T", Reserve::kLine));
  CHECK_EQ_MINI(a.verdict, Ok("C"));
  CHECK_MINI(a.zone == table::Zone::kRightFlank);
  REQUIRE_MINI(a.line.has_value());
  const std::vector<Placed> line{{"C.2", Pt(Cm(60), Cm(47)), 90000, Cm(11)},
                                 {"C.1", Pt(Cm(56), Cm(47)), 90000, Cm(11)},
                                 {"C.3", Pt(Cm(64), Cm(47)), 90000, Cm(11)}};
  CHECK_MINI(PlacedOf(g, a) == line);
  CHECK_EQ_MINI(a.line->touching_target, 1);  // no other base touches T (W-R4)
  CHECK_EQ_MINI(a.line->frontal, 1);
  CHECK_MINI(a.line->reserve == Reserve::kLine);
  // (b) BEHIND (the default): sqrt(97) = 9.849 + sqrt(65) = 8.062 either way round; the tie
  // in total travel gives the place nearer the first base to the lower id, C.1.
  const ChargeCheck b = TryCharge(g, ChargeAt("C", "T"));
  CHECK_EQ_MINI(b.verdict, Ok("C"));
  const std::vector<Placed> column{{"C.2", Pt(Cm(60), Cm(47)), 90000, Cm(11)},
                                   {"C.1", Pt(Cm(60), Cm(45)), 90000, Cm(9, 849)},
                                   {"C.3", Pt(Cm(60), Cm(43)), 90000, Cm(8, 62)}};
  CHECK_MINI(PlacedOf(g, b) == column);
  CHECK_MINI(b.line->reserve == Reserve::kBehind);
}

// WME-T16 with `irregular_charge_speed: full` (C-1): LEGAL, the front line of T15 (b) from
// C.2 at (60,36.5) (travel 10.5).
TEST_CASE_MINI(T16_FullSpeedIrregularChargerBuildsItsLine) {
  Game g = T15Game();
  g.scenario.bases[4].centre = Pt(Cm(60), Cm(36, 500));
  g.ruleset.irregular_charge_speed = IrregularChargeSpeed::kFull;
  const ChargeCheck c = TryCharge(g, ChargeAt("C", "T"));
  CHECK_EQ_MINI(c.verdict, Ok("C"));
  REQUIRE_MINI(c.line.has_value() && c.line->bases.size() == 3);
  CHECK_EQ_MINI(NearestMilli(c.line->bases[0].travel), Cm(10, 500));
  CHECK_MINI(c.line->bases[2].slot.centre() == Pt(Cm(60), Cm(43)));
}

// WME-T17 (a): red line R faces south (front edge y = 59, x 38-50); the blue line 18 cm below.
// Every blue base reaches a centred slot with travel 18, so the first base is the lowest id;
// the others go beside it, each in frontal contact with the next red base:
//
//   [R1][R2][R3]     y 59-61
//   [F ][B2][B3]     y 57-59: 3 frontal contacts (W-R4 (a) 3, (b) 3, (c) 3)
Game T17() {
  Game g;
  g.Unit("R", "red", kInf,
         {{Cm(40), Cm(60), 270000}, {Cm(44), Cm(60), 270000}, {Cm(48), Cm(60), 270000}});
  g.Unit("B", "blue", kInf, {{Cm(40), Cm(40)}, {Cm(44), Cm(40)}, {Cm(48), Cm(40)}});
  return g;
}

TEST_CASE_MINI(T17_FrontLineMaximisesContact) {
  const Game g = T17();
  const ChargeCheck c = TryCharge(g, ChargeAt("B", "R"));
  CHECK_EQ_MINI(c.verdict, Ok("B"));
  const std::vector<Placed> want{{"B.1", Pt(Cm(40), Cm(58)), 90000, Cm(18)},
                                 {"B.2", Pt(Cm(44), Cm(58)), 90000, Cm(18)},
                                 {"B.3", Pt(Cm(48), Cm(58)), 90000, Cm(18)}};
  CHECK_MINI(PlacedOf(g, c) == want);
  CHECK_EQ_MINI(c.line->touching_target, 3);
  CHECK_EQ_MINI(c.line->touching_enemy, 3);
  CHECK_EQ_MINI(c.line->frontal, 3);
}

// WME-T23 (a): red T4 alone (x 98-102, y 79-81), red T5 (another unit) beside it (x 102-106).
//
//        [T4][T5]        y 79-81
//    [1] [F ][3 ]        y 77-79: 1 corner-touches T4 at (98,79); 3 is frontal on T5 and
//                        corner-touches T4 at (102,79): (a) 3, (b) 3, (c) 2
// (96,80) would edge-touch T4's side as well, but costs 20 instead of 18 (least travel).
Game T23() {
  Game g;
  g.Unit("T4", "red", kInf, {{Cm(100), Cm(80), 270000}});
  g.Unit("T5", "red", kInf, {{Cm(104), Cm(80), 270000}});
  g.Unit("B", "blue", kInf, {{Cm(96), Cm(60)}, {Cm(100), Cm(60)}, {Cm(104), Cm(60)}});
  return g;
}

TEST_CASE_MINI(T23_FrontLineContactsTheNeighbouringUnit) {
  const Game g = T23();
  const ChargeCheck c = TryCharge(g, ChargeAt("B", "T4"));
  CHECK_EQ_MINI(c.verdict, Ok("B"));
  const std::vector<Placed> want{{"B.2", Pt(Cm(100), Cm(78)), 90000, Cm(18)},
                                 {"B.1", Pt(Cm(96), Cm(78)), 90000, Cm(18)},
                                 {"B.3", Pt(Cm(104), Cm(78)), 90000, Cm(18)}};
  CHECK_MINI(PlacedOf(g, c) == want);
  CHECK_EQ_MINI(c.line->touching_target, 3);
  CHECK_EQ_MINI(c.line->touching_enemy, 3);
  CHECK_EQ_MINI(c.line->frontal, 2);
  // Carried out (step 11): T5 is charged too (WME-R52).
  ChargeOrder charge = ChargeAt("B", "T4");
  ScriptedDice dice({});
  const PlayerTurnResult r =
      ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(), {"blue", {}, {charge}}, dice);
  const std::vector<Event> events{
      Moved{"B.2", Cm(100), Cm(60), 90000, Cm(100), Cm(78), 90000, Cm(18)},
      Moved{"B.1", Cm(96), Cm(60), 90000, Cm(96), Cm(78), 90000, Cm(18)},
      Moved{"B.3", Cm(104), Cm(60), 90000, Cm(104), Cm(78), 90000, Cm(18)},
      FormationNow{"B", table::Formation::kLine},
      ChargeContact{"B", "T4", table::Zone::kFront, "B.2", "T4.1"},
      AdditionalChargedUnit{"T5"},
      PhaseEnded{"blue", 1}};
  CHECK_MINI(r.events == events);
  CHECK_MINI(FindUnit(r.next, "B")->engaged && FindUnit(r.next, "T4")->engaged &&
             FindUnit(r.next, "T5")->engaged);
}

// WME-R55, §5.4 step 7: no connected placement the second base can reach. Blue F (x 102-106,
// y 45-47) lies across every path of C.2 but the first base's (which slides along x = 102):
//
//        [R ]            y 51-53, R's front edge y = 51
//    .   [F1]  .         y 49-51: (96,50) needs 21.5 cm, (104,50) goes through F
//        [  ][F ]        behind the first base: C.2's diagonal crosses F by 0.25-0.44 cm
//   [C1][C2]             y 29-31
TEST_CASE_MINI(FrontLineImpossible) {
  Game g;
  g.Unit("R", "red", kInf, {{Cm(100), Cm(52), 270000}});
  g.Unit("C", "blue", kInf, {{Cm(100), Cm(30)}, {Cm(104), Cm(30)}});
  g.Unit("F", "blue", kInf, {{Cm(104), Cm(46)}});
  Verdict v = Refused("C", Reason::kFrontLineImpossible, "", "R");
  CHECK_EQ_MINI(TryCharge(g, ChargeAt("C", "R")).verdict, v);
  CHECK_EQ_MINI(TryCharge(g, ChargeAt("C", "R", Reserve::kLine)).verdict, v);
  // Without F: C.2 goes straight to (104,50) (travel 20), corner to corner with R.
  g.scenario.units.pop_back();
  g.scenario.bases.pop_back();
  const ChargeCheck ok = TryCharge(g, ChargeAt("C", "R"));
  CHECK_EQ_MINI(ok.verdict, Ok("C"));
  REQUIRE_MINI(ok.line.has_value());
  CHECK_MINI(ok.line->bases[1].slot.centre() == Pt(Cm(104), Cm(50)));
}

// The search is bounded: a charger of more than 7 bases is not supported (charge_line.cc).
TEST_CASE_MINI(LargeChargersAreNotSupported) {
  Game g;
  g.Unit("R", "red", kInf, {{Cm(100), Cm(60), 270000}});
  std::vector<Pose> eight;
  for (int k = 0; k < 8; ++k) eight.push_back({Cm(86 + 4 * k), Cm(50)});
  g.Unit("C", "blue", kInf, eight);
  CHECK_EQ_MINI(TryCharge(g, ChargeAt("C", "R")).verdict,
                Refused("C", Reason::kChargeNotSupported, "", "R"));
  g.scenario.bases.pop_back();
  CHECK_EQ_MINI(TryCharge(g, ChargeAt("C", "R")).verdict, Ok("C"));
}

}  // namespace
}  // namespace pbem::wme
