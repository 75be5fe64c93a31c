// The game's dice (french-fantasy.md §5.2: zone ties, confusion tests, off-table fate,
// counter-charge fire): either seeded (SplitMix64, our own so every standard library gives the
// same rolls) or scripted (the rulebook's worked cases state their rolls). Each roll is logged
// by the caller as an event with its purpose.
#ifndef PBEM_ENGINE_WME_DICE_H_
#define PBEM_ENGINE_WME_DICE_H_

#include <cstdint>
#include <vector>

namespace pbem::wme {

class DiceSource {
 public:
  virtual ~DiceSource() = default;
  // A roll of a die with `sides` faces (2..100): 1..sides.
  virtual int Roll(int sides) = 0;
};

// SplitMix64; a roll takes the value modulo `sides` after rejecting the top partial range, so
// every face is equally likely.
class SeededDice : public DiceSource {
 public:
  explicit SeededDice(std::uint64_t seed) : state_(seed) {}
  int Roll(int sides) override;

 private:
  std::uint64_t Next();
  std::uint64_t state_;
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
