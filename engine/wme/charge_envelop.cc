// §5.4 step 8: *charge enveloppante* (WME-R60, R61; GAP-21), after the front line of step 7.
//
// Readings chosen where the digest is open:
// - WME-R60's conditions: the charger is NON_CHOC; the zone is a flank; the first base touches
//   the target (always so after step 6); the charger's type may pursue the target's
//   (`pursuit_matrix: wmr`, GAP-21: artillery never pursues; infantry may pursue cavalry and
//   chariots only when it charged them in flank or rear, which an envelopment always is, so
//   every other type may). Asked for (`envelop: true`) and not met: the charge goes on without
//   envelopment and its verdict is OK with the warning ENVELOP_CONDITIONS_NOT_MET (§5.4 step 8's
//   DEFAULT).
// - The bases step 7 left out of contact wheel, the one farthest from the first base first
//   (so the bases still waiting stay joined to it). Each takes, among the places that are in
//   frontal contact (W-R2) with an edge of an enemy base (WME-R61: "a wheeling base may contact
//   another enemy unit"), touch the first base by edge or corner, and overlap nothing, the one
//   it reaches with the least travel by W-R7's AUTO path within the allowance (the turn is
//   paid for, WME-P03); ties: the first found (enemy bases in state order, edges front, right,
//   rear, left). Candidate places: the slot's side through a corner of the first base. A base
//   whose wheel would leave the unit out of formation (WME-P05), or that has no such place,
//   keeps its step-7 place. A corner-only contact is not searched (the digest allows it "at
//   worst").
//
//        T T T          T faces east (x 59-61); the charger came from the south:
//     [1]T T T[3]       1 wheels to (58,50) facing east onto T's rear edge, 3 to (62,50)
//        [F]            facing west onto T's front edge, both touching F along y = 48
#include <algorithm>

#include "engine/table/contact.h"
#include "engine/table/formation.h"
#include "engine/wme/charge.h"
#include "engine/wme/validate.h"

namespace pbem::wme {
namespace {

using table::Int128;

bool Touches(const table::Rect& r, const std::vector<table::Rect>& others, table::Coord eps) {
  return std::any_of(others.begin(), others.end(),
                     [&](const table::Rect& o) { return table::Touch(r, o, eps); });
}

// The places facing `edge` of `enemy` whose side passes through a corner of `first`.
std::vector<table::Rect> Candidates(const table::Rect& enemy, std::size_t edge,
                                    const table::Rect& first, const BaseState& model) {
  constexpr std::int64_t kTurn[] = {0, -90000, 180000, 90000};  // front, right, rear, left
  const std::int64_t normal = NormaliseHeading(enemy.heading() + kTurn[edge]);
  const table::UnitVector n = table::HeadingVector(normal);
  const table::UnitVector along = table::LeftOf(n);
  const table::Segment e = enemy.Edge(edge);
  const Int128 one{table::kUnitOne};
  std::vector<table::Rect> out;
  for (const table::Point& v : first.corners()) {
    const table::Vector d = v - e.a;
    const table::Coord a = static_cast<table::Coord>(
        table::RoundDiv(Int128{d.x} * along.x + Int128{d.y} * along.y, one));
    for (const table::Coord t : {a - model.width / 2, a + model.width / 2}) {
      // centre = e.a + t * along + (depth / 2) * n
      const std::optional<table::Point> centre = table::Point::Make(
          e.a.x() + static_cast<table::Coord>(table::RoundDiv(
                        Int128{along.x} * 2 * t + Int128{n.x} * model.depth, one * 2)),
          e.a.y() + static_cast<table::Coord>(table::RoundDiv(
                        Int128{along.y} * 2 * t + Int128{n.y} * model.depth, one * 2)));
      if (!centre) continue;
      if (std::optional<table::Rect> r =
              FootprintAt(model, *centre, NormaliseHeading(normal + 180000))) {
        out.push_back(*r);
      }
    }
  }
  return out;
}

}  // namespace

std::optional<Verdict> Envelop(const Ruleset& ruleset, const State& state, const ChargeOrder& order,
                               const std::vector<table::Polygon>& terrain, ChargeCheck& check) {
  if (!order.envelop) return std::nullopt;
  const table::Coord eps = ToUnits(ruleset.epsilon_cm);
  FrontLine& line = *check.line;
  const UnitState& unit = *FindUnit(state, order.unit);
  std::vector<table::Rect> target;
  std::vector<table::Rect> enemies;
  std::vector<table::Polygon> obstacles = terrain;
  for (const BaseState& b : state.bases) {
    if (!b.alive || b.unit == order.unit) continue;
    obstacles.push_back(Footprint(b).footprint());
    if (FindUnit(state, b.unit)->owner == unit.owner) continue;
    enemies.push_back(Footprint(b));
    if (b.unit == order.target) target.push_back(Footprint(b));
  }
  const table::Rect first = line.bases.front().slot;
  const bool flank =
      check.zone == table::Zone::kLeftFlank || check.zone == table::Zone::kRightFlank;
  const bool pursues = unit.troop_type != TroopType::kArtillery;  // GAP-21 (above)
  if (unit.mount != Mount::kNonChoc || !flank || !Touches(first, target, eps) || !pursues) {
    Verdict warning;
    warning.unit = order.unit;
    warning.reason = Reason::kEnvelopConditionsNotMet;
    warning.other = order.target;
    return warning;
  }
  const BaseState& model = state.bases[line.bases.front().base];
  for (std::size_t k = line.bases.size(); k-- > 1;) {
    PlacedBase& placed = line.bases[k];
    if (Touches(placed.slot, enemies, eps)) continue;
    std::optional<PlacedBase> best;
    for (const table::Rect& enemy : enemies) {
      for (std::size_t edge = 0; edge < 4; ++edge) {
        for (const table::Rect& slot : Candidates(enemy, edge, first, model)) {
          if (!table::FrontalContactEdge(slot, enemy, eps, ruleset.epsilon_deg) ||
              !table::Touch(slot, first, eps)) {
            continue;
          }
          const bool blocked =
              std::any_of(
                  obstacles.begin(), obstacles.end(),
                  [&](const auto& o) { return table::ConvexOverlap(slot.footprint(), o, 0); }) ||
              std::any_of(line.bases.begin(), line.bases.end(), [&](const PlacedBase& other) {
                return &other != &placed &&
                       table::ConvexOverlap(slot.footprint(), other.slot.footprint(), 0);
              });
          if (blocked) continue;
          std::optional<PlacedBase> reach =
              ReachByAuto(ruleset, state, order.unit, placed.base, slot, check.allowance, terrain);
          if (reach && (!best || reach->travel < best->travel)) best = std::move(reach);
        }
      }
    }
    if (!best) continue;
    std::vector<table::Rect> rects;
    for (const PlacedBase& b : line.bases) rects.push_back(&b == &placed ? best->slot : b.slot);
    if (table::Classify(rects, eps, ruleset.epsilon_deg) == table::Formation::kNone) continue;
    placed = std::move(*best);
    ++line.enveloped;
  }
  CountContacts(ruleset, state, order, line);
  return std::nullopt;
}

}  // namespace pbem::wme
