#include "engine/table/vision.h"

#include <algorithm>

#include "engine/table/clip.h"

namespace pbem::table {
namespace {

struct Direction {
  Int128 x = 0;
  Int128 y = 0;
};

// The viewer's closed vision region: the half-planes bounding it, its corners FL and FR, and
// the directions in which it is unbounded.
struct Region {
  std::vector<HalfPlane> sides;
  std::vector<Direction> recession;
  Point fl, fr;
};

// The closed side of the directed line a -> b on its left (inside of an anticlockwise polygon).
HalfPlane LeftOfLine(Point a, Direction d) {
  const Int128 na = -d.y, nb = d.x;
  return {na, nb, -(na * a.x() + nb * a.y())};
}

Region VisionRegion(const Rect& viewer, VisionArc arc) {
  Region r;
  r.fl = viewer.FL();
  r.fr = viewer.FR();
  const Vector e = r.fr - r.fl;  // runs to the right: ahead is on its left
  r.sides.push_back(LeftOfLine(r.fl, {e.x, e.y}));
  if (arc == VisionArc::kHalfPlane) {
    const Direction ahead{-Int128{e.y}, Int128{e.x}};
    r.recession = {{e.x, e.y}, {-Int128{e.x}, -Int128{e.y}}, ahead};
    return r;
  }
  const UnitVector f = HeadingVector(viewer.heading());
  const UnitVector l = LeftOf(f);
  const Direction left_ray{Int128{f.x} + l.x, Int128{f.y} + l.y};
  const Direction right_ray{Int128{f.x} - l.x, Int128{f.y} - l.y};
  // Inside: right of the left ray (from FL), left of the right ray (from FR).
  r.sides.push_back(LeftOfLine(r.fl, {-left_ray.x, -left_ray.y}));
  r.sides.push_back(LeftOfLine(r.fr, right_ray));
  r.recession = {left_ray, right_ray};
  return r;
}

HalfPlane EdgeSide(const Segment& s) {
  const Vector d = s.b - s.a;
  return LeftOfLine(s.a, {d.x, d.y});
}

// The parameters t of the points u + t d satisfying a set of half-planes: an interval with
// fraction ends (denominators > 0), closed unless built with `strict`.
class Interval {
 public:
  explicit Interval(bool strict) : strict_(strict) {}
  void Add(const HalfPlane& h, Point u, Vector d) {
    const Int128 alpha = h.At(u);
    const Int128 beta = h.a * d.x + h.b * d.y;
    if (beta == 0) {
      if (alpha < 0 || (strict_ && alpha == 0)) empty_ = true;
      return;
    }
    // alpha + t beta >= 0: t >= -alpha / beta (beta > 0) or t <= alpha / -beta.
    if (beta > 0) {
      if (!has_lo_ || CompareFractions(-alpha, beta, lo_n_, lo_d_) > 0)
        lo_n_ = -alpha, lo_d_ = beta;
      has_lo_ = true;
    } else {
      if (!has_hi_ || CompareFractions(alpha, -beta, hi_n_, hi_d_) < 0)
        hi_n_ = alpha, hi_d_ = -beta;
      has_hi_ = true;
    }
  }
  bool Empty() const {
    if (empty_) return true;
    if (!has_lo_ || !has_hi_) return false;
    const int s = CompareFractions(lo_n_, lo_d_, hi_n_, hi_d_);
    return strict_ ? s >= 0 : s > 0;
  }
  // Bounded intervals only (the front edge, the target, a blocker).
  Int128 lo_n_ = 0, lo_d_ = 1, hi_n_ = 0, hi_d_ = 1;

 private:
  bool strict_;
  bool empty_ = false, has_lo_ = false, has_hi_ = false;
};

struct Fraction {
  Int128 n = 0;
  Int128 d = 1;
};
int Cmp(Fraction a, Fraction b) { return CompareFractions(a.n, a.d, b.n, b.d); }

Point At(Point u, Vector d, Fraction t) {
  // |t.n| < 2^94 and |d| <= 2^30: the products fit; the point lies on a segment between
  // table points, so it is in bounds.
  return *Point::Make(static_cast<Coord>(u.x() + RoundDiv(t.n * d.x, t.d)),
                      static_cast<Coord>(u.y() + RoundDiv(t.n * d.y, t.d)));
}

// The clear sightline carried by the line u + t d, if any.
std::optional<Sightline> OnLine(Point u, Vector d, const Region& region, const Polygon& target,
                                const std::vector<Polygon>& blockers) {
  Interval edge(false);
  const HalfPlane front = region.sides[0];
  edge.Add(front, u, d);
  edge.Add({-front.a, -front.b, -front.c}, u, d);
  const Vector e = region.fr - region.fl;
  const HalfPlane after_fl{e.x, e.y, -(Int128{e.x} * region.fl.x() + Int128{e.y} * region.fl.y())};
  const HalfPlane before_fr{-Int128{e.x}, -Int128{e.y},
                            Int128{e.x} * region.fr.x() + Int128{e.y} * region.fr.y()};
  edge.Add(after_fl, u, d);
  edge.Add(before_fr, u, d);
  if (edge.Empty()) return std::nullopt;
  Interval seen(false);
  for (const HalfPlane& h : region.sides) seen.Add(h, u, d);
  for (std::size_t k = 0; k < target.size(); ++k) seen.Add(EdgeSide(target.Edge(k)), u, d);
  if (seen.Empty()) return std::nullopt;
  const Fraction e_lo{edge.lo_n_, edge.lo_d_}, e_hi{edge.hi_n_, edge.hi_d_};
  const Fraction s_lo{seen.lo_n_, seen.lo_d_}, s_hi{seen.hi_n_, seen.hi_d_};
  Fraction p, q;
  if (Cmp(e_hi, s_lo) < 0) {
    p = e_hi, q = s_lo;
  } else if (Cmp(s_hi, e_lo) < 0) {
    p = e_lo, q = s_hi;
  } else {
    p = q = Cmp(e_lo, s_lo) > 0 ? e_lo : s_lo;  // the target reaches the front edge
  }
  const Fraction lo = Cmp(p, q) <= 0 ? p : q, hi = Cmp(p, q) <= 0 ? q : p;
  for (const Polygon& blocker : blockers) {
    Interval inside(true);
    for (std::size_t k = 0; k < blocker.size(); ++k) inside.Add(EdgeSide(blocker.Edge(k)), u, d);
    if (inside.Empty()) continue;
    if (Cmp(hi, {inside.lo_n_, inside.lo_d_}) > 0 && Cmp(lo, {inside.hi_n_, inside.hi_d_}) < 0) {
      return std::nullopt;
    }
  }
  return Sightline{At(u, d, p), At(u, d, q)};
}

}  // namespace

bool InVisionArc(const Rect& viewer, const Polygon& target, VisionArc arc) {
  const Region region = VisionRegion(viewer, arc);
  // Separating axes: the region's sides (it lies on their inner side, touching them at FL or
  // FR), then both normals of the target's edges (the region's least projection is at FL or
  // FR, or unbounded when a recession direction goes down the axis).
  for (const HalfPlane& h : region.sides) {
    if (std::all_of(target.vertices().begin(), target.vertices().end(),
                    [&](Point v) { return h.At(v) < 0; })) {
      return false;
    }
  }
  for (std::size_t k = 0; k < target.size(); ++k) {
    const Vector e = target.Edge(k).b - target.Edge(k).a;
    for (int sign : {1, -1}) {
      const Int128 nx = -Int128{e.y} * sign, ny = Int128{e.x} * sign;
      const bool bounded = std::all_of(region.recession.begin(), region.recession.end(),
                                       [&](Direction g) { return nx * g.x + ny * g.y >= 0; });
      if (!bounded) continue;
      auto along = [&](Point p) { return nx * p.x() + ny * p.y(); };
      const Int128 region_min = std::min(along(region.fl), along(region.fr));
      Int128 target_max = along(target.vertices()[0]);
      for (const Point& v : target.vertices()) target_max = std::max(target_max, along(v));
      if (target_max < region_min) return false;
    }
  }
  return true;
}

std::optional<Sightline> FindSightline(const Rect& viewer, const Polygon& target,
                                       const std::vector<Polygon>& blockers, VisionArc arc) {
  if (!InVisionArc(viewer, target, arc)) return std::nullopt;
  const Region region = VisionRegion(viewer, arc);
  std::vector<Point> seen = target.vertices();
  for (const HalfPlane& h : region.sides) seen = Clip(seen, h);
  std::vector<Point> points{region.fl, region.fr};
  points.insert(points.end(), seen.begin(), seen.end());
  for (const Polygon& b : blockers)
    points.insert(points.end(), b.vertices().begin(), b.vertices().end());
  std::sort(points.begin(), points.end(),
            [](Point p, Point q) { return p.x() != q.x() ? p.x() < q.x() : p.y() < q.y(); });
  points.erase(std::unique(points.begin(), points.end()), points.end());
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t j = i + 1; j < points.size(); ++j) {
      if (auto s = OnLine(points[i], points[j] - points[i], region, target, blockers)) return s;
    }
  }
  return std::nullopt;
}

}  // namespace pbem::table
