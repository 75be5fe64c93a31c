// WME-P09 zones [DEFAULT corner_quadrants, GAP-02] and WME-P16 support from behind.
//
// Zones of a reference rectangle (front edge FL-FR): a point outside it belongs to the side
// whose "how far beyond that edge" is largest; the 45-degree rays from the corners are the
// ties. Each zone is an intersection of half-planes, so a convex footprint is clipped to it
// exactly except that each clipped vertex is rounded to the grid (halves away from zero): the
// areas are off by less than perimeter x half a unit (< 0.0001 cm^2 for a 4 x 2 base), a
// hundredth of the WME area epsilon (0.01 cm^2 = 10^8 units^2). Areas are in units^2, doubled
// (exact integers).
#ifndef PBEM_ENGINE_TABLE_ZONES_H_
#define PBEM_ENGINE_TABLE_ZONES_H_

#include <array>
#include <vector>

#include "engine/table/rect.h"

namespace pbem::table {

enum class Zone { kFront = 0, kLeftFlank = 1, kRightFlank = 2, kRear = 3 };

// Twice the area of the footprint lying in each zone of `reference` (index: Zone).
std::array<Int128, 4> TwiceZoneAreas(const Rect& reference, const Polygon& footprint);

struct ZoneVerdict {
  Zone zone = Zone::kFront;       // the zone with the largest area
  bool tie = false;               // the two largest differ by <= eps_area: the die decides (GAP-34)
  Zone runner_up = Zone::kFront;  // the second largest (ties: order front, left, right, rear)
  std::array<Int128, 4> twice_area{};
};

// The charger's zone: areas summed over its bases (they do not overlap, so the sum is the
// union's area). eps_area in units^2 (0.01 cm^2 = 100,000,000).
ZoneVerdict ChargerZone(const Rect& reference, const std::vector<Rect>& charger, Int128 eps_area);

// WME-P16: `supporter` has the same heading as `front` within the angle tolerance and is in
// edge contact (contact.h) with front's rear edge.
bool SupportsFromBehind(const Rect& supporter, const Rect& front, Coord eps,
                        std::int64_t eps_millidegrees);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_ZONES_H_
