// The scenarios bundled with M42, built in C++ (LoadBundled; soak, tests and benchmarks use them
// without the codec). Each is also a data file, engine/scenarios/m42/<name>.textproto, which
// tests/engine/system/m42_codec_test.cc checks equal to this. Each is our own design.
#ifndef PBEM_ENGINE_M42_SCENARIOS_H_
#define PBEM_ENGINE_M42_SCENARIOS_H_

#include <string_view>

#include "engine/m42/scenario.h"

namespace pbem::m42 {

// "Pumping Station" (issue 16 point 6): a 48" x 48" table, two platoons of 20 models in five
// units each, terrain of every Going class of m42.md §2.2 (Clear, Slow, Slow + Difficult,
// Difficult, Impassible), an explicit impassable area and a building with a base and two floors.
// The table, from south (y = 0, blue's edge) to north (y = 48, red's edge):
//
//  y 40-46  red deploys: r_sq2 (Limited Vision) west, r_beast (32 mm bases), r_hq, r_jump
//           (Leaper, Spread 3") and r_sq1 east; a statue (7" tall point obstacle: Impassible)
//           stands at (40, 38).
//  y 30-37  a cooling pipeline (5" tall linear obstacle: Impassible to infantry, Slow +
//           Difficult to Leapers) from (2, 34) to (12, 34); a marsh (area flagged difficult:
//           Slow + Difficult) in (20..28, 32..36); a hedge (3" tall: Slow + Difficult) from
//           (36, 32) to (46, 32).
//  y 18-30  Kessel Rise, a two-step hill (going up is Slow) in (4..16, 18..30), its top in
//           (7..13, 21..27); the Sump, a flooded crater (explicit impassable area) between
//           x 20 and 27; the pumping station, a building with a base (its ground floor is Slow)
//           in (28..34, 24..30), floor 1 over the whole base, floor 2 (the roof) in
//           (29..33, 25..29), walls 4" tall with doors in the south and north walls and a
//           window in the east wall (crossing a wall elsewhere, or climbing, is Difficult).
//  y 12-22  a low wall (1" tall: Slow) from (18, 12) to (30, 12); a crate (1" tall point
//           obstacle: Slow) at (11, 14); woods (Slow) in (36..45, 14..23).
//  y 3-8    blue deploys: b_sq1 west, b_wpn (40 mm bases, Mv 4), b_hq, b_sq2 and b_scouts
//           (Spread 3", Mv 6) east.
// Open ground elsewhere is Clear. Players: blue moves first, then red. Every unit starts
// coherent, no base overlaps another or a feature, and no two enemy models are within 30".
Scenario PumpingStation();
inline constexpr std::string_view kPumpingStationName = "pumping_station";

}  // namespace pbem::m42

#endif  // PBEM_ENGINE_M42_SCENARIOS_H_
