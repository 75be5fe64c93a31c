#include "engine/table/shapes.h"

#include <algorithm>
#include <utility>

#include "engine/table/predicates.h"

namespace pbem::table {

std::optional<Point> Point::Make(Coord x, Coord y) {
  if (!InCoordRange(x) || !InCoordRange(y)) return std::nullopt;
  return Point(x, y);
}

std::optional<Polyline> Polyline::Make(std::vector<Point> vertices) {
  if (vertices.empty()) return std::nullopt;
  return Polyline(std::move(vertices));
}

std::vector<Segment> Polyline::Segments() const {
  std::vector<Segment> out;
  for (std::size_t i = 1; i < vertices_.size(); ++i)
    out.push_back({vertices_[i - 1], vertices_[i]});
  return out;
}

std::optional<Disc> Disc::Make(Point centre, Coord radius) {
  if (radius < 0 || radius > kMaxCoord) return std::nullopt;
  return Disc(centre, radius);
}

Int128 TwiceSignedArea(const std::vector<Point>& vertices) {
  Int128 sum = 0;
  const std::size_t n = vertices.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Point& p = vertices[i];
    const Point& q = vertices[(i + 1) % n];
    sum += Int128{p.x()} * q.y() - Int128{q.x()} * p.y();
  }
  return sum;
}

Segment Polygon::Edge(std::size_t i) const {
  return {vertices_[i], vertices_[(i + 1) % vertices_.size()]};
}

std::optional<Polygon> Polygon::Make(std::vector<Point> vertices) {
  const std::size_t n = vertices.size();
  if (n < 3) return std::nullopt;
  const Int128 area = TwiceSignedArea(vertices);
  if (area == 0) return std::nullopt;
  if (area < 0) std::reverse(vertices.begin(), vertices.end());
  Polygon polygon(std::move(vertices));
  // Simplicity: O(n^2) over edge pairs. Terrain polygons are small; a caller that accepts
  // untrusted polygons must bound n first.
  for (std::size_t i = 0; i < n; ++i) {
    const Segment e = polygon.Edge(i);
    if (e.a == e.b) return std::nullopt;
    for (std::size_t j = i + 1; j < n; ++j) {
      const Segment f = polygon.Edge(j);
      const bool next = j == i + 1;
      const bool wrap = i == 0 && j == n - 1;
      if (!next && !wrap) {
        if (SegmentsIntersect(e, f)) return std::nullopt;
        continue;
      }
      // Adjacent edges share one vertex; they may not fold back over each other.
      const Point shared = next ? e.b : e.a;
      const Point far_e = next ? e.a : e.b;
      const Point far_f = next ? f.b : f.a;
      if (Orientation(far_e, shared, far_f) == 0 && Dot(far_e - shared, far_f - shared) > 0) {
        return std::nullopt;
      }
    }
  }
  return polygon;
}

}  // namespace pbem::table
