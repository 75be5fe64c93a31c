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

bool FortifiedContact(const Rect& charger, const Segment& outer_face, const Rect& target,
                      Coord reach, Coord eps, std::int64_t eps_millidegrees) {
  if (!EdgesInContact(charger.Edge(0), outer_face, eps, eps_millidegrees)) return false;
  const Vector along = outer_face.b - outer_face.a;
  const UInt128 len2 = static_cast<UInt128>(Dot(along, along));
  const Int128 charger_side = Cross(along, charger.centre() - outer_face.a);
  const Segment front = target.Edge(0);
  const Coord limit = ClampThreshold(reach + eps);
  for (const Point p : {front.a, front.b}) {
    const Int128 side = Cross(along, p - outer_face.a);
    if ((side > 0 && charger_side > 0) || (side < 0 && charger_side < 0)) return false;
    // |side| / |along| <= reach + eps.
    if (limit < 0 ||
        Square(side) > static_cast<UInt128>(limit) * static_cast<UInt128>(limit) * len2) {
      return false;
    }
  }
  // Lateral overlap along the face, times |along|, against eps * |along|.
  const Segment mine = charger.Edge(0);
  const Int128 m0 = Dot(mine.a - outer_face.a, along), m1 = Dot(mine.b - outer_face.a, along);
  const Int128 t0 = Dot(front.a - outer_face.a, along), t1 = Dot(front.b - outer_face.a, along);
  const Int128 overlap =
      std::min(std::max(m0, m1), std::max(t0, t1)) - std::max(std::min(m0, m1), std::min(t0, t1));
  if (overlap <= 0) return false;
  const Coord e = std::max<Coord>(ClampThreshold(eps), 0);
  return Square(overlap) > static_cast<UInt128>(e) * static_cast<UInt128>(e) * len2;
}

}  // namespace pbem::table
