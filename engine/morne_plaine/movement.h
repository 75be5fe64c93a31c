// The rules of one movement step (digest 4): what a step costs for a unit,
// whether it is allowed, and what it does to the unit's road chain; zones of
// control (digest 4.6, ruling R7) and the command check (digest 1.6).
//
// Everything here is a pure question about a board position; the movement
// phase (movement_phase.h) applies the answers, and the path search
// (reach.h) explores them. Costs come from the Ruleset (the price of leaving
// an enemy ZoC is parameters.zoc_leave_cost).
#ifndef PBEM_ENGINE_MORNE_PLAINE_MOVEMENT_H_
#define PBEM_ENGINE_MORNE_PLAINE_MOVEMENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/hex/hex.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"
#include "engine/morne_plaine/verdict.h"

namespace pbem::engine {

// ---- Unit facts ------------------------------------------------------------

// The movement class whose costs a unit pays: its type's class, except that
// leaders pay with the class named by parameters.leaders_move_as (digest 4.2,
// #5: "cavalry" for VFR, "infantry" for V2006). Falls back to the type's own
// class when the parameter names no class (ValidateRuleset reports that).
MovementClassId CostClass(const Ruleset& ruleset, const UnitSpec& unit);

// The class whose marsh stuck chance applies: always the unit type's own
// class, so leaders keep the leaders' stuck chance of the chart (2 in 4,
// digest 4.3) whichever cost column they use.
MovementClassId StuckClass(const Ruleset& ruleset, const UnitSpec& unit);

// Cavalry and leaders; never dromedaries (digest 1.4).
bool IsMounted(const Ruleset& ruleset, const UnitSpec& unit);

// MV 0 (digest 5.12). Leaders have no MV and are never demoralised.
bool IsDemoralised(const UnitSpec& unit, const UnitState& state);

// ---- Board -----------------------------------------------------------------

// Who stands where, for fast questions during movement and path search. It
// mirrors the GameState it was built from; keep it in step with every change
// of position (MoveUnit, RemoveUnit).
class Board {
 public:
  Board(const Scenario& scenario, const GameState& state);

  // The unit in `hex`; nullopt when empty or off the map.
  std::optional<UnitId> UnitAt(Hex hex) const;
  void MoveUnit(UnitId unit, Hex from, Hex to);
  void RemoveUnit(Hex at);

  const Map& map() const { return *map_; }
  // The occupant of every hex, row-major (row * width + column): a unit
  // index or -1. For the path search's dense tables.
  const std::vector<std::int32_t>& occupants() const { return occupant_; }

 private:
  std::size_t Index(Hex hex) const;

  const Map* map_;
  std::vector<std::int32_t> occupant_;  // unit index or -1, row-major
};

// Takes `unit` off the map for good: off `board`, CS 0, eliminated; logs
// kEliminated {cause} in `phase` with the hex it stood in (none if it was
// off the map). For the phases that eliminate (combat, charges).
void EliminateUnit(GameState& state, Board& board, UnitId unit, Phase phase,
                   const std::string& cause, std::vector<Event>& events);

// ---- Zones of control (digest 4.6, rulings R7, R8) -------------------------

// The enemy control over one hex.
struct Control {
  // Controlling units in the order of the hex's neighbours (NE..NW).
  std::vector<UnitId> units;
  // Enemy forts (R7: a fort controls as an unmounted unit would).
  std::vector<Hex> forts;
  bool mounted = false;    // at least one controlling unit is mounted
  bool unmounted = false;  // at least one controlling unit is not, or a fort

  bool any() const { return !units.empty() || !forts.empty(); }
  // Number of zones of control: units plus forts.
  int count() const { return static_cast<int>(units.size() + forts.size()); }
};

// True when a zone of control crosses this hexside: not across a stream, a
// river or a major river (bridged or forded or not, R8), nor across a slope of
// two levels or more (digest 4.6).
bool ZocCrossesSide(const Map& map, Hexside side);

// The side controlling a fort hex for ZoC purposes: the side of a unit
// standing in it, else the recorded owner; nullopt for neutral forts and
// non-fort hexes (digest 4.6 GAP: scenario owner, then last occupant).
std::optional<Side> FortController(const Ruleset& ruleset, const Scenario& scenario,
                                   const GameState& state, const Board& board, Hex hex);

// The control that units and forts of `controller` exert over `hex`
// (digest 4.6 with every exception): town/woods hexes and fort hexes are
// never controlled (R7: units in a fort are under no enemy ZoC); units in a
// town or woods, artillery and demoralised units exert none; no ZoC across
// streams, rivers or steep slopes. `ignore` is left out (e.g. the unit that
// is moving, which is not really standing where the board says).
Control ControlOf(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
                  const Board& board, Hex hex, Side controller,
                  std::optional<UnitId> ignore = std::nullopt);

// What entering `hex` takes for `unit`'s side (digest 4.6 GAP, 8.4, R9): an
// enemy or neutral fort passes to it (kFortTaken {side}); a passing objective
// (or passing-zone hex) not yet its own passes to it, unless the unit is a
// leader (kObjectiveTaken {objective, side}). Events are logged in `phase`.
void ClaimEnteredHex(const Ruleset& ruleset, const Scenario& scenario, GameState& state,
                     UnitId unit, Hex hex, Phase phase, std::vector<Event>& events);

// ---- Step costs -------------------------------------------------------------

// How a unit is following roads and tracks (digest 4.5, ruling R3).
enum class RouteMode : std::uint8_t { kNone, kRoad, kTrack };

struct RouteState {
  // Index into routes.road_alternating_costs of the next step at road rate:
  // 0 at the start of the turn (R3: a unit starting on a road starts at 0;
  // any other unit can only reach the road by joining it, which also sets 0).
  int chain = 0;
  // What the last step followed: decides road-track crossroads ("the route
  // already used", digest 4.5).
  RouteMode mode = RouteMode::kNone;

  friend bool operator==(const RouteState&, const RouteState&) = default;
};

// How a step was paid.
enum class StepBasis : std::uint8_t {
  kTerrain,         // the entered hex's terrain cost
  kSameTerrain,     // cost_from_same_terrain (village to village)
  kRoad,            // road rate, following a road
  kTrack,           // track rate, following a track
  kCrossroadsJump,  // terrain cost, jumping between roads past a crossroads
};
std::string_view StepBasisName(StepBasis basis);  // "terrain", "road", ...

// The price of a step for a movement class, from the map alone (units, ZoC
// and points left are not looked at).
struct StepCost {
  bool passable = true;
  // When !passable: kHexsideImpassable or kTerrainImpassable, and the
  // feature ("river", "major_river", "river_crossing", "double_slope",
  // "triple_slope", "slope", or the terrain name).
  Reason blocked = Reason::kNone;
  std::string feature;
  int cost = 0;  // base (terrain, same terrain, road or track) + hexside
  StepBasis basis = StepBasis::kTerrain;
  RouteState next;  // the route state after the step
};

// The cost for `cls` to step from `from` to the adjacent hex `to` with route
// state `route` (digest 4.2, 4.4, 4.5, rulings R3, R8):
//  * terrain cost of the entered hex, or cost_from_same_terrain when both
//    hexes have the same terrain (village to village);
//  * along a road: the road rate road_alternating_costs[chain]; the chain
//    then advances (0, 1, 0, 1 ...); along a track: track_cost, or
//    track_slope_costs[levels] across a slope; where a road and a track share
//    the hexside, the route already followed decides (a track follower keeps
//    the track rate, anyone else the road rate);
//  * a step entering a road hex off the road pays the terrain cost and sets
//    the chain to 0 (R3) - except a crossroads jump (the two hexes are both
//    next to a hex where roads through them meet), which leaves it at 1;
//  * hexside: stream +stream_cost, ford +ford_cost, bridge +bridge_cost;
//    rivers and major rivers impassable except at a bridge or ford; single
//    slope +single_slope_cost; a slope of two levels or more only along a
//    track (its track_slope_costs entry replaces the base cost).
// REQUIRES: both hexes on the map and adjacent.
StepCost ComputeStepCost(const Ruleset& ruleset, const Map& map, MovementClassId cls, Hex from,
                         Hex to, RouteState route);

// ---- Whole-step legality ---------------------------------------------------

// Where a moving unit stands in its move.
struct MoverState {
  Hex at;
  int points_left = 0;
  RouteState route;
  // Whether the unit has already taken a step this turn (for
  // parameters.allow_min_move).
  bool has_moved = false;
};

// The verdict on one step of one unit against the board at this moment.
struct StepCheck {
  bool legal = false;
  Reason reason = Reason::kNone;  // when !legal
  std::vector<Arg> args;          // when !legal (see verdict.h)
  int cost = 0;                   // total: StepCost + ZoC leaving
  bool leaves_zoc = false;        // paid parameters.zoc_leave_cost
  bool enters_enemy_zoc = false;  // the move ends after this step
  StepBasis basis = StepBasis::kTerrain;
  RouteState next;
  int stuck_chance_in_4 = 0;  // > 0: a marsh stuck test follows the step
};

// Everything the step rules need to know about one unit, computed once.
class StepRules {
 public:
  StepRules(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
            const Board& board, UnitId unit);

  // Checks a step in rule order: map, stacking (digest 1.2), hexside and
  // terrain (4.2, 4.4), leaving an enemy ZoC (4.6 per arm), a demoralised
  // unit entering one (5.12), then the cost against the points left (R2: a
  // step is allowed when its cost does not exceed them; with
  // parameters.allow_min_move a unit that has not moved yet may always take
  // one step, digest 4.1, and pays what it has left). `from_control` is
  // ControlOf the unit's current hex (EnemyControl(from)).
  // With `explain` false a refused step carries its reason but no args
  // (the path search asks millions of times and never shows them).
  StepCheck Check(const MoverState& mover, Hex to, const Control& from_control,
                  bool explain = true) const;

  // The same without args, with the enemy control over `to` given (any
  // enemy ZoC; a mounted enemy's ZoC) rather than looked up: for a path
  // search that knows it already.
  StepCheck Check(const MoverState& mover, Hex to, const Control& from_control, bool to_any,
                  bool to_mounted) const;

  // The enemy control over `hex` as felt by this unit.
  Control EnemyControl(Hex hex) const;

  // Remembers, per hex, whether the enemy controls it and whether mounted
  // units do, for the many checks of one path search. REQUIRES: no unit
  // moves while this object is in use.
  void EnableControlCache();

  UnitId unit() const { return unit_; }
  const UnitSpec& spec() const { return *spec_; }
  bool mounted() const { return mounted_; }

 private:
  // The rules after the map and the step cost: leaving a ZoC, a demoralised
  // unit entering one, the points left, the marsh test.
  StepCheck Finish(const MoverState& mover, Hex to, const Control& from_control, const StepCost& sc,
                   bool to_any, bool to_mounted, bool explain) const;

  const Ruleset& ruleset_;
  const Scenario& scenario_;
  const GameState& state_;
  const Board& board_;
  UnitId unit_;
  const UnitSpec* spec_;
  MovementClassId cost_class_;
  MovementClassId stuck_class_;
  bool mounted_ = false;
  bool demoralised_ = false;
  bool marsh_test_on_road_ = true;
  // EnableControlCache: per hex (row-major), -1 unknown, else bit 0 "any",
  // bit 1 "mounted".
  mutable std::vector<std::int8_t> control_cache_;
};

// ---- Retreat (digest 5.8, rulings R5, R6) ------------------------------------

// Whether a unit could retreat from `from` into the adjacent `to`: on the
// map, empty, terrain it may enter, not across a river or major river without
// a bridge or ford, not across a slope of two levels or more (tracks do not
// help in retreat, A06-REV), not into a fort controlled by the enemy
// (digest 5.9).
bool IsRetreatCandidate(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
                        const Board& board, UnitId unit, Hex from, Hex to);

// The hex `unit` retreats into when `enemy` (the charger, or the unit it
// fought, R6) makes it retreat; nullopt when it cannot retreat (it is then
// eliminated). Among the candidates, highest priority first (digest 5.8):
// terrain retreat_preference (1. town, 2. woods); 3. not adjacent to any
// unit of the enemy side; 4. the hex directly opposite the enemy; 5. not
// across a stream; 6. not adjacent to `enemy`; 7. (R5) nearer the north edge
// for orange, the south edge for blue, by row; then farther from `enemy`;
// then the lowest label (column, then row).
std::optional<Hex> ChooseRetreatHex(const Ruleset& ruleset, const Scenario& scenario,
                                    const GameState& state, const Board& board, UnitId unit,
                                    UnitId enemy);

// ---- Command and allowance (digest 1.6, 3.1) --------------------------------

// Why a unit is in command or not.
enum class CommandBasis : std::uint8_t {
  kIsLeader,          // leaders command themselves
  kIndependent,       // independent units have no leader and are never
                      // out of command (see CheckCommand)
  kWithinRadius,      // distance to its corps leader <= radius
  kBeyondRadius,      // farther than the radius
  kBlockedByTerrain,  // within the radius, but terrain cuts every chain
                      // (parameters.command_blocked_by_terrain)
  kLeaderless,        // the corps leader is missing or eliminated
};
std::string_view CommandBasisName(CommandBasis basis);  // "within_radius", ...

struct CommandStatus {
  bool in_command = true;
  CommandBasis basis = CommandBasis::kIsLeader;
  std::optional<UnitId> leader;
  int distance = 0;  // to the leader, when there is one on the map
};

// The command check of one unit (digest 1.6): in command when within its own
// corps leader's radius: plain hex distance (the digest's DEFAULT), or, with
// parameters.command_blocked_by_terrain (digest 1.6 GAP, our reading), a
// chain of at most `radius` steps from the leader to the unit that crosses
// no river or major river without a bridge or ford, no slope of two levels
// or more, and passes through no hex whose terrain no movement class may
// enter (units do not block it). A corps without a leader on the map is out of command when
// parameters.leaderless_out_of_command. Independent units (bedouins,
// digest 1.4, 6.1) are always in command: the sources give them no leader by
// design and name only the rally consequence, so they move at full MA.
CommandStatus CheckCommand(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
                           UnitId unit);

// The movement points of a unit for this turn, from its MA (digest 1.5): MA
// halved rounded down when out of command (state.in_command, digest 1.6);
// 0 for artillery that bombarded this turn, except horse artillery in
// command, which keeps floor(MA/2) when parameters allow (digest 3.1, #3).
// `can_move` is false for a bombarded battery that may not move at all.
struct Allowance {
  int points = 0;
  bool can_move = true;
};
Allowance MovementAllowance(const Ruleset& ruleset, const Scenario& scenario,
                            const GameState& state, UnitId unit);

// The route state a unit starts its turn with (R3: chain at 0).
RouteState TurnStartRoute();

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_MOVEMENT_H_
