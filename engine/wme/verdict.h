// The verdict on one entry of a player's orders (french-fantasy.md §5.3, §5.4): a kind, a
// stable reason code and its arguments, never English (templates word them, in French and
// English). The first failing check decides and a unit move is atomic (§5.3).
//
// Arguments per reason (the digest's braces; unused fields stay empty). `base` and `other` are
// ids; `value` and `limit` are Milli (lengths to the nearest thousandth of a cm, distances and
// gaps rounded down, as §7 quotes them). Units are named by unit id (W-R15).
//   reason                          base     other           value        limit   detail
//   UNKNOWN_UNIT                    -        the unknown id  -            -       -
//   UNKNOWN_BASE, BASE_NOT_IN_UNIT, DUPLICATE_BASE, MALFORMED_LEG
//                                   base     -               -            -       -
//   WRONG_SUBPHASE, NOT_OWN_UNIT, CHARGE_NOT_SUPPORTED, MODE_CONFLICT, EVADE_NOT_BY_INITIATIVE,
//   NO_ENEMY_IN_INITIATIVE_RANGE, FORMATION_BROKEN     (the unit is Verdict::unit)
//   UNIT_CANNOT_MOVE                -        -               -            -       "confused" |
//                                                                                 "engaged"
//   NOT_NEAREST_VISIBLE_ENEMY       -        nearest unit    -            -       -
//   EVADE_FIRST_BASE_WRONG          base     nearest base    -            -       -
//   EVADE_WRONG_DIRECTION           base     -               -            -       -
//   EXCEEDS_ALLOWANCE               base     -               travelled    allowance
//   TERRAIN_FORBIDDEN               base     feature         -            -       -
//   CROSSES_OTHER_UNIT              base     unit            -            -       -
//   NO_PASSAGE                      base     -               gap          -       -
//   OWN_BASE_CROSS_NOT_ALLOWED      base     own base        -            -       -
//   ENEMY_CONTACT_WITHOUT_CHARGE    base     enemy unit      -            -       -
//   OFF_TABLE                       base     -               -            -       -
//   BASE_OVERLAP                    a        b (a base)      -            -       -
//   EVADE_ENDS_NEAR_COMBAT          base     engaged unit    distance     clearance
//   PASS_THROUGH_NOT_CLEARED, PASS_THROUGH_UNIT_ENGAGED, PASS_THROUGH_NOT_ACCEPTED
//                                   -        crossed unit    -            -       -
//   FORTIFIED_NEEDS_INFANTRY, CHARGE_TARGET_NOT_VISIBLE, TARGET_NOT_ENEMY
//                                   -        target unit     -            -       -
//   TARGET_PROTECTED, NO_EDGE_IN_ZONE
//                                   -        target unit     available    min_contact
//   FRONT_LINE_IMPOSSIBLE           -        target unit     -            -       -
//   CONTACT_NOT_MAXIMISED           -        target unit     got          expected (counts
//                                                                          of W-R4, not Milli)
//   PATH_BLOCKED                    base     target unit     -            -       -
//   CHARGE_OUT_OF_RANGE             base     target unit     travel       allowance
//   ENVELOP_CONDITIONS_NOT_MET      -        target unit     -            -       -
//     (a warning: the verdict's kind is OK, the charge is carried out without envelopment)
//   SUPPORT_NOT_ELIGIBLE            -        supporter       -            -       the condition:
//     "charger" | "not_own" | "not_infantry" | "confused" | "engaged" | "moved" | "not_behind" |
//     "no_place" (charge_support.cc; a warning: OK, the charge is carried out without the
//     supporter; step 8's warning, given first, wins when both apply)
// The other charge codes of §5.4 are declared (stable wire names) but not produced yet.
#ifndef PBEM_ENGINE_WME_VERDICT_H_
#define PBEM_ENGINE_WME_VERDICT_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/core/verdict_kind.h"
#include "engine/wme/ruleset.h"

namespace pbem::wme {

// engine/core/verdict_kind.h: the one kind every system shares (this game never gives kPartial).
using engine::VerdictKind;
using engine::VerdictKindName;  // "ok", "invalid", "illegal"

// Stable codes; the names (the digest's) are the wire format. Add new codes at the end.
enum class Reason : std::uint8_t {
  kNone,
  // §5.3 step 1 (INVALID).
  kUnknownUnit,
  kUnknownBase,
  kBaseNotInUnit,
  kMalformedLeg,
  kWrongSubphase,
  kDuplicateBase,       // engine addition: a base listed twice in one move
  kNotOwnUnit,          // engine addition: the unit is not the ordering player's
  kChargeNotSupported,  // engine addition: charges the engine cannot play yet (README.md)
  // Step 2.
  kUnitCannotMove,
  kModeConflict,
  // Step 3 (evade).
  kEvadeNotByInitiative,
  kNoEnemyInInitiativeRange,
  kNotNearestVisibleEnemy,
  kEvadeFirstBaseWrong,
  kEvadeWrongDirection,
  // Step 4 (per base).
  kExceedsAllowance,
  kTerrainForbidden,
  kCrossesOtherUnit,
  kNoPassage,
  kOwnBaseCrossNotAllowed,
  kEnemyContactWithoutCharge,
  kOffTable,
  // Step 5 (end state).
  kBaseOverlap,
  kFormationBroken,
  kEvadeEndsNearCombat,
  kPassThroughNotCleared,
  kPassThroughUnitEngaged,
  kPassThroughNotAccepted,
  // §5.4 charges.
  kFortifiedNeedsInfantry,
  kChargeTargetNotVisible,
  kTargetProtected,
  kNoEdgeInZone,
  kPathBlocked,
  kChargeOutOfRange,
  kFrontLineImpossible,
  kContactNotMaximised,
  kEnvelopConditionsNotMet,
  kSupportNotEligible,
  kTargetNotEnemy,  // engine addition (INVALID): a charge at a unit of the same player
};
inline constexpr Reason kLastReason = Reason::kTargetNotEnemy;
std::string_view ReasonName(Reason reason);  // "UNKNOWN_UNIT", ... ("" for kNone)

// The condition words a Verdict::detail can hold (the table above): declared once, used by the
// checks that give them (validate.cc, charge_support.cc) and by the game-system adapter
// (GameSystem::ConditionArgs), whose words must word each. A new condition goes here first.
namespace condition {
inline constexpr std::string_view kCharger = "charger";
inline constexpr std::string_view kNotOwn = "not_own";
inline constexpr std::string_view kNotInfantry = "not_infantry";
inline constexpr std::string_view kConfused = "confused";
inline constexpr std::string_view kEngaged = "engaged";
inline constexpr std::string_view kMoved = "moved";
inline constexpr std::string_view kNotBehind = "not_behind";
inline constexpr std::string_view kNoPlace = "no_place";
}  // namespace condition
// UNIT_CANNOT_MOVE's.
inline constexpr std::array<std::string_view, 2> kCannotMoveConditions{condition::kConfused,
                                                                       condition::kEngaged};
// SUPPORT_NOT_ELIGIBLE's, in charge_support.cc's order of checks.
inline constexpr std::array<std::string_view, 8> kSupportConditions{
    condition::kCharger, condition::kNotOwn, condition::kNotInfantry, condition::kConfused,
    condition::kEngaged, condition::kMoved,  condition::kNotBehind,   condition::kNoPlace};

struct Verdict {
  std::string unit;
  VerdictKind kind = VerdictKind::kOk;
  Reason reason = Reason::kNone;
  std::string base;
  std::string other;
  std::optional<Milli> value;
  std::optional<Milli> limit;
  std::string detail;
  friend bool operator==(const Verdict&, const Verdict&) = default;
};

}  // namespace pbem::wme

#endif  // PBEM_ENGINE_WME_VERDICT_H_
