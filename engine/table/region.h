// A path against a closed polygon region, exactly: does it stay inside (M42-P10 floors), does
// it come back into the region after being outside (M42-P09 going up a hill step), the level of
// a point on nested steps (M42-P09). All decided on integers by looking at the directions the
// path takes at each point where it meets the boundary: no intersection point is computed.
#ifndef PBEM_ENGINE_TABLE_REGION_H_
#define PBEM_ENGINE_TABLE_REGION_H_

#include <vector>

#include "engine/table/shapes.h"

namespace pbem::table {

// The closed segment lies in the closed region (it may run along the boundary).
bool SegmentInside(const Segment& s, const Polygon& region);

// M42-P10: every segment of the path keeps the centre inside the floor's polygon.
bool PathInside(const Polyline& path, const Polygon& region);

// Some point of the path is in the region while an earlier point was outside it. With nested
// hill steps, M42-P09's "goes up" (some later point has a greater level than an earlier one)
// holds exactly when this holds for some step.
bool EntersAfterOutside(const Polyline& path, const Polygon& region);

// M42-P09: the largest k (1-based) with p inside the closed step[k - 1], else 0. Steps are
// nested (step[k+1] inside step[k]); the caller checks that when it loads them.
int Level(Point p, const std::vector<Polygon>& steps);

// M42-P09 going up: EntersAfterOutside for some step.
bool GoesUp(const Polyline& path, const std::vector<Polygon>& steps);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_REGION_H_
