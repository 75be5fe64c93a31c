#include "engine/table/walls.h"

#include <algorithm>

#include "engine/table/predicates.h"

namespace pbem::table {
namespace {

// s = (num / den) * |e|, with 0 <= num <= den; sign(s - k).
int CompareAlong(UInt128 num, UInt128 den, UInt128 len2, Coord k) {
  if (k < 0) return 1;
  const UInt128 kk = static_cast<UInt128>(k) * static_cast<UInt128>(k);
  // num^2 <= 2^122, len2 <= 2^61, k^2 <= 2^62 (k clamped), den^2 <= 2^122.
  return CompareProducts(num * num, len2, kk, den * den);
}

}  // namespace

WallCrossings CrossWall(const Polyline& path, const Wall& wall, Coord radius, Coord eps) {
  WallCrossings out;
  const Vector e = wall.line.b - wall.line.a;
  const UInt128 len2 = static_cast<UInt128>(Dot(e, e));
  for (const Segment& s : path.Segments()) {
    const Vector d = s.b - s.a;
    Int128 den = Cross(e, d);
    if (den == 0 || !SegmentsIntersect(s, wall.line)) continue;  // along the wall, or apart
    // wall.a + u e = s.a + t d  =>  u = cross(s.a - wall.a, d) / cross(e, d).
    Int128 num = Cross(s.a - wall.line.a, d);
    if (den < 0) num = -num, den = -den;
    ++out.crossings;
    for (const Opening& o : wall.openings) {
      // Clamped first, so that absurd opening bounds cannot overflow the sums.
      const Coord from = std::clamp<Coord>(o.from, -kMaxLength, kMaxLength);
      const Coord to = std::clamp<Coord>(o.to, -kMaxLength, kMaxLength);
      const Coord slack = std::clamp<Coord>(radius - eps, -kMaxLength, kMaxLength);
      const Coord low = ClampThreshold(from + slack);
      const Coord high = ClampThreshold(to - slack);
      const auto n = static_cast<UInt128>(num), m = static_cast<UInt128>(den);
      if (CompareAlong(n, m, len2, low) >= 0 &&
          (high >= 0 && CompareAlong(n, m, len2, high) <= 0)) {
        ++out.through_openings;
        break;
      }
    }
  }
  return out;
}

}  // namespace pbem::table
