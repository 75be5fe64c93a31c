// Exact rational numbers for rule arithmetic (odds, CS multipliers).
// Rules never use floating point: the same inputs give the same outcome on
// every compiler and machine.
#ifndef PBEM_ENGINE_CORE_RATIONAL_H_
#define PBEM_ENGINE_CORE_RATIONAL_H_

#include <compare>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>

namespace pbem::engine {

// A normalised fraction num/den with den > 0 and gcd(num, den) == 1.
// REQUIRES: values stay far from the int64 limits (game values are small).
class Rational {
 public:
  constexpr Rational() = default;
  constexpr Rational(std::int64_t n) : num_(n), den_(1) {}  // NOLINT: implicit by design
  constexpr Rational(std::int64_t n, std::int64_t d) : num_(n), den_(d) { Normalise(); }

  constexpr std::int64_t num() const { return num_; }
  constexpr std::int64_t den() const { return den_; }

  // Largest integer <= this value.
  constexpr std::int64_t Floor() const {
    std::int64_t q = num_ / den_;
    if ((num_ % den_ != 0) && (num_ < 0)) --q;
    return q;
  }

  friend constexpr Rational operator+(Rational a, Rational b) {
    return Rational(a.num_ * b.den_ + b.num_ * a.den_, a.den_ * b.den_);
  }
  friend constexpr Rational operator-(Rational a, Rational b) {
    return Rational(a.num_ * b.den_ - b.num_ * a.den_, a.den_ * b.den_);
  }
  friend constexpr Rational operator*(Rational a, Rational b) {
    return Rational(a.num_ * b.num_, a.den_ * b.den_);
  }
  // REQUIRES: b != 0.
  friend constexpr Rational operator/(Rational a, Rational b) {
    return Rational(a.num_ * b.den_, a.den_ * b.num_);
  }
  friend constexpr bool operator==(Rational a, Rational b) {
    return a.num_ == b.num_ && a.den_ == b.den_;
  }
  friend constexpr std::strong_ordering operator<=>(Rational a, Rational b) {
    return a.num_ * b.den_ <=> b.num_ * a.den_;
  }

  // "3/2", "2", "-1/2".
  std::string ToString() const;

 private:
  constexpr void Normalise() {
    if (den_ < 0) {
      num_ = -num_;
      den_ = -den_;
    }
    const std::int64_t g = std::gcd(num_ < 0 ? -num_ : num_, den_);
    if (g > 1) {
      num_ /= g;
      den_ /= g;
    }
  }

  std::int64_t num_ = 0;
  std::int64_t den_ = 1;
};

// Parses "3/2", "2", "1.5", "-1/2". Returns nullopt for anything else or a
// zero denominator.
std::optional<Rational> ParseRational(std::string_view text);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_CORE_RATIONAL_H_
