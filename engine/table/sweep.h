// WME-P03 collision tests along a move: the region a rectangular base sweeps along its legs.
// A translation sweeps exactly the convex hull of the start and end footprints. A rotation is
// sampled at steps of at most 1 degree plus the exact end pose (as WME-P03 allows), each step
// covered by the hull of its two poses; the hull misses the arcs' bulge by at most
// rho (1 - cos 0.5 deg), 0.0001 cm for a 4 x 2 base, a tenth of the epsilon.
#ifndef PBEM_ENGINE_TABLE_SWEEP_H_
#define PBEM_ENGINE_TABLE_SWEEP_H_

#include <optional>
#include <vector>

#include "engine/table/motion.h"

namespace pbem::table {

// The convex hull of the points (anticlockwise, no collinear vertices); nullopt when the
// points are all on one line (no area).
std::optional<Polygon> ConvexHull(std::vector<Point> points);

// The swept region as convex pieces; nullopt if a leg is refused (motion.h).
std::optional<std::vector<Polygon>> Sweep(const Rect& start, const std::vector<Leg>& legs);

// WME-P02 along the move: some piece overlaps the footprint with penetration depth > eps
// (WME-R21 "not even partly"; friendly sliding, which only touches, is allowed).
bool SweepOverlaps(const std::vector<Polygon>& sweep, const Polygon& footprint, Coord eps);

// The sweep comes within eps of the footprint (W-R12: touching an enemy during a move).
bool SweepTouches(const std::vector<Polygon>& sweep, const Polygon& footprint, Coord eps);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_SWEEP_H_
