// Inline inputs shared by the codec tests: a tiny valid ruleset split over
// three files, and helpers to find where a piece of text is.
#ifndef PBEM_TESTS_PROTO_TEST_DATA_H_
#define PBEM_TESTS_PROTO_TEST_DATA_H_

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "proto/codec/codec.h"

namespace pbem::codec::testing {

inline const char kBaseFile[] = R"txt(# identity and movement classes
name: "mini"
version: "1"
movement_classes { name: "foot" }
movement_classes { name: "horse" }
parameters {
  leaders_move_as: "horse"
  charge_cs_multiplier: "2"
  bombard_model { die: DIE_D9 }
}
)txt";

inline const char kTerrainFile[] = R"txt(# terrain
terrain {
  name: "clear"
  move_costs { movement_class: "foot" cost: 1 }
  move_costs { movement_class: "horse" cost: 1 }
  charge_path: true
}
terrain {
  name: "woods"
  move_costs { movement_class: "foot" cost: 2 }
  move_costs { movement_class: "horse" impassable: true }
  blocks_los: true
}
terrain {
  name: "fort"
  move_costs { movement_class: "foot" cost: 1 }
  move_costs { movement_class: "horse" cost: 2 }
  fort: true
}
)txt";

inline const char kUnitsFile[] = R"txt(# units and combat
unit_types {
  name: "infantry"
  arm: ARM_INFANTRY
  movement_class: "foot"
  defaults { cs: 5 mv: 4 ma: 3 }
}
unit_types {
  name: "general"
  arm: ARM_LEADER
  movement_class: "horse"
  defaults { cs: 1 ma: 6 command_radius: 2 }
}
unit_types {
  name: "gun"
  arm: ARM_ARTILLERY
  movement_class: "foot"
  defaults { cs: 2 mv: 3 ma: 2 }
}
crt {
  columns: ["1-1", "2-1", "3-1"]
  min_result: 0
  max_result: 1
  rows { result: 1 cells: ["1/1", "0/1*", "0/2*"] }
  rows { result: 0 cells: ["2*/0", "1/0", "1/1"] }
}
terrain_combat { terrain: "woods" cs_multiplier: "3/2" attacker_die_modifier: 1 }
)txt";

inline std::vector<NamedText> MiniRulesetFiles() {
  return {{"00-base.textproto", kBaseFile},
          {"10-terrain.textproto", kTerrainFile},
          {"20-units.textproto", kUnitsFile}};
}

// A small scenario for the mini ruleset.
inline const char kScenario[] = R"txt(name: "skirmish"
ruleset: "mini"
width: 6
height: 5
default_terrain: "clear"
turns: 4
first_side: SIDE_BLUE
hexes { areas: "0201:0302" terrain: "woods" level: 1 }
hexes { hexes: "0505" terrain: "fort" fort_owner: SIDE_ORANGE }
hexsides { sides: ["0303:E", "0303:SE"] water: WATER_STREAM }
hexsides { sides: "0404:W" water: WATER_RIVER crossing: CROSSING_BRIDGE }
roads { name: "chaussee" hexes: ["0101", "0201", "0301"] }
tracks { hexes: ["0105", "0205"] }
objectives { name: "fort" kind: OBJECTIVE_OCCUPIED hexes: "0505" vp_blue: 2 vp_orange: 1 initial_owner: SIDE_ORANGE }
deployment_zones { side: SIDE_BLUE areas: "0101:0601" }
units { id: "b-inf-1" side: SIDE_BLUE corps: "I" type: "infantry" start_hex: "0102" }
units { id: "b-gen-1" side: SIDE_BLUE corps: "I" type: "general" start_hex: "0103" }
units { id: "b-gun-1" side: SIDE_BLUE corps: "I" type: "gun" bv: 4 range: 3 start_hex: "0104" }
units { id: "o-inf-1" side: SIDE_ORANGE corps: "A" type: "infantry" cs: 6 start_hex: "0605" }
units { id: "o-res-1" side: SIDE_ORANGE corps: "A" type: "infantry" }
)txt";

// The mini ruleset, loaded (the test fails if it does not load).
inline engine::Ruleset MiniRuleset() {
  const auto loaded = LoadRulesetFiles(MiniRulesetFiles());
  if (!loaded.ok()) throw std::runtime_error(loaded.ErrorText());
  return loaded.value().ruleset;
}

// The skirmish scenario (kScenario) on `ruleset`, loaded (the test fails if it does not load).
inline engine::Scenario Skirmish(const engine::Ruleset& ruleset) {
  const auto loaded = LoadScenarioText(kScenario, "s.textproto", ruleset);
  if (!loaded.ok()) throw std::runtime_error(loaded.ErrorText());
  return loaded.value().scenario;
}

// 1-based line of the first occurrence of `needle` in `text` (0 if absent).
inline int LineOf(std::string_view text, std::string_view needle) {
  const auto at = text.find(needle);
  if (at == std::string_view::npos) return 0;
  int line = 1;
  for (std::size_t i = 0; i < at; ++i) line += text[i] == '\n' ? 1 : 0;
  return line;
}

// 1-based column of the first occurrence of `needle` (no tabs in test data).
inline int ColumnOf(std::string_view text, std::string_view needle) {
  const auto at = text.find(needle);
  if (at == std::string_view::npos) return 0;
  const auto line_start = text.rfind('\n', at);
  return static_cast<int>(at - (line_start == std::string_view::npos ? 0 : line_start + 1)) + 1;
}

// Replaces the first `from` in `text` by `to`.
inline std::string Replace(std::string text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace pbem::codec::testing

#endif  // PBEM_TESTS_PROTO_TEST_DATA_H_
