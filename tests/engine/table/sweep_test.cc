// WME-P03 collision along a move: T06-T09 at their limits, a turn that hits what neither its
// start nor its end pose touches, and translations against dense sampling.
#include "engine/table/sweep.h"

#include <catch2/catch.hpp>

#include "engine/table/distance.h"
#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

Rect Base(Point c, std::int64_t heading = 90000, Coord w = 4 * kCm, Coord d = 2 * kCm) {
  return *Rect::Make(c, w, d, heading);
}
Leg To(Point p) { return {Leg::Kind::kTranslate, p, 0, Point()}; }

std::vector<Polygon> Swept(const Rect& r, std::vector<Leg> legs) { return *Sweep(r, legs); }

TEST_CASE("T06-T08: passing through or sliding along other bases", "[table]") {
  const Polygon u2 = Base(Cm(40, 60)).footprint();  // x 38-42, y 59-61
  // T06 (c): x 42-46 only touches U2: sliding, no overlap.
  const auto slide = Swept(Base(Cm(44, 50)), {To(Cm(44, 70))});
  CHECK_FALSE(SweepOverlaps(slide, u2, kEpsCm));
  CHECK(SweepTouches(slide, u2, kEpsCm));
  // T06 (a)/T07: x 41-45 overlaps U2 by 1 cm.
  CHECK(SweepOverlaps(Swept(Base(Cm(43, 50)), {To(Cm(43, 70))}), u2, kEpsCm));
  // Overlapping by eps is still sliding; by one unit more it is a crossing.
  const auto by = [&](Coord d) {
    const Point c = P(Cm(44, 0).x() - d, Cm(0, 50).y());
    return Swept(Base(c), {To(P(c.x(), Cm(0, 70).y()))});
  };
  CHECK_FALSE(SweepOverlaps(by(kEpsCm), u2, kEpsCm));
  CHECK(SweepOverlaps(by(kEpsCm + 1), u2, kEpsCm));
  // T08 (a): C2 passes through C1.
  CHECK(SweepOverlaps(Swept(Base(Cm(60, 38)), {To(Cm(60, 42))}), Base(Cm(60, 40)).footprint(),
                      kEpsCm));
}

TEST_CASE("T09: touching an enemy during the move", "[table]") {
  const Polygon red = Base(Cm(70, 50), 270000).footprint();  // y 49-51
  CHECK(SweepTouches(Swept(Base(Cm(70, 40)), {To(Cm(70, 48))}), red, kEpsCm));
  CHECK_FALSE(SweepTouches(Swept(Base(Cm(70, 40)), {To(Cm(70, 47.9))}), red, kEpsCm));
  const Coord y = Cm(0, 48).y() - kEpsCm;
  CHECK(SweepTouches(Swept(Base(Cm(70, 40)), {To(P(Cm(70, 0).x(), y))}), red, kEpsCm));
  CHECK_FALSE(SweepTouches(Swept(Base(Cm(70, 40)), {To(P(Cm(70, 0).x(), y - 1))}), red, kEpsCm));
}

TEST_CASE("a turn sweeps what neither end pose covers", "[table]") {
  const Rect b = Base(Cm(0, 0));                                     // x -2..2, y -1..1
  const Polygon rock = Base(Cm(2, 2), 90000, kCm, kCm).footprint();  // [1.5, 2.5]^2
  const Leg turn{Leg::Kind::kRotate, Point(), 90000, b.centre()};
  const auto end = Move(b, {turn});
  REQUIRE(end.has_value());
  CHECK_FALSE(ConvexOverlap(b.footprint(), rock, kEpsCm));
  CHECK_FALSE(ConvexOverlap(end->end.footprint(), rock, kEpsCm));
  CHECK(SweepOverlaps(Swept(b, {turn}), rock, kEpsCm));
  // Turning the other way keeps clear of it.
  const Leg back{Leg::Kind::kRotate, Point(), -90000, b.centre()};
  CHECK_FALSE(SweepOverlaps(Swept(b, {back}), rock, kEpsCm));
}

TEST_CASE("a translation sweep overlaps whenever a sampled pose does", "[table]") {
  reference::Rng rng(120);
  int hits = 0;
  for (int i = 0; i < 2000; ++i) {
    const Point from = rng.PointIn(0, 40 * kCm);
    const Point to = rng.PointIn(0, 40 * kCm);
    const std::int64_t heading = rng.Between(0, 359999);
    const Rect start = Base(from, heading);
    const Point oc = rng.PointIn(0, 40 * kCm);
    const Polygon other = Base(oc, rng.Between(0, 359999)).footprint();
    const auto sweep = Swept(start, {To(to)});
    bool sampled = false;
    for (int k = 0; k <= 64 && !sampled; ++k) {
      const Point c =
          P(from.x() + (to.x() - from.x()) * k / 64, from.y() + (to.y() - from.y()) * k / 64);
      sampled = ConvexOverlap(Base(c, heading).footprint(), other, kEpsCm);
    }
    if (sampled) REQUIRE(SweepOverlaps(sweep, other, kEpsCm));
    // The sweep never overlaps what lies beyond the base's reach (half-diagonal, sqrt 5 cm,
    // rounded up) from the centre's segment.
    if (PathPolygon(Path({from, to}), other).Compare(223607 + 1) > 0) {
      REQUIRE_FALSE(SweepOverlaps(sweep, other, kEpsCm));
    }
    hits += sampled;
  }
  CHECK(hits > 100);
}

TEST_CASE("convex hulls", "[table]") {
  const auto h = ConvexHull({P(0, 0), P(4, 0), P(2, 1), P(4, 4), P(0, 4), P(2, 2), P(4, 2)});
  REQUIRE(h.has_value());
  CHECK(h->size() == 4);
  CHECK(TwiceSignedArea(h->vertices()) == 32);
  CHECK_FALSE(ConvexHull({P(0, 0), P(1, 1), P(2, 2)}).has_value());
}

}  // namespace
}  // namespace pbem::table
