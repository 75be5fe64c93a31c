// The verdict on one unit's order (m42.md §5.2, §5.4): a kind, a stable reason code and its
// arguments, never English (templates word them). The first failing step of the pipeline
// decides; the whole unit's action is one order.
//
// Arguments per reason (the digest's braces; unused fields stay empty):
//   reason                       model  other                      value          limit
//   UNKNOWN_UNIT                 -      -                          -              -
//   UNKNOWN_MODEL, MODEL_NOT_IN_UNIT, DUPLICATE_MODEL, MALFORMED_PATH, PATH_START_MISMATCH,
//   ACTION_FORBIDS_MOVE, TURN_FORBIDDEN, LEVEL_CHANGE_OUTSIDE_FLOOR, OFF_FLOOR, OFF_TABLE
//                                model  -                          -              -
//   UNIT_ALREADY_ACTED, NOT_ACTIVE_PLAYER  -  -                    -              -
//   IMPASSABLE                   model  feature                    -              -
//   AT_THE_DOUBLE_IN_SLOW_GOING  model  feature or model           -              -
//   EXCEEDS_ALLOWANCE            model  -                          length         allowance
//   ENEMY_TOO_CLOSE              model  enemy model                edge distance  -
//   ENDS_ON_FRIENDLY, CROSSES_NON_TASK_FORCE  model  other model   -              -
//   ENDS_ON_OBSTACLE             model  feature                    -              -
//   COHERENCY                    model  nearest_in_group           distance       coherency
// `value` and `limit` are Thou. A length is rounded to the nearest thousandth (halves up); a
// distance is rounded down (engine/table FloorUnits), as the digest's §6 numbers are.
#ifndef PBEM_ENGINE_M42_VERDICT_H_
#define PBEM_ENGINE_M42_VERDICT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/core/verdict_kind.h"
#include "engine/m42/ruleset.h"

namespace pbem::m42 {

// engine/core/verdict_kind.h: the one kind every system shares (this game never gives kPartial).
using engine::VerdictKind;
using engine::VerdictKindName;  // "ok", "invalid", "illegal"

// Stable codes; the names (the digest's) are the wire format. Add new codes at the end.
enum class Reason : std::uint8_t {
  kNone,
  // Step 1, parse (INVALID).
  kUnknownUnit,
  kUnknownModel,
  kModelNotInUnit,
  kDuplicateModel,
  kMalformedPath,
  kPathStartMismatch,
  kUnitAlreadyActed,
  kNotActivePlayer,
  // Steps 2-10 (ILLEGAL).
  kActionForbidsMove,
  kTurnForbidden,
  kImpassable,
  kLevelChangeOutsideFloor,
  kOffFloor,
  kOffTable,
  kAtTheDoubleInSlowGoing,
  kExceedsAllowance,
  kEnemyTooClose,
  kEndsOnFriendly,
  kCrossesNonTaskForce,
  kEndsOnObstacle,
  kCoherency,
};
inline constexpr Reason kLastReason = Reason::kCoherency;
std::string_view ReasonName(Reason reason);  // "UNKNOWN_UNIT", ... ("" for kNone)

struct Verdict {
  std::string unit;
  VerdictKind kind = VerdictKind::kOk;
  Reason reason = Reason::kNone;
  std::string model;
  std::string other;
  std::optional<Thou> value;
  std::optional<Thou> limit;
  friend bool operator==(const Verdict&, const Verdict&) = default;
};

}  // namespace pbem::m42

#endif  // PBEM_ENGINE_M42_VERDICT_H_
