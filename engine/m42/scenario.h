// An M42 scenario (m42.md §1, §2.1): the table, its terrain features and the models, units and
// Task Forces of each player. Geometry is already in table units (engine/table), built and
// bounds-checked by the loader (proto/codec/m42_codec.h); lengths that are rules numbers
// (heights, base diameters) stay in Thou. Ids are byte strings compared byte-wise (M-R4).
#ifndef PBEM_ENGINE_M42_SCENARIO_H_
#define PBEM_ENGINE_M42_SCENARIO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/m42/ruleset.h"
#include "engine/table/shapes.h"
#include "engine/table/walls.h"

namespace pbem::m42 {

// Hill (§2.1, M42-P09): nested steps, step[k+1] inside step[k]; level k = index + 1.
struct Hill {
  std::string id;
  std::vector<table::Polygon> steps;
};

// Area Terrain (§2.1, M42-R16): its base polygon; `difficult` is the seed's extra flag
// (001:L37-39). Height is for sight only.
struct AreaTerrain {
  std::string id;
  std::string kind;  // "woods", "marsh", ... (words only)
  table::Polygon polygon;
  bool difficult = false;
  Thou height_in = 0;
};

// Linear Obstacle (§2.1, M42-P07): centre line; thickness defaults to the ruleset's
// linear_obstacle_thickness_in (GAP-06).
struct LinearObstacle {
  std::string id;
  table::Polyline centre_line;
  Thou height_in = 0;
  std::optional<Thou> thickness_in;
};

// Point Obstacle (§2.1, M42-P08): a small footprint.
struct PointObstacle {
  std::string id;
  table::Polygon footprint;
  Thou height_in = 0;
};

// Structure (§2.1, M42-R20..R23, M42-P10, M42-P11). A base makes it Area Terrain on its ground
// floor (feature id "<id>.base", §6 T21). Floors have level >= 1.
struct Floor {
  int level = 1;
  table::Polygon polygon;
};
struct StructureWall {
  table::Wall wall;  // openings in table units along the wall from its first end
  Thou height_in = 0;
};
struct Structure {
  std::string id;
  std::optional<table::Polygon> base;
  std::vector<Floor> floors;
  std::vector<StructureWall> walls;
  bool ruin = false;  // no rule difference in movement (M42-R20)
};

// Explicit impassable area (GAP-19, M-R6).
struct ImpassableArea {
  std::string id;
  table::Polygon polygon;
};

struct Terrain {
  std::vector<Hill> hills;
  std::vector<AreaTerrain> areas;
  std::vector<LinearObstacle> linear_obstacles;
  std::vector<PointObstacle> point_obstacles;
  std::vector<Structure> structures;
  std::vector<ImpassableArea> impassable;
};

// §1.2. `spread_in` is SPREAD(n) (M42-R33); `task_force` is read only with
// task_force_scope: scenario (M-R8).
struct UnitSpec {
  std::string id;
  std::string owner;
  std::optional<std::string> task_force;
  int mv_in = 0;  // whole inches (§1.2)
  bool leaper = false;
  bool limited_vision = false;
  std::optional<Thou> spread_in;
};

// §1.1. Position in table units; floor 0 = ground; `structure` names the structure whose floor
// the model stands on (floor >= 1). Facing in millidegrees anticlockwise from +x (§0.3).
struct ModelSpec {
  std::string id;
  std::string unit;
  std::optional<Thou> base_diameter_in;  // default: ruleset default_base_diameter_in (GAP-02)
  table::Point pos;
  int floor = 0;
  std::optional<std::string> structure;
  std::int64_t facing_mdeg = 90000;
};

struct Scenario {
  Thou table_width_in = 72000;  // §6 common setup: 72" x 48"
  Thou table_height_in = 48000;
  std::vector<std::string> players;  // in Action Phase order; the first moves first
  Terrain terrain;
  std::vector<UnitSpec> units;
  std::vector<ModelSpec> models;
};

}  // namespace pbem::m42

#endif  // PBEM_ENGINE_M42_SCENARIO_H_
