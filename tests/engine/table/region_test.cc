// M42-P09 (hill steps) and M42-P10 (floors): a path staying in or coming back into a closed
// region, against a reference that cuts each segment at every boundary crossing and tests the
// pieces' midpoints exactly (rational points), on random star-shaped polygons.
#include "engine/table/region.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

// The point (x / d, y / d) in the closed polygon: crossing number on the polygon scaled by d.
bool InsideRational(Int128 x, Int128 y, Int128 d, const std::vector<Point>& poly) {
  const std::size_t n = poly.size();
  bool inside = false;
  for (std::size_t i = 0; i < n; ++i) {
    const Int128 ax = poly[i].x() * d, ay = poly[i].y() * d;
    const Int128 bx = poly[(i + 1) % n].x() * d, by = poly[(i + 1) % n].y() * d;
    const Int128 cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    if (cross == 0 && std::min(ax, bx) <= x && x <= std::max(ax, bx) && std::min(ay, by) <= y &&
        y <= std::max(ay, by)) {
      return true;
    }
    if ((ay > y) != (by > y)) {
      // x of the crossing > x  <=>  ...; compare (x - ax)(by - ay) < (bx - ax)(y - ay) by sign.
      const Int128 lhs = (x - ax) * (by - ay), rhs = (bx - ax) * (y - ay);
      if (by > ay ? lhs < rhs : lhs > rhs) inside = !inside;
    }
  }
  return inside;
}

struct T {  // a parameter n / m along a segment, m > 0
  Int128 n, m;
};

// Inside/outside states along the path: at every cut parameter and between consecutive ones.
std::vector<bool> States(const std::vector<Point>& path, const std::vector<Point>& poly) {
  std::vector<bool> out;
  const std::size_t k = poly.size();
  for (std::size_t s = 0; s + 1 < path.size(); ++s) {
    const Point a = path[s], b = path[s + 1];
    const Int128 dx = b.x() - a.x(), dy = b.y() - a.y();
    std::vector<T> cuts{{0, 1}, {1, 1}};
    for (std::size_t i = 0; i < k; ++i) {
      const Point p = poly[i], q = poly[(i + 1) % k];
      const Int128 ex = q.x() - p.x(), ey = q.y() - p.y();
      const Int128 wx = p.x() - a.x(), wy = p.y() - a.y();
      const Int128 den = dx * ey - dy * ex;
      if (den != 0) {
        T t{wx * ey - wy * ex, den}, u{wx * dy - wy * dx, den};
        if (t.m < 0) t = {-t.n, -t.m}, u = {-u.n, -u.m};
        if (t.n >= 0 && t.n <= t.m && u.n >= 0 && u.n <= u.m) cuts.push_back(t);
      } else if (dx != 0 || dy != 0) {  // parallel: the edge's ends projected, if collinear
        if (wx * dy - wy * dx != 0) continue;
        const Int128 dd = dx * dx + dy * dy;
        for (const Point& e : {p, q}) {
          const Int128 t = (e.x() - a.x()) * dx + (e.y() - a.y()) * dy;
          if (t >= 0 && t <= dd) cuts.push_back({t, dd});
        }
      }
    }
    std::sort(cuts.begin(), cuts.end(), [](T x, T y) { return x.n * y.m < y.n * x.m; });
    auto state = [&](Int128 n, Int128 m) {
      return InsideRational(a.x() * m + n * dx, a.y() * m + n * dy, m, poly);
    };
    for (std::size_t c = 0; c < cuts.size(); ++c) {
      out.push_back(state(cuts[c].n, cuts[c].m));
      if (c + 1 < cuts.size()) {
        const T x = cuts[c], y = cuts[c + 1];
        out.push_back(state(x.n * y.m + y.n * x.m, 2 * x.m * y.m));
      }
    }
  }
  if (path.size() == 1) out.push_back(InsideRational(path[0].x(), path[0].y(), 1, poly));
  return out;
}

TEST_CASE("staying inside and coming back agree with the cutting reference", "[table]") {
  reference::Rng rng(90);
  int inside = 0, enters = 0, tested = 0;
  for (int i = 0; i < 6000; ++i) {
    const std::vector<Point> star = reference::StarPolygon(rng, 8, 8, 8);
    const auto polygon = Polygon::Make(star);
    if (!polygon) continue;
    const std::vector<Point> v = reference::RandomPath(rng, 4, 0, 16);
    const std::vector<bool> states = States(v, star);
    const bool all_in = std::all_of(states.begin(), states.end(), [](bool b) { return b; });
    bool back_in = false, was_out = false;
    for (bool in : states) {
      back_in = back_in || (was_out && in);
      was_out = was_out || !in;
    }
    REQUIRE(PathInside(Path(v), *polygon) == all_in);
    REQUIRE(EntersAfterOutside(Path(v), *polygon) == back_in);
    inside += all_in;
    enters += back_in;
    ++tested;
  }
  CHECK(inside > tested / 40);
  CHECK(enters > tested / 10);
  CHECK(enters < tested * 9 / 10);
}

TEST_CASE("T18: going up a hill step is Slow, coming down is not", "[table]") {
  const std::vector<Polygon> h1{*Polygon::Make({In(0, 14), In(20, 14), In(20, 30), In(0, 30)})};
  CHECK(GoesUp(Path({In(10, 10), In(10, 20)}), h1));
  CHECK(GoesUp(Path({In(10, 10), In(10, 14)}), h1));  // reaching the closed step
  CHECK_FALSE(GoesUp(Path({In(10, 10), In(10, 13.999)}), h1));
  CHECK_FALSE(GoesUp(Path({In(10, 20), In(10, 10)}), h1));
  CHECK(GoesUp(Path({In(10, 20), In(10, 10), In(10, 20)}), h1));     // down then up again
  CHECK_FALSE(GoesUp(Path({In(0, 20), In(0, 25), In(5, 25)}), h1));  // along the edge, then in
  CHECK(Level(In(10, 20), h1) == 1);
  CHECK(Level(In(10, 14), h1) == 1);
  CHECK(Level(In(10, 13.999), h1) == 0);
}

TEST_CASE("T19: walking on a floor and off it", "[table]") {
  const Polygon f1 = *Polygon::Make({In(30, 10), In(36, 10), In(36, 16), In(30, 16)});
  CHECK(PathInside(Path({In(31, 11), In(32, 12)}), f1));
  CHECK(PathInside(Path({In(31, 11), In(36, 11), In(36, 16)}), f1));  // along the edge
  CHECK_FALSE(PathInside(Path({In(31, 11), In(36.001, 11)}), f1));
  CHECK_FALSE(PathInside(Path({In(29, 11)}), f1));  // (c) climbing outside the floor
  // A notched floor: a straight walk across the notch leaves it.
  const Polygon u = *Polygon::Make(
      {P(0, 0), P(30, 0), P(30, 30), P(20, 30), P(20, 10), P(10, 10), P(10, 30), P(0, 30)});
  CHECK_FALSE(PathInside(Path({P(5, 20), P(25, 20)}), u));
  CHECK(PathInside(Path({P(5, 20), P(5, 5), P(25, 5), P(25, 20)}), u));
  CHECK(PathInside(Path({P(5, 5), P(25, 5)}), u));
  CHECK(PathInside(Path({P(10, 10), P(20, 10)}), u));           // along the notch's floor
  CHECK_FALSE(PathInside(Path({P(5, 15), P(15, 8)}), u));       // cuts into the notch
  CHECK(PathInside(Path({P(5, 15), P(15, 5)}), u));             // through the reflex corner
  CHECK(PathInside(Path({P(0, 20), P(10, 10), P(20, 0)}), u));  // grazes it from inside
}

}  // namespace
}  // namespace pbem::table
