#include "engine/morne_plaine/movement.h"

#include <algorithm>
#include <array>

#include "engine/core/check.h"

namespace pbem::engine {

namespace {

const MoveCost* CostFor(const TerrainType& terrain, MovementClassId cls) {
  if (!cls.valid() || cls.index() >= terrain.move_costs.size()) return nullptr;
  const auto& cost = terrain.move_costs[cls.index()];
  return cost ? &*cost : nullptr;
}

bool AnyRoad(const Map& map, const std::vector<std::int32_t>& route_ids) {
  for (const std::int32_t id : route_ids) {
    if (!map.routes()[static_cast<std::size_t>(id)].track) return true;
  }
  return false;
}

bool AnyTrack(const Map& map, const std::vector<std::int32_t>& route_ids) {
  for (const std::int32_t id : route_ids) {
    if (map.routes()[static_cast<std::size_t>(id)].track) return true;
  }
  return false;
}

bool RoadAlong(const Map& map, Hex a, Hex b) {
  const auto side = SideBetween(a, b);
  return side && AnyRoad(map, map.RoutesAlong(*side));
}

// Digest 4.5 "Crossroads": a unit on a road can jump to a hex of another road
// without passing through the crossroads. The step from -> to runs along no
// road, both hexes lie on roads, and a third hex next to both is joined to
// each of them by a road: the crossroads (or the sharp bend) that was cut.
bool IsCrossroadsJump(const Map& map, Hex from, Hex to) {
  if (!AnyRoad(map, map.RoutesThrough(from)) || !AnyRoad(map, map.RoutesThrough(to))) {
    return false;
  }
  const Direction dir = *DirectionTo(from, to);
  // The two hexes adjacent to both `from` and `to`.
  for (const int turn : {-1, 1}) {
    const Hex x = Neighbor(from, RotateClockwise(dir, turn));
    if (!map.Contains(x)) continue;
    if (RoadAlong(map, from, x) && RoadAlong(map, x, to)) return true;
  }
  return false;
}

StepCost Blocked(Reason reason, std::string feature) {
  StepCost out;
  out.passable = false;
  out.blocked = reason;
  out.feature = std::move(feature);
  return out;
}

std::string SlopeName(int levels) {
  switch (levels) {
    case 2:
      return "double_slope";
    case 3:
      return "triple_slope";
    default:
      return "slope_" + std::to_string(levels);
  }
}

}  // namespace

// ---- Unit facts ------------------------------------------------------------

MovementClassId CostClass(const Ruleset& ruleset, const UnitSpec& unit) {
  const MovementClassId own = ruleset.unit_type(unit.type).movement_class;
  if (unit.is_leader()) {
    // Digest 4.2 / #5: leaders use the column named by leaders_move_as.
    if (const auto named = ruleset.FindMovementClass(ruleset.params.leaders_move_as)) {
      return *named;
    }
  }
  return own;
}

MovementClassId StuckClass(const Ruleset& ruleset, const UnitSpec& unit) {
  return ruleset.unit_type(unit.type).movement_class;
}

bool IsMounted(const Ruleset& ruleset, const UnitSpec& unit) {
  const UnitType& type = ruleset.unit_type(unit.type);
  // The scenario's resolved arm decides; dromedaries are never mounted
  // (digest 1.4).
  return (unit.arm == Arm::kCavalry || unit.arm == Arm::kLeader) && !type.dromedary;
}

bool IsDemoralised(const UnitSpec& unit, const UnitState& state) {
  return !unit.is_leader() && state.mv <= 0;
}

// ---- Board -----------------------------------------------------------------

Board::Board(const Scenario& scenario, const GameState& state)
    : map_(&scenario.map),
      occupant_(static_cast<std::size_t>(scenario.map.width() * scenario.map.height()), -1) {
  for (std::size_t i = 0; i < state.units.size(); ++i) {
    const UnitState& u = state.units[i];
    if (u.on_map() && map_->Contains(*u.hex)) {
      occupant_[Index(*u.hex)] = static_cast<std::int32_t>(i);
    }
  }
}

std::size_t Board::Index(Hex hex) const {
  const Offset o = ToOffset(hex);
  return static_cast<std::size_t>(o.row * map_->width() + o.col);
}

std::optional<UnitId> Board::UnitAt(Hex hex) const {
  if (!map_->Contains(hex)) return std::nullopt;
  const std::int32_t v = occupant_[Index(hex)];
  if (v < 0) return std::nullopt;
  return UnitId{v};
}

void Board::MoveUnit(UnitId unit, Hex from, Hex to) {
  PBEM_CHECK(map_->Contains(from) && map_->Contains(to));
  if (occupant_[Index(from)] == unit.value) occupant_[Index(from)] = -1;
  occupant_[Index(to)] = unit.value;
}

void Board::RemoveUnit(Hex at) {
  if (map_->Contains(at)) occupant_[Index(at)] = -1;
}

void EliminateUnit(GameState& state, Board& board, UnitId unit, Phase phase,
                   const std::string& cause, std::vector<Event>& events) {
  UnitState& us = state.unit(unit);
  std::vector<Hex> hexes;
  if (us.hex) {
    hexes.push_back(*us.hex);
    board.RemoveUnit(*us.hex);
  }
  us.eliminated = true;
  us.cs = 0;
  us.hex.reset();
  events.push_back(Event{phase, unit, std::move(hexes), payload::Eliminated{cause}, {}});
}

// ---- Zones of control ------------------------------------------------------

bool ZocCrossesSide(const Map& map, Hexside side) {
  // Digest 4.6 "River": no ZoC across a stream, a river or a double (or
  // greater) slope; R8: bridged or forded or not.
  if (map.side(side).water != Water::kNone) return false;
  return map.SlopeCount(side) < 2;
}

std::optional<Side> FortController(const Ruleset& ruleset, const Scenario& scenario,
                                   const GameState& state, const Board& board, Hex hex) {
  if (!scenario.map.Contains(hex)) return std::nullopt;
  if (!ruleset.terrain_type(scenario.map.terrain(hex)).fort) return std::nullopt;
  // Digest 4.6 GAP: control passes to the side of the last occupant; a unit
  // standing in the fort is its last occupant.
  if (const auto occupant = board.UnitAt(hex)) return scenario.unit(*occupant).side;
  if (const auto it = state.fort_owners.find(hex); it != state.fort_owners.end()) {
    return it->second;
  }
  return std::nullopt;
}

Control ControlOf(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
                  const Board& board, Hex hex, Side controller, std::optional<UnitId> ignore) {
  Control out;
  const Map& map = scenario.map;
  if (!map.Contains(hex)) return out;
  const TerrainType& here = ruleset.terrain_type(map.terrain(hex));
  // Digest 4.6: town and woods hexes cannot be controlled; R7: units in a
  // fort are under no enemy ZoC.
  if (here.uncontrollable || here.fort) return out;
  for (const Direction dir : kAllDirections) {
    const Hex n = Neighbor(hex, dir);
    if (!map.Contains(n)) continue;
    if (!ZocCrossesSide(map, SideOf(hex, dir))) continue;
    const TerrainType& there = ruleset.terrain_type(map.terrain(n));
    bool unit_exerts = false;
    const auto occupant = board.UnitAt(n);
    if (occupant && occupant != ignore) {
      const UnitSpec& spec = scenario.unit(*occupant);
      // Digest 4.6: units in a town or woods, artillery and demoralised
      // units exert no ZoC.
      if (spec.side == controller && spec.arm != Arm::kArtillery &&
          !IsDemoralised(spec, state.unit(*occupant)) && !there.uncontrollable) {
        unit_exerts = true;
        out.units.push_back(*occupant);
        if (IsMounted(ruleset, spec)) {
          out.mounted = true;
        } else {
          out.unmounted = true;
        }
      }
    }
    // Digest 4.6 "Fort": even empty, a fort exerts a ZoC on all adjacent
    // hexes for its controlling side; R7: as unmounted control, with the same
    // hexside exceptions. A garrison that exerts its own ZoC is the fort's
    // detachment: the hex counts one zone of control, not two.
    if (there.fort && !unit_exerts &&
        FortController(ruleset, scenario, state, board, n) == controller) {
      out.forts.push_back(n);
      out.unmounted = true;
    }
  }
  return out;
}

// ---- Step costs -------------------------------------------------------------

std::string_view StepBasisName(StepBasis basis) {
  switch (basis) {
    case StepBasis::kTerrain:
      return "terrain";
    case StepBasis::kSameTerrain:
      return "same_terrain";
    case StepBasis::kRoad:
      return "road";
    case StepBasis::kTrack:
      return "track";
    case StepBasis::kCrossroadsJump:
      return "crossroads_jump";
  }
  return "?";
}

StepCost ComputeStepCost(const Ruleset& ruleset, const Map& map, MovementClassId cls, Hex from,
                         Hex to, RouteState route) {
  const auto side_opt = SideBetween(from, to);
  PBEM_CHECK(side_opt.has_value());
  const Hexside side = *side_opt;
  const HexsideInfo info = map.side(side);
  const HexsideRules& hs = ruleset.hexsides;
  const RouteRules& rr = ruleset.routes;

  // Hexside water (digest 4.4, R8): costs add up with the hex entered.
  int water_cost = 0;
  switch (info.water) {
    case Water::kNone:
      break;
    case Water::kStream:
      water_cost = info.crossing == Crossing::kBridge ? hs.bridge_cost
                   : info.crossing == Crossing::kFord ? hs.ford_cost
                                                      : hs.stream_cost;
      break;
    case Water::kRiver:
    case Water::kMajorRiver:
      // Digest 4.4: impassable except at a bridge or ford (rivers as major
      // rivers, river_model GAP).
      if (info.crossing == Crossing::kNone) {
        return Blocked(Reason::kHexsideImpassable,
                       info.water == Water::kRiver ? "river" : "major_river");
      }
      water_cost = info.crossing == Crossing::kBridge ? hs.bridge_cost : hs.ford_cost;
      break;
  }

  const TerrainType& entered = ruleset.terrain_type(map.terrain(to));
  const MoveCost* mc = CostFor(entered, cls);
  if (mc == nullptr || mc->impassable) {
    return Blocked(Reason::kTerrainImpassable, entered.name);
  }

  const auto& along = map.RoutesAlong(side);
  const bool road_along = AnyRoad(map, along);
  const bool track_along = AnyTrack(map, along);
  const int slope = map.SlopeCount(side);
  const int n_road = static_cast<int>(rr.road_alternating_costs.size());

  StepCost out;
  out.next = RouteState{};
  if (slope >= 2) {
    // Digest 4.2/4.4: a double or triple slope is impassable except along a
    // track, at track_slope_costs (2 and 3; case movement/track-double-slope).
    if (!track_along || slope >= static_cast<int>(rr.track_slope_costs.size())) {
      return Blocked(Reason::kHexsideImpassable, SlopeName(slope));
    }
    out.cost = rr.track_slope_costs[static_cast<std::size_t>(slope)] + water_cost;
    out.basis = StepBasis::kTrack;
    out.next.mode = RouteMode::kTrack;
    return out;
  }

  // Road-track crossroads (digest 4.5): where both run along the hexside,
  // the route already followed decides.
  bool follow_road = road_along && n_road > 0;
  bool follow_track = track_along;
  if (follow_road && follow_track) {
    if (route.mode == RouteMode::kTrack) {
      follow_road = false;
    } else {
      follow_track = false;
    }
  }

  const int slope_cost = slope == 1 ? hs.single_slope_cost : 0;
  if (follow_road) {
    // Digest 4.5, R3: 0, 1, 0, 1 ... while following the road.
    const int chain = ((route.chain % n_road) + n_road) % n_road;
    out.cost = rr.road_alternating_costs[static_cast<std::size_t>(chain)] + slope_cost + water_cost;
    out.basis = StepBasis::kRoad;
    out.next.chain = (chain + 1) % n_road;
    out.next.mode = RouteMode::kRoad;
    return out;
  }
  if (follow_track) {
    // Digest 4.5: track cost 1 following the track (a unit coming from a road
    // enters the track at the road-track crossroads, so it follows it too);
    // +1 per slope symbol beyond the first.
    const bool has_slope_entry =
        slope >= 1 && slope < static_cast<int>(rr.track_slope_costs.size());
    out.cost =
        (has_slope_entry ? rr.track_slope_costs[static_cast<std::size_t>(slope)] : rr.track_cost) +
        water_cost;
    out.basis = StepBasis::kTrack;
    out.next.mode = RouteMode::kTrack;
    return out;
  }

  // Off the roads: the terrain cost of the hex entered (digest 4.5: a hex
  // crossed by a road costs its main terrain), village to village at
  // cost_from_same_terrain (digest 4.2 note *).
  const bool same_terrain = map.terrain(from) == map.terrain(to);
  if (same_terrain && mc->cost_from_same_terrain) {
    out.cost = *mc->cost_from_same_terrain;
    out.basis = StepBasis::kSameTerrain;
  } else {
    out.cost = mc->cost;
    out.basis = StepBasis::kTerrain;
  }
  out.cost += slope_cost + water_cost;
  out.next.mode = RouteMode::kNone;
  if (n_road > 0 && IsCrossroadsJump(map, from, to)) {
    // Digest 4.5, R3: the jump pays the terrain cost and the next road hex
    // does not get the 0 cost either: the chain stands at 1.
    out.basis = StepBasis::kCrossroadsJump;
    out.next.chain = 1 % n_road;
  } else {
    // R3: joining a road from off the road pays the terrain cost; the chain
    // then stands at 0.
    out.next.chain = 0;
  }
  return out;
}

// ---- Whole-step legality ---------------------------------------------------

StepRules::StepRules(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
                     const Board& board, UnitId unit)
    : ruleset_(ruleset),
      scenario_(scenario),
      state_(state),
      board_(board),
      unit_(unit),
      spec_(&scenario.unit(unit)),
      cost_class_(CostClass(ruleset, *spec_)),
      stuck_class_(StuckClass(ruleset, *spec_)),
      mounted_(IsMounted(ruleset, *spec_)),
      demoralised_(IsDemoralised(*spec_, state.unit(unit))),
      marsh_test_on_road_(ruleset.params.marsh_test_on_road) {}

Control StepRules::EnemyControl(Hex hex) const {
  return ControlOf(ruleset_, scenario_, state_, board_, hex, Opponent(spec_->side), unit_);
}

void StepRules::EnableControlCache() {
  const Map& map = scenario_.map;
  control_cache_.assign(static_cast<std::size_t>(map.width() * map.height()), -1);
}

namespace {

// A refused step: the reason, and its args when explained.
StepCheck Refused(StepCheck& out, bool explain, Reason reason, std::vector<Arg> args) {
  out.legal = false;
  out.reason = reason;
  if (explain) out.args = std::move(args);
  return out;
}

}  // namespace

StepCheck StepRules::Check(const MoverState& mover, Hex to, const Control& from_control,
                           bool explain) const {
  StepCheck out;
  const Map& map = scenario_.map;
  const auto fail = [&out, explain](Reason reason, std::vector<Arg> args) {
    return Refused(out, explain, reason, std::move(args));
  };
  if (!map.Contains(to)) return fail(Reason::kHexOffMap, {to});
  if (!Adjacent(mover.at, to)) return fail(Reason::kPathNotAdjacent, {to, mover.at});
  // Digest 1.2: never enter or pass through a hex holding any other unit.
  if (const auto other = board_.UnitAt(to); other && *other != unit_) {
    return fail(Reason::kHexOccupied, {to, scenario_.unit(*other).id});
  }
  const StepCost sc = ComputeStepCost(ruleset_, map, cost_class_, mover.at, to, mover.route);
  if (!sc.passable) {
    if (sc.blocked == Reason::kTerrainImpassable) return fail(sc.blocked, {to, sc.feature});
    return fail(sc.blocked, {to, mover.at, sc.feature});
  }
  bool to_any = false;
  bool to_mounted = false;
  if (!control_cache_.empty()) {
    const Offset o = ToOffset(to);
    std::int8_t& cached = control_cache_[static_cast<std::size_t>(o.row * map.width() + o.col)];
    if (cached < 0) {
      const Control c = EnemyControl(to);
      cached = static_cast<std::int8_t>((c.any() ? 1 : 0) | (c.mounted ? 2 : 0));
    }
    to_any = (cached & 1) != 0;
    to_mounted = (cached & 2) != 0;
  } else {
    const Control c = EnemyControl(to);
    to_any = c.any();
    to_mounted = c.mounted;
  }
  return Finish(mover, to, from_control, sc, to_any, to_mounted, explain);
}

StepCheck StepRules::Check(const MoverState& mover, Hex to, const Control& from_control,
                           bool to_any, bool to_mounted) const {
  StepCheck out;
  const Map& map = scenario_.map;
  if (!map.Contains(to) || !Adjacent(mover.at, to)) {
    out.reason = map.Contains(to) ? Reason::kPathNotAdjacent : Reason::kHexOffMap;
    return out;
  }
  if (const auto other = board_.UnitAt(to); other && *other != unit_) {
    out.reason = Reason::kHexOccupied;
    return out;
  }
  const StepCost sc = ComputeStepCost(ruleset_, map, cost_class_, mover.at, to, mover.route);
  if (!sc.passable) {
    out.reason = sc.blocked;
    return out;
  }
  return Finish(mover, to, from_control, sc, to_any, to_mounted, /*explain=*/false);
}

StepCheck StepRules::Finish(const MoverState& mover, Hex to, const Control& from_control,
                            const StepCost& sc, bool to_any, bool to_mounted, bool explain) const {
  StepCheck out;
  const Map& map = scenario_.map;
  const auto fail = [&out, explain](Reason reason, std::vector<Arg> args) {
    return Refused(out, explain, reason, std::move(args));
  };
  int cost = sc.cost;
  if (from_control.any()) {
    if (!mounted_) {
      // Digest 4.6 "Leaving": infantry and artillery (and dromedaries) may
      // leave only into a hex outside any enemy ZoC, for +1 MP.
      if (to_any) return fail(Reason::kZocLeaveIntoZoc, {to, mover.at});
      cost += ruleset_.params.zoc_leave_cost;
      out.leaves_zoc = true;
    } else if (from_control.mounted) {
      // Mounted units leaving mounted control: not into a hex controlled by
      // an enemy mounted unit (V2008), or by any enemy (V2006,
      // mounted_leave_any_control, #8); +1 MP.
      const bool blocked = ruleset_.params.mounted_leave_any_control ? to_any : to_mounted;
      if (blocked) return fail(Reason::kZocLeaveIntoMountedZoc, {to, mover.at});
      cost += ruleset_.params.zoc_leave_cost;
      out.leaves_zoc = true;
    }
    // Mounted units leave infantry-only (and fort, R7) control freely.
  }
  // Digest 5.12: a demoralised unit may not enter an enemy ZoC.
  if (demoralised_ && to_any) return fail(Reason::kDemoralisedIntoZoc, {to});
  // R2: a step is allowed when its cost does not exceed the points left.
  // Digest 4.1 DEFAULT: no "always one hex" exception unless allow_min_move.
  const bool min_move = ruleset_.params.allow_min_move && !mover.has_moved && mover.points_left > 0;
  if (cost > mover.points_left && min_move) {
    cost = mover.points_left;
  } else if (cost > mover.points_left) {
    return fail(Reason::kNotEnoughMovementPoints,
                {to, std::int64_t{cost}, std::int64_t{mover.points_left}});
  }
  out.legal = true;
  out.cost = cost;
  out.basis = sc.basis;
  out.next = sc.next;
  out.enters_enemy_zoc = to_any;
  const TerrainType& entered = ruleset_.terrain_type(map.terrain(to));
  if (stuck_class_.valid() && stuck_class_.index() < entered.stuck_chance_in_4.size()) {
    out.stuck_chance_in_4 = entered.stuck_chance_in_4[stuck_class_.index()];
  }
  // R1: the marsh test also applies at road rate unless marsh_test_on_road
  // is off.
  if (sc.basis == StepBasis::kRoad && !marsh_test_on_road_) out.stuck_chance_in_4 = 0;
  return out;
}

// ---- Retreat ----------------------------------------------------------------

bool IsRetreatCandidate(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
                        const Board& board, UnitId unit, Hex from, Hex to) {
  const Map& map = scenario.map;
  if (!map.Contains(to) || !Adjacent(from, to)) return false;
  if (const auto other = board.UnitAt(to); other && *other != unit) return false;
  const Hexside side = *SideBetween(from, to);
  const HexsideInfo info = map.side(side);
  if ((info.water == Water::kRiver || info.water == Water::kMajorRiver) &&
      info.crossing == Crossing::kNone) {
    return false;
  }
  // Digest 5.8/5.9: never across a double slope, tracks or not.
  if (map.SlopeCount(side) >= 2) return false;
  const UnitSpec& spec = scenario.unit(unit);
  const MoveCost* mc = CostFor(ruleset.terrain_type(map.terrain(to)), CostClass(ruleset, spec));
  if (mc == nullptr || mc->impassable) return false;
  // Digest 4.6/5.9: not into a fort controlled by the enemy.
  if (FortController(ruleset, scenario, state, board, to) == Opponent(spec.side)) return false;
  return true;
}

std::optional<Hex> ChooseRetreatHex(const Ruleset& ruleset, const Scenario& scenario,
                                    const GameState& state, const Board& board, UnitId unit,
                                    UnitId enemy) {
  const UnitState& me = state.unit(unit);
  const UnitState& them = state.unit(enemy);
  if (!me.on_map() || !them.on_map()) return std::nullopt;
  const Hex from = *me.hex;
  const Hex enemy_hex = *them.hex;
  const Side side = scenario.unit(unit).side;
  const Map& map = scenario.map;

  // The enemy side's units on the map, for priority 3.
  std::vector<Hex> enemy_hexes;
  for (std::size_t i = 0; i < state.units.size(); ++i) {
    if (state.units[i].on_map() && scenario.units[i].side != side) {
      enemy_hexes.push_back(*state.units[i].hex);
    }
  }
  const auto next_to_enemy_side = [&](Hex h) {
    for (const Hex& e : enemy_hexes) {
      if (Adjacent(h, e)) return true;
    }
    return false;
  };
  // Priority 4: the hex directly opposite the enemy (none when the enemy is
  // not adjacent). A plain Hex and flag rather than std::optional: GCC's -O2
  // maybe-uninitialized warning misfires on comparisons with an optional Hex.
  const std::optional<Direction> toward_enemy = DirectionTo(from, enemy_hex);
  const bool has_opposite = toward_enemy.has_value();
  const Hex opposite = has_opposite ? Neighbor(from, Opposite(*toward_enemy)) : from;

  // A key per candidate; smaller is better.
  using Key = std::array<int, 9>;
  std::optional<Key> best_key;
  std::optional<Hex> best;
  for (const Direction dir : kAllDirections) {
    const Hex to = Neighbor(from, dir);
    if (!IsRetreatCandidate(ruleset, scenario, state, board, unit, from, to)) continue;
    const Offset o = ToOffset(to);
    const bool stream = map.side(SideOf(from, dir)).water == Water::kStream;
    const Key key = {
        -ruleset.terrain_type(map.terrain(to)).retreat_preference,  // 1, 2: town, woods
        next_to_enemy_side(to) ? 1 : 0,                             // 3
        has_opposite && opposite == to ? 0 : 1,                     // 4
        stream ? 1 : 0,                                             // 5
        Adjacent(to, enemy_hex) ? 1 : 0,                            // 6
        side == Side::kOrange ? o.row : -o.row,                     // 7 (R5)
        -Distance(to, enemy_hex),                                   // R5: farther
        o.col,                                                      // R5: lowest label
        o.row,
    };
    if (!best_key || key < *best_key) {
      best_key = key;
      best = to;
    }
  }
  return best;
}

// ---- Command and allowance --------------------------------------------------

namespace {

// Whether no movement class may enter the terrain of `hex`.
bool ImpassableToAll(const Ruleset& ruleset, const Map& map, Hex hex) {
  const TerrainType& t = ruleset.terrain_type(map.terrain(hex));
  for (const auto& c : t.move_costs) {
    if (c && !c->impassable) return false;
  }
  return true;
}

// Whether command crosses this hexside (command_blocked_by_terrain): not a
// river or major river without a crossing, not a slope of two levels or more.
bool CommandCrossesSide(const Map& map, Hexside side) {
  const HexsideInfo info = map.side(side);
  if ((info.water == Water::kRiver || info.water == Water::kMajorRiver) &&
      info.crossing == Crossing::kNone) {
    return false;
  }
  return map.SlopeCount(side) < 2;
}

// A breadth-first search from the leader, at most `radius` steps.
bool CommandChainExists(const Ruleset& ruleset, const Map& map, Hex leader, Hex unit, int radius) {
  std::vector<Hex> frontier{leader};
  std::vector<Hex> seen{leader};
  for (int step = 0; step < radius && !frontier.empty(); ++step) {
    std::vector<Hex> next;
    for (const Hex& h : frontier) {
      for (const Direction d : kAllDirections) {
        const Hex n = Neighbor(h, d);
        if (!map.Contains(n) || !CommandCrossesSide(map, SideOf(h, d))) continue;
        if (n == unit) return true;
        if (std::find(seen.begin(), seen.end(), n) != seen.end()) continue;
        if (ImpassableToAll(ruleset, map, n)) continue;
        seen.push_back(n);
        next.push_back(n);
      }
    }
    frontier = std::move(next);
  }
  return leader == unit;
}

}  // namespace

std::string_view CommandBasisName(CommandBasis basis) {
  switch (basis) {
    case CommandBasis::kIsLeader:
      return "leader";
    case CommandBasis::kIndependent:
      return "independent";
    case CommandBasis::kWithinRadius:
      return "within_radius";
    case CommandBasis::kBeyondRadius:
      return "beyond_radius";
    case CommandBasis::kBlockedByTerrain:
      return "blocked_by_terrain";
    case CommandBasis::kLeaderless:
      return "leaderless";
  }
  return "?";
}

CommandStatus CheckCommand(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
                           UnitId unit) {
  CommandStatus out;
  const UnitSpec& spec = scenario.unit(unit);
  if (spec.is_leader()) {
    out.basis = CommandBasis::kIsLeader;
    return out;
  }
  if (spec.independent) {
    out.basis = CommandBasis::kIndependent;
    return out;
  }
  const auto leader = scenario.LeaderOf(spec.side, spec.corps);
  const UnitState& me = state.unit(unit);
  if (!leader || !state.unit(*leader).on_map() || !me.on_map()) {
    // Digest 1.6 GAP: units whose leader is gone are out of command.
    out.basis = CommandBasis::kLeaderless;
    out.leader = leader;
    out.in_command = !ruleset.params.leaderless_out_of_command;
    return out;
  }
  out.leader = leader;
  const Hex leader_hex = *state.unit(*leader).hex;
  const int radius = scenario.unit(*leader).command_radius;
  out.distance = Distance(*me.hex, leader_hex);
  out.in_command = out.distance <= radius;
  out.basis = out.in_command ? CommandBasis::kWithinRadius : CommandBasis::kBeyondRadius;
  if (out.in_command && ruleset.params.command_blocked_by_terrain &&
      !CommandChainExists(ruleset, scenario.map, leader_hex, *me.hex, radius)) {
    out.in_command = false;
    out.basis = CommandBasis::kBlockedByTerrain;
  }
  return out;
}

Allowance MovementAllowance(const Ruleset& ruleset, const Scenario& scenario,
                            const GameState& state, UnitId unit) {
  const UnitSpec& spec = scenario.unit(unit);
  const UnitState& us = state.unit(unit);
  const int ma = spec.ma < 0 ? 0 : spec.ma;
  Allowance out;
  if (spec.arm == Arm::kArtillery && us.bombarded_this_turn) {
    // Digest 3.1, #3: artillery that bombarded does not move; horse artillery
    // in command may make a half move, floor(MA/2).
    const bool horse = ruleset.unit_type(spec.type).horse_artillery;
    if (horse && us.in_command &&
        ruleset.params.horse_artillery_post_fire_move == HorseArtilleryMove::kHalfMaIfInCommand) {
      out.points = ma / 2;
      return out;
    }
    out.can_move = false;
    return out;
  }
  // Digest 1.6: out of command, MA halved, rounded down (3 -> 1).
  out.points = us.in_command ? ma : ma / 2;
  return out;
}

RouteState TurnStartRoute() { return RouteState{}; }

void ClaimEnteredHex(const Ruleset& ruleset, const Scenario& scenario, GameState& state,
                     UnitId unit, Hex hex, Phase phase, std::vector<Event>& events) {
  const UnitSpec& spec = scenario.unit(unit);
  const std::string side(SideName(spec.side));
  if (ruleset.terrain_type(scenario.map.terrain(hex)).fort) {
    const auto it = state.fort_owners.find(hex);
    if (it == state.fort_owners.end() || it->second != spec.side) {
      state.fort_owners[hex] = spec.side;
      events.push_back(Event{phase, unit, {hex}, payload::FortTaken{side}, std::nullopt});
    }
  }
  // Digest 8.4: passing hexes change owner when a non-leader unit enters
  // them (R9: a leader never gains an objective hex).
  if (spec.is_leader()) return;
  for (const Objective& o : scenario.objectives) {
    if (o.kind != ObjectiveKind::kPassing && o.kind != ObjectiveKind::kPassingZone) continue;
    if (std::find(o.hexes.begin(), o.hexes.end(), hex) == o.hexes.end()) continue;
    const auto it = state.objective_owners.find(hex);
    if (it != state.objective_owners.end() && it->second == spec.side) continue;
    state.objective_owners[hex] = spec.side;
    events.push_back(
        Event{phase, unit, {hex}, payload::ObjectiveTaken{o.name, side}, std::nullopt});
  }
}

}  // namespace pbem::engine
