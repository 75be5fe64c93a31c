// The French digest's worked cases (§7) that need only geometry, each checked on the predicates
// the engine will use for it: T03, T12, T15-T25 (T01, T02, T04-T11, T13, T14 are in the
// predicates' own tests). Verdict codes and dice belong to the rules; here, the geometry under
// them: travel, formation, contact kinds, zones, clearance, sight.
#include <catch2/catch.hpp>

#include "engine/table/available.h"
#include "engine/table/contact.h"
#include "engine/table/formation.h"
#include "engine/table/motion.h"
#include "engine/table/sweep.h"
#include "engine/table/vision.h"
#include "engine/table/zones.h"
#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

constexpr std::int64_t kHalfDegree = 500;
// NON_CHOC infantry 4 x 2, CHOC 2 x 4 (GAP-03).
Rect Inf(Point c, std::int64_t heading = 90000) {
  return *Rect::Make(c, 4 * kCm, 2 * kCm, heading);
}
Rect Choc(Point c, std::int64_t heading = 90000) {
  return *Rect::Make(c, 2 * kCm, 4 * kCm, heading);
}
Leg To(Point p) { return {Leg::Kind::kTranslate, p, 0, Point()}; }
Leg Turn(std::int64_t md, Point pivot) { return {Leg::Kind::kRotate, Point(), md, pivot}; }
Contact Kind(const Rect& a, const Rect& b) { return ContactKind(a, b, kEpsCm, kHalfDegree); }
std::optional<std::size_t> Frontal(const Rect& a, const Rect& b) {
  return FrontalContactEdge(a, b, kEpsCm, kHalfDegree);
}
// The travel rounded up to a thousandth of a cm is `thousandths`: within it, over one less.
void TravelIs(const Rect& from, const std::vector<Leg>& legs, Coord thousandths) {
  const auto m = Move(from, legs);
  REQUIRE(m.has_value());
  CHECK(TravelWithin(*m, thousandths * kUnitsPerThousandthCm).within);
  CHECK_FALSE(TravelWithin(*m, (thousandths - 1) * kUnitsPerThousandthCm).within);
}

TEST_CASE("WME-T03: irregular flyers keep 60 cm", "[table]") {
  const std::vector<Rect> f{Choc(Cm(100, 10)), Choc(Cm(102, 11)), Choc(Cm(104, 10))};
  CHECK(Classify(f, kEpsCm, kHalfDegree) == Formation::kIrregular);
  TravelIs(f[1], {To(Cm(102, 71))}, 60000);
  CHECK(TravelWithin(*Move(f[1], {To(Cm(102, 71))}), 60 * kCm + kEpsCm).within);
}

TEST_CASE("WME-T12: the evaders pass through G and end clear of it; stopping on it does not",
          "[table]") {
  const std::vector<Rect> g{Inf(Cm(20, 20)), Inf(Cm(24, 20)), Inf(Cm(28, 20))};
  const auto sweep = Sweep(Inf(Cm(24, 30)), {To(Cm(24, 10))});
  REQUIRE(sweep.has_value());
  CHECK(SweepOverlaps(*sweep, g[1].footprint(), kEpsCm));  // traversée de rangs
  for (const Rect& b : g) {
    CHECK_FALSE(Overlap(Inf(Cm(24, 10)), b, kEpsCm));  // (a) ends at y 9-11
    CHECK(KeepsClear(Inf(Cm(24, 10)), b, 0, kEpsCm));
  }
  CHECK(Overlap(Inf(Cm(24, 20)), g[1], kEpsCm));  // (b) PASS_THROUGH_NOT_CLEARED
}

// T13's target T facing east (x 59-61, y 48-60) and T15's charger line.
std::vector<Rect> T() { return {Inf(Cm(60, 50), 0), Inf(Cm(60, 54), 0), Inf(Cm(60, 58), 0)}; }

TEST_CASE("WME-T15: the first base centred on T's flank, the others in line or behind", "[table]") {
  const Rect first = Inf(Cm(60, 47));
  TravelIs(Inf(Cm(60, 36)), {To(Cm(60, 47))}, 11000);
  CHECK(Frontal(first, T()[0]) == std::size_t{1});  // T's right flank
  CHECK(first.Edge(0).a.x() + first.Edge(0).b.x() == T()[0].Edge(1).a.x() + T()[0].Edge(1).b.x());
  // (a) reserve LINE: a line 1 cm short of T.
  const std::vector<Rect> line{Inf(Cm(56, 47)), first, Inf(Cm(64, 47))};
  CHECK(Classify(line, kEpsCm, kHalfDegree) == Formation::kLine);
  for (const Rect& t : T()) {
    CHECK(Kind(line[0], t) == Contact::kNone);
    CHECK(Kind(line[2], t) == Contact::kNone);
  }
  // (b) reserve BEHIND: 9.849 and 8.062.
  const std::vector<Rect> column{first, Inf(Cm(60, 45)), Inf(Cm(60, 43))};
  CHECK(Classify(column, kEpsCm, kHalfDegree) == Formation::kColumn);
  TravelIs(Inf(Cm(56, 36)), {To(Cm(60, 45))}, 9849);
  TravelIs(Inf(Cm(64, 36)), {To(Cm(60, 43))}, 8063);  // sqrt(65) = 8.0623
}

TEST_CASE("WME-T16: the irregular charger's closest base needs 10.5 cm", "[table]") {
  const std::vector<Rect> c{Inf(Cm(56, 36)), Inf(Cm(60, 36.5)), Inf(Cm(64, 36))};
  CHECK(Classify(c, kEpsCm, kHalfDegree) == Formation::kIrregular);
  const auto m = Move(c[1], {To(Cm(60, 47))});
  CHECK_FALSE(TravelWithin(*m, 10 * kCm + kEpsCm).within);  // half speed: CHARGE_OUT_OF_RANGE
  CHECK(TravelWithin(*m, 20 * kCm + kEpsCm).within);        // irregular_charge_speed: full
  TravelIs(c[1], {To(Cm(60, 47))}, 10500);
}

TEST_CASE("WME-T17: three frontal contacts; the explicit placement gets two", "[table]") {
  const std::vector<Rect> r{Inf(Cm(40, 60), 270000), Inf(Cm(44, 60), 270000),
                            Inf(Cm(48, 60), 270000)};
  for (int k = 0; k < 3; ++k) {
    const Coord x = Cm(40 + 4 * k, 0).x();
    TravelIs(Inf(P(x, Cm(0, 40).y())), {To(P(x, Cm(0, 58).y()))}, 18000);
    CHECK(Frontal(Inf(P(x, Cm(0, 58).y())), r[k]) == std::size_t{0});
  }
  // (b) (48, 56) only corner-touches its friend (44, 58) and touches no enemy.
  const Rect third = Inf(Cm(48, 56));
  CHECK(Kind(third, Inf(Cm(44, 58))) == Contact::kCorner);
  for (const Rect& red : r) CHECK(Kind(third, red) == Contact::kNone);
}

TEST_CASE("WME-T18: the charge enveloppante wheels the side bases onto T's rear and front",
          "[table]") {
  const Rect first = Inf(Cm(60, 47));
  const Rect left = Inf(Cm(56, 36)), right = Inf(Cm(64, 36));
  const std::vector<Leg> left_legs{Turn(-90000, left.centre()), To(Cm(56, 50)), To(Cm(58, 50))};
  const std::vector<Leg> right_legs{Turn(90000, right.centre()), To(Cm(64, 50)), To(Cm(62, 50))};
  TravelIs(left, left_legs, 19513);  // 3.51241 + 14 + 2 = 19.51241
  TravelIs(right, right_legs, 19513);
  const Rect l = Move(left, left_legs)->end, r = Move(right, right_legs)->end;
  CHECK(l.heading() % 360000 == 0);
  CHECK(l.centre() == Cm(58, 50));
  CHECK(Frontal(l, T()[0]) == std::size_t{2});  // T's rear edge x = 59
  CHECK(r.centre() == Cm(62, 50));
  CHECK(Frontal(r, T()[0]) == std::size_t{0});  // T's front edge x = 61
  CHECK(Kind(l, first) == Contact::kEdge);      // over 1 cm of y = 48
  CHECK(Kind(r, first) == Contact::kEdge);
}

TEST_CASE("WME-T19 (b): contact over the 1.0 cm the rock leaves, travel 13", "[table]") {
  const Rect p = Inf(Cm(80, 60), 270000);
  const Polygon rock = Box(Cm(70, 55), Cm(81, 59));
  const Rect placed = Inf(Cm(83, 58));
  TravelIs(Inf(Cm(83, 45)), {To(Cm(83, 58))}, 13000);
  CHECK(Frontal(placed, p) == std::size_t{0});
  CHECK_FALSE(ConvexOverlap(placed.footprint(), rock, kEpsCm));
  CHECK(AvailableLength(p, 0, 4 * kCm, 2 * kCm, {rock}).Compare(kCm) == 0);
}

TEST_CASE("WME-T20 (b): seen past the woods, contact after 18 cm", "[table]") {
  const Rect blue = Inf(Cm(100, 30));
  const Rect red = Inf(Cm(100, 50), 270000);
  CHECK(Sees(blue, red.footprint(), {Box(Cm(90, 38), Cm(97, 42))}, VisionArc::kWedge90));
  TravelIs(blue, {To(Cm(100, 48))}, 18000);
  CHECK(Frontal(Inf(Cm(100, 48)), red) == std::size_t{0});
}

TEST_CASE("WME-T21 (a): against pinned Q, corner to corner and edge to edge with friends",
          "[table]") {
  const Rect q = Inf(Cm(150, 60), 270000);
  const Rect p1 = Inf(Cm(150, 58)), p3 = Choc(Cm(146, 60), 0);
  const Rect n = Inf(Cm(146, 58));
  TravelIs(Inf(Cm(146, 45)), {To(Cm(146, 58))}, 13000);
  CHECK(Kind(n, q) == Contact::kCorner);  // at (148, 59)
  CHECK(Kind(n, p1) == Contact::kEdge);   // along x = 148
  CHECK(Kind(n, p3) == Contact::kEdge);   // along y = 59
}

TEST_CASE("WME-T22 (b): the east flank by area, then the fortified front across the wall",
          "[table]") {
  const Rect reference = *Rect::Make(Cm(44, 100), 12 * kCm, 2 * kCm, 270000);
  const ZoneVerdict z = ChargerZone(reference, {Inf(Cm(56, 94))}, Int128{kCm} * kCm / 100);
  CHECK(z.zone == Zone::kLeftFlank);  // facing south, its left is east
  CHECK(z.twice_area[1] == 2 * 6 * Int128{kCm} * kCm);
  CHECK(z.twice_area[0] == 2 * 2 * Int128{kCm} * kCm);
  TravelIs(Inf(Cm(56, 94)), {To(Cm(48, 97))}, 8545);  // sqrt(73) = 8.5440
  const Segment outer_face{Cm(37, 98), Cm(51, 98)};
  const Rect charger = Inf(Cm(48, 97));
  CHECK(FortifiedContact(charger, outer_face, Inf(Cm(48, 100), 270000), 2 * kCm, kEpsCm,
                         kHalfDegree));
  CHECK_FALSE(FortifiedContact(charger, outer_face, Inf(Cm(44, 100), 270000), 2 * kCm, kEpsCm,
                               kHalfDegree));
}

TEST_CASE("WME-T23: a corner on T4 and a frontal contact on T5", "[table]") {
  const Rect t4 = Inf(Cm(100, 80), 270000), t5 = Inf(Cm(104, 80), 270000);
  CHECK(Frontal(Inf(Cm(100, 78)), t4) == std::size_t{0});
  CHECK(Kind(Inf(Cm(96, 78)), t4) == Contact::kCorner);  // at (98, 79)
  CHECK(Frontal(Inf(Cm(104, 78)), t5) == std::size_t{0});
  CHECK(Kind(Inf(Cm(104, 78)), t4) == Contact::kCorner);
  // (b) the right base behind the first touches no enemy.
  CHECK(Kind(Inf(Cm(100, 76)), t4) == Contact::kNone);
  CHECK(Kind(Inf(Cm(100, 76)), t5) == Contact::kNone);
}

TEST_CASE("WME-T24: off the table after the recoil; back 1 cm clear of the red base", "[table]") {
  const Coord w = 180 * kCm, h = 120 * kCm;
  CHECK(OnTable(Inf(Cm(3, 58), 0), w, h, kEpsCm));
  CHECK_FALSE(OnTable(Inf(Cm(0, 58), 0), w, h, kEpsCm));             // 3 cm west: x -1..1
  const Rect red = *Rect::Make(Cm(2, 63), 4 * kCm, 4 * kCm, 90000);  // x 0-4, y 61-65
  // (a) the exit point (0, 60): (1, 58) and (1, 62), the upper one on the red base.
  CHECK(OnTable(Inf(Cm(1, 58), 0), w, h, kEpsCm));
  CHECK(Overlap(Inf(Cm(1, 62), 0), red, kEpsCm));
  // (c) slid to (1, 54), (1, 58): the upper base 1 cm clear; half a step less is not.
  CHECK(KeepsClear(Inf(Cm(1, 58), 0), red, kCm, kEpsCm));
  CHECK_FALSE(KeepsClear(Inf(Cm(1, 58.5), 0), red, kCm, kEpsCm));
  CHECK(Classify({Inf(Cm(1, 54), 0), Inf(Cm(1, 58), 0)}, kEpsCm, kHalfDegree) == Formation::kLine);
}

TEST_CASE("WME-T25: formation classification", "[table]") {
  auto of = [](std::vector<Rect> b) { return Classify(b, kEpsCm, kHalfDegree); };
  CHECK(of({Inf(Cm(0, 0)), Inf(Cm(4, 0)), Inf(Cm(8, 0))}) == Formation::kLine);
  CHECK(of({Inf(Cm(0, 0)), Inf(Cm(4, 2)), Inf(Cm(8, 4))}) == Formation::kLine);  // en escalier
  CHECK(of({Inf(Cm(0, 0)), Inf(Cm(4, 1)), Inf(Cm(8, 0))}) == Formation::kIrregular);
  CHECK(of({Inf(Cm(0, 0)), Inf(Cm(0, 2)), Inf(Cm(0, 4))}) == Formation::kColumn);
  CHECK(of({Inf(Cm(0, 0)), Inf(Cm(4, 0)), Inf(Cm(0, 2))}) == Formation::kIrregular);
  CHECK(of({Inf(Cm(0, 0)), Inf(Cm(4, 0)), Inf(Cm(9, 0))}) == Formation::kNone);
  CHECK(of({Inf(Cm(0, 0)), Inf(Cm(4, 0)), Inf(Cm(4, 3), 0)}) == Formation::kIrregular);
  CHECK(of({Choc(Cm(0, 0)), Choc(Cm(0, 4)), Choc(Cm(0, 8))}) == Formation::kColumn);
}

}  // namespace
}  // namespace pbem::table
