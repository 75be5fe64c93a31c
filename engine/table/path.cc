#include "engine/table/path.h"

namespace pbem::table {

Coord PathLength::CeilUnits() const {
  const UInt128 one = UInt128{1} << kLengthFractionBits;
  return static_cast<Coord>((upper + one - 1) >> kLengthFractionBits);
}

Coord PathLength::NearestUnits() const {
  const UInt128 half = UInt128{1} << (kLengthFractionBits - 1);
  return static_cast<Coord>((upper + half) >> kLengthFractionBits);
}

PathLength Length(const Polyline& path) {
  PathLength total;
  for (const Segment& s : path.Segments()) {
    const Vector v = s.b - s.a;
    // |v|^2 <= 2^61 (components <= 2^30), so |v|^2 * 2^64 < 2^126 fits.
    const UInt128 scaled = static_cast<UInt128>(Dot(v, v)) << (2 * kLengthFractionBits);
    const UInt128 root = ISqrt(scaled);
    total.lower += root;
    total.upper += root * root == scaled ? root : root + 1;
  }
  return total;
}

LengthVerdict LengthWithin(const PathLength& length, Coord limit) {
  limit = ClampThreshold(limit);
  if (limit < 0) return {false, true};
  const UInt128 scaled_limit = static_cast<UInt128>(limit) << kLengthFractionBits;
  if (length.upper <= scaled_limit) return {true, true};
  if (length.lower > scaled_limit) return {false, true};
  return {false, false};
}

}  // namespace pbem::table
