// Leaving the table (french-fantasy.md §6, WME-R67..R69, WME-P14). Voluntary moves may not leave
// it (OFF_TABLE, validate.h, GAP-29); forced moves (*Gaffe*, recoil, push-back) come from other
// chapters. These functions are what such a move calls once the unit has left: where it left,
// its fate roll, and where it comes back.
//
// Readings chosen where the digest is open:
// - Exit point (GAP-30): for each table edge, the segment of the edge line spanned by the parts
//   of the unit's footprints beyond it; "if several edges, the one crossed first": the edge the
//   unit is farthest beyond (the move's history is not known here), ties in the order west,
//   east, south, north. The exit point is that segment's midpoint, rounded to the grid.
// - Fate (GAP-06): one D6 + off_table_modifier_per_lost_base x bases_lost, the first band of
//   off_table_fate whose max holds it (a value above every max is the last band).
// - Return (WME-R68, §6 step 4, W-R10): the living bases in state order, in LINE (the DEFAULT for
//   every type), heading into the table, rear edges on the edge, laid from the lower coordinate
//   along the edge up, centred on the exit point; slid by 0, +s, -s, +2s, ... (s =
//   reentry_step_cm; at equal slide the side towards the edge's midpoint first; from the exact
//   midpoint, +x or +y first) until no base overlaps a base (WME-R25) or comes within
//   reentry_enemy_gap_cm - eps of an enemy base, and every base is on the table. Terrain is not
//   consulted (the digest names only bases).
// - The general (WME-R69): attached to the unit and its fate is not RETURN_NOW -> the army
//   withdraws at the end of the current phase and the general counts as lost.
#ifndef PBEM_ENGINE_WME_OFFTABLE_H_
#define PBEM_ENGINE_WME_OFFTABLE_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/wme/dice.h"
#include "engine/wme/ruleset.h"
#include "engine/wme/scenario.h"
#include "engine/wme/state.h"

namespace pbem::wme {

enum class TableEdge : std::uint8_t { kWest, kEast, kSouth, kNorth };

struct ExitPoint {
  TableEdge edge = TableEdge::kWest;
  table::Point point;
};

// WME-P14: some living base of `unit` is beyond a table edge by more than eps.
bool LeftTable(const Ruleset& ruleset, const Scenario& scenario, const State& state,
               const std::string& unit);

// §6 step 2; nullopt when the unit has not left the table.
std::optional<ExitPoint> FindExitPoint(const Ruleset& ruleset, const Scenario& scenario,
                                       const State& state, const std::string& unit);

struct ReturnPose {
  std::string base;
  table::Point centre;
  std::int64_t heading_mdeg = 0;
};

// §6 step 4: the return poses, or nullopt when no place along the edge is legal.
std::optional<std::vector<ReturnPose>> ReturnPlacement(const Ruleset& ruleset,
                                                       const Scenario& scenario, const State& state,
                                                       const std::string& unit,
                                                       const ExitPoint& exit);

struct OffTableResult {
  ExitPoint exit;
  int roll = 0;      // the D6
  int modified = 0;  // roll + modifier x bases lost
  Fate fate = Fate::kLost;
  std::optional<std::vector<ReturnPose>> returned;  // RETURN_NOW: where it stands again
  bool general_lost = false;                        // WME-R69
  bool army_withdraws = false;
};

// §6 steps 2-5 for a unit that has left the table (LeftTable); nullopt otherwise. One D6.
std::optional<OffTableResult> ResolveLeftTable(const Ruleset& ruleset, const Scenario& scenario,
                                               const State& state, const std::string& unit,
                                               DiceSource& dice);

}  // namespace pbem::wme

#endif  // PBEM_ENGINE_WME_OFFTABLE_H_
