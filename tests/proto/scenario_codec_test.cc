// Scenarios from inline text against the mini ruleset.
#include <catch2/catch.hpp>

#include "proto/codec/codec.h"
#include "tests/proto/test_data.h"

namespace pbem::codec {
namespace {

using testing::ColumnOf;
using testing::kScenario;
using testing::LineOf;
using testing::Replace;

using testing::MiniRuleset;

std::string At(std::string_view text, std::string_view needle) {
  return "s.textproto:" + std::to_string(LineOf(text, needle)) + ":" +
         std::to_string(ColumnOf(text, needle));
}

std::vector<Error> Broken(const std::string& text) {
  const engine::Ruleset rs = MiniRuleset();
  const auto loaded = LoadScenarioText(text, "s.textproto", rs);
  REQUIRE_FALSE(loaded.ok());
  UNSCOPED_INFO(loaded.ErrorText());
  return loaded.errors();
}

TEST_CASE("a valid scenario loads", "[scenario]") {
  const engine::Ruleset rs = MiniRuleset();
  const auto loaded = LoadScenarioText(kScenario, "s.textproto", rs);
  INFO(loaded.ErrorText());
  REQUIRE(loaded.ok());
  const engine::Scenario& s = loaded.value().scenario;
  CHECK(s.map.width() == 6);
  CHECK(s.map.height() == 5);
  const auto woods = *rs.FindTerrain("woods");
  // The area 0201:0302 is columns 2-3, rows 1-2.
  for (const char* label : {"0201", "0301", "0202", "0302"}) {
    CHECK(s.map.terrain(*engine::ParseLabel(label)) == woods);
    CHECK(s.map.level(*engine::ParseLabel(label)) == 1);
  }
  CHECK(s.map.terrain(*engine::ParseLabel("0401")) == *rs.FindTerrain("clear"));
  CHECK(s.fort_owners.at(*engine::ParseLabel("0505")) == engine::Side::kOrange);
  const auto side = engine::SideBetween(*engine::ParseLabel("0404"), *engine::ParseLabel("0304"));
  REQUIRE(side.has_value());
  CHECK(s.map.side(*side).water == engine::Water::kRiver);
  CHECK(s.map.side(*side).crossing == engine::Crossing::kBridge);
  REQUIRE(s.map.routes().size() == 2);
  CHECK(s.map.routes()[1].track);
  REQUIRE(s.objectives.size() == 1);
  CHECK(s.objectives[0].initial_owner == engine::Side::kOrange);
  CHECK(s.deployment[0].size() == 6);
  REQUIRE(s.units.size() == 5);
  // Values: type defaults unless the scenario gives its own.
  CHECK(s.units[0].cs == 5);
  CHECK(s.units[0].mv == 4);
  CHECK(s.units[1].is_leader());
  CHECK(s.units[1].mv == 0);
  CHECK(s.units[1].command_radius == 2);
  CHECK(s.units[2].bv == 4);
  CHECK(s.units[3].cs == 6);
  CHECK_FALSE(s.units[4].start_hex.has_value());
  CHECK(s.turns == 4);
  // The initial state and its proto form.
  const engine::GameState state = engine::InitialState(s, "g1");
  const pbem::v1::GameState proto = StateToProto(state, s);
  CHECK(proto.units(0).id() == "b-inf-1");
  CHECK(proto.units(0).hex() == "0102");
  CHECK(proto.units(4).hex().empty());
  REQUIRE(proto.fort_owners_size() == 1);
  CHECK(proto.fort_owners(0).hex() == "0505");
  const auto back = StateFromProto(proto, s);
  INFO(back.ErrorText());
  REQUIRE(back.ok());
  CHECK(back.value().units[0].hex == state.units[0].hex);
  CHECK(back.value().objective_owners == state.objective_owners);
}

TEST_CASE("a bad hex label names the line and field", "[scenario]") {
  const std::string text = Replace(kScenario, "start_hex: \"0102\"", "start_hex: \"01O2\"");
  const auto errors = Broken(text);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].where == At(text, "start_hex: \"01O2\""));
  CHECK(errors[0].message.find("units[0].start_hex: bad hex label '01O2'") == 0);
}

TEST_CASE("an off-map hex names the line and element", "[scenario]") {
  const std::string text = Replace(kScenario, "\"0303:SE\"", "\"0303:SE\", \"0909:E\"");
  const auto errors = Broken(text);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].where == At(text, "\"0909:E\""));
  CHECK(errors[0].message.find("hexsides[0].sides[2]: hex 0909 is off the map (6x5)") == 0);

  const std::string area = Replace(kScenario, "areas: \"0101:0601\"", "areas: \"0101:0701\"");
  const auto a = Broken(area);
  REQUIRE(a.size() == 1);
  CHECK(a[0].where == At(area, "areas: \"0101:0701\""));
  CHECK(a[0].message.find("deployment_zones[0].areas[0]: hex 0701 is off the map") == 0);
}

TEST_CASE("an unknown unit type names the unit", "[scenario]") {
  const std::string text = Replace(kScenario, "type: \"gun\"", "type: \"howitzer\"");
  const auto errors = Broken(text);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].where == At(text, "type: \"howitzer\""));
  CHECK(errors[0].message.find("units[2].type: unit 'b-gun-1': unknown unit type 'howitzer'") == 0);
}

TEST_CASE("two units in one hex are reported at the second unit", "[scenario]") {
  const std::string text = Replace(kScenario, "start_hex: \"0605\"", "start_hex: \"0102\"");
  const auto errors = Broken(text);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].where == At(text, "start_hex: \"0102\" }\nunits { id: \"o-res-1\""));
  CHECK(errors[0].message ==
        "units[3].start_hex: units 'b-inf-1' and 'o-inf-1' both start in 0102 (no stacking, ever)");
}

TEST_CASE("missing unit values, sides and route gaps", "[scenario]") {
  std::string text = Replace(kScenario, "bv: 4 range: 3 ", "");
  text = Replace(text, "id: \"o-res-1\" side: SIDE_ORANGE", "id: \"o-res-1\"");
  text = Replace(text, "[\"0101\", \"0201\", \"0301\"]", "[\"0101\", \"0301\"]");
  const auto errors = Broken(text);
  REQUIRE(errors.size() == 4);
  CHECK(errors[0].where == At(text, "\"0301\"]"));
  CHECK(errors[0].message.find("roads[0].hexes[1]: hex 0301 is not adjacent") == 0);
  CHECK(errors[1].message.find("units[2].bv: unit 'b-gun-1' has no bv") == 0);
  CHECK(errors[1].where == At(text, "units { id: \"b-gun-1\""));
  CHECK(errors[2].message.find("units[2].range:") == 0);
  CHECK(errors[3].message.find("units[4].side: unit 'o-res-1' has no side") == 0);
}

TEST_CASE("a fort owner on a hex that is not a fort", "[scenario]") {
  const std::string text = Replace(kScenario, "terrain: \"fort\" fort_owner", "fort_owner");
  const auto errors = Broken(text);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].where == At(text, "fort_owner"));
  CHECK(errors[0].message.find("hexes[1].fort_owner: hex 0505 has a fort owner") == 0);
}

TEST_CASE("a scenario from a message names fields, not lines", "[scenario]") {
  const engine::Ruleset rs = MiniRuleset();
  pbem::v1::Scenario proto;
  REQUIRE(ParseMessage(kScenario, Format::kText, "s", proto).ok());
  proto.mutable_units(1)->set_type("wizard");
  const auto loaded = ScenarioFromProto(proto, "case.textproto", rs);
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.errors()[0].where == "case.textproto");
  CHECK(loaded.errors()[0].message.find("units[1].type:") == 0);
}

}  // namespace
}  // namespace pbem::codec
