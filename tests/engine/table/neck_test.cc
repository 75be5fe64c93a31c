// WME-P12 squeeze (neck) rule: T06 (a)-(c), the 2 cm gap at the limit and one unit either side,
// a base turned 45 degrees through a 2 cm gap, two bases of one friendly unit (W-R6), an end
// pose on an obstacle, and random poses against distances in long double outside a band.
#include "engine/table/neck.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

Rect Base(Point c, std::int64_t heading = 90000, Coord w = 4 * kCm, Coord d = 2 * kCm) {
  return *Rect::Make(c, w, d, heading);
}
Leg To(Point p) { return {Leg::Kind::kTranslate, p, 0, Point()}; }
constexpr Coord kHalfGap = kCm;  // min_gap_cm / 2

// T06: friendly U2's base x 38-42, y 59-61, and a rock x from `rock_x` to 50, y 58-62.
std::vector<Obstacle> T06(Coord rock_x) {
  return {{{Base(Cm(40, 60)).footprint()}},
          {{*Polygon::Make(
              {P(rock_x, Cm(0, 58).y()), Cm(50, 58), Cm(50, 62), P(rock_x, Cm(0, 62).y())})}}};
}

TEST_CASE("T06: a 2 cm neck passes, 1.9 cm does not, sliding along U2 alone is free", "[table]") {
  // (a) M (43, 50) -> (43, 70): x 41-45 overlaps U2 by 1 cm and the rock by 1 cm, its centre
  // 1 cm from each.
  CHECK_FALSE(
      CheckNeck(Base(Cm(43, 50)), {To(Cm(43, 70))}, T06(Cm(44, 0).x()), kHalfGap, kEpsCm, kEpsCm));
  // (b) the rock's west edge at x = 43.9: NO_PASSAGE{M, 1.9}.
  const auto b =
      CheckNeck(Base(Cm(43, 50)), {To(Cm(43, 70))}, T06(Cm(43.9, 0).x()), kHalfGap, kEpsCm, kEpsCm);
  REQUIRE(b.has_value());
  CHECK(b->obstacle == 1);
  CHECK(b->neck_with == std::size_t{0});
  CHECK(b->gap_floor == 19 * kCm / 10);
  // (c) no rock, M (44, 50) -> (44, 70): x 42-46 only touches U2.
  const std::vector<Obstacle> u2{{{Base(Cm(40, 60)).footprint()}}};
  CHECK_FALSE(CheckNeck(Base(Cm(44, 50)), {To(Cm(44, 70))}, u2, kHalfGap, kEpsCm, kEpsCm));
  // Overlapping U2 with nothing on the other side is never excused: CROSSES_OTHER_UNIT.
  const auto alone = CheckNeck(Base(Cm(43, 50)), {To(Cm(43, 70))}, u2, kHalfGap, kEpsCm, kEpsCm);
  REQUIRE(alone.has_value());
  CHECK(alone->obstacle == 0);
  CHECK_FALSE(alone->neck_with.has_value());
}

TEST_CASE("the neck at the limit: a gap of 2 cm - 2 eps passes, one unit less does not",
          "[table]") {
  // The centre at x = 43 is 1 cm from U2; the rock at 44 - eps leaves it 1 cm - eps from the
  // rock, which (b) accepts; one unit nearer it does not.
  const Coord x = Cm(44, 0).x() - kEpsCm;
  CHECK_FALSE(
      CheckNeck(Base(Cm(43, 50)), {To(Cm(43, 70))}, T06(x), kHalfGap, kEpsCm, kEpsCm).has_value());
  CHECK(CheckNeck(Base(Cm(43, 50)), {To(Cm(43, 70))}, T06(x - 1), kHalfGap, kEpsCm, kEpsCm)
            .has_value());
}

TEST_CASE("a base turned 45 degrees passes a 2 cm gap between two rocks", "[table]") {
  const std::vector<Obstacle> rocks{
      {{*Polygon::Make({Cm(30, 58), Cm(39, 58), Cm(39, 62), Cm(30, 62)})}},
      {{*Polygon::Make({Cm(41, 58), Cm(50, 58), Cm(50, 62), Cm(41, 62)})}}};
  CHECK_FALSE(CheckNeck(Base(Cm(40, 50), 45000), {To(Cm(40, 70))}, rocks, kHalfGap, kEpsCm, kEpsCm)
                  .has_value());
  CHECK_FALSE(
      CheckNeck(Base(Cm(40, 50)), {To(Cm(40, 70))}, rocks, kHalfGap, kEpsCm, kEpsCm).has_value());
  // Off the middle by 0.5 cm: 0.5 cm from one rock.
  CHECK(CheckNeck(Base(Cm(40.5, 50)), {To(Cm(40.5, 70))}, rocks, kHalfGap, kEpsCm, kEpsCm)
            .has_value());
}

TEST_CASE("W-R6: the two bases of one friendly unit are one obstacle, not a neck", "[table]") {
  // A friendly unit with a 2 cm gap between its two bases (x 34-38 and 40-44, y 59-61).
  const Polygon left = Base(Cm(36, 60)).footprint(), right = Base(Cm(42, 60)).footprint();
  const auto one =
      CheckNeck(Base(Cm(39, 50)), {To(Cm(39, 70))}, {{{left, right}}}, kHalfGap, kEpsCm, kEpsCm);
  REQUIRE(one.has_value());
  CHECK_FALSE(one->neck_with.has_value());  // CROSSES_OTHER_UNIT
  // Two different friendly units at the same places: a neck.
  CHECK_FALSE(
      CheckNeck(Base(Cm(39, 50)), {To(Cm(39, 70))}, {{{left}}, {{right}}}, kHalfGap, kEpsCm, kEpsCm)
          .has_value());
}

TEST_CASE("start and end poses overlap nothing, even in a neck", "[table]") {
  const auto end =
      CheckNeck(Base(Cm(43, 50)), {To(Cm(43, 60))}, T06(Cm(44, 0).x()), kHalfGap, kEpsCm, kEpsCm);
  REQUIRE(end.has_value());
  CHECK_FALSE(end->neck_with.has_value());
  CHECK(end->pose == SampledPoses(Base(Cm(43, 50)), {To(Cm(43, 60))}, kEpsCm).size() - 1);
}

TEST_CASE("sampled poses: steps of at most `step`, the exact end pose", "[table]") {
  const Rect b = Base(Cm(43, 50));
  const auto poses = SampledPoses(b, {To(Cm(43, 70))}, kEpsCm);
  CHECK(poses.size() >= 2001);
  for (std::size_t i = 1; i < poses.size(); ++i) {
    const Vector v = poses[i].centre() - poses[i - 1].centre();
    REQUIRE(Dot(v, v) <= Int128{kEpsCm} * kEpsCm);
  }
  const Leg turn{Leg::Kind::kRotate, Point(), 90000, b.FL()};
  const auto turning = SampledPoses(b, {turn}, kEpsCm);
  CHECK(turning.back().heading() == Move(b, {turn})->end.heading());
  CHECK(turning.back().centre() == Move(b, {turn})->end.centre());
  for (std::size_t i = 1; i < turning.size(); ++i) {
    for (std::size_t k = 0; k < 4; ++k) {
      const Vector v = turning[i].corners()[k] - turning[i - 1].corners()[k];
      REQUIRE(Dot(v, v) <= Int128{kEpsCm + 2} * (kEpsCm + 2));  // + corner rounding
    }
  }
}

// Long double distance from a point to a closed convex polygon.
long double DistTo(Point c, const Polygon& poly) {
  const std::vector<Point>& v = poly.vertices();
  if (reference::Inside(c, v)) return 0;
  long double best = 1e30L;
  for (std::size_t k = 0; k < v.size(); ++k) {
    const reference::Q q = reference::Dist2PointSegment(c, v[k], v[(k + 1) % v.size()]);
    best = std::min(best, std::sqrt(static_cast<long double>(q.n) / static_cast<long double>(q.d)));
  }
  return best;
}

TEST_CASE("the neck at random poses agrees with distances in long double", "[table]") {
  reference::Rng rng(180);
  int excused = 0, breaches = 0, necks = 0;
  const Coord half_gap = 100, eps = 10;  // small units: every product of the reference fits
  for (int i = 0; i < 4000; ++i) {
    const Point c = rng.PointIn(1000, 1400);
    const Rect pose = Base(c, rng.Between(0, 359999), 400, 200);
    std::vector<Obstacle> obstacles;
    const std::int64_t n = rng.Between(1, 4);
    for (std::int64_t k = 0; k < n; ++k) {
      const Point oc = rng.PointIn(700, 1700);
      // One draw per declarator: gcc and clang evaluate function arguments in different orders.
      const std::int64_t h = rng.Between(0, 359999);
      const Coord ow = rng.Between(100, 600), od = rng.Between(100, 600);
      obstacles.push_back({{Base(oc, h, ow, od).footprint()}});
    }
    const long double rho = std::sqrt(400.0L * 400 + 200 * 200) / 2;
    std::vector<long double> d;
    bool near_limit = false;
    for (const Obstacle& o : obstacles) {
      d.push_back(DistTo(c, o.pieces[0]));
      near_limit = near_limit || std::fabs(d.back() - rho) < 0.01L ||
                   std::fabs(d.back() - (half_gap - eps)) < 0.01L;
    }
    if (near_limit) continue;
    // The rule, literally: every overlapped n needs an n' within rho with both gaps kept.
    bool breach = false;
    for (std::size_t a = 0; a < obstacles.size(); ++a) {
      if (!ConvexOverlap(pose.footprint(), obstacles[a].pieces[0], eps)) continue;
      bool ok = false;
      for (std::size_t b = 0; b < obstacles.size(); ++b) {
        ok = ok || (b != a && d[b] <= rho && d[a] >= half_gap - eps && d[b] >= half_gap - eps);
      }
      excused += ok;
      breach = breach || !ok;
    }
    const auto got = NeckAtPose(pose, obstacles, half_gap, eps, false);
    REQUIRE(got.has_value() == breach);
    breaches += breach;
    necks += got && got->neck_with;
    // At an end pose any overlap is a breach.
    bool any = false;
    for (const Obstacle& o : obstacles)
      any = any || ConvexOverlap(pose.footprint(), o.pieces[0], eps);
    REQUIRE(NeckAtPose(pose, obstacles, half_gap, eps, true).has_value() == any);
  }
  CHECK(excused > 50);
  CHECK(breaches > 500);
  CHECK(necks > 50);
}

}  // namespace
}  // namespace pbem::table
