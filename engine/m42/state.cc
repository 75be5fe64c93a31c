#include "engine/m42/state.h"

#include <algorithm>

#include "engine/table/predicates.h"

namespace pbem::m42 {
namespace {

bool StepsNested(const Hill& hill) {
  for (std::size_t k = 1; k < hill.steps.size(); ++k) {
    for (const table::Point& p : hill.steps[k].vertices()) {
      if (!table::InPolygon(p, hill.steps[k - 1])) return false;
    }
  }
  return true;
}

const Structure* FindStructure(const Scenario& scenario, const std::string& id) {
  for (const Structure& s : scenario.terrain.structures) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

}  // namespace

InitialStateResult InitialState(const Ruleset& ruleset, const Scenario& scenario) {
  InitialStateResult result;
  auto problem = [&](std::string code, std::string id) {
    result.problems.push_back({std::move(code), std::move(id)});
  };
  if (scenario.players.empty()) problem("no_players", "");
  // 1000" (25.4 m) is far beyond any table and well inside engine/table's coordinate range.
  if (scenario.table_width_in <= 0 || scenario.table_height_in <= 0 ||
      scenario.table_width_in > 1000000 || scenario.table_height_in > 1000000) {
    problem("bad_table", "");
  }
  for (const Hill& hill : scenario.terrain.hills) {
    if (!StepsNested(hill)) problem("steps_not_nested", hill.id);
  }
  State state;
  std::set<std::string> unit_ids;
  for (const UnitSpec& u : scenario.units) {
    if (!unit_ids.insert(u.id).second) problem("duplicate_id", u.id);
    if (std::find(scenario.players.begin(), scenario.players.end(), u.owner) ==
        scenario.players.end()) {
      problem("unknown_owner", u.id);
    }
    if (u.mv_in < 0 || u.mv_in > 100) problem("bad_mv", u.id);
    std::string task_force = u.owner;  // M-R8: one Task Force per player
    if (ruleset.task_force_scope == TaskForceScope::kScenario) {
      if (!u.task_force) problem("missing_task_force", u.id);
      task_force = u.task_force.value_or("");
    }
    UnitState unit;
    unit.id = u.id;
    unit.owner = u.owner;
    unit.task_force = task_force;
    state.units.push_back(std::move(unit));
  }
  std::set<std::string> model_ids;
  for (const ModelSpec& m : scenario.models) {
    if (!model_ids.insert(m.id).second) problem("duplicate_id", m.id);
    if (!unit_ids.count(m.unit)) problem("unknown_unit", m.id);
    const Thou diameter = m.base_diameter_in.value_or(ruleset.default_base_diameter_in);
    if (diameter <= 0 || diameter > 100000) problem("bad_base", m.id);
    if (m.floor < 0) problem("bad_floor", m.id);
    if (m.floor > 0) {
      const Structure* s = m.structure ? FindStructure(scenario, *m.structure) : nullptr;
      if (s == nullptr) {
        problem("unknown_structure", m.id);
      } else if (std::none_of(s->floors.begin(), s->floors.end(), [&](const Floor& f) {
                   return f.level == m.floor && table::InPolygon(m.pos, f.polygon);
                 })) {
        problem("bad_floor", m.id);
      }
    }
    state.models.push_back(ModelState{
        .id = m.id,
        .unit = m.unit,
        .pos = m.pos,
        .radius = ToUnits(diameter) / 2,
        .floor = m.floor,
        .structure = m.floor > 0 ? m.structure : std::nullopt,
        .facing_mdeg = NormaliseHeading(m.facing_mdeg),
    });
  }
  if (result.problems.empty()) result.state = std::move(state);
  return result;
}

std::int64_t NormaliseHeading(std::int64_t mdeg) {
  const std::int64_t r = mdeg % 360000;
  return r < 0 ? r + 360000 : r;
}

const ModelState* FindModel(const State& state, const std::string& id) {
  for (const ModelState& m : state.models) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

const UnitState* FindUnit(const State& state, const std::string& id) {
  for (const UnitState& u : state.units) {
    if (u.id == id) return &u;
  }
  return nullptr;
}

}  // namespace pbem::m42
