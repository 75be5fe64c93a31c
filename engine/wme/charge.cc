#include "engine/wme/charge.h"

#include <algorithm>
#include <cstdlib>

#include "engine/table/available.h"
#include "engine/table/formation.h"
#include "engine/wme/sight.h"
#include "engine/wme/validate.h"

namespace pbem::wme {
namespace {

std::vector<table::Rect> RectsOf(const State& state, const std::string& unit) {
  std::vector<table::Rect> out;
  for (std::size_t i : BasesOf(state, unit)) out.push_back(Footprint(state.bases[i]));
  return out;
}

bool Regular(table::Formation f) {
  return f == table::Formation::kLine || f == table::Formation::kColumn;
}

}  // namespace

std::size_t ChargeEdge(table::Zone zone) {
  switch (zone) {
    case table::Zone::kFront:
      return 0;
    case table::Zone::kRightFlank:
      return 1;
    case table::Zone::kRear:
      return 2;
    case table::Zone::kLeftFlank:
      return 3;
  }
  return 0;
}

namespace {

Verdict Refuse(const ChargeOrder& order, Reason reason) {
  Verdict v = Refusal(order.unit, reason);
  v.other = order.target;
  return v;
}

// Four boxes 10 m deep around the table: a charge may not place or move a base off it (GAP-29),
// and the slot search sees the table edge like an obstacle's side.
std::vector<table::Polygon> BeyondTheTable(const Scenario& scenario) {
  const table::Coord w = ToUnits(scenario.table_width_cm);
  const table::Coord h = ToUnits(scenario.table_height_cm);
  const table::Coord m = ToUnits(1000 * kMilliPerCm);
  auto box = [](table::Coord x0, table::Coord y0, table::Coord x1, table::Coord y1) {
    std::vector<table::Point> v;
    for (auto [x, y] : {std::pair{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}) {
      v.push_back(*table::Point::Make(x, y));
    }
    return *table::Polygon::Make(v);
  };
  return {box(-m, -m, 0, h + m), box(w, -m, w + m, h + m), box(0, -m, w, 0), box(0, h, w, h + m)};
}

// Step 1's codes after §5.3's (charge.h).
std::optional<Verdict> CheckNamedBases(const State& state, const std::string& player,
                                       const ChargeOrder& order) {
  auto base_of = [&](const std::optional<std::string>& id,
                     const std::string& unit) -> std::optional<Verdict> {
    if (!id) return std::nullopt;
    const BaseState* base = FindBase(state, *id);
    Verdict v =
        Refusal(order.unit, base == nullptr ? Reason::kUnknownBase : Reason::kBaseNotInUnit);
    v.base = *id;
    if (base == nullptr || base->unit != unit) return v;
    return std::nullopt;
  };
  if (auto v = base_of(order.first_base, order.unit)) return v;
  if (auto v = base_of(order.target_base, order.target)) return v;
  if (FindUnit(state, order.target)->owner == player) {
    return Refuse(order, Reason::kTargetNotEnemy);
  }
  return std::nullopt;
}

// Step 9 after a charge carried out: its warning, unless step 8 already gave one (one verdict
// per entry, the earlier step's first).
void Support(const Ruleset& ruleset, const Scenario& scenario, const State& state,
             const std::string& player, const ChargeOrder& order, ChargeCheck& check) {
  std::optional<Verdict> warning = PlaceSupport(ruleset, scenario, state, player, order, check);
  if (warning && check.verdict.reason == Reason::kNone) check.verdict = *warning;
}

}  // namespace

table::Coord ChargeAllowance(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                             const std::string& unit) {
  // A charger on broken ground counts as irregular too (W-R13).
  const UnitState& u = *FindUnit(state, unit);
  const bool irregular = IrregularForSpeed(ruleset, scenario, state, unit);
  const bool half = irregular && ruleset.irregular_charge_speed == IrregularChargeSpeed::kHalf &&
                    !Contains(ruleset.half_speed_exempt, u.troop_type);
  return half ? ToUnits(u.speed_cm) / 2 : ToUnits(u.speed_cm);
}

std::vector<table::Polygon> ForbiddenTo(const Ruleset& ruleset, const Scenario& scenario,
                                        TroopType type) {
  std::vector<table::Polygon> terrain;
  for (const TerrainFeature& feature : scenario.terrain) {
    if (!Contains(ruleset.passable_by[static_cast<std::size_t>(feature.category)], type)) {
      terrain.insert(terrain.end(), feature.pieces.begin(), feature.pieces.end());
    }
  }
  const std::vector<table::Polygon> outside = BeyondTheTable(scenario);  // GAP-29
  terrain.insert(terrain.end(), outside.begin(), outside.end());
  return terrain;
}

table::Rect ReferenceRect(const Ruleset& ruleset, const State& state, const std::string& target,
                          const std::string& charger) {
  const std::vector<std::size_t> bases = BasesOf(state, target);
  const std::vector<table::Rect> rects = RectsOf(state, target);
  const table::Coord eps = ToUnits(ruleset.epsilon_cm);
  if (!Regular(table::Classify(rects, eps, ruleset.epsilon_deg))) {
    std::size_t best = 0;
    table::Coord best_distance = table::kMaxLength;
    for (std::size_t k = 0; k < bases.size(); ++k) {
      for (std::size_t j : BasesOf(state, charger)) {
        const table::Coord d = BaseDistanceFloor(state, bases[k], j);
        if (d < best_distance) {
          best_distance = d;
          best = k;
        }
      }
    }
    return rects[best];
  }
  // The box aligned with the first base's heading, in that base's frame (60-bit unit vectors,
  // rounded to the grid once; exact for 0/90/180/270 degrees).
  const std::int64_t heading = rects[0].heading();
  const table::UnitVector f = table::HeadingVector(heading);
  const table::UnitVector l = table::LeftOf(f);
  const table::Point o = rects[0].centre();
  table::Int128 min_f = 0, max_f = 0, min_l = 0, max_l = 0;
  bool first = true;
  for (const table::Rect& r : rects) {
    for (const table::Point& p : r.corners()) {
      const table::Vector d = p - o;
      const table::Int128 pf = table::RoundDiv(table::Int128{d.x} * f.x + table::Int128{d.y} * f.y,
                                               table::Int128{table::kUnitOne});
      const table::Int128 pl = table::RoundDiv(table::Int128{d.x} * l.x + table::Int128{d.y} * l.y,
                                               table::Int128{table::kUnitOne});
      min_f = first ? pf : std::min(min_f, pf);
      max_f = first ? pf : std::max(max_f, pf);
      min_l = first ? pl : std::min(min_l, pl);
      max_l = first ? pl : std::max(max_l, pl);
      first = false;
    }
  }
  const table::Int128 sf = min_f + max_f;  // twice the centre's coordinates in the frame
  const table::Int128 sl = min_l + max_l;
  const table::Int128 two_one = table::Int128{table::kUnitOne} * 2;
  const std::optional<table::Point> centre = table::Point::Make(
      o.x() + static_cast<table::Coord>(table::RoundDiv(sf * f.x + sl * l.x, two_one)),
      o.y() + static_cast<table::Coord>(table::RoundDiv(sf * f.y + sl * l.y, two_one)));
  std::optional<table::Rect> box =
      centre ? table::Rect::Make(*centre, static_cast<table::Coord>(max_l - min_l),
                                 static_cast<table::Coord>(max_f - min_f), heading)
             : std::nullopt;
  if (!box) std::abort();  // CHECK: the bases are in bounds, so is the box holding them
  return *box;
}

ChargeCheck CheckCharge(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                        const std::string& player, const ChargeOrder& order, Subphase subphase,
                        DiceSource& dice) {
  ChargeCheck check;
  check.verdict.unit = order.unit;
  std::vector<std::string> named{order.target};
  if (order.support) named.push_back(*order.support);
  std::vector<PlannedBase> planned;
  std::optional<Verdict> v =
      CheckUnderstood(ruleset, state, player, order.unit, named, order.bases, false, planned);
  if (!v) v = CheckNamedBases(state, player, order);
  const UnitState* unit = FindUnit(state, order.unit);
  if (!v) v = CheckCanMove(*unit, subphase);
  if (!v && subphase == Subphase::kInitiative) {  // W-R14
    const NearestVisible near = NearestVisibleEnemies(ruleset, scenario, state, order.unit,
                                                      ToUnits(ruleset.initiative_range_cm));
    if (near.nearest.empty()) {
      v = Refusal(order.unit, Reason::kNoEnemyInInitiativeRange);
    } else if (std::find(near.nearest.begin(), near.nearest.end(), order.target) ==
               near.nearest.end()) {
      v = Refusal(order.unit, Reason::kNotNearestVisibleEnemy);
      v->other = near.nearest.front();
    }
  }
  const UnitState* target = FindUnit(state, order.target);
  if (!v && target->fortified && unit->troop_type != TroopType::kInfantry) {
    v = Refuse(order, Reason::kFortifiedNeedsInfantry);  // WME-R64
  }
  if (!v && !UnitSees(ruleset, scenario, state, order.unit, order.target)) {
    v = Refuse(order, Reason::kChargeTargetNotVisible);  // step 2, WME-R41
  }
  if (v) {
    check.verdict = *v;
    return check;
  }
  const table::Coord eps = ToUnits(ruleset.epsilon_cm);
  const std::vector<table::Rect> charger = RectsOf(state, order.unit);
  check.allowance = ChargeAllowance(ruleset, scenario, state, order.unit);  // step 3
  // Step 4 (WME-R43, R44, R65, P09).
  if (target->fortified) {
    check.zone = table::Zone::kFront;
  } else {
    const table::Int128 eps_area = table::Int128{ruleset.epsilon_area_cm2} * 10000000;
    const table::ZoneVerdict zone = table::ChargerZone(
        ReferenceRect(ruleset, state, order.target, order.unit), charger, eps_area);
    check.zone = zone.zone;
    if (zone.tie) {
      check.zone_roll = dice.Roll(6);
      const table::Zone lower = std::min(zone.zone, zone.runner_up);
      const table::Zone upper = std::max(zone.zone, zone.runner_up);
      check.zone = *check.zone_roll <= 3 ? lower : upper;
    }
  }
  // Step 5 (WME-R54, R56, R57, P11, P17, W-R3, W-R8).
  const std::vector<table::Polygon> terrain = ForbiddenTo(ruleset, scenario, unit->troop_type);
  if (!target->fortified) {
    const BaseState& model = state.bases[BasesOf(state, order.unit).front()];
    const std::vector<std::size_t> targets = BasesOf(state, order.target);
    table::Coord best = -1;  // floor of the best length; -1: no exposed edge
    bool available = false;
    bool offers = false;
    for (std::size_t t : targets) {
      const table::Rect rect = Footprint(state.bases[t]);
      std::vector<table::Rect> others;
      for (std::size_t u : targets) {
        if (u != t) others.push_back(Footprint(state.bases[u]));
      }
      const std::size_t edge = ChargeEdge(*check.zone);
      if (!table::Exposed(rect, edge, others, eps, ruleset.epsilon_deg)) continue;
      std::vector<table::Polygon> obstacles = terrain;
      for (const BaseState& b : state.bases) {
        if (b.alive && &b != &state.bases[t] && b.unit != order.unit) {
          obstacles.push_back(Footprint(b).footprint());
        }
      }
      const table::ContactLength length =
          table::AvailableLength(rect, edge, model.width, model.depth, obstacles);
      best = std::max(best, length.FloorUnits());
      if (length.Compare(ToUnits(ruleset.min_contact_cm) - eps) >= 0) available = true;
      if (length.Compare(eps) > 0) offers = true;
    }
    check.available = FloorMilli(best);
    if (!available) {
      std::vector<table::Rect> enemies;
      std::vector<table::Rect> friends;
      for (const UnitState& u : state.units) {
        if (u.id == target->id) continue;
        std::vector<table::Rect>& into = u.owner == target->owner ? friends : enemies;
        for (const table::Rect& r : RectsOf(state, u.id)) into.push_back(r);
      }
      check.pinned =
          table::Pinned(RectsOf(state, order.target), enemies, friends, model.width, model.depth,
                        ToUnits(ruleset.min_contact_cm), eps, ruleset.epsilon_deg);
      if (!check.pinned) {
        check.verdict = Refuse(order, offers ? Reason::kTargetProtected : Reason::kNoEdgeInZone);
        check.verdict.value = check.available;
        check.verdict.limit = ruleset.min_contact_cm;
        return check;
      }
    }
  }
  const Verdict not_supported = Refuse(order, Reason::kChargeNotSupported);  // charge.h
  if ((target->fortified || check.pinned) && order.placement == Placement::kExplicit) {
    check.verdict = not_supported;  // EXPLICIT at a fortified or pinned target
    return check;
  }
  if (order.placement == Placement::kExplicit) {
    std::optional<Verdict> refused =
        CheckExplicit(ruleset, scenario, state, order, planned, terrain, check);
    check.verdict = refused ? *refused : Verdict{};
    check.verdict.unit = order.unit;
    if (!refused) Support(ruleset, scenario, state, player, order, check);
    return check;
  }
  if (std::optional<Verdict> refused =
          target->fortified ? PlaceFortified(ruleset, scenario, state, order, terrain, check)
          : check.pinned    ? PlacePinned(ruleset, scenario, state, order, terrain, check)
                            : PlaceFirstBase(ruleset, scenario, state, order, terrain, check)) {
    check.verdict = *refused;
    return check;
  }
  if (std::optional<Verdict> refused =
          BuildFrontLine(ruleset, state, order, terrain, check)) {  // step 7
    check.verdict = *refused;
    return check;
  }
  check.verdict = Verdict{};
  check.verdict.unit = order.unit;
  if (std::optional<Verdict> warning = Envelop(ruleset, state, order, terrain, check)) {
    check.verdict = *warning;  // step 8: OK, without envelopment
  }
  Support(ruleset, scenario, state, player, order, check);
  return check;
}

}  // namespace pbem::wme
