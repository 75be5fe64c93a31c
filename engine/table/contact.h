// WME-P04 contact kinds between two rectangular bases that touch (WME-P02).
//
// Reading of "their boundaries share a segment longer than eps" on the grid: an edge e of one
// base and an edge g of the other are in contact along a segment when they are parallel within
// the angle tolerance (0.5 degrees, key epsilon_deg), at most eps apart, and the overlap of
// their projections on e's line is longer than eps. Two touching bases with no such pair meet
// at a point, which for convex shapes is a corner of one of them: a corner contact. Frontal
// contact (W-R2): the charger's front edge is in contact with an edge of the other base; the
// edge tells front (0), right flank (1), rear (2) or left flank (3).
#ifndef PBEM_ENGINE_TABLE_CONTACT_H_
#define PBEM_ENGINE_TABLE_CONTACT_H_

#include <cstddef>
#include <optional>

#include "engine/table/rect.h"

namespace pbem::table {

enum class Contact { kNone, kCorner, kEdge };

// Edge index of each base (Rect::Edge: 0 front, 1 right, 2 rear, 3 left).
struct EdgePair {
  std::size_t a = 0;
  std::size_t b = 0;
};

// Edges e and g in contact along a segment longer than eps (the reading above).
bool EdgesInContact(const Segment& e, const Segment& g, Coord eps, std::int64_t eps_millidegrees);

// The first pair (a's edges, then b's, in index order) in contact along a segment.
std::optional<EdgePair> EdgeContact(const Rect& a, const Rect& b, Coord eps,
                                    std::int64_t eps_millidegrees);

Contact ContactKind(const Rect& a, const Rect& b, Coord eps, std::int64_t eps_millidegrees);

// The target's edge the charger's front edge is in contact with, if any.
std::optional<std::size_t> FrontalContactEdge(const Rect& charger, const Rect& target, Coord eps,
                                              std::int64_t eps_millidegrees);

// WME-P18 fortified contact [GAP-27]: the charger's front edge is in contact (as above) with
// the fortification's outer face, and the target's front edge lies behind that face (on the
// other side from the charger's centre) within `reach` (wall thickness + 1 cm) of its line at
// both ends (+ eps), and overlaps the charger's frontage along the face by more than eps.
bool FortifiedContact(const Rect& charger, const Segment& outer_face, const Rect& target,
                      Coord reach, Coord eps, std::int64_t eps_millidegrees);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_CONTACT_H_
