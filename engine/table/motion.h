// WME-P03 motion of a rectangular base and the distance it travels. A path is a list of legs:
// translate(to) keeps the heading, every point travels |Δc|; rotate(α, pivot) turns the base
// about a point, every point q travels |α|·π/180·|q − P|. The distance travelled by a point is
// the sum over the legs, and the base distance is the maximum over the four corners (the
// travelled length is convex in q, so a corner is farthest). Legal <=> base distance <=
// allowance + eps (eps = 0.01 cm = 1,000 units).
//
// Numbers: each corner's travel is bracketed like a path length (path.h: lower and upper bounds
// in 2^-32 units), with π bracketed by two 60-bit fractions; the verdict is exact whenever the
// brackets decide (`certain`), else the stated rounding counts the base as having gone too far.
// A rotation moves the centre to P + R(α)(c − P), rounded to the grid (halves away from zero),
// and the corners are rebuilt from it (rect.h): the digest's "snap after each executed move".
#ifndef PBEM_ENGINE_TABLE_MOTION_H_
#define PBEM_ENGINE_TABLE_MOTION_H_

#include <array>
#include <optional>
#include <vector>

#include "engine/table/path.h"
#include "engine/table/rect.h"

namespace pbem::table {

struct Leg {
  enum class Kind { kTranslate, kRotate };
  Kind kind = Kind::kTranslate;
  Point target;                   // kTranslate: the new centre
  std::int64_t millidegrees = 0;  // kRotate: anticlockwise positive, |α| <= 360 degrees
  Point pivot;                    // kRotate: the point turned about (a corner, the centre ...)
};

struct Motion {
  Rect end;                             // the base after the last leg
  std::array<PathLength, 4> travelled;  // per corner, in the order FL, FR, RR, RL
};

// nullopt if a rotation exceeds one full turn or the base would leave the coordinate bounds.
std::optional<Motion> Move(const Rect& start, const std::vector<Leg>& legs);

// Every corner's travel <= limit (WME-P03: limit = allowance + eps).
LengthVerdict TravelWithin(const Motion& motion, Coord limit);

// The base distance (largest corner travel) rounded up to a unit, for reports.
Coord TravelCeilUnits(const Motion& motion);

// The point `p` turned by `millidegrees` about `pivot`, rounded to the grid; nullopt beyond the
// coordinate bounds.
std::optional<Point> Rotate(Point p, Point pivot, std::int64_t millidegrees);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_MOTION_H_
