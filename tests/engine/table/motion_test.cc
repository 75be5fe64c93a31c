// WME-P03 corner travel with translations and rotations: T04 and T05 at their limits, and
// random legs against a long double replay of the digest's formula.
#include "engine/table/motion.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

Leg To(Point p) { return {Leg::Kind::kTranslate, p, 0, Point()}; }
Leg Turn(std::int64_t md, Point pivot) { return {Leg::Kind::kRotate, Point(), md, pivot}; }

TEST_CASE("T04: turn 90 degrees about the centre, then translate", "[table]") {
  const Rect b = *Rect::Make(Cm(50, 50), 4 * kCm, 2 * kCm, 90000);
  const Coord limit = 20 * kCm + kEpsCm;
  // (a) sqrt(5) pi / 2 = 3.512 + 16 = 19.512: legal.
  const auto a = Move(b, {Turn(90000, b.centre()), To(Cm(34, 50))});
  REQUIRE(a.has_value());
  CHECK(TravelWithin(*a, limit).within);
  CHECK(TravelWithin(*a, limit).certain);
  CHECK(TravelCeilUnits(*a) / 100 == 19512);  // thousandths of a cm
  CHECK(a->end.heading() == 180000);
  // (b) 20.512: illegal.
  const auto c = Move(b, {Turn(90000, b.centre()), To(Cm(33, 50))});
  CHECK_FALSE(TravelWithin(*c, limit).within);
  CHECK(TravelCeilUnits(*c) / 100 == 20512);
}

TEST_CASE("T05: turn about the front-left corner, then translate", "[table]") {
  const Rect b = *Rect::Make(Cm(50, 50), 4 * kCm, 2 * kCm, 90000);
  REQUIRE(b.FL() == Cm(48, 51));
  const auto turned = Move(b, {Turn(90000, b.FL())});
  REQUIRE(turned.has_value());
  CHECK(turned->end.centre() == Cm(49, 53));  // the digest's centre after the turn
  const Coord limit = 20 * kCm + kEpsCm;
  // (a) RR travels sqrt(20) pi / 2 = 7.025, + 12 = 19.025.
  const auto a = Move(b, {Turn(90000, b.FL()), To(Cm(37, 53))});
  CHECK(TravelWithin(*a, limit).within);
  CHECK(TravelCeilUnits(*a) / 100 == 19024);  // 19.0248
  // (b) 20.025 > 20 + 0.01.
  const auto c = Move(b, {Turn(90000, b.FL()), To(Cm(36, 53))});
  CHECK_FALSE(TravelWithin(*c, limit).within);
  // The limit exactly: a straight move of 20 cm + eps, and one unit more.
  CHECK(TravelWithin(*Move(b, {To(P(b.centre().x(), b.centre().y() + limit))}), limit).within);
  CHECK_FALSE(
      TravelWithin(*Move(b, {To(P(b.centre().x(), b.centre().y() + limit + 1))}), limit).within);
}

TEST_CASE("a rotation beyond one turn or off the bounds is refused", "[table]") {
  const Rect b = *Rect::Make(Cm(50, 50), 4 * kCm, 2 * kCm, 90000);
  CHECK_FALSE(Move(b, {Turn(360001, b.centre())}).has_value());
  CHECK(Move(b, {Turn(-360000, b.centre())}).has_value());
  CHECK_FALSE(Move(b, {Turn(180000, P(kMaxCoord, 0))}).has_value());
}

// Long double replay: the corners follow the legs, each corner's travel is summed.
std::array<long double, 4> ReferenceTravel(const Rect& start, const std::vector<Leg>& legs) {
  const long double pi = std::acos(-1.0L);
  std::array<long double, 4> x, y, t{0, 0, 0, 0};
  for (int i = 0; i < 4; ++i) x[i] = start.corners()[i].x(), y[i] = start.corners()[i].y();
  long double cx = start.centre().x(), cy = start.centre().y();
  for (const Leg& leg : legs) {
    if (leg.kind == Leg::Kind::kTranslate) {
      const long double dx = leg.target.x() - cx, dy = leg.target.y() - cy;
      for (int i = 0; i < 4; ++i) t[i] += std::hypot(dx, dy), x[i] += dx, y[i] += dy;
      cx += dx, cy += dy;
      continue;
    }
    const long double a = leg.millidegrees * pi / 180000.0L;
    auto turn = [&](long double& px, long double& py) {
      const long double dx = px - leg.pivot.x(), dy = py - leg.pivot.y();
      px = leg.pivot.x() + dx * std::cos(a) - dy * std::sin(a);
      py = leg.pivot.y() + dx * std::sin(a) + dy * std::cos(a);
    };
    for (int i = 0; i < 4; ++i) {
      t[i] += std::fabs(a) * std::hypot(x[i] - leg.pivot.x(), y[i] - leg.pivot.y());
      turn(x[i], y[i]);
    }
    turn(cx, cy);
  }
  return t;
}

TEST_CASE("corner travel agrees with a long double replay", "[table]") {
  reference::Rng rng(70);
  int within = 0;
  for (int i = 0; i < 5000; ++i) {
    const Point c = rng.PointIn(40 * kCm, 80 * kCm);
    const std::int64_t heading = rng.Between(0, 359999);
    const Rect start = *Rect::Make(c, 4 * kCm, 2 * kCm, heading);
    std::vector<Leg> legs;
    const std::int64_t n = rng.Between(1, 4);
    for (std::int64_t k = 0; k < n; ++k) {
      if (rng.Between(0, 1) == 0) {
        legs.push_back(To(rng.PointIn(30 * kCm, 90 * kCm)));
      } else {
        const std::int64_t md = rng.Between(-180000, 180000);
        legs.push_back(Turn(md, rng.PointIn(30 * kCm, 90 * kCm)));
      }
    }
    const auto m = Move(start, legs);
    REQUIRE(m.has_value());
    const std::array<long double, 4> ref = ReferenceTravel(start, legs);
    long double most = 0;
    for (int k = 0; k < 4; ++k) {
      // The pose is snapped to the grid after each leg: half a unit per leg and corner.
      REQUIRE(std::fabs(m->travelled[k].CeilUnits() - ref[k]) < 50);
      most = std::max(most, ref[k]);
    }
    const Coord limit = rng.Between(0, 150 * kCm);
    const LengthVerdict v = TravelWithin(*m, limit);
    if (std::fabs(most - limit) > 100) {
      REQUIRE(v.certain);
      REQUIRE(v.within == (most <= limit));
    }
    within += v.within;
  }
  CHECK(within > 500);
  CHECK(within < 4500);
}

}  // namespace
}  // namespace pbem::table
