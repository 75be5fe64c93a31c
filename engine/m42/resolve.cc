#include "engine/m42/resolve.h"

#include "engine/m42/validate.h"
#include "engine/table/discs.h"
#include "engine/table/facing.h"

namespace pbem::m42 {
namespace {

// Order coordinates are on the thousandth grid (M-R1) and a model ends on its last vertex, so
// every stored position converts back exactly.
Thou ToThou(table::Coord units) { return units / table::kUnitsPerThousandthInch; }

UnitState* FindUnitMutable(State& state, const std::string& id) {
  for (UnitState& u : state.units) {
    if (u.id == id) return &u;
  }
  return nullptr;
}

// M42-P15 for `unit` against every enemy unit; new pairs are flagged both ways and reported.
void CheckCloseCombat(const Ruleset& ruleset, State& state, const std::string& unit,
                      std::vector<Event>& events) {
  UnitState* own = FindUnitMutable(state, unit);
  const table::Coord eps = ToUnits(ruleset.epsilon_in);
  const table::Coord range = ToUnits(ruleset.close_combat_range_in) + eps;
  const bool centre = ruleset.measure == Measure::kCentre;
  auto disc = [&](const ModelState& m) { return *table::Disc::Make(m.pos, centre ? 0 : m.radius); };
  for (UnitState& enemy : state.units) {
    if (enemy.owner == own->owner || own->close_combat_with.count(enemy.id)) continue;
    std::optional<table::Coord> closest;
    for (const ModelState& m : state.models) {
      if (!m.alive || m.unit != own->id) continue;
      for (const ModelState& e : state.models) {
        if (!e.alive || e.unit != enemy.id) continue;
        if (table::CompareEdgeDistance(disc(m), disc(e), range) > 0) continue;
        const table::Coord d = table::EdgeDistanceFloor(disc(m), disc(e));
        if (!closest || d < *closest) closest = d;
      }
    }
    if (!closest) continue;
    own->close_combat_with.insert(enemy.id);
    enemy.close_combat_with.insert(own->id);
    events.push_back(CloseCombatJoined{own->id, enemy.id, ToThou(*closest)});
  }
}

// §5.2 step 11: move the models, set facings, emit events (§5.3).
void Execute(const UnitOrder& order, const ActionCheck& check, State& state,
             std::vector<Event>& events) {
  events.push_back(UnitActed{order.unit, order.kind, order.fire});
  for (const PlannedModel& p : check.models) {
    ModelState& m = state.models[p.index];
    if (p.moves) {
      const FloorPoint& end = p.path.back();
      events.push_back(ModelMoved{m.id, ToThou(m.pos.x()), ToThou(m.pos.y()), m.floor,
                                  ToThou(end.p.x()), ToThou(end.p.y()), end.floor,
                                  NearestThou(p.geometry.length.NearestUnits())});
      for (const std::string& f : p.geometry.slow) events.push_back(SlowGoing{m.id, f});
      for (const std::string& f : p.geometry.difficult) {
        events.push_back(DifficultGoing{m.id, f, p.allowance});
      }
      if (p.closest_enemy) {
        events.push_back(ClosestEnemy{m.id, *p.closest_enemy, p.closest_enemy_distance});
      }
      m.pos = end.p;
      m.floor = end.floor;
      m.structure = end.floor > 0 ? p.geometry.end_structure : std::nullopt;
    }
    if (p.face_mdeg && *p.face_mdeg != m.facing_mdeg) {  // M42-R27, R28 (GAP-16: else keep)
      m.facing_mdeg = *p.face_mdeg;
      events.push_back(ModelTurned{m.id, m.facing_mdeg});
    }
  }
  UnitState* unit = FindUnitMutable(state, order.unit);
  unit->acted = true;
  unit->action = order.kind;
}

}  // namespace

PlayerTurnResult ResolvePlayerTurn(const Ruleset& ruleset, const Scenario& scenario,
                                   const State& state, const Orders& orders) {
  PlayerTurnResult result{state, {}, {}};
  State& next = result.next;
  for (UnitState& u : next.units) u.close_combat_with.clear();
  for (const UnitOrder& order : orders.actions) {
    const ActionCheck check = CheckAction(ruleset, scenario, next, orders.player, order);
    result.verdicts.push_back(check.verdict);
    switch (check.verdict.kind) {
      case VerdictKind::kInvalid:
      case VerdictKind::kPartial:  // not given by M42's checks
        break;
      case VerdictKind::kIllegal: {  // GAP-20: hold_and_spend
        UnitState* unit = FindUnitMutable(next, order.unit);
        unit->acted = true;
        unit->action.reset();
        result.events.push_back(UnitHeld{order.unit, check.verdict.reason});
        break;
      }
      case VerdictKind::kOk:
        Execute(order, check, next, result.events);
        CheckCloseCombat(ruleset, next, order.unit, result.events);
        break;
    }
  }
  if (next.active_player < scenario.players.size() &&
      scenario.players[next.active_player] == orders.player) {
    for (const UnitState& u : state.units) {
      if (u.owner == orders.player) CheckCloseCombat(ruleset, next, u.id, result.events);
    }
    result.events.push_back(ActionPhaseEnded{orders.player, next.turn});
    for (UnitState& u : next.units) {
      u.acted = false;
      u.action.reset();
    }
    if (++next.active_player >= scenario.players.size()) {
      next.active_player = 0;
      ++next.turn;
    }
  }
  return result;
}

std::vector<Verdict> CheckOrders(const Ruleset& ruleset, const Scenario& scenario,
                                 const State& state, const Orders& orders) {
  return ResolvePlayerTurn(ruleset, scenario, state, orders).verdicts;
}

std::optional<Arc> ArcOf(const Ruleset& ruleset, const State& state, const std::string& model,
                         const std::string& target) {
  const ModelState* m = FindModel(state, model);
  const ModelState* t = FindModel(state, target);
  if (m == nullptr || t == nullptr) return std::nullopt;
  return table::InForwardArc(m->pos, m->facing_mdeg, t->pos, t->radius, ToUnits(ruleset.epsilon_in))
             ? Arc::kForward
             : Arc::kRear;
}

}  // namespace pbem::m42
