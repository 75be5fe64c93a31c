// A scenario of the French mass-battle game (french-fantasy.md §1, §2): the table, its terrain
// features and each player's units, bases (*socles*) and commanders. Geometry is already in
// table units (engine/table), built and bounds-checked by the loader (a later step of issue 17:
// proto/codec); rules numbers (speeds, sizes) stay in Milli. Ids are byte strings compared
// byte-wise.
#ifndef PBEM_ENGINE_WME_SCENARIO_H_
#define PBEM_ENGINE_WME_SCENARIO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/table/shapes.h"
#include "engine/wme/ruleset.h"

namespace pbem::wme {

// A terrain feature (§2, DEFAULT model GAP-05 [WMR-XTER]). The area is given as convex pieces
// (engine/table's predicates take convex shapes; a non-convex wood is several pieces that may
// overlap).
struct TerrainFeature {
  std::string id;
  std::string kind;  // "woods", "river", "hill", ... (words only; the map and mails)
  std::vector<table::Polygon> pieces;
  TerrainCategory category = TerrainCategory::kPassable;  // Ruleset::passable_by
  bool broken = false;         // a base partly inside at the start of a move: half pace (W-R13)
  bool dense = false;          // command penalty (orders chapter, not modelled)
  bool blocks_los = false;     // WME-P10
  Milli see_into_cm = 0;       // woods: 2 cm [WMR-TER] (charges' sight; not modelled yet)
  bool fortification = false;  // linear work; WME-P18
  bool high = false;           // needs ladders or towers (003:L151, GAP-28)
};

// §1.2. `speed_cm` is the profile speed of a MACHINE (§1.4); other types take the ruleset's.
// `mount` overrides choc_types (army-list exceptions, GAP-03). The flags are the scenario's
// starting state (§1.2 "state flags").
struct UnitSpec {
  std::string id;
  std::string owner;
  TroopType troop_type = TroopType::kInfantry;
  std::optional<Milli> speed_cm;
  std::optional<Mount> mount;
  bool engaged = false;
  bool confused = false;
  bool fortified = false;  // scenario only, infantry and artillery (003:L151)
  bool fanatic = false;    // must charge (003:L74)
  int bases_lost = 0;      // WME-R67
};

// §1.1: a base's pose (x, y, θ): centre in table units, heading in millidegrees anticlockwise
// from +x (90000 = facing north, §0.3).
struct BaseSpec {
  std::string id;
  std::string unit;
  table::Point centre;
  std::int64_t heading_mdeg = 90000;
};

// §1.3: a commander's base, a disc (GAP-04); never hinders units (WME-R22).
struct CommanderSpec {
  std::string id;
  std::string owner;
  table::Point centre;
  bool general = false;
  bool on_flyer = false;
  std::optional<std::string> attached_to;  // a unit id (003:L157)
};

struct Scenario {
  Milli table_width_cm = 180000;  // §7 common setup: 180 x 120 cm
  Milli table_height_cm = 120000;
  std::vector<std::string> players;  // turn order; the first plays first
  std::vector<TerrainFeature> terrain;
  std::vector<UnitSpec> units;
  std::vector<BaseSpec> bases;
  std::vector<CommanderSpec> commanders;
};

}  // namespace pbem::wme

#endif  // PBEM_ENGINE_WME_SCENARIO_H_
