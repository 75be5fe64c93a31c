#include "engine/wme/sight.h"

#include <algorithm>
#include <limits>

namespace pbem::wme {

table::VisionArc ArcOf(const Ruleset& ruleset) {
  return ruleset.vision_arc == VisionArcRule::kHalfPlane ? table::VisionArc::kHalfPlane
                                                         : table::VisionArc::kWedge90;
}

std::vector<table::Polygon> Blockers(const Ruleset& ruleset, const Scenario& scenario,
                                     const State& state, const std::string& viewer,
                                     const std::string& target) {
  std::vector<table::Polygon> blockers;
  for (const TerrainFeature& feature : scenario.terrain) {
    if (!feature.blocks_los) continue;
    if (feature.fortification && !ruleset.fortification_blocks_los) continue;
    blockers.insert(blockers.end(), feature.pieces.begin(), feature.pieces.end());
  }
  for (const BaseState& base : state.bases) {
    if (base.alive && base.unit != viewer && base.unit != target) {
      blockers.push_back(Footprint(base).footprint());
    }
  }
  return blockers;
}

bool UnitSees(const Ruleset& ruleset, const Scenario& scenario, const State& state,
              const std::string& viewer, const std::string& target) {
  const std::vector<table::Polygon> blockers = Blockers(ruleset, scenario, state, viewer, target);
  for (std::size_t v : BasesOf(state, viewer)) {
    const table::Rect eye = Footprint(state.bases[v]);
    for (std::size_t t : BasesOf(state, target)) {
      if (table::Sees(eye, Footprint(state.bases[t]).footprint(), blockers, ArcOf(ruleset))) {
        return true;
      }
    }
  }
  return false;
}

table::Coord BaseDistanceFloor(const State& state, std::size_t a, std::size_t b) {
  return table::ConvexDistance(Footprint(state.bases[a]).footprint(),
                               Footprint(state.bases[b]).footprint())
      .FloorUnits();
}

table::Coord UnitDistanceFloor(const State& state, const std::string& a, const std::string& b) {
  table::Coord best = std::numeric_limits<table::Coord>::max();
  for (std::size_t i : BasesOf(state, a)) {
    for (std::size_t j : BasesOf(state, b)) best = std::min(best, BaseDistanceFloor(state, i, j));
  }
  return best;
}

bool UnitWithin(const State& state, const std::string& a, const std::string& b,
                table::Coord limit) {
  for (std::size_t i : BasesOf(state, a)) {
    for (std::size_t j : BasesOf(state, b)) {
      if (table::ConvexDistance(Footprint(state.bases[i]).footprint(),
                                Footprint(state.bases[j]).footprint())
              .Compare(limit) <= 0) {
        return true;
      }
    }
  }
  return false;
}

NearestVisible NearestVisibleEnemies(const Ruleset& ruleset, const Scenario& scenario,
                                     const State& state, const std::string& unit,
                                     table::Coord range) {
  NearestVisible out;
  const UnitState* self = FindUnit(state, unit);
  if (self == nullptr) return out;
  const table::Coord eps = ToUnits(ruleset.epsilon_cm);
  table::Coord best = std::numeric_limits<table::Coord>::max();
  for (const UnitState& enemy : state.units) {
    if (enemy.owner == self->owner || BasesOf(state, enemy.id).empty()) continue;
    if (!UnitWithin(state, unit, enemy.id, range + eps)) continue;
    if (!UnitSees(ruleset, scenario, state, unit, enemy.id)) continue;
    out.in_range.push_back(enemy.id);
    best = std::min(best, UnitDistanceFloor(state, unit, enemy.id));
  }
  for (const std::string& id : out.in_range) {
    if (UnitDistanceFloor(state, unit, id) == best) out.nearest.push_back(id);
  }
  return out;
}

}  // namespace pbem::wme
