// M42-P11 wall crossings (T20) at the limit and one unit either side, on a straight and a
// diagonal wall, random crossings against long double, and the 256-bit product comparison.
#include "engine/table/walls.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

TEST_CASE("CompareProducts is exact beyond 128 bits", "[table]") {
  reference::Rng rng(100);
  const UInt128 big = ~UInt128{0};
  CHECK(CompareProducts(big, big, big, big) == 0);
  CHECK(CompareProducts(big, big - 1, big, big) == -1);
  CHECK(CompareProducts(big, 2, big - 1, 2) == 1);
  for (int i = 0; i < 20000; ++i) {
    // Products that fit in 128 bits are compared directly; larger ones by a common factor.
    const UInt128 a = static_cast<UInt128>(rng.Between(0, INT64_MAX));
    const UInt128 b = static_cast<UInt128>(rng.Between(0, INT64_MAX));
    const UInt128 c = static_cast<UInt128>(rng.Between(0, INT64_MAX));
    const UInt128 d = static_cast<UInt128>(rng.Between(0, INT64_MAX));
    REQUIRE(CompareProducts(a, b, c, d) == Sign3(a * b, c * d));
    const UInt128 k = UInt128{1} << 64;
    REQUIRE(CompareProducts(a * k, b, c * k, d) == Sign3(a * b, c * d));
    REQUIRE(CompareProducts(a * k + 1, b * k + 1, a * k + 1, b * k) == (b * k + 1 > b * k ? 1 : 0));
  }
}

TEST_CASE("T20: a wall with one opening [4.0, 5.5]", "[table]") {
  const Wall bld1{{In(40, 10), In(40, 20)}, {{4 * kInch, 5 * kInch + kInch / 2}}};
  auto cross_at = [&](Coord y) {
    return CrossWall(Path({P(In(38, 0).x(), y), P(In(42, 0).x(), y)}), bld1, kR, kEps);
  };
  CHECK(cross_at(In(0, 12).y()).crossings == 1);
  CHECK(cross_at(In(0, 12).y()).Difficult());           // (a) through the wall
  CHECK_FALSE(cross_at(In(0, 14.75).y()).Difficult());  // (b) the base fits the opening
  CHECK(cross_at(In(0, 14.3).y()).Difficult());         // (c) it does not
  // The fit at its limits: s = 4.0 + r - eps and 5.5 - r + eps, and one unit outside.
  const Coord low = In(0, 14).y() + kR - kEps, high = In(0, 15.5).y() - kR + kEps;
  CHECK_FALSE(cross_at(low).Difficult());
  CHECK(cross_at(low - 1).Difficult());
  CHECK_FALSE(cross_at(high).Difficult());
  CHECK(cross_at(high + 1).Difficult());
  // Missing the wall, or running along it, is no crossing.
  CHECK(CrossWall(Path({In(38, 21), In(42, 21)}), bld1, kR, kEps).crossings == 0);
  CHECK(CrossWall(Path({In(40, 11), In(40, 19)}), bld1, kR, kEps).crossings == 0);
}

TEST_CASE("a diagonal 3-4-5 wall is measured exactly along its length", "[table]") {
  // Wall from (0, 0) along (3, 4) * 10 inches: 50 inches long; a path perpendicular to it
  // crosses at s where (0.6 s, 0.8 s) is on the grid when s is a multiple of 5 units.
  const Wall w{{P(0, 0), P(30 * kInch, 40 * kInch)}, {{10 * kInch, 12 * kInch}}};
  auto cross_at = [&](Coord s) {
    const Coord x = s / 5 * 3, y = s / 5 * 4;  // the crossing point
    return CrossWall(Path({P(x - 4000, y + 3000), P(x + 4000, y - 3000)}), w, kR, kEps);
  };
  const Coord low = 10 * kInch + kR - kEps;  // 2,664,460: a multiple of 5
  REQUIRE(low % 5 == 0);
  CHECK_FALSE(cross_at(low).Difficult());
  CHECK(cross_at(low - 5).Difficult());
  CHECK_FALSE(cross_at(low + 5).Difficult());
}

TEST_CASE("wall crossings agree with long double away from the fit limits", "[table]") {
  reference::Rng rng(101);
  int through = 0, crossings = 0;
  for (int i = 0; i < 20000; ++i) {
    const Point a = rng.PointIn(0, 20 * kInch);
    const Point b = rng.PointIn(0, 20 * kInch);
    if (a == b) continue;
    const Coord from = rng.Between(0, 15 * kInch);
    const Wall w{{a, b}, {{from, from + rng.Between(0, 5 * kInch)}}};
    const std::vector<Point> path = reference::RandomPath(rng, 3, 0, 20 * kInch);
    const WallCrossings got = CrossWall(Path(path), w, kR, kEps);
    int expected_cross = 0, expected_through = 0;
    bool near_limit = false;
    for (std::size_t k = 0; k + 1 < path.size(); ++k) {
      const long double ex = b.x() - a.x(), ey = b.y() - a.y();
      const long double dx = path[k + 1].x() - path[k].x(), dy = path[k + 1].y() - path[k].y();
      const long double wx = path[k].x() - a.x(), wy = path[k].y() - a.y();
      const long double den = ex * dy - ey * dx;
      if (den == 0) continue;
      const long double u = (wx * dy - wy * dx) / den, t = (wx * ey - wy * ex) / den;
      if (u < -1e-12L || u > 1 + 1e-12L || t < -1e-12L || t > 1 + 1e-12L) continue;
      ++expected_cross;
      const long double s = u * std::hypot(ex, ey);
      const long double lo = w.openings[0].from + kR - kEps, hi = w.openings[0].to - kR + kEps;
      near_limit = near_limit || std::fabs(s - lo) < 1e-3L || std::fabs(s - hi) < 1e-3L ||
                   std::fabs(u) < 1e-9L || std::fabs(u - 1) < 1e-9L || std::fabs(t) < 1e-9L ||
                   std::fabs(t - 1) < 1e-9L;
      expected_through += s >= lo && s <= hi;
    }
    if (near_limit) continue;
    REQUIRE(got.crossings == expected_cross);
    REQUIRE(got.through_openings == expected_through);
    through += got.through_openings;
    crossings += got.crossings;
  }
  CHECK(crossings > 3000);
  CHECK(through > 100);
}

}  // namespace
}  // namespace pbem::table
