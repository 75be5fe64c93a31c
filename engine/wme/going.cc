// §5.3 steps 4 and 5 (validate.h states the order of the checks and the readings).
#include <algorithm>
#include <map>

#include "engine/table/neck.h"
#include "engine/table/sweep.h"
#include "engine/wme/validate.h"

namespace pbem::wme {
namespace {

// What a neck obstacle is, for the reason code (W-R5): a feature or a friendly unit.
struct ObstacleLabel {
  bool terrain = false;
  std::string id;
};

struct Context {
  const Ruleset& ruleset;
  const Scenario& scenario;
  const State& state;
  const MoveOrder& order;
  const UnitState& unit;
  table::Coord eps;
  std::vector<table::Rect> now;  // every base of the state, as far as the move has got
  std::vector<table::Obstacle> obstacles;
  std::vector<ObstacleLabel> labels;
  std::vector<std::string> pass_through;  // named units of the same player (WME-R35)
};

bool IsEnemy(const Context& c, const BaseState& base) {
  const UnitState* other = FindUnit(c.state, base.unit);
  return base.alive && other != nullptr && other->owner != c.unit.owner;
}

bool Named(const Context& c, const std::string& unit) {
  return std::find(c.pass_through.begin(), c.pass_through.end(), unit) != c.pass_through.end();
}

// N of WME-P12: terrain the unit's type may not enter, and each other friendly unit (W-R6),
// except the units an evade passes through.
void BuildObstacles(Context& c) {
  for (const TerrainFeature& feature : c.scenario.terrain) {
    const auto& allowed = c.ruleset.passable_by[static_cast<std::size_t>(feature.category)];
    if (Contains(allowed, c.unit.troop_type)) continue;
    c.obstacles.push_back(table::Obstacle{feature.pieces});
    c.labels.push_back(ObstacleLabel{true, feature.id});
  }
  for (const UnitState& other : c.state.units) {
    if (other.owner != c.unit.owner || other.id == c.unit.id || Named(c, other.id)) continue;
    table::Obstacle obstacle;
    for (std::size_t i : BasesOf(c.state, other.id))
      obstacle.pieces.push_back(c.now[i].footprint());
    if (obstacle.pieces.empty()) continue;
    c.obstacles.push_back(std::move(obstacle));
    c.labels.push_back(ObstacleLabel{false, other.id});
  }
}

Verdict Fail(const Context& c, Reason reason, const std::string& base, const std::string& other) {
  Verdict v = Refusal(c.order.unit, reason);
  v.base = base;
  v.other = other;
  return v;
}

// Step 4 for the k-th listed base (W-R11).
std::optional<Verdict> CheckBase(Context& c, MoveCheck& check, std::size_t k,
                                 std::vector<std::string>& crossed) {
  PlannedBase& planned = check.bases[k];
  const BaseState& base = c.state.bases[planned.index];
  const table::Rect& start = c.now[planned.index];
  const table::Rect& end = planned.legs.end();
  const std::optional<table::Motion> motion = table::Move(start, planned.legs.legs);
  if (!motion) return Fail(c, Reason::kMalformedLeg, base.id, "");
  planned.travelled = table::TravelCeilUnits(*motion);
  if (!table::TravelWithin(*motion, check.allowance + c.eps).within) {  // WME-R19, P03
    Verdict v = Fail(c, Reason::kExceedsAllowance, base.id, "");
    v.value = NearestMilli(planned.travelled);
    v.limit = NearestMilli(check.allowance);
    return v;
  }
  const bool over = c.unit.troop_type == TroopType::kFlyer && c.ruleset.flyers_pass_over;
  const std::optional<std::vector<table::Polygon>> sweep = table::Sweep(start, planned.legs.legs);
  if (!sweep) return Fail(c, Reason::kMalformedLeg, base.id, "");
  const std::vector<table::Polygon> end_only{end.footprint()};
  const std::vector<table::Polygon>& swept = over ? end_only : *sweep;
  for (const BaseState& other : c.state.bases) {  // WME-R21, R26; T07
    const std::size_t j = static_cast<std::size_t>(&other - &c.state.bases[0]);
    if (IsEnemy(c, other) && table::SweepOverlaps(swept, c.now[j].footprint(), c.eps)) {
      return Fail(c, Reason::kCrossesOtherUnit, base.id, other.unit);
    }
  }
  const table::Coord half_gap = ToUnits(c.ruleset.min_gap_cm) / 2;
  const std::optional<table::NeckBreach> breach =
      over ? table::NeckAtPose(end, c.obstacles, half_gap, c.eps, true)
           : table::CheckNeck(start, planned.legs.legs, c.obstacles, half_gap, c.eps, c.eps);
  if (breach) {  // WME-R17, R21, R25, R27; W-R5, W-R6
    if (breach->neck_with) {
      Verdict v = Fail(c, Reason::kNoPassage, base.id, "");
      v.value = FloorMilli(breach->gap_floor);
      v.limit = c.ruleset.min_gap_cm;  // the words say the gap needed (a ruleset value)
      return v;
    }
    const ObstacleLabel& label = c.labels[breach->obstacle];
    return Fail(c, label.terrain ? Reason::kTerrainForbidden : Reason::kCrossesOtherUnit, base.id,
                label.id);
  }
  for (std::size_t i : BasesOf(c.state, c.unit.id)) {  // WME-R20, P13, W-R1
    if (i == planned.index || over) continue;
    if (!table::SweepOverlaps(swept, c.now[i].footprint(), c.eps)) continue;
    if (c.ruleset.own_pass_through == OwnPassThrough::kAlways) continue;
    const auto later =
        std::find_if(check.bases.begin() + static_cast<std::ptrdiff_t>(k) + 1, check.bases.end(),
                     [i](const PlannedBase& p) { return p.index == i; });
    if (later == check.bases.end()) continue;  // unlisted, or listed earlier and done
    if (SameRigidMotion(planned.legs, later->legs, c.eps, c.ruleset.epsilon_deg)) continue;
    return Fail(c, Reason::kOwnBaseCrossNotAllowed, base.id, c.state.bases[i].id);
  }
  for (const UnitState& other : c.state.units) {  // WME-R35: the sweep crossed a named unit
    if (!Named(c, other.id)) continue;
    for (std::size_t j : BasesOf(c.state, other.id)) {
      if (table::SweepOverlaps(swept, c.now[j].footprint(), c.eps) &&
          std::find(crossed.begin(), crossed.end(), other.id) == crossed.end()) {
        crossed.push_back(other.id);
      }
    }
  }
  const Milli gap = c.ruleset.min_enemy_gap_cm;  // W-R12, GAP-16
  const table::Coord touch = gap == 0 ? c.eps : ToUnits(gap) - c.eps - 1;
  for (const BaseState& other : c.state.bases) {
    const std::size_t j = static_cast<std::size_t>(&other - &c.state.bases[0]);
    if (IsEnemy(c, other) && table::SweepTouches(swept, c.now[j].footprint(), touch)) {
      return Fail(c, Reason::kEnemyContactWithoutCharge, base.id, other.unit);
    }
  }
  const table::Coord w = ToUnits(c.scenario.table_width_cm);
  const table::Coord h = ToUnits(c.scenario.table_height_cm);
  for (const table::Rect& pose : planned.legs.poses) {  // WME-P14, GAP-29
    if (!table::OnTable(pose, w, h, c.eps)) return Fail(c, Reason::kOffTable, base.id, "");
  }
  c.now[planned.index] = end;
  return std::nullopt;
}

// Step 5.
std::optional<Verdict> CheckEnd(Context& c, MoveCheck& check,
                                const std::vector<std::string>& crossed) {
  auto was_crossed = [&crossed](const std::string& unit) {
    return std::find(crossed.begin(), crossed.end(), unit) != crossed.end();
  };
  for (const PlannedBase& planned : check.bases) {  // WME-R25, P02
    for (std::size_t j = 0; j < c.state.bases.size(); ++j) {
      const BaseState& other = c.state.bases[j];
      if (j == planned.index || !other.alive || was_crossed(other.unit)) continue;
      if (table::Overlap(c.now[planned.index], c.now[j], c.eps)) {
        return Fail(c, Reason::kBaseOverlap, c.state.bases[planned.index].id, other.id);
      }
    }
  }
  std::vector<std::size_t> order;  // listed bases first, in listed order, then the others
  for (const PlannedBase& planned : check.bases) order.push_back(planned.index);
  for (std::size_t i : BasesOf(c.state, c.unit.id)) {
    if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);
  }
  std::vector<table::Rect> mine;
  for (std::size_t i : BasesOf(c.state, c.unit.id)) mine.push_back(c.now[i]);
  check.formation = table::Classify(mine, c.eps, c.ruleset.epsilon_deg);  // WME-R05, P05, P06
  if (check.formation == table::Formation::kNone) {
    return Fail(c, Reason::kFormationBroken, "", "");
  }
  if (c.order.kind == MoveKindOrder::kEvade) {  // WME-R32, P15
    const table::Coord clearance = ToUnits(c.ruleset.evade_combat_clearance_cm);
    for (std::size_t i : order) {
      for (const UnitState& other : c.state.units) {
        if (!other.engaged || other.id == c.unit.id) continue;
        for (std::size_t j : BasesOf(c.state, other.id)) {
          if (table::KeepsClear(c.now[i], c.now[j], clearance, c.eps)) continue;
          Verdict v = Fail(c, Reason::kEvadeEndsNearCombat, c.state.bases[i].id, other.id);
          v.value = FloorMilli(
              table::ConvexDistance(c.now[i].footprint(), c.now[j].footprint()).FloorUnits());
          v.limit = c.ruleset.evade_combat_clearance_cm;
          return v;
        }
      }
    }
  }
  for (const std::string& unit : crossed) {  // WME-R35 (a)
    for (std::size_t i : BasesOf(c.state, c.unit.id)) {
      for (std::size_t j : BasesOf(c.state, unit)) {
        if (table::Overlap(c.now[i], c.now[j], c.eps)) {
          return Fail(c, Reason::kPassThroughNotCleared, "", unit);
        }
      }
    }
  }
  for (const std::string& unit : crossed) {  // WME-R35 (b)
    if (FindUnit(c.state, unit)->engaged) return Fail(c, Reason::kPassThroughUnitEngaged, "", unit);
  }
  for (const std::string& unit : c.order.allow_pass_through) {  // WME-R35 (c)
    if (FindUnit(c.state, unit)->owner != c.unit.owner) {
      return Fail(c, Reason::kPassThroughNotAccepted, "", unit);
    }
  }
  return std::nullopt;
}

}  // namespace

void CheckGoing(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                const MoveOrder& order, MoveCheck& check) {
  Context c{
      ruleset, scenario, state, order, *FindUnit(state, order.unit), ToUnits(ruleset.epsilon_cm),
      {},      {},       {},    {}};
  for (const BaseState& base : state.bases) c.now.push_back(Footprint(base));
  if (order.kind == MoveKindOrder::kEvade) {
    for (const std::string& id : order.allow_pass_through) {
      if (FindUnit(state, id)->owner == c.unit.owner && id != c.unit.id) {
        c.pass_through.push_back(id);
      }
    }
  }
  BuildObstacles(c);
  std::vector<std::string> crossed;
  for (std::size_t k = 0; k < check.bases.size(); ++k) {
    if (std::optional<Verdict> v = CheckBase(c, check, k, crossed)) {
      check.verdict = *v;
      return;
    }
  }
  if (std::optional<Verdict> v = CheckEnd(c, check, crossed)) {
    check.verdict = *v;
    return;
  }
  // Crossed units in state order (validate.h).
  for (const UnitState& u : state.units) {
    if (std::find(crossed.begin(), crossed.end(), u.id) != crossed.end()) {
      check.crossed.push_back(u.id);
    }
  }
}

}  // namespace pbem::wme
