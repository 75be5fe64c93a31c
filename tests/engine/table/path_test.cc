// M42-P03 path length against M42-P18's maximum: exact bounds, the digest's worked lengths, and
// the limit exactly, one unit over and one under.
#include "engine/table/path.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

TEST_CASE("each segment's bounds bracket its exact length", "[table]") {
  reference::Rng rng(20);
  for (int i = 0; i < 20000; ++i) {
    const Point a = rng.PointIn(-kMaxCoord, kMaxCoord);
    const Point b = rng.Between(0, 9) == 0 ? a : rng.PointIn(-kMaxCoord, kMaxCoord);
    const PathLength l = Length(Path({a, b}));
    const Vector v = b - a;
    const UInt128 scaled = static_cast<UInt128>(Dot(v, v)) << 64;  // (|v| * 2^32)^2
    REQUIRE(l.lower * l.lower <= scaled);
    REQUIRE(l.upper * l.upper >= scaled);
    REQUIRE(l.upper - l.lower <= 1);
    REQUIRE((l.upper == l.lower) == (l.lower * l.lower == scaled));
  }
}

TEST_CASE("path length against a maximum agrees with long double away from the limit", "[table]") {
  reference::Rng rng(21);
  int within = 0, certain = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<Point> v;
    const int n = static_cast<int>(rng.Between(1, 8));
    for (int k = 0; k < n; ++k) v.push_back(rng.PointIn(0, 12 * kInch));
    long double sum = 0;
    for (int k = 1; k < n; ++k) {
      sum += std::hypot(static_cast<long double>(v[k].x() - v[k - 1].x()),
                        static_cast<long double>(v[k].y() - v[k - 1].y()));
    }
    const Coord limit = rng.Between(0, 30 * kInch);
    const LengthVerdict verdict = LengthWithin(Length(Path(v)), limit);
    certain += verdict.certain;
    if (std::fabs(sum - limit) > 1e-6L) {
      REQUIRE(verdict.certain);
      REQUIRE(verdict.within == (sum <= limit));
    }
    within += verdict.within;
  }
  CHECK(certain == 20000);
  CHECK(within > 2000);
}

TEST_CASE("whole-length paths are exact at the limit and one unit either side", "[table]") {
  reference::Rng rng(22);
  for (int i = 0; i < 5000; ++i) {
    // Pythagorean legs (3k, 4k) in random directions: every segment has a whole length.
    std::vector<Point> v{rng.PointIn(0, 1000000)};
    Coord exact = 0;
    const int n = static_cast<int>(rng.Between(1, 6));
    for (int k = 0; k < n; ++k) {
      const Coord m = rng.Between(0, 20000);
      const int sx = rng.Between(0, 1) ? 1 : -1, sy = rng.Between(0, 1) ? 1 : -1;
      const bool swap = rng.Between(0, 1);
      const Coord dx = (swap ? 4 : 3) * m * sx, dy = (swap ? 3 : 4) * m * sy;
      v.push_back(P(v.back().x() + dx, v.back().y() + dy));
      exact += 5 * m;
    }
    const PathLength l = Length(Path(v));
    REQUIRE(l.lower == l.upper);
    REQUIRE(l.CeilUnits() == exact);
    REQUIRE(LengthWithin(l, exact).within);
    REQUIRE(LengthWithin(l, exact).certain);
    REQUIRE(LengthWithin(l, exact + 1).within);
    REQUIRE_FALSE(LengthWithin(l, exact - 1).within);
    REQUIRE(LengthWithin(l, exact - 1).certain);
  }
}

TEST_CASE("the M42 worked lengths (T01, T02, T03, T12, T19)", "[table]") {
  // T01: 5.000 = allowance 5: legal with and without epsilon.
  const PathLength t01 = Length(Path({In(10, 10), In(10, 15)}));
  CHECK(t01.CeilUnits() == 5 * kInch);
  CHECK(LengthWithin(t01, 5 * kInch).within);
  // T02: 7.000 > 5 + eps.
  const PathLength t02 = Length(Path({In(10, 10), In(10, 12), In(13, 16)}));
  CHECK(t02.CeilUnits() == 7 * kInch);
  CHECK_FALSE(LengthWithin(t02, 5 * kInch + kEps).within);
  // T03: 10.000 = 2 x 5.
  CHECK(LengthWithin(Length(Path({In(10, 10), In(10, 20)})), 10 * kInch + kEps).within);
  // T12: sqrt(17) = 4.123 <= 5.
  const PathLength t12 = Length(Path({In(16, 16), In(17, 20)}));
  CHECK(t12.NearestUnits() / 254 == 4123);  // thousandths of an inch, rounded down
  // T19 (b): 2 sqrt 2 = 2.828 > 2 + eps.
  const PathLength t19 = Length(Path({In(31, 11), In(33, 13)}));
  CHECK_FALSE(LengthWithin(t19, 2 * kInch + kEps).within);
  CHECK(LengthWithin(t19, 3 * kInch).within);
  // A path of one vertex has length zero.
  CHECK(Length(Path({In(1, 1)})).CeilUnits() == 0);
  CHECK(LengthWithin(Length(Path({In(1, 1)})), 0).within);
}

TEST_CASE("the limit of M42-P18 is respected with epsilon and not beyond it", "[table]") {
  // 5" + eps exactly is legal, one unit more is not.
  const Coord limit = 5 * kInch + kEps;
  CHECK(LengthWithin(Length(Path({P(0, 0), P(0, limit)})), limit).within);
  CHECK_FALSE(LengthWithin(Length(Path({P(0, 0), P(0, limit + 1)})), limit).within);
  CHECK(LengthWithin(Length(Path({P(0, 0), P(0, limit - 1)})), limit).within);
  CHECK_FALSE(LengthWithin(Length(Path({P(0, 0), P(0, 1)})), -1).within);
}

TEST_CASE("a 100,000-vertex path is measured without overflow", "[table]") {
  std::vector<Point> v;
  for (int k = 0; k < 100000; ++k) v.push_back(P(k % 2 == 0 ? -kMaxCoord : kMaxCoord, kMaxCoord));
  const PathLength l = Length(Path(v));
  CHECK(l.CeilUnits() == Coord{99999} * 2 * kMaxCoord);
  CHECK_FALSE(LengthWithin(l, kMaxLength).within);
}

}  // namespace
}  // namespace pbem::table
