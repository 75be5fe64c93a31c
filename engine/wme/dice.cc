#include "engine/wme/dice.h"

#include <algorithm>

namespace pbem::wme {

int SeededDice::Roll(int sides) {
  const int n = std::clamp(sides, 1, 100);
  return 1 + static_cast<int>(rng_.Bounded(static_cast<std::uint32_t>(n)));
}

int ScriptedDice::Roll(int sides) {
  const int v = next_ < rolls_.size() ? rolls_[next_] : 1;
  ++next_;
  return std::clamp(v, 1, std::max(sides, 1));
}

}  // namespace pbem::wme
