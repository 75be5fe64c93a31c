// Exact distances (distance.h) against the rational reference on small grids, where exact ties
// with the threshold are common, and against long double on table-sized coordinates.
#include "engine/table/distance.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

// floor(sqrt(q)) checked exactly: f^2 <= q < (f + 1)^2.
bool IsFloorOf(Coord f, reference::Q q) {
  return reference::Cmp(q, f) >= 0 && reference::Cmp(q, f + 1) < 0;
}

TEST_CASE("point-segment comparisons are exact at, above and below the threshold", "[table]") {
  reference::Rng rng(10);
  int ties = 0;
  for (int i = 0; i < 100000; ++i) {
    const Point q = rng.PointIn(-20, 20);
    const Segment s{rng.PointIn(-20, 20), rng.PointIn(-20, 20)};
    const reference::Q ref = reference::Dist2PointSegment(q, s.a, s.b);
    const SquaredDistance d = PointSegment(q, s);
    const Coord f = FloorUnits(d);
    REQUIRE(IsFloorOf(f, ref));
    // The floor, one below and one above: ties happen whenever the distance is whole.
    for (Coord t : {f - 1, f, f + 1}) {
      if (t < 0) continue;
      REQUIRE(Compare(d, t) == reference::Cmp(ref, t));
      ties += Compare(d, t) == 0;
    }
  }
  CHECK(ties > 1000);
}

TEST_CASE("point-segment distances on table-sized coordinates agree with long double", "[table]") {
  reference::Rng rng(11);
  const Coord table = 72 * kUnitsPerInch;
  for (int i = 0; i < 50000; ++i) {
    const Point q = rng.PointIn(0, table);
    const Point a = rng.PointIn(0, table);
    const Point b = rng.Between(0, 3) == 0 ? a : rng.PointIn(0, table);
    const long double ax = a.x(), ay = a.y(), bx = b.x() - ax, by = b.y() - ay;
    const long double len2 = bx * bx + by * by;
    long double t = len2 == 0 ? 0 : ((q.x() - ax) * bx + (q.y() - ay) * by) / len2;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    const long double dist = std::hypot(ax + t * bx - q.x(), ay + t * by - q.y());
    const Coord limit = rng.Between(0, table);
    const SquaredDistance d = PointSegment(q, {a, b});
    if (std::fabs(dist - limit) > 1e-6L) REQUIRE((Compare(d, limit) < 0) == (dist < limit));
    REQUIRE(std::fabs(static_cast<long double>(FloorUnits(d)) - std::floor(dist)) <= 1);
  }
}

TEST_CASE("segment-segment distances agree with the reference", "[table]") {
  reference::Rng rng(12);
  for (int i = 0; i < 60000; ++i) {
    const Segment s{rng.PointIn(-12, 12), rng.PointIn(-12, 12)};
    const Segment t{rng.PointIn(-12, 12), rng.PointIn(-12, 12)};
    const MinDistance d = SegmentSegment(s, t);
    for (Coord limit = 0; limit <= 6; ++limit) {
      REQUIRE(d.Compare(limit) == reference::CmpSegSeg(s.a, s.b, t.a, t.b, limit));
    }
  }
}

TEST_CASE("path-polygon distances agree with the reference", "[table]") {
  reference::Rng rng(13);
  int zero = 0, tested = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::vector<Point> star = reference::StarPolygon(rng, 0, 0, 30);
    const auto polygon = Polygon::Make(star);
    if (!polygon) continue;
    const std::vector<Point> vertices = reference::RandomPath(rng, 4, -50, 50);
    const MinDistance d = PathPolygon(*Polyline::Make(vertices), *polygon);
    for (Coord limit = 0; limit <= 12; limit += 3) {
      REQUIRE(d.Compare(limit) == reference::CmpPathPolygon(vertices, star, limit));
    }
    zero += d.Compare(0) == 0;
    ++tested;
  }
  CHECK(tested > 3000);
  CHECK(zero > tested / 10);
  CHECK(zero < tested * 9 / 10);
}

TEST_CASE("a point inside a polygon is at distance zero from it", "[table]") {
  const auto square = Polygon::Make({P(0, 0), P(10, 0), P(10, 10), P(0, 10)});
  CHECK(PointPolygon(P(5, 5), *square).Compare(0) == 0);
  CHECK(PointPolygon(P(10, 5), *square).Compare(0) == 0);   // boundary
  CHECK(PointPolygon(P(13, 14), *square).Compare(5) == 0);  // 3-4-5 from the corner
  CHECK(PointPolygon(P(13, 14), *square).Compare(4) == 1);
  CHECK(PointPolygon(P(13, 14), *square).FloorUnits() == 5);
}

TEST_CASE("thresholds far beyond the table or below zero never overflow", "[table]") {
  const Point a = P(-kMaxCoord, -kMaxCoord);
  const Point b = P(kMaxCoord, kMaxCoord);
  const SquaredDistance d = PointPoint(a, b);
  CHECK(Compare(d, kMaxLength) < 0);
  CHECK(Compare(d, INT64_MAX) < 0);
  CHECK(Compare(d, -5) > 0);
  CHECK(Compare(PointPoint(a, a), 0) == 0);
  CHECK(Compare(PointPoint(a, a), -1) > 0);
  // The extreme segment: the foot is interior, cross^2 is at its largest.
  const SquaredDistance far = PointSegment(P(-kMaxCoord, kMaxCoord), {a, b});
  CHECK(FloorUnits(far) == static_cast<Coord>(ISqrt(UInt128{2} * kMaxCoord * kMaxCoord)));
}

}  // namespace
}  // namespace pbem::table
