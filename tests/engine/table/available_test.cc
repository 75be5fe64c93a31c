// WME-P11 available contact length and WME-P17 pinned: T19 and T21, the 1 cm threshold at the
// limit and one unit either side, exposed edges of a line, and random obstacles against probe
// positions sampled unit by unit.
#include "engine/table/available.h"

#include <catch2/catch.hpp>

#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

Rect Base(Point c, std::int64_t heading = 90000, Coord w = 4 * kCm, Coord d = 2 * kCm) {
  return *Rect::Make(c, w, d, heading);
}
constexpr std::int64_t kHalfDegree = 500;

TEST_CASE("T19: a rock leaves 0.8 cm of P's front edge; moved to x = 81 it leaves 1.0", "[table]") {
  const Rect p = Base(Cm(80, 60), 270000);  // front edge y = 59, x 78-82
  const ContactLength a = AvailableLength(p, 0, 4 * kCm, 2 * kCm, {Box(Cm(70, 55), Cm(81.2, 59))});
  CHECK(a.Compare(80 * kCm / 100) == 0);
  CHECK(a.Compare(kCm - kEpsCm) < 0);  // protected (WME-R54)
  const ContactLength b = AvailableLength(p, 0, 4 * kCm, 2 * kCm, {Box(Cm(70, 55), Cm(81, 59))});
  CHECK(b.Compare(kCm) == 0);
  CHECK(b.FloorUnits() == kCm);
  // Nothing in the way: the whole edge; a 2 cm cavalry probe: its frontage.
  CHECK(AvailableLength(p, 0, 4 * kCm, 2 * kCm, {}).Compare(4 * kCm) == 0);
  CHECK(AvailableLength(p, 0, 2 * kCm, 4 * kCm, {}).Compare(2 * kCm) == 0);
  // The rock is south of the front edge only: the rear edge (y = 61) is free.
  CHECK(AvailableLength(p, 2, 4 * kCm, 2 * kCm, {Box(Cm(70, 55), Cm(81.2, 59))}).Compare(4 * kCm) ==
        0);
}

TEST_CASE("WME-R54 at the limit: 1 cm - eps is available, one unit less is not", "[table]") {
  const Rect p = Base(Cm(80, 60), 270000);
  auto with_rock_to = [&](Coord x) {
    return AvailableLength(p, 0, 4 * kCm, 2 * kCm, {Box(Cm(70, 55), P(x, Cm(0, 59).y()))});
  };
  const Coord x = Cm(81, 0).x() + kEpsCm;  // leaves 1 cm - eps
  CHECK(with_rock_to(x).Compare(kCm - kEpsCm) == 0);
  CHECK(with_rock_to(x).Compare(kCm - kEpsCm) >= 0);
  CHECK(with_rock_to(x + 1).Compare(kCm - kEpsCm) < 0);
  // A rock that stops exactly at the probe's depth (y = 57) only touches it: no effect; one unit
  // deeper it blocks.
  CHECK(AvailableLength(p, 0, 4 * kCm, 2 * kCm, {Box(Cm(70, 50), Cm(81.2, 57))}).Compare(4 * kCm) ==
        0);
  CHECK(AvailableLength(p, 0, 4 * kCm, 2 * kCm,
                        {Box(Cm(70, 50), P(Cm(81.2, 0).x(), Cm(0, 57).y() + 1))})
            .Compare(kCm) < 0);
}

TEST_CASE("exposed edges of a line: the sides between bases are not", "[table]") {
  const std::vector<Rect> line{Base(Cm(40, 60), 270000), Base(Cm(44, 60), 270000),
                               Base(Cm(48, 60), 270000)};
  const std::vector<Rect> others{line[0], line[2]};
  CHECK(Exposed(line[1], 0, others, kEpsCm, kHalfDegree));
  CHECK(Exposed(line[1], 2, others, kEpsCm, kHalfDegree));
  CHECK_FALSE(Exposed(line[1], 1, others, kEpsCm, kHalfDegree));
  CHECK_FALSE(Exposed(line[1], 3, others, kEpsCm, kHalfDegree));
  CHECK(Exposed(line[0], 3, {line[1], line[2]}, kEpsCm, kHalfDegree) !=
        Exposed(line[0], 1, {line[1], line[2]}, kEpsCm, kHalfDegree));
}

TEST_CASE("T21: Q with a blue base on every side is pinned; without P2 it is not", "[table]") {
  const std::vector<Rect> q{Base(Cm(150, 60), 270000)};
  const Rect p1 = Base(Cm(150, 58)), p2 = Base(Cm(150, 62), 270000);
  const Rect p3 = Base(Cm(146, 60), 0, 2 * kCm, 4 * kCm);       // CHOC, x 144-148
  const Rect p4 = Base(Cm(154, 60), 180000, 2 * kCm, 4 * kCm);  // CHOC, x 152-156
  CHECK(Pinned(q, {p1, p2, p3, p4}, {}, 4 * kCm, 2 * kCm, kCm, kEpsCm, kHalfDegree));
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(AvailableLength(q[0], k, 4 * kCm, 2 * kCm,
                          {p1.footprint(), p2.footprint(), p3.footprint(), p4.footprint()})
              .Compare(0) == 0);
  }
  CHECK_FALSE(Pinned(q, {p1, p3, p4}, {}, 4 * kCm, 2 * kCm, kCm, kEpsCm, kHalfDegree));
  // The target's friends block the probe as enemies do; touching no enemy is never pinned.
  CHECK(Pinned(q, {p1, p3, p4}, {p2}, 4 * kCm, 2 * kCm, kCm, kEpsCm, kHalfDegree));
  CHECK_FALSE(Pinned(q, {}, {p1, p2, p3, p4}, 4 * kCm, 2 * kCm, kCm, kEpsCm, kHalfDegree));
}

TEST_CASE("WME-P17 at the limit: 1 cm + eps left is still pinned, one unit more is not",
          "[table]") {
  // Q's rear edge (y = 61, x 148-152) partly covered by P2 moved east: P2 at x from a to a + 4.
  const std::vector<Rect> q{Base(Cm(150, 60), 270000)};
  const Rect p1 = Base(Cm(150, 58));
  const Rect p3 = Base(Cm(146, 60), 0, 2 * kCm, 4 * kCm);
  const Rect p4 = Base(Cm(154, 60), 180000, 2 * kCm, 4 * kCm);
  auto pinned_with_gap = [&](Coord gap) {  // P2 leaves `gap` of the rear edge free at its west end
    const Rect p2 = Base(P(Cm(150, 0).x() + gap, Cm(0, 62).y()), 270000);
    return Pinned(q, {p1, p2, p3, p4}, {}, 4 * kCm, 2 * kCm, kCm, kEpsCm, kHalfDegree);
  };
  CHECK(pinned_with_gap(kCm + kEpsCm));
  CHECK_FALSE(pinned_with_gap(kCm + kEpsCm + 1));
}

TEST_CASE("available lengths agree with probe positions sampled unit by unit", "[table]") {
  reference::Rng rng(170);
  int partial = 0, skipped = 0;
  for (int i = 0; i < 1500; ++i) {
    // Axis-aligned target (exact frame), random obstacles, small units so that every probe
    // position can be tried: the edge is 400 units long, the probe 100..500 wide.
    const std::int64_t heading = 90000 * rng.Between(0, 3);
    const Rect target = Base(P(2000, 2000), heading, 400, 200);
    const Coord w = rng.Between(100, 500), d = rng.Between(50, 300);
    std::vector<Polygon> obstacles;
    const std::int64_t n = rng.Between(1, 4);
    for (std::int64_t k = 0; k < n; ++k) {
      const Point c = rng.PointIn(1400, 2600);
      // One draw per declarator: gcc and clang evaluate function arguments in different orders.
      const std::int64_t h = rng.Between(0, 359999);
      const Coord ow = rng.Between(50, 300), od = rng.Between(50, 300);
      obstacles.push_back(Base(c, h, ow, od).footprint());
    }
    const std::size_t edge = static_cast<std::size_t>(rng.Between(0, 3));
    const ContactLength got = AvailableLength(target, edge, w, d, obstacles);
    // The probe at offset s along the edge, as a base facing the target.
    const Segment e = target.Edge(edge);
    const Coord len = std::max(std::abs(e.b.x() - e.a.x()), std::abs(e.b.y() - e.a.y()));
    const Coord ux = (e.b.x() - e.a.x()) / len, uy = (e.b.y() - e.a.y()) / len;
    const Coord ox = -uy, oy = ux;  // outward: left of the edge
    Coord best = 0;
    for (Coord s = -w; s <= len; ++s) {
      const Point lo = P(e.a.x() + ux * s, e.a.y() + uy * s);
      const Point hi = P(lo.x() + ux * w + ox * d, lo.y() + uy * w + oy * d);
      const Polygon probe = Box(P(std::min(lo.x(), hi.x()), std::min(lo.y(), hi.y())),
                                P(std::max(lo.x(), hi.x()), std::max(lo.y(), hi.y())));
      bool free = true;
      for (const Polygon& o : obstacles) free = free && !ConvexOverlap(probe, o, 0);
      if (free) best = std::max(best, std::min(s + w, len) - std::max<Coord>(s, 0));
    }
    // Sampled positions are a subset of all positions; the true best is at a free stretch's end,
    // at most one unit from a sampled one (or a free stretch shorter than a unit: skipped).
    REQUIRE(got.Compare(best) >= 0);
    if (got.Compare(best + 1) > 0) {
      ++skipped;
      continue;
    }
    partial += best > 0 && best < std::min(w, len);
  }
  CHECK(partial > 200);
  CHECK(skipped < 30);
}

}  // namespace
}  // namespace pbem::table
