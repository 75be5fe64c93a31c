// Rectangular bases (WME §1.1, WME-P01): centre c, frontage W along the left vector l, depth D
// along the facing f. The half-extents u = (D/2) f and v = (W/2) l are rounded to whole units
// (halves away from zero) once, and the corners are c +- u +- v, so the footprint is an exact
// parallelogram on the grid: a true rectangle for the headings 0/90/180/270, otherwise off by at
// most half a unit (0.05 µm) per corner, far below the WME epsilon of 0.01 cm = 1000 units.
#ifndef PBEM_ENGINE_TABLE_RECT_H_
#define PBEM_ENGINE_TABLE_RECT_H_

#include <array>
#include <optional>
#include <vector>

#include "engine/table/distance.h"
#include "engine/table/facing.h"

namespace pbem::table {

class Rect {
 public:
  // nullopt unless 0 < width, depth <= kMaxCoord and every corner is within kMaxCoord.
  static std::optional<Rect> Make(Point centre, Coord width, Coord depth,
                                  std::int64_t heading_millidegrees);
  Point centre() const { return centre_; }
  Coord width() const { return width_; }
  Coord depth() const { return depth_; }
  std::int64_t heading() const { return heading_; }
  // FL, FR, RR, RL (WME §1.1 names), i.e. clockwise round the footprint.
  const std::array<Point, 4>& corners() const { return corners_; }
  Point FL() const { return corners_[0]; }
  Point FR() const { return corners_[1]; }
  Point RR() const { return corners_[2]; }
  Point RL() const { return corners_[3]; }
  // Front edge FL-FR, right side FR-RR, rear edge RR-RL, left side RL-FL.
  Segment Edge(std::size_t i) const { return {corners_[i], corners_[(i + 1) % 4]}; }
  const Polygon& footprint() const { return footprint_; }

 private:
  Rect(Point c, Coord w, Coord d, std::int64_t h, std::array<Point, 4> k, Polygon p)
      : centre_(c), width_(w), depth_(d), heading_(h), corners_(k), footprint_(std::move(p)) {}
  Point centre_;
  Coord width_ = 0;
  Coord depth_ = 0;
  std::int64_t heading_ = 0;
  std::array<Point, 4> corners_;
  Polygon footprint_;
};

// Distance between two closed convex polygons (0 if they meet, also when one holds the other).
MinDistance ConvexDistance(const Polygon& a, const Polygon& b);

// Penetration depth of two convex polygons > eps: along every edge normal of both, the
// projections overlap by more than eps (separating axis theorem).
bool ConvexOverlap(const Polygon& a, const Polygon& b, Coord eps);

// WME-P02 overlap: the interiors intersect with penetration depth > eps. The penetration depth
// of two convex shapes is the shortest translation that separates them; for polygons it is
// reached along an edge normal (separating axis theorem), so overlap <=> along every edge normal
// the projections overlap by more than eps.
bool Overlap(const Rect& a, const Rect& b, Coord eps);

// WME-P02 touch: distance <= eps and no overlap.
bool Touch(const Rect& a, const Rect& b, Coord eps);

// WME-P05 formation graph: nodes are the unit's bases, linked when they touch (WME-P02, edge or
// corner). Returns the first base not connected to base 0, nullopt when in formation (WME-R05).
std::optional<std::size_t> OutOfFormation(const std::vector<Rect>& bases, Coord eps);

// WME-P14: the footprint lies inside the table [0, width] x [0, height]; a corner beyond an
// edge by more than eps means the base leaves the table.
bool OnTable(const Rect& base, Coord width, Coord height, Coord eps);

// WME-P15 (and WME-P07 between two bases): footprint distance >= limit - eps; for the evade,
// limit = 1 cm from every base of an engaged unit.
bool KeepsClear(const Rect& a, const Rect& b, Coord limit, Coord eps);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_RECT_H_
