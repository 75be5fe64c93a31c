// The canonical text of a state of the French game (what GameSystem::EncodeState stores, as
// engine/m42's canonical state lines do for M42): integers and ids only (engine/core/
// canonical.h), so equal states give equal bytes under every compiler. One line per item:
//   state <turn> <active_player>
//   base <id> <unit> <x> <y> <heading_mdeg> <alive 0|1>                       (state order)
//   unit <id> <owner> <engaged> <confused> <fortified> <fanatic> <bases_lost>
//        <moved_by_initiative> <moved_by_order>                             (state order, 0|1)
//   commander <id> <owner> <x> <y> <attached unit|->                          (state order)
// Positions are table units. What the scenario fixes and play never changes (a base's size, a
// unit's troop type, mount and speed, a commander's radius, general and flyer flags) is not
// written: reading takes it from the scenario's start, and checks that the bases, units and
// commanders are the scenario's, in its order.
#ifndef PBEM_ENGINE_WME_CANONICAL_H_
#define PBEM_ENGINE_WME_CANONICAL_H_

#include <string>
#include <string_view>
#include <variant>

#include "engine/wme/ruleset.h"
#include "engine/wme/scenario.h"
#include "engine/wme/state.h"

namespace pbem::wme {

std::string CanonicalStateText(const State& state);

// The state back from untrusted bytes; the error names the line and what was expected there.
struct StateTextError {
  std::string message;
};
std::variant<State, StateTextError> StateFromCanonicalText(const Ruleset& ruleset,
                                                           const Scenario& scenario,
                                                           std::string_view bytes);

}  // namespace pbem::wme

#endif  // PBEM_ENGINE_WME_CANONICAL_H_
