#include "engine/table/motion.h"

#include <algorithm>

namespace pbem::table {
namespace {

// pi * 2^60 lies strictly between these.
constexpr UInt128 kPiLow = 3622009729038561420u;
constexpr UInt128 kPiHigh = 3622009729038561422u;

// round(v / 2^60), halves away from zero.
Coord RoundUnit(Int128 v) {
  const Int128 half = Int128{1} << (kUnitBits - 1);
  return static_cast<Coord>(v >= 0 ? (v + half) >> kUnitBits : -((-v + half) >> kUnitBits));
}

// Bounds of |p - q| * 2^32.
void AddDistance(Point p, Point q, PathLength& into) {
  const PathLength l = Length(*Polyline::Make({p, q}));
  into.lower += l.lower;
  into.upper += l.upper;
}

// Bounds of |α| * π / 180 * |q - P| * 2^32, with |α| in millidegrees (<= 360000).
void AddArc(Point q, Point pivot, std::int64_t millidegrees, PathLength& into) {
  const UInt128 a = static_cast<UInt128>(millidegrees < 0 ? -millidegrees : millidegrees);
  const PathLength r = Length(*Polyline::Make({q, pivot}));  // r * 2^32 <= 2^63
  // (r * pi) first (< 2^125), then * |α| (< 2^84), then / 180000; floors for the lower bound,
  // ceilings for the upper one.
  const UInt128 one = UInt128{1} << kUnitBits;
  const UInt128 low = ((r.lower * kPiLow) >> kUnitBits) * a / 180000;
  const UInt128 high_pi = (r.upper * kPiHigh + one - 1) >> kUnitBits;
  const UInt128 high = (high_pi * a + 180000 - 1) / 180000;
  into.lower += low;
  into.upper += high;
}

}  // namespace

std::optional<Point> Rotate(Point p, Point pivot, std::int64_t millidegrees) {
  const UnitVector u = HeadingVector(millidegrees);
  const Vector d = p - pivot;
  const Int128 x = Int128{d.x} * u.x - Int128{d.y} * u.y;
  const Int128 y = Int128{d.x} * u.y + Int128{d.y} * u.x;
  return Point::Make(pivot.x() + RoundUnit(x), pivot.y() + RoundUnit(y));
}

std::optional<Motion> Move(const Rect& start, const std::vector<Leg>& legs) {
  Motion m{start, {}};
  for (const Leg& leg : legs) {
    const Rect& at = m.end;
    std::optional<Rect> next;
    if (leg.kind == Leg::Kind::kTranslate) {
      for (PathLength& t : m.travelled) AddDistance(at.centre(), leg.target, t);
      next = Rect::Make(leg.target, at.width(), at.depth(), at.heading());
    } else {
      if (leg.millidegrees > kMillidegreesPerTurn || leg.millidegrees < -kMillidegreesPerTurn) {
        return std::nullopt;
      }
      for (std::size_t i = 0; i < 4; ++i) {
        AddArc(at.corners()[i], leg.pivot, leg.millidegrees, m.travelled[i]);
      }
      const auto centre = Rotate(at.centre(), leg.pivot, leg.millidegrees);
      if (!centre) return std::nullopt;
      const std::int64_t turned =
          ((at.heading() + leg.millidegrees) % kMillidegreesPerTurn + kMillidegreesPerTurn) %
          kMillidegreesPerTurn;
      next = Rect::Make(*centre, at.width(), at.depth(), turned);
    }
    if (!next) return std::nullopt;
    m.end = *next;
  }
  return m;
}

LengthVerdict TravelWithin(const Motion& motion, Coord limit) {
  LengthVerdict all{true, true};
  for (const PathLength& t : motion.travelled) {
    const LengthVerdict v = LengthWithin(t, limit);
    if (!v.within && v.certain) return v;  // one corner surely too far decides
    all.within = all.within && v.within;
    all.certain = all.certain && v.certain;
  }
  return all;
}

Coord TravelCeilUnits(const Motion& motion) {
  Coord most = 0;
  for (const PathLength& t : motion.travelled) most = std::max(most, t.CeilUnits());
  return most;
}

}  // namespace pbem::table
