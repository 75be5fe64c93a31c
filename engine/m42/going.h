// Step 4 of the validation pipeline (m42.md §5.2): one model's path against the table, its
// terrain and the other models, giving everything steps 5-9 judge. Every predicate is
// engine/table's (README.md there); this file only decides which feature a predicate is asked
// about and what Going it gives (§2.2).
#ifndef PBEM_ENGINE_M42_GOING_H_
#define PBEM_ENGINE_M42_GOING_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/m42/ruleset.h"
#include "engine/m42/scenario.h"
#include "engine/m42/state.h"
#include "engine/table/path.h"
#include "engine/table/shapes.h"

namespace pbem::m42 {

// A path vertex after step 1: table units, with its floor (M42-P03, M42-P10).
struct FloorPoint {
  table::Point p;
  int floor = 0;
};

// What a moving model's path collects. Id lists are sorted byte-wise without repeats, so the
// front is the one a reason names (M-R4).
struct ModelGeometry {
  std::vector<std::string> slow;        // features and models (M42-R05, R10, R14, R16, R17, R23)
  std::vector<std::string> difficult;   // features (M42-R06, R18, R21, R22)
  std::vector<std::string> impassable;  // features (M42-R08, R19, M-R6)
  bool level_change_outside_floor = false;          // M42-P10
  bool off_floor = false;                           // M42-P10
  bool off_table = false;                           // M42-P17, GAP-17
  std::vector<std::string> crosses_non_task_force;  // models (GAP-12)
  std::vector<std::string> ends_on_friendly;        // models (M42-R11, P13)
  std::vector<std::string> ends_on_obstacle;        // features (GAP-18, P07, P08)
  std::optional<std::string> end_structure;         // the structure of the last floor >= 1
  table::PathLength length;                         // M42-P03 (vertical steps count 0)
};

// The path's plan view: the points in order, a vertical step's repeated point dropped.
table::Polyline PlanPath(const std::vector<FloorPoint>& path);

// M42-P06..P13, P17 for model `models[index]` moving along `path` (path[0] = its stored
// position). `models` holds every model where it stands at that moment (sequence semantics,
// M42-P12: models listed earlier already at their new positions).
ModelGeometry MeasureModel(const Ruleset& ruleset, const Scenario& scenario, const UnitSpec& unit,
                           const std::vector<ModelState>& models,
                           const std::vector<UnitState>& units, std::size_t index,
                           const std::vector<FloorPoint>& path);

// M42-P18 with GAP-05: the action's allowance in whole inches after Difficult Going.
int Allowance(const Ruleset& ruleset, Action action, int mv_in, std::size_t difficult_features);

}  // namespace pbem::m42

#endif  // PBEM_ENGINE_M42_GOING_H_
