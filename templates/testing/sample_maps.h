// Maps for the renderer's tests and benchmarks, built in code so that they need neither the
// codec nor the data files:
//   - MornePlaineRuleset(): the terrain (names and colours) and unit types of the bundled
//     morne-plaine ruleset; movement costs and the CRT are minimal, the renderer reads
//     neither.
//   - BoisDeLaMorne(): the bundled scenario engine/scenarios/bois-de-la-morne.textproto
//     transcribed hex for hex (30x20, every terrain, water, slope and route feature).
//   - LargeSampleMap(): a generated map of any size with the same variety, for timing.
// Not part of the service: linked only by tests and benchmarks.
#ifndef PBEM_TEMPLATES_TESTING_SAMPLE_MAPS_H_
#define PBEM_TEMPLATES_TESTING_SAMPLE_MAPS_H_

#include <vector>

#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"

namespace pbem::templates::testing {

engine::Ruleset MornePlaineRuleset();

// REQUIRES: `ruleset` is MornePlaineRuleset() (terrain and unit types looked up by name).
engine::Scenario BoisDeLaMorne(const engine::Ruleset& ruleset);

// A width x height map with woods, towns, marsh, hills, a river with bridges and fords,
// streams, roads and tracks, four objectives and about one unit per 30 hexes per side.
// Deterministic: the same size gives the same map.
engine::Scenario LargeSampleMap(const engine::Ruleset& ruleset, int width, int height);

// kMoveStep events ([from, to] per step) moving `unit` along `path` (path[0] is the start).
std::vector<engine::Event> MoveEvents(engine::UnitId unit, const std::vector<engine::Hex>& path);

// Registers (once) an exit handler that frees cairo's and fontconfig's process-wide font
// caches, so that LeakSanitizer (make sanitize) reports only real leaks. Call it from a
// static initialiser in every test or benchmark program that renders text. Returns true.
bool ReleaseFontCachesAtExit();

}  // namespace pbem::templates::testing

#endif  // PBEM_TEMPLATES_TESTING_SAMPLE_MAPS_H_
