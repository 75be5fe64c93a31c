// Exact Euclidean distances on the integer grid, compared with integer thresholds.
//
// A squared distance is kept as an exact fraction num/den (den > 0); comparing it with a
// threshold t means comparing num with t^2 * den, exact in Int128 (README.md, "Overflow").
// The digests' tolerances enter as thresholds: "value <= limit + eps" is
// Compare(d, limit + eps) <= 0, "value < limit - eps" is Compare(d, limit - eps) < 0
// (M42 §0.3, WME §0.3). Distances shown to players are FloorUnits: the exact distance rounded
// down to a whole unit (0.1 µm).
#ifndef PBEM_ENGINE_TABLE_DISTANCE_H_
#define PBEM_ENGINE_TABLE_DISTANCE_H_

#include "engine/table/shapes.h"

namespace pbem::table {

// An exact squared distance num / den.
struct SquaredDistance {
  UInt128 num = 0;
  UInt128 den = 1;
};

// Sign of (distance - t): -1, 0 or 1. t is clamped by ClampThreshold (no overflow, no change
// of answer).
int Compare(const SquaredDistance& d, Coord t);

// floor(distance) in units.
Coord FloorUnits(const SquaredDistance& d);

SquaredDistance PointPoint(Point p, Point q);

// M42-P04: distance from q to the closed segment s, d_seg(q) = |a + t(b - a) - q| with
// t = clamp(((q - a).(b - a)) / |b - a|^2, 0, 1).
SquaredDistance PointSegment(Point q, const Segment& s);

// A distance that is the minimum of several (segment-segment, point-polygon ...): the exact
// fractions cannot be compared with each other inside Int128, so the minimum is kept as the
// list of candidates and compared with a threshold one by one:
// sign(min_i d_i - t) = min_i sign(d_i - t).
class MinDistance {
 public:
  void Add(const SquaredDistance& d);
  void AddZero() { Add(SquaredDistance{0, 1}); }
  bool empty() const { return !has_; }
  int Compare(Coord t) const;
  // sign(min_i d_i^2 - num / den), den > 0, num < 2^125, den < 2^64: for a threshold that is
  // the root of a fraction (a half-diagonal).
  int CompareSquared(UInt128 num, UInt128 den) const;
  Coord FloorUnits() const { return floor_; }

 private:
  std::vector<SquaredDistance> candidates_;
  bool has_ = false;
  Coord floor_ = 0;
};

// Distance between two closed segments (0 if they meet).
MinDistance SegmentSegment(const Segment& s, const Segment& t);

// Distance from p to the closed polygon region (0 inside or on the boundary).
MinDistance PointPolygon(Point p, const Polygon& polygon);

// Distance from a path (its centre polyline) to the closed polygon region: 0 if some point of
// the path is in the region.
MinDistance PathPolygon(const Polyline& path, const Polygon& polygon);

// Distance from q to the nearest point of a path: min_i d_seg_i(q) (M42-P05, M42-P12); for a
// one-vertex path the distance to that vertex.
MinDistance PointPath(Point q, const Polyline& path);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_DISTANCE_H_
