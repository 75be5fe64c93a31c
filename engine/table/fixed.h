// The number discipline of the table (see README.md): coordinates are integers in a unit of
// 0.1 micrometre, every predicate is decided exactly on integers, and the few quantities that
// need a square root or a sine use integer algorithms with a stated rounding. No floating
// point anywhere, so gcc, clang and every machine give the same bytes.
#ifndef PBEM_ENGINE_TABLE_FIXED_H_
#define PBEM_ENGINE_TABLE_FIXED_H_

#include <cstdint>
#include <optional>

namespace pbem::table {

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

// A length or coordinate in table units: 1 unit = 0.1 µm. Both digests' order grids are exact:
// 0.001" = 254 units (M42 §0.3), 0.001 cm = 100 units (WME §0.3).
using Coord = std::int64_t;

inline constexpr Coord kUnitsPerInch = 254000;
inline constexpr Coord kUnitsPerCm = 100000;
inline constexpr Coord kUnitsPerThousandthInch = 254;
inline constexpr Coord kUnitsPerThousandthCm = 100;

// |x| and |y| of every point: 2^29 units = 53.687 m, far beyond any table, and small enough
// that every product below fits an Int128 (README.md, "Overflow").
inline constexpr Coord kMaxCoord = Coord{1} << 29;
// Largest radius, base size or distance threshold a caller may give: 2^31 units = 214.7 m,
// more than any two points on the table can be apart (2^30 * sqrt(2) < 2^31).
inline constexpr Coord kMaxLength = Coord{1} << 31;

constexpr bool InCoordRange(std::int64_t v) { return v >= -kMaxCoord && v <= kMaxCoord; }
constexpr bool InLengthRange(std::int64_t v) { return v >= 0 && v <= kMaxLength; }

// Table units from an order's thousandths of an inch or of a centimetre (an order gives up to
// three decimals); nullopt beyond kMaxCoord, never an overflow.
std::optional<Coord> FromThousandthsOfInch(std::int64_t thousandths);
std::optional<Coord> FromThousandthsOfCm(std::int64_t thousandths);

// A distance threshold clamped into [-1, kMaxLength]: a threshold below zero can never be met
// by a distance, one above kMaxLength is met by every distance between table points, so the
// clamp changes no answer and keeps every square in range.
constexpr Coord ClampThreshold(Coord t) { return t < 0 ? -1 : (t > kMaxLength ? kMaxLength : t); }

// floor(sqrt(n)), exact for every n.
UInt128 ISqrt(UInt128 n);

// sign(a * b - c * d), exact: the products are formed in 256 bits.
int CompareProducts(UInt128 a, UInt128 b, UInt128 c, UInt128 d);

// v^2 as an unsigned value (|v| < 2^64).
constexpr UInt128 Square(Int128 v) {
  const UInt128 m = v < 0 ? static_cast<UInt128>(-v) : static_cast<UInt128>(v);
  return m * m;
}

// round(n / d), halves away from zero; d > 0.
constexpr Int128 RoundDiv(Int128 n, Int128 d) {
  return n >= 0 ? (n + d / 2) / d : -((-n + d / 2) / d);
}

// -1, 0 or 1 as a < b, a == b, a > b.
template <typename T>
constexpr int Sign3(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_FIXED_H_
