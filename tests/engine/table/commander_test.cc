// WME-P01 commander discs against rectangular bases: T08's red commander, a disc touching an
// edge and a corner at the limit and one unit either side, a small disc inside a base, and
// random discs and rotated bases against a penetration depth sampled over directions.
#include "engine/table/commander.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

Rect Base(Point c, std::int64_t heading = 90000, Coord w = 4 * kCm, Coord d = 2 * kCm) {
  return *Rect::Make(c, w, d, heading);
}
Disc Commander(Point c, Coord r = kCm * 125 / 100) { return *Disc::Make(c, r); }  // GAP-04

TEST_CASE("T08: the red commander at (60, 50) stands in C1's way", "[table]") {
  // C1 moved to (60, 54) passes over (60, 50): at (60, 50) the base covers the disc's centre.
  CHECK(Overlap(Commander(Cm(60, 50)), Base(Cm(60, 50)), kEpsCm));
  CHECK(CompareDistance(Commander(Cm(60, 50)), Base(Cm(60, 50)).footprint(), 0) == 0);
  // C1 at its start (60, 40) [y 39-41] is 9 - 1.25 = 7.75 cm from the disc.
  const Polygon c1 = Base(Cm(60, 40)).footprint();
  CHECK(DistanceFloor(Commander(Cm(60, 50)), c1) == 775 * kCm / 100);
  CHECK(CompareDistance(Commander(Cm(60, 50)), c1, 775 * kCm / 100) == 0);
  CHECK(CompareDistance(Commander(Cm(60, 50)), c1, 775 * kCm / 100 - 1) > 0);
  CHECK_FALSE(Touch(Commander(Cm(60, 50)), c1, kEpsCm));
}

TEST_CASE("WME-P02 for a disc: against an edge at the limit and one unit either side", "[table]") {
  const Rect b = Base(Cm(60, 52));  // x 58-62, y 51-53
  const Coord r = kCm * 125 / 100;
  auto at = [&](Coord y) { return Commander(P(Cm(60, 0).x(), y), r); };
  const Coord flush = Cm(0, 51).y() - r;  // the disc's top on the rear edge
  CHECK(Touch(at(flush), b, kEpsCm));
  CHECK(Touch(at(flush - kEpsCm), b, kEpsCm));  // eps apart
  CHECK_FALSE(Touch(at(flush - kEpsCm - 1), b, kEpsCm));
  CHECK_FALSE(Overlap(at(flush - kEpsCm - 1), b, kEpsCm));
  CHECK(Touch(at(flush + kEpsCm), b, kEpsCm));  // eps into the base: still touching
  CHECK_FALSE(Overlap(at(flush + kEpsCm), b, kEpsCm));
  CHECK(Overlap(at(flush + kEpsCm + 1), b, kEpsCm));
  CHECK_FALSE(Touch(at(flush + kEpsCm + 1), b, kEpsCm));
}

TEST_CASE("WME-P01 for a disc: a corner at exactly r (a 3-4-5 triangle)", "[table]") {
  const Rect b = Base(Cm(60, 52));  // corner (62, 53)
  // Centre (62.75, 54): 0.75 and 1.0 from the corner, 1.25 away.
  CHECK(CompareDistance(Commander(Cm(62.75, 54)), b.footprint(), 0) == 0);
  CHECK(Touch(Commander(Cm(62.75, 54)), b, 0));
  CHECK_FALSE(Overlap(Commander(Cm(62.75, 54)), b, 0));
  CHECK(Overlap(Commander(Cm(62.749, 54)), b, 0));  // 0.001 cm nearer: inside the corner
  CHECK(CompareDistance(Commander(Cm(62.751, 54)), b.footprint(), 0) > 0);
  CHECK(Touch(Commander(Cm(62.751, 54)), b, kEpsCm));
}

TEST_CASE("a small disc inside a base overlaps once deeper than eps", "[table]") {
  const Rect b = Base(Cm(60, 52));  // y 51-53
  // A point (r = 0) inside, eps from the rear edge: depth eps, no overlap; one unit deeper:
  // overlap.
  const Coord y = Cm(0, 51).y() + kEpsCm;
  CHECK_FALSE(Overlap(*Disc::Make(P(Cm(60, 0).x(), y), 0), b, kEpsCm));
  CHECK(Touch(*Disc::Make(P(Cm(60, 0).x(), y), 0), b, kEpsCm));
  CHECK(Overlap(*Disc::Make(P(Cm(60, 0).x(), y + 1), 0), b, kEpsCm));
  CHECK(Overlap(*Disc::Make(P(Cm(60, 0).x(), y), 1), b, kEpsCm));  // r adds to the depth
  CHECK(Overlap(Commander(Cm(60, 52)), b, kEpsCm));
}

// Penetration depth of a disc and a convex polygon, literally the shortest separating
// translation min_u (max_v (v - c).u + r), sampled over 7200 directions (long double). Sampling
// overestimates the minimum by at most diam * (1 - cos(0.025 deg)) < 1e-7 diam.
long double SampledDepth(const Disc& d, const std::vector<Point>& poly) {
  long double best = 1e30L;
  for (int k = 0; k < 7200; ++k) {
    const long double a = k * 3.14159265358979323846L / 3600;
    const long double ux = std::cos(a), uy = std::sin(a);
    long double h = -1e30L;
    for (const Point& v : poly)
      h = std::max(h, (v.x() - d.centre().x()) * ux + (v.y() - d.centre().y()) * uy);
    best = std::min(best, h + d.radius());
  }
  return best;
}

TEST_CASE("disc against rotated bases agrees with the literal definitions", "[table]") {
  reference::Rng rng(150);
  int overlaps = 0, touches = 0, apart = 0;
  for (int i = 0; i < 3000; ++i) {
    const Point bc = rng.PointIn(1000, 3000);
    // One draw per declarator: gcc and clang evaluate function arguments in different orders.
    const std::int64_t h = rng.Between(0, 359999);
    const Coord w = rng.Between(200, 800), dp = rng.Between(100, 400);
    const Rect b = Base(bc, h, w, dp);
    const Point dc = rng.PointIn(500, 3500);
    const Disc d = *Disc::Make(dc, rng.Between(0, 400));
    const Coord eps = rng.Between(0, 60);
    const std::vector<Point> poly(b.corners().begin(), b.corners().end());
    // Distance: the exact distance from the centre to the closed region, minus r.
    int inside = reference::Inside(d.centre(), poly);
    int dist_sign = 1;  // sign(dist(c, R) - (r + eps))
    if (!inside) {
      for (std::size_t k = 0; k < 4; ++k) {
        const int s = reference::Cmp(
            reference::Dist2PointSegment(d.centre(), poly[k], poly[(k + 1) % 4]), d.radius() + eps);
        dist_sign = std::min(dist_sign, s);
      }
    } else {
      dist_sign = -1;
    }
    REQUIRE((CompareDistance(d, b.footprint(), eps) <= 0) == (dist_sign <= 0));
    // Overlap: depth > eps, outside a band of 0.01 unit where the sampling could mislead.
    const long double depth = SampledDepth(d, poly);
    if (std::fabs(depth - eps) < 0.01L) continue;
    const bool expected = depth > eps;
    REQUIRE(Overlap(d, b, eps) == expected);
    REQUIRE(Touch(d, b, eps) == (!expected && dist_sign <= 0));
    overlaps += expected;
    touches += !expected && dist_sign <= 0;
    apart += dist_sign > 0;
  }
  CHECK(overlaps > 100);
  CHECK(touches > 30);
  CHECK(apart > 1000);
}

}  // namespace
}  // namespace pbem::table
