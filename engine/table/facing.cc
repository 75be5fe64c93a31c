#include "engine/table/facing.h"

namespace pbem::table {
namespace {

// round(pi * 2^60).
constexpr std::int64_t kPi60 = 3622009729038561421;

// x * y / 2^60 for |x|, |y| <= 2^61, truncated towards zero (deterministic).
std::int64_t MulFixed(std::int64_t x, std::int64_t y) {
  return static_cast<std::int64_t>((Int128{x} * y) / (Int128{1} << kUnitBits));
}

// (cos, sin) * 2^60 for 0 <= a <= 45000 millidegrees, by Taylor series.
UnitVector FirstOctant(std::int64_t a) {
  const std::int64_t x = static_cast<std::int64_t>(Int128{a} * kPi60 / 180000);
  const std::int64_t x2 = MulFixed(x, x);
  std::int64_t sin = 0;
  std::int64_t cos = 0;
  std::int64_t term = x;  // x^(2k+1) / (2k+1)!, with alternating sign
  for (int k = 0; term != 0; ++k) {
    sin += term;
    term = -MulFixed(term, x2) / ((2 * k + 2) * (2 * k + 3));
  }
  term = kUnitOne;  // x^(2k) / (2k)!
  for (int k = 0; term != 0; ++k) {
    cos += term;
    term = -MulFixed(term, x2) / ((2 * k + 1) * (2 * k + 2));
  }
  return {cos, sin};
}

}  // namespace

UnitVector HeadingVector(std::int64_t millidegrees) {
  std::int64_t h = millidegrees % kMillidegreesPerTurn;
  if (h < 0) h += kMillidegreesPerTurn;
  const std::int64_t quadrant = h / 90000;
  const std::int64_t r = h % 90000;
  UnitVector v;
  if (r <= 45000) {
    v = FirstOctant(r);
  } else {
    const UnitVector w = FirstOctant(90000 - r);
    v = {w.y, w.x};
  }
  switch (quadrant) {
    case 1:
      return {-v.y, v.x};
    case 2:
      return {-v.x, -v.y};
    case 3:
      return {v.y, -v.x};
    default:
      return v;
  }
}

UnitVector LeftOf(UnitVector f) { return {-f.y, f.x}; }

bool InForwardArc(Point model_centre, std::int64_t heading_millidegrees, Point target_centre,
                  Coord target_radius, Coord eps) {
  const UnitVector f = HeadingVector(heading_millidegrees);
  const Vector d = target_centre - model_centre;
  // |d| <= 2^31 and |f| <= 2^60: every term below 2^92.
  const Int128 ahead = Int128{d.x} * f.x + Int128{d.y} * f.y;
  return ahead + Int128{ClampThreshold(target_radius + eps)} * kUnitOne >= 0;
}

}  // namespace pbem::table
