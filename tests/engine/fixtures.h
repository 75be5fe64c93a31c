// Small rulesets and scenarios built in code for engine unit tests (the
// scenario catalogue uses the real data files; these tests must build with no
// codec and no third-party library).
#ifndef PBEM_TESTS_ENGINE_FIXTURES_H_
#define PBEM_TESTS_ENGINE_FIXTURES_H_

#include <string>

#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"

namespace pbem::engine::testing {

// Two movement classes (foot, horse), two terrains (clear, woods), three unit
// types (line, hussar, gun, general), a 2-column 2-row CRT.
inline Ruleset TinyRuleset() {
  Ruleset rs;
  rs.name = "tiny";
  rs.version = "1";
  rs.movement_classes = {{"foot", ""}, {"horse", ""}};
  TerrainType clear;
  clear.name = "clear";
  clear.move_costs = {MoveCost{false, 1, {}}, MoveCost{false, 1, {}}};
  clear.stuck_chance_in_4 = {0, 0};
  clear.charge_path = true;
  TerrainType woods;
  woods.name = "woods";
  woods.move_costs = {MoveCost{false, 2, {}}, MoveCost{false, 3, {}}};
  woods.stuck_chance_in_4 = {0, 0};
  woods.blocks_los = true;
  rs.terrain = {clear, woods};
  UnitType line{"line", Arm::kInfantry, MovementClassId{0}, false, false, false, {}};
  UnitType hussar{"hussar", Arm::kCavalry, MovementClassId{1}, false, false, false, {}};
  UnitType gun{"gun", Arm::kArtillery, MovementClassId{0}, false, false, false, {}};
  UnitType general{"general", Arm::kLeader, MovementClassId{1}, false, false, false, {}};
  rs.unit_types = {line, hussar, gun, general};
  rs.crt.columns = {*ParseOddsColumn("1-1"), *ParseOddsColumn("2-1")};
  rs.crt.min_result = 0;
  rs.crt.max_result = 1;
  rs.crt.rows = {{*ParseCrtCell("1*/0"), *ParseCrtCell("0/1")},
                 {*ParseCrtCell("1/1"), *ParseCrtCell("0/2*")}};
  rs.params.leaders_move_as = "horse";
  return rs;
}

inline UnitSpec MakeUnit(std::string id, Side side, UnitTypeId type, Arm arm, Hex at) {
  UnitSpec u;
  u.id = std::move(id);
  u.name = u.id;
  u.side = side;
  u.corps = "I";
  u.type = type;
  u.arm = arm;
  u.cs = 4;
  u.mv = arm == Arm::kLeader ? 0 : 4;
  u.ma = 3;
  u.range = arm == Arm::kArtillery ? 3 : 0;
  u.bv = arm == Arm::kArtillery ? 3 : 0;
  u.command_radius = arm == Arm::kLeader ? 2 : 0;
  u.start_hex = at;
  return u;
}

// A 6x5 clear map: blue line "b1" at 0202, blue gun "b2" at 0302, orange
// hussar "o1" at 0204, orange line "o2" at 0504; blue deploys in rows 1-2.
inline Scenario TinyScenario() {
  Scenario s;
  s.name = "tiny";
  s.ruleset = "tiny";
  s.map = Map(6, 5, TerrainId{0});
  s.units = {
      MakeUnit("b1", Side::kBlue, UnitTypeId{0}, Arm::kInfantry, *ParseLabel("0202")),
      MakeUnit("b2", Side::kBlue, UnitTypeId{2}, Arm::kArtillery, *ParseLabel("0302")),
      MakeUnit("o1", Side::kOrange, UnitTypeId{1}, Arm::kCavalry, *ParseLabel("0204")),
      MakeUnit("o2", Side::kOrange, UnitTypeId{0}, Arm::kInfantry, *ParseLabel("0504")),
  };
  for (int col = 0; col < 6; ++col) {
    for (int row = 0; row < 2; ++row) s.deployment[0].insert(FromOffset({col, row}));
    for (int row = 3; row < 5; ++row) s.deployment[1].insert(FromOffset({col, row}));
  }
  s.turns = 12;
  return s;
}

inline Hex L(const char* label) { return *ParseLabel(label); }

}  // namespace pbem::engine::testing

#endif  // PBEM_TESTS_ENGINE_FIXTURES_H_
