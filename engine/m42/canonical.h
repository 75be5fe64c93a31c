// A canonical text of a player-turn's outcome (its verdicts, events and next state), for hashes
// that must be equal under every compiler (soak.h; gcc and clang are compared). Integers and
// ids only, never floating point; every id is written length-prefixed ("5:b_hq1"), so no id
// can fake a separator. Positions are engine/table units; lengths Thou; facings millidegrees.
// One line per item, in the order the result holds them:
//   verdict <unit> <kind> <reason> <model> <other> <value|-> <limit|->
//   <event kind> <its fields in event.h's order>
//   state <turn> <active_player>
//   model <id> <unit> <x> <y> <floor> <structure|-> <facing> <alive 0|1>   (state order)
//   unit <id> <owner> <task_force> <acted 0|1> <action|-> <close-combat ids...>  (state order)
#ifndef PBEM_ENGINE_M42_CANONICAL_H_
#define PBEM_ENGINE_M42_CANONICAL_H_

#include <string>

#include "engine/m42/resolve.h"

namespace pbem::m42 {

std::string CanonicalText(const PlayerTurnResult& result);

}  // namespace pbem::m42

#endif  // PBEM_ENGINE_M42_CANONICAL_H_
