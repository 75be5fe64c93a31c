#include "engine/m42/validate.h"

#include <algorithm>
#include <set>

#include "engine/table/discs.h"
#include "engine/table/distance.h"

namespace pbem::m42 {
namespace {

constexpr int kMaxFloor = 1000;

const UnitSpec* FindUnitSpec(const Scenario& scenario, const std::string& id) {
  for (const UnitSpec& u : scenario.units) {
    if (u.id == id) return &u;
  }
  return nullptr;
}

std::optional<std::size_t> AliveIndex(const State& state, const std::string& id) {
  for (std::size_t i = 0; i < state.models.size(); ++i) {
    if (state.models[i].id == id && state.models[i].alive) return i;
  }
  return std::nullopt;
}

// The path as written, converted; nullopt when malformed (validate.h).
std::optional<std::vector<FloorPoint>> ParsePath(const Ruleset& ruleset,
                                                 const std::vector<PathVertex>& path,
                                                 int start_floor) {
  if (path.size() > ruleset.max_path_vertices) return std::nullopt;
  std::vector<FloorPoint> out;
  out.reserve(path.size());
  int floor = start_floor;
  for (const PathVertex& v : path) {
    const auto x = table::FromThousandthsOfInch(v.x_thou);
    const auto y = table::FromThousandthsOfInch(v.y_thou);
    if (!x || !y) return std::nullopt;
    if (v.floor) {
      if (*v.floor < 0 || *v.floor > kMaxFloor) return std::nullopt;
      floor = *v.floor;
    }
    const table::Point p = *table::Point::Make(*x, *y);
    if (!out.empty() && out.back().floor != floor && !(out.back().p == p)) return std::nullopt;
    out.push_back({p, floor});
  }
  return out;
}

struct Pipeline {
  const Ruleset& ruleset;
  const Scenario& scenario;
  const State& state;
  const UnitOrder& order;
  ActionCheck check;
  table::Coord eps = ToUnits(ruleset.epsilon_in);

  std::optional<Verdict> Fail(VerdictKind kind, Reason reason, std::string model = {},
                              std::string other = {}, std::optional<Thou> value = {},
                              std::optional<Thou> limit = {}) {
    return Verdict{order.unit, kind, reason, std::move(model), std::move(other), value, limit};
  }
  const ModelState& Model(const PlannedModel& p) const { return state.models[p.index]; }

  // Step 1 (§5.2): INVALID codes.
  std::optional<Verdict> Parse(const std::string& player, const UnitSpec*& unit) {
    unit = FindUnitSpec(scenario, order.unit);
    const UnitState* unit_state = FindUnit(state, order.unit);
    if (unit == nullptr || unit_state == nullptr) {
      return Fail(VerdictKind::kInvalid, Reason::kUnknownUnit);
    }
    std::vector<std::optional<std::size_t>> found;
    for (const ModelOrder& m : order.models) found.push_back(AliveIndex(state, m.id));
    for (std::size_t i = 0; i < found.size(); ++i) {
      if (!found[i]) return Fail(VerdictKind::kInvalid, Reason::kUnknownModel, order.models[i].id);
    }
    for (std::size_t i = 0; i < found.size(); ++i) {
      if (state.models[*found[i]].unit != order.unit) {
        return Fail(VerdictKind::kInvalid, Reason::kModelNotInUnit, order.models[i].id);
      }
    }
    std::set<std::string> seen;
    for (const ModelOrder& m : order.models) {
      if (!seen.insert(m.id).second) {
        return Fail(VerdictKind::kInvalid, Reason::kDuplicateModel, m.id);
      }
    }
    std::vector<std::vector<FloorPoint>> paths;
    for (std::size_t i = 0; i < found.size(); ++i) {
      auto path = ParsePath(ruleset, order.models[i].path, state.models[*found[i]].floor);
      if (!path) return Fail(VerdictKind::kInvalid, Reason::kMalformedPath, order.models[i].id);
      paths.push_back(std::move(*path));
    }
    for (std::size_t i = 0; i < found.size(); ++i) {
      const ModelState& m = state.models[*found[i]];
      const std::vector<FloorPoint>& path = paths[i];
      if (path.empty()) continue;
      if (table::Compare(table::PointPoint(path[0].p, m.pos), eps) > 0 ||
          path[0].floor != m.floor) {
        return Fail(VerdictKind::kInvalid, Reason::kPathStartMismatch, order.models[i].id);
      }
    }
    if (unit_state->acted) return Fail(VerdictKind::kInvalid, Reason::kUnitAlreadyActed);
    if (scenario.players.empty() || state.active_player >= scenario.players.size() ||
        scenario.players[state.active_player] != player || unit_state->owner != player) {
      return Fail(VerdictKind::kInvalid, Reason::kNotActivePlayer);
    }
    for (std::size_t i = 0; i < found.size(); ++i) {
      PlannedModel p;
      p.index = *found[i];
      const ModelState& m = state.models[p.index];
      p.path = std::move(paths[i]);
      if (!p.path.empty()) {
        // M-R2: the first vertex (and the vertical steps written at the same point) become
        // the stored position.
        const table::Point written = p.path[0].p;
        for (std::size_t k = 0; k < p.path.size() && p.path[k].p == written; ++k) {
          p.path[k].p = m.pos;
        }
        const bool floor_change = std::any_of(p.path.begin(), p.path.end(),
                                              [&](auto& v) { return v.floor != p.path[0].floor; });
        p.moves = floor_change || !table::LengthWithin(table::Length(PlanPath(p.path)), eps).within;
      }
      if (order.models[i].face_mdeg) p.face_mdeg = NormaliseHeading(*order.models[i].face_mdeg);
      check.models.push_back(std::move(p));
    }
    return std::nullopt;
  }

  std::optional<Verdict> Steps2To10(const UnitSpec& unit);
};

std::optional<Verdict> Pipeline::Steps2To10(const UnitSpec& unit) {
  const int factor = ruleset.action_move_factor[static_cast<std::size_t>(order.kind)];
  // Step 2: M42-R34, GAP-01, M-R2.
  for (const PlannedModel& p : check.models) {
    if (p.moves && factor == 0)
      return Fail(VerdictKind::kIllegal, Reason::kActionForbidsMove, Model(p).id);
  }
  // Step 3: M42-R32, M-R5.
  for (const PlannedModel& p : check.models) {
    if (unit.limited_vision && order.kind == Action::kOpenFire && p.face_mdeg &&
        *p.face_mdeg != Model(p).facing_mdeg) {
      return Fail(VerdictKind::kIllegal, Reason::kTurnForbidden, Model(p).id);
    }
  }
  // Step 4: sequence semantics (M42-P12): earlier listed models already stand at their ends.
  std::vector<ModelState> now = state.models;
  for (PlannedModel& p : check.models) {
    if (!p.moves) continue;
    p.geometry = MeasureModel(ruleset, scenario, unit, now, state.units, p.index, p.path);
    now[p.index].pos = p.path.back().p;
    now[p.index].floor = p.path.back().floor;
  }
  // Step 5: M42-R08, R19, R31, M-R6; M42-P10; M42-P17.
  for (const PlannedModel& p : check.models) {
    const ModelGeometry& g = p.geometry;
    const std::string& id = Model(p).id;
    if (!g.impassable.empty())
      return Fail(VerdictKind::kIllegal, Reason::kImpassable, id, g.impassable.front());
    if (g.level_change_outside_floor)
      return Fail(VerdictKind::kIllegal, Reason::kLevelChangeOutsideFloor, id);
    if (g.off_floor) return Fail(VerdictKind::kIllegal, Reason::kOffFloor, id);
    if (g.off_table) return Fail(VerdictKind::kIllegal, Reason::kOffTable, id);
  }
  // Step 6: M42-R05 (unit level).
  for (const PlannedModel& p : check.models) {
    if (order.kind == Action::kAtTheDouble && !p.geometry.slow.empty()) {
      return Fail(VerdictKind::kIllegal, Reason::kAtTheDoubleInSlowGoing, Model(p).id,
                  p.geometry.slow.front());
    }
  }
  // Step 7: M42-R02, R03, R06, P18.
  for (PlannedModel& p : check.models) {
    if (!p.moves) continue;
    p.allowance = Allowance(ruleset, order.kind, unit.mv_in, p.geometry.difficult.size());
    const table::Coord limit = ToUnits(Thou{p.allowance} * kThouPerInch) + eps;
    if (!table::LengthWithin(p.geometry.length, limit).within) {
      return Fail(VerdictKind::kIllegal, Reason::kExceedsAllowance, Model(p).id, {},
                  NearestThou(p.geometry.length.NearestUnits()), Thou{p.allowance} * kThouPerInch);
    }
  }
  // Step 8: M42-R12, R13, P05 (enemies where they stand as the unit acts).
  const UnitState* own = FindUnit(state, unit.id);
  std::vector<const ModelState*> enemies;
  for (const ModelState& m : state.models) {
    const UnitState* theirs = FindUnit(state, m.unit);
    if (m.alive && theirs && theirs->owner != own->owner) enemies.push_back(&m);
  }
  const bool centre = ruleset.measure == Measure::kCentre;  // GAP-03
  std::vector<table::Disc> enemy_discs;
  for (const ModelState* e : enemies) {
    enemy_discs.push_back(*table::Disc::Make(e->pos, centre ? 0 : e->radius));
  }
  for (PlannedModel& p : check.models) {
    if (!p.moves) continue;
    const table::Polyline plan = PlanPath(p.path);
    const table::Coord r = centre ? 0 : Model(p).radius;
    std::optional<std::pair<table::Coord, std::string>> worst;
    for (const table::ClearanceBreach& b :
         table::EnemyClearance(plan, r, enemy_discs, ToUnits(ruleset.enemy_clearance_in), eps)) {
      const std::pair<table::Coord, std::string> key{b.edge_distance_floor, enemies[b.enemy]->id};
      if (!worst || key < *worst) worst = key;
    }
    if (worst) {
      return Fail(VerdictKind::kIllegal, Reason::kEnemyTooClose, Model(p).id, worst->second,
                  FloorThou(worst->first), ruleset.enemy_clearance_in);
    }
    for (std::size_t k = 0; k < enemies.size(); ++k) {  // §5.3: the minimum reached
      const Thou d = FloorThou(table::PointPath(enemies[k]->pos, plan).FloorUnits() - r -
                               enemy_discs[k].radius());
      if (!p.closest_enemy || d < p.closest_enemy_distance ||
          (d == p.closest_enemy_distance && enemies[k]->id < *p.closest_enemy)) {
        p.closest_enemy = enemies[k]->id;
        p.closest_enemy_distance = d;
      }
    }
  }
  // Step 9: M42-R11, P13; GAP-12 (M-R8); GAP-18.
  for (const PlannedModel& p : check.models) {
    const ModelGeometry& g = p.geometry;
    const std::string& id = Model(p).id;
    if (!g.ends_on_friendly.empty())
      return Fail(VerdictKind::kIllegal, Reason::kEndsOnFriendly, id, g.ends_on_friendly.front());
    if (!g.crosses_non_task_force.empty())
      return Fail(VerdictKind::kIllegal, Reason::kCrossesNonTaskForce, id,
                  g.crosses_non_task_force.front());
    if (!g.ends_on_obstacle.empty())
      return Fail(VerdictKind::kIllegal, Reason::kEndsOnObstacle, id, g.ends_on_obstacle.front());
  }
  // Step 10: M42-R29, R33, P14 (GAP-13).
  if (std::none_of(check.models.begin(), check.models.end(), [](auto& p) { return p.moves; })) {
    return std::nullopt;
  }
  std::vector<std::size_t> order_of;  // indices into `now`, in coherency order
  for (const PlannedModel& p : check.models) order_of.push_back(p.index);
  std::vector<std::size_t> rest;
  for (std::size_t i = 0; i < now.size(); ++i) {
    if (now[i].unit == unit.id && now[i].alive &&
        std::find(order_of.begin(), order_of.end(), i) == order_of.end()) {
      rest.push_back(i);
    }
  }
  std::sort(rest.begin(), rest.end(), [&](auto a, auto b) { return now[a].id < now[b].id; });
  order_of.insert(order_of.end(), rest.begin(), rest.end());
  std::vector<table::Disc> discs;
  for (std::size_t i : order_of)
    discs.push_back(*table::Disc::Make(now[i].pos, centre ? 0 : now[i].radius));
  const Thou limit = unit.spread_in.value_or(ruleset.coherency_in);
  const auto mode = ruleset.coherency_check == CoherencyCheck::kSequence
                        ? table::CoherencyMode::kSequence
                        : table::CoherencyMode::kConnected;
  if (auto breach = table::Coherency(discs, ToUnits(limit), eps, mode)) {
    return Fail(VerdictKind::kIllegal, Reason::kCoherency, now[order_of[breach->model]].id,
                now[order_of[breach->nearest]].id, FloorThou(breach->edge_distance_floor), limit);
  }
  return std::nullopt;
}

}  // namespace

ActionCheck CheckAction(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                        const std::string& player, const UnitOrder& order) {
  Pipeline pipeline{ruleset, scenario, state, order, {}};
  const UnitSpec* unit = nullptr;
  std::optional<Verdict> failure = pipeline.Parse(player, unit);
  if (!failure) failure = pipeline.Steps2To10(*unit);
  Verdict ok;
  ok.unit = order.unit;
  pipeline.check.verdict = failure.value_or(ok);
  if (failure) pipeline.check.models.clear();
  return std::move(pipeline.check);
}

}  // namespace pbem::m42
