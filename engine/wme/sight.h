// Who sees whom and who is nearest (french-fantasy.md WME-P07, WME-P10), on the bases as they
// stand in `state` (after earlier moves this turn: visibility is re-evaluated at each
// declaration, §5.2 step 2).
//
// Readings chosen where the digest is open:
// - Blockers (WME-P10): the footprints of the bases of every unit other than the viewer's and
//   the target's, and every `blocks_los` feature (a fortification only with
//   fortification_blocks_los, GAP-39). A feature's see_into_cm is not modelled yet: the whole
//   feature blocks (engine/table vision.h).
// - "Nearest" compares unit distances (WME-P07) rounded down to a table unit (0.1 µm): units
//   closer together than that are equally near, and each of them counts as the nearest.
#ifndef PBEM_ENGINE_WME_SIGHT_H_
#define PBEM_ENGINE_WME_SIGHT_H_

#include <string>
#include <vector>

#include "engine/table/vision.h"
#include "engine/wme/ruleset.h"
#include "engine/wme/scenario.h"
#include "engine/wme/state.h"

namespace pbem::wme {

table::VisionArc ArcOf(const Ruleset& ruleset);

// WME-P10's blockers for a sightline from `viewer` to `target` (reading above).
std::vector<table::Polygon> Blockers(const Ruleset& ruleset, const Scenario& scenario,
                                     const State& state, const std::string& viewer,
                                     const std::string& target);

// WME-P10: some base of `viewer` sees some base of `target`.
bool UnitSees(const Ruleset& ruleset, const Scenario& scenario, const State& state,
              const std::string& viewer, const std::string& target);

// WME-P07, rounded down to a unit; base indices into State::bases.
table::Coord BaseDistanceFloor(const State& state, std::size_t a, std::size_t b);
table::Coord UnitDistanceFloor(const State& state, const std::string& a, const std::string& b);
// Exact: dist(a, b) <= limit.
bool UnitWithin(const State& state, const std::string& a, const std::string& b, table::Coord limit);

// The enemy units `unit` sees within `range` (WME-P07 <= range + eps), and among them the
// nearest (all of them when tied, in state order).
struct NearestVisible {
  std::vector<std::string> in_range;
  std::vector<std::string> nearest;
};
NearestVisible NearestVisibleEnemies(const Ruleset& ruleset, const Scenario& scenario,
                                     const State& state, const std::string& unit,
                                     table::Coord range);

}  // namespace pbem::wme

#endif  // PBEM_ENGINE_WME_SIGHT_H_
