// Rectangular bases (WME §1.1, WME-P01/P02): corners of the digest's cases, overlap and touch
// against an interval reference for axis headings, and rotated cases at the limit.
#include "engine/table/rect.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

Rect Base(Point c, Coord w, Coord d, std::int64_t heading) { return *Rect::Make(c, w, d, heading); }

TEST_CASE("WME §1.1 corners: infantry facing north and a cavalry base facing west", "[table]") {
  // T01 base (20, 30, 90), 4 x 2: x 18-22, y 29-31; facing north, FL is north-west.
  const Rect b = Base(Cm(20, 30), 4 * kCm, 2 * kCm, 90000);
  CHECK(b.FL() == Cm(18, 31));
  CHECK(b.FR() == Cm(22, 31));
  CHECK(b.RR() == Cm(22, 29));
  CHECK(b.RL() == Cm(18, 29));
  // T10 red cavalry (24, 45, 270), CHOC 2 x 4: x 23-25, y 43-47; front edge to the south.
  const Rect x = Base(Cm(24, 45), 2 * kCm, 4 * kCm, 270000);
  CHECK(x.FL() == Cm(25, 43));
  CHECK(x.FR() == Cm(23, 43));
  CHECK(x.RR() == Cm(23, 47));
}

TEST_CASE("bad rectangles are refused", "[table]") {
  CHECK_FALSE(Rect::Make(Cm(0, 0), 0, 2 * kCm, 0).has_value());
  CHECK_FALSE(Rect::Make(Cm(0, 0), 4 * kCm, -1, 0).has_value());
  CHECK_FALSE(Rect::Make(P(kMaxCoord, 0), 4 * kCm, 2 * kCm, 0).has_value());  // corner beyond
  CHECK(Rect::Make(P(kMaxCoord - kCm, 0), 4 * kCm, 2 * kCm, 0).has_value());
  CHECK_FALSE(Rect::Make(Cm(0, 0), kMaxCoord + 1, 2, 0).has_value());
}

struct Box {
  Coord x0, x1, y0, y1;
};
Box BoxOf(const Rect& r) {
  Box b{r.FL().x(), r.FL().x(), r.FL().y(), r.FL().y()};
  for (const Point& p : r.corners()) {
    b.x0 = std::min(b.x0, p.x()), b.x1 = std::max(b.x1, p.x());
    b.y0 = std::min(b.y0, p.y()), b.y1 = std::max(b.y1, p.y());
  }
  return b;
}

TEST_CASE("overlap and touch of axis-aligned bases agree with intervals", "[table]") {
  reference::Rng rng(60);
  int overlaps = 0, touches = 0;
  for (int i = 0; i < 50000; ++i) {
    const std::int64_t h1 = 90000 * rng.Between(0, 3), h2 = 90000 * rng.Between(0, 3);
    const Point ca = rng.PointIn(0, 30);
    const Coord wa = 2 * rng.Between(1, 6);
    const Rect a = Base(ca, wa, 2 * rng.Between(1, 6), h1);
    const Point cb = rng.PointIn(0, 30);
    const Coord wb = 2 * rng.Between(1, 6);
    const Rect b = Base(cb, wb, 2 * rng.Between(1, 6), h2);
    const Coord eps = rng.Between(0, 2);
    const Box p = BoxOf(a), q = BoxOf(b);
    const Coord ox = std::min(p.x1, q.x1) - std::max(p.x0, q.x0);
    const Coord oy = std::min(p.y1, q.y1) - std::max(p.y0, q.y0);
    const bool overlap = ox > eps && oy > eps;  // penetration depth = min(ox, oy)
    const Coord gx = std::max<Coord>(0, -ox), gy = std::max<Coord>(0, -oy);
    const bool touch = !overlap && gx * gx + gy * gy <= eps * eps;
    REQUIRE(Overlap(a, b, eps) == overlap);
    REQUIRE(Touch(a, b, eps) == touch);
    overlaps += overlap;
    touches += touch;
  }
  CHECK(overlaps > 3000);
  CHECK(touches > 2000);
}

TEST_CASE("WME-P02 at the limit: side by side, eps apart, eps into each other", "[table]") {
  const Rect a = Base(Cm(20, 30), 4 * kCm, 2 * kCm, 90000);
  auto at = [&](Coord dx) {
    return Base(P(Cm(24, 30).x() + dx, Cm(0, 30).y()), 4 * kCm, 2 * kCm, 90000);
  };
  CHECK(Touch(a, at(0), kEpsCm));  // T01: the line's bases touch
  CHECK(Touch(a, at(kEpsCm), kEpsCm));
  CHECK_FALSE(Touch(a, at(kEpsCm + 1), kEpsCm));
  CHECK(Touch(a, at(-kEpsCm), kEpsCm));
  CHECK_FALSE(Overlap(a, at(-kEpsCm), kEpsCm));
  CHECK(Overlap(a, at(-kEpsCm - 1), kEpsCm));
  CHECK_FALSE(Touch(a, at(-kEpsCm - 1), kEpsCm));
}

TEST_CASE("rotated bases: a corner touching an edge, then pressed in", "[table]") {
  // A 2 x 2 base turned 45 degrees with its corner on the right side of a 4 x 2 base at x = 22.
  const Rect a = Base(Cm(20, 30), 4 * kCm, 2 * kCm, 90000);
  const Coord half_diag = static_cast<Coord>(ISqrt(UInt128{2} * kCm * kCm));  // sqrt(2) cm, down
  auto turned = [&](Coord dx) {
    return Base(P(Cm(22, 0).x() + half_diag + dx, Cm(0, 30).y()), 2 * kCm, 2 * kCm, 45000);
  };
  CHECK(Touch(a, turned(0), kEpsCm));
  CHECK_FALSE(Overlap(a, turned(0), kEpsCm));
  CHECK(Touch(a, turned(kEpsCm - 2), kEpsCm));  // rounding of the corners is within a unit
  CHECK_FALSE(Touch(a, turned(kEpsCm + 2), kEpsCm));
  CHECK(Overlap(a, turned(-kEpsCm - 2), kEpsCm));
  CHECK_FALSE(Overlap(a, turned(-kEpsCm + 2), kEpsCm));
  // Distance between them: exactly the offset, up to the corner rounding.
  const MinDistance d = ConvexDistance(a.footprint(), turned(5 * kEpsCm).footprint());
  CHECK(d.Compare(5 * kEpsCm + 2) < 0);
  CHECK(d.Compare(5 * kEpsCm - 2) > 0);
}

}  // namespace
}  // namespace pbem::table
