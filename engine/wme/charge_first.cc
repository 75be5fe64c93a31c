// §5.4 step 6: the first base, its slot and its path (charge.h states the readings).
#include <algorithm>

#include "engine/table/sweep.h"
#include "engine/table/vision.h"
#include "engine/wme/charge.h"
#include "engine/wme/sight.h"
#include "engine/wme/validate.h"

namespace pbem::wme {
namespace {

using table::Int128;

std::int64_t NormalHeading(std::int64_t heading, std::size_t edge) {
  constexpr std::int64_t kTurn[] = {0, -90000, 180000, 90000};  // front, right, rear, left
  return NormaliseHeading(heading + kTurn[edge]);
}

table::Coord AlongOf(table::Vector v, table::UnitVector along) {
  return static_cast<table::Coord>(
      table::RoundDiv(Int128{v.x} * along.x + Int128{v.y} * along.y, Int128{table::kUnitOne}));
}

struct Slot {
  table::Rect rect;
  table::Coord offset;
};

// WME-R48, R54, GAP-24: frontal contact with `edge` of `target`, centred if possible, else the
// free position nearest the centre with contact >= min_contact - eps.
std::optional<Slot> FindSlot(const Ruleset& ruleset, const table::Rect& target, std::size_t edge,
                             const BaseState& charger,
                             const std::vector<table::Polygon>& obstacles) {
  const table::Coord eps = ToUnits(ruleset.epsilon_cm);
  const std::int64_t normal_heading = NormalHeading(target.heading(), edge);
  const table::UnitVector n = table::HeadingVector(normal_heading);
  const table::UnitVector along = table::LeftOf(n);
  const table::Segment e = target.Edge(edge);
  const std::optional<table::Point> mid =
      table::Point::Make(static_cast<table::Coord>(table::RoundDiv(Int128{e.a.x()} + e.b.x(), 2)),
                         static_cast<table::Coord>(table::RoundDiv(Int128{e.a.y()} + e.b.y(), 2)));
  if (!mid) return std::nullopt;
  const table::Coord half_len = edge % 2 == 0 ? target.width() / 2 : target.depth() / 2;
  const table::Coord half_w = charger.width / 2;
  const table::Coord need = ToUnits(ruleset.min_contact_cm) - eps;
  std::vector<table::Coord> offsets{0, half_len + half_w - need, -(half_len + half_w - need)};
  for (const table::Polygon& obstacle : obstacles) {
    for (const table::Point& v : obstacle.vertices()) {
      const table::Coord a = AlongOf(v - *mid, along);
      offsets.push_back(a - half_w);
      offsets.push_back(a + half_w);
    }
  }
  std::sort(offsets.begin(), offsets.end(), [](table::Coord x, table::Coord y) {
    const table::Coord ax = x < 0 ? -x : x;
    const table::Coord ay = y < 0 ? -y : y;
    return ax != ay ? ax < ay : x < y;
  });
  for (table::Coord t : offsets) {
    const table::Coord contact = std::min(t + half_w, half_len) - std::max(t - half_w, -half_len);
    if (contact < need) continue;
    const Int128 two = Int128{table::kUnitOne} * 2;
    const std::optional<table::Point> centre = table::Point::Make(
        mid->x() + static_cast<table::Coord>(
                       table::RoundDiv(Int128{n.x} * charger.depth + Int128{along.x} * 2 * t, two)),
        mid->y() + static_cast<table::Coord>(table::RoundDiv(
                       Int128{n.y} * charger.depth + Int128{along.y} * 2 * t, two)));
    if (!centre) continue;
    const std::optional<table::Rect> rect =
        FootprintAt(charger, *centre, NormaliseHeading(normal_heading + 180000));
    if (!rect) continue;
    const bool blocked = std::any_of(obstacles.begin(), obstacles.end(), [&](const auto& o) {
      return table::ConvexOverlap(rect->footprint(), o, 0);
    });
    if (!blocked) return Slot{*rect, t};
  }
  return std::nullopt;
}

}  // namespace

// W-R7: turn about the centre by the smallest angle (180 -> +180), then straight on.
std::vector<table::Leg> AutoLegs(const table::Rect& start, const table::Rect& slot) {
  std::int64_t turn = NormaliseHeading(slot.heading() - start.heading());
  if (turn > 180000) turn -= table::kMillidegreesPerTurn;
  std::vector<table::Leg> legs;
  if (turn != 0) {
    legs.push_back(table::Leg{table::Leg::Kind::kRotate, {}, turn, start.centre()});
  }
  legs.push_back(table::Leg{table::Leg::Kind::kTranslate, slot.centre(), 0, {}});
  return legs;
}

bool SweepBlocked(const Ruleset& ruleset, const State& state, const std::string& unit,
                  const table::Rect& start, const std::vector<table::Leg>& legs,
                  const std::vector<table::Polygon>& terrain) {
  const table::Coord eps = ToUnits(ruleset.epsilon_cm);
  const std::optional<std::vector<table::Polygon>> sweep = table::Sweep(start, legs);
  if (!sweep) return true;
  for (const BaseState& b : state.bases) {
    if (b.alive && b.unit != unit && table::SweepOverlaps(*sweep, Footprint(b).footprint(), eps)) {
      return true;
    }
  }
  return std::any_of(terrain.begin(), terrain.end(), [&](const table::Polygon& piece) {
    return table::SweepOverlaps(*sweep, piece, eps);
  });
}

std::optional<PlacedBase> ReachByAuto(const Ruleset& ruleset, const State& state,
                                      const std::string& unit, std::size_t base,
                                      const table::Rect& slot, table::Coord allowance,
                                      const std::vector<table::Polygon>& terrain) {
  const table::Rect start = Footprint(state.bases[base]);
  std::vector<table::Leg> legs = AutoLegs(start, slot);
  const std::optional<table::Motion> motion = table::Move(start, legs);
  if (!motion || !table::TravelWithin(*motion, allowance + ToUnits(ruleset.epsilon_cm)).within ||
      SweepBlocked(ruleset, state, unit, start, legs, terrain)) {
    return std::nullopt;
  }
  return PlacedBase{base, std::move(legs), slot, table::TravelCeilUnits(*motion)};
}

std::optional<Verdict> PlaceLeastTravel(const Ruleset& ruleset, const Scenario& scenario,
                                        const State& state, const ChargeOrder& order,
                                        const std::vector<table::Polygon>& terrain,
                                        const std::vector<table::Polygon>& obstacles,
                                        const SlotsFor& slots, ChargeCheck& check) {
  const std::vector<table::Polygon> blockers =
      Blockers(ruleset, scenario, state, order.unit, order.target);
  std::optional<FirstBase> best;
  for (std::size_t i : BasesOf(state, order.unit)) {
    const BaseState& base = state.bases[i];
    if (order.first_base && base.id != *order.first_base) continue;
    const table::Rect start = Footprint(base);
    for (std::size_t t : BasesOf(state, order.target)) {
      if (order.target_base && state.bases[t].id != *order.target_base) continue;
      const table::Rect target = Footprint(state.bases[t]);
      if (!table::Sees(start, target.footprint(), blockers, ArcOf(ruleset))) continue;
      for (const table::Rect& slot : slots(base, target)) {
        if (std::any_of(obstacles.begin(), obstacles.end(), [&](const table::Polygon& o) {
              return table::ConvexOverlap(slot.footprint(), o, 0);
            })) {
          continue;
        }
        std::optional<PlacedBase> reach =
            ReachByAuto(ruleset, state, order.unit, i, slot, check.allowance, terrain);
        if (reach && (!best || reach->travel < best->travel)) {
          best = FirstBase{i, t, std::move(reach->legs), slot, reach->travel};
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

std::optional<Verdict> PlaceFirstBase(const Ruleset& ruleset, const Scenario& scenario,
                                      const State& state, const ChargeOrder& order,
                                      const std::vector<table::Polygon>& terrain,
                                      ChargeCheck& check) {
  const table::Coord eps = ToUnits(ruleset.epsilon_cm);
  const std::size_t edge = ChargeEdge(*check.zone);
  const std::vector<table::Polygon> blockers =
      Blockers(ruleset, scenario, state, order.unit, order.target);
  std::optional<FirstBase> best;
  for (std::size_t i : BasesOf(state, order.unit)) {
    const BaseState& base = state.bases[i];
    if (order.first_base && base.id != *order.first_base) continue;
    const table::Rect start = Footprint(base);
    // WME-R47, R56: the nearest visible target base with an available edge in the zone.
    std::optional<FirstBase> mine;
    table::Coord mine_distance = table::kMaxLength;
    for (std::size_t t : BasesOf(state, order.target)) {
      const table::Rect target = Footprint(state.bases[t]);
      if (order.target_base && state.bases[t].id != *order.target_base) continue;
      if (!table::Sees(start, target.footprint(), blockers, ArcOf(ruleset))) continue;
      std::vector<table::Polygon> obstacles = terrain;
      for (const BaseState& b : state.bases) {
        if (b.alive && &b != &state.bases[t] && b.unit != order.unit) {
          obstacles.push_back(Footprint(b).footprint());
        }
      }
      const std::optional<Slot> slot = FindSlot(ruleset, target, edge, base, obstacles);
      if (!slot) continue;
      const table::Coord d = BaseDistanceFloor(state, i, t);
      if (mine && d >= mine_distance) continue;  // ties: state order (charge.h)
      const std::vector<table::Leg> legs = AutoLegs(start, slot->rect);
      const std::optional<table::Motion> motion = table::Move(start, legs);
      if (!motion) continue;
      mine = FirstBase{i, t, legs, slot->rect, table::TravelCeilUnits(*motion)};
      mine_distance = d;
    }
    if (mine && (!best || mine->travel < best->travel)) best = mine;  // GAP-25
  }
  if (!best) {
    Verdict v = Refusal(order.unit, Reason::kChargeTargetNotVisible);  // WME-R46
    v.other = order.target;
    return v;
  }
  check.first = best;
  const BaseState& base = state.bases[best->base];
  const bool blocked =
      SweepBlocked(ruleset, state, order.unit, Footprint(base), best->legs, terrain);
  Verdict v = Refusal(order.unit, Reason::kPathBlocked);
  v.base = base.id;
  v.other = order.target;
  if (blocked) return v;
  const std::optional<table::Motion> motion = table::Move(Footprint(base), best->legs);
  if (!motion || !table::TravelWithin(*motion, check.allowance + eps).within) {
    v.reason = Reason::kChargeOutOfRange;
    v.value = NearestMilli(best->travel);
    v.limit = NearestMilli(check.allowance);
    return v;
  }
  return std::nullopt;
}

}  // namespace pbem::wme
