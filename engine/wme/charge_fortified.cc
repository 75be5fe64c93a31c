// §5.4 steps 5-6 against a fortified target (WME-R64..R66, P18; GAP-27): the first base stands
// against the outer face of the fortification in front of a target base and counts as in
// contact with it across the wall.
//
// Readings chosen where the digest is open:
// - Faces: every side of every piece of a `fortification` feature; its reach (WME-P18: "the
//   wall thickness + 1 cm") is the piece's depth behind that side (the farthest vertex from the
//   side's line, rounded up) + `fortification_reach_cm`.
// - For each charger base that sees a target base (WME-P10; walls do not block sight, GAP-39),
//   the slot faces the target base's front edge (WME-R65: always the front) with its front edge
//   on a face parallel to that edge, centred on the target base; it must overlap nothing
//   (other units' bases, forbidden terrain, the fortification, beyond the table) and make
//   WME-P18's fortified contact. The AUTO path (W-R7) must reach it within the allowance
//   without crossing the fortification. Least travel wins (ties: state order). No slot:
//   ILLEGAL FRONT_LINE_IMPOSSIBLE. Sliding off centre ("as centred as possible") is not searched.
// - The other bases of the charger follow step 7, which does not count contact across a wall:
//   they go to the reserve unless they touch an enemy.
//
//   WME-T22 (b):   [Fo.1][Fo.2][Fo.3]   y 99-101, facing south
//                  ==================   wall y 98-99 (x 37-51)
//                              [I ]     I -> (48,97) facing north, front edge on y = 98
#include <algorithm>

#include "engine/table/contact.h"
#include "engine/table/vision.h"
#include "engine/wme/charge.h"
#include "engine/wme/sight.h"
#include "engine/wme/validate.h"

namespace pbem::wme {
namespace {

using table::Int128;
using table::UInt128;

struct Face {
  table::Segment side;
  table::Coord reach = 0;
};

std::vector<Face> Faces(const Ruleset& ruleset, const Scenario& scenario) {
  std::vector<Face> out;
  for (const TerrainFeature& feature : scenario.terrain) {
    if (!feature.fortification) continue;
    for (const table::Polygon& piece : feature.pieces) {
      const std::vector<table::Point>& v = piece.vertices();
      for (std::size_t k = 0; k < v.size(); ++k) {
        const table::Segment side{v[k], v[(k + 1) % v.size()]};
        const table::Vector along = side.b - side.a;
        const UInt128 len = table::ISqrt(static_cast<UInt128>(table::Dot(along, along)));
        if (len == 0) continue;
        Int128 depth = 0;
        for (const table::Point& p : v) {
          const Int128 c = table::Cross(along, p - side.a);
          depth = std::max(depth, c < 0 ? -c : c);
        }
        const Int128 thickness = (depth + static_cast<Int128>(len) - 1) / static_cast<Int128>(len);
        out.push_back(Face{
            side, static_cast<table::Coord>(thickness) + ToUnits(ruleset.fortification_reach_cm)});
      }
    }
  }
  return out;
}

}  // namespace

std::optional<Verdict> PlaceFortified(const Ruleset& ruleset, const Scenario& scenario,
                                      const State& state, const ChargeOrder& order,
                                      std::vector<table::Polygon> terrain, ChargeCheck& check) {
  const table::Coord eps = ToUnits(ruleset.epsilon_cm);
  const std::vector<Face> faces = Faces(ruleset, scenario);
  for (const TerrainFeature& feature : scenario.terrain) {
    if (feature.fortification) {
      terrain.insert(terrain.end(), feature.pieces.begin(), feature.pieces.end());
    }
  }
  std::vector<table::Polygon> obstacles = terrain;
  for (const BaseState& b : state.bases) {
    if (b.alive && b.unit != order.unit) obstacles.push_back(Footprint(b).footprint());
  }
  auto slots = [&](const BaseState& base, const table::Rect& target) {
    const table::UnitVector n = table::HeadingVector(target.heading());
    const table::Segment front = target.Edge(0);
    const Int128 mx2 = Int128{front.a.x()} + front.b.x();  // twice the edge's midpoint
    const Int128 my2 = Int128{front.a.y()} + front.b.y();
    std::vector<table::Rect> out;
    for (const Face& face : faces) {
      // Distance of the face's line ahead of the front edge, along n (parallel faces only:
      // FortifiedContact checks the angle).
      const Int128 ahead2 = Int128{face.side.a.x()} * 2 * n.x + Int128{face.side.a.y()} * 2 * n.y -
                            (mx2 * n.x + my2 * n.y);
      const table::Coord ahead =
          static_cast<table::Coord>(table::RoundDiv(ahead2, Int128{table::kUnitOne} * 2));
      if (ahead < 0) continue;
      const Int128 shift = Int128{ahead} * 2 + base.depth;  // twice the centre's distance
      const std::optional<table::Point> centre = table::Point::Make(
          static_cast<table::Coord>(
              table::RoundDiv(mx2 * table::kUnitOne + shift * n.x, Int128{table::kUnitOne} * 2)),
          static_cast<table::Coord>(
              table::RoundDiv(my2 * table::kUnitOne + shift * n.y, Int128{table::kUnitOne} * 2)));
      if (!centre) continue;
      const std::optional<table::Rect> slot =
          FootprintAt(base, *centre, NormaliseHeading(target.heading() + 180000));
      if (slot &&
          table::FortifiedContact(*slot, face.side, target, face.reach, eps, ruleset.epsilon_deg)) {
        out.push_back(*slot);
      }
    }
    return out;
  };
  return PlaceLeastTravel(ruleset, scenario, state, order, terrain, obstacles, slots, check);
}

}  // namespace pbem::wme
