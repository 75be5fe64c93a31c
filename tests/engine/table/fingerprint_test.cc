// A fingerprint of many predicate answers on random tables, printed (hidden test, run with
// `table_tests "[fingerprint]"`), to compare a gcc build with a clang build byte for byte.
#include <catch2/catch.hpp>
#include <cstdio>

#include "engine/table/available.h"
#include "engine/table/commander.h"
#include "engine/table/contact.h"
#include "engine/table/discs.h"
#include "engine/table/formation.h"
#include "engine/table/neck.h"
#include "engine/table/path.h"
#include "engine/table/rect.h"
#include "engine/table/region.h"
#include "engine/table/sweep.h"
#include "engine/table/vision.h"
#include "engine/table/walls.h"
#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

struct Fnv {
  std::uint64_t h = 1469598103934665603ULL;
  void Add(std::int64_t v) {
    for (int i = 0; i < 8; ++i)
      h = (h ^ ((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xff)) * 1099511628211ULL;
  }
};

TEST_CASE("fingerprint of the table's answers", "[.fingerprint]") {
  reference::Rng rng(99);
  Fnv f;
  const Coord t = 48 * kUnitsPerInch;
  for (int i = 0; i < 20000; ++i) {
    std::vector<Point> v;
    for (int k = 0; k < 4; ++k) v.push_back(rng.PointIn(0, t));
    const Polyline path = *Polyline::Make(v);
    const PathLength l = Length(path);
    f.Add(l.CeilUnits());
    f.Add(LengthWithin(l, rng.Between(0, 3 * t)).within);
    const Point c = rng.PointIn(0, t);
    const Disc e = *Disc::Make(c, rng.Between(0, kUnitsPerInch));
    for (const ClearanceBreach& b :
         EnemyClearance(path, kUnitsPerInch / 2, {e}, 2 * kUnitsPerInch, 2540)) {
      f.Add(b.edge_distance_floor);
    }
    const std::int64_t heading = rng.Between(0, 359999);
    const UnitVector u = HeadingVector(heading);
    f.Add(u.x);
    f.Add(u.y);
    f.Add(InForwardArc(v[0], heading, v[1], 12700, 2540));
    const auto r = Rect::Make(v[2], 4 * kUnitsPerCm, 2 * kUnitsPerCm, heading);
    if (r) {
      for (const Point& p : r->corners()) f.Add(p.x() * 3 + p.y());
      const auto other = Rect::Make(v[3], 4 * kUnitsPerCm, 2 * kUnitsPerCm, heading / 2);
      if (other) {
        f.Add(static_cast<int>(ContactKind(*r, *other, 1000, 500)));
        f.Add(static_cast<int>(Classify({*r, *other}, 1000, 500)));
        const Leg turn{Leg::Kind::kRotate, Point(), heading - 180000, v[1]};
        if (const auto m = Move(*r, {turn})) f.Add(TravelCeilUnits(*m));
        if (const auto sweep = Sweep(*r, {turn}))
          f.Add(SweepOverlaps(*sweep, other->footprint(), 1000));
      }
    }
    const Wall wall{{v[0], v[1]}, {{rng.Between(0, t), rng.Between(0, t)}}};
    const WallCrossings w = CrossWall(*Polyline::Make({v[2], v[3]}), wall, 127000, 2540);
    f.Add(w.crossings * 2 + w.through_openings);
    if (const auto area = Polygon::Make({v[0], v[1], v[2]})) {
      f.Add(EntersAfterOutside(path, *area));
      f.Add(PathInside(path, *area));
    }
  }
  std::printf("table fingerprint: %016llx\n", static_cast<unsigned long long>(f.h));
  CHECK(f.h != 0);
}

// The French digest's later predicates (WME-P01 discs, P10, P11, P12, P17) in a hash of their
// own, so that the first one stays comparable with earlier builds.
TEST_CASE("fingerprint of the WME predicates", "[.fingerprint]") {
  reference::Rng rng(98);
  Fnv f;
  const Coord t = 60 * kUnitsPerCm, eps = kUnitsPerCm / 100;
  auto base = [&](Point c) {
    const std::int64_t heading = rng.Between(0, 359999);
    return *Rect::Make(c, 4 * kUnitsPerCm, 2 * kUnitsPerCm, heading);
  };
  for (int i = 0; i < 3000; ++i) {
    const Point a = rng.PointIn(t / 3, 2 * t / 3);
    const Rect viewer = base(a);
    const Point b = rng.PointIn(0, t);
    const Rect target = base(b);
    const Point c = rng.PointIn(t / 4, 3 * t / 4);
    const Rect other = base(c);
    const Disc commander = *Disc::Make(b, rng.Between(0, 2 * kUnitsPerCm));
    f.Add(CompareDistance(commander, viewer.footprint(), rng.Between(0, kUnitsPerCm)));
    f.Add(DistanceFloor(commander, viewer.footprint()));
    f.Add(Overlap(commander, other, eps) * 2 + Touch(commander, other, eps));
    f.Add(InVisionArc(viewer, target.footprint(), VisionArc::kWedge90) * 2 +
          InVisionArc(viewer, target.footprint(), VisionArc::kHalfPlane));
    if (const auto line =
            FindSightline(viewer, target.footprint(), {other.footprint()}, VisionArc::kWedge90)) {
      f.Add(line->from.x() * 3 + line->from.y());
      f.Add(line->to.x() * 3 + line->to.y());
    }
    const std::size_t edge = static_cast<std::size_t>(rng.Between(0, 3));
    const ContactLength len =
        AvailableLength(target, edge, 4 * kUnitsPerCm, 2 * kUnitsPerCm, {other.footprint()});
    f.Add(len.FloorUnits());
    f.Add(len.Compare(kUnitsPerCm - eps));
    f.Add(Pinned({target}, {other}, {viewer}, 4 * kUnitsPerCm, 2 * kUnitsPerCm, kUnitsPerCm, eps,
                 500));
    const std::vector<Obstacle> obstacles{{{other.footprint()}}, {{target.footprint()}}};
    if (const auto breach = NeckAtPose(viewer, obstacles, kUnitsPerCm, eps, false)) {
      f.Add(static_cast<std::int64_t>(breach->obstacle));
      f.Add(breach->gap_floor);
    }
    if (i % 10 == 0) {
      const Leg move{Leg::Kind::kTranslate, c, 0, Point()};
      const auto breach = CheckNeck(viewer, {move}, obstacles, kUnitsPerCm, eps, 10 * eps);
      f.Add(breach ? static_cast<std::int64_t>(breach->pose) : -1);
    }
  }
  std::printf("table WME fingerprint: %016llx\n", static_cast<unsigned long long>(f.h));
  CHECK(f.h != 0);
}

}  // namespace
}  // namespace pbem::table
