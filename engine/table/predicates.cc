#include "engine/table/predicates.h"

#include <algorithm>

namespace pbem::table {

int Orientation(Point a, Point b, Point c) {
  const Int128 cross = Cross(b - a, c - a);
  return cross > 0 ? 1 : (cross < 0 ? -1 : 0);
}

bool OnSegment(Point p, const Segment& s) {
  if (Orientation(s.a, s.b, p) != 0) return false;
  return std::min(s.a.x(), s.b.x()) <= p.x() && p.x() <= std::max(s.a.x(), s.b.x()) &&
         std::min(s.a.y(), s.b.y()) <= p.y() && p.y() <= std::max(s.a.y(), s.b.y());
}

bool SegmentsIntersect(const Segment& s, const Segment& t) {
  const int o1 = Orientation(s.a, s.b, t.a);
  const int o2 = Orientation(s.a, s.b, t.b);
  const int o3 = Orientation(t.a, t.b, s.a);
  const int o4 = Orientation(t.a, t.b, s.b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return OnSegment(t.a, s) || OnSegment(t.b, s) || OnSegment(s.a, t) || OnSegment(s.b, t);
}

bool InPolygon(Point p, const Polygon& polygon) {
  // Boundary first (closed region), then the crossing number with a half-open rule on y, so a
  // ray through a vertex is counted once.
  bool inside = false;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Segment e = polygon.Edge(i);
    if (OnSegment(p, e)) return true;
    const bool a_above = e.a.y() > p.y();
    const bool b_above = e.b.y() > p.y();
    if (a_above == b_above) continue;
    // The edge crosses the horizontal line through p; is the crossing right of p?
    const int side = Orientation(e.a, e.b, p);
    // Going up (b above a) the crossing is right of p iff p is left of the edge.
    if ((b_above && side > 0) || (!b_above && side < 0)) inside = !inside;
  }
  return inside;
}

}  // namespace pbem::table
