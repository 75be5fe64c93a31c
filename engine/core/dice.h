// Randomness for adjudication: our own generator and dice, so that a seed
// gives the same rolls on every compiler and platform (std:: distributions
// are implementation-defined and must never be used for game rolls).

#ifndef PBEM_ENGINE_CORE_DICE_H_
#define PBEM_ENGINE_CORE_DICE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pbem::engine {

// PCG32 (XSH-RR output, 64-bit LCG state), O'Neill's reference algorithm,
// including its seeding procedure: pcg32 seeded with (42, 54) yields
// 0xa15c02b7, 0x7b47f409, ... like the reference demo.
class Pcg32 {
 public:
  // `stream` selects one of 2^63 independent sequences.
  Pcg32(std::uint64_t seed, std::uint64_t stream);

  // The next 32 uniformly distributed bits.
  std::uint32_t Next();

  // Uniform in [0, n) without modulo bias (rejection sampling). Requires
  // n >= 1; returns 0 without drawing when n == 0.
  std::uint32_t Bounded(std::uint32_t n);

 private:
  std::uint64_t state_ = 0;
  std::uint64_t inc_ = 1;
};

// SplitMix64 (Steele, Lea, Flood; Vigna's reference constants): advances
// `state` and returns the next output. Used to derive seeds.
std::uint64_t SplitMix64(std::uint64_t& state);

// The generator SeededDice draws from: seed and stream are the first two SplitMix64 outputs of
// `seed`. For systems whose dice are not engine::Die (the game-system adapters).
Pcg32 Pcg32FromSeed(std::uint64_t seed);

// The dice of the game. kD9 is the morale die: uniform 1..9.
enum class Die : std::uint8_t { kD4, kD6, kD9 };

// 4, 6 or 9.
int Faces(Die die);

// "d4", "d6" or "d9".
std::string_view DieName(Die die);

// Inverse of DieName; the leading letter may also be upper case ("D6").
std::optional<Die> ParseDie(std::string_view text);

// Where adjudication gets its rolls. Roll returns a value in 1..Faces(die).
class DiceSource {
 public:
  virtual ~DiceSource() = default;
  virtual int Roll(Die die) = 0;
};

int RollD6(DiceSource& dice);
int Roll1to9(DiceSource& dice);
int Roll1to4(DiceSource& dice);

// Deterministic dice for real games: the game seed fully determines every
// roll. The Pcg32 seed and stream are the first two SplitMix64 outputs of
// `seed`, so nearby game seeds give unrelated sequences.
class SeededDice final : public DiceSource {
 public:
  explicit SeededDice(std::uint64_t seed);

  int Roll(Die die) override;

  // Number of Roll calls so far.
  std::uint64_t draws() const { return draws_; }

 private:
  Pcg32 rng_;
  std::uint64_t draws_ = 0;
};

// One stated roll of a rulebook example or test. An empty `die` accepts a
// request for any die.
struct ScriptedRoll {
  std::optional<Die> die;
  int value = 1;
};

// Dice that replay a script, for rulebook examples. Each Roll consumes the
// next entry. When the script is exhausted, the entry names another die, or
// its value is outside 1..Faces(requested die), the first such problem is
// recorded and Roll returns 1 so that adjudication can still finish; callers
// check ok() afterwards (and usually remaining() == 0 too).
class ScriptedDice final : public DiceSource {
 public:
  explicit ScriptedDice(std::vector<ScriptedRoll> script);

  int Roll(Die die) override;

  // True while no problem has been recorded.
  bool ok() const { return problem_.empty(); }
  // The first problem, e.g. "roll #3: asked for d6, script has d9 4"; empty
  // when ok(). Roll numbers count Roll calls from 1.
  const std::string& problem() const { return problem_; }
  // Script entries consumed so far (mismatched entries are consumed too).
  std::size_t used() const { return next_; }
  std::size_t remaining() const { return script_.size() - next_; }

 private:
  void Record(std::string problem);

  std::vector<ScriptedRoll> script_;
  std::size_t next_ = 0;
  std::size_t calls_ = 0;
  std::string problem_;
};

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_CORE_DICE_H_
