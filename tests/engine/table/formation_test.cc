// WME-P05 formation graph, WME-P14 table, WME-P15 clearance, and M42-P07 linear obstacles:
// the digests' cases at the limit and one unit either side, and random units against brute
// force.
#include <catch2/catch.hpp>

#include "engine/table/discs.h"
#include "engine/table/rect.h"
#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

Rect Inf(double x, double y, std::int64_t heading = 90000) {
  return *Rect::Make(Cm(x, y), 4 * kCm, 2 * kCm, heading);
}

TEST_CASE("WME T01, T02, T08: lines, irregular units and columns are in formation", "[table]") {
  CHECK_FALSE(OutOfFormation({Inf(20, 30), Inf(24, 30), Inf(28, 30)}, kEpsCm).has_value());
  CHECK_FALSE(OutOfFormation({Inf(20, 30), Inf(24, 31), Inf(28, 30)}, kEpsCm).has_value());
  CHECK_FALSE(OutOfFormation({Inf(60, 40), Inf(60, 38)}, kEpsCm).has_value());
  // A gap of eps still touches; one unit more breaks the formation at the third base.
  const Rect third_eps =
      *Rect::Make(P(Cm(28, 0).x() + kEpsCm, Cm(0, 30).y()), 4 * kCm, 2 * kCm, 90000);
  CHECK_FALSE(OutOfFormation({Inf(20, 30), Inf(24, 30), third_eps}, kEpsCm).has_value());
  const Rect third_far =
      *Rect::Make(P(Cm(28, 0).x() + kEpsCm + 1, Cm(0, 30).y()), 4 * kCm, 2 * kCm, 90000);
  CHECK(OutOfFormation({Inf(20, 30), Inf(24, 30), third_far}, kEpsCm) == std::size_t{2});
  // Corner to corner (en escalier) is a contact.
  CHECK_FALSE(OutOfFormation({Inf(20, 30), Inf(24, 32)}, kEpsCm).has_value());
}

TEST_CASE("formation agrees with brute force on random axis-aligned units", "[table]") {
  reference::Rng rng(80);
  int broken = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::int64_t n = rng.Between(1, 5);
    std::vector<Rect> bases;
    for (std::int64_t k = 0; k < n; ++k) {
      const Point c = rng.PointIn(0, 12);
      bases.push_back(*Rect::Make(c, 4, 2, 90000 * rng.Between(0, 3)));
    }
    // Brute force: Warshall closure of Touch.
    std::vector<std::vector<bool>> reach(n, std::vector<bool>(n));
    for (std::int64_t a = 0; a < n; ++a) {
      for (std::int64_t b = 0; b < n; ++b) reach[a][b] = a == b || Touch(bases[a], bases[b], 0);
    }
    for (std::int64_t k = 0; k < n; ++k) {
      for (std::int64_t a = 0; a < n; ++a) {
        for (std::int64_t b = 0; b < n; ++b)
          reach[a][b] = reach[a][b] || (reach[a][k] && reach[k][b]);
      }
    }
    std::optional<std::size_t> expected;
    for (std::int64_t j = n - 1; j >= 0; --j) {
      if (!reach[0][j]) expected = static_cast<std::size_t>(j);
    }
    REQUIRE(OutOfFormation(bases, 0) == expected);
    broken += expected.has_value();
  }
  CHECK(broken > 300);
  CHECK(broken < 2700);
}

TEST_CASE("WME-P14: a base leaves the table beyond eps", "[table]") {
  const Coord w = 180 * kCm, h = 120 * kCm;
  CHECK(OnTable(Inf(2, 1), w, h, kEpsCm));  // x 0-4, y 0-2: on the edge
  const auto out = [&](Coord dx) {
    return *Rect::Make(P(2 * kCm - kEpsCm - dx, kCm), 4 * kCm, 2 * kCm, 90000);
  };
  CHECK(OnTable(out(0), w, h, kEpsCm));
  CHECK_FALSE(OnTable(out(1), w, h, kEpsCm));
  CHECK_FALSE(OnTable(Inf(179, 60), w, h, kEpsCm));
}

TEST_CASE("WME T11: evaders keep 1 cm from engaged units", "[table]") {
  const Rect e2 = Inf(24, 10);                             // y 9-11
  CHECK_FALSE(KeepsClear(e2, Inf(24, 7.5), kCm, kEpsCm));  // gap 0.5
  CHECK(KeepsClear(e2, Inf(24, 6.5), kCm, kEpsCm));        // gap 1.5
  const auto k = [&](Coord dy) {
    return *Rect::Make(P(Cm(24, 0).x(), Cm(0, 7).y() + kEpsCm + dy), 4 * kCm, 2 * kCm, 90000);
  };
  CHECK(KeepsClear(e2, k(0), kCm, kEpsCm));  // gap exactly 1 cm - eps
  CHECK_FALSE(KeepsClear(e2, k(1), kCm, kEpsCm));
}

TEST_CASE("M42-P07: crossing a linear obstacle and ending on its body (T05, T06)", "[table]") {
  const Polyline o1 = Path({In(5, 12), In(15, 12)});
  CHECK(PathsMeet(Path({In(10, 10), In(10, 14)}), o1));
  CHECK(PathsMeet(Path({In(10, 11), In(10, 12)}), o1));  // touching counts
  CHECK_FALSE(PathsMeet(Path({In(10, 10), In(10, 11.999)}), o1));
  CHECK(PathsMeet(Path({In(5, 12)}), o1));  // a model standing on its end point
  // Thickness 0.25": the body reaches y 12.125; a 1" base overlaps it by more than eps when
  // its centre is below 12.125 + 0.5 - eps.
  const Coord half = kInch / 8;
  const Coord y = In(0, 12).y() + half + kR - kEps;
  CHECK_FALSE(DiscOverlapsBody(*Disc::Make(P(In(10, 0).x(), y), kR), o1, half, kEps));
  CHECK(DiscOverlapsBody(*Disc::Make(P(In(10, 0).x(), y - 1), kR), o1, half, kEps));
}

TEST_CASE("paths meet agrees with the parametric reference", "[table]") {
  reference::Rng rng(81);
  int meets = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::vector<Point> a = reference::RandomPath(rng, 3, 0, 10);
    const std::vector<Point> b = reference::RandomPath(rng, 3, 0, 10);
    bool expected = false;
    for (std::size_t x = 0; x < a.size(); ++x) {
      for (std::size_t y = 0; y < b.size(); ++y) {
        const Point a1 = a[x + 1 < a.size() ? x + 1 : x], b1 = b[y + 1 < b.size() ? y + 1 : y];
        expected = expected || reference::SegmentsMeet(a[x], a1, b[y], b1);
      }
    }
    REQUIRE(PathsMeet(Path(a), Path(b)) == expected);
    meets += expected;
  }
  CHECK(meets > 2000);
  CHECK(meets < 18000);
}

}  // namespace
}  // namespace pbem::table
