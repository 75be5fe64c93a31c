// Fixtures for the movement tests: the movement-relevant part of the
// morne-plaine ruleset rebuilt in code (engine tests build with no codec; the
// values mirror engine/rulesets/morne-plaine/*.textproto) and a small world
// builder for maps, units and orders.
#ifndef PBEM_TESTS_ENGINE_MOVEMENT_FIXTURES_H_
#define PBEM_TESTS_ENGINE_MOVEMENT_FIXTURES_H_

#include <string>
#include <utility>
#include <vector>

#include "engine/core/dice.h"
#include "engine/hex/hex.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/movement_phase.h"
#include "engine/morne_plaine/orders.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn.h"
#include "engine/morne_plaine/turn_result.h"

namespace pbem::engine::testing {

// Movement classes in data order: infantry, cavalry, leader, artillery,
// dromedary.
inline TerrainType MpTerrain(std::string name, std::vector<int> costs,
                             std::vector<int> stuck = {0, 0, 0, 0, 0}) {
  TerrainType t;
  t.name = std::move(name);
  for (const int c : costs) t.move_costs.push_back(MoveCost{false, c, {}});
  t.stuck_chance_in_4 = std::move(stuck);
  return t;
}

// The morne-plaine ruleset (movement, ZoC, charge and bombardment fields).
inline Ruleset MpRuleset() {
  Ruleset rs;
  rs.name = "morne-plaine";
  rs.version = "test";
  rs.movement_classes = {
      {"infantry", ""}, {"cavalry", ""}, {"leader", ""}, {"artillery", ""}, {"dromedary", ""}};
  TerrainType clear = MpTerrain("clear", {1, 1, 1, 1, 1});
  clear.charge_path = true;
  TerrainType rough = MpTerrain("rough", {1, 2, 2, 2, 2});
  TerrainType coppice = MpTerrain("coppice", {1, 2, 2, 2, 2});
  TerrainType orchard = MpTerrain("orchard", {1, 3, 3, 2, 3});
  TerrainType woods = MpTerrain("woods", {2, 3, 3, 3, 3});
  woods.blocks_los = woods.charge_proof = woods.uncontrollable = woods.no_artillery_fire = true;
  woods.retreat_preference = 1;
  TerrainType town = MpTerrain("town", {2, 3, 3, 3, 3});
  for (auto& c : town.move_costs) c->cost_from_same_terrain = 1;
  town.blocks_los = town.charge_proof = town.uncontrollable = town.no_artillery_fire = true;
  town.bombard_target_modifier = 1;
  town.retreat_preference = 2;
  TerrainType hamlet = MpTerrain("hamlet", {1, 1, 1, 1, 1});
  hamlet.bombard_target_modifier = 1;
  TerrainType marsh = MpTerrain("marsh", {1, 1, 1, 1, 1}, {1, 2, 2, 3, 1});
  TerrainType dune = MpTerrain("dune", {2, 3, 3, 3, 1});
  dune.blocks_los = dune.charge_proof = true;
  TerrainType palm = MpTerrain("palm_grove", {1, 2, 2, 2, 1});
  palm.blocks_los = palm.charge_proof = true;
  TerrainType fort = MpTerrain("fort", {2, 2, 2, 3, 2});
  fort.blocks_los = fort.fort = true;
  fort.bombard_target_modifier = 2;
  rs.terrain = {clear, rough, coppice, orchard, woods, town, hamlet, marsh, dune, palm, fort};

  const auto type = [](std::string name, Arm arm, int cls, UnitValues v) {
    UnitType t;
    t.name = std::move(name);
    t.arm = arm;
    t.movement_class = MovementClassId{cls};
    t.defaults = v;
    return t;
  };
  UnitType line = type("line_infantry", Arm::kInfantry, 0, {5, 4, 3, {}, {}, {}});
  UnitType guard = type("guard_infantry", Arm::kInfantry, 0, {8, 6, 3, {}, {}, {}});
  guard.guard = true;
  UnitType light = type("light_cavalry", Arm::kCavalry, 1, {3, 4, 5, {}, {}, {}});
  UnitType heavy = type("heavy_cavalry", Arm::kCavalry, 1, {5, 5, 4, {}, {}, {}});
  UnitType drom = type("dromedary", Arm::kInfantry, 4, {3, 4, 5, {}, {}, {}});
  drom.dromedary = true;
  UnitType foot_art = type("foot_artillery", Arm::kArtillery, 3, {2, 3, 2, 3, 3, {}});
  UnitType horse_art = type("horse_artillery", Arm::kArtillery, 3, {2, 3, 4, 2, 3, {}});
  horse_art.horse_artillery = true;
  UnitType leader = type("leader", Arm::kLeader, 2, {2, {}, 5, {}, {}, 2});
  rs.unit_types = {line, guard, light, heavy, drom, foot_art, horse_art, leader};
  rs.params.leaders_move_as = "cavalry";
  return rs;
}

inline Hex H(const char* label) { return *ParseLabel(label); }

// A small battlefield: a clear map, units with their type's default values,
// every unit in corps "I" of its side unless told otherwise.
class World {
 public:
  explicit World(int width = 10, int height = 10) : ruleset(MpRuleset()) {
    scenario.name = "test";
    scenario.ruleset = "morne-plaine";
    scenario.map = Map(width, height, TerrainId{0});
    scenario.turns = 12;
  }

  World& Terrain(const char* label, const char* terrain) {
    scenario.map.SetTerrain(H(label), *ruleset.FindTerrain(terrain));
    return *this;
  }
  World& Level(const char* label, int level) {
    scenario.map.SetLevel(H(label), level);
    return *this;
  }
  World& Water(const char* label, Direction dir, pbem::engine::Water water,
               Crossing crossing = Crossing::kNone) {
    scenario.map.SetSide(SideOf(H(label), dir), HexsideInfo{water, crossing});
    return *this;
  }
  World& Route(std::vector<const char*> labels, bool track = false) {
    pbem::engine::Route r;
    r.name = track ? "track" : "road";
    r.track = track;
    for (const char* l : labels) r.hexes.push_back(H(l));
    scenario.map.AddRoute(std::move(r));
    return *this;
  }
  World& Fort(const char* label, std::optional<pbem::engine::Side> owner) {
    Terrain(label, "fort");
    if (owner) scenario.fort_owners[H(label)] = *owner;
    return *this;
  }

  // Adds a unit; the label may be empty for an off-map unit.
  UnitId Add(std::string id, pbem::engine::Side side, const char* type, const char* label,
             std::string corps = "I") {
    const UnitTypeId tid = *ruleset.FindUnitType(type);
    const UnitType& t = ruleset.unit_type(tid);
    UnitSpec u;
    u.id = std::move(id);
    u.name = u.id;
    u.side = side;
    u.corps = std::move(corps);
    u.type = tid;
    u.arm = t.arm;
    u.cs = t.defaults.cs.value_or(1);
    u.mv = t.defaults.mv.value_or(0);
    u.ma = t.defaults.ma.value_or(0);
    u.bv = t.defaults.bv.value_or(0);
    u.range = t.defaults.range.value_or(0);
    u.command_radius = t.defaults.command_radius.value_or(0);
    // Test units are independent (always in command) unless the test gives
    // the corps a leader: see Corps().
    u.independent = true;
    if (label[0] != '\0') u.start_hex = H(label);
    scenario.units.push_back(u);
    return UnitId{static_cast<std::int32_t>(scenario.units.size() - 1)};
  }

  // Makes the units of `corps` of `side` subject to command (not independent).
  World& Corps(pbem::engine::Side side, const std::string& corps) {
    for (UnitSpec& u : scenario.units) {
      if (u.side == side && u.corps == corps) u.independent = false;
    }
    return *this;
  }

  UnitSpec& spec(UnitId id) { return scenario.units[id.index()]; }

  // The starting state (built once, after the units are added).
  GameState& state() {
    if (!started_) {
      state_ = InitialState(scenario, "g");
      started_ = true;
    }
    return state_;
  }

  Orders OrdersFor(pbem::engine::Side side) const {
    Orders o;
    o.game_id = "g";
    o.turn = 1;
    o.side = side;
    return o;
  }

  Ruleset ruleset;
  Scenario scenario;

 private:
  GameState state_;
  bool started_ = false;
};

inline MoveOrder PathOrder(std::string unit, std::vector<const char*> labels) {
  MoveOrder m;
  m.unit = std::move(unit);
  for (const char* l : labels) m.path.push_back(H(l));
  return m;
}

inline MoveOrder DestinationOrder(std::string unit, const char* label) {
  MoveOrder m;
  m.unit = std::move(unit);
  m.destination = H(label);
  return m;
}

inline std::vector<ScriptedRoll> Rolls(std::vector<std::pair<Die, int>> rolls) {
  std::vector<ScriptedRoll> out;
  for (const auto& [die, value] : rolls) out.push_back(ScriptedRoll{die, value});
  return out;
}

// One movement phase of `side` on the world's state (after the command
// check), with scripted dice.
struct PhaseRun {
  MovementPhaseResult result;
  std::vector<Event> events;
  bool dice_ok = true;
  std::size_t dice_left = 0;
};

inline PhaseRun RunPhase(World& w, pbem::engine::Side side, std::vector<MoveOrder> moves,
                         std::vector<ScriptedRoll> dice = {}) {
  PhaseRun run;
  GameState& state = w.state();
  state.side_to_move = side;
  ResetForPlayerTurn(w.scenario, state, side);
  RunCommandCheck(w.ruleset, w.scenario, state, side, run.events);
  Orders orders = w.OrdersFor(side);
  orders.moves = std::move(moves);
  ScriptedDice scripted(std::move(dice));
  run.result =
      ResolveMovementPhase(w.ruleset, w.scenario, state, side, orders, scripted, run.events);
  run.dice_ok = scripted.ok();
  run.dice_left = scripted.remaining();
  return run;
}

// The events of one kind, in order.
inline std::vector<Event> EventsOf(const std::vector<Event>& events, EventKind kind) {
  std::vector<Event> out;
  for (const Event& e : events) {
    if (e.kind() == kind) out.push_back(e);
  }
  return out;
}

// The payload of an event of kind T (an empty T when it is of another kind, which the
// expectations on its fields then catch).
template <typename T>
T Body(const Event& e) {
  const T* body = e.get<T>();
  return body != nullptr ? *body : T{};
}

}  // namespace pbem::engine::testing

#endif  // PBEM_TESTS_ENGINE_MOVEMENT_FIXTURES_H_
