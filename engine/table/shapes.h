// The table's shapes, on the integer grid of fixed.h. Every factory checks its inputs against
// the bounds of fixed.h and returns nullopt instead of building a shape whose arithmetic could
// overflow; a shape that exists is therefore always safe to measure.
#ifndef PBEM_ENGINE_TABLE_SHAPES_H_
#define PBEM_ENGINE_TABLE_SHAPES_H_

#include <optional>
#include <vector>

#include "engine/table/fixed.h"

namespace pbem::table {

// A difference of two points: each component within +-2 * kMaxCoord.
struct Vector {
  Coord x = 0;
  Coord y = 0;
};

constexpr Int128 Dot(Vector a, Vector b) { return Int128{a.x} * b.x + Int128{a.y} * b.y; }
constexpr Int128 Cross(Vector a, Vector b) { return Int128{a.x} * b.y - Int128{a.y} * b.x; }

// A point of the table plane (digest conventions: x east, y north).
class Point {
 public:
  constexpr Point() = default;  // the origin, always in bounds
  static std::optional<Point> Make(Coord x, Coord y);
  constexpr Coord x() const { return x_; }
  constexpr Coord y() const { return y_; }
  friend constexpr bool operator==(Point, Point) = default;
  friend constexpr Vector operator-(Point a, Point b) { return {a.x_ - b.x_, a.y_ - b.y_}; }

 private:
  constexpr Point(Coord x, Coord y) : x_(x), y_(y) {}
  Coord x_ = 0;
  Coord y_ = 0;
};

// A closed segment; a == b is allowed (a point).
struct Segment {
  Point a;
  Point b;
};

// A path: at least one vertex. One vertex is a path of length zero (a model that stays put).
class Polyline {
 public:
  static std::optional<Polyline> Make(std::vector<Point> vertices);
  const std::vector<Point>& vertices() const { return vertices_; }
  // Segments (vertex i-1, vertex i), i = 1..n-1; empty for one vertex.
  std::vector<Segment> Segments() const;

 private:
  explicit Polyline(std::vector<Point> v) : vertices_(std::move(v)) {}
  std::vector<Point> vertices_;
};

// A round base (M42-P01): the closed disc of centre c and radius r, 0 <= r <= kMaxCoord.
class Disc {
 public:
  static std::optional<Disc> Make(Point centre, Coord radius);
  Point centre() const { return centre_; }
  Coord radius() const { return radius_; }

 private:
  Disc(Point c, Coord r) : centre_(c), radius_(r) {}
  Point centre_;
  Coord radius_ = 0;
};

// A simple polygon (terrain area, hill step, footprint): at least 3 vertices, no two edges
// meeting except consecutive ones at their shared vertex, non-zero area. Stored
// anticlockwise whatever the input order. The region is closed (boundary included).
class Polygon {
 public:
  static std::optional<Polygon> Make(std::vector<Point> vertices);
  const std::vector<Point>& vertices() const { return vertices_; }
  std::size_t size() const { return vertices_.size(); }
  // Edge i: vertex i to vertex (i + 1) mod n.
  Segment Edge(std::size_t i) const;

 private:
  explicit Polygon(std::vector<Point> v) : vertices_(std::move(v)) {}
  std::vector<Point> vertices_;
};

// Twice the signed area (anticlockwise positive). Exact.
Int128 TwiceSignedArea(const std::vector<Point>& vertices);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_SHAPES_H_
