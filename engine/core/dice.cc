#include "engine/core/dice.h"

#include <string>
#include <utility>

namespace pbem::engine {
namespace {

constexpr std::uint64_t kPcgMultiplier = 6364136223846793005ULL;

}  // namespace

Pcg32::Pcg32(std::uint64_t seed, std::uint64_t stream) : state_(0), inc_((stream << 1) | 1) {
  // The reference seeding: step once from zero, add the seed, step again, so
  // that the seed's bits are mixed before the first output.
  Next();
  state_ += seed;
  Next();
}

std::uint32_t Pcg32::Next() {
  const std::uint64_t old_state = state_;
  state_ = old_state * kPcgMultiplier + inc_;
  const auto xorshifted = static_cast<std::uint32_t>(((old_state >> 18) ^ old_state) >> 27);
  const auto rot = static_cast<std::uint32_t>(old_state >> 59);
  return (xorshifted >> rot) | (xorshifted << ((32 - rot) & 31));
}

std::uint32_t Pcg32::Bounded(std::uint32_t n) {
  if (n == 0) return 0;
  // 2^32 mod n: values below it would make the low residues more likely.
  const std::uint32_t threshold = static_cast<std::uint32_t>(0u - n) % n;
  while (true) {
    const std::uint32_t r = Next();
    if (r >= threshold) return r % n;
  }
}

std::uint64_t SplitMix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int Faces(Die die) {
  switch (die) {
    case Die::kD4:
      return 4;
    case Die::kD6:
      return 6;
    case Die::kD9:
      return 9;
  }
  return 6;  // Unreachable for valid enumerators.
}

std::string_view DieName(Die die) {
  switch (die) {
    case Die::kD4:
      return "d4";
    case Die::kD6:
      return "d6";
    case Die::kD9:
      return "d9";
  }
  return "d?";  // Unreachable for valid enumerators.
}

std::optional<Die> ParseDie(std::string_view text) {
  if (text.size() != 2 || (text[0] != 'd' && text[0] != 'D')) {
    return std::nullopt;
  }
  switch (text[1]) {
    case '4':
      return Die::kD4;
    case '6':
      return Die::kD6;
    case '9':
      return Die::kD9;
    default:
      return std::nullopt;
  }
}

int RollD6(DiceSource& dice) { return dice.Roll(Die::kD6); }
int Roll1to9(DiceSource& dice) { return dice.Roll(Die::kD9); }
int Roll1to4(DiceSource& dice) { return dice.Roll(Die::kD4); }

Pcg32 Pcg32FromSeed(std::uint64_t seed) {
  std::uint64_t mix = seed;
  const std::uint64_t pcg_seed = SplitMix64(mix);
  const std::uint64_t pcg_stream = SplitMix64(mix);
  return Pcg32(pcg_seed, pcg_stream);
}

SeededDice::SeededDice(std::uint64_t seed) : rng_(Pcg32FromSeed(seed)) {}

int SeededDice::Roll(Die die) {
  ++draws_;
  return 1 + static_cast<int>(rng_.Bounded(static_cast<std::uint32_t>(Faces(die))));
}

ScriptedDice::ScriptedDice(std::vector<ScriptedRoll> script) : script_(std::move(script)) {}

int ScriptedDice::Roll(Die die) {
  ++calls_;
  // Messages are built only on failure; the happy path allocates nothing.
  const auto asked = [&] {
    return "roll #" + std::to_string(calls_) + ": asked for " + std::string(DieName(die));
  };
  if (next_ >= script_.size()) {
    Record(asked() + ", script exhausted after " + std::to_string(script_.size()) + " rolls");
    return 1;
  }
  const ScriptedRoll& entry = script_[next_++];
  const auto had = [&] {
    return ", script has " + (entry.die ? std::string(DieName(*entry.die)) + " " : std::string()) +
           std::to_string(entry.value);
  };
  if (entry.die && *entry.die != die) {
    Record(asked() + had());
    return 1;
  }
  if (entry.value < 1 || entry.value > Faces(die)) {
    Record(asked() + had() + " (outside 1.." + std::to_string(Faces(die)) + ")");
    return 1;
  }
  return entry.value;
}

void ScriptedDice::Record(std::string problem) {
  if (problem_.empty()) problem_ = std::move(problem);
}

}  // namespace pbem::engine
