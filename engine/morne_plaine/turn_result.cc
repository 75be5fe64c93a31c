#include "engine/morne_plaine/turn_result.h"

#include <array>
#include <utility>

namespace pbem::engine {

namespace {

constexpr std::array<std::pair<EventKind, std::string_view>, 23> kEventNames{{
    {EventKind::kCommandCheck, "command_check"},
    {EventKind::kPlace, "place"},
    {EventKind::kDie, "die"},
    {EventKind::kBombard, "bombard"},
    {EventKind::kMoveStep, "move_step"},
    {EventKind::kMoveEnd, "move_end"},
    {EventKind::kStuck, "stuck"},
    {EventKind::kCharge, "charge"},
    {EventKind::kReactionFire, "reaction_fire"},
    {EventKind::kCombat, "combat"},
    {EventKind::kLoss, "loss"},
    {EventKind::kMoraleTest, "morale_test"},
    {EventKind::kRetreat, "retreat"},
    {EventKind::kEliminated, "eliminated"},
    {EventKind::kAdvance, "advance"},
    {EventKind::kRally, "rally"},
    {EventKind::kObjectiveTaken, "objective_taken"},
    {EventKind::kTurnEnd, "turn_end"},
    {EventKind::kGameEnd, "game_end"},
    {EventKind::kFortTaken, "fort_taken"},
    {EventKind::kSupport, "support"},
    {EventKind::kMoraleGained, "morale_gained"},
    {EventKind::kVictoryPoints, "victory_points"},
}};

}  // namespace

std::string_view EventKindName(EventKind kind) {
  for (const auto& [k, name] : kEventNames) {
    if (k == kind) return name;
  }
  return "unknown_event";
}

std::optional<EventKind> ParseEventKind(std::string_view name) {
  for (const auto& [k, n] : kEventNames) {
    if (n == name) return k;
  }
  return std::nullopt;
}

}  // namespace pbem::engine
