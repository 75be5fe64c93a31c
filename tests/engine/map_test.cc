#include "engine/morne_plaine/map.h"

#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/scenario.h"
#include "tests/engine/fixtures.h"
#include "tests/engine/mini_test.h"

namespace pbem::engine {
namespace {

using testing::L;
using testing::MakeUnit;
using testing::TinyScenario;

TEST_CASE_MINI(MapContainsExactlyItsRectangle) {
  const Map map(4, 3, TerrainId{0});
  CHECK_MINI(map.Contains(L("0101")));
  CHECK_MINI(map.Contains(L("0403")));
  CHECK_MINI(!map.Contains(L("0501")));
  CHECK_MINI(!map.Contains(L("0104")));
  CHECK_MINI(!map.Contains(Neighbor(L("0101"), Direction::kW)));
  CHECK_MINI(!map.Contains(Neighbor(L("0101"), Direction::kNE)));
  CHECK_EQ_MINI(map.AllHexes().size(), 12);
  for (const Hex& h : map.AllHexes()) CHECK_MINI(map.Contains(h));
}

TEST_CASE_MINI(TerrainLevelsAndSlopes) {
  Map map(4, 3, TerrainId{0});
  map.SetTerrain(L("0202"), TerrainId{1});
  map.SetLevel(L("0202"), 2);
  CHECK_EQ_MINI(map.terrain(L("0202")).value, 1);
  CHECK_EQ_MINI(map.terrain(L("0201")).value, 0);
  const Hexside side = *SideBetween(L("0202"), L("0302"));
  CHECK_EQ_MINI(map.SlopeCount(side), 2);
  CHECK_EQ_MINI(map.SlopeCount(*SideBetween(L("0302"), L("0202"))), 2);
}

TEST_CASE_MINI(HexsideFeaturesAreSharedByBothHexes) {
  Map map(4, 3, TerrainId{0});
  // Set from one hex (W side of 0302), read from the other (E side of 0202).
  map.SetSide(SideOf(L("0302"), Direction::kW), HexsideInfo{Water::kStream, Crossing::kBridge});
  const HexsideInfo info = map.side(SideOf(L("0202"), Direction::kE));
  CHECK_MINI(info.water == Water::kStream);
  CHECK_MINI(info.crossing == Crossing::kBridge);
  CHECK_MINI(map.side(SideOf(L("0202"), Direction::kW)).water == Water::kNone);
}

TEST_CASE_MINI(RoutesKnowTheirSidesAndHexes) {
  Map map(5, 3, TerrainId{0});
  const int road = map.AddRoute(Route{"main", false, {L("0101"), L("0201"), L("0301")}});
  const int track = map.AddRoute(Route{"lane", true, {L("0201"), L("0202")}});
  const auto& along = map.RoutesAlong(*SideBetween(L("0201"), L("0101")));
  CHECK_EQ_MINI(along.size(), 1);
  CHECK_EQ_MINI(along.front(), road);
  CHECK_EQ_MINI(map.RoutesThrough(L("0201")).size(), 2);
  CHECK_EQ_MINI(map.RoutesAlong(*SideBetween(L("0201"), L("0202"))).front(), track);
  CHECK_MINI(map.RoutesAlong(*SideBetween(L("0101"), L("0102"))).empty());
  CHECK_MINI(map.routes()[1].track);
}

// The index only speeds FindUnit and LeaderOf up: the same answers with and
// without it, also once the units were edited after indexing.
TEST_CASE_MINI(ScenarioIndexGivesTheSameAnswersAsTheScan) {
  Scenario s = TinyScenario();
  s.units.push_back(MakeUnit("bg", Side::kBlue, UnitTypeId{0}, Arm::kLeader, L("0101")));
  const Scenario plain = s;
  s.IndexUnits();
  for (const char* id : {"b1", "b2", "o1", "o2", "bg", "zz"}) {
    CHECK_MINI(s.FindUnit(id) == plain.FindUnit(id));
  }
  CHECK_MINI(s.FindUnit("o2") == UnitId{3});
  CHECK_MINI(s.LeaderOf(Side::kBlue, "I") == UnitId{4});
  CHECK_MINI(!s.LeaderOf(Side::kOrange, "I").has_value());
  // Stale entries: a renamed unit, an appended one, a leader moved to
  // another corps. The index is not rebuilt; the answers follow `units`.
  s.units[1].id = "b2-renamed";
  s.units.push_back(MakeUnit("b9", Side::kBlue, UnitTypeId{0}, Arm::kInfantry, L("0103")));
  s.units[4].corps = "II";
  CHECK_MINI(!s.FindUnit("b2").has_value());
  CHECK_MINI(s.FindUnit("b2-renamed") == UnitId{1});
  CHECK_MINI(s.FindUnit("b9") == UnitId{5});
  CHECK_MINI(!s.LeaderOf(Side::kBlue, "I").has_value());
  CHECK_MINI(s.LeaderOf(Side::kBlue, "II") == UnitId{4});
}

TEST_CASE_MINI(ScenarioValidationFindsStackingAndOffMapUnits) {
  Scenario s = TinyScenario();
  CHECK_EQ_MINI(ValidateScenario(s).size(), 0);
  s.units[1].start_hex = s.units[0].start_hex;
  const auto stacked = ValidateScenario(s);
  REQUIRE_MINI(stacked.size() == 1);
  CHECK_MINI(stacked[0].message.find("no stacking") != std::string::npos);
  s = TinyScenario();
  s.units[2].start_hex = L("0909");
  const auto off = ValidateScenario(s);
  REQUIRE_MINI(off.size() == 1);
  CHECK_MINI(off[0].message.find("off the map at 0909") != std::string::npos);
  s = TinyScenario();
  s.units[3].id = "b1";
  CHECK_MINI(ValidateScenario(s).size() == 1);
}

TEST_CASE_MINI(InitialStateCopiesScenarioValues) {
  const Scenario s = TinyScenario();
  const GameState st = InitialState(s, "g");
  CHECK_EQ_MINI(st.units.size(), s.units.size());
  CHECK_EQ_MINI(st.turn, 1);
  CHECK_MINI(st.side_to_move == Side::kBlue);
  CHECK_EQ_MINI(st.units[0].cs, 4);
  CHECK_EQ_MINI(st.units[0].mv_initial, 4);
  CHECK_MINI(st.UnitAt(L("0302")) == std::optional<UnitId>(UnitId{1}));
  CHECK_MINI(!st.UnitAt(L("0101")).has_value());
}

}  // namespace
}  // namespace pbem::engine
