// Half-planes with large integer coefficients, the clipping of a convex polygon by one (its new
// vertices rounded to the grid, halves away from zero), and exact comparison of the fractions
// that lines and half-planes produce. Shared by the zones (zones.h) and the vision wedge
// (vision.h).
#ifndef PBEM_ENGINE_TABLE_CLIP_H_
#define PBEM_ENGINE_TABLE_CLIP_H_

#include <vector>

#include "engine/table/shapes.h"

namespace pbem::table {

// a.x + b.y + c >= 0. |a|, |b| <= 2^62 and |c| <= 2^92, so At() stays below 2^93.
struct HalfPlane {
  Int128 a = 0;
  Int128 b = 0;
  Int128 c = 0;
  Int128 At(Point p) const { return a * p.x() + b * p.y() + c; }
};

// The part of a convex polygon (vertices in order) on the half-plane's side. The vertices
// where an edge crosses the line are rounded to the grid; the result may have fewer than 3
// vertices (nothing, a point or a segment left).
std::vector<Point> Clip(const std::vector<Point>& polygon, const HalfPlane& h);

// sign(a / b - c / d) for b, d > 0 and |a|, |b|, |c|, |d| < 2^126, exact (256-bit products).
int CompareFractions(Int128 a, Int128 b, Int128 c, Int128 d);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_CLIP_H_
