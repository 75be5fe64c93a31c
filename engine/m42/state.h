// The state of an M42 game between player-turns: where every model stands and faces, and what
// each unit did in the current Action Phase (m42.md §1.1, §1.2).
#ifndef PBEM_ENGINE_M42_STATE_H_
#define PBEM_ENGINE_M42_STATE_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/m42/ruleset.h"
#include "engine/m42/scenario.h"
#include "engine/table/shapes.h"

namespace pbem::m42 {

struct ModelState {
  std::string id;
  std::string unit;
  table::Point pos;
  table::Coord radius = 0;  // base radius in table units (M42-P01)
  int floor = 0;
  std::optional<std::string> structure;  // set when floor >= 1
  std::int64_t facing_mdeg = 90000;      // normalised to [0, 360000)
  bool alive = true;
};

struct UnitState {
  std::string id;
  std::string owner;
  std::string task_force;        // the owner under task_force_scope: player (M-R8)
  bool acted = false;            // in the current Action Phase
  std::optional<Action> action;  // none when it has not acted, or was held (GAP-20)
  // Enemy units it is in Close-Combat with after this Action Phase (M42-R24, M42-P15); the
  // Close-Combat phase that follows (M42-R25) is out of scope; cleared when the next
  // player-turn is resolved.
  std::set<std::string> close_combat_with;
};

struct State {
  int turn = 1;
  std::size_t active_player = 0;   // index into Scenario::players
  std::vector<ModelState> models;  // scenario order
  std::vector<UnitState> units;    // scenario order
};

// Scenario data an engine cannot use, named by a stable code and the offending id.
struct ScenarioProblem {
  std::string code;  // "duplicate_id", "unknown_unit", "unknown_owner", "no_players",
                     // "bad_base", "bad_mv", "missing_task_force", "unknown_structure",
                     // "bad_floor", "steps_not_nested", "bad_table"
  std::string id;
  friend bool operator==(const ScenarioProblem&, const ScenarioProblem&) = default;
};

struct InitialStateResult {
  std::optional<State> state;  // set when `problems` is empty
  std::vector<ScenarioProblem> problems;
};

// The state at the start of the game: every model alive where the scenario puts it, no unit
// has acted, the first listed player is active (§1; M-R8 for Task Forces).
InitialStateResult InitialState(const Ruleset& ruleset, const Scenario& scenario);

// Millidegrees normalised to [0, 360000).
std::int64_t NormaliseHeading(std::int64_t mdeg);

// Lookups by id (nullptr when absent).
const ModelState* FindModel(const State& state, const std::string& id);
const UnitState* FindUnit(const State& state, const std::string& id);

}  // namespace pbem::m42

#endif  // PBEM_ENGINE_M42_STATE_H_
