// M42-P11 structure walls: where the centre path crosses a wall, and whether it goes through an
// opening with the whole base fitting (GAP-10, ruling M-R7: only the centre path counts).
// A crossing is a point where a path segment meets the wall segment without running along it;
// at parameter s (distance along the wall from its first end) it is through the opening
// [s0, s1] <=> s0 + r - eps <= s <= s1 - r + eps. s may be irrational (a diagonal wall); it is
// compared exactly (256-bit products, fixed.h).
#ifndef PBEM_ENGINE_TABLE_WALLS_H_
#define PBEM_ENGINE_TABLE_WALLS_H_

#include <vector>

#include "engine/table/shapes.h"

namespace pbem::table {

struct Opening {
  Coord from = 0;  // distance along the wall from its first end point
  Coord to = 0;
};

struct Wall {
  Segment line;
  std::vector<Opening> openings;
};

struct WallCrossings {
  int crossings = 0;         // points where the path crosses the wall
  int through_openings = 0;  // of which through an opening the base fits
  // Difficult Going (M42-R21) <=> some crossing is not through an opening.
  bool Difficult() const { return crossings > through_openings; }
};

WallCrossings CrossWall(const Polyline& path, const Wall& wall, Coord radius, Coord eps);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_WALLS_H_
