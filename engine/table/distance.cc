#include "engine/table/distance.h"

#include <algorithm>

#include "engine/table/predicates.h"

namespace pbem::table {
int Compare(const SquaredDistance& d, Coord t) {
  t = ClampThreshold(t);
  if (t < 0) return 1;
  const UInt128 t2 = static_cast<UInt128>(t) * static_cast<UInt128>(t);
  return Sign3(d.num, t2 * d.den);
}

Coord FloorUnits(const SquaredDistance& d) {
  // floor(sqrt(x)) == floor(sqrt(floor(x))) for every real x >= 0.
  return static_cast<Coord>(ISqrt(d.num / d.den));
}

SquaredDistance PointPoint(Point p, Point q) {
  const Vector v = p - q;
  return {static_cast<UInt128>(Dot(v, v)), 1};
}

SquaredDistance PointSegment(Point q, const Segment& s) {
  const Vector ab = s.b - s.a;
  const Vector aq = q - s.a;
  const Int128 len2 = Dot(ab, ab);
  const Int128 dot = Dot(aq, ab);
  if (len2 == 0 || dot <= 0) return PointPoint(q, s.a);
  if (dot >= len2) return PointPoint(q, s.b);
  // Interior foot: distance = |cross| / |ab|.
  return {Square(Cross(ab, aq)), static_cast<UInt128>(len2)};
}

void MinDistance::Add(const SquaredDistance& d) {
  const Coord f = table::FloorUnits(d);
  if (!has_ || f < floor_) floor_ = f;
  has_ = true;
  candidates_.push_back(d);
}

int MinDistance::Compare(Coord t) const {
  int best = 1;
  for (const SquaredDistance& d : candidates_) best = std::min(best, table::Compare(d, t));
  return best;
}

int MinDistance::CompareSquared(UInt128 num, UInt128 den) const {
  int best = 1;
  for (const SquaredDistance& d : candidates_)
    best = std::min(best, CompareProducts(d.num, den, num, d.den));
  return best;
}

MinDistance SegmentSegment(const Segment& s, const Segment& t) {
  MinDistance m;
  if (SegmentsIntersect(s, t)) {
    m.AddZero();
    return m;
  }
  m.Add(PointSegment(s.a, t));
  m.Add(PointSegment(s.b, t));
  m.Add(PointSegment(t.a, s));
  m.Add(PointSegment(t.b, s));
  return m;
}

namespace {

void AddSegmentPolygon(const Segment& s, const Polygon& polygon, MinDistance& m) {
  if (InPolygon(s.a, polygon)) {
    m.AddZero();
    return;
  }
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const MinDistance e = SegmentSegment(s, polygon.Edge(i));
    if (e.Compare(0) <= 0) {
      m.AddZero();
      return;
    }
    const Segment edge = polygon.Edge(i);
    m.Add(PointSegment(s.a, edge));
    m.Add(PointSegment(s.b, edge));
    m.Add(PointSegment(edge.a, s));
  }
}

}  // namespace

MinDistance PointPolygon(Point p, const Polygon& polygon) {
  return PathPolygon(*Polyline::Make({p}), polygon);
}

MinDistance PathPolygon(const Polyline& path, const Polygon& polygon) {
  MinDistance m;
  const std::vector<Point>& v = path.vertices();
  if (v.size() == 1) {
    AddSegmentPolygon({v[0], v[0]}, polygon, m);
    return m;
  }
  for (const Segment& s : path.Segments()) AddSegmentPolygon(s, polygon, m);
  return m;
}

MinDistance PointPath(Point q, const Polyline& path) {
  MinDistance m;
  const std::vector<Point>& v = path.vertices();
  if (v.size() == 1) m.Add(PointPoint(q, v[0]));
  for (const Segment& s : path.Segments()) m.Add(PointSegment(q, s));
  return m;
}

}  // namespace pbem::table
