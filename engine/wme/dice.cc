#include "engine/wme/dice.h"

#include <algorithm>

namespace pbem::wme {

std::uint64_t SeededDice::Next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

int SeededDice::Roll(int sides) {
  const std::uint64_t n = static_cast<std::uint64_t>(std::clamp(sides, 1, 100));
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t v = Next();
  while (v >= limit) v = Next();
  return static_cast<int>(v % n) + 1;
}

int ScriptedDice::Roll(int sides) {
  const int v = next_ < rolls_.size() ? rolls_[next_] : 1;
  ++next_;
  return std::clamp(v, 1, std::max(sides, 1));
}

}  // namespace pbem::wme
