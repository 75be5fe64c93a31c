// M42's ruleset and scenario codec (proto/codec/m42_codec.h) from inline text: unset fields take
// the digest's defaults, values round-trip engine -> proto -> engine -> proto, and hostile inputs
// fail with the file, the line:column, the field and the valid range. The bundled data files are
// checked against the engine's own values in tests/engine/system/m42_codec_test.cc.
#include "proto/codec/m42_codec.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/m42/ruleset.h"
#include "engine/m42/scenarios.h"
#include "tests/proto/test_data.h"

namespace pbem::codec {
namespace {

using testing::ColumnOf;
using testing::LineOf;

std::string Bytes(const google::protobuf::Message& message) {
  return SerializeMessage(message, Format::kBinary);
}

std::string At(std::string_view file, std::string_view text, std::string_view needle) {
  return std::string(file) + ":" + std::to_string(LineOf(text, needle)) + ":" +
         std::to_string(ColumnOf(text, needle));
}

// The one error of a ruleset made of `text`, as "where: message".
std::string RulesetError(const std::string& text) {
  const auto loaded = LoadM42RulesetFiles({{"r.textproto", text}});
  REQUIRE_FALSE(loaded.ok());
  INFO(loaded.ErrorText());
  REQUIRE(loaded.errors().size() == 1);
  return loaded.errors().front().ToString();
}

// A small valid scenario: two players, one unit each, a hill, a building.
const char kScenario[] = R"txt(name: "probe"
table_width_in: 24000
table_height_in: 24000
players: ["blue", "red"]
terrain {
  hills { id: "rise" steps { points [{ x_in: 1000 y_in: 1000 }, { x_in: 5000 y_in: 1000 },
                                     { x_in: 5000 y_in: 5000 }] } }
  structures {
    id: "hut"
    floors { level: 1 polygon { points { x_in: 10000 y_in: 10000 }
                                points { x_in: 14000 y_in: 10000 }
                                points { x_in: 14000 y_in: 14000 } } }
    walls { from { x_in: 10000 y_in: 10000 } to { x_in: 14000 y_in: 10000 } height_in: 4000
            openings { from_in: 1000 to_in: 2500 } }
  }
}
units { id: "b1" owner: "blue" mv: 5 }
units { id: "r1" owner: "red" mv: 6 leaper: true spread_in: 3000 }
models { id: "b1_1" unit: "b1" pos { x_in: 2000 y_in: 20000 } }
models { id: "r1_1" unit: "r1" pos { x_in: 20000 y_in: 20000 } facing_mdeg: 270000
         base_diameter_in: 1260 }
)txt";

std::string Replace(std::string text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// The first error of kScenario with `from` replaced by `to` (a bad id may have consequences).
std::string ScenarioError(std::string_view from, std::string_view to) {
  const auto loaded =
      LoadM42ScenarioText(Replace(kScenario, from, to), "s.textproto", m42::DefaultRuleset());
  REQUIRE_FALSE(loaded.ok());
  UNSCOPED_INFO(loaded.ErrorText());
  return loaded.errors().front().ToString();
}

TEST_CASE("an empty M42 ruleset file is the digest's defaults", "[m42]") {
  const auto loaded = LoadM42RulesetFiles({{"empty.textproto", "# nothing set\n"}});
  INFO(loaded.ErrorText());
  REQUIRE(loaded.ok());
  CHECK(Bytes(M42RulesetToProto(loaded.value().ruleset)) ==
        Bytes(M42RulesetToProto(m42::DefaultRuleset())));
}

TEST_CASE("M42 ruleset files merge: a later file overrides, an unset key keeps its default",
          "[m42]") {
  const auto loaded = LoadM42RulesetFiles(
      {{"00.textproto", "epsilon_in: 20\nmeasure: M42_MEASURE_CENTRE\n"},
       {"10.textproto", "epsilon_in: 30\naction_move_factor { open_fire: 1 }\n"}});
  INFO(loaded.ErrorText());
  REQUIRE(loaded.ok());
  const m42::Ruleset& r = loaded.value().ruleset;
  CHECK(r.epsilon_in == 30);
  CHECK(r.measure == m42::Measure::kCentre);
  CHECK(r.action_move_factor == std::array<int, m42::kActionCount>{1, 2, 1, 0});
  CHECK(r.coherency_in == m42::DefaultRuleset().coherency_in);
}

TEST_CASE("an M42 ruleset round-trips proto -> engine -> proto", "[m42]") {
  m42::Ruleset changed = m42::DefaultRuleset();
  changed.measure = m42::Measure::kCentre;
  changed.difficult_model = m42::DifficultModel::kHalvePerFeature;
  changed.table_edge = m42::TableEdge::kNone;
  changed.opening_requires_fit = false;
  changed.obstacle_bands_normal = {{1500, false, m42::Going{.slow = true}}, {{}, true, {}}};
  changed.max_path_vertices = 200;
  for (const m42::Ruleset& r : {m42::DefaultRuleset(), changed}) {
    const pbem::v1::M42Ruleset proto = M42RulesetToProto(r);
    const auto back = M42RulesetFromProto(proto, "archive");
    INFO(back.ErrorText());
    REQUIRE(back.ok());
    CHECK(Bytes(M42RulesetToProto(back.value().ruleset)) == Bytes(proto));
    // And through text, as the data files are written.
    const auto text =
        LoadM42RulesetFiles({{"t.textproto", SerializeMessage(proto, Format::kText)}});
    REQUIRE(text.ok());
    CHECK(Bytes(M42RulesetToProto(text.value().ruleset)) == Bytes(proto));
  }
}

TEST_CASE("hostile M42 rulesets name the file, line:column, field and range", "[m42]") {
  SECTION("a length out of range") {
    const std::string text = "coherency_in: 2000\nepsilon_in: 5000\n";
    CHECK(RulesetError(text) ==
          At("r.textproto", text, "epsilon_in") + ": epsilon_in: must be 0..1000, got 5000");
  }
  SECTION("a negative length") {
    const std::string text = "linear_obstacle_thickness_in: -1\n";
    CHECK(RulesetError(text) ==
          "r.textproto:1:1: linear_obstacle_thickness_in: must be 0..100000, got -1");
  }
  SECTION("an unknown enum value") {
    const std::string error = RulesetError("\nmeasure: M42_MEASURE_SIDEWAYS\n");
    CHECK(error.rfind("r.textproto:2:", 0) == 0);
    CHECK(error.find("M42_MEASURE_SIDEWAYS") != std::string::npos);
    CHECK(error.find("measure") != std::string::npos);
  }
  SECTION("an enum set to UNSPECIFIED, or to a number it does not know") {
    CHECK(RulesetError("table_edge: M42_TABLE_EDGE_UNSPECIFIED\n") ==
          "r.textproto:1:1: table_edge: must be one of M42_TABLE_EDGE_WALL, M42_TABLE_EDGE_NONE, "
          "got M42_TABLE_EDGE_UNSPECIFIED");
    const auto loaded = LoadM42RulesetFiles({{"r.textproto", "table_edge: 7\n"}});
    REQUIRE_FALSE(loaded.ok());
    CHECK(loaded.ErrorText().find("table_edge") != std::string::npos);
  }
  SECTION("an action factor out of range") {
    const std::string text = "action_move_factor {\n  advance: 1\n  get_down: 101\n}\n";
    CHECK(RulesetError(text) ==
          "r.textproto:3:3: action_move_factor.get_down: must be 0..100, "
          "got 101");
  }
  SECTION("a value the engine does not implement (CheckRuleset)") {
    CHECK(RulesetError("epsilon_in: 10\nleader_moves_first: true\n") ==
          "r.textproto:2:1: leader_moves_first: this value is not implemented by the engine");
  }
  SECTION("bands that do not increase (CheckRuleset), at the message holding them") {
    const std::string text =
        "obstacle_bands {\n  leaper { max_in: 3000 }\n  leaper { max_in: 2000 }\n}\n";
    const std::string error = RulesetError(text);
    CHECK(error ==
          "r.textproto:1:1: obstacle_bands.leaper: bands must have increasing max_in, "
          "only the last without one");
  }
  SECTION("too many bands") {
    std::string text = "obstacle_bands {\n";
    for (int i = 0; i < 17; ++i) text += "  normal { max_in: " + std::to_string(i) + " }\n";
    text += "}\n";
    CHECK(RulesetError(text) ==
          "r.textproto:1:1: obstacle_bands.normal: needs 1..16 entries, got 17");
  }
  SECTION("an error in a later file names that file") {
    const auto loaded = LoadM42RulesetFiles(
        {{"00.textproto", "epsilon_in: 10\n"}, {"10.textproto", "\n\nmax_path_vertices: 1\n"}});
    REQUIRE_FALSE(loaded.ok());
    CHECK(loaded.ErrorText() == "10.textproto:3:1: max_path_vertices: must be 2..10000, got 1\n");
  }
  SECTION("an unknown field") {
    CHECK(RulesetError("epsilon_in: 10\nepsilon_cm: 3\n").rfind("r.textproto:2:", 0) == 0);
  }
}

TEST_CASE("an M42 scenario decodes, and round-trips proto -> engine -> proto", "[m42]") {
  const auto loaded = LoadM42ScenarioText(kScenario, "s.textproto", m42::DefaultRuleset());
  INFO(loaded.ErrorText());
  REQUIRE(loaded.ok());
  const m42::Scenario& s = loaded.value().scenario;
  CHECK(s.table_width_in == 24000);
  CHECK(s.players == std::vector<std::string>{"blue", "red"});
  REQUIRE(s.models.size() == 2);
  CHECK(s.models[0].facing_mdeg == 90000);  // unset: the default
  CHECK(s.models[1].pos.x() == m42::ToUnits(20000));
  CHECK(s.models[1].base_diameter_in == m42::Thou{1260});
  REQUIRE(s.terrain.structures.size() == 1);
  REQUIRE(s.terrain.structures[0].walls.size() == 1);
  CHECK(s.terrain.structures[0].walls[0].wall.openings[0].to == m42::ToUnits(2500));

  const pbem::v1::M42Scenario once = M42ScenarioToProto(s, "probe", "");
  const auto again = M42ScenarioFromProto(once, "archive", m42::DefaultRuleset());
  INFO(again.ErrorText());
  REQUIRE(again.ok());
  CHECK(Bytes(M42ScenarioToProto(again.value().scenario, "probe", "")) == Bytes(once));

  // The bundled scenario built in C++, through the proto and back.
  const pbem::v1::M42Scenario station =
      M42ScenarioToProto(m42::PumpingStation(), "pumping_station", "m42_movement_v0_5");
  const auto back = M42ScenarioFromProto(station, "archive", m42::DefaultRuleset());
  INFO(back.ErrorText());
  REQUIRE(back.ok());
  CHECK(Bytes(M42ScenarioToProto(back.value().scenario, "pumping_station", "m42_movement_v0_5")) ==
        Bytes(station));
}

TEST_CASE("hostile M42 scenarios name the file, line:column, field and range", "[m42]") {
  SECTION("a table length out of range") {
    CHECK(ScenarioError("table_width_in: 24000", "table_width_in: 2000000") ==
          "s.textproto:2:1: table_width_in: must be 1..1000000, got 2000000");
  }
  SECTION("a missing required field: the table") {
    CHECK(ScenarioError("table_height_in: 24000\n", "") ==
          "s.textproto: table_height_in: must be 1..1000000, got 0");
  }
  SECTION("a duplicate model id, at the second") {
    CHECK(ScenarioError("id: \"r1_1\"", "id: \"b1_1\"") ==
          "s.textproto:20:10: models[1].id: duplicate id 'b1_1'");
  }
  SECTION("a missing required field: a model's position, at the model") {
    CHECK(ScenarioError(" pos { x_in: 2000 y_in: 20000 }", "") ==
          "s.textproto:19:1: models[0].pos: missing (a point is required)");
  }
  SECTION("a coordinate out of range") {
    CHECK(ScenarioError("x_in: 20000 y_in: 20000", "x_in: 20000 y_in: -3000000") ==
          "s.textproto:20:50: models[1].pos.y_in: must be -1000000..1000000, got -3000000");
  }
  SECTION("an opening beyond its start") {
    CHECK(ScenarioError("from_in: 1000 to_in: 2500", "from_in: 1000 to_in: 500") ==
          "s.textproto:14:38: terrain.structures[0].walls[0].openings[0].to_in: must be "
          "1000..1000000, got 500");
  }
  SECTION("a polygon of two points, in a bracket list") {
    CHECK(ScenarioError(", { x_in: 5000 y_in: 1000 }", "") ==
          "s.textproto:6:22: terrain.hills[0].steps[0].points: needs 3..1000 entries, got 2");
  }
  SECTION("a polygon whose edges cross") {
    const std::string error =
        ScenarioError("{ x_in: 5000 y_in: 1000 }", "{ x_in: 5000 y_in: 5000 }");
    CHECK(error.find("terrain.hills[0].steps[0]: not a simple polygon") != std::string::npos);
  }
  SECTION("an id that is not one") {
    CHECK(ScenarioError("id: \"b1\"", "id: \"b 1\"") ==
          "s.textproto:17:9: units[0].id: 'b 1' is not an id (1 to 64 letters, digits, '_', "
          "'-' or '.')");
  }
  SECTION("a model of an unknown unit") {
    CHECK(ScenarioError("unit: \"r1\"", "unit: \"r9\"") ==
          "s.textproto:20:21: models[1].unit: 'r9' is not one of the scenario's units");
  }
  SECTION("a unit of an unknown player") {
    CHECK(ScenarioError("owner: \"red\"", "owner: \"green\"") ==
          "s.textproto:18:18: units[1].owner: 'green' is not one of the players");
  }
  SECTION("a huge or multi-line name is shown cut, never whole (codec::Shown)") {
    const std::string huge(30000, 'g');
    CHECK(ScenarioError("owner: \"red\"", "owner: \"" + huge + "\"") ==
          "s.textproto:18:18: units[1].owner: '" + std::string(64, 'g') +
              "...' is not one of the players");
    CHECK(ScenarioError("unit: \"r1\"", "unit: \"r\\nFrom: x\"") ==
          "s.textproto:20:21: models[1].unit: 'r?From: x' is not one of the scenario's units");
  }
  SECTION("the engine's own check (InitialState): a floor of an unknown structure") {
    CHECK(ScenarioError("y_in: 20000 } }", "y_in: 20000 } floor: 1 structure: \"shed\" }") ==
          "s.textproto:19:1: models[0]: refused by the engine: unknown_structure b1_1");
  }
  SECTION("a scenario written for another ruleset") {
    CHECK(ScenarioError("name: \"probe\"", "name: \"probe\" ruleset: \"m42_v9\"") ==
          "s.textproto:1:15: ruleset: the scenario is written for 'm42_v9', the ruleset is "
          "'m42_movement_v0_5'");
  }
  SECTION("an unknown field") {
    const std::string error = ScenarioError("mv: 5", "mv: 5 speed: 3");
    CHECK(error.rfind("s.textproto:17:", 0) == 0);
    CHECK(error.find("speed") != std::string::npos);
  }
}

}  // namespace
}  // namespace pbem::codec
