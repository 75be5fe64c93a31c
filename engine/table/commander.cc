#include "engine/table/commander.h"

#include <algorithm>

#include "engine/table/predicates.h"

namespace pbem::table {

int CompareDistance(const Disc& disc, const Polygon& convex, Coord limit) {
  if (limit < 0) return 1;
  const int s = PointPolygon(disc.centre(), convex).Compare(ClampThreshold(limit) + disc.radius());
  // The distance is clamped at 0: a disc reaching into the polygon is at distance 0, not below.
  if (s < 0 && limit == 0) return 0;
  return s;
}

Coord DistanceFloor(const Disc& disc, const Polygon& convex) {
  // floor(d - k) == floor(d) - k for a whole k.
  return std::max<Coord>(PointPolygon(disc.centre(), convex).FloorUnits() - disc.radius(), 0);
}

bool Overlap(const Disc& disc, const Polygon& convex, Coord eps) {
  eps = ClampThreshold(eps);
  if (!InPolygon(disc.centre(), convex)) {
    // depth = r - dist(c, R) > eps.
    return PointPolygon(disc.centre(), convex).Compare(disc.radius() - eps) < 0;
  }
  // depth = r + dist(c, boundary) > eps.
  if (disc.radius() > eps) return true;
  MinDistance boundary;
  for (std::size_t i = 0; i < convex.size(); ++i)
    boundary.Add(PointSegment(disc.centre(), convex.Edge(i)));
  return boundary.Compare(eps - disc.radius()) > 0;
}

bool Overlap(const Disc& disc, const Rect& base, Coord eps) {
  return Overlap(disc, base.footprint(), eps);
}

bool Touch(const Disc& disc, const Polygon& convex, Coord eps) {
  return CompareDistance(disc, convex, std::max<Coord>(eps, 0)) <= 0 && !Overlap(disc, convex, eps);
}

bool Touch(const Disc& disc, const Rect& base, Coord eps) {
  return Touch(disc, base.footprint(), eps);
}

}  // namespace pbem::table
