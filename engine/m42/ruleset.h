// M42's ruleset: every parameter of the digest's §9 parameter block and every GAP DEFAULT of §8,
// as named fields holding the digest's defaults (m42.md; README.md in this folder maps each
// field to its key, default and source).
//
// Lengths are `Thou`: thousandths of an inch (ruling M-R1), so every digest number is an exact
// integer (0.01" = 10, 0.25" = 250). A field named after a key ending in `_in` holds that key's
// value in thousandths. Table units (engine/table) are ToUnits(thou) = thou * 254.
#ifndef PBEM_ENGINE_M42_RULESET_H_
#define PBEM_ENGINE_M42_RULESET_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/table/fixed.h"

namespace pbem::m42 {

// Thousandths of an inch (M-R1).
using Thou = std::int64_t;
inline constexpr Thou kThouPerInch = 1000;
constexpr table::Coord ToUnits(Thou thou) { return thou * table::kUnitsPerThousandthInch; }
// Table units back to Thou for reports (verdict.h, event.h): a length to the nearest thousandth
// (halves up), a distance rounded down (negative distances report 0).
constexpr Thou NearestThou(table::Coord units) {
  return (units + table::kUnitsPerThousandthInch / 2) / table::kUnitsPerThousandthInch;
}
constexpr Thou FloorThou(table::Coord units) {
  return units < 0 ? 0 : units / table::kUnitsPerThousandthInch;
}

// The four actions of [ACT-052] (§1.4). Names are the order format's (§5.1).
enum class Action : std::uint8_t { kAdvance, kAtTheDouble, kOpenFire, kGetDown };
inline constexpr std::size_t kActionCount = 4;
std::string_view ActionName(Action action);  // "ADVANCE", "AT_THE_DOUBLE", ...

// Going (§2.2): a set of flags; Clear is the empty set.
struct Going {
  bool slow = false;
  bool difficult = false;
  bool impassible = false;
  friend bool operator==(const Going&, const Going&) = default;
};

// One band of the obstacle table (§9 obstacle_bands): heights up to `max` (inclusive when
// `inclusive`; no `max` = infinity) have `going`. Bands are tried in order.
struct ObstacleBand {
  std::optional<Thou> max;
  bool inclusive = true;
  Going going;
};

enum class Measure : std::uint8_t { kBaseEdge, kCentre };  // GAP-03
enum class DifficultModel : std::uint8_t {                 // GAP-05
  kHalveAllowanceOnce,
  kDoubleCostInside,  // named by the digest as an alternative; not implemented (CheckRuleset)
  kHalvePerFeature,
};
enum class CoherencyCheck : std::uint8_t { kConnected, kSequence };   // GAP-13
enum class TaskForceScope : std::uint8_t { kPlayer, kScenario };      // GAP-12
enum class NonTaskForceFriend : std::uint8_t { kImpassable, kSlow };  // GAP-12
enum class HillSlowOn : std::uint8_t { kAscentOnly, kAnyCrossing };   // GAP-24
enum class FloorAccess : std::uint8_t { kAnywhere };                  // GAP-09
enum class TableEdge : std::uint8_t { kWall, kNone };                 // GAP-17
enum class FacingDefault : std::uint8_t { kKeep };                    // GAP-16
enum class OnIllegalOrder : std::uint8_t { kHoldAndSpend };           // GAP-20
enum class Roads : std::uint8_t { kNone };                            // GAP-21

struct Ruleset {
  std::string ruleset = "m42_movement_v0_5";
  // `units: inch` is implied by Thou.
  Thou epsilon_in = 10;                  // §0.3
  Thou default_base_diameter_in = 1000;  // GAP-02
  Measure measure = Measure::kBaseEdge;  // GAP-03
  bool distance_3d = false;              // GAP-14, GAP-25 (true: not implemented)
  // GAP-01; indexed by Action. ADVANCE 1 and AT_THE_DOUBLE 2 are sourced (001:L13-16).
  std::array<int, kActionCount> action_move_factor{1, 2, 0, 0};
  DifficultModel difficult_model = DifficultModel::kHalveAllowanceOnce;  // GAP-05
  Thou enemy_clearance_in = 2000;                                        // sourced, 001:L59-62
  Thou close_combat_range_in = 6000;  // sourced, 001:L104-106; GAP-15
  Thou coherency_in = 2000;           // sourced, 001:L134-137; SPREAD(n) overrides
  CoherencyCheck coherency_check = CoherencyCheck::kConnected;  // GAP-13
  bool leader_moves_first = false;                              // GAP-13 (true: not implemented)
  TaskForceScope task_force_scope = TaskForceScope::kPlayer;    // GAP-12, M-R8
  NonTaskForceFriend non_task_force_friend = NonTaskForceFriend::kImpassable;  // GAP-12
  bool area_slow_when_inside = true;                                           // GAP-07, M-R9
  HillSlowOn hill_slow_on = HillSlowOn::kAscentOnly;                           // GAP-24
  bool count_vertical_distance = false;                 // GAP-08 (true: not implemented)
  FloorAccess floor_access = FloorAccess::kAnywhere;    // GAP-09
  bool opening_requires_fit = true;                     // GAP-10
  bool leaper_ignores_walls = false;                    // GAP-11
  Thou linear_obstacle_thickness_in = 250;              // GAP-06
  bool allow_end_on_obstacle = false;                   // GAP-18
  bool explicit_impassable = true;                      // GAP-19, M-R6
  TableEdge table_edge = TableEdge::kWall;              // GAP-17
  FacingDefault facing_default = FacingDefault::kKeep;  // GAP-16
  OnIllegalOrder on_illegal_order = OnIllegalOrder::kHoldAndSpend;  // GAP-20
  Roads roads = Roads::kNone;                                       // GAP-21
  std::vector<ObstacleBand> obstacle_bands_normal;                  // §9; GAP-04 at exactly 4"
  std::vector<ObstacleBand> obstacle_bands_leaper;                  // §9; 001:L146-150
  // Not a digest key: the most vertices one model's path may have (hostile input, issue 16
  // acceptance: a 100,000-vertex path is MALFORMED_PATH). Engine limit.
  std::size_t max_path_vertices = 64;
};

// The digest's §9 block, every value set explicitly.
Ruleset DefaultRuleset();

// The Going of an obstacle of height `height` (M42-R17..R19, M42-R31): the first band that
// holds it; Impassible when none does.
Going ObstacleGoing(const std::vector<ObstacleBand>& bands, Thou height);

// A ruleset value this engine cannot honour: the key and why (stable codes, never English).
struct RulesetProblem {
  std::string key;
  std::string code;  // "not_implemented", "out_of_range", "bands_not_increasing"
  friend bool operator==(const RulesetProblem&, const RulesetProblem&) = default;
};
std::vector<RulesetProblem> CheckRuleset(const Ruleset& ruleset);

}  // namespace pbem::m42

#endif  // PBEM_ENGINE_M42_RULESET_H_
