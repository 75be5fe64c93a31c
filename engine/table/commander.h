// WME-P01 commander bases against rectangular bases. The digest makes a commander base a closed
// disc [DEFAULT GAP-04: diameter 2.5 cm, key commander_base] and measures the distance between
// two shapes as the Euclidean distance between the closed sets (0 if they meet); overlap and
// touch are those of WME-P02 (overlap: the interiors intersect with penetration depth > eps;
// touch: distance <= eps and no overlap). Commanders never hinder a unit (WME-R22): these tell
// the commanders' chapter and the map where a commander stands, not whether a unit may move.
//
// Numbers: dist(disc, R) = max(0, dist(c, R) - r) and dist(c, R) is an exact minimum of squared
// fractions (distance.h), so every comparison below is exact; no square root is taken.
// Penetration depth of a disc and a convex polygon: r - dist(c, R) when c is outside, and
// r + dist(c, boundary) when c is inside (the shortest way out is across the nearest edge line,
// which for a point inside a convex polygon is the nearest boundary point).
#ifndef PBEM_ENGINE_TABLE_COMMANDER_H_
#define PBEM_ENGINE_TABLE_COMMANDER_H_

#include "engine/table/rect.h"

namespace pbem::table {

// sign(dist(disc, region) - limit), the region a closed convex polygon (a footprint). "Within X"
// is CompareDistance(d, r, X + eps) <= 0.
int CompareDistance(const Disc& disc, const Polygon& convex, Coord limit);

// floor(dist(disc, region)) in units, for reports.
Coord DistanceFloor(const Disc& disc, const Polygon& convex);

// WME-P02 between a commander disc and a closed convex polygon: penetration depth > eps.
bool Overlap(const Disc& disc, const Polygon& convex, Coord eps);
bool Overlap(const Disc& disc, const Rect& base, Coord eps);

// WME-P02: distance <= eps and no overlap.
bool Touch(const Disc& disc, const Polygon& convex, Coord eps);
bool Touch(const Disc& disc, const Rect& base, Coord eps);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_COMMANDER_H_
