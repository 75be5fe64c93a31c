// WME-P09 zones (T13, T14) and WME-P16 support, with random footprints whose zone areas must
// add up to their area outside the reference rectangle.
#include "engine/table/zones.h"

#include <catch2/catch.hpp>

#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

Rect Base(Point c, std::int64_t heading = 90000) {
  return *Rect::Make(c, 4 * kCm, 2 * kCm, heading);
}
constexpr Int128 kCm2 = Int128{kCm} * kCm;
constexpr Int128 kEpsArea = kCm2 / 100;  // 0.01 cm^2

TEST_CASE("T13: a flank wedge and a front", "[table]") {
  // T's reference rectangle: x 59-61, y 48-60, facing east (W 12 along y, D 2 along x).
  const Rect t = *Rect::Make(Cm(60, 54), 12 * kCm, 2 * kCm, 0);
  const ZoneVerdict south =
      ChargerZone(t, {Base(Cm(56, 36)), Base(Cm(60, 36)), Base(Cm(64, 36))}, kEpsArea);
  CHECK(south.zone == Zone::kRightFlank);
  CHECK(south.twice_area[2] == 2 * 24 * kCm2);
  CHECK_FALSE(south.tie);
  const ZoneVerdict east = ChargerZone(
      t, {Base(Cm(75, 50), 180000), Base(Cm(75, 54), 180000), Base(Cm(75, 58), 180000)}, kEpsArea);
  CHECK(east.zone == Zone::kFront);
}

TEST_CASE("T14: an exact tie, and 5 against 3", "[table]") {
  const Rect t = *Rect::Make(Cm(60, 54), 12 * kCm, 2 * kCm, 0);
  const ZoneVerdict tie = ChargerZone(t, {Base(Cm(68, 41))}, kEpsArea);
  CHECK(tie.tie);
  CHECK(tie.zone == Zone::kFront);  // equal areas: front before the flanks
  CHECK(tie.runner_up == Zone::kRightFlank);
  CHECK(tie.twice_area[0] == 2 * 4 * kCm2);
  CHECK(tie.twice_area[2] == 2 * 4 * kCm2);
  // A corner exactly on the ray from (61, 48): all 8 cm^2 in the flank, none lost.
  CHECK(TwiceZoneAreas(t, Base(Cm(65, 41)).footprint())[2] == 2 * 8 * kCm2);
  CHECK(TwiceZoneAreas(t, Base(Cm(65, 41)).footprint())[0] == 0);
  // A base touching the front edge (x = 61): all of it in front.
  CHECK(TwiceZoneAreas(t, Base(Cm(63, 54)).footprint())[0] == 2 * 8 * kCm2);
  const ZoneVerdict front = ChargerZone(t, {Base(Cm(68.5, 41))}, kEpsArea);
  CHECK_FALSE(front.tie);
  CHECK(front.zone == Zone::kFront);
  CHECK(front.twice_area[0] == 2 * 5 * kCm2);
  // A difference of exactly eps_area is a tie; a little more is not (shift by 0.005 cm moves
  // 2 x 0.005 x 2 = 0.02 cm^2 from one zone to the other, so 0.0025 cm moves 0.01).
  const Coord x = Cm(68, 0).x() + kCm / 400;
  CHECK(ChargerZone(t, {Base(P(x, Cm(0, 41).y()))}, kEpsArea).tie);
  CHECK_FALSE(ChargerZone(t, {Base(P(x + 1, Cm(0, 41).y()))}, kEpsArea).tie);
}

TEST_CASE("zone areas add up to the area outside the reference", "[table]") {
  reference::Rng rng(130);
  for (int i = 0; i < 3000; ++i) {
    const Point tc = rng.PointIn(40 * kCm, 60 * kCm);  // one draw per statement: gcc and
    const Rect t = Base(tc, rng.Between(0, 359999));   // clang order arguments differently
    const Point bc = rng.PointIn(30 * kCm, 70 * kCm);
    const Rect b = Base(bc, rng.Between(0, 359999));
    const std::array<Int128, 4> a = TwiceZoneAreas(t, b.footprint());
    Int128 sum = 0;
    for (Int128 v : a) {
      REQUIRE(v >= 0);
      sum += v;
    }
    const Int128 whole = TwiceSignedArea(b.footprint().vertices());
    REQUIRE(sum <= whole + 8 * kCm);  // rounding: a few units per clipped vertex
    if (!ConvexOverlap(t.footprint(), b.footprint(), 0) &&
        ConvexDistance(t.footprint(), b.footprint()).Compare(0) > 0) {
      REQUIRE(sum >= whole - 8 * kCm);  // wholly outside: every bit is in some zone
    }
  }
}

TEST_CASE("WME-P16: support from behind", "[table]") {
  const Rect front = Base(Cm(40, 40));
  CHECK(SupportsFromBehind(Base(Cm(40, 38)), front, kEpsCm, 500));
  CHECK(SupportsFromBehind(Base(Cm(41, 38)), front, kEpsCm, 500));  // 3 cm of the rear edge
  CHECK_FALSE(SupportsFromBehind(Base(Cm(40, 38), 90600), front, kEpsCm, 500));
  CHECK_FALSE(SupportsFromBehind(Base(Cm(40, 42)), front, kEpsCm, 500));  // in front
  CHECK_FALSE(SupportsFromBehind(Base(Cm(44, 40)), front, kEpsCm, 500));  // beside
  CHECK_FALSE(SupportsFromBehind(Base(Cm(44, 38)), front, kEpsCm, 500));  // corner only
}

}  // namespace
}  // namespace pbem::table
