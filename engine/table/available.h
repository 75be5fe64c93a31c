// WME-P11 available contact length [DEFAULT GAP-23, key contact_probe: charger_base] and
// WME-P17 pinned [DEFAULT reading of WME-R57].
//
// P11: for an exposed edge e of a target base (an edge in edge contact with no other base of
// the target's unit, contact.h), slide a probe rectangle of the charger's base size (frontage
// along e, depth away from the target), its front edge on e's line and facing e, along e. The
// available length of e is the largest overlap between the probe's front edge and e over all
// probe positions where the probe overlaps nothing (impassable terrain, any other base). Exact,
// without eps (ruling W-R8): the probe may touch an obstacle, not enter its interior. The
// thresholds are the caller's with eps: available <=> length >= 1 cm - eps (WME-R54, R56).
//
// P17: every base of the target touches (WME-P02) at least one enemy base, and every exposed
// edge has available length <= limit (1 cm, key min_contact_cm) + eps with terrain ignored.
// Note: the digest's "<= 1 cm" and W-R8's ">= 1 cm - eps is available" both hold for a length
// within eps of 1 cm; §5.4 step 5 consults pinned only when the zone is not available, so the
// engine asks the question only when it matters.
//
// Numbers: obstacles are taken in the edge's frame (along e from its first corner, and out from
// the target), where the probe is an axis-aligned box and each obstacle blocks an open interval
// of probe positions; the maximum is at the best end of a free stretch or where the whole probe
// (or the whole edge) fits. For an edge parallel to the table axes (headings 0/90/180/270) the
// frame is exact and so is the answer, a fraction. For other edges each obstacle vertex's
// coordinates in the frame, and the edge's length, are rounded to the grid once (half a unit,
// 0.05 µm, plus 2^-32 from a 32-bit square root), far below eps.
#ifndef PBEM_ENGINE_TABLE_AVAILABLE_H_
#define PBEM_ENGINE_TABLE_AVAILABLE_H_

#include <vector>

#include "engine/table/rect.h"

namespace pbem::table {

// An exact length num / den in units (den > 0).
struct ContactLength {
  Int128 num = 0;
  Int128 den = 1;
  int Compare(Coord t) const;  // sign(length - t)
  Coord FloorUnits() const;
};

// Edge `edge` (Rect::Edge: 0 front, 1 right, 2 rear, 3 left) of `base` is in edge contact with
// no base of `unit_others` (the other bases of its unit).
bool Exposed(const Rect& base, std::size_t edge, const std::vector<Rect>& unit_others, Coord eps,
             std::int64_t eps_millidegrees);

// WME-P11 for one edge. Obstacles: closed convex polygons (other bases; impassable terrain as
// convex pieces that overlap or share edges); the target base itself is not one.
ContactLength AvailableLength(const Rect& target, std::size_t edge, Coord probe_width,
                              Coord probe_depth, const std::vector<Polygon>& obstacles);

// WME-P17. `enemies`: the bases of the units hostile to the target; `others`: every other base
// that is neither the target unit's nor an enemy's (the target's friends). Terrain is ignored.
bool Pinned(const std::vector<Rect>& target_unit, const std::vector<Rect>& enemies,
            const std::vector<Rect>& others, Coord probe_width, Coord probe_depth, Coord limit,
            Coord eps, std::int64_t eps_millidegrees);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_AVAILABLE_H_
