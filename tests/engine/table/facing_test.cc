// Headings and M42-P16 arcs: the integer sine against long double, exact axis headings, T22 at
// its limit and one unit either side, and random arcs against long double.
#include "engine/table/facing.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

TEST_CASE("heading vectors match cos and sin to 2^-52", "[table]") {
  const long double scale = std::ldexp(1.0L, kUnitBits);
  const long double pi = std::acos(-1.0L);
  for (std::int64_t md = -720000; md <= 720000; md += 7) {
    const UnitVector v = HeadingVector(md);
    const long double a = md * pi / 180000.0L;
    REQUIRE(std::fabs(v.x - std::cos(a) * scale) < 256);
    REQUIRE(std::fabs(v.y - std::sin(a) * scale) < 256);
  }
}

TEST_CASE("axis headings are exact and the vector is periodic", "[table]") {
  CHECK(HeadingVector(0).x == kUnitOne);
  CHECK(HeadingVector(0).y == 0);
  CHECK(HeadingVector(90000).x == 0);
  CHECK(HeadingVector(90000).y == kUnitOne);
  CHECK(HeadingVector(180000).x == -kUnitOne);
  CHECK(HeadingVector(-90000).y == -kUnitOne);
  CHECK(HeadingVector(450000).y == kUnitOne);
  const UnitVector a = HeadingVector(45000);
  CHECK(a.x == a.y);
  CHECK(HeadingVector(12345).x == HeadingVector(12345 + 3 * kMillidegreesPerTurn).x);
  CHECK(LeftOf(HeadingVector(90000)).x == -kUnitOne);  // facing north, left is west
}

TEST_CASE("T22: forward and rear arcs, touching the shoulder line counts", "[table]") {
  const Point a1 = In(10, 10);
  CHECK(InForwardArc(a1, 90000, In(12, 9.6), kR, kEps));        // X1 reaches y 10.1
  CHECK_FALSE(InForwardArc(a1, 90000, In(15, 9.4), kR, kEps));  // X2 top at 9.9
  CHECK(InForwardArc(a1, 90000, In(15, 9.5), kR, kEps));        // X3 top exactly 10.0
  // With eps: top at 10 - eps is still forward, one unit lower is rear.
  const Coord y = In(0, 9.5).y() - kEps;
  CHECK(InForwardArc(a1, 90000, P(In(15, 0).x(), y), kR, kEps));
  CHECK_FALSE(InForwardArc(a1, 90000, P(In(15, 0).x(), y - 1), kR, kEps));
  // Facing 270: the same targets are on the other side.
  CHECK(InForwardArc(a1, 270000, In(15, 9.4), kR, kEps));
}

TEST_CASE("arcs agree with long double away from the shoulder line", "[table]") {
  reference::Rng rng(50);
  const long double pi = std::acos(-1.0L);
  int forward = 0;
  for (int i = 0; i < 50000; ++i) {
    const Point m = rng.PointIn(0, 48 * kInch);
    const Point t = rng.PointIn(0, 48 * kInch);
    const std::int64_t heading = rng.Between(-360000, 720000);
    const Coord r = rng.Between(0, kInch);
    const long double a = heading * pi / 180000.0L;
    const long double ahead =
        (t.x() - m.x()) * std::cos(a) + (t.y() - m.y()) * std::sin(a) + r + kEps;
    const bool got = InForwardArc(m, heading, t, r, kEps);
    if (std::fabs(ahead) > 1e-3L) REQUIRE(got == (ahead >= 0));
    forward += got;
  }
  CHECK(forward > 20000);
  CHECK(forward < 40000);
}

}  // namespace
}  // namespace pbem::table
