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

}  // namespace pbem::table
