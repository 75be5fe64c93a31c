#include "engine/morne_plaine/movement.h"

#include <string>
#include <vector>

#include "engine/morne_plaine/movement_phase.h"
#include "engine/morne_plaine/reach.h"
#include "engine/morne_plaine/turn.h"
#include "engine/morne_plaine/verdict.h"
#include "tests/engine/mini_test.h"
#include "tests/engine/movement_fixtures.h"

namespace pbem::engine {
namespace {

using testing::Body;
using testing::DestinationOrder;
using testing::EventsOf;
using testing::H;
using testing::PathOrder;
using testing::Rolls;
using testing::RunPhase;
using testing::World;

constexpr Side kBlue = Side::kBlue;
constexpr Side kOrange = Side::kOrange;

MovementClassId Cls(const World& w, const char* name) { return *w.ruleset.FindMovementClass(name); }

StepCost Cost(const World& w, const char* cls, const char* from, const char* to,
              RouteState route = {}) {
  return ComputeStepCost(w.ruleset, w.scenario.map, Cls(w, cls), H(from), H(to), route);
}

// Total cost of a path from the start of the turn, or -1 when a step is
// impassable.
int PathCost(const World& w, const char* cls, const char* start, std::vector<const char*> path) {
  RouteState route;
  int total = 0;
  const char* at = start;
  for (const char* next : path) {
    const StepCost c = Cost(w, cls, at, next, route);
    if (!c.passable) return -1;
    total += c.cost;
    route = c.next;
    at = next;
  }
  return total;
}

// ---- Reason codes -------------------------------------------------------------

TEST_CASE_MINI(MovementReasonCodesRoundTrip) {
  for (int i = static_cast<int>(Reason::kHexOccupied);
       i <= static_cast<int>(Reason::kNotImplemented); ++i) {
    const auto r = static_cast<Reason>(i);
    const auto code = ReasonCode(r);
    CHECK_MINI(code != "unknown_reason");
    CHECK_MINI(ParseReasonCode(code) == r);
  }
  CHECK_EQ_MINI(EventKindName(EventKind::kFortTaken), std::string_view("fort_taken"));
  CHECK_MINI(ParseEventKind("fort_taken") == EventKind::kFortTaken);
}

// ---- Terrain costs (digest 4.2) -------------------------------------------------

TEST_CASE_MINI(TerrainCostsComeFromTheChartPerClass) {
  World w;
  w.Terrain("0605", "woods").Terrain("0504", "orchard").Terrain("0506", "dune");
  CHECK_EQ_MINI(Cost(w, "infantry", "0505", "0405").cost, 1);  // clear
  CHECK_EQ_MINI(Cost(w, "infantry", "0505", "0605").cost, 2);  // woods
  CHECK_EQ_MINI(Cost(w, "cavalry", "0505", "0605").cost, 3);
  CHECK_EQ_MINI(Cost(w, "artillery", "0505", "0605").cost, 3);
  CHECK_EQ_MINI(Cost(w, "cavalry", "0505", "0504").cost, 3);  // orchard
  CHECK_EQ_MINI(Cost(w, "artillery", "0505", "0504").cost, 2);
  CHECK_EQ_MINI(Cost(w, "artillery", "0505", "0506").cost, 3);  // dune
  CHECK_EQ_MINI(Cost(w, "dromedary", "0505", "0506").cost, 1);  // dromedaries in dunes
  CHECK_MINI(Cost(w, "infantry", "0505", "0605").basis == StepBasis::kTerrain);
}

TEST_CASE_MINI(LeadersPayWithTheClassNamedByLeadersMoveAs) {
  World w;
  w.Terrain("0605", "rough");
  const UnitId gen = w.Add("gen", kBlue, "leader", "0505");
  // Default "cavalry" (VFR): rough costs 2.
  CHECK_MINI(CostClass(w.ruleset, w.spec(gen)) == Cls(w, "cavalry"));
  CHECK_EQ_MINI(Cost(w, "cavalry", "0505", "0605").cost, 2);
  // V2006: leaders move as infantry (rough 1).
  w.ruleset.params.leaders_move_as = "infantry";
  CHECK_MINI(CostClass(w.ruleset, w.spec(gen)) == Cls(w, "infantry"));
  // The stuck chance stays the leaders' own (digest 4.3).
  CHECK_MINI(StuckClass(w.ruleset, w.spec(gen)) == Cls(w, "leader"));
}

TEST_CASE_MINI(VillageToVillageCostsOne) {
  World w;
  w.Terrain("0505", "town").Terrain("0605", "town");
  CHECK_EQ_MINI(Cost(w, "infantry", "0405", "0505").cost, 2);  // clear -> town
  const StepCost c = Cost(w, "infantry", "0505", "0605");      // town -> town
  CHECK_EQ_MINI(c.cost, 1);
  CHECK_MINI(c.basis == StepBasis::kSameTerrain);
  CHECK_EQ_MINI(Cost(w, "cavalry", "0505", "0605").cost, 1);
}

TEST_CASE_MINI(HexsideCostsAddUp) {
  World w;
  w.Terrain("0605", "marsh");
  w.Water("0505", Direction::kE, Water::kStream);
  // Digest 4.1: entering a marsh across a stream pays both.
  CHECK_EQ_MINI(Cost(w, "infantry", "0505", "0605").cost, 2);
  CHECK_EQ_MINI(Cost(w, "infantry", "0605", "0505").cost, 2);  // both ways
  w.Water("0505", Direction::kSE, Water::kStream, Crossing::kFord);
  CHECK_EQ_MINI(Cost(w, "infantry", "0505", "0506").cost, 2);  // ford +1
  w.Water("0505", Direction::kSW, Water::kStream, Crossing::kBridge);
  CHECK_EQ_MINI(Cost(w, "infantry", "0505", "0406").cost, 1);  // bridge +0 (R8)
}

TEST_CASE_MINI(RiversAreImpassableExceptAtBridgesAndFords) {
  World w;
  w.Water("0505", Direction::kE, Water::kRiver);
  w.Water("0505", Direction::kW, Water::kMajorRiver);
  w.Water("0505", Direction::kSE, Water::kRiver, Crossing::kBridge);
  w.Water("0505", Direction::kSW, Water::kMajorRiver, Crossing::kFord);
  const StepCost river = Cost(w, "cavalry", "0505", "0605");
  CHECK_MINI(!river.passable);
  CHECK_MINI(river.blocked == Reason::kHexsideImpassable);
  CHECK_EQ_MINI(river.feature, std::string("river"));
  const StepCost major = Cost(w, "infantry", "0505", "0405");
  CHECK_MINI(!major.passable);
  CHECK_EQ_MINI(major.feature, std::string("major_river"));
  CHECK_EQ_MINI(Cost(w, "infantry", "0505", "0506").cost, 1);  // bridge
  CHECK_EQ_MINI(Cost(w, "infantry", "0505", "0406").cost, 2);  // ford
}

TEST_CASE_MINI(SlopesSingleFreeDoubleOnlyAlongATrack) {
  World w;
  w.Level("0605", 1).Level("0506", 2).Level("0406", 3);
  CHECK_EQ_MINI(Cost(w, "artillery", "0505", "0605").cost, 1);  // single slope: no effect
  const StepCost dbl = Cost(w, "infantry", "0505", "0506");
  CHECK_MINI(!dbl.passable);
  CHECK_EQ_MINI(dbl.feature, std::string("double_slope"));
  CHECK_EQ_MINI(Cost(w, "infantry", "0505", "0406").feature, std::string("triple_slope"));
  w.Route({"0505", "0506"}, /*track=*/true).Route({"0505", "0406"}, /*track=*/true);
  const StepCost up2 = Cost(w, "infantry", "0505", "0506");
  CHECK_MINI(up2.passable);
  CHECK_EQ_MINI(up2.cost, 2);  // digest 4.2 ***: double slope along a track costs 2
  CHECK_EQ_MINI(Cost(w, "infantry", "0505", "0406").cost, 3);  // triple: 3
  CHECK_EQ_MINI(Cost(w, "infantry", "0506", "0505").cost, 2);  // downhill too
  // A road does not climb an escarpment: only a track does.
  World r;
  r.Level("0605", 2).Route({"0505", "0605"});
  CHECK_MINI(!Cost(r, "infantry", "0505", "0605").passable);
}

TEST_CASE_MINI(TrackCostsOneFollowingTheTrack) {
  World w;
  w.Terrain("0605", "woods").Terrain("0705", "woods").Route({"0505", "0605", "0705"}, true);
  CHECK_EQ_MINI(PathCost(w, "artillery", "0505", {"0605", "0705"}), 2);
  // Entering the track hex from off the track pays the terrain.
  CHECK_EQ_MINI(Cost(w, "artillery", "0604", "0605").cost, 3);
}

// ---- Roads (digest 4.5, ruling R3) ---------------------------------------------

TEST_CASE_MINI(RoadRateAlternatesZeroOne) {
  World w;
  w.Terrain("0305", "woods").Terrain("0405", "woods").Terrain("0505", "woods");
  w.Route({"0105", "0205", "0305", "0405", "0505", "0605"});
  // Starting on the road: 0, 1, 0, 1, 0.
  RouteState route;
  const char* at = "0105";
  std::vector<int> costs;
  for (const char* next : {"0205", "0305", "0405", "0505", "0605"}) {
    const StepCost c = Cost(w, "artillery", at, next, route);
    CHECK_MINI(c.basis == StepBasis::kRoad);
    costs.push_back(c.cost);
    route = c.next;
    at = next;
  }
  CHECK_MINI((costs == std::vector<int>{0, 1, 0, 1, 0}));
  // A road hex entered off the road pays its terrain (woods 3).
  CHECK_EQ_MINI(Cost(w, "artillery", "0304", "0305").cost, 3);
}

TEST_CASE_MINI(JoiningARoadPaysTerrainThenTheChainStandsAtZero) {
  World w;
  w.Route({"0505", "0605", "0705"});
  // R3: off road -> road hex: terrain cost, chain 0, next step free.
  const StepCost join = Cost(w, "infantry", "0504", "0505", RouteState{1, RouteMode::kNone});
  CHECK_EQ_MINI(join.cost, 1);
  CHECK_EQ_MINI(join.next.chain, 0);
  CHECK_EQ_MINI(Cost(w, "infantry", "0505", "0605", join.next).cost, 0);
  CHECK_EQ_MINI(PathCost(w, "infantry", "0504", {"0505", "0605", "0705"}), 2);
}

// The V2006 crossroads picture: road A runs west-east through the crossroads
// 0505, road B leaves it south-west. Jumping from 0405 straight to 0406
// leaves 4 points of 6; going through the crossroads leaves 5.
World CrossroadsWorld() {
  World w;
  w.Route({"0105", "0205", "0305", "0405", "0505", "0605", "0705"});
  w.Route({"0505", "0406", "0407", "0408"});
  return w;
}

TEST_CASE_MINI(CrossroadsJumpLosesTheBonusForItselfAndTheNextHex) {
  const World w = CrossroadsWorld();
  const StepCost jump = Cost(w, "cavalry", "0405", "0406");
  CHECK_MINI(jump.basis == StepBasis::kCrossroadsJump);
  CHECK_EQ_MINI(jump.cost, 1);
  CHECK_EQ_MINI(jump.next.chain, 1);  // R3: the chain stays at 1
  CHECK_EQ_MINI(PathCost(w, "cavalry", "0405", {"0406", "0407"}), 2);
  CHECK_EQ_MINI(PathCost(w, "cavalry", "0405", {"0505", "0406", "0407"}), 1);
}

TEST_CASE_MINI(CrossroadsExampleFourVersusFivePointsLeft) {
  // Two units with 6 points, each alone on the same map.
  World w = CrossroadsWorld();
  w.spec(w.Add("jumper", kBlue, "light_cavalry", "0405")).ma = 6;
  World w2 = CrossroadsWorld();
  w2.spec(w2.Add("via", kBlue, "light_cavalry", "0405")).ma = 6;
  const auto a = RunPhase(w, kBlue, {PathOrder("jumper", {"0406", "0407"})});
  const auto b = RunPhase(w2, kBlue, {PathOrder("via", {"0505", "0406", "0407"})});
  const auto end_a = EventsOf(a.events, EventKind::kMoveEnd);
  const auto end_b = EventsOf(b.events, EventKind::kMoveEnd);
  REQUIRE_MINI(end_a.size() == 1 && end_b.size() == 1);
  CHECK_EQ_MINI(Body<payload::MoveEnd>(end_a[0]).points_left, 4);
  CHECK_EQ_MINI(Body<payload::MoveEnd>(end_b[0]).points_left, 5);
}

TEST_CASE_MINI(RoadTrackCrossroadsFollowsTheRouteAlreadyUsed) {
  World w;
  w.Terrain("0305", "woods");
  w.Route({"0205", "0305", "0405"});                // road
  w.Route({"0105", "0205", "0305", "0306"}, true);  // track sharing 0205-0305
  // Following the track: track rate (1) on the shared stretch.
  CHECK_EQ_MINI(PathCost(w, "artillery", "0105", {"0205", "0305"}), 2);
  // Starting on the road: road rate (0).
  CHECK_EQ_MINI(PathCost(w, "artillery", "0205", {"0305"}), 0);
  // Following the road then the track: track rate for the track step.
  CHECK_EQ_MINI(PathCost(w, "artillery", "0405", {"0305", "0306"}), 1);
}

TEST_CASE_MINI(FreeRoadStepWithNoPointsLeft) {
  // R2: a step is allowed when its cost does not exceed the points left.
  World w;
  w.Route({"0105", "0205", "0305", "0405"});
  const UnitId gun = w.Add("gun", kBlue, "foot_artillery", "0105");  // MA 2
  w.spec(gun).ma = 1;
  const auto run = RunPhase(w, kBlue, {PathOrder("gun", {"0205", "0305", "0405"})});
  // 0 (1 left), 1 (0 left), 0 (0 left).
  CHECK_MINI(run.result.verdicts[0].verdict == VerdictKind::kOk);
  CHECK_EQ_MINI(w.state().unit(gun).hex, H("0405"));
}

// ---- Zones of control (digest 4.6, R7, R8) -------------------------------------

TEST_CASE_MINI(ZocCoversTheSixNeighbours) {
  World w;
  w.Add("o", kOrange, "line_infantry", "0505");
  GameState& s = w.state();
  const Board board(w.scenario, s);
  for (const Hex n : Neighbors(H("0505"))) {
    CHECK_MINI(ControlOf(w.ruleset, w.scenario, s, board, n, kOrange).any());
    CHECK_MINI(!ControlOf(w.ruleset, w.scenario, s, board, n, kBlue).any());
  }
  CHECK_MINI(!ControlOf(w.ruleset, w.scenario, s, board, H("0705"), kOrange).any());
}

TEST_CASE_MINI(TownsAndWoodsAreNotControlledAndTheirOccupantsExertNone) {
  World w;
  w.Terrain("0605", "town").Terrain("0403", "woods");
  w.Add("o", kOrange, "line_infantry", "0505");
  w.Add("ow", kOrange, "line_infantry", "0403");  // in woods
  GameState& s = w.state();
  const Board b(w.scenario, s);
  CHECK_MINI(!ControlOf(w.ruleset, w.scenario, s, b, H("0605"), kOrange).any());
  CHECK_MINI(ControlOf(w.ruleset, w.scenario, s, b, H("0405"), kOrange).any());  // by "o" only
  CHECK_EQ_MINI(ControlOf(w.ruleset, w.scenario, s, b, H("0404"), kOrange).units.size(), 1);
  CHECK_MINI(!ControlOf(w.ruleset, w.scenario, s, b, H("0303"), kOrange).any());  // woods unit
}

TEST_CASE_MINI(NoZocAcrossStreamsRiversOrSteepSlopes) {
  World w;
  w.Add("o", kOrange, "line_infantry", "0505");
  w.Water("0505", Direction::kE, Water::kStream, Crossing::kBridge);  // bridged: still none (R8)
  w.Water("0505", Direction::kW, Water::kRiver, Crossing::kFord);
  w.Level("0506", 2);  // double slope SE
  w.Level("0504", 1);  // single slope NE: ZoC crosses
  GameState& s = w.state();
  const Board b(w.scenario, s);
  CHECK_MINI(!ControlOf(w.ruleset, w.scenario, s, b, H("0605"), kOrange).any());
  CHECK_MINI(!ControlOf(w.ruleset, w.scenario, s, b, H("0405"), kOrange).any());
  CHECK_MINI(!ControlOf(w.ruleset, w.scenario, s, b, H("0506"), kOrange).any());
  CHECK_MINI(ControlOf(w.ruleset, w.scenario, s, b, H("0504"), kOrange).any());
}

TEST_CASE_MINI(ArtilleryAndDemoralisedUnitsExertNoZocLeadersDo) {
  World w;
  w.Add("gun", kOrange, "foot_artillery", "0303");
  const UnitId tired = w.Add("tired", kOrange, "line_infantry", "0707");
  w.Add("gen", kOrange, "leader", "0309");  // MV 0 but never demoralised
  GameState& s = w.state();
  s.unit(tired).mv = 0;
  const Board b(w.scenario, s);
  CHECK_MINI(!ControlOf(w.ruleset, w.scenario, s, b, H("0403"), kOrange).any());
  CHECK_MINI(!ControlOf(w.ruleset, w.scenario, s, b, H("0807"), kOrange).any());
  const Control c = ControlOf(w.ruleset, w.scenario, s, b, H("0409"), kOrange);
  CHECK_MINI(c.any());
  CHECK_MINI(c.mounted);
}

TEST_CASE_MINI(FortsExertZocEvenEmptyAndProtectTheirOccupants) {
  World w;
  w.Fort("0505", kOrange).Fort("0303", std::nullopt);
  w.Water("0505", Direction::kE, Water::kStream);
  GameState& s = w.state();
  const Board b(w.scenario, s);
  const Control c = ControlOf(w.ruleset, w.scenario, s, b, H("0405"), kOrange);
  CHECK_MINI(c.any());
  CHECK_EQ_MINI(c.forts.size(), 1);
  CHECK_MINI(c.unmounted && !c.mounted);                                          // R7: as infantry
  CHECK_MINI(!ControlOf(w.ruleset, w.scenario, s, b, H("0605"), kOrange).any());  // stream
  // A neutral fort controls nothing.
  CHECK_MINI(!ControlOf(w.ruleset, w.scenario, s, b, H("0403"), kBlue).any());
  CHECK_MINI(!ControlOf(w.ruleset, w.scenario, s, b, H("0403"), kOrange).any());
  // A unit inside a fort is under no enemy ZoC (R7).
  World w2;
  w2.Fort("0505", kBlue);
  w2.Add("o", kOrange, "light_cavalry", "0605");
  GameState& s2 = w2.state();
  const Board b2(w2.scenario, s2);
  CHECK_MINI(!ControlOf(w2.ruleset, w2.scenario, s2, b2, H("0505"), kOrange).any());
}

TEST_CASE_MINI(EnteringAnEnemyFortTakesItAndEndsItsZoc) {
  World w;
  w.Fort("0505", kOrange);
  w.Add("b", kBlue, "line_infantry", "0305");
  const auto run = RunPhase(w, kBlue, {PathOrder("b", {"0405", "0505", "0605"})});
  // 0405 is in the fort's ZoC: the move stops there.
  CHECK_MINI(run.result.verdicts[0].verdict == VerdictKind::kPartial);
  CHECK_MINI(run.result.verdicts[0].reason == Reason::kEnteredEnemyZoc);
  // Starting next to the fort: entering it is not entering a ZoC (R7); it
  // costs the fort's 2 plus 1 to leave the fort's ZoC, and takes the fort.
  World w2;
  w2.Fort("0505", kOrange);
  w2.Add("b", kBlue, "line_infantry", "0405");
  const auto run2 = RunPhase(w2, kBlue, {PathOrder("b", {"0505"})});
  CHECK_MINI(run2.result.verdicts[0].verdict == VerdictKind::kOk);
  CHECK_MINI(w2.state().fort_owners.at(H("0505")) == kBlue);
  CHECK_EQ_MINI(EventsOf(run2.events, EventKind::kFortTaken).size(), 1);
}

// ---- Leaving a ZoC (digest 4.6) -------------------------------------------------

TEST_CASE_MINI(InfantryLeavesIntoFreeHexForOneMorePoint) {
  World w;
  w.Add("o", kOrange, "line_infantry", "0505");
  w.Add("b", kBlue, "line_infantry", "0405");
  const auto run = RunPhase(w, kBlue, {PathOrder("b", {"0305", "0205"})});
  const auto steps = EventsOf(run.events, EventKind::kMoveStep);
  REQUIRE_MINI(steps.size() == 2);
  CHECK_EQ_MINI(Body<payload::MoveStep>(steps[0]).cost, 2);  // 1 + 1 to leave
  CHECK_EQ_MINI(Body<payload::MoveStep>(steps[1]).cost, 1);
  CHECK_MINI(run.result.verdicts[0].verdict == VerdictKind::kOk);
}

TEST_CASE_MINI(FootUnitsMayNotLeaveIntoAnotherEnemyZocHex) {
  for (const char* type : {"line_infantry", "foot_artillery", "dromedary"}) {
    World w;
    w.Add("o", kOrange, "line_infantry", "0505");
    w.Add("b", kBlue, type, "0405");
    // 0404 is also next to 0505.
    const auto run = RunPhase(w, kBlue, {PathOrder("b", {"0404"})});
    const OrderVerdict& v = run.result.verdicts[0];
    CHECK_MINI(v.verdict == VerdictKind::kIllegal);
    CHECK_MINI(v.reason == Reason::kZocLeaveIntoZoc);
    CHECK_MINI(w.state().unit(UnitId{1}).hex == H("0405"));
  }
}

TEST_CASE_MINI(MountedUnitsLeaveInfantryControlFreely) {
  for (const char* type : {"light_cavalry", "leader"}) {
    World w;
    w.Add("o", kOrange, "line_infantry", "0505");
    w.Add("b", kBlue, type, "0405");
    // Into another hex of the same ZoC: allowed, free, and it stops there.
    const auto run = RunPhase(w, kBlue, {PathOrder("b", {"0404", "0304"})});
    const auto steps = EventsOf(run.events, EventKind::kMoveStep);
    REQUIRE_MINI(steps.size() == 1);
    CHECK_EQ_MINI(Body<payload::MoveStep>(steps[0]).cost, 1);
    CHECK_MINI(run.result.verdicts[0].verdict == VerdictKind::kPartial);
    CHECK_MINI(run.result.verdicts[0].reason == Reason::kEnteredEnemyZoc);
  }
}

TEST_CASE_MINI(ZocLeaveCostComesFromTheRuleset) {
  // Infantry leaving an enemy ZoC into a free hex pays 1 + zoc_leave_cost.
  for (const int extra : {1, 2, 0}) {
    World w;
    w.ruleset.params.zoc_leave_cost = extra;
    w.Add("o", kOrange, "line_infantry", "0505");
    w.Add("b", kBlue, "line_infantry", "0405");
    const auto run = RunPhase(w, kBlue, {PathOrder("b", {"0305"})});
    const auto steps = EventsOf(run.events, EventKind::kMoveStep);
    REQUIRE_MINI(steps.size() == 1);
    CHECK_EQ_MINI(Body<payload::MoveStep>(steps[0]).cost, 1 + extra);
  }
}

TEST_CASE_MINI(MountedUnitsLeavingMountedControl) {
  // Into a hex controlled by an enemy mounted unit: refused.
  {
    World w;
    w.Add("o", kOrange, "light_cavalry", "0505");
    w.Add("b", kBlue, "heavy_cavalry", "0405");
    const auto run = RunPhase(w, kBlue, {PathOrder("b", {"0404"})});
    CHECK_MINI(run.result.verdicts[0].verdict == VerdictKind::kIllegal);
    CHECK_MINI(run.result.verdicts[0].reason == Reason::kZocLeaveIntoMountedZoc);
  }
  // Into a hex controlled by infantry only: allowed for +1 (V2008), then stop.
  {
    World w;
    w.Add("o", kOrange, "light_cavalry", "0505");
    w.Add("i", kOrange, "line_infantry", "0303");  // controls 0304
    w.Add("b", kBlue, "heavy_cavalry", "0405");
    const auto run = RunPhase(w, kBlue, {PathOrder("b", {"0304", "0204"})});
    const auto steps = EventsOf(run.events, EventKind::kMoveStep);
    REQUIRE_MINI(steps.size() == 1);
    CHECK_EQ_MINI(Body<payload::MoveStep>(steps[0]).cost, 2);
    CHECK_MINI(run.result.verdicts[0].reason == Reason::kEnteredEnemyZoc);
    // V2006 (mounted_leave_any_control): refused.
    World v6;
    v6.ruleset.params.mounted_leave_any_control = true;
    v6.Add("o", kOrange, "light_cavalry", "0505");
    v6.Add("i", kOrange, "line_infantry", "0303");
    v6.Add("b", kBlue, "heavy_cavalry", "0405");
    const auto r6 = RunPhase(v6, kBlue, {PathOrder("b", {"0304"})});
    CHECK_MINI(r6.result.verdicts[0].reason == Reason::kZocLeaveIntoMountedZoc);
  }
  // Into a free hex: +1.
  {
    World w;
    w.Add("o", kOrange, "leader", "0505");
    w.Add("b", kBlue, "light_cavalry", "0405");
    const auto run = RunPhase(w, kBlue, {PathOrder("b", {"0305"})});
    const auto steps = EventsOf(run.events, EventKind::kMoveStep);
    REQUIRE_MINI(steps.size() == 1);
    CHECK_EQ_MINI(Body<payload::MoveStep>(steps[0]).cost, 2);
  }
}

TEST_CASE_MINI(DemoralisedUnitsMayNotEnterAnEnemyZoc) {
  World w;
  w.Add("o", kOrange, "line_infantry", "0505");
  const UnitId b = w.Add("b", kBlue, "line_infantry", "0205");
  w.state().unit(b).mv = 0;
  const auto run = RunPhase(w, kBlue, {PathOrder("b", {"0305", "0405"})});
  CHECK_MINI(run.result.verdicts[0].verdict == VerdictKind::kPartial);
  CHECK_MINI(run.result.verdicts[0].reason == Reason::kDemoralisedIntoZoc);
  CHECK_EQ_MINI(w.state().unit(b).hex, H("0305"));
}

TEST_CASE_MINI(EnteringAnEnemyZocEndsTheMoveForTheTurn) {
  World w;
  w.Add("o", kOrange, "line_infantry", "0505");
  w.Add("b", kBlue, "line_infantry", "0205");
  const auto run =
      RunPhase(w, kBlue, {PathOrder("b", {"0305", "0405", "0404"}), PathOrder("b", {"0304"})});
  CHECK_MINI(run.result.verdicts[0].verdict == VerdictKind::kPartial);
  CHECK_MINI(run.result.verdicts[0].reason == Reason::kEnteredEnemyZoc);
  CHECK_MINI((run.result.verdicts[0].args == std::vector<Arg>{H("0405")}));
  CHECK_MINI(run.result.verdicts[1].verdict == VerdictKind::kIllegal);
  CHECK_MINI(run.result.verdicts[1].reason == Reason::kMoveEndedInZoc);
  // Stopping on the last hex of the path is a complete move.
  World w2;
  w2.Add("o", kOrange, "line_infantry", "0505");
  w2.Add("b", kBlue, "line_infantry", "0205");
  const auto run2 = RunPhase(w2, kBlue, {PathOrder("b", {"0305", "0405"})});
  CHECK_MINI(run2.result.verdicts[0].verdict == VerdictKind::kOk);
}

// ---- Stacking, truncation, batch semantics ---------------------------------------

TEST_CASE_MINI(NoStackingNotEvenPassingThrough) {
  World w;
  w.Add("a", kBlue, "line_infantry", "0305");
  w.Add("b", kBlue, "light_cavalry", "0205");
  const auto run = RunPhase(w, kBlue, {PathOrder("b", {"0305", "0405"})});
  const OrderVerdict& v = run.result.verdicts[0];
  CHECK_MINI(v.verdict == VerdictKind::kIllegal);
  CHECK_MINI(v.reason == Reason::kHexOccupied);
  CHECK_MINI((v.args == std::vector<Arg>{H("0305"), std::string("a")}));
  CHECK_EQ_MINI(w.state().unit(UnitId{1}).hex, H("0205"));
}

TEST_CASE_MINI(TruncatedMoveSaysWhatTheStepWouldHaveCost) {
  World w;
  w.Terrain("0505", "woods");
  const UnitId b = w.Add("b", kBlue, "line_infantry", "0205");  // MA 3
  const auto run = RunPhase(w, kBlue, {PathOrder("b", {"0305", "0405", "0505", "0605"})});
  const OrderVerdict& v = run.result.verdicts[0];
  CHECK_MINI(v.verdict == VerdictKind::kPartial);
  CHECK_MINI(v.reason == Reason::kNotEnoughMovementPoints);
  // Woods would cost 2 with 1 point left.
  CHECK_MINI((v.args == std::vector<Arg>{H("0505"), std::int64_t{2}, std::int64_t{1}}));
  CHECK_EQ_MINI(w.state().unit(b).hex, H("0405"));
  const auto end = EventsOf(run.events, EventKind::kMoveEnd);
  REQUIRE_MINI(end.size() == 1);
  CHECK_EQ_MINI(Body<payload::MoveEnd>(end[0]).points_left, 1);
  CHECK_EQ_MINI(Body<payload::MoveEnd>(end[0]).reason, std::string("not_enough_movement_points"));
}

TEST_CASE_MINI(IllegalPathsAreVerdictsAndChangeNothing) {
  World w(6, 6);
  w.Water("0303", Direction::kE, Water::kMajorRiver);
  w.spec(w.Add("b", kBlue, "line_infantry", "0303")).ma = 5;
  w.Add("o", kOrange, "line_infantry", "0606");
  const GameState before = w.state();
  const auto run = RunPhase(w, kBlue,
                            {PathOrder("b", {"0503"}),            // not adjacent
                             PathOrder("b", {"0203", "0103"}),    // fine so far...
                             PathOrder("zz", {"0203"}),           // unknown unit
                             PathOrder("o", {"0506"}),            // an enemy unit
                             PathOrder("b", {"0203"}),            // back east? 0103 -> 0203
                             PathOrder("b", {"0303", "0403"})});  // over the major river
  const auto& vs = run.result.verdicts;
  REQUIRE_MINI(vs.size() == 6);
  CHECK_MINI(vs[0].verdict == VerdictKind::kInvalid);
  CHECK_MINI(vs[0].reason == Reason::kPathNotAdjacent);
  CHECK_MINI(vs[1].verdict == VerdictKind::kOk);
  CHECK_MINI(vs[2].verdict == VerdictKind::kInvalid);
  CHECK_MINI(vs[2].reason == Reason::kUnknownUnit);
  CHECK_MINI(vs[3].verdict == VerdictKind::kIllegal);
  CHECK_MINI(vs[3].reason == Reason::kNotYourUnit);
  CHECK_MINI(vs[4].verdict == VerdictKind::kOk);  // 2 points left
  CHECK_MINI(vs[5].verdict == VerdictKind::kPartial);
  CHECK_MINI(vs[5].reason == Reason::kHexsideImpassable);
  CHECK_MINI((vs[5].args == std::vector<Arg>{H("0403"), H("0303"), std::string("major_river")}));
  CHECK_EQ_MINI(w.state().unit(UnitId{1}).hex, before.unit(UnitId{1}).hex);
  // Off the map.
  const auto off = RunPhase(w, kBlue, {PathOrder("b", {"0703"})});
  CHECK_MINI(off.result.verdicts[0].verdict == VerdictKind::kInvalid);
  CHECK_MINI(off.result.verdicts[0].reason == Reason::kHexOffMap);
}

TEST_CASE_MINI(SeveralOrdersContinueWithThePointsLeft) {
  World w;
  w.Route({"0105", "0205", "0305", "0405", "0505"});
  const UnitId b = w.Add("b", kBlue, "line_infantry", "0105");  // MA 3
  const UnitId c = w.Add("c", kBlue, "line_infantry", "0103");
  const auto run = RunPhase(w, kBlue,
                            {PathOrder("b", {"0205", "0305"}), PathOrder("c", {"0203"}),
                             PathOrder("b", {"0405", "0505", "0605"})});
  // Road 0, 1, then (same chain) 0, 1, then clear 1 = 3.
  CHECK_MINI(run.result.verdicts[2].verdict == VerdictKind::kOk);
  CHECK_EQ_MINI(w.state().unit(b).hex, H("0605"));
  CHECK_EQ_MINI(w.state().unit(c).hex, H("0203"));
}

// ---- Command and allowance (digest 1.6, 3.1) ------------------------------------

TEST_CASE_MINI(OutOfCommandHalvesTheAllowance) {
  World w(12, 6);
  w.Add("gen", kBlue, "leader", "0103");
  const UnitId near = w.Add("near", kBlue, "line_infantry", "0303");
  const UnitId far = w.Add("far", kBlue, "line_infantry", "0603");
  w.Corps(kBlue, "I");
  const auto run = RunPhase(
      w, kBlue, {PathOrder("near", {"0304", "0305", "0306"}), PathOrder("far", {"0703", "0803"})});
  CHECK_MINI(w.state().unit(near).in_command);
  CHECK_MINI(!w.state().unit(far).in_command);
  CHECK_MINI(run.result.verdicts[0].verdict == VerdictKind::kOk);
  // MA 3 -> 1: the second step is refused.
  CHECK_MINI(run.result.verdicts[1].verdict == VerdictKind::kPartial);
  CHECK_MINI((run.result.verdicts[1].args ==
              std::vector<Arg>{H("0803"), std::int64_t{1}, std::int64_t{0}}));
  const auto checks = EventsOf(run.events, EventKind::kCommandCheck);
  REQUIRE_MINI(checks.size() == 3);
  CHECK_EQ_MINI(Body<payload::CommandCheck>(checks[2]).status, std::string("out_of_command"));
  CHECK_EQ_MINI(Body<payload::CommandCheck>(checks[2]).basis, std::string("beyond_radius"));
}

TEST_CASE_MINI(LeaderlessAndIndependentUnits) {
  World w;
  const UnitId lost = w.Add("lost", kBlue, "line_infantry", "0303", "II");
  const UnitId bedouin = w.Add("bedouin", kBlue, "dromedary", "0505", "");
  w.Corps(kBlue, "II");
  GameState& s = w.state();
  CHECK_MINI(!CheckCommand(w.ruleset, w.scenario, s, lost).in_command);
  CHECK_MINI(CheckCommand(w.ruleset, w.scenario, s, lost).basis == CommandBasis::kLeaderless);
  CHECK_MINI(CheckCommand(w.ruleset, w.scenario, s, bedouin).in_command);
  w.ruleset.params.leaderless_out_of_command = false;
  CHECK_MINI(CheckCommand(w.ruleset, w.scenario, s, lost).in_command);
}

TEST_CASE_MINI(CommandBlockedByTerrainIsAParameter) {
  World w;
  const UnitId gen = w.Add("gen", kBlue, "leader", "0303");
  const UnitId near = w.Add("near", kBlue, "line_infantry", "0403");    // E, across a river
  const UnitId round = w.Add("round", kBlue, "line_infantry", "0503");  // 2 away
  w.Corps(kBlue, "I");
  w.spec(gen).independent = false;
  w.spec(gen).command_radius = 2;
  w.Water("0303", Direction::kE, Water::kRiver);
  GameState& s = w.state();
  // Default: plain distance.
  CHECK_MINI(CheckCommand(w.ruleset, w.scenario, s, near).in_command);
  CHECK_MINI(CheckCommand(w.ruleset, w.scenario, s, round).in_command);
  w.ruleset.params.command_blocked_by_terrain = true;
  // Radius 2: a chain round the river end reaches 0403 (0303-0402-0403);
  // every 2-step chain to 0503 crosses the river (0303-0403-0503).
  CHECK_MINI(CheckCommand(w.ruleset, w.scenario, s, near).in_command);
  CHECK_MINI(CheckCommand(w.ruleset, w.scenario, s, round).basis ==
             CommandBasis::kBlockedByTerrain);
  // Radius 1: only the direct step, across the river.
  w.spec(gen).command_radius = 1;
  const CommandStatus blocked = CheckCommand(w.ruleset, w.scenario, s, near);
  CHECK_MINI(!blocked.in_command);
  CHECK_MINI(blocked.basis == CommandBasis::kBlockedByTerrain);
  CHECK_EQ_MINI(blocked.distance, 1);
  // A bridge restores it.
  w.Water("0303", Direction::kE, Water::kRiver, Crossing::kBridge);
  CHECK_MINI(CheckCommand(w.ruleset, w.scenario, s, near).in_command);
}

TEST_CASE_MINI(ArtilleryThatBombardedDoesNotMoveHorseArtilleryHalfMoves) {
  World w;
  const UnitId foot = w.Add("foot", kBlue, "foot_artillery", "0303");
  const UnitId horse = w.Add("horse", kBlue, "horse_artillery", "0505");  // MA 4
  GameState& s = w.state();
  s.unit(foot).bombarded_this_turn = true;
  s.unit(horse).bombarded_this_turn = true;
  CHECK_EQ_MINI(MovementAllowance(w.ruleset, w.scenario, s, horse).points, 2);
  const auto run = RunPhase(
      w, kBlue, {PathOrder("foot", {"0403"}), PathOrder("horse", {"0605", "0705", "0805"})});
  CHECK_MINI(run.result.verdicts[0].verdict == VerdictKind::kIllegal);
  CHECK_MINI(run.result.verdicts[0].reason == Reason::kBombardedCannotMove);
  CHECK_MINI(run.result.verdicts[1].verdict == VerdictKind::kPartial);
  CHECK_EQ_MINI(w.state().unit(horse).hex, H("0705"));
  w.ruleset.params.horse_artillery_post_fire_move = HorseArtilleryMove::kNoMove;
  CHECK_MINI(!MovementAllowance(w.ruleset, w.scenario, s, horse).can_move);
}

// ---- Marsh (digest 4.3, ruling R1) -------------------------------------------------

TEST_CASE_MINI(MarshStuckTestForEveryArm) {
  struct Row {
    const char* type;
    int chance;
  };
  for (const Row row : {Row{"line_infantry", 1}, Row{"light_cavalry", 2}, Row{"leader", 2},
                        Row{"foot_artillery", 3}, Row{"dromedary", 1}}) {
    // Stuck on a draw equal to the chance, free one above.
    for (const int draw : {row.chance, row.chance + 1}) {
      World w;
      w.Terrain("0305", "marsh");
      const UnitId u = w.Add("u", kBlue, row.type, "0205");
      const auto run =
          RunPhase(w, kBlue, {PathOrder("u", {"0305", "0405"})}, Rolls({{Die::kD4, draw}}));
      CHECK_MINI(run.dice_ok);
      CHECK_EQ_MINI(run.dice_left, 0);
      const auto dice = EventsOf(run.events, EventKind::kDie);
      REQUIRE_MINI(dice.size() == 1);
      CHECK_EQ_MINI(dice[0].die->purpose, std::string("marsh_stuck_test"));
      CHECK_EQ_MINI(Body<payload::Die>(dice[0]).stuck_chance.value_or(-1), row.chance);
      const bool stuck = draw <= row.chance;
      CHECK_EQ_MINI(w.state().unit(u).stuck, stuck);
      CHECK_EQ_MINI(EventsOf(run.events, EventKind::kStuck).size(), stuck ? 1 : 0);
      CHECK_EQ_MINI(w.state().unit(u).hex, stuck ? H("0305") : H("0405"));
      CHECK_MINI(run.result.verdicts[0].verdict ==
                 (stuck ? VerdictKind::kPartial : VerdictKind::kOk));
    }
  }
}

TEST_CASE_MINI(StuckUnitsMoveNoMoreThisTurn) {
  World w;
  w.Terrain("0305", "marsh");
  w.Add("u", kBlue, "light_cavalry", "0205");
  const auto run = RunPhase(w, kBlue, {PathOrder("u", {"0305"}), PathOrder("u", {"0405"})},
                            Rolls({{Die::kD4, 1}}));
  CHECK_MINI(run.result.verdicts[0].verdict == VerdictKind::kOk);
  CHECK_MINI(run.result.verdicts[1].verdict == VerdictKind::kIllegal);
  CHECK_MINI(run.result.verdicts[1].reason == Reason::kStuckInMarsh);
}

TEST_CASE_MINI(MarshTestAlsoOnARoad) {
  World w;
  w.Terrain("0305", "marsh").Route({"0205", "0305", "0405"});
  w.Add("u", kBlue, "line_infantry", "0205");
  const auto run = RunPhase(w, kBlue, {PathOrder("u", {"0305", "0405"})}, Rolls({{Die::kD4, 4}}));
  CHECK_EQ_MINI(EventsOf(run.events, EventKind::kDie).size(), 1);  // R1
  World off;
  off.ruleset.params.marsh_test_on_road = false;
  off.Terrain("0305", "marsh").Route({"0205", "0305", "0405"});
  off.Add("u", kBlue, "line_infantry", "0205");
  const auto run2 = RunPhase(off, kBlue, {PathOrder("u", {"0305", "0405"})});
  CHECK_EQ_MINI(EventsOf(run2.events, EventKind::kDie).size(), 0);
  CHECK_MINI(run2.dice_ok);
}

// ---- Destination orders ----------------------------------------------------------------

TEST_CASE_MINI(DestinationTakesTheCheapestPath) {
  World w;
  w.Terrain("0305", "woods");
  const UnitId u = w.Add("u", kBlue, "foot_artillery", "0205");
  w.spec(u).ma = 4;
  const auto run = RunPhase(w, kBlue, {DestinationOrder("u", "0405")});
  CHECK_MINI(run.result.verdicts[0].verdict == VerdictKind::kOk);
  CHECK_EQ_MINI(w.state().unit(u).hex, H("0405"));
  const auto steps = EventsOf(run.events, EventKind::kMoveStep);
  // Around the woods (3 rather than 3 + 1), by the north first: NE, E, SE
  // beats SE, E, NE.
  REQUIRE_MINI(steps.size() == 3);
  CHECK_EQ_MINI(steps[0].hexes[1], H("0204"));
  CHECK_EQ_MINI(steps[1].hexes[1], H("0304"));
  const auto unreachable = RunPhase(w, kBlue, {DestinationOrder("u", "0909")});
  CHECK_MINI(unreachable.result.verdicts[0].verdict == VerdictKind::kIllegal);
  CHECK_MINI(unreachable.result.verdicts[0].reason == Reason::kDestinationUnreachable);
}

TEST_CASE_MINI(DestinationOrdersNeverCharge) {
  World w;
  w.Add("o", kOrange, "line_infantry", "0605");
  const UnitId c = w.Add("c", kBlue, "light_cavalry", "0305");
  const auto run = RunPhase(w, kBlue, {DestinationOrder("c", "0505")});
  CHECK_EQ_MINI(EventsOf(run.events, EventKind::kCharge).size(), 0);
  CHECK_EQ_MINI(w.state().unit(c).hex, H("0505"));
}

// ---- Objectives ----------------------------------------------------------------

TEST_CASE_MINI(PassingObjectivesChangeHandsButNotForLeaders) {
  World w;
  Objective o;
  o.name = "ford";
  o.kind = ObjectiveKind::kPassing;
  o.hexes = {H("0305")};
  o.initial_owner = kOrange;
  w.scenario.objectives.push_back(o);
  w.Add("gen", kBlue, "leader", "0205");
  w.Add("inf", kBlue, "line_infantry", "0204");
  const auto run =
      RunPhase(w, kBlue, {PathOrder("gen", {"0305", "0405"}), PathOrder("inf", {"0305"})});
  CHECK_EQ_MINI(EventsOf(run.events, EventKind::kObjectiveTaken).size(), 1);
  CHECK_MINI(w.state().objective_owners.at(H("0305")) == kBlue);
}

// ---- Charges (digest 4.7) ----------------------------------------------------------

// A light cavalry "c" at 0205 charging east along row 05 at "t" in 0505.
struct ChargeWorld {
  World w;
  UnitId charger;
  UnitId target;
};

ChargeWorld MakeCharge(const char* charger_type, const char* target_type) {
  ChargeWorld cw;
  cw.target = cw.w.Add("t", kOrange, target_type, "0505");
  cw.charger = cw.w.Add("c", kBlue, charger_type, "0205");
  return cw;
}

TEST_CASE_MINI(ChargeExampleOneHoldsAgainstCsFive) {
  // Light cavalry CS 3 v infantry CS 5, MV 4; draw 6: 6 - 2 = 4, not > 4.
  ChargeWorld cw = MakeCharge("light_cavalry", "line_infantry");
  const auto run =
      RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})}, Rolls({{Die::kD9, 6}}));
  CHECK_MINI(run.dice_ok);
  const auto tests = EventsOf(run.events, EventKind::kMoraleTest);
  REQUIRE_MINI(tests.size() == 1);
  CHECK_EQ_MINI(Body<payload::MoraleTest>(tests[0]).modified, 4);
  CHECK_EQ_MINI(Body<payload::MoraleTest>(tests[0]).needed, 4);
  CHECK_EQ_MINI(Body<payload::MoraleTest>(tests[0]).result, std::string("passed"));
  CHECK_EQ_MINI(cw.w.state().unit(cw.target).hex, H("0505"));
  CHECK_EQ_MINI(cw.w.state().unit(cw.charger).hex, H("0405"));
  CHECK_MINI(cw.w.state().unit(cw.charger).charged_targets.empty());
}

TEST_CASE_MINI(ChargeExampleOneSucceedsAgainstCsThree) {
  ChargeWorld cw = MakeCharge("light_cavalry", "line_infantry");
  cw.w.spec(cw.target).cs = 3;
  const auto run =
      RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})}, Rolls({{Die::kD9, 6}}));
  const GameState& s = cw.w.state();
  // The target retreats one hex (straight away from the charger, 0605) and
  // loses 1 MV; the charger takes its place and is owed the x1.5 bonus.
  CHECK_EQ_MINI(s.unit(cw.target).hex, H("0605"));
  CHECK_EQ_MINI(s.unit(cw.target).mv, 3);
  CHECK_EQ_MINI(s.unit(cw.charger).hex, H("0505"));
  REQUIRE_MINI(s.unit(cw.charger).charged_targets.size() == 1);
  CHECK_MINI(s.unit(cw.charger).charged_targets[0] == cw.target);
  CHECK_EQ_MINI(EventsOf(run.events, EventKind::kRetreat).size(), 1);
  // In the target's ZoC again after the advance: the move ends.
  CHECK_MINI(run.result.verdicts[0].verdict == VerdictKind::kOk);
}

TEST_CASE_MINI(ChargeExampleTwoUnharmedGuardAlwaysHolds) {
  ChargeWorld cw = MakeCharge("heavy_cavalry", "guard_infantry");
  const auto run =
      RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})}, Rolls({{Die::kD9, 9}}));
  const auto tests = EventsOf(run.events, EventKind::kMoraleTest);
  REQUIRE_MINI(tests.size() == 1);
  CHECK_EQ_MINI(Body<payload::MoraleTest>(tests[0]).modified, 6);  // 9 - 3
  CHECK_EQ_MINI(Body<payload::MoraleTest>(tests[0]).result, std::string("passed"));
}

TEST_CASE_MINI(DemoralisedExampleLosesMvThenCs) {
  // MV 1 / CS 3 infantry fails, retreats into one more enemy ZoC: 2 points
  // to lose: MV 0 and CS 2.
  ChargeWorld cw = MakeCharge("heavy_cavalry", "line_infantry");
  cw.w.spec(cw.target).cs = 3;
  cw.w.spec(cw.target).mv = 1;
  cw.w.Add("other", kBlue, "line_infantry", "0705");  // controls 0605
  const Hex retreat = H("0605");
  cw.w.Add("blockA", kBlue, "foot_artillery", "0504");  // artillery: blocks, no ZoC
  cw.w.Add("blockB", kBlue, "foot_artillery", "0506");
  RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})}, Rolls({{Die::kD9, 5}}));
  const GameState& s = cw.w.state();
  CHECK_EQ_MINI(s.unit(cw.target).hex, retreat);
  CHECK_EQ_MINI(s.unit(cw.target).mv, 0);
  CHECK_EQ_MINI(s.unit(cw.target).cs, 2);
}

TEST_CASE_MINI(ChargedArtilleryIsEliminatedOrFiresWhenItHolds) {
  {
    ChargeWorld cw = MakeCharge("light_cavalry", "foot_artillery");
    // CS 3 v 2: draw 3 + 1 = 4 > MV 3: eliminated, the charger takes the hex.
    const auto run =
        RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})}, Rolls({{Die::kD9, 3}}));
    CHECK_MINI(cw.w.state().unit(cw.target).eliminated);
    CHECK_EQ_MINI(cw.w.state().unit(cw.charger).hex, H("0505"));
    CHECK_MINI(run.dice_ok);
  }
  {
    ChargeWorld cw = MakeCharge("light_cavalry", "foot_artillery");
    // Holds (draw 1 + 1 = 2 <= 3), then reaction fire (d6 2 <= BV 3: hit).
    const auto run = RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})},
                              Rolls({{Die::kD9, 1}, {Die::kD6, 2}}));
    CHECK_MINI(run.dice_ok);
    CHECK_EQ_MINI(run.dice_left, 0);
    CHECK_EQ_MINI(EventsOf(run.events, EventKind::kReactionFire).size(), 1);
    CHECK_EQ_MINI(cw.w.state().unit(cw.charger).mv, 3);
    CHECK_EQ_MINI(cw.w.state().unit(cw.target).reaction_fires, 1);
  }
}

// Digest 5.11 GAP: with elimination_bonus_scope kAll a charge that eliminates
// its target gives the charger 1 MV back (never above its initial MV); with
// the default kCombatPhase it does not.
TEST_CASE_MINI(EliminationBonusScopeAllRewardsTheCharger) {
  for (const bool all : {false, true}) {
    ChargeWorld cw = MakeCharge("light_cavalry", "foot_artillery");
    if (all) cw.w.ruleset.params.elimination_bonus_scope = EliminationBonusScope::kAll;
    UnitState& c = cw.w.state().unit(cw.charger);
    c.mv = c.mv_initial - 1;
    const int before = c.mv;
    // CS 3 v 2: draw 3 + 1 = 4 > MV 3: the battery is eliminated.
    const auto run =
        RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})}, Rolls({{Die::kD9, 3}}));
    CHECK_MINI(run.dice_ok);
    CHECK_MINI(cw.w.state().unit(cw.target).eliminated);
    CHECK_EQ_MINI(cw.w.state().unit(cw.charger).mv, all ? before + 1 : before);
    const auto gained = EventsOf(run.events, EventKind::kMoraleGained);
    REQUIRE_MINI(gained.size() == (all ? 1u : 0u));
    if (all) {
      CHECK_MINI(gained[0].unit == cw.charger);
      CHECK_MINI(gained[0].phase == Phase::kMovement);
      CHECK_EQ_MINI(Body<payload::MoraleGained>(gained[0]).cause, std::string("elimination"));
    }
  }
}

TEST_CASE_MINI(LeadersAreChargedOnCsPlusRadiusAndLoseNoMorale) {
  ChargeWorld cw = MakeCharge("light_cavalry", "leader");
  // Leader CS 2, radius 2: simulated MV 4; draw 4 + 1 = 5 > 4.
  const auto run =
      RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})}, Rolls({{Die::kD9, 4}}));
  const auto tests = EventsOf(run.events, EventKind::kMoraleTest);
  REQUIRE_MINI(tests.size() == 1);
  CHECK_EQ_MINI(Body<payload::MoraleTest>(tests[0]).needed, 4);
  CHECK_EQ_MINI(cw.w.state().unit(cw.target).hex, H("0605"));
  CHECK_EQ_MINI(cw.w.state().unit(cw.target).cs, 2);
  CHECK_EQ_MINI(EventsOf(run.events, EventKind::kLoss).size(), 0);
}

TEST_CASE_MINI(NoRetreatMeansElimination) {
  ChargeWorld cw = MakeCharge("heavy_cavalry", "line_infantry");
  // Every hex around the target but the charger's is taken.
  for (const char* l : {"0504", "0605", "0506", "0406", "0404"}) {
    cw.w.Add(std::string("x") + l, kOrange, "line_infantry", l);
  }
  RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})}, Rolls({{Die::kD9, 9}}));
  CHECK_MINI(cw.w.state().unit(cw.target).eliminated);
  CHECK_EQ_MINI(cw.w.state().unit(cw.charger).hex, H("0505"));
}

TEST_CASE_MINI(ChargeNeedsTwoStraightClearStepsAndAChargeableTarget) {
  // Only one step: no charge.
  {
    ChargeWorld cw = MakeCharge("light_cavalry", "line_infantry");
    cw.w.state().unit(cw.charger).hex = H("0305");
    cw.w.scenario.units[cw.charger.index()].start_hex = H("0305");
    const auto run = RunPhase(cw.w, kBlue, {PathOrder("c", {"0405"})});
    CHECK_EQ_MINI(EventsOf(run.events, EventKind::kCharge).size(), 0);
  }
  // A bend: no charge.
  {
    ChargeWorld cw = MakeCharge("light_cavalry", "line_infantry");
    const auto run = RunPhase(cw.w, kBlue, {PathOrder("c", {"0204", "0304", "0405"})});
    CHECK_EQ_MINI(EventsOf(run.events, EventKind::kCharge).size(), 0);
  }
  // Through rough terrain: no charge.
  {
    ChargeWorld cw = MakeCharge("light_cavalry", "line_infantry");
    cw.w.Terrain("0305", "rough");
    const auto run = RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})});
    CHECK_EQ_MINI(EventsOf(run.events, EventKind::kCharge).size(), 0);
  }
  // Target in woods: no charge.
  {
    ChargeWorld cw = MakeCharge("light_cavalry", "line_infantry");
    cw.w.Terrain("0505", "woods");
    const auto run = RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})});
    CHECK_EQ_MINI(EventsOf(run.events, EventKind::kCharge).size(), 0);
  }
  // Infantry never charges; nor demoralised cavalry; nor with no_charge.
  {
    ChargeWorld cw = MakeCharge("line_infantry", "line_infantry");
    const auto run = RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})});
    CHECK_EQ_MINI(EventsOf(run.events, EventKind::kCharge).size(), 0);
  }
  {
    ChargeWorld cw = MakeCharge("light_cavalry", "line_infantry");
    cw.w.state().unit(cw.charger).mv = 0;
    const auto run = RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})});
    CHECK_EQ_MINI(EventsOf(run.events, EventKind::kCharge).size(), 0);
  }
  {
    ChargeWorld cw = MakeCharge("light_cavalry", "line_infantry");
    MoveOrder m = PathOrder("c", {"0305", "0405"});
    m.no_charge = true;
    const auto run = RunPhase(cw.w, kBlue, {m});
    CHECK_EQ_MINI(EventsOf(run.events, EventKind::kCharge).size(), 0);
    MoveOrder n = PathOrder("c", {"0305", "0405"});
    ChargeWorld cw2 = MakeCharge("light_cavalry", "line_infantry");
    n.no_charge_at = {H("0305")};
    const auto run2 = RunPhase(cw2.w, kBlue, {n});
    CHECK_EQ_MINI(EventsOf(run2.events, EventKind::kCharge).size(), 0);
  }
}

TEST_CASE_MINI(ChargeModifiersSlopeAndStream) {
  // Uphill: MV + 1.
  {
    ChargeWorld cw = MakeCharge("light_cavalry", "line_infantry");
    cw.w.Level("0505", 1);
    const auto run =
        RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})}, Rolls({{Die::kD9, 7}}));
    CHECK_EQ_MINI(Body<payload::MoraleTest>(EventsOf(run.events, EventKind::kMoraleTest)[0]).needed,
                  5);
  }
  // Downhill: MV - 1.
  {
    ChargeWorld cw = MakeCharge("light_cavalry", "line_infantry");
    cw.w.Level("0205", 1).Level("0305", 1).Level("0405", 1);
    const auto run =
        RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})}, Rolls({{Die::kD9, 7}}));
    CHECK_EQ_MINI(Body<payload::MoraleTest>(EventsOf(run.events, EventKind::kMoraleTest)[0]).needed,
                  3);
  }
  // Through a stream bridge: allowed, MV + 1 (R8).
  {
    ChargeWorld cw = MakeCharge("light_cavalry", "line_infantry");
    cw.w.Water("0405", Direction::kE, Water::kStream, Crossing::kBridge);
    const auto run =
        RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})}, Rolls({{Die::kD9, 7}}));
    const auto tests = EventsOf(run.events, EventKind::kMoraleTest);
    REQUIRE_MINI(tests.size() == 1);
    CHECK_EQ_MINI(Body<payload::MoraleTest>(tests[0]).needed, 5);
  }
  // Across a river bridge: no charge.
  {
    ChargeWorld cw = MakeCharge("light_cavalry", "line_infantry");
    cw.w.Water("0405", Direction::kE, Water::kRiver, Crossing::kBridge);
    const auto run = RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405"})});
    CHECK_EQ_MINI(EventsOf(run.events, EventKind::kCharge).size(), 0);
  }
}

TEST_CASE_MINI(FailedChargeBehindAStreamLeavesTheChargerFreeToMove) {
  ChargeWorld cw = MakeCharge("light_cavalry", "line_infantry");
  cw.w.Water("0405", Direction::kE, Water::kStream);
  const auto run =
      RunPhase(cw.w, kBlue, {PathOrder("c", {"0305", "0405", "0404"})}, Rolls({{Die::kD9, 1}}));
  // Not in the target's ZoC behind the stream: the charger moves on to
  // 0404, next to the target across no stream, where its move ends.
  CHECK_MINI(run.result.verdicts[0].verdict == VerdictKind::kOk);
  CHECK_EQ_MINI(cw.w.state().unit(cw.charger).hex, H("0404"));
}

// ---- Reaction fire (digest 3.5, R4) ----------------------------------------------

TEST_CASE_MINI(ReactionFireNorthEastFirstThenClockwiseOncePerTurn) {
  World w;
  // The mover enters 0505; batteries at its E (0605) and SW (0406).
  const UnitId east = w.Add("east", kOrange, "foot_artillery", "0605");
  const UnitId sw = w.Add("sw", kOrange, "foot_artillery", "0406");
  const UnitId m = w.Add("m", kBlue, "line_infantry", "0404");
  // 0404 -> 0505 (both batteries) -> 0506 (both have fired).
  const auto run =
      RunPhase(w, kBlue, {PathOrder("m", {"0505", "0506"})}, Rolls({{Die::kD6, 6}, {Die::kD6, 1}}));
  CHECK_MINI(run.dice_ok);
  CHECK_EQ_MINI(run.dice_left, 0);
  const auto fire = EventsOf(run.events, EventKind::kReactionFire);
  REQUIRE_MINI(fire.size() == 2);
  CHECK_MINI(fire[0].unit == east);
  CHECK_MINI(fire[1].unit == sw);
  CHECK_EQ_MINI(Body<payload::ReactionFire>(fire[0]).result, std::string("miss"));
  CHECK_EQ_MINI(Body<payload::ReactionFire>(fire[1]).result, std::string("hit"));
  // An unmodified 1 with 1 <= BV 3 - 2: two MV.
  CHECK_EQ_MINI(w.state().unit(m).mv, 2);
  CHECK_EQ_MINI(w.state().unit(east).reaction_fires, 1);
  CHECK_EQ_MINI(w.state().unit(sw).reaction_fires, 1);
}

TEST_CASE_MINI(ReactionFirePerEnemyTurnAboveOneAllowsMoreFires) {
  // The battery at 0406 touches 0505 and 0506 across streams: no ZoC
  // crosses them, so the mover at 0505 does not pin it before its next step.
  for (const int per_turn : {1, 2}) {
    World w;
    w.ruleset.params.reaction_fire_per_enemy_turn = per_turn;
    w.Water("0406", Direction::kNE, Water::kStream);
    w.Water("0406", Direction::kE, Water::kStream);
    const UnitId gun = w.Add("gun", kOrange, "foot_artillery", "0406");
    const UnitId m = w.Add("m", kBlue, "line_infantry", "0404");
    std::vector<std::pair<Die, int>> rolls(static_cast<std::size_t>(per_turn), {Die::kD6, 6});
    const auto run = RunPhase(w, kBlue, {PathOrder("m", {"0505", "0506"})}, Rolls(rolls));
    CHECK_MINI(run.dice_ok);
    CHECK_EQ_MINI(run.dice_left, 0);
    const auto fire = EventsOf(run.events, EventKind::kReactionFire);
    CHECK_EQ_MINI(fire.size(), static_cast<std::size_t>(per_turn));
    for (const Event& e : fire) CHECK_MINI(e.unit == gun);
    CHECK_EQ_MINI(w.state().unit(gun).reaction_fires, per_turn);
    CHECK_EQ_MINI(w.state().unit(m).hex, H("0506"));
  }
}

TEST_CASE_MINI(BatteriesInAnEnemyZocDoNotReact) {
  World w;
  w.Add("gun", kOrange, "foot_artillery", "0605");
  w.Add("pin", kBlue, "light_cavalry", "0705");  // keeps the gun in a ZoC
  w.Add("m", kBlue, "line_infantry", "0503");
  const auto run = RunPhase(w, kBlue, {PathOrder("m", {"0504", "0505"})});
  CHECK_EQ_MINI(EventsOf(run.events, EventKind::kReactionFire).size(), 0);
  CHECK_MINI(run.dice_ok);
}

// Digest 5.11 GAP: with elimination_bonus_scope kAll a battery whose reaction
// fire eliminates the mover regains 1 MV; with kCombatPhase it does not.
TEST_CASE_MINI(EliminationBonusScopeAllRewardsReactionFire) {
  for (const bool all : {false, true}) {
    World w;
    if (all) w.ruleset.params.elimination_bonus_scope = EliminationBonusScope::kAll;
    const UnitId gun = w.Add("gun", kOrange, "foot_artillery", "0605");
    const UnitId m = w.Add("m", kBlue, "light_cavalry", "0405");
    w.spec(m).cs = 1;
    UnitState& g = w.state().unit(gun);
    g.mv = g.mv_initial - 1;
    const int before = g.mv;
    w.state().unit(m).mv = 0;  // demoralised: the hit comes off CS
    const auto run = RunPhase(w, kBlue, {PathOrder("m", {"0505", "0506"})}, Rolls({{Die::kD6, 3}}));
    CHECK_MINI(run.dice_ok);
    CHECK_MINI(w.state().unit(m).eliminated);
    CHECK_EQ_MINI(w.state().unit(gun).mv, all ? before + 1 : before);
    const auto gained = EventsOf(run.events, EventKind::kMoraleGained);
    REQUIRE_MINI(gained.size() == (all ? 1u : 0u));
    if (all) {
      CHECK_MINI(gained[0].unit == gun);
      CHECK_MINI(gained[0].phase == Phase::kMovement);
    }
  }
}

TEST_CASE_MINI(ReactionFireComesBeforeTheObjectiveCheck) {
  World w;
  Objective o;
  o.name = "mill";
  o.kind = ObjectiveKind::kPassing;
  o.hexes = {H("0505")};
  o.initial_owner = kOrange;
  w.scenario.objectives.push_back(o);
  w.Add("gun", kOrange, "foot_artillery", "0605");
  const UnitId m = w.Add("m", kBlue, "light_cavalry", "0405");
  w.spec(m).cs = 1;
  w.state().unit(m).mv = 0;  // demoralised: the hit comes off CS
  const auto run = RunPhase(w, kBlue, {PathOrder("m", {"0505", "0506"})}, Rolls({{Die::kD6, 3}}));
  CHECK_MINI(w.state().unit(m).eliminated);
  CHECK_MINI(run.result.verdicts[0].verdict == VerdictKind::kPartial);
  CHECK_MINI(run.result.verdicts[0].reason == Reason::kEliminatedDuringMove);
  CHECK_EQ_MINI(EventsOf(run.events, EventKind::kObjectiveTaken).size(), 0);
  CHECK_MINI(w.state().objective_owners.at(H("0505")) == kOrange);
}

// ---- The whole player-turn (turn.h) -----------------------------------------------

TEST_CASE_MINI(ResolvePlayerTurnMovesAndPassesPlay) {
  World w;
  w.Add("b", kBlue, "line_infantry", "0305");
  w.Add("o", kOrange, "line_infantry", "0909");
  GameState start = w.state();
  Orders orders = w.OrdersFor(kBlue);
  orders.moves.push_back(PathOrder("b", {"0405"}));
  orders.message = "hello";
  ScriptedDice dice({});
  const TurnResult r = ResolvePlayerTurn(w.ruleset, w.scenario, start, orders, dice);
  REQUIRE_MINI(r.verdicts.size() == 1);
  CHECK_MINI(r.verdicts[0].verdict == VerdictKind::kOk);
  CHECK_EQ_MINI(r.next_state.unit(UnitId{0}).hex, H("0405"));
  CHECK_MINI(r.next_state.side_to_move == kOrange);
  CHECK_EQ_MINI(r.next_state.turn, 1);
  CHECK_EQ_MINI(r.message, std::string("hello"));
  CHECK_MINI(r.events.back().kind() == EventKind::kTurnEnd);
  // The input state is untouched.
  CHECK_EQ_MINI(start.unit(UnitId{0}).hex, H("0305"));
  // Orange's turn ends the game turn.
  Orders o2 = w.OrdersFor(kOrange);
  const TurnResult r2 = ResolvePlayerTurn(w.ruleset, w.scenario, r.next_state, o2, dice);
  CHECK_MINI(r2.next_state.side_to_move == kBlue);
  CHECK_EQ_MINI(r2.next_state.turn, 2);
  // Orders for the wrong side resolve nothing.
  const TurnResult bad = ResolvePlayerTurn(w.ruleset, w.scenario, start, o2, dice);
  REQUIRE_MINI(bad.verdicts.size() == 1);
  CHECK_MINI(bad.verdicts[0].order_kind == OrderKind::kHeader);
  CHECK_MINI(bad.next_state.side_to_move == kBlue);
}

TEST_CASE_MINI(ResolvePlayerTurnJudgesAttacksAtResolution) {
  // Bombardment and combat are resolved (bombardment_test.cc,
  // combat_test.cc); an attack on a unit two hexes away is refused.
  World w;
  w.Add("gun", kBlue, "foot_artillery", "0305");
  w.Add("o", kOrange, "line_infantry", "0505");
  Orders orders = w.OrdersFor(kBlue);
  orders.attacks.push_back(AttackOrder{"gun", "o", {}});
  ScriptedDice dice({});
  const TurnResult r = ResolvePlayerTurn(w.ruleset, w.scenario, w.state(), orders, dice);
  REQUIRE_MINI(r.verdicts.size() == 1);
  CHECK_MINI(r.verdicts[0].reason == Reason::kNotInContact);
  CHECK_MINI(!r.next_state.unit(UnitId{0}).bombarded_this_turn);
}

}  // namespace
}  // namespace pbem::engine
