#include "engine/table/fixed.h"

namespace pbem::table {
namespace {

std::optional<Coord> Scale(std::int64_t value, Coord factor) {
  // Compare before multiplying: value * factor could overflow for absurd input.
  if (value > kMaxCoord / factor || value < -kMaxCoord / factor) return std::nullopt;
  return value * factor;
}

}  // namespace

std::optional<Coord> FromThousandthsOfInch(std::int64_t thousandths) {
  return Scale(thousandths, kUnitsPerThousandthInch);
}

std::optional<Coord> FromThousandthsOfCm(std::int64_t thousandths) {
  return Scale(thousandths, kUnitsPerThousandthCm);
}

UInt128 ISqrt(UInt128 n) {
  // Bit-by-bit method: exact, no division, no floating point.
  UInt128 result = 0;
  UInt128 bit = UInt128{1} << 126;
  while (bit > n) bit >>= 2;
  while (bit != 0) {
    if (n >= result + bit) {
      n -= result + bit;
      result = (result >> 1) + bit;
    } else {
      result >>= 1;
    }
    bit >>= 2;
  }
  return result;
}

namespace {

struct U256 {
  UInt128 hi = 0;
  UInt128 lo = 0;
};

U256 Multiply(UInt128 a, UInt128 b) {
  const UInt128 mask = ~std::uint64_t{0};
  const UInt128 a0 = a & mask, a1 = a >> 64, b0 = b & mask, b1 = b >> 64;
  const UInt128 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const UInt128 mid = (p00 >> 64) + (p01 & mask) + (p10 & mask);  // < 3 * 2^64
  return {p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64), (p00 & mask) | (mid << 64)};
}

}  // namespace

int CompareProducts(UInt128 a, UInt128 b, UInt128 c, UInt128 d) {
  const U256 x = Multiply(a, b);
  const U256 y = Multiply(c, d);
  if (x.hi != y.hi) return Sign3(x.hi, y.hi);
  return Sign3(x.lo, y.lo);
}

}  // namespace pbem::table
