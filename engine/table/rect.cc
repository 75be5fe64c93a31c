#include "engine/table/rect.h"

#include <algorithm>

#include "engine/table/graph.h"
#include "engine/table/predicates.h"

namespace pbem::table {
namespace {

// round(size * component / 2^61), halves away from zero: half of `size` along a unit vector.
Coord HalfAlong(Coord size, std::int64_t component) {
  const Int128 p = Int128{size} * component;
  const Int128 half = Int128{1} << kUnitBits;  // 2^61 / 2
  const Int128 q = p >= 0 ? (p + half) >> (kUnitBits + 1) : -((-p + half) >> (kUnitBits + 1));
  return static_cast<Coord>(q);
}

}  // namespace

std::optional<Rect> Rect::Make(Point centre, Coord width, Coord depth,
                               std::int64_t heading_millidegrees) {
  if (width <= 0 || depth <= 0 || width > kMaxCoord || depth > kMaxCoord) return std::nullopt;
  const UnitVector f = HeadingVector(heading_millidegrees);
  const UnitVector l = LeftOf(f);
  const Vector u{HalfAlong(depth, f.x), HalfAlong(depth, f.y)};
  const Vector v{HalfAlong(width, l.x), HalfAlong(width, l.y)};
  std::array<Point, 4> corners{centre, centre, centre, centre};
  const int su[4] = {1, 1, -1, -1};
  const int sv[4] = {1, -1, -1, 1};
  for (int i = 0; i < 4; ++i) {
    const auto p =
        Point::Make(centre.x() + su[i] * u.x + sv[i] * v.x, centre.y() + su[i] * u.y + sv[i] * v.y);
    if (!p) return std::nullopt;
    corners[i] = *p;
  }
  // FL, FR, RR, RL turn clockwise (front edge runs from left to right); the polygon stores
  // them anticlockwise.
  auto footprint = Polygon::Make({corners[0], corners[1], corners[2], corners[3]});
  if (!footprint) return std::nullopt;
  return Rect(centre, width, depth, heading_millidegrees, corners, *footprint);
}

MinDistance ConvexDistance(const Polygon& a, const Polygon& b) {
  MinDistance m;
  if (InPolygon(b.vertices()[0], a) || InPolygon(a.vertices()[0], b)) {
    m.AddZero();
    return m;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < b.size(); ++j) {
      const MinDistance d = SegmentSegment(a.Edge(i), b.Edge(j));
      if (d.Compare(0) <= 0) {
        m.AddZero();
        return m;
      }
      m.Add(PointSegment(a.Edge(i).a, b.Edge(j)));
      m.Add(PointSegment(b.Edge(j).a, a.Edge(i)));
    }
  }
  return m;
}

bool ConvexOverlap(const Polygon& a, const Polygon& b, Coord eps) {
  eps = std::max<Coord>(ClampThreshold(eps), 0);
  auto deep_along_normals_of = [&](const Polygon& of) {
    for (std::size_t i = 0; i < of.size(); ++i) {
      const Vector e = of.Edge(i).b - of.Edge(i).a;
      const Vector n{-e.y, e.x};
      Int128 lo_a = 0, hi_a = 0, lo_b = 0, hi_b = 0;
      for (int which = 0; which < 2; ++which) {
        const Polygon& p = which == 0 ? a : b;
        Int128& lo = which == 0 ? lo_a : lo_b;
        Int128& hi = which == 0 ? hi_a : hi_b;
        for (std::size_t k = 0; k < p.size(); ++k) {
          const Point v = p.vertices()[k];
          const Int128 d = Int128{v.x()} * n.x + Int128{v.y()} * n.y;
          if (k == 0 || d < lo) lo = d;
          if (k == 0 || d > hi) hi = d;
        }
      }
      // overlap / |n| > eps: edge components <= 2^30 and projections <= 2^60, so overlap^2
      // < 2^122 and eps^2 |n|^2 < 2^123 (formed in 256 bits anyway).
      const Int128 overlap = std::min(hi_a, hi_b) - std::max(lo_a, lo_b);
      if (overlap <= 0) return false;
      const UInt128 lhs = static_cast<UInt128>(overlap) * static_cast<UInt128>(overlap);
      if (CompareProducts(lhs, 1, static_cast<UInt128>(eps) * static_cast<UInt128>(eps),
                          static_cast<UInt128>(Dot(n, n))) <= 0) {
        return false;
      }
    }
    return true;
  };
  return deep_along_normals_of(a) && deep_along_normals_of(b);
}

bool Overlap(const Rect& a, const Rect& b, Coord eps) {
  return ConvexOverlap(a.footprint(), b.footprint(), eps);
}

bool Touch(const Rect& a, const Rect& b, Coord eps) {
  return ConvexDistance(a.footprint(), b.footprint()).Compare(eps) <= 0 && !Overlap(a, b, eps);
}

std::optional<std::size_t> OutOfFormation(const std::vector<Rect>& bases, Coord eps) {
  return FirstUnreached(ReachedFromFirst(
      bases.size(), [&](std::size_t i, std::size_t j) { return Touch(bases[i], bases[j], eps); }));
}

bool OnTable(const Rect& base, Coord width, Coord height, Coord eps) {
  for (const Point& p : base.corners()) {
    if (p.x() < -eps || p.y() < -eps || p.x() > width + eps || p.y() > height + eps) return false;
  }
  return true;
}

bool KeepsClear(const Rect& a, const Rect& b, Coord limit, Coord eps) {
  return ConvexDistance(a.footprint(), b.footprint()).Compare(limit - eps) >= 0;
}

}  // namespace pbem::table
