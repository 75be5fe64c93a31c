#include "engine/morne_plaine/rally.h"

#include "engine/morne_plaine/game_state.h"
#include "tests/engine/fixtures.h"
#include "tests/engine/mini_test.h"

namespace pbem::engine {
namespace {

using testing::L;
using testing::MakeUnit;
using testing::TinyRuleset;

// A 8x6 clear map: blue leader "bl" (radius 2) at 0303, blue line "b1" at
// 0304 (adjacent, SW of... see each test), orange line "o1" far away.
struct RallyWorld {
  Ruleset ruleset = TinyRuleset();
  Scenario scenario;
  GameState state;

  RallyWorld() {
    scenario.name = "rally";
    scenario.map = Map(8, 6, TerrainId{0});
    UnitSpec leader = MakeUnit("bl", Side::kBlue, UnitTypeId{3}, Arm::kLeader, L("0303"));
    scenario.units = {
        leader,
        MakeUnit("b1", Side::kBlue, UnitTypeId{0}, Arm::kInfantry, L("0403")),
        MakeUnit("o1", Side::kOrange, UnitTypeId{0}, Arm::kInfantry, L("0806")),
    };
    state = InitialState(scenario, "g");
  }
  UnitState& b1() { return state.units[1]; }
  void Rally() { ResolveRallyPhase(ruleset, scenario, state, Side::kBlue, events); }
  std::vector<Event> events;
};

TEST_CASE_MINI(RallyBothConditionsGiveTwo) {
  RallyWorld w;
  w.b1().mv = 1;  // initial 4; adjacent (E of the leader), unmoved, in range
  w.Rally();
  CHECK_EQ_MINI(w.b1().mv, 3);
  REQUIRE_MINI(w.events.size() == 1);
  CHECK_MINI(w.events[0].get<payload::Rally>()->conditions == "command+adjacent");
}

TEST_CASE_MINI(RallyNeverAboveInitial) {
  RallyWorld w;
  w.b1().mv = 3;
  w.Rally();
  CHECK_EQ_MINI(w.b1().mv, 4);
}

TEST_CASE_MINI(RallyInRangeNotAdjacentGivesOne) {
  RallyWorld w;
  w.b1().hex = L("0503");  // distance 2 = radius
  w.b1().mv = 2;
  w.Rally();
  CHECK_EQ_MINI(w.b1().mv, 3);
}

TEST_CASE_MINI(RallyMovedUnitKeepsOnlyAdjacency) {
  RallyWorld w;
  w.b1().mv = 2;
  w.b1().moved_this_turn = true;
  w.Rally();
  CHECK_EQ_MINI(w.b1().mv, 3);
}

TEST_CASE_MINI(RallyDemoralisedOnlyNextToLeader) {
  RallyWorld w;
  w.b1().mv = 0;
  w.Rally();
  CHECK_EQ_MINI(w.b1().mv, 1);  // adjacent: +1, not +2 (digest 6.1)
  RallyWorld far;
  far.b1().hex = L("0503");
  far.b1().mv = 0;
  far.Rally();
  CHECK_EQ_MINI(far.b1().mv, 0);
}

TEST_CASE_MINI(RallyV2006HasNoDemoralisedSpecialCase) {
  RallyWorld w;
  w.ruleset.params.rally_model = RallyModel::kV2006;
  w.b1().mv = 0;
  w.Rally();
  CHECK_EQ_MINI(w.b1().mv, 2);
}

TEST_CASE_MINI(RallyNotInEnemyControl) {
  RallyWorld w;
  w.b1().hex = L("0503");
  w.b1().mv = 2;
  w.state.units[2].hex = L("0603");  // orange line next to b1: b1's hex is controlled
  w.Rally();
  CHECK_EQ_MINI(w.b1().mv, 2);
}

TEST_CASE_MINI(RallyAdjacencyNotAcrossAStream) {
  RallyWorld w;
  w.b1().mv = 1;
  w.scenario.map.SetSide(*SideBetween(L("0303"), L("0403")),
                         HexsideInfo{Water::kStream, Crossing::kBridge});
  w.Rally();
  CHECK_EQ_MINI(w.b1().mv, 2);  // condition 1 only
  CHECK_MINI(!RallyAdjacent(w.scenario.map, L("0303"), L("0403")));
}

TEST_CASE_MINI(IndependentUnitsAndTheOtherSideNeverRally) {
  RallyWorld w;
  w.scenario.units[1].independent = true;
  w.b1().mv = 1;
  w.state.units[2].mv = 1;
  w.Rally();
  CHECK_EQ_MINI(w.b1().mv, 1);
  CHECK_EQ_MINI(w.state.units[2].mv, 1);
}

TEST_CASE_MINI(RallyWithoutLeaderOnMap) {
  RallyWorld w;
  w.state.units[0].eliminated = true;
  w.state.units[0].hex.reset();
  w.b1().mv = 2;
  w.Rally();
  CHECK_EQ_MINI(w.b1().mv, 2);
}

}  // namespace
}  // namespace pbem::engine
