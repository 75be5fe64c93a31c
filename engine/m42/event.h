// The events of an M42 player-turn (m42.md §5.2 step 11, §5.3): one struct per kind with named,
// typed fields, held in a std::variant. Lengths and distances are Thou (lengths rounded to the
// nearest thousandth, distances rounded down, as in verdict.h); facings are millidegrees.
//
// kind                 fields
// unit_acted           unit, action, fire                      (an order carried out)
// unit_held            unit, reason                            (illegal order, GAP-20)
// model_moved          model, from_x/from_y/from_floor, to_x/to_y/to_floor (Thou), length
// model_turned         model, facing_mdeg                      (M42-R27, R28)
// slow_going           model, feature                          (a feature id or model id)
// difficult_going      model, feature, allowance (whole inches, after halving)
// closest_enemy        model, enemy, distance                  (minimum reached on the path)
// close_combat_joined  unit, enemy_unit, distance              (M42-R24, P15)
// action_phase_ended   player, turn                            (the next player is active)
#ifndef PBEM_ENGINE_M42_EVENT_H_
#define PBEM_ENGINE_M42_EVENT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "engine/m42/orders.h"
#include "engine/m42/ruleset.h"
#include "engine/m42/verdict.h"

namespace pbem::m42 {

struct UnitActed {
  std::string unit;
  Action action = Action::kAdvance;
  Fire fire = Fire::kUnset;
  friend bool operator==(const UnitActed&, const UnitActed&) = default;
};
struct UnitHeld {
  std::string unit;
  Reason reason = Reason::kNone;
  friend bool operator==(const UnitHeld&, const UnitHeld&) = default;
};
struct ModelMoved {
  std::string model;
  Thou from_x = 0, from_y = 0;
  int from_floor = 0;
  Thou to_x = 0, to_y = 0;
  int to_floor = 0;
  Thou length = 0;
  friend bool operator==(const ModelMoved&, const ModelMoved&) = default;
};
struct ModelTurned {
  std::string model;
  std::int64_t facing_mdeg = 0;
  friend bool operator==(const ModelTurned&, const ModelTurned&) = default;
};
struct SlowGoing {
  std::string model;
  std::string feature;
  friend bool operator==(const SlowGoing&, const SlowGoing&) = default;
};
struct DifficultGoing {
  std::string model;
  std::string feature;
  int allowance = 0;
  friend bool operator==(const DifficultGoing&, const DifficultGoing&) = default;
};
struct ClosestEnemy {
  std::string model;
  std::string enemy;
  Thou distance = 0;
  friend bool operator==(const ClosestEnemy&, const ClosestEnemy&) = default;
};
struct CloseCombatJoined {
  std::string unit;
  std::string enemy_unit;
  Thou distance = 0;
  friend bool operator==(const CloseCombatJoined&, const CloseCombatJoined&) = default;
};
struct ActionPhaseEnded {
  std::string player;
  int turn = 0;
  friend bool operator==(const ActionPhaseEnded&, const ActionPhaseEnded&) = default;
};

using Event = std::variant<UnitActed, UnitHeld, ModelMoved, ModelTurned, SlowGoing, DifficultGoing,
                           ClosestEnemy, CloseCombatJoined, ActionPhaseEnded>;

std::string_view EventKindName(const Event& event);  // "unit_acted", ...

}  // namespace pbem::m42

#endif  // PBEM_ENGINE_M42_EVENT_H_
