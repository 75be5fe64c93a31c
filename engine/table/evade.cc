#include "engine/table/evade.h"

#include <algorithm>

#include "engine/table/distance.h"
#include "engine/table/facing.h"

namespace pbem::table {
namespace {

struct Candidate {
  SquaredDistance d;
  Point on_unit;
  Point on_enemy;
};

// The point of s nearest to q, rounded to the grid.
Point Foot(Point q, const Segment& s) {
  const Vector ab = s.b - s.a;
  const Int128 len2 = Dot(ab, ab);
  const Int128 dot = Dot(q - s.a, ab);
  if (len2 == 0 || dot <= 0) return s.a;
  if (dot >= len2) return s.b;
  // On the segment, so within the bounds of its ends.
  return *Point::Make(static_cast<Coord>(s.a.x() + RoundDiv(Int128{ab.x} * dot, len2)),
                      static_cast<Coord>(s.a.y() + RoundDiv(Int128{ab.y} * dot, len2)));
}

int CompareDistances(const SquaredDistance& x, const SquaredDistance& y) {
  return CompareProducts(x.num, y.den, y.num, x.den);
}

// The midpoint of the extreme points (lexicographic order) of `points`, rounded.
Point Middle(std::vector<Point> points) {
  const auto [lo, hi] = std::minmax_element(points.begin(), points.end(), [](Point a, Point b) {
    return a.x() != b.x() ? a.x() < b.x() : a.y() < b.y();
  });
  return *Point::Make(static_cast<Coord>(RoundDiv(Int128{lo->x()} + hi->x(), 2)),
                      static_cast<Coord>(RoundDiv(Int128{lo->y()} + hi->y(), 2)));
}

}  // namespace

std::optional<EvadeDirection> Evade(const std::vector<Rect>& unit, const std::vector<Rect>& enemy) {
  std::vector<Candidate> candidates;
  for (const Rect& a : unit) {
    for (const Rect& b : enemy) {
      if (ConvexDistance(a.footprint(), b.footprint()).Compare(0) <= 0) return std::nullopt;
      for (std::size_t i = 0; i < 4; ++i) {
        for (std::size_t j = 0; j < 4; ++j) {
          const Point va = a.corners()[i], vb = b.corners()[j];
          candidates.push_back({PointSegment(va, b.Edge(j)), va, Foot(va, b.Edge(j))});
          candidates.push_back({PointSegment(vb, a.Edge(i)), Foot(vb, a.Edge(i)), vb});
        }
      }
    }
  }
  if (candidates.empty()) return std::nullopt;
  const Candidate* best = &candidates[0];
  for (const Candidate& c : candidates) {
    if (CompareDistances(c.d, best->d) < 0) best = &c;
  }
  std::vector<Point> on_unit, on_enemy;
  for (const Candidate& c : candidates) {
    if (CompareDistances(c.d, best->d) != 0) continue;
    on_unit.push_back(c.on_unit);
    on_enemy.push_back(c.on_enemy);
  }
  return EvadeDirection{Middle(on_unit), Middle(on_enemy)};
}

bool WithinAngle(Vector leg, Vector u, std::int64_t tolerance_millidegrees) {
  if (Dot(leg, u) <= 0) return false;
  // sin^2(angle) <= sin^2(tolerance): cross^2 * 2^120 <= sin^2 * |leg|^2 |u|^2.
  const std::int64_t sine =
      HeadingVector(std::clamp<std::int64_t>(tolerance_millidegrees, 0, 90000)).y;
  const UInt128 lengths = static_cast<UInt128>(Dot(leg, leg)) * static_cast<UInt128>(Dot(u, u));
  return CompareProducts(Square(Cross(leg, u)), UInt128{1} << 120, Square(sine), lengths) <= 0;
}

bool Away(Vector leg, Vector u) { return Dot(leg, u) > 0; }

}  // namespace pbem::table
