// Round bases (M42 §4): the digest's worked cases at their exact limits, one unit either side,
// and properties against the references on random tables.
#include "engine/table/discs.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

Disc Base(Point c, Coord r = kR) { return *Disc::Make(c, r); }

TEST_CASE("edge distance, overlap and touch agree with the reference", "[table]") {
  reference::Rng rng(30);
  for (int i = 0; i < 100000; ++i) {
    const Point ca = rng.PointIn(-30, 30);
    const Disc a = Base(ca, rng.Between(0, 8));
    const Point cb = rng.PointIn(-30, 30);
    const Disc b = Base(cb, rng.Between(0, 8));
    const reference::Q d2 = reference::Dist2PointSegment(a.centre(), b.centre(), b.centre());
    const Coord rr = a.radius() + b.radius();
    const Coord eps = rng.Between(0, 3);
    const Coord limit = rng.Between(0, 10);
    // dist = max(0, |c| - rr): sign(dist - limit).
    const int centre_vs = reference::Cmp(d2, limit + rr);
    const int expected = (reference::Cmp(d2, rr) <= 0) ? (limit == 0 ? 0 : -1) : centre_vs;
    REQUIRE(CompareEdgeDistance(a, b, limit) == expected);
    REQUIRE(Overlap(a, b, eps) == (rr - eps > 0 && reference::Cmp(d2, rr - eps) < 0));
    REQUIRE(Touch(a, b, eps) == ((rr - eps <= 0 || reference::Cmp(d2, rr - eps) >= 0) &&
                                 reference::Cmp(d2, rr + eps) <= 0));
  }
}

TEST_CASE("M42-P02 at the limit: touching bases and one unit either side", "[table]") {
  const Disc a = Base(P(0, 0));
  CHECK(Touch(a, Base(P(2 * kR, 0)), kEps));
  CHECK(Touch(a, Base(P(2 * kR + kEps, 0)), kEps));
  CHECK_FALSE(Touch(a, Base(P(2 * kR + kEps + 1, 0)), kEps));
  CHECK(Touch(a, Base(P(2 * kR - kEps, 0)), kEps));
  CHECK_FALSE(Touch(a, Base(P(2 * kR - kEps - 1, 0)), kEps));
  CHECK_FALSE(Overlap(a, Base(P(2 * kR - kEps, 0)), kEps));
  CHECK(Overlap(a, Base(P(2 * kR - kEps - 1, 0)), kEps));
  // T17 (a) centres 0.8 apart overlap; (b) 1.000 apart touch.
  CHECK(Overlap(Base(In(10.8, 12.5)), Base(In(10, 12.5)), kEps));
  CHECK_FALSE(Overlap(Base(In(11, 12.5)), Base(In(10, 12.5)), kEps));
}

TEST_CASE("M42-P05 enemy clearance: T13 and the exact limit", "[table]") {
  const std::vector<Disc> enemies{Base(In(20, 12))};
  const Coord two = 2 * kInch;
  // T13 (a): closest centre distance 2.5 -> edge 1.500.
  const auto a = EnemyClearance(Path({In(17.5, 6), In(17.5, 16)}), kR, enemies, two, kEps);
  REQUIRE(a.size() == 1);
  CHECK(a[0].enemy == 0);
  CHECK(a[0].edge_distance_floor == 1500 * kUnitsPerThousandthInch);
  // T13 (b): exactly 2.000 is legal; 2" - eps too; one unit closer is not.
  CHECK(EnemyClearance(Path({In(17, 6), In(17, 16)}), kR, enemies, two, kEps).empty());
  const Coord x_at_limit = In(20, 0).x() - (3 * kInch - kEps);
  CHECK(EnemyClearance(Path({P(x_at_limit, In(0, 6).y()), P(x_at_limit, In(0, 16).y())}), kR,
                       enemies, two, kEps)
            .empty());
  CHECK(EnemyClearance(Path({P(x_at_limit + 1, In(0, 6).y()), P(x_at_limit + 1, In(0, 16).y())}),
                       kR, enemies, two, kEps)
            .size() == 1);
  // A model that stays put is measured from its position.
  CHECK(EnemyClearance(Path({In(17.1, 12)}), kR, enemies, two, kEps).size() == 1);
}

TEST_CASE("enemy clearance agrees with the reference on random tables", "[table]") {
  reference::Rng rng(31);
  int breaches = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::vector<Point> v = reference::RandomPath(rng, 4, 0, 40);
    std::vector<Disc> enemies;
    for (int k = 0; k < 3; ++k) {
      const Point c = rng.PointIn(0, 40);
      enemies.push_back(Base(c, rng.Between(0, 3)));
    }
    const Coord r = rng.Between(0, 3), clearance = rng.Between(0, 6), eps = rng.Between(0, 1);
    const auto got = EnemyClearance(Path(v), r, enemies, clearance, eps);
    std::size_t next = 0;
    for (std::size_t e = 0; e < enemies.size(); ++e) {
      int s = 1;
      const Int128 t = clearance - eps + r + enemies[e].radius();
      for (std::size_t k = 0; k < v.size(); ++k) {
        const Point b = v[k + 1 < v.size() ? k + 1 : k];
        const int c =
            t < 0 ? 1
                  : reference::Cmp(reference::Dist2PointSegment(enemies[e].centre(), v[k], b), t);
        s = c < s ? c : s;
      }
      const bool breach = s < 0;
      REQUIRE((next < got.size() && got[next].enemy == e) == breach);
      if (breach) ++next;
    }
    REQUIRE(next == got.size());
    breaches += static_cast<int>(got.size());
  }
  CHECK(breaches > 5000);
}

TEST_CASE("M42-P12 pass-through: T15, T16 and T17 (b)", "[table]") {
  const Disc b1 = Base(In(10, 12.5));
  CHECK(SweepOverlapsDisc(Path({In(10, 10), In(10, 20)}), kR, b1, kEps));
  // T17 (b): the sweep passes 0.928 from B1's centre (< 1.0 - eps) -> pass-through.
  CHECK(SweepOverlapsDisc(Path({In(10, 10), In(11, 12.5)}), kR, b1, kEps));
  // Passing at exactly 1" - eps from the centre is not a pass-through; one unit closer is.
  const Coord x = In(10, 0).x() + kInch - kEps;
  CHECK_FALSE(SweepOverlapsDisc(Path({P(x, 0), P(x, 30 * kInch)}), kR, b1, kEps));
  CHECK(SweepOverlapsDisc(Path({P(x - 1, 0), P(x - 1, 30 * kInch)}), kR, b1, kEps));
}

TEST_CASE("M42-P06 area terrain contact: T04 and T21", "[table]") {
  const Polygon w1 = *Polygon::Make({In(8, 14), In(12, 14), In(12, 18), In(8, 18)});
  CHECK(SweepSharesArea(Path({In(10, 10), In(10, 20)}), kR, w1, kEps));  // (a) crosses
  CHECK(SweepSharesArea(Path({In(10, 10), In(10, 15)}), kR, w1, kEps));  // (b) enters
  // (c) the base's top edge reaches y = 14.0 exactly: touch, not entry; up to eps inside still
  // touch; one unit more is an entry.
  CHECK_FALSE(SweepSharesArea(Path({In(10, 10), In(10, 13.5)}), kR, w1, kEps));
  const Coord y = In(0, 13.5).y() + kEps;
  CHECK_FALSE(SweepSharesArea(Path({In(10, 10), P(In(10, 0).x(), y)}), kR, w1, kEps));
  CHECK(SweepSharesArea(Path({In(10, 10), P(In(10, 0).x(), y + 1)}), kR, w1, kEps));
  CHECK(SweepTouches(Path({In(10, 10), In(10, 13.5)}), kR, w1, kEps));
  CHECK_FALSE(SweepTouches(Path({In(10, 10), In(10, 13.4)}), kR, w1, kEps));
  // T21: moving within a structure base.
  const Polygon s3 = *Polygon::Make({In(50, 10), In(60, 10), In(60, 20), In(50, 20)});
  CHECK(SweepSharesArea(Path({In(52, 12), In(52, 18)}), kR, s3, kEps));
  // A point obstacle is crossed by the centre path only (M42-P08).
  CHECK(PathMeets(Path({In(10, 10), In(10, 14)}), w1));
  CHECK_FALSE(PathMeets(Path({In(10, 10), In(10, 13.999)}), w1));
}

TEST_CASE("swept bases against random polygons agree with the reference", "[table]") {
  reference::Rng rng(32);
  int shares = 0, tested = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::vector<Point> star = reference::StarPolygon(rng, 0, 0, 25);
    const auto polygon = Polygon::Make(star);
    if (!polygon) continue;
    const std::vector<Point> v = reference::RandomPath(rng, 4, -45, 45);
    const Coord r = rng.Between(0, 8), eps = rng.Between(0, 2);
    const bool expected_share = r - eps > 0 && reference::CmpPathPolygon(v, star, r - eps) < 0;
    REQUIRE(SweepSharesArea(Path(v), r, *polygon, eps) == expected_share);
    REQUIRE(SweepTouches(Path(v), r, *polygon, eps) ==
            (reference::CmpPathPolygon(v, star, r + eps) <= 0));
    shares += expected_share;
    ++tested;
  }
  CHECK(shares > tested / 10);
  CHECK(shares < tested * 9 / 10);
}

TEST_CASE("M42-P17 the base stays on the table", "[table]") {
  const Coord w = 72 * kInch, h = 48 * kInch;
  CHECK(SweepInsideTable(Path({P(kR, kR), P(w - kR, h - kR)}), kR, w, h));
  CHECK_FALSE(SweepInsideTable(Path({P(kR, kR), P(w - kR + 1, h - kR)}), kR, w, h));
  CHECK_FALSE(SweepInsideTable(Path({P(kR - 1, kR)}), kR, w, h));
}

}  // namespace
}  // namespace pbem::table
