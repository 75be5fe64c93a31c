// Rulesets from inline files: a valid one loads; each broken one fails with
// the file, the line and the field in the message.
#include <algorithm>
#include <catch2/catch.hpp>
#include <utility>
#include <vector>

#include "proto/codec/codec.h"
#include "tests/proto/test_data.h"

namespace pbem::codec {
namespace {

using testing::ColumnOf;
using testing::kBaseFile;
using testing::kTerrainFile;
using testing::kUnitsFile;
using testing::LineOf;
using testing::MiniRulesetFiles;
using testing::Replace;

std::string At(std::string_view file, std::string_view text, std::string_view needle) {
  return std::string(file) + ":" + std::to_string(LineOf(text, needle)) + ":" +
         std::to_string(ColumnOf(text, needle));
}

// Loads the mini ruleset with `file` replaced by `text`; expects failure.
std::vector<Error> Broken(std::string_view file, const std::string& text) {
  auto files = MiniRulesetFiles();
  for (NamedText& f : files) {
    if (f.name == file) f.text = text;
  }
  const auto loaded = LoadRulesetFiles(files);
  REQUIRE_FALSE(loaded.ok());
  UNSCOPED_INFO(loaded.ErrorText());
  return loaded.errors();
}

TEST_CASE("a valid ruleset merged from three files loads", "[ruleset]") {
  const auto loaded = LoadRulesetFiles(MiniRulesetFiles());
  INFO(loaded.ErrorText());
  REQUIRE(loaded.ok());
  const engine::Ruleset& rs = loaded.value().ruleset;
  CHECK(rs.name == "mini");
  CHECK(rs.movement_classes.size() == 2);
  REQUIRE(rs.terrain.size() == 3);
  CHECK(rs.unit_types.size() == 3);
  // Costs indexed by movement class.
  const auto foot = *rs.FindMovementClass("foot");
  const auto horse = *rs.FindMovementClass("horse");
  const engine::TerrainType& woods = rs.terrain_type(*rs.FindTerrain("woods"));
  REQUIRE(woods.move_costs[foot.index()].has_value());
  CHECK(woods.move_costs[foot.index()]->cost == 2);
  CHECK(woods.move_costs[horse.index()]->impassable);
  CHECK(woods.blocks_los);
  // Unit types.
  const engine::UnitType& general = rs.unit_type(*rs.FindUnitType("general"));
  CHECK(general.arm == engine::Arm::kLeader);
  CHECK(general.movement_class == horse);
  CHECK(general.defaults.command_radius == 2);
  CHECK_FALSE(general.defaults.mv.has_value());
  // CRT rows are stored by result, whatever the order in the file.
  REQUIRE(rs.crt.columns.size() == 3);
  CHECK(rs.crt.columns[1].label == "2-1");
  REQUIRE(rs.crt.rows.size() == 2);
  CHECK(rs.crt.rows[0][0].attacker_loss == 2);
  CHECK(rs.crt.rows[0][0].attacker_test);
  CHECK(rs.crt.rows[1][2].defender_loss == 2);
  // Terrain effects and parameters.
  REQUIRE(rs.terrain_combat.size() == 1);
  CHECK(rs.terrain_combat[0].terrain == *rs.FindTerrain("woods"));
  CHECK(rs.terrain_combat[0].cs_multiplier == engine::Rational(3, 2));
  CHECK(rs.params.leaders_move_as == "horse");
  CHECK(rs.params.charge_cs_multiplier == engine::Rational(2));
  CHECK(rs.params.bombard.die_faces == 9);
  // Absent parameters keep the digest defaults.
  CHECK(rs.params.water_attack_multiplier == engine::Rational(1, 2));
  CHECK(rs.hexsides.stream_cost == 1);
  CHECK(rs.routes.track_slope_costs.size() == 4);
  // The merged message is kept for archives.
  CHECK(loaded.value().proto.terrain_size() == 3);
}

TEST_CASE("the same ruleset converts from a merged message", "[ruleset]") {
  const auto loaded = LoadRulesetFiles(MiniRulesetFiles());
  REQUIRE(loaded.ok());
  const auto again = RulesetFromProto(loaded.value().proto, "archive");
  REQUIRE(again.ok());
  CHECK(again.value().ruleset.terrain.size() == 3);

  pbem::v1::Ruleset broken = loaded.value().proto;
  broken.mutable_terrain(1)->mutable_move_costs(0)->set_movement_class("hoof");
  const auto bad = RulesetFromProto(broken, "archive");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.errors().front().where == "archive");
  CHECK(bad.errors().front().message.find("terrain[1].move_costs[0].movement_class: unknown "
                                          "movement class 'hoof'") == 0);
}

TEST_CASE("unknown movement class in a move cost: file, line, field", "[ruleset]") {
  const std::string text =
      Replace(kTerrainFile, "movement_class: \"foot\" cost: 2", "movement_class: \"hoof\" cost: 2");
  const auto errors = Broken("10-terrain.textproto", text);
  REQUIRE(errors.size() == 1);  // the hole it leaves in the chart is not reported twice
  CHECK(errors[0].where == At("10-terrain.textproto", text, "movement_class: \"hoof\""));
  CHECK(errors[0].message.find("terrain[1].move_costs[0].movement_class: unknown movement class "
                               "'hoof'") == 0);
}

TEST_CASE("a terrain missing a cost is reported at that terrain", "[ruleset]") {
  const std::string text =
      Replace(kTerrainFile, "  move_costs { movement_class: \"horse\" cost: 2 }\n", "");
  const auto errors = Broken("10-terrain.textproto", text);
  REQUIRE(errors.size() == 1);
  // The third terrain of the file ("fort") is where the cost is missing.
  const auto fort_block = text.find("terrain {\n  name: \"fort\"");
  REQUIRE(fort_block != std::string::npos);
  const int line = LineOf(text, "terrain {\n  name: \"fort\"");
  CHECK(errors[0].where == "10-terrain.textproto:" + std::to_string(line) + ":1");
  CHECK(errors[0].message ==
        "terrain[2].move_costs: terrain 'fort' has no cost for movement class 'horse'");
}

TEST_CASE("a terrain index counts across files", "[ruleset]") {
  // Moving one terrain into the units file: merged index 2 is the first
  // terrain of 20-units.textproto.
  const std::string terrain = Replace(kTerrainFile,
                                      "terrain {\n  name: \"fort\"\n"
                                      "  move_costs { movement_class: \"foot\" cost: 1 }\n"
                                      "  move_costs { movement_class: \"horse\" cost: 2 }\n"
                                      "  fort: true\n}\n",
                                      "");
  const std::string units = std::string(kUnitsFile) +
                            "terrain {\n  name: \"fort\"\n"
                            "  move_costs { movement_class: \"foot\" cost: 1 }\n}\n";
  auto files = MiniRulesetFiles();
  files[1].text = terrain;
  files[2].text = units;
  const auto loaded = LoadRulesetFiles(files);
  REQUIRE_FALSE(loaded.ok());
  REQUIRE(loaded.errors().size() == 1);
  CHECK(loaded.errors()[0].where ==
        "20-units.textproto:" + std::to_string(LineOf(units, "terrain {")) + ":1");
  CHECK(loaded.errors()[0].message.find("terrain[0].move_costs: terrain 'fort'") == 0);
}

TEST_CASE("a bad CRT cell names file, line, column and cell", "[ruleset]") {
  const std::string text = Replace(kUnitsFile, "\"0/1*\"", "\"0/x\"");
  const auto errors = Broken("20-units.textproto", text);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].where == At("20-units.textproto", text, "\"0/x\""));
  CHECK(errors[0].message.find("crt.rows[0].cells[1]: bad CRT cell '0/x'") == 0);
  CHECK(errors[0].ToString().find("20-units.textproto:") == 0);
}

TEST_CASE("several errors in two files: each at its own file, line and column", "[ruleset]") {
  // The locator reads each file's tokens once for all the errors (it used to read them
  // again per error): every error must still land on its own cell, in its own file.
  const std::string units =
      Replace(Replace(Replace(kUnitsFile, "\"0/1*\"", "\"0/x\""), "\"2*/0\"", "\"y/0\""), "\"1/0\"",
              "\"1/z\"");
  const std::string terrain =
      Replace(kTerrainFile, "movement_class: \"foot\" cost: 2", "movement_class: \"hoof\" cost: 2");
  auto files = MiniRulesetFiles();
  files[1].text = terrain;
  files[2].text = units;
  const auto loaded = LoadRulesetFiles(files);
  REQUIRE_FALSE(loaded.ok());
  UNSCOPED_INFO(loaded.ErrorText());
  std::vector<std::pair<std::string, std::string>> got;
  for (const Error& e : loaded.errors()) got.emplace_back(e.where, e.message.substr(0, 20));
  std::sort(got.begin(), got.end());
  std::vector<std::pair<std::string, std::string>> want = {
      {At("10-terrain.textproto", terrain, "movement_class: \"hoof\""), "terrain[1].move_cost"},
      {At("20-units.textproto", units, "\"0/x\""), "crt.rows[0].cells[1]"},
      {At("20-units.textproto", units, "\"y/0\""), "crt.rows[1].cells[0]"},
      {At("20-units.textproto", units, "\"1/z\""), "crt.rows[1].cells[1]"},
  };
  std::sort(want.begin(), want.end());
  CHECK(got == want);
}

TEST_CASE("a CRT row with the wrong number of cells is reported at that row", "[ruleset]") {
  // The row for result 0 is the second row of the file, stored first.
  const std::string text =
      Replace(kUnitsFile, "[\"2*/0\", \"1/0\", \"1/1\"]", "[\"2*/0\", \"1/0\"]");
  const auto errors = Broken("20-units.textproto", text);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].where == At("20-units.textproto", text, "rows { result: 0"));
  CHECK(errors[0].message == "crt.rows[1].cells: CRT row for result 0 has 2 cells, expected 3");
}

TEST_CASE("unknown terrain in terrain_combat", "[ruleset]") {
  const std::string text = Replace(kUnitsFile, "terrain: \"woods\"", "terrain: \"forest\"");
  const auto errors = Broken("20-units.textproto", text);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].where == At("20-units.textproto", text, "terrain: \"forest\""));
  CHECK(errors[0].message.find("terrain_combat[0].terrain: unknown terrain 'forest'") == 0);
}

TEST_CASE("a unit type without an arm or with an unknown class", "[ruleset]") {
  const std::string text = Replace(Replace(kUnitsFile, "  arm: ARM_ARTILLERY\n", ""),
                                   "movement_class: \"horse\"", "movement_class: \"wings\"");
  const auto errors = Broken("20-units.textproto", text);
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].where == At("20-units.textproto", text, "movement_class: \"wings\""));
  CHECK(errors[0].message.find("unit_types[1].movement_class: unknown movement class 'wings'") ==
        0);
  // No arm field to point at: the unit type itself.
  CHECK(errors[1].where == At("20-units.textproto", text, "unit_types {\n  name: \"gun\""));
  CHECK(errors[1].message.find("unit_types[2].arm: unit type 'gun' has no arm") == 0);
}

TEST_CASE("a bad parameter is reported where the last file set it", "[ruleset]") {
  const std::string text =
      Replace(kBaseFile, "leaders_move_as: \"horse\"", "leaders_move_as: \"camel\"");
  const auto errors = Broken("00-base.textproto", text);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].where == At("00-base.textproto", text, "leaders_move_as"));
  CHECK(errors[0].message.find("parameters.leaders_move_as:") == 0);
  CHECK(errors[0].message.find("camel") != std::string::npos);

  const std::string bad_rational = Replace(kBaseFile, "\"2\"", "\"two\"");
  const auto r = Broken("00-base.textproto", bad_rational);
  REQUIRE(r.size() == 1);
  CHECK(r[0].where == At("00-base.textproto", bad_rational, "charge_cs_multiplier"));
  CHECK(r[0].message.find("parameters.charge_cs_multiplier: bad rational 'two'") == 0);
}

TEST_CASE("syntax errors in ruleset files name the file and line", "[ruleset]") {
  const std::string text = Replace(kTerrainFile, "blocks_los: true", "blocks_los: maybe");
  const auto errors = Broken("10-terrain.textproto", text);
  INFO(errors[0].ToString());
  CHECK(errors[0].where.rfind(
            "10-terrain.textproto:" + std::to_string(LineOf(text, "blocks_los: maybe")) + ":", 0) ==
        0);

  const std::string unknown = Replace(kTerrainFile, "blocks_los: true", "blocks_lots: true");
  const auto u = Broken("10-terrain.textproto", unknown);
  CHECK(u[0].where == At("10-terrain.textproto", unknown, "blocks_lots"));
  CHECK(u[0].message.find("blocks_lots") != std::string::npos);
}

TEST_CASE("a ruleset directory that does not exist or is empty", "[ruleset]") {
  const auto missing = LoadRulesetDir("/nonexistent/ruleset");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.ErrorText().find("/nonexistent/ruleset: not a directory") == 0);
}

}  // namespace
}  // namespace pbem::codec
