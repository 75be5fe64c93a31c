// §5.4 step 5 -> the pinned procedure (WME-R57, R58, P17): against a pinned target the first
// base may be placed corner to corner with the enemy and edge to edge with the friendly troops
// already there, provided that corner is visible and within reach.
//
// Readings chosen where the digest is open:
// - The first base keeps the heading of a frontal slot on the zone's edge (facing that edge),
//   and one of its front corners (FL, FR) meets an end of the zone's edge of a target base; the
//   place must overlap nothing (bases of other units, forbidden terrain, beyond the table), meet
//   the target only at that corner (WME-P04 corner contact) and touch a base of a friendly unit
//   (of the charger's side) along an edge.
// - "Visible": the charger base sees that target base (WME-P10); "within reach": W-R7's AUTO
//   path within the allowance with a free sweep (as step 6). Among the places that qualify, the
//   charger base and place with the least travel (ties: state order, then target bases in
//   state order, then FR before FL); `first_base` and `target_base` restrict the choice.
// - No such place: ILLEGAL FRONT_LINE_IMPOSSIBLE (the charger cannot be placed at all).
//
//   WME-T21 (a):      [P3][Q ][P4]      Q pinned on every side (P1 in front, P2 behind)
//                       [N ][P1]        N (146,58) facing north: its FR corner on Q's (148,59),
//                                       edge to edge with P1 (x = 148) and P3 (y = 59)
#include <algorithm>

#include "engine/table/contact.h"
#include "engine/table/vision.h"
#include "engine/wme/charge.h"
#include "engine/wme/sight.h"
#include "engine/wme/validate.h"

namespace pbem::wme {

std::optional<Verdict> PlacePinned(const Ruleset& ruleset, const Scenario& scenario,
                                   const State& state, const ChargeOrder& order,
                                   const std::vector<table::Polygon>& terrain, ChargeCheck& check) {
  const table::Coord eps = ToUnits(ruleset.epsilon_cm);
  const std::size_t edge = ChargeEdge(*check.zone);
  const std::string& owner = FindUnit(state, order.unit)->owner;
  const std::vector<table::Polygon> blockers =
      Blockers(ruleset, scenario, state, order.unit, order.target);
  std::vector<table::Polygon> obstacles = terrain;
  std::vector<table::Rect> friends;
  for (const BaseState& b : state.bases) {
    if (!b.alive || b.unit == order.unit) continue;
    obstacles.push_back(Footprint(b).footprint());
    if (FindUnit(state, b.unit)->owner == owner) friends.push_back(Footprint(b));
  }
  std::optional<FirstBase> best;
  for (std::size_t i : BasesOf(state, order.unit)) {
    const BaseState& base = state.bases[i];
    if (order.first_base && base.id != *order.first_base) continue;
    const table::Rect start = Footprint(base);
    for (std::size_t t : BasesOf(state, order.target)) {
      if (order.target_base && state.bases[t].id != *order.target_base) continue;
      const table::Rect target = Footprint(state.bases[t]);
      if (!table::Sees(start, target.footprint(), blockers, ArcOf(ruleset))) continue;
      constexpr std::int64_t kTurn[] = {180000, 90000, 0, -90000};  // facing edge 0..3
      const std::int64_t heading = NormaliseHeading(target.heading() + kTurn[edge]);
      const table::UnitVector f = table::HeadingVector(heading);
      const table::UnitVector l = table::LeftOf(f);
      const table::Segment e = target.Edge(edge);
      for (const table::Point& c : {e.a, e.b}) {
        for (const int side : {1, -1}) {  // FR (centre to the left of c), then FL
          // centre = c - (D/2) f + side (W/2) l
          const table::Int128 two_one = table::Int128{table::kUnitOne} * 2;
          const std::optional<table::Point> centre = table::Point::Make(
              c.x() + static_cast<table::Coord>(table::RoundDiv(
                          -table::Int128{f.x} * base.depth + side * table::Int128{l.x} * base.width,
                          two_one)),
              c.y() + static_cast<table::Coord>(table::RoundDiv(
                          -table::Int128{f.y} * base.depth + side * table::Int128{l.y} * base.width,
                          two_one)));
          if (!centre) continue;
          const std::optional<table::Rect> slot = FootprintAt(base, *centre, heading);
          if (!slot) continue;
          if (std::any_of(obstacles.begin(), obstacles.end(), [&](const table::Polygon& o) {
                return table::ConvexOverlap(slot->footprint(), o, 0);
              })) {
            continue;
          }
          if (table::ContactKind(*slot, target, eps, ruleset.epsilon_deg) !=
              table::Contact::kCorner) {
            continue;
          }
          if (std::none_of(friends.begin(), friends.end(), [&](const table::Rect& r) {
                return table::ContactKind(*slot, r, eps, ruleset.epsilon_deg) ==
                       table::Contact::kEdge;
              })) {
            continue;
          }
          std::optional<PlacedBase> reach =
              ReachByAuto(ruleset, state, order.unit, i, *slot, check.allowance, terrain);
          if (reach && (!best || reach->travel < best->travel)) {
            best = FirstBase{i, t, std::move(reach->legs), *slot, reach->travel};
          }
        }
      }
    }
  }
  if (!best) {
    Verdict v = Refusal(order.unit, Reason::kFrontLineImpossible);
    v.other = order.target;
    return v;
  }
  check.first = best;
  return std::nullopt;
}

}  // namespace pbem::wme
