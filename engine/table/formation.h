// WME-P06 line / column / irregular [DEFAULT tolerances, GAP-14]: all headings equal within the
// angle tolerance (0.5 degrees); the bases ordered along l (line) or f (column), of the first
// base's heading. Line <=> each consecutive pair has lateral centre spacing W +- eps and depth
// offset in {0, D} +- eps (aligned, or corner to corner: en escalier). Column <=> consecutive
// depth spacing D +- eps and lateral offset in {0, W} +- eps. Irregular <=> in formation
// (WME-P05) but neither. None <=> not connected. One base, or both definitions: Line (W-R9).
// Offsets are measured with the integer unit vectors of facing.h, compared exactly.
#ifndef PBEM_ENGINE_TABLE_FORMATION_H_
#define PBEM_ENGINE_TABLE_FORMATION_H_

#include <vector>

#include "engine/table/rect.h"

namespace pbem::table {

enum class Formation { kLine, kColumn, kIrregular, kNone };

Formation Classify(const std::vector<Rect>& bases, Coord eps, std::int64_t eps_millidegrees);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_FORMATION_H_
