#include "engine/morne_plaine/verdict.h"

#include <array>
#include <utility>

namespace pbem::engine {

namespace {

constexpr std::array<std::pair<Reason, std::string_view>, 57> kReasonCodes{{
    {Reason::kNone, "none"},
    {Reason::kBadHexLabel, "bad_hex_label"},
    {Reason::kHexOffMap, "hex_off_map"},
    {Reason::kUnknownUnit, "unknown_unit"},
    {Reason::kEmptyPath, "empty_path"},
    {Reason::kPathAndDestination, "path_and_destination"},
    {Reason::kMissingField, "missing_field"},
    {Reason::kWrongGame, "wrong_game"},
    {Reason::kWrongTurn, "wrong_turn"},
    {Reason::kWrongSide, "wrong_side"},
    {Reason::kGameFinished, "game_finished"},
    {Reason::kWrongSystem, "wrong_system"},
    {Reason::kNotYourUnit, "not_your_unit"},
    {Reason::kUnitEliminated, "unit_eliminated"},
    {Reason::kUnitNotOnMap, "unit_not_on_map"},
    {Reason::kDuplicateOrder, "duplicate_order"},
    {Reason::kFromMismatch, "from_mismatch"},
    {Reason::kPathNotAdjacent, "path_not_adjacent"},
    {Reason::kNotArtillery, "not_artillery"},
    {Reason::kTargetIsOwnUnit, "target_is_own_unit"},
    {Reason::kNoUnitAtTarget, "no_unit_at_target"},
    {Reason::kAttackOwnUnit, "attack_own_unit"},
    {Reason::kAttackSelf, "attack_self"},
    {Reason::kSetupNotAllowed, "setup_not_allowed"},
    {Reason::kPlacementOutsideZone, "placement_outside_zone"},
    {Reason::kPlacementOccupied, "placement_occupied"},
    {Reason::kUnitAlreadyPlaced, "unit_already_placed"},
    {Reason::kUnitFixed, "unit_fixed"},
    {Reason::kHexOccupied, "hex_occupied"},
    {Reason::kHexsideImpassable, "hexside_impassable"},
    {Reason::kTerrainImpassable, "terrain_impassable"},
    {Reason::kNotEnoughMovementPoints, "not_enough_movement_points"},
    {Reason::kZocLeaveIntoZoc, "zoc_leave_into_zoc"},
    {Reason::kZocLeaveIntoMountedZoc, "zoc_leave_into_mounted_zoc"},
    {Reason::kDemoralisedIntoZoc, "demoralised_into_zoc"},
    {Reason::kEnteredEnemyZoc, "entered_enemy_zoc"},
    {Reason::kStuckInMarsh, "stuck_in_marsh"},
    {Reason::kMoveEndedInZoc, "move_ended_in_zoc"},
    {Reason::kBombardedCannotMove, "bombarded_cannot_move"},
    {Reason::kDestinationUnreachable, "destination_unreachable"},
    {Reason::kEliminatedDuringMove, "eliminated_during_move"},
    {Reason::kSetupOnlyTurn, "setup_only_turn"},
    {Reason::kNotImplemented, "not_implemented"},
    {Reason::kOutOfRange, "out_of_range"},
    {Reason::kNoLineOfSight, "no_line_of_sight"},
    {Reason::kCannotFireFromTerrain, "cannot_fire_from_terrain"},
    {Reason::kAlreadyFired, "already_fired"},
    {Reason::kNoTarget, "no_target"},
    {Reason::kBombardInEnemyZoc, "bombard_in_enemy_zoc"},
    {Reason::kNotInContact, "not_in_contact"},
    {Reason::kDemoralisedCannotAttack, "demoralised_cannot_attack"},
    {Reason::kMayNotAttack, "may_not_attack"},
    {Reason::kAlreadyAttacked, "already_attacked"},
    {Reason::kAlreadyDefended, "already_defended"},
    {Reason::kDependsOnDice, "depends_on_dice"},
    {Reason::kWillCharge, "will_charge"},
    {Reason::kViaPath, "via_path"},
}};

}  // namespace

std::string_view OrderKindName(OrderKind kind) {
  switch (kind) {
    case OrderKind::kPlacement:
      return "placement";
    case OrderKind::kBombardment:
      return "bombardment";
    case OrderKind::kMove:
      return "move";
    case OrderKind::kAttack:
      return "attack";
    case OrderKind::kHeader:
      return "header";
  }
  return "?";
}

std::string_view ReasonCode(Reason reason) {
  for (const auto& [r, code] : kReasonCodes) {
    if (r == reason) return code;
  }
  return "unknown_reason";
}

std::optional<Reason> ParseReasonCode(std::string_view code) {
  for (const auto& [r, c] : kReasonCodes) {
    if (c == code) return r;
  }
  return std::nullopt;
}

}  // namespace pbem::engine
