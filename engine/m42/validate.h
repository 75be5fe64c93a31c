// The validation pipeline of one unit's action (m42.md §5.2 steps 1-10): the first failing
// step decides and the whole unit's action is one order. Walked step by step (ruling M-R3):
// each of steps 2-10 checks every model in listed order before the next step starts, and one
// model's codes are tried in the order its step writes them. Step 1 tries its codes in the
// order §5.2 writes them, each over every listed model: UNKNOWN_UNIT, UNKNOWN_MODEL,
// MODEL_NOT_IN_UNIT, DUPLICATE_MODEL, MALFORMED_PATH, PATH_START_MISMATCH, UNIT_ALREADY_ACTED,
// NOT_ACTIVE_PLAYER.
//
// Readings chosen where the digest is open (stated here, tested in tests/engine/m42):
// - A removed model (alive = false) is UNKNOWN_MODEL: it is no longer on the table.
// - NOT_ACTIVE_PLAYER: the orders' player is not the active one, or the unit is not theirs.
// - MALFORMED_PATH: more vertices than max_path_vertices; a coordinate beyond engine/table's
//   range (|x| > 2^29 units, about 2,113"); a floor < 0 or > 1000; a vertex that changes floor
//   and (x, y) at once (M42-P03: a vertical step keeps (x, y)). Coordinates off the table but
//   in range are OFF_TABLE (step 5).
// - PATH_START_MISMATCH: the first vertex is farther than epsilon from the model's centre, or
//   names another floor. The first vertex, and the vertical steps that follow it at the same
//   written point, are then replaced by the stored position (M-R2).
// - M-R2: a path no longer than epsilon with no floor change is no path. A model with no path
//   collects nothing and is checked only for coherency (M-R9).
// - Enemy clearance (step 8) concerns models that move; coherency (step 10) is checked when at
//   least one model of the unit moves ("When a unit moves", M42-R29), over every living model
//   of the unit: listed ones in listed order, then the others in id order (M42-P14).
// - Sequence semantics (M42-P12) hold for ending overlap too: a model may not end on the spot
//   a model listed after it still occupies, even if that one moves away later.
// - Step 9 checks ending overlap against every other model (M42-P13); an enemy is already
//   excluded by step 8.
#ifndef PBEM_ENGINE_M42_VALIDATE_H_
#define PBEM_ENGINE_M42_VALIDATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/m42/going.h"
#include "engine/m42/orders.h"
#include "engine/m42/ruleset.h"
#include "engine/m42/scenario.h"
#include "engine/m42/state.h"
#include "engine/m42/verdict.h"

namespace pbem::m42 {

// One listed model's planned action, filled as far as the pipeline got.
struct PlannedModel {
  std::size_t index = 0;                     // into State::models
  std::vector<FloorPoint> path;              // path[0] = the stored position (M-R2)
  bool moves = false;                        // M-R2
  std::optional<std::int64_t> face_mdeg;     // normalised to [0, 360000)
  ModelGeometry geometry;                    // step 4 (moving models only)
  int allowance = 0;                         // step 7, whole inches
  std::optional<std::string> closest_enemy;  // §5.3: the enemy nearest the path
  Thou closest_enemy_distance = 0;
};

struct ActionCheck {
  Verdict verdict;
  std::vector<PlannedModel> models;  // complete when verdict.kind == kOk
};

// Steps 1-10 for `order`, given by `player`, against `state` (unchanged). M42-R02..R23,
// R27..R34 through M42-P03..P14, P17, P18.
ActionCheck CheckAction(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                        const std::string& player, const UnitOrder& order);

}  // namespace pbem::m42

#endif  // PBEM_ENGINE_M42_VALIDATE_H_
