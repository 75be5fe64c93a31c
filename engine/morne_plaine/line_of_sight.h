// Line of sight for bombardment (digest 3.3): the levels_v1 procedure of the
// GAP default over the exact centre-to-centre trace of line.h, or none at all
// (los_model NONE, the V2006 rule: terrain between firer and target has no
// influence).
#ifndef PBEM_ENGINE_MORNE_PLAINE_LINE_OF_SIGHT_H_
#define PBEM_ENGINE_MORNE_PLAINE_LINE_OF_SIGHT_H_

#include <optional>
#include <vector>

#include "engine/hex/hex.h"
#include "engine/morne_plaine/map.h"
#include "engine/morne_plaine/ruleset.h"

namespace pbem::engine {

// What stops a line of sight: one intervening hex, or the two hexes beside a
// hexside the line runs along (both block: digest 3.3, "blocked only if
// obstacles lie on both sides").
struct LosBlock {
  std::vector<Hex> hexes;  // one hex, or the pair in the order of Sides()
};

struct LosResult {
  bool clear = true;
  std::optional<LosBlock> block;  // the first blocker from the firer, when !clear
};

// Whether the hex `h` blocks the sight line from `from` to `to` under
// levels_v1 (digest 3.3 steps 3 to 5): effective height H = level, +1 when
// its terrain blocks_los; with Lf, Lt the levels of `from` and `to`, d the
// distance from `from` to `h` and D from `from` to `to`, it blocks iff
// H > Lf + (Lt - Lf) * d / D (compared exactly in integers; for equal levels
// this is H > L). A hex off the map never blocks.
// REQUIRES: from != to; from and to on the map.
bool HexBlocksSight(const Ruleset& ruleset, const Map& map, Hex from, Hex to, Hex h);

// The line of sight from `from` to `to` (digest 3.3, parameters.los_model):
//  * kNone: always clear.
//  * kLevelsV1: every hex whose interior the centre line crosses is tested
//    with HexBlocksSight; where the line runs along a hexside, its two hexes
//    form a pair that blocks only if both block; hexes touched at a corner
//    only are not crossed (line.h) and never block; the firer's and target's
//    own hexes never block, nor do units (they are not looked at).
// The first blocker along the line from `from` is reported.
// REQUIRES: from and to on the map.
LosResult LineOfSight(const Ruleset& ruleset, const Map& map, Hex from, Hex to);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_LINE_OF_SIGHT_H_
