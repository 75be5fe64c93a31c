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
  std::vector<table::Polygon> obstacles = terrain;
  std::vector<table::Rect> friends;
  for (const BaseState& b : state.bases) {
    if (!b.alive || b.unit == order.unit) continue;
    obstacles.push_back(Footprint(b).footprint());
    if (FindUnit(state, b.unit)->owner == owner) friends.push_back(Footprint(b));
  }
  auto slots = [&](const BaseState& base, const table::Rect& target) {
    constexpr std::int64_t kTurn[] = {180000, 90000, 0, -90000};  // facing edge 0..3
    const std::int64_t heading = NormaliseHeading(target.heading() + kTurn[edge]);
    const table::UnitVector f = table::HeadingVector(heading);
    const table::UnitVector l = table::LeftOf(f);
    const table::Segment e = target.Edge(edge);
    const table::Int128 two_one = table::Int128{table::kUnitOne} * 2;
    std::vector<table::Rect> out;
    for (const table::Point& c : {e.a, e.b}) {
      for (const int side : {1, -1}) {  // FR (centre to the left of c), then FL
        // centre = c - (D/2) f + side (W/2) l
        const std::optional<table::Point> centre = table::Point::Make(
            c.x() + static_cast<table::Coord>(table::RoundDiv(
                        -table::Int128{f.x} * base.depth + side * table::Int128{l.x} * base.width,
                        two_one)),
            c.y() + static_cast<table::Coord>(table::RoundDiv(
                        -table::Int128{f.y} * base.depth + side * table::Int128{l.y} * base.width,
                        two_one)));
        if (!centre) continue;
        const std::optional<table::Rect> slot = FootprintAt(base, *centre, heading);
        if (!slot ||
            table::ContactKind(*slot, target, eps, ruleset.epsilon_deg) !=
                table::Contact::kCorner ||
            std::none_of(friends.begin(), friends.end(), [&](const table::Rect& r) {
              return table::ContactKind(*slot, r, eps, ruleset.epsilon_deg) ==
                     table::Contact::kEdge;
            })) {
          continue;
        }
        out.push_back(*slot);
      }
    }
    return out;
  };
  return PlaceLeastTravel(ruleset, scenario, state, order, terrain, obstacles, slots, check);
}

}  // namespace pbem::wme
