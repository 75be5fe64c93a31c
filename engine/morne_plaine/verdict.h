// Outcomes are values: every order gets a verdict with a stable reason code
// and arguments, never English; templates word them for players.
#ifndef PBEM_ENGINE_MORNE_PLAINE_VERDICT_H_
#define PBEM_ENGINE_MORNE_PLAINE_VERDICT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/core/verdict_kind.h"
#include "engine/hex/hex.h"

namespace pbem::engine {

enum class OrderKind : std::uint8_t { kPlacement, kBombardment, kMove, kAttack, kHeader };
std::string_view OrderKindName(OrderKind kind);  // "placement", ...

// VerdictKind (kOk, kInvalid, kIllegal, kPartial), VerdictKindName and IsAcceptable are
// engine/core/verdict_kind.h's, shared by every game system.

// Stable reason codes. Add new codes at the end of a group; the names (not
// the numbers) are the wire format.
enum class Reason : std::uint16_t {
  kNone,
  // Not understood.
  kBadHexLabel,
  kHexOffMap,
  kUnknownUnit,
  kEmptyPath,
  kPathAndDestination,
  kMissingField,
  // Header.
  kWrongGame,
  kWrongTurn,
  kWrongSide,
  kGameFinished,
  kWrongSystem,  // {system}: the orders carry another game system's body
  // Understood, not allowed.
  kNotYourUnit,
  kUnitEliminated,
  kUnitNotOnMap,
  kDuplicateOrder,
  kFromMismatch,
  kPathNotAdjacent,
  kNotArtillery,
  kTargetIsOwnUnit,
  kNoUnitAtTarget,
  kAttackOwnUnit,
  kAttackSelf,
  kSetupNotAllowed,
  kPlacementOutsideZone,
  kPlacementOccupied,
  kUnitAlreadyPlaced,
  kUnitFixed,
  // Movement phase (issue 3). The first argument is the hex concerned (the
  // hex the unit could not enter, or where its move ended).
  kHexOccupied,              // {hex, occupant}: no stacking, ever (digest 1.2)
  kHexsideImpassable,        // {hex, from, feature}: "river", "major_river",
                             // "river_crossing", "double_slope", "triple_slope", ...
  kTerrainImpassable,        // {hex, terrain}
  kNotEnoughMovementPoints,  // {hex, cost, points_left} (ruling R2)
  kZocLeaveIntoZoc,          // {hex, from}: foot unit leaving into an enemy ZoC
  kZocLeaveIntoMountedZoc,   // {hex, from}: mounted unit leaving mounted control
  kDemoralisedIntoZoc,       // {hex}: demoralised units never enter an enemy ZoC
  kEnteredEnemyZoc,          // {hex}: the move stopped there (digest 4.6)
  kStuckInMarsh,             // {hex}: stuck, no more movement this turn (digest 4.3)
  kMoveEndedInZoc,           // {hex}: the unit already ended its move this turn
  kBombardedCannotMove,      // {hex}: artillery that bombarded (digest 3.1)
  kDestinationUnreachable,   // {hex, points_left}: no legal path this turn
  kEliminatedDuringMove,     // {hex}: eliminated by reaction fire
  kSetupOnlyTurn,            // {turn}: turn 1 is for set-up only
  kNotImplemented,           // {phase}: the engine does not resolve it yet
  // Bombardment phase (issue 4). The first argument is the target hex.
  kOutOfRange,             // {target, distance, min_distance, range}
  kNoLineOfSight,          // {target, blocking hex} or {target, hex, hex}: the
                           // two hexes beside a hexside the line runs along
  kCannotFireFromTerrain,  // {firer hex, terrain}: woods, town (digest 3.1, #2)
  kAlreadyFired,           // {unit}: a battery fires once per phase (digest 3.1)
  kNoTarget,               // {target}: no enemy unit there any more
  kBombardInEnemyZoc,      // {firer hex}: bombard_allowed_in_enemy_zoc is false
  // Combat phase (issue 4).
  kNotInContact,             // {defender hex}: not adjacent, or across a river or steep slope
  kDemoralisedCannotAttack,  // {attacker hex}: MV 0 (digest 5.12)
  kMayNotAttack,             // {arm}: leaders_may_attack / artillery_may_attack is false
  kAlreadyAttacked,          // {unit}: one attack per unit each phase (digest 5.1)
  kAlreadyDefended,          // {unit}: attacked once already this phase (digest 5.1)
  // Notes of the check (ValidateOrders) on an acceptable order (kOk).
  kDependsOnDice,  // {}: legal on the board as it can be known now, but a die rolled
                   // earlier in the turn (a bombardment, reaction fire, a marsh test,
                   // a charge, a combat) decides whether or how it is carried out
  kWillCharge,     // {hex, target hex, target}: the move charges from hex; the
                   // charged unit's morale test decides what follows (digest 4.7)
  kViaPath,        // {hex, hex, ...}: a destination order, reached by this path
};
std::string_view ReasonCode(Reason reason);  // "hex_off_map", ...
std::optional<Reason> ParseReasonCode(std::string_view code);

// An argument of a verdict or event: a number, a hex or a name.
using Arg = std::variant<std::int64_t, Hex, std::string>;

struct OrderVerdict {
  OrderKind order_kind = OrderKind::kMove;
  int index = 0;
  std::string unit;
  VerdictKind verdict = VerdictKind::kOk;
  Reason reason = Reason::kNone;
  std::vector<Arg> args;
};

// A problem found while decoding one order (a malformed label): the codec
// attaches it to the order, and validation turns it into an invalid verdict.
struct DecodeProblem {
  Reason reason = Reason::kNone;
  std::vector<Arg> args;
};

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_VERDICT_H_
