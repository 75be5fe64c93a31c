#include "engine/wme/verdict.h"

namespace pbem::wme {

std::string_view ReasonName(Reason reason) {
  switch (reason) {
    case Reason::kNone:
      return "";
    case Reason::kUnknownUnit:
      return "UNKNOWN_UNIT";
    case Reason::kUnknownBase:
      return "UNKNOWN_BASE";
    case Reason::kBaseNotInUnit:
      return "BASE_NOT_IN_UNIT";
    case Reason::kMalformedLeg:
      return "MALFORMED_LEG";
    case Reason::kWrongSubphase:
      return "WRONG_SUBPHASE";
    case Reason::kDuplicateBase:
      return "DUPLICATE_BASE";
    case Reason::kNotOwnUnit:
      return "NOT_OWN_UNIT";
    case Reason::kChargeNotSupported:
      return "CHARGE_NOT_SUPPORTED";
    case Reason::kUnitCannotMove:
      return "UNIT_CANNOT_MOVE";
    case Reason::kModeConflict:
      return "MODE_CONFLICT";
    case Reason::kEvadeNotByInitiative:
      return "EVADE_NOT_BY_INITIATIVE";
    case Reason::kNoEnemyInInitiativeRange:
      return "NO_ENEMY_IN_INITIATIVE_RANGE";
    case Reason::kNotNearestVisibleEnemy:
      return "NOT_NEAREST_VISIBLE_ENEMY";
    case Reason::kEvadeFirstBaseWrong:
      return "EVADE_FIRST_BASE_WRONG";
    case Reason::kEvadeWrongDirection:
      return "EVADE_WRONG_DIRECTION";
    case Reason::kExceedsAllowance:
      return "EXCEEDS_ALLOWANCE";
    case Reason::kTerrainForbidden:
      return "TERRAIN_FORBIDDEN";
    case Reason::kCrossesOtherUnit:
      return "CROSSES_OTHER_UNIT";
    case Reason::kNoPassage:
      return "NO_PASSAGE";
    case Reason::kOwnBaseCrossNotAllowed:
      return "OWN_BASE_CROSS_NOT_ALLOWED";
    case Reason::kEnemyContactWithoutCharge:
      return "ENEMY_CONTACT_WITHOUT_CHARGE";
    case Reason::kOffTable:
      return "OFF_TABLE";
    case Reason::kBaseOverlap:
      return "BASE_OVERLAP";
    case Reason::kFormationBroken:
      return "FORMATION_BROKEN";
    case Reason::kEvadeEndsNearCombat:
      return "EVADE_ENDS_NEAR_COMBAT";
    case Reason::kPassThroughNotCleared:
      return "PASS_THROUGH_NOT_CLEARED";
    case Reason::kPassThroughUnitEngaged:
      return "PASS_THROUGH_UNIT_ENGAGED";
    case Reason::kPassThroughNotAccepted:
      return "PASS_THROUGH_NOT_ACCEPTED";
    case Reason::kFortifiedNeedsInfantry:
      return "FORTIFIED_NEEDS_INFANTRY";
    case Reason::kChargeTargetNotVisible:
      return "CHARGE_TARGET_NOT_VISIBLE";
    case Reason::kTargetProtected:
      return "TARGET_PROTECTED";
    case Reason::kNoEdgeInZone:
      return "NO_EDGE_IN_ZONE";
    case Reason::kPathBlocked:
      return "PATH_BLOCKED";
    case Reason::kChargeOutOfRange:
      return "CHARGE_OUT_OF_RANGE";
    case Reason::kFrontLineImpossible:
      return "FRONT_LINE_IMPOSSIBLE";
    case Reason::kContactNotMaximised:
      return "CONTACT_NOT_MAXIMISED";
    case Reason::kEnvelopConditionsNotMet:
      return "ENVELOP_CONDITIONS_NOT_MET";
    case Reason::kSupportNotEligible:
      return "SUPPORT_NOT_ELIGIBLE";
    case Reason::kTargetNotEnemy:
      return "TARGET_NOT_ENEMY";
  }
  return "";
}

}  // namespace pbem::wme
