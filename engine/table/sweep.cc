#include "engine/table/sweep.h"

#include <algorithm>

#include "engine/table/predicates.h"

namespace pbem::table {
namespace {

std::vector<Point> Corners(const Rect& r) { return {r.corners().begin(), r.corners().end()}; }

std::optional<Polygon> HullOf(const Rect& a, const Rect& b) {
  std::vector<Point> points = Corners(a);
  points.insert(points.end(), b.corners().begin(), b.corners().end());
  return ConvexHull(std::move(points));
}

}  // namespace

std::optional<Polygon> ConvexHull(std::vector<Point> points) {
  // Andrew's monotone chain on integers: exact.
  std::sort(points.begin(), points.end(),
            [](Point p, Point q) { return p.x() != q.x() ? p.x() < q.x() : p.y() < q.y(); });
  points.erase(std::unique(points.begin(), points.end()), points.end());
  if (points.size() < 3) return std::nullopt;
  std::vector<Point> hull(2 * points.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    while (k >= 2 && Orientation(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && Orientation(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  hull.resize(k - 1);
  return Polygon::Make(std::move(hull));
}

std::optional<std::vector<Polygon>> Sweep(const Rect& start, const std::vector<Leg>& legs) {
  std::vector<Polygon> pieces{start.footprint()};
  Rect at = start;
  for (const Leg& leg : legs) {
    std::vector<Rect> poses;
    if (leg.kind == Leg::Kind::kTranslate) {
      const auto moved = Move(at, {leg});
      if (!moved) return std::nullopt;
      poses.push_back(moved->end);
    } else {
      const std::int64_t total = leg.millidegrees;
      const std::int64_t steps =
          std::max<std::int64_t>(1, ((total < 0 ? -total : total) + 999) / 1000);
      for (std::int64_t k = 1; k <= steps; ++k) {
        // Each pose from the leg's start: no rounding accumulates over the steps.
        const auto moved = Move(at, {{Leg::Kind::kRotate, Point(), total * k / steps, leg.pivot}});
        if (!moved) return std::nullopt;
        poses.push_back(moved->end);
      }
    }
    Rect previous = at;
    for (const Rect& pose : poses) {
      if (auto hull = HullOf(previous, pose)) pieces.push_back(*hull);
      previous = pose;
    }
    at = previous;
  }
  return pieces;
}

bool SweepOverlaps(const std::vector<Polygon>& sweep, const Polygon& footprint, Coord eps) {
  return std::any_of(sweep.begin(), sweep.end(),
                     [&](const Polygon& piece) { return ConvexOverlap(piece, footprint, eps); });
}

bool SweepTouches(const std::vector<Polygon>& sweep, const Polygon& footprint, Coord eps) {
  return std::any_of(sweep.begin(), sweep.end(), [&](const Polygon& piece) {
    return ConvexDistance(piece, footprint).Compare(eps) <= 0;
  });
}

}  // namespace pbem::table
