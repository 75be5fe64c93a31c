// Slow, obviously correct references for the table's property tests. They follow the digests'
// formulas literally (rational projections, parametric intersection, angle sums in long
// double) rather than the library's case splits, so that a slip in one is caught by the other.
#ifndef PBEM_TESTS_ENGINE_TABLE_REFERENCE_H_
#define PBEM_TESTS_ENGINE_TABLE_REFERENCE_H_

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "engine/table/facing.h"
#include "engine/table/shapes.h"

namespace pbem::table::reference {

// A deterministic source of test tables: mt19937_64's output is fixed by the standard; the
// mapping to a range is ours (std:: distributions are implementation-defined).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : gen_(seed) {}
  std::int64_t Between(std::int64_t lo, std::int64_t hi) {
    const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<std::int64_t>(gen_() % span);
  }
  Point PointIn(std::int64_t lo, std::int64_t hi) {
    // Two statements: the order of evaluation of function arguments differs between gcc and
    // clang, and the tables must not.
    const std::int64_t x = Between(lo, hi);
    return *Point::Make(x, Between(lo, hi));
  }

 private:
  std::mt19937_64 gen_;
};

// Helpers the tests share: `using namespace reference::units;`.
namespace units {

inline Point P(Coord x, Coord y) { return *Point::Make(x, y); }

// The digests' units: M42 in inches (eps 0.01", 1" bases), WME in centimetres (eps 0.01 cm).
inline constexpr Coord kInch = kUnitsPerInch;
inline constexpr Coord kEps = kUnitsPerInch / 100;  // M42 eps, 0.01"
inline constexpr Coord kR = kInch / 2;
inline constexpr Coord kCm = kUnitsPerCm;
inline constexpr Coord kEpsCm = kUnitsPerCm / 100;

// A point given in inches or centimetres with at most 3 decimals, as an order gives it.
inline Point In(double x, double y) {
  return P(*FromThousandthsOfInch(std::llround(x * 1000)),
           *FromThousandthsOfInch(std::llround(y * 1000)));
}
inline Point Cm(double x, double y) {
  return P(*FromThousandthsOfCm(std::llround(x * 1000)),
           *FromThousandthsOfCm(std::llround(y * 1000)));
}

inline Polyline Path(std::vector<Point> v) { return *Polyline::Make(std::move(v)); }

// The axis-aligned box with corners lo (south-west) and hi (north-east).
inline Polygon Box(Point lo, Point hi) {
  return *Polygon::Make({lo, P(hi.x(), lo.y()), hi, P(lo.x(), hi.y())});
}

}  // namespace units
using namespace units;  // NOLINT: reference::P etc.

// An exact fraction; only for small coordinates (|x| <= 2^14) where every product fits.
struct Q {
  Int128 n = 0;
  Int128 d = 1;
};

// M42-P04 literally: t = clamp(((q-a).(b-a)) / |b-a|^2, 0, 1); |a + t(b-a) - q|^2.
inline Q Dist2PointSegment(Point q, Point a, Point b) {
  const Int128 bx = b.x() - a.x(), by = b.y() - a.y();
  const Int128 len2 = bx * bx + by * by;
  Q t{0, 1};
  if (len2 != 0) {
    t = {(q.x() - a.x()) * bx + (q.y() - a.y()) * by, len2};
    if (t.n < 0) t = {0, 1};
    if (t.n > t.d) t = {1, 1};
  }
  const Int128 fx = a.x() * t.d + t.n * bx - q.x() * t.d;
  const Int128 fy = a.y() * t.d + t.n * by - q.y() * t.d;
  return {fx * fx + fy * fy, t.d * t.d};
}

// sign(sqrt(q) - t), t >= 0.
inline int Cmp(Q q, Int128 t) {
  const Int128 lhs = q.n;
  const Int128 rhs = t * t * q.d;
  return lhs < rhs ? -1 : (lhs > rhs ? 1 : 0);
}

// Parametric intersection of closed segments p + t r, q + u s (t, u in [0, 1]).
inline bool SegmentsMeet(Point p0, Point p1, Point q0, Point q1) {
  const Int128 rx = p1.x() - p0.x(), ry = p1.y() - p0.y();
  const Int128 sx = q1.x() - q0.x(), sy = q1.y() - q0.y();
  const Int128 wx = q0.x() - p0.x(), wy = q0.y() - p0.y();
  if (rx == 0 && ry == 0) return Dist2PointSegment(p0, q0, q1).n == 0;
  if (sx == 0 && sy == 0) return Dist2PointSegment(q0, p0, p1).n == 0;
  const Int128 denom = rx * sy - ry * sx;
  if (denom != 0) {
    Int128 t = wx * sy - wy * sx;
    Int128 u = wx * ry - wy * rx;
    Int128 d = denom;
    if (d < 0) t = -t, u = -u, d = -d;
    return t >= 0 && t <= d && u >= 0 && u <= d;
  }
  if (wx * ry - wy * rx != 0) return false;  // parallel, apart
  // Collinear: q0 and q1 as parameters along r, over r.r.
  const Int128 rr = rx * rx + ry * ry;
  const Int128 t0 = wx * rx + wy * ry;
  const Int128 t1 = t0 + sx * rx + sy * ry;
  const Int128 lo = t0 < t1 ? t0 : t1, hi = t0 < t1 ? t1 : t0;
  return hi >= 0 && lo <= rr;
}

// sign(distance between closed segments - t).
inline int CmpSegSeg(Point a0, Point a1, Point b0, Point b1, Int128 t) {
  if (SegmentsMeet(a0, a1, b0, b1)) return t > 0 ? -1 : (t == 0 ? 0 : 1);
  int s = Cmp(Dist2PointSegment(a0, b0, b1), t);
  for (int v : {Cmp(Dist2PointSegment(a1, b0, b1), t), Cmp(Dist2PointSegment(b0, a0, a1), t),
                Cmp(Dist2PointSegment(b1, a0, a1), t)}) {
    s = v < s ? v : s;
  }
  return s;
}

// Closed region by the angle sum (winding number) in long double; boundary by exact distance.
inline bool Inside(Point p, const std::vector<Point>& poly) {
  const std::size_t n = poly.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (Dist2PointSegment(p, poly[i], poly[(i + 1) % n]).n == 0) return true;
  }
  long double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const long double ax = poly[i].x() - p.x(), ay = poly[i].y() - p.y();
    const Point& b = poly[(i + 1) % n];
    const long double bx = b.x() - p.x(), by = b.y() - p.y();
    sum += std::atan2(ax * by - ay * bx, ax * bx + ay * by);
  }
  return std::fabs(sum) > 3.0L;  // 2 pi inside, 0 outside
}

// sign(distance from the closed polygon region to the path - t).
inline int CmpPathPolygon(const std::vector<Point>& path, const std::vector<Point>& poly,
                          Int128 t) {
  for (const Point& v : path) {
    if (Inside(v, poly)) return t > 0 ? -1 : (t == 0 ? 0 : 1);
  }
  int s = 1;
  const std::size_t n = poly.size();
  for (std::size_t i = 0; i < path.size(); ++i) {
    const Point a = path[i];
    const Point b = path[i + 1 < path.size() ? i + 1 : i];
    for (std::size_t j = 0; j < n; ++j) {
      const int v = CmpSegSeg(a, b, poly[j], poly[(j + 1) % n], t);
      s = v < s ? v : s;
    }
  }
  return s;
}

// A random path of 1..max_vertices vertices in [lo, hi]^2.
inline std::vector<Point> RandomPath(Rng& rng, int max_vertices, Coord lo, Coord hi) {
  std::vector<Point> v;
  const std::int64_t n = rng.Between(1, max_vertices);
  for (std::int64_t k = 0; k < n; ++k) v.push_back(rng.PointIn(lo, hi));
  return v;
}

// A random simple polygon: vertices at increasing angles round a centre (star-shaped).
inline std::vector<Point> StarPolygon(Rng& rng, Coord cx, Coord cy, Coord rmax) {
  const int n = static_cast<int>(rng.Between(3, 9));
  std::vector<Point> out;
  for (int i = 0; i < n; ++i) {
    // Angles in millidegrees inside sector i; the library's integer sine keeps the inputs the
    // same on every machine.
    const std::int64_t angle = (i * 360000 + rng.Between(36000, 324000)) / n;
    const UnitVector u = HeadingVector(angle);
    const Coord r = rng.Between(rmax / 5, rmax);
    const Int128 one = Int128{1} << kUnitBits;
    out.push_back(P(cx + static_cast<Coord>(r * Int128{u.x} / one),
                    cy + static_cast<Coord>(r * Int128{u.y} / one)));
  }
  return out;
}

}  // namespace pbem::table::reference

#endif  // PBEM_TESTS_ENGINE_TABLE_REFERENCE_H_
