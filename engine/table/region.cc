#include "engine/table/region.h"

#include "engine/table/predicates.h"

namespace pbem::table {
namespace {

// Direction d from vertex i points strictly out of the closed region (the polygon is stored
// anticlockwise, interior on the left).
bool OutOfVertexCone(const Polygon& p, std::size_t i, Vector d) {
  const std::size_t n = p.size();
  const Point v = p.vertices()[i];
  const Vector to_prev = p.vertices()[(i + n - 1) % n] - v;
  const Vector to_next = p.vertices()[(i + 1) % n] - v;
  if (Cross(Vector{-to_prev.x, -to_prev.y}, to_next) >= 0) {  // convex (or straight) corner
    return !(Cross(to_next, d) >= 0 && Cross(d, to_prev) >= 0);
  }
  // Reflex corner: the outside is the convex cone from to_prev round to to_next.
  return Cross(to_prev, d) > 0 && Cross(d, to_next) > 0;
}

// At some point X where s meets the boundary, a direction of s from X points strictly outside:
// +d (if `forward` and X is not s.b) or -d (if `backward` and X is not s.a).
bool StepsOut(const Segment& s, const Polygon& p, bool forward, bool backward) {
  const Vector d = s.b - s.a;
  const Vector back{-d.x, -d.y};
  auto out_at = [&](Point x, auto outside) {
    return (forward && !(x == s.b) && outside(d)) || (backward && !(x == s.a) && outside(back));
  };
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Point v = p.vertices()[i];
    if (OnSegment(v, s) && out_at(v, [&](Vector dir) { return OutOfVertexCone(p, i, dir); })) {
      return true;
    }
    const Segment e = p.Edge(i);
    const Vector along = e.b - e.a;
    if (Cross(along, d) == 0 || !SegmentsIntersect(s, e)) continue;  // collinear or apart
    if (OnSegment(e.a, s) || OnSegment(e.b, s)) continue;            // met at a vertex: done above
    // One crossing point inside the edge: the region is the closed half-plane left of it.
    if (forward && !OnSegment(s.b, e) && Cross(along, d) < 0) return true;
    if (backward && !OnSegment(s.a, e) && Cross(along, back) < 0) return true;
  }
  return false;
}

}  // namespace

bool SegmentInside(const Segment& s, const Polygon& region) {
  return InPolygon(s.a, region) && !StepsOut(s, region, true, true);
}

bool PathInside(const Polyline& path, const Polygon& region) {
  if (!InPolygon(path.vertices()[0], region)) return false;
  for (const Segment& s : path.Segments()) {
    if (!SegmentInside(s, region)) return false;
  }
  return true;
}

bool EntersAfterOutside(const Polyline& path, const Polygon& region) {
  // The first point of the region after an outside stretch is on the boundary, with the path
  // just before it outside: look for a backward direction pointing out.
  for (const Segment& s : path.Segments()) {
    if (!(s.a == s.b) && StepsOut(s, region, false, true)) return true;
  }
  return false;
}

int Level(Point p, const std::vector<Polygon>& steps) {
  int level = 0;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    if (InPolygon(p, steps[k])) level = static_cast<int>(k) + 1;
  }
  return level;
}

bool GoesUp(const Polyline& path, const std::vector<Polygon>& steps) {
  for (const Polygon& step : steps) {
    if (EntersAfterOutside(path, step)) return true;
  }
  return false;
}

}  // namespace pbem::table
