// Victory at the end of the game (digest 8): objectives, strength points,
// the level of victory by VP difference.
#ifndef PBEM_ENGINE_MORNE_PLAINE_VICTORY_H_
#define PBEM_ENGINE_MORNE_PLAINE_VICTORY_H_

#include <optional>
#include <string_view>
#include <vector>

#include "engine/core/rational.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"

namespace pbem::engine {

// "draw", "minor", "tactical", "major", "total" (the kGameEnd event's level).
std::string_view VictoryLevelName(VictoryLevel level);

// Digest 8.3: 0 draw, 1 minor, 2 tactical, 3 major, 4 or more total.
// `difference` is taken as an absolute value.
VictoryLevel LevelForDifference(int difference);

// True when the player-turn of state.side_to_move in state.turn is the last
// one of the game: the scenario's last turn (or later), side moving second.
bool IsLastPlayerTurn(const Scenario& scenario, const GameState& state);

// The side that holds `objective` at the end of the game, if any:
//  - occupied hex: the side of the non-leader unit standing on it (digest
//    8.1, R9: a leader never takes an objective);
//  - passing hex: its owner in state.objective_owners (digest 8.1, 8.4);
//  - occupied zone: the side with non-leader units on strictly more of its
//    hexes than the other side (DEFAULT; a tie, 0-0 included, is nobody's);
//  - passing zone: the side owning strictly more of its hexes (DEFAULT; a tie
//    is nobody's).
// An objective with several hexes of a non-zone kind is scored like the zone
// of the same kind.
std::optional<Side> ObjectiveHolder(const Scenario& scenario, const GameState& state,
                                    const Objective& objective);

// Digest 8.2 strength value of a unit with its current `cs` and `mv`:
// leader = leader_strength_points, infantry and cavalry = CS x MV, artillery
// = BV x range (BV and range never change, so a battery keeps its full value
// until eliminated). An eliminated unit counts 0.
int UnitStrength(const Ruleset& ruleset, const UnitSpec& spec, int cs, int mv, bool eliminated);

// The strength comparison of digest 8.2 (strength_vp_model loss_ratio).
struct StrengthComparison {
  int initial[2] = {0, 0};   // by static_cast<int>(Side): scenario values
  int current[2] = {0, 0};   // the state's values, eliminated units 0
  Rational lost[2];          // (initial - current) / initial; 0 when initial is 0
  std::optional<Side> side;  // the side whose opponent lost the larger fraction
  int vp = 0;                // 0, 1, or 2 when the gap is >= strength_vp_gap_percent points
};
StrengthComparison CompareStrength(const Ruleset& ruleset, const Scenario& scenario,
                                   const GameState& state);

// Scores the game as it stands (digest 8) and logs, in phase kEndOfTurn:
//  - one kVictoryPoints event per scenario objective, in scenario order:
//    hexes = the objective's hexes, args {name, holder side or "none", VP
//    it earns the holder (0 for nobody)};
//  - unless strength_vp_model is kNone, one kVictoryPoints event for the
//    strength comparison, no hexes, args {"strength", side or "none", VP,
//    blue fraction lost, orange fraction lost} (fractions as "a/b" text);
//  - one kGameEnd event {winner side or "draw", level name, vp_blue,
//    vp_orange}.
GameOutcome ScoreGame(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
                      std::vector<Event>& events);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_VICTORY_H_
