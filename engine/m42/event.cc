#include "engine/m42/event.h"

namespace pbem::m42 {
namespace {

struct KindName {
  std::string_view operator()(const UnitActed&) const { return "unit_acted"; }
  std::string_view operator()(const UnitHeld&) const { return "unit_held"; }
  std::string_view operator()(const ModelMoved&) const { return "model_moved"; }
  std::string_view operator()(const ModelTurned&) const { return "model_turned"; }
  std::string_view operator()(const SlowGoing&) const { return "slow_going"; }
  std::string_view operator()(const DifficultGoing&) const { return "difficult_going"; }
  std::string_view operator()(const ClosestEnemy&) const { return "closest_enemy"; }
  std::string_view operator()(const CloseCombatJoined&) const { return "close_combat_joined"; }
  std::string_view operator()(const ActionPhaseEnded&) const { return "action_phase_ended"; }
};

}  // namespace

std::string_view EventKindName(const Event& event) { return std::visit(KindName{}, event); }

}  // namespace pbem::m42
