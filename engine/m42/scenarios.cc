#include "engine/m42/scenarios.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace pbem::m42 {
namespace {

// The data below is written in inches with at most three decimals: exact in Thou.
Thou In(double inches) { return std::llround(inches * 1000); }
table::Point At(double x, double y) {
  return table::Point::Make(ToUnits(In(x)), ToUnits(In(y))).value();
}
table::Polygon Shape(std::vector<std::pair<double, double>> xy) {
  std::vector<table::Point> points;
  for (const auto& [x, y] : xy) points.push_back(At(x, y));
  return table::Polygon::Make(std::move(points)).value();
}
table::Polygon Box(double x0, double y0, double x1, double y1) {
  return Shape({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}});
}
table::Polyline Line(std::pair<double, double> a, std::pair<double, double> b) {
  return table::Polyline::Make({At(a.first, a.second), At(b.first, b.second)}).value();
}

// A wall from a to b, 4" tall, with openings given in inches from a.
StructureWall WallOf(std::pair<double, double> a, std::pair<double, double> b,
                     std::vector<std::pair<double, double>> openings) {
  StructureWall w;
  w.wall.line = {At(a.first, a.second), At(b.first, b.second)};
  for (const auto& [from, to] : openings) {
    w.wall.openings.push_back(table::Opening{ToUnits(In(from)), ToUnits(In(to))});
  }
  w.height_in = 4000;
  return w;
}

UnitSpec UnitOf(std::string id, std::string owner, int mv) {
  UnitSpec u;
  u.id = std::move(id);
  u.task_force = owner;
  u.owner = std::move(owner);
  u.mv_in = mv;
  return u;
}

// `count` models of `unit` in a row from (x, y), `step` inches apart, facing `facing_deg`.
void Row(Scenario& s, const std::string& unit, int count, double x, double y, double step,
         std::int64_t facing_deg, std::optional<Thou> base = std::nullopt) {
  for (int i = 0; i < count; ++i) {
    ModelSpec m;
    m.id = unit + "_" + std::to_string(i + 1);
    m.unit = unit;
    m.base_diameter_in = base;
    m.pos = At(x + step * i, y);
    m.facing_mdeg = facing_deg * 1000;
    s.models.push_back(std::move(m));
  }
}

Terrain PumpingStationTerrain() {
  Terrain t;
  t.hills.push_back(Hill{"kessel_rise", {Box(4, 18, 16, 30), Box(7, 21, 13, 27)}});
  t.areas.push_back(
      AreaTerrain{"woods", "woods", Shape({{36, 14}, {44, 15}, {45, 22}, {37, 23}}), false, 4000});
  t.areas.push_back(AreaTerrain{"marsh", "marsh", Box(20, 32, 28, 36), true, 0});
  t.linear_obstacles.push_back(LinearObstacle{"low_wall", Line({18, 12}, {30, 12}), 1000, {}});
  t.linear_obstacles.push_back(LinearObstacle{"hedge", Line({36, 32}, {46, 32}), 3000, {}});
  t.linear_obstacles.push_back(LinearObstacle{"pipeline", Line({2, 34}, {12, 34}), 5000, 500});
  t.point_obstacles.push_back(PointObstacle{"crate", Box(11, 14, 12, 15), 1000});
  t.point_obstacles.push_back(PointObstacle{"statue", Box(40, 38, 41, 39), 7000});
  t.impassable.push_back(ImpassableArea{"sump", Shape({{20, 20}, {25, 19}, {27, 23}, {22, 25}})});
  Structure station;
  station.id = "station";
  station.base = Box(28, 24, 34, 30);
  station.floors = {Floor{1, Box(28, 24, 34, 30)}, Floor{2, Box(29, 25, 33, 29)}};
  station.walls = {
      WallOf({28, 24}, {34, 24}, {{2.5, 4}}),  // south: a door
      WallOf({34, 24}, {34, 30}, {{2, 3.5}}),  // east: a window
      WallOf({34, 30}, {28, 30}, {{2.5, 4}}),  // north: a door
      WallOf({28, 30}, {28, 24}, {}),          // west: blind
  };
  t.structures.push_back(std::move(station));
  return t;
}

}  // namespace

Scenario PumpingStation() {
  Scenario s;
  s.table_width_in = 48000;
  s.table_height_in = 48000;
  s.players = {"blue", "red"};
  s.terrain = PumpingStationTerrain();

  // Blue, facing north (90 degrees).
  s.units.push_back(UnitOf("b_hq", "blue", 5));
  s.units.push_back(UnitOf("b_sq1", "blue", 5));
  s.units.push_back(UnitOf("b_sq2", "blue", 5));
  s.units.push_back(UnitOf("b_wpn", "blue", 4));
  s.units.push_back(UnitOf("b_scouts", "blue", 6));
  s.units.back().spread_in = 3000;
  Row(s, "b_hq", 3, 22, 3, 1.5, 90);
  Row(s, "b_sq1", 5, 6, 5, 1.5, 90);
  Row(s, "b_sq2", 5, 30, 5, 1.5, 90);
  Row(s, "b_wpn", 4, 15, 7, 2, 90, 1575);  // 40 mm bases
  Row(s, "b_scouts", 3, 40, 8, 2.5, 90);

  // Red, facing south (270 degrees).
  s.units.push_back(UnitOf("r_hq", "red", 5));
  s.units.push_back(UnitOf("r_sq1", "red", 5));
  s.units.push_back(UnitOf("r_sq2", "red", 5));
  s.units.back().limited_vision = true;
  s.units.push_back(UnitOf("r_jump", "red", 6));
  s.units.back().leaper = true;
  s.units.back().spread_in = 3000;
  s.units.push_back(UnitOf("r_beast", "red", 5));
  Row(s, "r_hq", 3, 23, 45, 1.5, 270);
  Row(s, "r_sq1", 5, 36, 43, 1.5, 270);
  Row(s, "r_sq2", 5, 8, 43, 1.5, 270);
  Row(s, "r_jump", 4, 28, 41, 2, 270);
  Row(s, "r_beast", 3, 17, 41, 2, 270, 1260);  // 32 mm bases
  return s;
}

}  // namespace pbem::m42
