// The rally phase (digest 6): units of the player whose turn it is regain
// morale points at the end of the turn.
#ifndef PBEM_ENGINE_MORNE_PLAINE_RALLY_H_
#define PBEM_ENGINE_MORNE_PLAINE_RALLY_H_

#include <vector>

#include "engine/hex/hex.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/map.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"

namespace pbem::engine {

// "Adjacent" for rally (digest 1.9, 6.1; ruling R8): neighbouring hexes not
// separated by a stream, a river or a major river (bridged or forded or not)
// nor by a slope of two levels or more.
bool RallyAdjacent(const Map& map, Hex a, Hex b);

// Resolves the rally phase of `mover` in `state` (digest 6; positions are
// judged at the end of the combat phase, 6.3). Only the mover's units rally;
// leaders have no MV and never rally; independent units never rally (6.1).
// With parameters.rally_model V2008 (preferred):
//  * a demoralised unit (MV 0) gains 1 if adjacent to its leader, nothing
//    else helps it;
//  * any other unit below its initial MV gains 1 for each condition met:
//    (1) within its leader's command radius, in a hex no enemy controls, and
//    it has not moved at all this turn (advance after combat counts);
//    (2) adjacent to its leader.
// With V2006: the same two conditions for every unit below its initial MV,
// MV 0 included (6.2). MV never exceeds the initial value. A corps whose
// leader is off the map or eliminated meets neither condition.
// Logs one kRally event per unit below its initial MV, gain or not:
// {unit hex} {gain, mv after, conditions} with conditions one of
// "command+adjacent", "command", "adjacent", "none", "independent".
void ResolveRallyPhase(const Ruleset& ruleset, const Scenario& scenario, GameState& state,
                       Side mover, std::vector<Event>& events);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_RALLY_H_
