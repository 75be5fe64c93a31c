// Bounds of the number discipline, exact square roots, and the primitive predicates
// (orientation, segment intersection, point in polygon) against the references.
#include "engine/table/shapes.h"

#include <catch2/catch.hpp>

#include "engine/table/fixed.h"
#include "engine/table/predicates.h"
#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

TEST_CASE("points are rejected one unit beyond the coordinate bound", "[table]") {
  CHECK(Point::Make(kMaxCoord, -kMaxCoord).has_value());
  CHECK_FALSE(Point::Make(kMaxCoord + 1, 0).has_value());
  CHECK_FALSE(Point::Make(0, -kMaxCoord - 1).has_value());
  CHECK_FALSE(Point::Make(INT64_MIN, INT64_MAX).has_value());
}

TEST_CASE("order decimals convert exactly and absurd values are refused", "[table]") {
  // 0.001" = 254 units, 0.001 cm = 100 units (README.md).
  CHECK(FromThousandthsOfInch(1) == Coord{254});
  CHECK(FromThousandthsOfInch(72000) == 72 * kUnitsPerInch);
  CHECK(FromThousandthsOfCm(180000) == 180 * kUnitsPerCm);
  const std::int64_t max_in = kMaxCoord / kUnitsPerThousandthInch;
  CHECK(FromThousandthsOfInch(max_in).has_value());
  CHECK_FALSE(FromThousandthsOfInch(max_in + 1).has_value());
  CHECK_FALSE(FromThousandthsOfInch(INT64_MAX).has_value());
  CHECK_FALSE(FromThousandthsOfCm(INT64_MIN).has_value());
}

TEST_CASE("ISqrt is the exact floor square root", "[table]") {
  reference::Rng rng(1);
  for (int i = 0; i < 20000; ++i) {
    const UInt128 high = static_cast<UInt128>(rng.Between(0, INT64_MAX));
    const std::int64_t shift = rng.Between(0, 62);
    const UInt128 n = (high << shift) + static_cast<UInt128>(rng.Between(0, 3));
    const UInt128 r = ISqrt(n);
    REQUIRE(r * r <= n);
    REQUIRE((r + 1) * (r + 1) > n);
  }
  CHECK(ISqrt(0) == 0);
  CHECK(ISqrt(15) == 3);
  CHECK(ISqrt(16) == 4);
}

TEST_CASE("segment intersection agrees with the parametric reference", "[table]") {
  reference::Rng rng(2);
  int meets = 0;
  for (int i = 0; i < 50000; ++i) {
    // A small grid makes touching, collinear and degenerate segments common.
    const Segment s{rng.PointIn(-6, 6), rng.PointIn(-6, 6)};
    const Segment t{rng.PointIn(-6, 6), rng.PointIn(-6, 6)};
    const bool expected = reference::SegmentsMeet(s.a, s.b, t.a, t.b);
    REQUIRE(SegmentsIntersect(s, t) == expected);
    meets += expected;
  }
  CHECK(meets > 10000);  // both answers well represented
  CHECK(meets < 40000);
}

TEST_CASE("point in polygon agrees with the winding-number reference", "[table]") {
  reference::Rng rng(3);
  int inside = 0, tested = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::vector<Point> star = reference::StarPolygon(rng, 0, 0, 40);
    const auto polygon = Polygon::Make(star);
    if (!polygon) continue;
    for (int k = 0; k < 20; ++k) {
      const Point p = rng.PointIn(-45, 45);
      const bool expected = reference::Inside(p, star);
      REQUIRE(InPolygon(p, *polygon) == expected);
      inside += expected;
      ++tested;
    }
    for (const Point& v : star) REQUIRE(InPolygon(v, *polygon));
  }
  CHECK(tested > 40000);
  CHECK(inside > tested / 10);
}

TEST_CASE("polygons must be simple with an area", "[table]") {
  CHECK(Polygon::Make({P(0, 0), P(4, 0), P(4, 4), P(0, 4)}).has_value());
  CHECK(Polygon::Make({P(0, 0), P(0, 4), P(4, 4), P(4, 0)}).has_value());        // clockwise input
  CHECK_FALSE(Polygon::Make({P(0, 0), P(4, 4), P(4, 0), P(0, 4)}).has_value());  // bow tie
  CHECK_FALSE(Polygon::Make({P(0, 0), P(2, 0), P(4, 0)}).has_value());           // no area
  CHECK_FALSE(Polygon::Make({P(0, 0), P(4, 0)}).has_value());
  // A spike folding back along itself.
  CHECK_FALSE(Polygon::Make({P(0, 0), P(4, 0), P(4, 4), P(4, 2), P(0, 4)}).has_value());
  const auto clockwise = Polygon::Make({P(0, 0), P(0, 4), P(4, 4), P(4, 0)});
  CHECK(TwiceSignedArea(clockwise->vertices()) == 32);  // stored anticlockwise
}

}  // namespace
}  // namespace pbem::table
