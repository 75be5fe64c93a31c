// The arithmetic of the combat phase (digest 5.2 to 5.6): contact, supports,
// corrected strengths, odds, the modified die and the CRT lookup. Pure
// questions about a board position; nothing here changes a state. The phase
// that applies them is combat_phase.h.
#ifndef PBEM_ENGINE_MORNE_PLAINE_COMBAT_H_
#define PBEM_ENGINE_MORNE_PLAINE_COMBAT_H_

#include <cstdint>
#include <vector>

#include "engine/core/rational.h"
#include "engine/hex/hex.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/map.h"
#include "engine/morne_plaine/movement.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"

namespace pbem::engine {

// "In contact" for combat and supports (digest 1.9, 5.1, ruling R8): adjacent
// hexes on the map, not across a slope of two levels or more, nor across a
// river or major river - except at a bridge or ford when
// parameters.combat_across_river_crossings (#24). Streams never prevent it.
bool InCombatContact(const Ruleset& ruleset, const Map& map, Hex a, Hex b);

// The units that support `focus`'s opponent automatically (digest 5.2):
// every other unit of `side` on the map in contact with `focus`, not
// demoralised, and in contact with no enemy unit other than `focus` -
// unless it is victorious (then it always supports). `exclude` (the attacker
// or the defender itself) never supports. Listed in the order of `focus`'s
// neighbours, NE then clockwise.
std::vector<UnitId> CombatSupports(const Ruleset& ruleset, const Scenario& scenario,
                                   const GameState& state, UnitId focus, Side side, UnitId exclude);
// The same with `board` (which must match `state`) for the hex lookups: the
// combat phase keeps one up to date, so a support costs no scan of the units.
std::vector<UnitId> CombatSupports(const Ruleset& ruleset, const Scenario& scenario,
                                   const GameState& state, const Board& board, UnitId focus,
                                   Side side, UnitId exclude);

enum class CombatSide : std::uint8_t { kAttacking, kDefending };

// One unit's strength in one combat (digest 5.3, DEFAULT default_v1).
struct CorrectedStrength {
  int cs = 0;             // current CS
  int after_charge = 0;   // x charge_cs_multiplier, floor (attacking side, charged the defender)
  int after_terrain = 0;  // x terrain_combat multiplier of its own hex, floor (defending side)
  int after_water = 0;    // x water_attack_multiplier, floor (attacking side across water)
  int value = 0;          // after_water, at least 1
  // What the players' report names (issue 14 point 6): the terrain whose multiplier applied
  // (its ruleset name, empty when none did) and the water the unit attacks across ("stream",
  // "bridge" or "ford"; empty when not halved).
  std::string terrain;
  std::string water;
};

// The corrected CS of `unit` on `side` in a combat against/for `defender`:
// multipliers in the order charge, terrain, water, each result rounded down
// (one reading of "round down each unit's modified CS"; it differs from
// rounding the product once only in rare cases), then at least 1.
//  * charge: on the attacking side, when the unit charged `defender` this
//    turn (its charged_targets, digest 4.7, 5.3);
//  * terrain: on the defending side, the first terrain_combat entry for the
//    terrain of the unit's own hex that lists its arm (or lists none);
//  * water: on the attacking side, when the hexside between the unit and
//    `defender` carries a stream (bridged or not, #23) or a river or major
//    river at a bridge or ford (#24, R8).
// REQUIRES: `unit` and `defender` on the map.
CorrectedStrength CorrectStrength(const Ruleset& ruleset, const Scenario& scenario,
                                  const GameState& state, UnitId unit, CombatSide side,
                                  UnitId defender);

// The odds column (digest 5.4): the column with the highest odds not above
// attack:defence (rounding in the defender's favour: 10 against 6 is 1.5-1, 6
// against 10 is 1-2), the first column when every column is above it (below
// 1-8 use 1-8) and so the last one above 8-1. Exact rationals.
// REQUIRES: crt.columns non-empty and in increasing odds; defence >= 1.
struct Odds {
  Rational ratio;  // attack / defence
  int column = 0;  // index into crt.columns
};
Odds ComputeOdds(const CombatResultsTable& crt, int attack, int defence);

// The morale value a unit fights with: its MV; leaders (no MV) use CS +
// command radius (digest 5.5).
int CombatMorale(const UnitSpec& spec, const UnitState& state);

// The modified combat die (digest 5.5, 5.3): the roll, +1 when the attacker's
// hex is higher than the defender's and -1 when lower, the morale difference
// (kSignedTruncHalf: (MV att - MV def) / 2 truncated towards 0; kAttackerOnly:
// the same but never below 0), the attacker_die_modifier of the defender's
// terrain (dune, marsh), clamped to crt.min_result..crt.max_result.
struct CombatDie {
  int roll = 0;
  int elevation = 0;
  int morale = 0;
  int terrain = 0;
  std::string terrain_name;  // the terrain giving `terrain` (ruleset name); empty when 0
  int unclamped = 0;
  int result = 0;
};
CombatDie ModifyCombatDie(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
                          UnitId attacker, UnitId defender, int roll);

// The CRT cell for a column and a final result.
// REQUIRES: crt valid (ValidateRuleset), column and result in range.
const CrtCell& CrtLookup(const CombatResultsTable& crt, int column, int result);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_COMBAT_H_
