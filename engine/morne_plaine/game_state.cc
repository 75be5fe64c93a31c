#include "engine/morne_plaine/game_state.h"

#include "engine/morne_plaine/scenario.h"

namespace pbem::engine {

std::optional<UnitId> GameState::UnitAt(Hex hex) const {
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (units[i].on_map() && *units[i].hex == hex) return UnitId{static_cast<std::int32_t>(i)};
  }
  return std::nullopt;
}

GameState InitialState(const Scenario& scenario, std::string game_id) {
  GameState state;
  state.game_id = std::move(game_id);
  state.turn = 1;
  state.side_to_move = scenario.first_side;
  state.units.reserve(scenario.units.size());
  for (const UnitSpec& spec : scenario.units) {
    UnitState u;
    u.hex = spec.start_hex;
    u.cs = spec.cs;
    u.mv = spec.mv;
    u.mv_initial = spec.mv;
    state.units.push_back(u);
  }
  for (const Objective& o : scenario.objectives) {
    if (!o.initial_owner) continue;
    for (const Hex& h : o.hexes) state.objective_owners[h] = *o.initial_owner;
  }
  state.fort_owners = scenario.fort_owners;
  return state;
}

}  // namespace pbem::engine
