// The game's dice (french-fantasy.md §5.2: zone ties, confusion tests, off-table fate,
// counter-charge fire): either seeded (the project's generator, engine/core/dice.h's Pcg32
// seeded by Pcg32FromSeed, as every system's dice: every standard library gives the same rolls)
// or scripted (the rulebook's worked cases state their rolls). Each roll is logged by the
// caller as an event with its purpose.
#ifndef PBEM_ENGINE_WME_DICE_H_
#define PBEM_ENGINE_WME_DICE_H_

#include <cstdint>
#include <vector>

#include "engine/core/dice.h"

namespace pbem::wme {

class DiceSource {
 public:
  virtual ~DiceSource() = default;
  // A roll of a die with `sides` faces (2..100): 1..sides.
  virtual int Roll(int sides) = 0;
};

// The project's generator: a roll of n sides (clamped into 1..100) is 1 + Pcg32::Bounded(n),
// unbiased; a d6 rolls as engine::SeededDice's d6 with the same seed.
class SeededDice final : public DiceSource {
 public:
  explicit SeededDice(std::uint64_t seed) : rng_(engine::Pcg32FromSeed(seed)) {}
  int Roll(int sides) override;

 private:
  engine::Pcg32 rng_;
};

// Gives the scripted rolls in order, clamped into 1..sides; after the script, 1s.
class ScriptedDice : public DiceSource {
 public:
  explicit ScriptedDice(std::vector<int> rolls) : rolls_(std::move(rolls)) {}
  int Roll(int sides) override;
  std::size_t used() const { return next_; }

 private:
  std::vector<int> rolls_;
  std::size_t next_ = 0;
};

}  // namespace pbem::wme

#endif  // PBEM_ENGINE_WME_DICE_H_
