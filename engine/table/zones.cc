#include "engine/table/zones.h"

#include <algorithm>

#include "engine/table/clip.h"
#include "engine/table/contact.h"

namespace pbem::table {

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
