// The rules of a game system as plain data: movement classes, terrain, unit
// types, hexside and route rules, the combat results table, terrain effects
// on combat and every configurable parameter (digest sections 12 and 13).
// Built by the codec from text-format files and checked by ValidateRuleset;
// the engine reads it and never changes it.
#ifndef PBEM_ENGINE_MORNE_PLAINE_RULESET_H_
#define PBEM_ENGINE_MORNE_PLAINE_RULESET_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/rational.h"
#include "engine/morne_plaine/ids.h"

namespace pbem::engine {

struct MovementClass {
  std::string name;
  std::string description;
};

// The cost for one movement class to enter a terrain. `impassable` is an
// explicit flag, never a magic number.
struct MoveCost {
  bool impassable = false;
  int cost = 0;
  // Cost when coming from an adjacent hex of the same terrain (village).
  std::optional<int> cost_from_same_terrain;
};

struct TerrainType {
  std::string name;
  std::string name_fr;
  // Indexed by MovementClassId; nullopt where the data gave no entry
  // (ValidateRuleset reports it).
  std::vector<std::optional<MoveCost>> move_costs;
  // Indexed by MovementClassId: stuck when a d4 draw <= chance (0: no test).
  std::vector<int> stuck_chance_in_4;
  bool blocks_los = false;
  bool charge_proof = false;
  bool charge_path = false;
  bool uncontrollable = false;
  bool fort = false;
  bool no_artillery_fire = false;
  int bombard_target_modifier = 0;
  int retreat_preference = 0;
  int advance_rank_foot = 0;
  int advance_rank_mounted = 0;
  std::string colour;
};

// Values printed on a counter (digest 1.5); leaders have no MV.
struct UnitValues {
  std::optional<int> cs;
  std::optional<int> mv;
  std::optional<int> ma;
  std::optional<int> bv;
  std::optional<int> range;
  std::optional<int> command_radius;
};

struct UnitType {
  std::string name;
  Arm arm = Arm::kInfantry;
  MovementClassId movement_class;
  bool dromedary = false;
  bool horse_artillery = false;
  bool guard = false;
  UnitValues defaults;

  // Cavalry and leaders are mounted; dromedaries never are (digest 1.4).
  bool mounted() const { return (arm == Arm::kCavalry || arm == Arm::kLeader) && !dromedary; }
};

struct HexsideRules {
  int stream_cost = 1;
  int ford_cost = 1;
  int bridge_cost = 0;
  int single_slope_cost = 0;
};

struct RouteRules {
  std::vector<int> road_alternating_costs{0, 1};
  int track_cost = 1;
  // Cost along a track across a slope of N levels, index N = 0..3.
  std::vector<int> track_slope_costs{1, 1, 2, 3};
};

// One column of the CRT: the odds attacker:defender it stands for, e.g.
// "1.5-1" is 3/2 : 1 and "1-2" is 1 : 2.
struct OddsColumn {
  std::string label;
  Rational attacker;
  Rational defender;
};

struct CrtCell {
  int attacker_loss = 0;
  bool attacker_test = false;
  int defender_loss = 0;
  bool defender_test = false;
};

struct CombatResultsTable {
  std::vector<OddsColumn> columns;
  int min_result = 0;
  int max_result = 7;
  // rows[result - min_result][column]
  std::vector<std::vector<CrtCell>> rows;
};

struct TerrainCombatEffect {
  TerrainId terrain;
  std::vector<Arm> arms;  // empty: every arm
  Rational cs_multiplier{1};
  int attacker_die_modifier = 0;
};

enum class RulesVersion : std::uint8_t { kV2008Preferred, kV2006 };
enum class LosModel : std::uint8_t { kLevelsV1, kNone };
enum class HorseArtilleryMove : std::uint8_t { kHalfMaIfInCommand, kNoMove };
enum class MoraleDrmModel : std::uint8_t { kSignedTruncHalf, kAttackerOnly };
enum class SupportReuse : std::uint8_t { kUnlimited, kOnce };
enum class EliminationBonusScope : std::uint8_t { kCombatPhase, kAll };
enum class StrengthVpModel : std::uint8_t { kLossRatio, kNone };
enum class RallyModel : std::uint8_t { kV2008, kV2006 };

struct BombardModel {
  int die_faces = 6;
  int max_range_modifier = 1;
  int loss_mv = 1;
  int double_loss_margin = 2;
};

struct ServiceDefaults {
  int turn_reminder_days = 3;
  int turn_timeout_days = 14;
  bool dead_games_ranked = false;
  int max_games_new = 2;
  int max_games_after_first = 8;
  int max_games_subscriber = 30;
  int ranked_after_games = 4;
};

// Every configurable parameter with the digest's default (section 13).
struct Parameters {
  RulesVersion rules_version = RulesVersion::kV2008Preferred;
  std::string leaders_move_as = "cavalry";
  bool marsh_test_on_road = true;  // ruling R1
  int min_bombard_distance = 1;
  bool bombard_allowed_in_enemy_zoc = true;
  LosModel los_model = LosModel::kLevelsV1;
  BombardModel bombard;
  int reaction_fire_per_enemy_turn = 1;
  HorseArtilleryMove horse_artillery_post_fire_move = HorseArtilleryMove::kHalfMaIfInCommand;
  int charge_advance_cost = 0;
  Rational charge_cs_multiplier{3, 2};
  MoraleDrmModel morale_drm_model = MoraleDrmModel::kSignedTruncHalf;
  bool leaders_may_attack = true;
  bool artillery_may_attack = true;
  SupportReuse support_reuse = SupportReuse::kUnlimited;
  bool artillery_retreats_after_combat = true;
  bool advance_after_elimination = true;
  EliminationBonusScope elimination_bonus_scope = EliminationBonusScope::kCombatPhase;
  StrengthVpModel strength_vp_model = StrengthVpModel::kLossRatio;
  int strength_vp_gap_percent = 25;
  bool passing_includes_forced_moves = true;
  bool allow_min_move = false;
  bool command_blocked_by_terrain = false;
  bool leaderless_out_of_command = true;
  RallyModel rally_model = RallyModel::kV2008;
  Rational water_attack_multiplier{1, 2};
  bool combat_across_river_crossings = true;
  bool mounted_leave_any_control = false;
  bool mounted_never_leave_fort = true;
  int leader_strength_points = 30;
  int hill_rank = 1;
  int zoc_leave_cost = 1;  // digest 4.6: leaving an enemy ZoC, +1 MP
  ServiceDefaults service;
};

struct Ruleset {
  std::string name;
  std::string version;
  std::string description;
  std::vector<MovementClass> movement_classes;
  std::vector<TerrainType> terrain;
  std::vector<UnitType> unit_types;
  HexsideRules hexsides;
  RouteRules routes;
  CombatResultsTable crt;
  std::vector<TerrainCombatEffect> terrain_combat;
  Parameters params;

  std::optional<TerrainId> FindTerrain(std::string_view name) const;
  std::optional<MovementClassId> FindMovementClass(std::string_view name) const;
  std::optional<UnitTypeId> FindUnitType(std::string_view name) const;
  const TerrainType& terrain_type(TerrainId id) const { return terrain[id.index()]; }
  const UnitType& unit_type(UnitTypeId id) const { return unit_types[id.index()]; }
};

// A problem found in a ruleset. `path` names the field in the merged
// ruleset's text-format structure, with list indices, e.g.
// "terrain[3].move_costs" or "crt.rows[2].cells[5]"; the codec turns it into
// a file and line.
struct RulesetProblem {
  std::string path;
  std::string message;
};

// Checks what the types cannot: names unique and non-empty, every terrain has
// a cost for every movement class, the CRT is complete (one row per result,
// one cell per column, columns in increasing odds), parameters in range,
// leaders_move_as names a movement class. Empty result: valid.
std::vector<RulesetProblem> ValidateRuleset(const Ruleset& ruleset);

// Parses a CRT odds label ("1-8", "1.5-1", "1-1.5", "3-1").
std::optional<OddsColumn> ParseOddsColumn(std::string_view label);

// Parses a CRT cell ("3*/0", "1/1", "0/2*").
std::optional<CrtCell> ParseCrtCell(std::string_view text);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_RULESET_H_
