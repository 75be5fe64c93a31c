// M42-P03 path length, compared exactly with a maximum (M42-P18: legal <=> L <= A + eps).
//
// L = sum of |c_i - c_{i-1}| is a sum of square roots. Each root is computed with 32
// fractional bits by an integer square root, giving a lower and an upper bound (equal when the
// segment length is a whole number of units). If the bounds put L on one side of the limit the
// answer is the exact real-number answer (`certain`). Otherwise L lies within n * 2^-32 units
// of the limit (n segments; 2^-32 units = 2.3e-17 m) and the stated rounding decides: the
// upper bound is used, i.e. such a path counts as longer than the limit. A whole-unit limit
// is reached exactly by a sum of roots only when every segment has a whole length, which the
// bounds then hold exactly, so the rounding never decides a case the digests' worked examples
// contain.
#ifndef PBEM_ENGINE_TABLE_PATH_H_
#define PBEM_ENGINE_TABLE_PATH_H_

#include "engine/table/shapes.h"

namespace pbem::table {

inline constexpr int kLengthFractionBits = 32;

struct PathLength {
  // Bounds of L * 2^32 (L in units): lower <= L * 2^32 <= upper.
  UInt128 lower = 0;
  UInt128 upper = 0;
  // L rounded up to a whole unit (for reports: the upper bound, rounded up).
  Coord CeilUnits() const;
  // L rounded to the nearest unit, halves up, from the upper bound.
  Coord NearestUnits() const;
};

PathLength Length(const Polyline& path);

struct LengthVerdict {
  bool within = false;   // L <= limit (by the stated rounding when !certain)
  bool certain = false;  // the bounds decided; `within` is the exact real-number answer
};

// L <= limit. limit is clamped by ClampThreshold.
LengthVerdict LengthWithin(const PathLength& length, Coord limit);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_PATH_H_
