#include "engine/table/neck.h"

#include <algorithm>

namespace pbem::table {
namespace {

MinDistance CentreDistance(Point c, const Obstacle& o) {
  MinDistance m;
  for (const Polygon& piece : o.pieces) {
    const MinDistance d = PointPolygon(c, piece);
    if (d.Compare(0) <= 0) {
      m.AddZero();
      return m;
    }
    for (std::size_t i = 0; i < piece.size(); ++i) m.Add(PointSegment(c, piece.Edge(i)));
  }
  return m;
}

Coord GapFloor(const Obstacle& a, const Obstacle& b) {
  Coord best = -1;
  for (const Polygon& p : a.pieces) {
    for (const Polygon& q : b.pieces) {
      const Coord d = ConvexDistance(p, q).FloorUnits();
      if (best < 0 || d < best) best = d;
    }
  }
  return std::max<Coord>(best, 0);
}

}  // namespace

std::optional<NeckBreach> NeckAtPose(const Rect& pose, const std::vector<Obstacle>& obstacles,
                                     Coord half_gap, Coord eps, bool end) {
  const Point c = pose.centre();
  // rho^2 = (W^2 + D^2) / 4.
  const UInt128 rho2_num = Square(pose.width()) + Square(pose.depth());
  std::vector<MinDistance> dist;
  for (const Obstacle& o : obstacles) dist.push_back(CentreDistance(c, o));
  auto clear_of = [&](std::size_t k) { return dist[k].Compare(half_gap - eps) >= 0; };
  for (std::size_t n = 0; n < obstacles.size(); ++n) {
    const bool overlaps =
        std::any_of(obstacles[n].pieces.begin(), obstacles[n].pieces.end(),
                    [&](const Polygon& p) { return ConvexOverlap(pose.footprint(), p, eps); });
    if (!overlaps) continue;
    // Excused: some n' within rho, with both gaps kept. The first n' within rho names the neck
    // in a breach (W-R5); a start or end pose has no neck, its overlap is plain.
    std::optional<std::size_t> neck;
    bool excused = false;
    for (std::size_t m = 0; m < obstacles.size() && !end && !excused; ++m) {
      if (m == n || dist[m].CompareSquared(rho2_num, 4) > 0) continue;
      if (!neck) neck = m;
      excused = clear_of(n) && clear_of(m);
    }
    if (excused) continue;
    NeckBreach b{n, neck, 0, 0};
    if (neck) b.gap_floor = GapFloor(obstacles[n], obstacles[*neck]);
    return b;
  }
  return std::nullopt;
}

std::vector<Rect> SampledPoses(const Rect& start, const std::vector<Leg>& legs, Coord step) {
  step = std::max<Coord>(step, 1);
  std::vector<Rect> poses{start};
  Rect at = start;
  // ceil(rho): the corners' distance from the centre, for the rotation steps.
  const Coord rho =
      static_cast<Coord>(ISqrt((Square(start.width()) + Square(start.depth())) / 4) + 1);
  for (const Leg& leg : legs) {
    if (leg.kind == Leg::Kind::kTranslate) {
      const Vector v = leg.target - at.centre();
      const Coord len = static_cast<Coord>(ISqrt(static_cast<UInt128>(Dot(v, v)))) + 1;
      const std::int64_t steps = std::max<Coord>(1, (len + step - 1) / step);
      for (std::int64_t k = 1; k <= steps; ++k) {
        const auto c =
            Point::Make(static_cast<Coord>(at.centre().x() + RoundDiv(Int128{v.x} * k, steps)),
                        static_cast<Coord>(at.centre().y() + RoundDiv(Int128{v.y} * k, steps)));
        const auto r = c ? Rect::Make(*c, at.width(), at.depth(), at.heading()) : std::nullopt;
        if (!r) return {};
        poses.push_back(*r);
      }
    } else {
      const std::int64_t a = leg.millidegrees < 0 ? -leg.millidegrees : leg.millidegrees;
      // A corner turns on a radius <= reach = rho + |c - pivot|; a step of delta millidegrees
      // moves it at most reach * delta * pi / 180000 <= step with pi <= 355 / 113; and
      // delta <= 1 degree. Headings stay whole millidegrees: every step but the last is delta.
      const Vector off = at.centre() - leg.pivot;
      const Coord reach = rho + static_cast<Coord>(ISqrt(static_cast<UInt128>(Dot(off, off)))) + 1;
      const std::int64_t delta = std::clamp<std::int64_t>(
          static_cast<std::int64_t>(Int128{step} * 113 * 180000 / (Int128{reach} * 355)), 1, 1000);
      const std::int64_t sign = leg.millidegrees < 0 ? -1 : 1;
      for (std::int64_t turned = 0; turned < a;) {
        turned = std::min(a, turned + delta);
        const auto moved = Move(at, {{Leg::Kind::kRotate, Point(), sign * turned, leg.pivot}});
        if (!moved) return {};
        poses.push_back(moved->end);
      }
    }
    at = poses.back();
  }
  // The exact end pose (motion.h), which the samples approach.
  const auto end = Move(start, legs);
  if (!end) return {};
  poses.back() = end->end;
  return poses;
}

std::optional<NeckBreach> CheckNeck(const Rect& start, const std::vector<Leg>& legs,
                                    const std::vector<Obstacle>& obstacles, Coord half_gap,
                                    Coord eps, Coord step) {
  const std::vector<Rect> poses = SampledPoses(start, legs, step);
  for (std::size_t i = 0; i < poses.size(); ++i) {
    if (auto b = NeckAtPose(poses[i], obstacles, half_gap, eps, i == 0 || i + 1 == poses.size())) {
      b->pose = i;
      return b;
    }
  }
  return std::nullopt;
}

}  // namespace pbem::table
