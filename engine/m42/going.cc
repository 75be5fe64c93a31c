#include "engine/m42/going.h"

#include <algorithm>

#include "engine/table/discs.h"
#include "engine/table/predicates.h"
#include "engine/table/region.h"
#include "engine/table/walls.h"

namespace pbem::m42 {
namespace {

void AddId(std::vector<std::string>& ids, const std::string& id) {
  const auto at = std::lower_bound(ids.begin(), ids.end(), id);
  if (at == ids.end() || *at != id) ids.insert(at, id);
}

void AddGoing(ModelGeometry& g, const Going& going, const std::string& id) {
  if (going.impassible) AddId(g.impassable, id);
  if (going.slow) AddId(g.slow, id);
  if (going.difficult) AddId(g.difficult, id);
}

const UnitState* UnitOf(const std::vector<UnitState>& units, const std::string& id) {
  for (const UnitState& u : units) {
    if (u.id == id) return &u;
  }
  return nullptr;
}

// The maximal runs of the path on floor 0 (M-R10: area terrain, structure bases, hills,
// obstacles and impassable areas act only there). A run may be a single point: a model that
// stands on the ground before climbing still has its base there.
std::vector<table::Polyline> GroundRuns(const std::vector<FloorPoint>& path) {
  std::vector<table::Polyline> runs;
  std::vector<FloorPoint> run;
  auto flush = [&] {
    if (!run.empty()) runs.push_back(PlanPath(run));
    run.clear();
  };
  for (const FloorPoint& v : path) {
    if (v.floor == 0) {
      run.push_back(v);
    } else {
      flush();
    }
  }
  flush();
  return runs;
}

// The floor polygon of `level` in `s` holding p, if any (M42-P10, GAP-09: access anywhere).
const Floor* FloorAt(const Structure& s, int level, table::Point p) {
  for (const Floor& f : s.floors) {
    if (f.level == level && table::InPolygon(p, f.polygon)) return &f;
  }
  return nullptr;
}

// M42-P10 and M42-R22 / R30: floor changes and walking on upper floors.
void WalkFloors(const Scenario& scenario, const UnitSpec& unit, const ModelState& model,
                const std::vector<FloorPoint>& path, ModelGeometry& g) {
  const Structure* structure = nullptr;
  const Floor* floor = nullptr;
  if (model.floor > 0 && model.structure) {
    for (const Structure& s : scenario.terrain.structures) {
      if (s.id == *model.structure) structure = &s;
    }
    if (structure) floor = FloorAt(*structure, model.floor, model.pos);
  }
  for (std::size_t i = 1; i < path.size(); ++i) {
    const FloorPoint& from = path[i - 1];
    const FloorPoint& to = path[i];
    if (to.floor == from.floor) {
      if (to.floor > 0 &&
          (floor == nullptr || !table::SegmentInside({from.p, to.p}, floor->polygon))) {
        g.off_floor = true;
      }
      continue;
    }
    if (to.floor == 0) {
      structure = nullptr;
      floor = nullptr;
      continue;
    }
    // Going to floor >= 1: the same structure when already on one, else the first (smallest
    // id) whose floor holds the point.
    const Structure* found = nullptr;
    const Floor* found_floor = nullptr;
    for (const Structure& s : scenario.terrain.structures) {
      if (from.floor > 0 && structure != &s) continue;
      const Floor* f = FloorAt(s, to.floor, to.p);
      if (f && (found == nullptr || s.id < found->id)) found = &s, found_floor = f;
    }
    if (found == nullptr) {
      g.level_change_outside_floor = true;
      structure = nullptr;
      floor = nullptr;
      continue;
    }
    if (to.floor > from.floor && !unit.leaper) AddId(g.difficult, found->id);
    structure = found;
    floor = found_floor;
  }
  if (structure) g.end_structure = structure->id;
}

void GroundFeatures(const Ruleset& ruleset, const Scenario& scenario, const UnitSpec& unit,
                    const table::Polyline& run, table::Coord r, ModelGeometry& g) {
  const table::Coord eps = ToUnits(ruleset.epsilon_in);
  const std::vector<ObstacleBand>& bands =
      unit.leaper ? ruleset.obstacle_bands_leaper : ruleset.obstacle_bands_normal;
  for (const Hill& hill : scenario.terrain.hills) {
    if (unit.leaper || hill.steps.empty()) continue;  // M42-R30
    const bool slow = ruleset.hill_slow_on == HillSlowOn::kAscentOnly
                          ? table::GoesUp(run, hill.steps)         // M42-R14, R15, P09
                          : table::PathMeets(run, hill.steps[0]);  // GAP-24 alternative
    if (slow) AddId(g.slow, hill.id);
  }
  auto area = [&](const table::Polygon& polygon, const std::string& id, bool difficult) {
    if (!table::SweepSharesArea(run, r, polygon, eps)) return;                      // M42-P06
    if (!ruleset.area_slow_when_inside && table::PathInside(run, polygon)) return;  // GAP-07
    AddGoing(g, Going{.slow = true, .difficult = difficult}, id);                   // M42-R16, R07
  };
  for (const AreaTerrain& a : scenario.terrain.areas) area(a.polygon, a.id, a.difficult);
  for (const Structure& s : scenario.terrain.structures) {
    if (s.base) area(*s.base, s.id + ".base", false);  // M42-R23
  }
  for (const LinearObstacle& o : scenario.terrain.linear_obstacles) {
    if (table::PathsMeet(run, o.centre_line)) AddGoing(g, ObstacleGoing(bands, o.height_in), o.id);
  }
  for (const PointObstacle& o : scenario.terrain.point_obstacles) {
    if (table::PathMeets(run, o.footprint)) AddGoing(g, ObstacleGoing(bands, o.height_in), o.id);
  }
  if (ruleset.explicit_impassable) {
    for (const ImpassableArea& a : scenario.terrain.impassable) {
      if (table::SweepSharesArea(run, r, a.polygon, eps)) AddId(g.impassable, a.id);  // M-R6
    }
  }
}

// GAP-18 (M42-P07, P08, ruling M-R7): the base at its end point overlaps an obstacle.
void EndOnObstacle(const Ruleset& ruleset, const Scenario& scenario, const table::Disc& end,
                   ModelGeometry& g) {
  const table::Coord eps = ToUnits(ruleset.epsilon_in);
  for (const LinearObstacle& o : scenario.terrain.linear_obstacles) {
    const table::Coord half =
        ToUnits(o.thickness_in.value_or(ruleset.linear_obstacle_thickness_in)) / 2;
    if (table::DiscOverlapsBody(end, o.centre_line, half, eps)) AddId(g.ends_on_obstacle, o.id);
  }
  const table::Polyline at = *table::Polyline::Make({end.centre()});
  for (const PointObstacle& o : scenario.terrain.point_obstacles) {
    if (table::SweepSharesArea(at, end.radius(), o.footprint, eps)) {
      AddId(g.ends_on_obstacle, o.id);
    }
  }
}

}  // namespace

table::Polyline PlanPath(const std::vector<FloorPoint>& path) {
  std::vector<table::Point> points;
  for (const FloorPoint& v : path) {
    if (points.empty() || !(points.back() == v.p)) points.push_back(v.p);
  }
  return *table::Polyline::Make(std::move(points));
}

ModelGeometry MeasureModel(const Ruleset& ruleset, const Scenario& scenario, const UnitSpec& unit,
                           const std::vector<ModelState>& models,
                           const std::vector<UnitState>& units, std::size_t index,
                           const std::vector<FloorPoint>& path) {
  ModelGeometry g;
  const ModelState& model = models[index];
  const table::Coord r = model.radius;
  const table::Coord eps = ToUnits(ruleset.epsilon_in);
  const table::Polyline plan = PlanPath(path);
  g.length = table::Length(plan);
  WalkFloors(scenario, unit, model, path, g);
  for (const table::Polyline& run : GroundRuns(path)) {
    GroundFeatures(ruleset, scenario, unit, run, r, g);
  }
  // Walls act on every floor (M-R10); only the centre path counts (M-R7).
  if (!(unit.leaper && ruleset.leaper_ignores_walls)) {
    const table::Coord fit = ruleset.opening_requires_fit ? r : 0;  // GAP-10
    for (const Structure& s : scenario.terrain.structures) {
      for (const StructureWall& w : s.walls) {
        if (table::CrossWall(plan, w.wall, fit, eps).Difficult()) AddId(g.difficult, s.id);
      }
    }
  }
  if (ruleset.table_edge == TableEdge::kWall &&
      !table::SweepInsideTable(plan, r, ToUnits(scenario.table_width_in),
                               ToUnits(scenario.table_height_in))) {
    g.off_table = true;
  }
  // Other models (M42-P12, P13), where they stand now; plan distances (GAP-14).
  const UnitState* own = UnitOf(units, model.unit);
  const table::Disc end = *table::Disc::Make(path.back().p, r);
  for (std::size_t j = 0; j < models.size(); ++j) {
    const ModelState& other = models[j];
    if (j == index || !other.alive) continue;
    const table::Disc disc = *table::Disc::Make(other.pos, other.radius);
    if (table::Overlap(end, disc, eps)) AddId(g.ends_on_friendly, other.id);
    const UnitState* theirs = UnitOf(units, other.unit);
    if (own == nullptr || theirs == nullptr || theirs->owner != own->owner ||
        other.unit == model.unit) {
      continue;  // enemies: M42-P05; own unit: free (M42-R09)
    }
    if (!table::SweepOverlapsDisc(plan, r, disc, eps)) continue;
    if (theirs->task_force == own->task_force ||
        ruleset.non_task_force_friend == NonTaskForceFriend::kSlow) {
      AddId(g.slow, other.id);  // M42-R10
    } else {
      AddId(g.crosses_non_task_force, other.id);  // GAP-12
    }
  }
  if (path.back().floor == 0 && !ruleset.allow_end_on_obstacle) {
    EndOnObstacle(ruleset, scenario, end, g);
  }
  return g;
}

int Allowance(const Ruleset& ruleset, Action action, int mv_in, std::size_t difficult_features) {
  int allowance = ruleset.action_move_factor[static_cast<std::size_t>(action)] * mv_in;
  if (difficult_features == 0) return allowance;
  if (ruleset.difficult_model == DifficultModel::kHalvePerFeature) {
    for (std::size_t i = 0; i < difficult_features && allowance > 0; ++i) allowance /= 2;
    return allowance;
  }
  return allowance / 2;  // M42-R06: halved once, rounded down (GAP-05)
}

}  // namespace pbem::m42
