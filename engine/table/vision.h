// WME-P10 visibility [DEFAULT GAP-01, key vision_arc]. A base's vision wedge is the region
// ahead of its front edge bounded by rays from FL and FR at 45 degrees outward (a 90-degree arc,
// the GW convention); the option half_plane is the whole region ahead of the front edge line.
// Base b sees target t <=> some segment from a point of b's front edge to a point of R(t) lies
// in b's (closed) wedge and does not cross the interior of a blocker. Grazing a blocker's
// boundary does not block.
//
// Numbers. The wedge is conv{FL, FR} + cone{f + l, f - l} with the grid corners of rect.h and
// the 60-bit unit vectors of facing.h (a ray's direction is off by < 2^-56 rad); the half-plane
// is the side of the line FL-FR ahead of the base. Whether the target meets the wedge is
// decided exactly (separating axes). A sightline is searched among the lines through two of the
// points {FL, FR, the vertices of R(t) clipped to the wedge, the blockers' vertices}: if any
// clear sightline exists, one such line carries one (the set of clear sightlines is closed and
// its boundary is made of lines through one of these points, so it has a corner on a line
// through two). Each candidate is checked exactly: the line's parameter intervals on the front
// edge, the target, the wedge and each blocker are fractions compared in 256 bits (clip.h).
// Stated roundings: the vertices where the target's edges cross the wedge's rays are rounded
// to the grid (half a unit), so a sightline that exists only through such a crossing point may
// be missed; a blocker that itself overlaps the viewer's front edge or the target adds crossing
// points that are not candidates (bases overlap by at most eps, WME-P02). Every sightline
// returned is exact.
//
// Blockers are convex polygons: the footprints of the bases of units other than the viewer's and
// the target's (commanders never block), and `blocks_los` terrain given as convex pieces. Give
// a non-convex feature as pieces that overlap (a sightline running exactly along a seam between
// two pieces that only touch would pass). The terrain's `see_into_cm` is the caller's: this
// function blocks on the whole interior of what it is given.
#ifndef PBEM_ENGINE_TABLE_VISION_H_
#define PBEM_ENGINE_TABLE_VISION_H_

#include <optional>
#include <vector>

#include "engine/table/rect.h"

namespace pbem::table {

enum class VisionArc { kWedge90, kHalfPlane };

// A segment from the viewer's front edge to the target, its ends rounded to the grid.
struct Sightline {
  Point from;
  Point to;
};

// The target (a closed convex polygon) meets the viewer's closed vision region.
bool InVisionArc(const Rect& viewer, const Polygon& target, VisionArc arc);

// WME-P10: a clear sightline from the viewer's front edge to the target, or nullopt.
std::optional<Sightline> FindSightline(const Rect& viewer, const Polygon& target,
                                       const std::vector<Polygon>& blockers, VisionArc arc);

inline bool Sees(const Rect& viewer, const Polygon& target, const std::vector<Polygon>& blockers,
                 VisionArc arc) {
  return FindSightline(viewer, target, blockers, arc).has_value();
}

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_VISION_H_
