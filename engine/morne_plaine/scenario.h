// A scenario as the engine sees it: the map, the units with their resolved
// values, objectives, deployment zones and the length of the game.
#ifndef PBEM_ENGINE_MORNE_PLAINE_SCENARIO_H_
#define PBEM_ENGINE_MORNE_PLAINE_SCENARIO_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/hex/hex.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/map.h"

namespace pbem::engine {

// One unit with every value resolved (scenario values over type defaults).
struct UnitSpec {
  std::string id;
  std::string name;
  Side side = Side::kBlue;
  std::string corps;
  UnitTypeId type;
  Arm arm = Arm::kInfantry;
  int cs = 0;
  int mv = 0;  // leaders: 0 (they have no MV)
  int ma = 0;
  int bv = 0;
  int range = 0;
  int command_radius = 0;
  std::optional<Hex> start_hex;  // nullopt: off the map, placed in set-up
  bool independent = false;
  bool fixed = false;

  bool is_leader() const { return arm == Arm::kLeader; }
};

enum class ObjectiveKind : std::uint8_t { kOccupied, kPassing, kOccupiedZone, kPassingZone };

struct Objective {
  std::string name;
  ObjectiveKind kind = ObjectiveKind::kOccupied;
  std::vector<Hex> hexes;
  int vp_blue = 0;
  int vp_orange = 0;
  std::optional<Side> initial_owner;
};

struct Scenario {
  std::string name;
  std::string title;
  std::string description;
  std::string ruleset;
  Map map;
  std::vector<UnitSpec> units;
  std::vector<Objective> objectives;
  // Deployment zones per side, indexed by static_cast<int>(Side).
  std::set<Hex> deployment[2];
  std::map<Hex, Side> fort_owners;
  int turns = 12;
  Side first_side = Side::kBlue;
  bool setup_only_first_turn = false;

  std::optional<UnitId> FindUnit(std::string_view id) const;
  const UnitSpec& unit(UnitId id) const { return units[id.index()]; }
  // The leader of a corps of a side, if the scenario has one.
  std::optional<UnitId> LeaderOf(Side side, std::string_view corps) const;

  // Lookup tables for FindUnit and LeaderOf, which otherwise scan every unit
  // (a turn of 800 units a side calls them for every unit: turn_bench).
  // IndexUnits builds them once the units are final (the codec does). They
  // never change an answer for a valid scenario (unique ids, one leader per
  // corps: ValidateScenario): a hit is checked against `units`, and a miss or
  // a stale entry falls back to the scan, so a scenario built or edited by
  // hand without (re)indexing is only slower.
  void IndexUnits();
  std::unordered_map<std::string, std::int32_t> unit_index;
  std::map<std::pair<Side, std::string>, std::int32_t> leader_index;
};

// Problems a scenario can have that its parser cannot see (stacked units,
// units outside the map, a corps with two leaders). Each names the unit or
// hex; empty: valid.
struct ScenarioProblem {
  std::string path;
  std::string message;
};
std::vector<ScenarioProblem> ValidateScenario(const Scenario& scenario);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_SCENARIO_H_
