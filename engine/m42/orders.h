// M42 orders (m42.md §5.1): one action per unit per Action Phase. Coordinates are thousandths of
// an inch as the order gives them (up to 3 decimals, M-R1), untrusted: the validation pipeline
// (validate.h) converts and bounds-checks them.
#ifndef PBEM_ENGINE_M42_ORDERS_H_
#define PBEM_ENGINE_M42_ORDERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/m42/ruleset.h"

namespace pbem::m42 {

// ADVANCE only (shooting chapter, [ACT-052]); carried through, never checked by movement.
enum class Fire : std::uint8_t { kUnset, kBeforeMove, kAfterMove };

// A path vertex. `floor` omitted = the previous vertex's floor (the model's for the first).
struct PathVertex {
  std::int64_t x_thou = 0;
  std::int64_t y_thou = 0;
  std::optional<int> floor;
};

struct ModelOrder {
  std::string id;
  std::vector<PathVertex> path;           // empty: the model stays put but may turn
  std::optional<std::int64_t> face_mdeg;  // omitted = facing unchanged (GAP-16)
};

struct UnitOrder {
  std::string unit;
  Action kind = Action::kAdvance;
  Fire fire = Fire::kUnset;
  std::vector<ModelOrder> models;  // in movement order (M42-P12, M42-P14)
};

// One player's Action Phase: the units' actions in the order the player listed them.
struct Orders {
  std::string player;
  std::vector<UnitOrder> actions;
};

}  // namespace pbem::m42

#endif  // PBEM_ENGINE_M42_ORDERS_H_
