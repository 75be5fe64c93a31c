// The French mass-battle game's ruleset (Warmaster Evolution movement chapter): every parameter
// of the digest's §10 block and every GAP DEFAULT of §9, as named fields holding the digest's
// defaults (french-fantasy.md; README.md in this folder maps each field to its key, default and
// source).
//
// Lengths are `Milli`: thousandths of a centimetre (the order grid, §0.3), so every digest
// number is an exact integer (ε = 0.01 cm = 10, 2 cm = 2000). A field named after a key ending
// in `_cm` holds that key's value in thousandths. Angles are millidegrees (0.5° = 500). Areas
// are thousandths of a cm² (0.01 cm² = 10). Table units (engine/table) are ToUnits(milli) =
// milli * 100.
#ifndef PBEM_ENGINE_WME_RULESET_H_
#define PBEM_ENGINE_WME_RULESET_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/table/fixed.h"

namespace pbem::wme {

// Thousandths of a centimetre (§0.3: orders give coordinates with at most 3 decimals).
using Milli = std::int64_t;
inline constexpr Milli kMilliPerCm = 1000;
constexpr table::Coord ToUnits(Milli milli) { return milli * table::kUnitsPerThousandthCm; }
// Table units back to Milli for reports (verdict.h, event.h): a length to the nearest
// thousandth (halves up), a distance rounded down (negative distances report 0).
constexpr Milli NearestMilli(table::Coord units) {
  return (units + table::kUnitsPerThousandthCm / 2) / table::kUnitsPerThousandthCm;
}
constexpr Milli FloorMilli(table::Coord units) {
  return units < 0 ? 0 : units / table::kUnitsPerThousandthCm;
}

// §1.2 troop types. The names are the digest's (TroopTypeName).
enum class TroopType : std::uint8_t {
  kInfantry,
  kMonster,
  kCavalry,
  kChariot,
  kFlyer,
  kArtillery,
  kMachine,
  kCharacter,
  kCharacterOnFlyer,
};
inline constexpr std::size_t kTroopTypeCount = 9;
std::string_view TroopTypeName(TroopType type);  // "INFANTRY", ...

// §1.1 *soclage*: NON_CHOC faces its long edge, CHOC its short edge (003:L138).
enum class Mount : std::uint8_t { kNonChoc, kChoc };
inline constexpr std::size_t kMountCount = 2;

// §2 terrain categories [DEFAULT GAP-05, WMR-XTER]: who may enter (Ruleset::passable_by).
enum class TerrainCategory : std::uint8_t { kPassable, kRough, kDifficult, kImpassable };
inline constexpr std::size_t kTerrainCategoryCount = 4;

// One entry of the off-table fate table (§6, GAP-06): D6 - bases lost <= max gives `fate`.
enum class Fate : std::uint8_t { kLost, kReturnNextTurn, kReturnNow };
struct FateBand {
  int max = 0;
  Fate fate = Fate::kLost;
  friend bool operator==(const FateBand&, const FateBand&) = default;
};

// The alternatives §9 names for each key. Only the first of each enum is implemented unless
// CheckRuleset says otherwise (README.md).
enum class HalfSpeedRounding : std::uint8_t { kNone };                        // GAP-33
enum class SpeedFormation : std::uint8_t { kStart };                          // GAP-12, GAP-15
enum class IrregularChargeSpeed : std::uint8_t { kHalf, kFull };              // C-1
enum class EvadeSpeed : std::uint8_t { kFull };                               // 003:L59
enum class SqueezeModel : std::uint8_t { kNeck, kCentreCorridor, kStrict };   // GAP-17
enum class OwnPassThrough : std::uint8_t { kCrossedBaseStatic, kAlways };     // GAP-13, W-R1
enum class RegularOffsets : std::uint8_t { kAlignedOrCorner, kAnyTouching };  // GAP-14
enum class EvadeDirectionRule : std::uint8_t { kMidpoints };                  // GAP-19
enum class VisionArcRule : std::uint8_t { kWedge90, kHalfPlane };             // GAP-01
enum class ZoneModel : std::uint8_t { kCornerQuadrants, kEdgeLines };         // GAP-02
enum class ZoneTieDie : std::uint8_t { kD6Split };                            // GAP-34
enum class ContactProbe : std::uint8_t { kChargerBase };                      // GAP-23
enum class Centring : std::uint8_t { kMidpointDistance };                     // GAP-24
enum class FirstBaseRule : std::uint8_t { kLeastTravel };                     // GAP-25
enum class AutoPath : std::uint8_t { kRotateTranslateRotate };                // GAP-36, W-R7
enum class CounterChargeTiming : std::uint8_t { kAfterPlacement };            // C-2
enum class PursuitMatrix : std::uint8_t { kWmr };                             // GAP-21
enum class SupportGeometry : std::uint8_t { kRearEdgeContact };               // GAP-22
enum class Reserve : std::uint8_t { kBehind, kLine };                         // GAP-40, §5.1
enum class HighFortNeeds : std::uint8_t { kLadders };                         // GAP-28
enum class VoluntaryExit : std::uint8_t { kForbidden };                       // GAP-29
enum class OnIllegalMove : std::uint8_t { kHold };                            // GAP-20
enum class TerrainModel : std::uint8_t { kWmrCategories };                    // GAP-05
enum class CommanderShape : std::uint8_t { kDisc };                           // GAP-04
// The move kinds a fortified unit halves (GAP-11).
enum class MoveKind : std::uint8_t { kAdvance, kEvade, kCharge };

struct BaseSize {
  Milli w = 0;  // frontage, along l
  Milli d = 0;  // depth, along f
  friend bool operator==(const BaseSize&, const BaseSize&) = default;
};

struct Ruleset {
  std::string ruleset = "wme_movement_draft_p22_31";
  // `units: cm` is implied by Milli.
  Milli epsilon_cm = 10;               // §0.3, GAP-35
  std::int64_t epsilon_deg = 500;      // millidegrees; §0.3, GAP-35
  std::int64_t epsilon_area_cm2 = 10;  // thousandths of cm²; §0.3
  std::array<BaseSize, kMountCount> base_size_cm{BaseSize{4000, 2000}, BaseSize{2000, 4000}};
  std::vector<TroopType> choc_types;                       // GAP-03
  CommanderShape commander_shape = CommanderShape::kDisc;  // GAP-04
  Milli commander_diameter_cm = 2500;                      // GAP-04
  // Sourced (003:L6-15); MACHINE has no entry: its unit's profile gives it (§1.4).
  std::array<std::optional<Milli>, kTroopTypeCount> speed_cm;
  std::vector<TroopType> half_speed_exempt;                          // sourced (003:L31, L35)
  HalfSpeedRounding half_speed_rounding = HalfSpeedRounding::kNone;  // GAP-33
  SpeedFormation speed_formation = SpeedFormation::kStart;           // GAP-12
  IrregularChargeSpeed irregular_charge_speed = IrregularChargeSpeed::kHalf;  // C-1
  std::vector<MoveKind> fortified_half_for;                                   // GAP-11
  EvadeSpeed evade_speed = EvadeSpeed::kFull;                                 // sourced
  Milli evade_combat_clearance_cm = 1000;                                     // sourced
  Milli min_gap_cm = 2000;                                               // sourced (003:L51), C-3
  SqueezeModel squeeze_model = SqueezeModel::kNeck;                      // GAP-17
  Milli min_enemy_gap_cm = 0;                                            // GAP-16
  OwnPassThrough own_pass_through = OwnPassThrough::kCrossedBaseStatic;  // GAP-13
  RegularOffsets regular_offsets = RegularOffsets::kAlignedOrCorner;     // GAP-14
  Milli initiative_range_cm = 20000;                                     // GAP-09
  std::int64_t evade_first_leg_tol_deg = 5000;                           // millidegrees; GAP-18
  EvadeDirectionRule evade_direction = EvadeDirectionRule::kMidpoints;   // GAP-19
  bool flyers_may_evade = true;                                          // GAP-37
  bool flyers_pass_over = true;                                          // GAP-37
  VisionArcRule vision_arc = VisionArcRule::kWedge90;                    // GAP-01
  ZoneModel zone_model = ZoneModel::kCornerQuadrants;                    // GAP-02
  ZoneTieDie zone_tie_die = ZoneTieDie::kD6Split;                        // GAP-34
  Milli min_contact_cm = 1000;                                           // sourced (003:L115, L130)
  ContactProbe contact_probe = ContactProbe::kChargerBase;               // GAP-23
  Centring centring = Centring::kMidpointDistance;                       // GAP-24
  FirstBaseRule first_base = FirstBaseRule::kLeastTravel;                // GAP-25
  AutoPath auto_path = AutoPath::kRotateTranslateRotate;                 // GAP-36
  CounterChargeTiming counter_charge_timing = CounterChargeTiming::kAfterPlacement;  // C-2
  PursuitMatrix pursuit_matrix = PursuitMatrix::kWmr;                                // GAP-21
  SupportGeometry support_geometry = SupportGeometry::kRearEdgeContact;              // GAP-22
  Milli fortification_reach_cm = 1000;                                               // GAP-27
  bool fortification_blocks_los = false;                                             // GAP-39
  Reserve reserve_default = Reserve::kBehind;                                        // GAP-40
  HighFortNeeds high_fort_needs = HighFortNeeds::kLadders;                           // GAP-28
  bool auto_fanatic_charge = true;                                                   // GAP-26
  int confusion_die = 6;                                                             // GAP-07
  int confusion_confused_if_le = 3;                                                  // GAP-07
  VoluntaryExit voluntary_exit = VoluntaryExit::kForbidden;                          // GAP-29
  std::vector<FateBand> off_table_fate;                                              // GAP-06
  int off_table_modifier_per_lost_base = -1;                  // sourced (003:L155)
  Milli reentry_enemy_gap_cm = 1000;                          // GAP-30
  Milli reentry_step_cm = 500;                                // GAP-30
  OnIllegalMove on_illegal_move = OnIllegalMove::kHold;       // GAP-20
  TerrainModel terrain_model = TerrainModel::kWmrCategories;  // GAP-05
  // §2 DEFAULT categories [GAP-05]: which troop types may enter each category.
  std::array<std::vector<TroopType>, kTerrainCategoryCount> passable_by;
  // Not a digest key: the most legs one base may have in one move (hostile input: an absurd
  // order is MALFORMED_LEG, not a long computation). Engine limit.
  std::size_t max_legs_per_base = 16;
};

// The digest's §10 block and §9 defaults, every value set explicitly.
Ruleset DefaultRuleset();

bool Contains(const std::vector<TroopType>& types, TroopType type);
bool Contains(const std::vector<MoveKind>& kinds, MoveKind kind);

// A ruleset value this engine cannot honour: the key and why (stable codes, never English).
struct RulesetProblem {
  std::string key;
  std::string code;  // "not_implemented", "out_of_range", "bands_not_increasing", "missing"
  friend bool operator==(const RulesetProblem&, const RulesetProblem&) = default;
};
std::vector<RulesetProblem> CheckRuleset(const Ruleset& ruleset);

}  // namespace pbem::wme

#endif  // PBEM_ENGINE_WME_RULESET_H_
