// WME-P10 visibility: T20, the wedge's ray at the limit and one unit either side, the half-plane
// option, grazing blockers, a sightline that exists only from a corner between two blockers, and
// random tables against sampled sightlines (completeness) and the returned sightline checked
// with a margin (soundness).
#include "engine/table/vision.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

Rect Base(Point c, std::int64_t heading = 90000, Coord w = 4 * kCm, Coord d = 2 * kCm) {
  return *Rect::Make(c, w, d, heading);
}
constexpr VisionArc kWedge = VisionArc::kWedge90;

TEST_CASE("T20: woods between the bases hide the target; moved aside they do not", "[table]") {
  const Rect blue = Base(Cm(100, 30));
  const Polygon red = Base(Cm(100, 50), 270000).footprint();
  CHECK(InVisionArc(blue, red, kWedge));
  CHECK_FALSE(Sees(blue, red, {Box(Cm(90, 38), Cm(110, 42))}, kWedge));
  const auto line = FindSightline(blue, red, {Box(Cm(90, 38), Cm(97, 42))}, kWedge);
  REQUIRE(line.has_value());
  CHECK(line->from.y() == Cm(0, 31).y());  // on the front edge
  CHECK(line->from.x() >= Cm(97, 0).x());  // east of the woods
}

TEST_CASE("the wedge's 45-degree ray at the limit and one unit either side", "[table]") {
  const Rect viewer = Base(Cm(0, 0));  // front edge y = 1, FL (-2, 1)
  // A target (x -16..-12, y 9..11) whose FR corner (-12, 11) is on the left ray (-2 - a, 1 + a);
  // the rest of it is outside the wedge.
  auto target = [&](Coord dx) { return Base(P(Cm(-14, 0).x() + dx, Cm(0, 10).y())).footprint(); };
  CHECK(InVisionArc(viewer, target(0), kWedge));
  CHECK(Sees(viewer, target(0), {}, kWedge));
  CHECK(InVisionArc(viewer, target(1), kWedge));
  CHECK_FALSE(InVisionArc(viewer, target(-1), kWedge));
  CHECK_FALSE(Sees(viewer, target(-1), {}, kWedge));
  // The half-plane option sees it, and anything ahead of the front edge line.
  CHECK(Sees(viewer, target(-1), {}, VisionArc::kHalfPlane));
  const Polygon level = Base(Cm(-30, 0)).footprint();  // its front edge on the line y = 1
  CHECK(InVisionArc(viewer, level, VisionArc::kHalfPlane));
  CHECK_FALSE(InVisionArc(viewer, Base(P(Cm(-30, 0).x(), -1)).footprint(), VisionArc::kHalfPlane));
  CHECK_FALSE(InVisionArc(viewer, level, kWedge));
  // Behind the viewer: never.
  CHECK_FALSE(InVisionArc(viewer, Base(Cm(0, -10)).footprint(), VisionArc::kHalfPlane));
}

TEST_CASE("grazing a blocker does not block; one unit into it does", "[table]") {
  const Rect viewer = Base(Cm(0, 0));                          // x -2..2, y -1..1
  const Polygon target = Base(Cm(0, 20), 270000).footprint();  // x -2..2, y 19..21
  auto pair = [&](Coord left_edge, Coord right_edge) {         // two rocks, y 9..11
    return std::vector<Polygon>{Box(Cm(-10, 9), P(left_edge, Cm(0, 11).y())),
                                Box(P(right_edge, Cm(0, 9).y()), Cm(10, 11))};
  };
  CHECK(Sees(viewer, target, pair(Cm(-0.5, 0).x(), Cm(0.5, 0).x()), kWedge));  // a 1 cm gap
  CHECK(Sees(viewer, target, pair(0, 0), kWedge));  // no gap: the line x = 0 grazes both
  CHECK_FALSE(Sees(viewer, target, pair(1, 0), kWedge));
  CHECK_FALSE(Sees(viewer, target, pair(0, -1), kWedge));
  // A blocker's edge along the outermost sightline x = 2 grazes; one unit further blocks.
  CHECK(Sees(viewer, target, {Box(Cm(-10, 9), Cm(2, 11))}, kWedge));
  CHECK_FALSE(Sees(viewer, target, {Box(Cm(-10, 9), P(Cm(2, 0).x() + 1, Cm(0, 11).y()))}, kWedge));
}

TEST_CASE("a sightline that exists only from FR to a corner, between two blockers", "[table]") {
  // The only clear line runs from FR (2, 1) to the target's corner (-2, 17), x = 2 - (y - 1)/4,
  // grazing the left rock's corner (0.25, 8) and the right rock's corner (-0.75, 12).
  const Rect viewer = Base(Cm(0, 0));
  const Polygon target = Base(Cm(0, 18), 270000).footprint();  // y 17..19
  auto rocks = [&](Coord right_rock_x) {
    return std::vector<Polygon>{Box(Cm(-10, 7), Cm(0.25, 8)),
                                Box(P(right_rock_x, Cm(0, 12).y()), Cm(10, 13))};
  };
  const auto line = FindSightline(viewer, target, rocks(Cm(-0.75, 0).x()), kWedge);
  REQUIRE(line.has_value());
  CHECK(line->from == Cm(2, 1));
  CHECK(line->to == Cm(-2, 17));
  CHECK_FALSE(Sees(viewer, target, rocks(Cm(-0.75, 0).x() - 1), kWedge));
}

// Long double helpers for the reference: signed distance of x inside the closed convex polygon
// (anticlockwise) along each edge's unit inner normal.
struct Plane {
  long double nx, ny, c;  // nx x + ny y + c, unit normal
};
std::vector<Plane> Planes(const std::vector<Point>& poly) {
  std::vector<Plane> out;
  for (std::size_t k = 0; k < poly.size(); ++k) {
    const Point a = poly[k], b = poly[(k + 1) % poly.size()];
    const long double ex = b.x() - a.x(), ey = b.y() - a.y(), n = std::sqrt(ex * ex + ey * ey);
    out.push_back({-ey / n, ex / n, (ey * a.x() - ex * a.y()) / n});
  }
  return out;
}
// The segment a-b meets {x : every plane > margin} (Cyrus-Beck clipping).
bool MeetsInside(long double ax, long double ay, long double bx, long double by,
                 const std::vector<Plane>& planes, long double margin) {
  long double lo = 0, hi = 1;
  for (const Plane& p : planes) {
    const long double va = p.nx * ax + p.ny * ay + p.c - margin;
    const long double vb = p.nx * bx + p.ny * by + p.c - margin;
    if (va <= 0 && vb <= 0) return false;
    if (va > 0 && vb > 0) continue;
    const long double t = va / (va - vb);
    if (va > 0)
      hi = std::min(hi, t);
    else
      lo = std::max(lo, t);
  }
  return lo < hi;
}
// The wedge as planes: the front line and the two 45-degree rays, in long double.
std::vector<Plane> Wedge(const Rect& v) {
  const long double a = v.heading() * 3.14159265358979323846L / 180000;
  const long double fx = std::cos(a), fy = std::sin(a), lx = -fy, ly = fx;
  auto plane = [](long double nx, long double ny, Point at) {
    const long double n = std::sqrt(nx * nx + ny * ny);
    return Plane{nx / n, ny / n, -(nx * at.x() + ny * at.y()) / n};
  };
  // Inside: ahead of the front edge; right of FL + s(f + l); left of FR + s(f - l).
  return {plane(fx, fy, v.FL()), plane(fy + ly, -(fx + lx), v.FL()),
          plane(-(fy - ly), fx - lx, v.FR())};
}
long double Value(const Plane& p, long double x, long double y) {
  return p.nx * x + p.ny * y + p.c;
}

TEST_CASE("sightlines on random tables agree with sampling, outside a 2-unit band", "[table]") {
  reference::Rng rng(160);
  const long double band = 2;
  int seen = 0, hidden = 0, sampled_clear = 0;
  for (int i = 0; i < 3000; ++i) {
    const Point vc = rng.PointIn(20 * kCm, 30 * kCm);
    const Rect viewer = Base(vc, rng.Between(0, 359999));
    const Point tc = rng.PointIn(5 * kCm, 45 * kCm);
    const Rect target = Base(tc, rng.Between(0, 359999));
    std::vector<Polygon> blockers;
    const std::int64_t n = rng.Between(0, 4);
    for (std::int64_t k = 0; k < n; ++k) {
      // Between the two, somewhere along the line joining their centres.
      const std::int64_t s = rng.Between(20, 80);
      // One draw per declarator: gcc and clang evaluate function arguments in different orders.
      const Coord jx = rng.Between(-2 * kCm, 2 * kCm), jy = rng.Between(-2 * kCm, 2 * kCm);
      const Point mid =
          P(vc.x() + (tc.x() - vc.x()) * s / 100 + jx, vc.y() + (tc.y() - vc.y()) * s / 100 + jy);
      blockers.push_back(Base(mid, rng.Between(0, 359999)).footprint());
    }
    const auto line = FindSightline(viewer, target.footprint(), blockers, kWedge);
    const std::vector<Plane> wedge = Wedge(viewer);
    std::vector<std::vector<Plane>> blocks;
    for (const Polygon& b : blockers) blocks.push_back(Planes(b.vertices()));
    const std::vector<Point> tv(target.corners().begin(), target.corners().end());
    if (line) {
      ++seen;
      // Soundness: the returned segment starts on the front edge, ends on the target inside the
      // wedge, and misses every blocker shrunk by the band.
      const long double ax = line->from.x(), ay = line->from.y();
      const long double bx = line->to.x(), by = line->to.y();
      REQUIRE(reference::Cmp(reference::Dist2PointSegment(line->from, viewer.FL(), viewer.FR()),
                             1) <= 0);
      for (const Plane& p : Planes(target.footprint().vertices()))
        REQUIRE(Value(p, bx, by) >= -band);
      for (const Plane& p : wedge) REQUIRE(Value(p, bx, by) >= -band);
      for (const auto& b : blocks) REQUIRE_FALSE(MeetsInside(ax, ay, bx, by, b, band));
      continue;
    }
    // Completeness: no sampled segment (17 points on the front edge, 17 x 17 on the target)
    // that lies in the wedge with the band to spare and misses every blocker grown by the band.
    hidden += InVisionArc(viewer, target.footprint(), kWedge);  // in the arc, blocked
    for (int a = 0; a <= 16; ++a) {
      const long double px = viewer.FL().x() + (viewer.FR().x() - viewer.FL().x()) * a / 16.0L;
      const long double py = viewer.FL().y() + (viewer.FR().y() - viewer.FL().y()) * a / 16.0L;
      for (int b = 0; b <= 16; ++b) {
        for (int c = 0; c <= 16; ++c) {
          const long double u = b / 16.0L, v = c / 16.0L;
          const long double qx =
              tv[0].x() + (tv[1].x() - tv[0].x()) * u + (tv[3].x() - tv[0].x()) * v;
          const long double qy =
              tv[0].y() + (tv[1].y() - tv[0].y()) * u + (tv[3].y() - tv[0].y()) * v;
          bool clear = std::all_of(wedge.begin(), wedge.end(),
                                   [&](const Plane& p) { return Value(p, qx, qy) > band; });
          for (const auto& bl : blocks) clear = clear && !MeetsInside(px, py, qx, qy, bl, -band);
          sampled_clear += clear;
        }
      }
    }
  }
  CHECK(seen > 200);
  CHECK(hidden > 150);
  CHECK(sampled_clear == 0);
}

}  // namespace
}  // namespace pbem::table
