#include "engine/wme/validate.h"

#include <algorithm>
#include <set>

#include "engine/table/evade.h"
#include "engine/wme/sight.h"

namespace pbem::wme {
namespace {

bool IsInvalid(Reason reason) {
  return (reason >= Reason::kUnknownUnit && reason <= Reason::kChargeNotSupported) ||
         reason == Reason::kTargetNotEnemy;
}

std::vector<table::Rect> Rects(const State& state, const std::vector<std::size_t>& indices) {
  std::vector<table::Rect> out;
  for (std::size_t i : indices) out.push_back(Footprint(state.bases[i]));
  return out;
}

}  // namespace

std::optional<Verdict> CheckUnderstood(const Ruleset& ruleset, const State& state,
                                       const std::string& player, const std::string& unit_id,
                                       const std::vector<std::string>& named_units,
                                       const std::vector<BaseOrder>& bases, bool wrong_subphase,
                                       std::vector<PlannedBase>& planned) {
  auto refuse = [&unit_id](Reason reason, const std::string& base = "",
                           const std::string& other = "") {
    Verdict v = Refusal(unit_id, reason);
    v.base = base;
    v.other = other;
    return v;
  };
  const UnitState* unit = FindUnit(state, unit_id);
  if (unit == nullptr) return refuse(Reason::kUnknownUnit, "", unit_id);
  for (const std::string& id : named_units) {
    if (FindUnit(state, id) == nullptr) return refuse(Reason::kUnknownUnit, "", id);
  }
  for (const BaseOrder& b : bases) {
    if (FindBase(state, b.id) == nullptr) return refuse(Reason::kUnknownBase, b.id);
  }
  for (const BaseOrder& b : bases) {
    if (FindBase(state, b.id)->unit != unit_id) return refuse(Reason::kBaseNotInUnit, b.id);
  }
  std::set<std::string> seen;
  for (const BaseOrder& b : bases) {
    if (!seen.insert(b.id).second) return refuse(Reason::kDuplicateBase, b.id);
  }
  for (const BaseOrder& b : bases) {
    const std::size_t index = static_cast<std::size_t>(FindBase(state, b.id) - &state.bases[0]);
    std::optional<PlannedLegs> legs =
        PlanLegs(Footprint(state.bases[index]), b.legs, ruleset.max_legs_per_base);
    if (!legs) return refuse(Reason::kMalformedLeg, b.id);
    planned.push_back(PlannedBase{index, std::move(*legs), 0});
  }
  if (wrong_subphase) return refuse(Reason::kWrongSubphase);
  if (unit->owner != player) return refuse(Reason::kNotOwnUnit);
  return std::nullopt;
}

std::optional<Verdict> CheckCanMove(const UnitState& unit, Subphase subphase) {
  if (unit.confused || unit.engaged) {
    Verdict v = Refusal(unit.id, Reason::kUnitCannotMove);
    v.detail = unit.confused ? condition::kConfused : condition::kEngaged;
    return v;
  }
  const bool conflict = subphase == Subphase::kOrders
                            ? unit.moved_by_initiative
                            : (unit.moved_by_initiative || unit.moved_by_order);
  if (conflict) return Refusal(unit.id, Reason::kModeConflict);
  return std::nullopt;
}

namespace {

// Step 3 (evade only; WME-R29, R30, R33, WME-P08).
std::optional<Verdict> CheckEvade(const Ruleset& ruleset, const Scenario& scenario,
                                  const State& state, const MoveOrder& order, Subphase subphase,
                                  const std::vector<PlannedBase>& planned) {
  if (subphase != Subphase::kInitiative) return Refusal(order.unit, Reason::kEvadeNotByInitiative);
  const NearestVisible near = NearestVisibleEnemies(ruleset, scenario, state, order.unit,
                                                    ToUnits(ruleset.initiative_range_cm));
  if (near.nearest.empty()) return Refusal(order.unit, Reason::kNoEnemyInInitiativeRange);
  const std::string from = order.from.value_or(near.nearest.front());
  if (std::find(near.nearest.begin(), near.nearest.end(), from) == near.nearest.end()) {
    Verdict v = Refusal(order.unit, Reason::kNotNearestVisibleEnemy);
    v.other = near.nearest.front();
    return v;
  }
  const std::vector<std::size_t> own = BasesOf(state, order.unit);
  const std::vector<std::size_t> enemy = BasesOf(state, from);
  auto base_distance = [&](std::size_t i) {
    table::Coord best = table::kMaxLength;
    for (std::size_t j : enemy) best = std::min(best, BaseDistanceFloor(state, i, j));
    return best;
  };
  table::Coord nearest = table::kMaxLength;
  std::size_t nearest_index = own.front();
  for (std::size_t i : own) {
    if (base_distance(i) < nearest) {
      nearest = base_distance(i);
      nearest_index = i;
    }
  }
  if (planned.empty() || base_distance(planned.front().index) != nearest) {
    Verdict v = Refusal(order.unit, Reason::kEvadeFirstBaseWrong);
    v.base = planned.empty() ? "" : state.bases[planned.front().index].id;
    v.other = state.bases[nearest_index].id;
    return v;
  }
  const PlannedBase& first = planned.front();
  Verdict wrong = Refusal(order.unit, Reason::kEvadeWrongDirection);
  wrong.base = state.bases[first.index].id;
  const std::optional<table::EvadeDirection> dir =
      table::Evade(Rects(state, own), Rects(state, enemy));
  if (!dir) return wrong;
  bool seen_translation = false;
  for (std::size_t k = 0; k < first.legs.legs.size(); ++k) {
    const table::Leg& leg = first.legs.legs[k];
    if (leg.kind != table::Leg::Kind::kTranslate) continue;
    const table::Vector step = leg.target - first.legs.poses[k].centre();
    if (!seen_translation && !table::WithinAngle(step, dir->u(), ruleset.evade_first_leg_tol_deg)) {
      return wrong;
    }
    if (!table::Away(step, dir->u())) return wrong;
    seen_translation = true;
  }
  if (!seen_translation) return wrong;
  return std::nullopt;
}

}  // namespace

Verdict Refusal(const std::string& unit, Reason reason) {
  Verdict v;
  v.unit = unit;
  v.kind = IsInvalid(reason) ? VerdictKind::kInvalid : VerdictKind::kIllegal;
  v.reason = reason;
  return v;
}

bool IrregularForSpeed(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                       const std::string& unit) {
  const std::vector<table::Rect> rects = Rects(state, BasesOf(state, unit));
  const table::Coord eps = ToUnits(ruleset.epsilon_cm);
  const table::Formation formation = table::Classify(rects, eps, ruleset.epsilon_deg);
  if (formation != table::Formation::kLine && formation != table::Formation::kColumn) return true;
  for (const TerrainFeature& feature : scenario.terrain) {
    if (!feature.broken) continue;
    for (const table::Polygon& piece : feature.pieces) {
      for (const table::Rect& rect : rects) {
        if (table::ConvexOverlap(rect.footprint(), piece, eps)) return true;  // W-R13
      }
    }
  }
  return false;
}

table::Coord Allowance(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                       const UnitState& unit, MoveKindOrder kind) {
  const table::Coord full = ToUnits(unit.speed_cm);
  if (kind == MoveKindOrder::kEvade) return full;  // WME-R13, R31
  const bool irregular = IrregularForSpeed(ruleset, scenario, state, unit.id);
  const bool exempt = Contains(ruleset.half_speed_exempt, unit.troop_type);  // WME-R14
  const bool fortified = unit.fortified && Contains(ruleset.fortified_half_for, MoveKind::kAdvance);
  return ((irregular && !exempt) || fortified) ? full / 2 : full;  // WME-R09..R11, exact half
}

MoveCheck CheckMove(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                    const std::string& player, const MoveOrder& order, Subphase subphase) {
  MoveCheck check;
  check.verdict.unit = order.unit;
  std::vector<std::string> named;
  if (order.from) named.push_back(*order.from);
  named.insert(named.end(), order.allow_pass_through.begin(), order.allow_pass_through.end());
  const bool wrong_subphase =
      subphase == Subphase::kInitiative && order.kind == MoveKindOrder::kAdvance;
  if (std::optional<Verdict> v = CheckUnderstood(ruleset, state, player, order.unit, named,
                                                 order.bases, wrong_subphase, check.bases)) {
    check.verdict = *v;
    check.bases.clear();
    return check;
  }
  const UnitState& unit = *FindUnit(state, order.unit);
  if (std::optional<Verdict> v = CheckCanMove(unit, subphase)) {  // step 2, WME-R01
    check.verdict = *v;
    return check;
  }
  // Step 3.
  if (order.kind == MoveKindOrder::kEvade) {
    if (std::optional<Verdict> v =
            CheckEvade(ruleset, scenario, state, order, subphase, check.bases)) {
      check.verdict = *v;
      return check;
    }
  }
  check.allowance = Allowance(ruleset, scenario, state, unit, order.kind);
  CheckGoing(ruleset, scenario, state, order, check);
  return check;
}

}  // namespace pbem::wme
