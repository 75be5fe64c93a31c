#include "engine/wme/state.h"

#include <cstdlib>
#include <set>

namespace pbem::wme {

std::int64_t NormaliseHeading(std::int64_t mdeg) {
  const std::int64_t m = mdeg % table::kMillidegreesPerTurn;
  return m < 0 ? m + table::kMillidegreesPerTurn : m;
}

std::optional<table::Rect> FootprintAt(const BaseState& base, table::Point centre,
                                       std::int64_t heading_mdeg) {
  return table::Rect::Make(centre, base.width, base.depth, heading_mdeg);
}

table::Rect Footprint(const BaseState& base) {
  std::optional<table::Rect> rect = FootprintAt(base, base.centre, base.heading_mdeg);
  if (!rect) std::abort();  // CHECK: every stored pose was bound-checked (header contract)
  return *rect;
}

InitialStateResult InitialState(const Ruleset& ruleset, const Scenario& scenario) {
  InitialStateResult result;
  auto problem = [&result](const char* code, const std::string& id) {
    result.problems.push_back(ScenarioProblem{code, id});
  };
  if (scenario.players.empty()) problem("no_players", "");
  if (scenario.table_width_cm <= 0 || scenario.table_height_cm <= 0 ||
      ToUnits(scenario.table_width_cm) > table::kMaxCoord ||
      ToUnits(scenario.table_height_cm) > table::kMaxCoord) {
    problem("bad_table", "");
  }
  std::set<std::string> players(scenario.players.begin(), scenario.players.end());
  std::set<std::string> ids;
  State state;
  for (const UnitSpec& spec : scenario.units) {
    if (!ids.insert(spec.id).second) problem("duplicate_id", spec.id);
    if (!players.contains(spec.owner)) problem("unknown_owner", spec.id);
    UnitState unit;
    unit.id = spec.id;
    unit.owner = spec.owner;
    unit.troop_type = spec.troop_type;
    unit.mount = spec.mount.value_or(
        Contains(ruleset.choc_types, spec.troop_type) ? Mount::kChoc : Mount::kNonChoc);
    const std::optional<Milli> speed =
        spec.speed_cm ? spec.speed_cm : ruleset.speed_cm[static_cast<std::size_t>(spec.troop_type)];
    if (!speed || *speed < 0) problem("no_speed", spec.id);
    unit.speed_cm = speed.value_or(0);
    unit.engaged = spec.engaged;
    unit.confused = spec.confused;
    unit.fortified = spec.fortified;
    unit.fanatic = spec.fanatic;
    unit.bases_lost = spec.bases_lost;
    state.units.push_back(unit);
  }
  for (const BaseSpec& spec : scenario.bases) {
    if (!ids.insert(spec.id).second) problem("duplicate_id", spec.id);
    const UnitState* unit = FindUnit(state, spec.unit);
    if (unit == nullptr) {
      problem("unknown_unit", spec.id);
      continue;
    }
    const BaseSize size = ruleset.base_size_cm[static_cast<std::size_t>(unit->mount)];
    BaseState base{
        spec.id,         spec.unit,       spec.centre, NormaliseHeading(spec.heading_mdeg),
        ToUnits(size.w), ToUnits(size.d), true};
    if (!FootprintAt(base, base.centre, base.heading_mdeg)) problem("bad_base", spec.id);
    state.bases.push_back(base);
  }
  for (const UnitState& unit : state.units) {
    if (BasesOf(state, unit.id).empty()) problem("empty_unit", unit.id);
  }
  for (const CommanderSpec& spec : scenario.commanders) {
    if (!ids.insert(spec.id).second) problem("duplicate_id", spec.id);
    if (!players.contains(spec.owner)) problem("unknown_owner", spec.id);
    if (spec.attached_to && FindUnit(state, *spec.attached_to) == nullptr) {
      problem("unknown_unit", spec.id);
    }
    state.commanders.push_back(CommanderState{spec.id, spec.owner, spec.centre,
                                              ToUnits(ruleset.commander_diameter_cm) / 2,
                                              spec.general, spec.on_flyer, spec.attached_to});
  }
  if (result.problems.empty()) result.state = std::move(state);
  return result;
}

const BaseState* FindBase(const State& state, const std::string& id) {
  for (const BaseState& base : state.bases) {
    if (base.id == id && base.alive) return &base;
  }
  return nullptr;
}

const UnitState* FindUnit(const State& state, const std::string& id) {
  for (const UnitState& unit : state.units) {
    if (unit.id == id) return &unit;
  }
  return nullptr;
}

UnitState* FindUnit(State& state, const std::string& id) {
  for (UnitState& unit : state.units) {
    if (unit.id == id) return &unit;
  }
  return nullptr;
}

std::vector<std::size_t> BasesOf(const State& state, const std::string& unit) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < state.bases.size(); ++i) {
    if (state.bases[i].unit == unit && state.bases[i].alive) out.push_back(i);
  }
  return out;
}

}  // namespace pbem::wme
