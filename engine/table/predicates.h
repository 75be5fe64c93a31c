// Exact primitive predicates on the integer grid: orientation, segment intersection, point in
// polygon. Every answer is exact (no tolerance); the digests' epsilons are applied by the
// callers, as distance thresholds (distance.h).
#ifndef PBEM_ENGINE_TABLE_PREDICATES_H_
#define PBEM_ENGINE_TABLE_PREDICATES_H_

#include "engine/table/shapes.h"

namespace pbem::table {

// Sign of the turn a -> b -> c: 1 anticlockwise, -1 clockwise, 0 collinear.
int Orientation(Point a, Point b, Point c);

// p lies on the closed segment s.
bool OnSegment(Point p, const Segment& s);

// The closed segments share at least one point (proper crossing, touching, or collinear
// overlap).
bool SegmentsIntersect(const Segment& s, const Segment& t);

// p is in the closed region of the polygon (boundary included).
bool InPolygon(Point p, const Polygon& polygon);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_PREDICATES_H_
