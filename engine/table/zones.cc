#include "engine/table/zones.h"

#include <algorithm>

#include "engine/table/contact.h"

namespace pbem::table {
namespace {

// a.x + b.y + c >= 0, with the coefficients scaled by 2^60.
struct HalfPlane {
  Int128 a = 0;
  Int128 b = 0;
  Int128 c = 0;
  Int128 At(Point p) const { return a * p.x() + b * p.y() + c; }
};

std::vector<Point> Clip(const std::vector<Point>& polygon, const HalfPlane& h) {
  std::vector<Point> out;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Point p = polygon[i];
    const Point q = polygon[(i + 1) % polygon.size()];
    const Int128 sp = h.At(p), sq = h.At(q);
    if (sp >= 0) out.push_back(p);
    if ((sp >= 0) != (sq >= 0) && sp != 0 && sq != 0) {
      // p + (q - p) sp / (sp - sq); |q - p| <= 2^30 and |sp| < 2^93: the products fit.
      const Int128 den = sp - sq;
      const Int128 x =
          p.x() + RoundDiv((Int128{q.x()} - p.x()) * sp, den < 0 ? -den : den) * (den < 0 ? -1 : 1);
      const Int128 y =
          p.y() + RoundDiv((Int128{q.y()} - p.y()) * sp, den < 0 ? -den : den) * (den < 0 ? -1 : 1);
      // On the segment p-q, so within the bounds already checked for p and q.
      out.push_back(*Point::Make(static_cast<Coord>(x), static_cast<Coord>(y)));
    }
  }
  return out;
}

}  // namespace

std::array<Int128, 4> TwiceZoneAreas(const Rect& reference, const Polygon& footprint) {
  const UnitVector f = HeadingVector(reference.heading());
  const UnitVector l = LeftOf(f);
  const Point c = reference.centre();
  const Int128 one = Int128{1} << kUnitBits;
  // beyond_k(p) * 2^60 = (p - c) . u_k * 2^60 - half_k * 2^60 for the outward normals u_k of
  // front (f), left (l), right (-l), rear (-f).
  const Int128 ux[4] = {f.x, l.x, -l.x, -f.x};
  const Int128 uy[4] = {f.y, l.y, -l.y, -f.y};
  const Int128 half[4] = {reference.depth(), reference.width(), reference.width(),
                          reference.depth()};
  auto beyond = [&](int k) {
    // a.x + b.y + c with c = -(c . u) - half * 2^60 / 2.
    return HalfPlane{ux[k], uy[k], -(ux[k] * c.x() + uy[k] * c.y()) - half[k] * one / 2};
  };
  std::array<Int128, 4> areas{};
  for (int k = 0; k < 4; ++k) {
    std::vector<Point> piece = footprint.vertices();
    const HalfPlane own = beyond(k);
    piece = Clip(piece, own);  // outside the rectangle on this side
    for (int j = 0; j < 4 && piece.size() >= 3; ++j) {
      if (j == k) continue;
      const HalfPlane other = beyond(j);
      // beyond_k >= beyond_j; ties on the ray go to the earlier side.
      HalfPlane h{own.a - other.a, own.b - other.b, own.c - other.c - (j < k ? 1 : 0)};
      piece = Clip(piece, h);
    }
    areas[k] = piece.size() >= 3 ? TwiceSignedArea(piece) : 0;
  }
  return areas;
}

ZoneVerdict ChargerZone(const Rect& reference, const std::vector<Rect>& charger, Int128 eps_area) {
  ZoneVerdict v;
  for (const Rect& base : charger) {
    const std::array<Int128, 4> a = TwiceZoneAreas(reference, base.footprint());
    for (int k = 0; k < 4; ++k) v.twice_area[k] += a[k];
  }
  int order[4] = {0, 1, 2, 3};
  std::stable_sort(order, order + 4,
                   [&](int x, int y) { return v.twice_area[x] > v.twice_area[y]; });
  v.zone = static_cast<Zone>(order[0]);
  v.runner_up = static_cast<Zone>(order[1]);
  v.tie = v.twice_area[order[0]] - v.twice_area[order[1]] <= 2 * eps_area;
  return v;
}

bool SupportsFromBehind(const Rect& supporter, const Rect& front, Coord eps,
                        std::int64_t eps_millidegrees) {
  std::int64_t diff = (supporter.heading() - front.heading()) % kMillidegreesPerTurn;
  if (diff < 0) diff += kMillidegreesPerTurn;
  if (diff > kMillidegreesPerTurn / 2) diff = kMillidegreesPerTurn - diff;
  if (diff > eps_millidegrees) return false;
  if (!Touch(front, supporter, eps)) return false;
  for (std::size_t j = 0; j < 4; ++j) {
    if (EdgesInContact(front.Edge(2), supporter.Edge(j), eps, eps_millidegrees)) return true;
  }
  return false;
}

}  // namespace pbem::table
