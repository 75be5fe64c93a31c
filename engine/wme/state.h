// The state of a game of the French mass-battle game between player-turns: where every base
// stands and faces, each unit's flags, and what each unit did this turn (french-fantasy.md
// §1.1-§1.3).
#ifndef PBEM_ENGINE_WME_STATE_H_
#define PBEM_ENGINE_WME_STATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/table/rect.h"
#include "engine/wme/ruleset.h"
#include "engine/wme/scenario.h"

namespace pbem::wme {

struct BaseState {
  std::string id;
  std::string unit;
  table::Point centre;
  std::int64_t heading_mdeg = 90000;  // normalised to [0, 360000)
  table::Coord width = 0;             // W and D in table units (§1.1, GAP-03)
  table::Coord depth = 0;
  bool alive = true;
};

struct UnitState {
  std::string id;
  std::string owner;
  TroopType troop_type = TroopType::kInfantry;
  Mount mount = Mount::kNonChoc;
  Milli speed_cm = 0;  // full speed (§1.4)
  bool engaged = false;
  bool confused = false;
  bool fortified = false;
  bool fanatic = false;
  int bases_lost = 0;
  bool moved_by_initiative = false;  // this turn (WME-R01)
  bool moved_by_order = false;
};

struct CommanderState {
  std::string id;
  std::string owner;
  table::Point centre;
  table::Coord radius = 0;
  bool general = false;
  bool on_flyer = false;
  std::optional<std::string> attached_to;
};

struct State {
  int turn = 1;
  std::size_t active_player = 0;  // index into Scenario::players
  std::vector<BaseState> bases;   // scenario order
  std::vector<UnitState> units;   // scenario order
  std::vector<CommanderState> commanders;
};

// Scenario data an engine cannot use, named by a stable code and the offending id.
struct ScenarioProblem {
  std::string code;  // "duplicate_id", "unknown_unit", "unknown_owner", "no_players",
                     // "no_speed", "bad_base", "empty_unit", "bad_table"
  std::string id;
  friend bool operator==(const ScenarioProblem&, const ScenarioProblem&) = default;
};

struct InitialStateResult {
  std::optional<State> state;  // set when `problems` is empty
  std::vector<ScenarioProblem> problems;
};

// The state at the start of the game: every base where the scenario puts it, sized by its
// unit's mount (§1.1, GAP-03), no unit has moved, the first listed player is active.
InitialStateResult InitialState(const Ruleset& ruleset, const Scenario& scenario);

// Millidegrees normalised to [0, 360000).
std::int64_t NormaliseHeading(std::int64_t mdeg);

// The footprint of a base (WME-P01). Always exists for a state built by InitialState and moved
// by this engine (both bound-check every pose).
table::Rect Footprint(const BaseState& base);
std::optional<table::Rect> FootprintAt(const BaseState& base, table::Point centre,
                                       std::int64_t heading_mdeg);

// Lookups by id (nullptr when absent).
const BaseState* FindBase(const State& state, const std::string& id);
const UnitState* FindUnit(const State& state, const std::string& id);
UnitState* FindUnit(State& state, const std::string& id);

// The indices into State::bases of the unit's living bases, in state order.
std::vector<std::size_t> BasesOf(const State& state, const std::string& unit);

}  // namespace pbem::wme

#endif  // PBEM_ENGINE_WME_STATE_H_
