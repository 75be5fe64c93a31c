// The dynamic state of a game between player-turns. Static unit data lives
// in the Scenario; `units` is parallel to Scenario::units (same UnitId).
#ifndef PBEM_ENGINE_MORNE_PLAINE_GAME_STATE_H_
#define PBEM_ENGINE_MORNE_PLAINE_GAME_STATE_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/hex/hex.h"
#include "engine/morne_plaine/ids.h"

namespace pbem::engine {

struct Ruleset;
struct Scenario;

// What digest 1.7 asks the engine to track per unit.
struct UnitState {
  std::optional<Hex> hex;  // nullopt: off the map (not placed yet) or eliminated
  int cs = 0;
  int mv = 0;
  int mv_initial = 0;
  bool eliminated = false;
  bool in_command = true;
  bool bombarded_this_turn = false;
  // Reaction fires this battery made in the current enemy player-turn
  // (digest 3.5; at most parameters.reaction_fire_per_enemy_turn).
  int reaction_fires = 0;
  bool stuck = false;
  bool moved_this_turn = false;
  std::vector<UnitId> charged_targets;
  bool victorious = false;
  bool has_attacked = false;
  bool has_been_attacked = false;

  bool demoralised() const { return mv == 0; }
  bool on_map() const { return hex.has_value() && !eliminated; }
};

enum class VictoryLevel : std::uint8_t { kDraw, kMinor, kTactical, kMajor, kTotal };

struct GameOutcome {
  std::optional<Side> winner;
  VictoryLevel level = VictoryLevel::kDraw;
  int vp_blue = 0;
  int vp_orange = 0;
};

struct GameState {
  std::string game_id;
  int turn = 1;
  Side side_to_move = Side::kBlue;
  std::vector<UnitState> units;
  std::map<Hex, Side> objective_owners;
  std::map<Hex, Side> fort_owners;
  bool finished = false;
  GameOutcome outcome;

  const UnitState& unit(UnitId id) const { return units[id.index()]; }
  UnitState& unit(UnitId id) { return units[id.index()]; }
  // The unit standing in `hex`, if any.
  std::optional<UnitId> UnitAt(Hex hex) const;
};

// The state at the start of a game: every unit at its start hex with its
// scenario values, objectives and forts with their initial owners.
GameState InitialState(const Scenario& scenario, std::string game_id);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_GAME_STATE_H_
