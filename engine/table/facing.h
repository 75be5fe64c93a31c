// Facing (M42 §0.3, WME §0.3: headings in degrees anticlockwise from +x, 90 = north) and the
// M42 arcs. A heading is an integer number of millidegrees (WME stores millidegrees; an M42
// face_deg with up to 3 decimals converts exactly). Its unit vector is computed with an integer
// Taylor series to 60 fractional bits: no libm, so every machine gets the same bits. The
// headings 0, 90, 180 and 270 degrees give exactly (1,0), (0,1), (-1,0), (0,-1); any other
// heading is off by less than 2^-56 per component (a few attometres over a table), which is the
// stated rounding of every facing predicate.
#ifndef PBEM_ENGINE_TABLE_FACING_H_
#define PBEM_ENGINE_TABLE_FACING_H_

#include <cstdint>

#include "engine/table/shapes.h"

namespace pbem::table {

inline constexpr int kUnitBits = 60;
inline constexpr std::int64_t kUnitOne = std::int64_t{1} << kUnitBits;
inline constexpr std::int64_t kMillidegreesPerTurn = 360000;

// (cos, sin) * 2^60, each component in [-2^60, 2^60].
struct UnitVector {
  std::int64_t x = 0;
  std::int64_t y = 0;
};

// Any integer millidegrees (normalised modulo 360 degrees).
UnitVector HeadingVector(std::int64_t millidegrees);

// Forward f and left l = (-sin, cos) (WME §0.3).
UnitVector LeftOf(UnitVector f);

// M42-P16 arcs (M42-R26): target t is in the Forward Arc of model m <=>
// (c_t - c_m) . f + r_t >= -eps: some part of t's base is in front of, or on, the shoulder
// line through c_m (GAP-16). Otherwise it is in the Rear Arc.
bool InForwardArc(Point model_centre, std::int64_t heading_millidegrees, Point target_centre,
                  Coord target_radius, Coord eps);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_FACING_H_
