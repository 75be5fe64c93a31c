// An order's legs (french-fantasy.md §5.1, WME-P03) turned into engine/table legs: translate
// targets and rotation pivots in table units, named pivots (CENTRE, FL, FR, RL, RR) taken on
// the base as it stands at the start of that leg. Untrusted input: every number is
// bound-checked and a refused leg makes the whole base order MALFORMED_LEG (§5.3 step 1).
#ifndef PBEM_ENGINE_WME_LEGS_H_
#define PBEM_ENGINE_WME_LEGS_H_

#include <optional>
#include <vector>

#include "engine/table/motion.h"
#include "engine/wme/orders.h"

namespace pbem::wme {

struct PlannedLegs {
  std::vector<table::Leg> legs;
  std::vector<table::Rect> poses;  // poses[k] = the base before leg k; poses.back() = the end
  const table::Rect& end() const { return poses.back(); }
};

// What MALFORMED_LEG means: no leg; more than `max_legs`; a coordinate beyond engine/table's
// range (|x| > 2^29 units, 5.4 km); a rotation of more than one full turn; a pose that would
// leave the coordinate range. Coordinates off the table but in range are OFF_TABLE (step 4).
std::optional<PlannedLegs> PlanLegs(const table::Rect& start, const std::vector<LegOrder>& legs,
                                    std::size_t max_legs);

// W-R1 "the same rigid motion": as many legs, translations with equal displacement within eps,
// rotations with equal angles within eps_mdeg about pivots within eps of each other.
bool SameRigidMotion(const PlannedLegs& a, const PlannedLegs& b, table::Coord eps,
                     std::int64_t eps_mdeg);

}  // namespace pbem::wme

#endif  // PBEM_ENGINE_WME_LEGS_H_
