#include "engine/table/discs.h"

#include <algorithm>

#include "engine/table/graph.h"
#include "engine/table/predicates.h"

namespace pbem::table {

int CompareEdgeDistance(const Disc& a, const Disc& b, Coord limit) {
  if (limit < 0) return 1;
  const int s =
      Compare(PointPoint(a.centre(), b.centre()), ClampThreshold(limit) + a.radius() + b.radius());
  // dist is clamped at 0: overlapping bases are at distance 0, not below.
  if (s < 0 && limit == 0) return 0;
  return s;
}

Coord EdgeDistanceFloor(const Disc& a, const Disc& b) {
  // floor(d - k) == floor(d) - k for a whole k.
  const Coord d = FloorUnits(PointPoint(a.centre(), b.centre())) - a.radius() - b.radius();
  return std::max<Coord>(d, 0);
}

bool Overlap(const Disc& a, const Disc& b, Coord eps) {
  return Compare(PointPoint(a.centre(), b.centre()), a.radius() + b.radius() - eps) < 0;
}

bool Touch(const Disc& a, const Disc& b, Coord eps) {
  const SquaredDistance d = PointPoint(a.centre(), b.centre());
  const Coord sum = a.radius() + b.radius();
  return Compare(d, sum - eps) >= 0 && Compare(d, sum + eps) <= 0;
}

std::vector<ClearanceBreach> EnemyClearance(const Polyline& path, Coord radius,
                                            const std::vector<Disc>& enemies, Coord clearance,
                                            Coord eps) {
  std::vector<ClearanceBreach> out;
  for (std::size_t i = 0; i < enemies.size(); ++i) {
    const Disc& e = enemies[i];
    const MinDistance d = PointPath(e.centre(), path);
    if (d.Compare(clearance - eps + radius + e.radius()) >= 0) continue;
    out.push_back({i, std::max<Coord>(d.FloorUnits() - radius - e.radius(), 0)});
  }
  return out;
}

bool SweepOverlapsDisc(const Polyline& path, Coord radius, const Disc& other, Coord eps) {
  return PointPath(other.centre(), path).Compare(radius + other.radius() - eps) < 0;
}

bool SweepSharesArea(const Polyline& path, Coord radius, const Polygon& polygon, Coord eps) {
  return PathPolygon(path, polygon).Compare(radius - eps) < 0;
}

bool SweepTouches(const Polyline& path, Coord radius, const Polygon& polygon, Coord eps) {
  return PathPolygon(path, polygon).Compare(radius + eps) <= 0;
}

bool PathsMeet(const Polyline& path, const Polyline& centre_line) {
  auto segments = [](const Polyline& p) {
    std::vector<Segment> s = p.Segments();
    if (s.empty()) s.push_back({p.vertices()[0], p.vertices()[0]});
    return s;
  };
  for (const Segment& a : segments(path)) {
    for (const Segment& b : segments(centre_line)) {
      if (SegmentsIntersect(a, b)) return true;
    }
  }
  return false;
}

bool DiscOverlapsBody(const Disc& disc, const Polyline& centre_line, Coord half_thickness,
                      Coord eps) {
  return PointPath(disc.centre(), centre_line).Compare(disc.radius() + half_thickness - eps) < 0;
}

bool PathMeets(const Polyline& path, const Polygon& polygon) {
  return PathPolygon(path, polygon).Compare(0) <= 0;
}

bool SweepInsideTable(const Polyline& path, Coord radius, Coord width, Coord height) {
  for (const Point& p : path.vertices()) {
    if (p.x() < radius || p.y() < radius || p.x() > width - radius || p.y() > height - radius) {
      return false;
    }
  }
  return true;
}

std::optional<CoherencyBreach> Coherency(const std::vector<Disc>& models, Coord limit, Coord eps,
                                         CoherencyMode mode) {
  const std::size_t n = models.size();
  auto near = [&](std::size_t i, std::size_t j) {
    return CompareEdgeDistance(models[i], models[j], limit + eps) <= 0;
  };
  // The nearest model among `group` to model j (edge distance, ties: lowest index).
  auto nearest_in = [&](std::size_t j, const std::vector<bool>& group) {
    CoherencyBreach b{j, 0, -1};
    for (std::size_t i = 0; i < n; ++i) {
      if (!group[i] || i == j) continue;
      const Coord d = EdgeDistanceFloor(models[j], models[i]);
      if (b.edge_distance_floor < 0 || d < b.edge_distance_floor) b = {j, i, d};
    }
    return b;
  };
  if (n == 0) return std::nullopt;
  if (mode == CoherencyMode::kSequence) {
    for (std::size_t j = 1; j < n; ++j) {
      bool ok = false;
      for (std::size_t i = 0; i < j && !ok; ++i) ok = near(i, j);
      if (ok) continue;
      std::vector<bool> earlier(n, false);
      std::fill(earlier.begin(), earlier.begin() + static_cast<std::ptrdiff_t>(j), true);
      return nearest_in(j, earlier);
    }
    return std::nullopt;
  }
  const std::vector<bool> reached = ReachedFromFirst(n, near);
  if (const auto j = FirstUnreached(reached)) return nearest_in(*j, reached);
  return std::nullopt;
}

}  // namespace pbem::table
