#include "engine/morne_plaine/rally.h"

#include <algorithm>
#include <string>

#include "engine/morne_plaine/movement.h"

namespace pbem::engine {

bool RallyAdjacent(const Map& map, Hex a, Hex b) {
  const auto side = SideBetween(a, b);
  if (!side || !map.Contains(a) || !map.Contains(b)) return false;
  // Rally adjacency is cut by the same hexsides that cut zones of control:
  // water of any kind, bridged or not (R8), and slopes of two levels or more.
  return ZocCrossesSide(map, *side);
}

void ResolveRallyPhase(const Ruleset& ruleset, const Scenario& scenario, GameState& state,
                       Side mover, std::vector<Event>& events) {
  const bool v2008 = ruleset.params.rally_model == RallyModel::kV2008;
  const Board board(scenario, state);
  for (std::size_t i = 0; i < state.units.size() && i < scenario.units.size(); ++i) {
    const UnitSpec& spec = scenario.units[i];
    UnitState& unit = state.units[i];
    if (spec.side != mover || spec.is_leader() || !unit.on_map()) continue;
    if (unit.mv >= unit.mv_initial) continue;
    const UnitId id{static_cast<std::int32_t>(i)};
    const Hex at = *unit.hex;

    std::string conditions;
    int gain = 0;
    if (spec.independent) {
      // Digest 6.1: independent units (no leader) never gain morale.
      conditions = "independent";
    } else {
      const auto leader = scenario.LeaderOf(spec.side, spec.corps);
      const bool leader_here = leader && state.unit(*leader).on_map();
      const Hex leader_hex = leader_here ? *state.unit(*leader).hex : at;
      const bool adjacent = leader_here && RallyAdjacent(scenario.map, at, leader_hex);
      const bool in_range =
          leader_here && Distance(at, leader_hex) <= scenario.unit(*leader).command_radius;
      const bool controlled = ControlOf(ruleset, scenario, state, board, at, Opponent(mover)).any();
      const bool condition1 = in_range && !controlled && !unit.moved_this_turn;
      if (v2008 && unit.mv == 0) {
        // Digest 6.1: a fully demoralised unit rallies only next to its leader.
        gain = adjacent ? 1 : 0;
        conditions = adjacent ? "adjacent" : "none";
      } else {
        gain = (condition1 ? 1 : 0) + (adjacent ? 1 : 0);
        conditions = condition1 && adjacent ? "command+adjacent"
                     : condition1           ? "command"
                     : adjacent             ? "adjacent"
                                            : "none";
      }
    }
    // Digest 6.1: MV never exceeds the initial value.
    const int before = unit.mv;
    unit.mv = std::min(unit.mv_initial, unit.mv + gain);
    events.push_back(
        Event{Phase::kRally, id, {at}, payload::Rally{unit.mv - before, unit.mv, conditions}, {}});
  }
}

}  // namespace pbem::engine
