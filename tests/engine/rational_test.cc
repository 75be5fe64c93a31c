#include "engine/core/rational.h"

#include "tests/engine/mini_test.h"

namespace pbem::engine {
namespace {

TEST_CASE_MINI(RationalNormalises) {
  CHECK_EQ_MINI(Rational(6, 4), Rational(3, 2));
  CHECK_EQ_MINI(Rational(3, -6), Rational(-1, 2));
  CHECK_EQ_MINI(Rational(0, 5), Rational(0));
  CHECK_EQ_MINI(Rational(6, 4).ToString(), std::string("3/2"));
  CHECK_EQ_MINI(Rational(4, 2).ToString(), std::string("2"));
}

TEST_CASE_MINI(RationalArithmeticAndOrder) {
  // Combat odds 10 against 6 are 5/3, between 1.5 and 2 (digest 5.4).
  const Rational odds = Rational(10) / Rational(6);
  CHECK_EQ_MINI(odds, Rational(5, 3));
  CHECK_MINI(Rational(3, 2) < odds);
  CHECK_MINI(odds < Rational(2));
  CHECK_EQ_MINI(Rational(1, 2) + Rational(1, 3), Rational(5, 6));
  CHECK_EQ_MINI(Rational(1, 2) - Rational(1, 3), Rational(1, 6));
  CHECK_EQ_MINI(Rational(3, 2) * Rational(5), Rational(15, 2));
}

TEST_CASE_MINI(RationalFloorRoundsDown) {
  // Charge bonus: CS 5 x 1.5 = 7.5 -> 7 (rounded down, digest 4.7).
  CHECK_EQ_MINI((Rational(5) * Rational(3, 2)).Floor(), std::int64_t{7});
  CHECK_EQ_MINI(Rational(-7, 2).Floor(), std::int64_t{-4});
  CHECK_EQ_MINI(Rational(4).Floor(), std::int64_t{4});
}

TEST_CASE_MINI(ParseRationalForms) {
  CHECK_EQ_MINI(ParseRational("3/2"), std::optional<Rational>(Rational(3, 2)));
  CHECK_EQ_MINI(ParseRational("1.5"), std::optional<Rational>(Rational(3, 2)));
  CHECK_EQ_MINI(ParseRational("2"), std::optional<Rational>(Rational(2)));
  CHECK_EQ_MINI(ParseRational("-0.25"), std::optional<Rational>(Rational(-1, 4)));
  CHECK_MINI(!ParseRational("").has_value());
  CHECK_MINI(!ParseRational("1/0").has_value());
  CHECK_MINI(!ParseRational("x").has_value());
  CHECK_MINI(!ParseRational("1.").has_value());
  CHECK_MINI(!ParseRational("1/2/3").has_value());
}

}  // namespace
}  // namespace pbem::engine
