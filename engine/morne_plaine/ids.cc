#include "engine/morne_plaine/ids.h"

namespace pbem::engine {

std::string_view SideName(Side side) { return side == Side::kBlue ? "blue" : "orange"; }

std::optional<Side> ParseSide(std::string_view name) {
  if (name == "blue") return Side::kBlue;
  if (name == "orange") return Side::kOrange;
  return std::nullopt;
}

std::string_view ArmName(Arm arm) {
  switch (arm) {
    case Arm::kInfantry:
      return "infantry";
    case Arm::kCavalry:
      return "cavalry";
    case Arm::kArtillery:
      return "artillery";
    case Arm::kLeader:
      return "leader";
  }
  return "?";
}

std::string_view PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kSetup:
      return "setup";
    case Phase::kBombardment:
      return "bombardment";
    case Phase::kMovement:
      return "movement";
    case Phase::kCombat:
      return "combat";
    case Phase::kRally:
      return "rally";
    case Phase::kEndOfTurn:
      return "end_of_turn";
  }
  return "?";
}

}  // namespace pbem::engine
