#include "engine/table/contact.h"

#include <algorithm>

#include "engine/table/distance.h"

namespace pbem::table {
bool EdgesInContact(const Segment& e, const Segment& g, Coord eps, std::int64_t eps_millidegrees) {
  const Vector de = e.b - e.a;
  const Vector dg = g.b - g.a;
  const UInt128 le = static_cast<UInt128>(Dot(de, de));
  const UInt128 lg = static_cast<UInt128>(Dot(dg, dg));
  if (le == 0 || lg == 0) return false;
  // Parallel within the tolerance: cross^2 * 2^120 <= sin^2 * |e|^2 |g|^2. Base edges are
  // <= 2^29 per component, so cross^2 and |e|^2 |g|^2 stay below 2^119, sin^2 below 2^121.
  const std::int64_t sine = HeadingVector(std::clamp<std::int64_t>(eps_millidegrees, 0, 90000)).y;
  if (CompareProducts(Square(Cross(de, dg)), UInt128{1} << 120, Square(sine), le * lg) > 0) {
    return false;
  }
  if (SegmentSegment(e, g).Compare(eps) > 0) return false;
  // Overlap of the projections on e's line, times |e|: [0, |e|^2] against g's two ends.
  const Int128 ta = Dot(g.a - e.a, de);
  const Int128 tb = Dot(g.b - e.a, de);
  const Int128 overlap = std::min<Int128>(static_cast<Int128>(le), std::max(ta, tb)) -
                         std::max<Int128>(0, std::min(ta, tb));
  if (overlap <= 0 || eps < 0) return overlap > 0;
  // overlap / |e| > eps.
  return Square(overlap) > static_cast<UInt128>(eps) * static_cast<UInt128>(eps) * le;
}

std::optional<EdgePair> EdgeContact(const Rect& a, const Rect& b, Coord eps,
                                    std::int64_t eps_millidegrees) {
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 4; ++j) {
      if (EdgesInContact(a.Edge(i), b.Edge(j), eps, eps_millidegrees)) return EdgePair{i, j};
    }
  }
  return std::nullopt;
}

Contact ContactKind(const Rect& a, const Rect& b, Coord eps, std::int64_t eps_millidegrees) {
  if (!Touch(a, b, eps)) return Contact::kNone;
  return EdgeContact(a, b, eps, eps_millidegrees) ? Contact::kEdge : Contact::kCorner;
}

std::optional<std::size_t> FrontalContactEdge(const Rect& charger, const Rect& target, Coord eps,
                                              std::int64_t eps_millidegrees) {
  if (!Touch(charger, target, eps)) return std::nullopt;
  for (std::size_t j = 0; j < 4; ++j) {
    if (EdgesInContact(charger.Edge(0), target.Edge(j), eps, eps_millidegrees)) return j;
  }
  return std::nullopt;
}

}  // namespace pbem::table
