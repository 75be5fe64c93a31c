#include "engine/m42/verdict.h"

namespace pbem::m42 {

std::string_view ReasonName(Reason reason) {
  switch (reason) {
    case Reason::kNone:
      return "";
    case Reason::kUnknownUnit:
      return "UNKNOWN_UNIT";
    case Reason::kUnknownModel:
      return "UNKNOWN_MODEL";
    case Reason::kModelNotInUnit:
      return "MODEL_NOT_IN_UNIT";
    case Reason::kDuplicateModel:
      return "DUPLICATE_MODEL";
    case Reason::kMalformedPath:
      return "MALFORMED_PATH";
    case Reason::kPathStartMismatch:
      return "PATH_START_MISMATCH";
    case Reason::kUnitAlreadyActed:
      return "UNIT_ALREADY_ACTED";
    case Reason::kNotActivePlayer:
      return "NOT_ACTIVE_PLAYER";
    case Reason::kActionForbidsMove:
      return "ACTION_FORBIDS_MOVE";
    case Reason::kTurnForbidden:
      return "TURN_FORBIDDEN";
    case Reason::kImpassable:
      return "IMPASSABLE";
    case Reason::kLevelChangeOutsideFloor:
      return "LEVEL_CHANGE_OUTSIDE_FLOOR";
    case Reason::kOffFloor:
      return "OFF_FLOOR";
    case Reason::kOffTable:
      return "OFF_TABLE";
    case Reason::kAtTheDoubleInSlowGoing:
      return "AT_THE_DOUBLE_IN_SLOW_GOING";
    case Reason::kExceedsAllowance:
      return "EXCEEDS_ALLOWANCE";
    case Reason::kEnemyTooClose:
      return "ENEMY_TOO_CLOSE";
    case Reason::kEndsOnFriendly:
      return "ENDS_ON_FRIENDLY";
    case Reason::kCrossesNonTaskForce:
      return "CROSSES_NON_TASK_FORCE";
    case Reason::kEndsOnObstacle:
      return "ENDS_ON_OBSTACLE";
    case Reason::kCoherency:
      return "COHERENCY";
  }
  return "?";
}

}  // namespace pbem::m42
