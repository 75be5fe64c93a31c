// WME-P08 evade direction: T10 (parallel edges: midpoints), a unique corner pair, the 5-degree
// tolerance either side, and random units against the exact unit distance.
#include "engine/table/evade.h"

#include <catch2/catch.hpp>

#include "engine/table/motion.h"
#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

Rect Base(Point c, std::int64_t heading = 90000, Coord w = 4 * kCm, Coord d = 2 * kCm) {
  return *Rect::Make(c, w, d, heading);
}

TEST_CASE("T10: evading a cavalry base straight ahead", "[table]") {
  const std::vector<Rect> e{Base(Cm(20, 30)), Base(Cm(24, 30)), Base(Cm(28, 30))};
  const std::vector<Rect> x{Base(Cm(24, 45), 270000, 2 * kCm, 4 * kCm)};
  const auto dir = Evade(e, x);
  REQUIRE(dir.has_value());
  CHECK(dir->from == Cm(24, 31));
  CHECK(dir->away_from == Cm(24, 43));
  CHECK(dir->u().x == 0);
  CHECK(dir->u().y == -12 * kCm);
  CHECK(WithinAngle(Cm(24, 10) - Cm(24, 30), dir->u(), 5000));
  CHECK_FALSE(WithinAngle(Cm(24, 40) - Cm(24, 30), dir->u(), 5000));  // (b) towards the enemy
  CHECK_FALSE(Away(Cm(30, 30) - Cm(24, 30), dir->u()));               // sideways
  CHECK(Away(P(Cm(30, 0).x(), Cm(0, 30).y() - 1) - Cm(24, 30), dir->u()));
}

TEST_CASE("a unique closest pair of corners", "[table]") {
  const auto dir = Evade({Base(Cm(0, 0))}, {Base(Cm(10, 10))});
  REQUIRE(dir.has_value());
  CHECK(dir->from == Cm(2, 1));
  CHECK(dir->away_from == Cm(8, 9));
  CHECK_FALSE(Evade({Base(Cm(0, 0))}, {Base(Cm(4, 0))}).has_value());  // touching
}

TEST_CASE("the first leg's tolerance: 4.9 degrees off is fine, 5.1 is not", "[table]") {
  const Vector u{0, -12 * kCm};
  const Point o = Cm(50, 50);
  auto leg = [&](std::int64_t md) { return *Rotate(P(o.x(), o.y() - 20 * kCm), o, md) - o; };
  CHECK(WithinAngle(leg(4900), u, 5000));
  CHECK(WithinAngle(leg(-4900), u, 5000));
  CHECK_FALSE(WithinAngle(leg(5100), u, 5000));
  CHECK_FALSE(WithinAngle(leg(-5100), u, 5000));
  // A tolerance of zero (its sine is exactly 0): along u only, one unit off is out.
  CHECK(WithinAngle(Vector{0, -kCm}, u, 0));
  CHECK_FALSE(WithinAngle(Vector{1, -kCm}, u, 0));
}

TEST_CASE("the evade direction joins points at the units' distance", "[table]") {
  reference::Rng rng(140);
  for (int i = 0; i < 1500; ++i) {
    std::vector<Rect> u, e;
    for (int k = 0; k < 2; ++k) {
      const Point c = rng.PointIn(0, 30 * kCm);
      u.push_back(Base(c, rng.Between(0, 359999)));
      const Point d = rng.PointIn(50 * kCm, 80 * kCm);
      e.push_back(Base(d, rng.Between(0, 359999)));
    }
    const auto dir = Evade(u, e);
    REQUIRE(dir.has_value());
    MinDistance unit_distance;
    for (const Rect& a : u) {
      for (const Rect& b : e) {
        const MinDistance d = ConvexDistance(a.footprint(), b.footprint());
        unit_distance.Add({static_cast<UInt128>(d.FloorUnits()) * d.FloorUnits(), 1});
      }
    }
    const Coord got = FloorUnits(PointPoint(dir->from, dir->away_from));
    // Grid rounding of the two ends (and of midpoints on parallel edges): a few units.
    REQUIRE(got >= unit_distance.FloorUnits() - 2);
    REQUIRE(got <= unit_distance.FloorUnits() + 3);
  }
}

}  // namespace
}  // namespace pbem::table
