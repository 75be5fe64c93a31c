// WME-P08 evade direction [DEFAULT GAP-18, GAP-19]. Take the closest-point pairs (p in U,
// q in E) realising dist(U, E); if unique, u = p - q; if not (parallel edges), u joins the
// midpoints of the two closest-point sets. The closest points are exact rationals, rounded to
// the grid (halves away from zero) once: u is off by at most a unit (0.1 µm) at each end.
// A legal evade (first base): its first translation leg deviates from u by at most the
// tolerance (5 degrees, key evade_first_leg_tol_deg), and every translation leg has a strictly
// positive component along u.
#ifndef PBEM_ENGINE_TABLE_EVADE_H_
#define PBEM_ENGINE_TABLE_EVADE_H_

#include <optional>
#include <vector>

#include "engine/table/rect.h"

namespace pbem::table {

struct EvadeDirection {
  Point from;       // on the evading unit (a closest point, or the midpoint of the set)
  Point away_from;  // on the enemy
  Vector u() const { return from - away_from; }
};

// nullopt when a unit is empty or the units touch (distance 0: no direction).
std::optional<EvadeDirection> Evade(const std::vector<Rect>& unit, const std::vector<Rect>& enemy);

// The leg is within `tolerance_millidegrees` of u (and points the same way).
bool WithinAngle(Vector leg, Vector u, std::int64_t tolerance_millidegrees);

// The leg moves strictly away along u.
bool Away(Vector leg, Vector u);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_EVADE_H_
