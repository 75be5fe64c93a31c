// The French game's ruleset and scenario codec (proto/codec/wme_codec.h) from inline text: unset
// fields take the digest's defaults, values round-trip engine -> proto -> engine -> proto, and
// hostile inputs fail with the file, the line:column, the field and the valid range. The bundled
// data files are checked against the engine's own values in tests/engine/system/wme_codec_test.cc.
#include "proto/codec/wme_codec.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/wme/ruleset.h"
#include "tests/proto/test_data.h"

namespace pbem::codec {
namespace {

std::string Bytes(const google::protobuf::Message& message) {
  return SerializeMessage(message, Format::kBinary);
}

// The one error of a ruleset made of `text`, as "where: message".
std::string RulesetError(const std::string& text) {
  const auto loaded = LoadWmeRulesetFiles({{"r.textproto", text}});
  REQUIRE_FALSE(loaded.ok());
  INFO(loaded.ErrorText());
  REQUIRE(loaded.errors().size() == 1);
  return loaded.errors().front().ToString();
}

// A small valid scenario: two players, a wood of two pieces, an infantry unit of two bases, a
// cavalry unit of one base, a general.
const char kScenario[] = R"txt(name: "probe"
table_width_cm: 180000
table_height_cm: 120000
players: ["blue", "red"]
terrain {
  id: "wood" kind: "woods" category: WME_TERRAIN_CATEGORY_DIFFICULT blocks_los: true
  pieces { points [{ x_cm: 1000 y_cm: 1000 }, { x_cm: 5000 y_cm: 1000 },
                   { x_cm: 5000 y_cm: 5000 }] }
  pieces { points { x_cm: 4000 y_cm: 4000 } points { x_cm: 9000 y_cm: 4000 }
           points { x_cm: 9000 y_cm: 9000 } }
}
units { id: "b1" owner: "blue" troop_type: WME_TROOP_TYPE_INFANTRY }
units { id: "r1" owner: "red" troop_type: WME_TROOP_TYPE_CAVALRY bases_lost: 1 }
bases { id: "b1.1" unit: "b1" centre { x_cm: 20000 y_cm: 30000 } }
bases { id: "b1.2" unit: "b1" centre { x_cm: 24000 y_cm: 30000 } }
bases { id: "r1.1" unit: "r1" centre { x_cm: 24000 y_cm: 45000 } heading_mdeg: 270000 }
commanders { id: "gen" owner: "blue" centre { x_cm: 22000 y_cm: 20000 } general: true
             attached_to: "b1" }
)txt";

std::string Replace(std::string text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// The first error of kScenario with `from` replaced by `to` (a bad id may have consequences).
std::string ScenarioError(std::string_view from, std::string_view to) {
  const auto loaded =
      LoadWmeScenarioText(Replace(kScenario, from, to), "s.textproto", wme::DefaultRuleset());
  REQUIRE_FALSE(loaded.ok());
  UNSCOPED_INFO(loaded.ErrorText());
  return loaded.errors().front().ToString();
}

TEST_CASE("an empty wme ruleset file is the digest's defaults", "[wme]") {
  const auto loaded = LoadWmeRulesetFiles({{"empty.textproto", "# nothing set\n"}});
  INFO(loaded.ErrorText());
  REQUIRE(loaded.ok());
  CHECK(Bytes(WmeRulesetToProto(loaded.value().ruleset)) ==
        Bytes(WmeRulesetToProto(wme::DefaultRuleset())));
}

TEST_CASE("wme ruleset files merge: a later file overrides, an unset key keeps its default",
          "[wme]") {
  const auto loaded = LoadWmeRulesetFiles(
      {{"00.textproto",
        "min_gap_cm: 2500\nvision_arc: WME_VISION_ARC_HALF_PLANE\nspeed_cm { infantry: 15000 }\n"},
       {"10.textproto",
        "min_gap_cm: 3000\nhalf_speed_exempt {}\nbase_size_cm { choc { d_cm: 5000 } }\n"
        "passable_by { rough { types: WME_TROOP_TYPE_INFANTRY } }\n"}});
  INFO(loaded.ErrorText());
  REQUIRE(loaded.ok());
  const wme::Ruleset& r = loaded.value().ruleset;
  const wme::Ruleset d = wme::DefaultRuleset();
  CHECK(r.min_gap_cm == 3000);
  CHECK(r.vision_arc == wme::VisionArcRule::kHalfPlane);
  CHECK(r.speed_cm[0] == wme::Milli{15000});
  CHECK(r.speed_cm[2] == d.speed_cm[2]);
  // A list given empty is empty, not the default.
  CHECK(r.half_speed_exempt.empty());
  CHECK(r.base_size_cm[1] == wme::BaseSize{2000, 5000});
  CHECK(r.base_size_cm[0] == d.base_size_cm[0]);
  CHECK(r.passable_by[1] == std::vector<wme::TroopType>{wme::TroopType::kInfantry});
  CHECK(r.passable_by[2] == d.passable_by[2]);
  CHECK(r.choc_types == d.choc_types);
  CHECK(r.initiative_range_cm == d.initiative_range_cm);
}

TEST_CASE("a wme ruleset round-trips proto -> engine -> proto", "[wme]") {
  wme::Ruleset changed = wme::DefaultRuleset();
  changed.irregular_charge_speed = wme::IrregularChargeSpeed::kFull;
  changed.own_pass_through = wme::OwnPassThrough::kAlways;
  changed.vision_arc = wme::VisionArcRule::kHalfPlane;
  changed.reserve_default = wme::Reserve::kLine;
  changed.flyers_pass_over = false;
  changed.choc_types = {wme::TroopType::kCavalry};
  changed.fortified_half_for = {wme::MoveKind::kAdvance, wme::MoveKind::kCharge};
  changed.off_table_fate = {{3, wme::Fate::kLost}, {99, wme::Fate::kReturnNow}};
  changed.passable_by[3] = {wme::TroopType::kFlyer};
  changed.confusion_die = 10;
  changed.confusion_confused_if_le = 7;
  changed.max_legs_per_base = 40;
  for (const wme::Ruleset& r : {wme::DefaultRuleset(), changed}) {
    const pbem::v1::WmeRuleset proto = WmeRulesetToProto(r);
    const auto back = WmeRulesetFromProto(proto, "archive");
    INFO(back.ErrorText());
    REQUIRE(back.ok());
    CHECK(Bytes(WmeRulesetToProto(back.value().ruleset)) == Bytes(proto));
    // And through text, as the data files are written.
    const auto text =
        LoadWmeRulesetFiles({{"t.textproto", SerializeMessage(proto, Format::kText)}});
    REQUIRE(text.ok());
    CHECK(Bytes(WmeRulesetToProto(text.value().ruleset)) == Bytes(proto));
  }
}

TEST_CASE("hostile wme rulesets name the file, line:column, field and range", "[wme]") {
  SECTION("a length out of range") {
    CHECK(RulesetError("min_gap_cm: 2000\nepsilon_cm: 5000\n") ==
          "r.textproto:2:1: epsilon_cm: must be 0..1000, got 5000");
  }
  SECTION("a negative length") {
    CHECK(RulesetError("reentry_step_cm: -1\n") ==
          "r.textproto:1:1: reentry_step_cm: must be 1..1000000, got -1");
  }
  SECTION("an angle out of range") {
    CHECK(RulesetError("evade_first_leg_tol_deg: 90001\n") ==
          "r.textproto:1:1: evade_first_leg_tol_deg: must be 0..90000, got 90001");
  }
  SECTION("a speed out of range, inside its message") {
    CHECK(RulesetError("speed_cm {\n  infantry: 20000\n  flyer: 2000000\n}\n") ==
          "r.textproto:3:3: speed_cm.flyer: must be 0..1000000, got 2000000");
  }
  SECTION("a base of zero depth") {
    CHECK(RulesetError("base_size_cm { non_choc { w_cm: 4000 d_cm: 0 } }\n") ==
          "r.textproto:1:38: base_size_cm.non_choc.d_cm: must be 1..1000000, got 0");
  }
  SECTION("an enum set to UNSPECIFIED") {
    CHECK(RulesetError("reserve_default: WME_RESERVE_UNSPECIFIED\n") ==
          "r.textproto:1:1: reserve_default: must be one of WME_RESERVE_BEHIND, "
          "WME_RESERVE_LINE, got WME_RESERVE_UNSPECIFIED");
  }
  SECTION("an enum number it does not know") {
    CHECK(RulesetError("vision_arc: 7\n") ==
          "r.textproto:1:1: vision_arc: must be one of WME_VISION_ARC_WEDGE_90, "
          "WME_VISION_ARC_HALF_PLANE, got 7");
  }
  SECTION("a troop type twice in a set, at the second") {
    CHECK(RulesetError("choc_types {\n  types: [WME_TROOP_TYPE_CAVALRY,\n"
                       "          WME_TROOP_TYPE_CAVALRY]\n}\n") ==
          "r.textproto:3:11: choc_types.types[1]: duplicate WME_TROOP_TYPE_CAVALRY");
  }
  SECTION("an unspecified troop type in a set") {
    CHECK(RulesetError("passable_by { difficult { types: WME_TROOP_TYPE_UNSPECIFIED } }\n")
              .rfind("r.textproto:1:27: passable_by.difficult.types[0]: must be one of "
                     "WME_TROOP_TYPE_INFANTRY, ",
                     0) == 0);
  }
  SECTION("confused_if_le beyond the die") {
    CHECK(RulesetError("confusion_test {\n  die: 4\n  confused_if_le: 5\n}\n") ==
          "r.textproto:3:3: confusion_test.confused_if_le: must be 0..4, got 5");
  }
  SECTION("fate bands that do not increase, at the band") {
    CHECK(RulesetError("off_table_fate { max: 3 fate: WME_FATE_LOST }\n"
                       "off_table_fate { max: 3 fate: WME_FATE_RETURN_NOW }\n") ==
          "r.textproto:2:18: off_table_fate[1].max: must be 4..100, got 3");
  }
  SECTION("a fate band without its fate, at the band") {
    CHECK(RulesetError("off_table_fate { max: 3 }\n") ==
          "r.textproto:1:1: off_table_fate[0].fate: must be one of WME_FATE_LOST, "
          "WME_FATE_RETURN_NEXT_TURN, WME_FATE_RETURN_NOW, got WME_FATE_UNSPECIFIED");
  }
  SECTION("too many fate bands") {
    std::string text;
    for (int i = 0; i < 17; ++i) {
      text += "off_table_fate { max: " + std::to_string(i) + " fate: WME_FATE_LOST }\n";
    }
    CHECK(RulesetError(text) == "r.textproto:1:1: off_table_fate: needs 1..16 entries, got 17");
  }
  SECTION("a value the engine does not implement (CheckRuleset)") {
    CHECK(RulesetError("min_gap_cm: 2000\nsqueeze_model: WME_SQUEEZE_MODEL_STRICT\n") ==
          "r.textproto:2:1: squeeze_model: this value is not implemented by the engine");
    CHECK(RulesetError("flyers_may_evade: false\n") ==
          "r.textproto:1:1: flyers_may_evade: this value is not implemented by the engine");
  }
  SECTION("an error in a later file names that file") {
    const auto loaded = LoadWmeRulesetFiles(
        {{"00.textproto", "min_gap_cm: 10\n"}, {"10.textproto", "\n\nmax_legs_per_base: 0\n"}});
    REQUIRE_FALSE(loaded.ok());
    CHECK(loaded.ErrorText() == "10.textproto:3:1: max_legs_per_base: must be 1..1000, got 0\n");
  }
  SECTION("a format version from the future") {
    CHECK(RulesetError("format_version: 2\n") ==
          "r.textproto:1:1: format_version: format version 2 is not supported (this build reads "
          "version 1)");
  }
  SECTION("an unknown field") {
    CHECK(RulesetError("min_gap_cm: 10\nepsilon_in: 3\n").rfind("r.textproto:2:", 0) == 0);
  }
}

TEST_CASE("a wme scenario decodes, and round-trips proto -> engine -> proto", "[wme]") {
  const auto loaded = LoadWmeScenarioText(kScenario, "s.textproto", wme::DefaultRuleset());
  INFO(loaded.ErrorText());
  REQUIRE(loaded.ok());
  const wme::Scenario& s = loaded.value().scenario;
  CHECK(s.table_width_cm == 180000);
  CHECK(s.players == std::vector<std::string>{"blue", "red"});
  REQUIRE(s.terrain.size() == 1);
  CHECK(s.terrain[0].pieces.size() == 2);
  CHECK(s.terrain[0].category == wme::TerrainCategory::kDifficult);
  REQUIRE(s.bases.size() == 3);
  CHECK(s.bases[0].heading_mdeg == 90000);  // unset: the default
  CHECK(s.bases[2].heading_mdeg == 270000);
  CHECK(s.bases[1].centre.x() == wme::ToUnits(24000));
  CHECK(s.units[1].troop_type == wme::TroopType::kCavalry);
  CHECK(s.units[1].bases_lost == 1);
  REQUIRE(s.commanders.size() == 1);
  CHECK(s.commanders[0].attached_to == std::optional<std::string>("b1"));

  const pbem::v1::WmeScenario once = WmeScenarioToProto(s, "probe", "");
  const auto again = WmeScenarioFromProto(once, "archive", wme::DefaultRuleset());
  INFO(again.ErrorText());
  REQUIRE(again.ok());
  CHECK(Bytes(WmeScenarioToProto(again.value().scenario, "probe", "")) == Bytes(once));
  // And through text.
  const auto text = LoadWmeScenarioText(SerializeMessage(once, Format::kText), "t.textproto",
                                        wme::DefaultRuleset());
  INFO(text.ErrorText());
  REQUIRE(text.ok());
  CHECK(Bytes(WmeScenarioToProto(text.value().scenario, "probe", "")) == Bytes(once));
}

TEST_CASE("hostile wme scenarios name the file, line:column, field and range", "[wme]") {
  SECTION("a table length out of range") {
    CHECK(ScenarioError("table_width_cm: 180000", "table_width_cm: 2000000") ==
          "s.textproto:2:1: table_width_cm: must be 1..1000000, got 2000000");
  }
  SECTION("a missing required field: the table") {
    CHECK(ScenarioError("table_height_cm: 120000\n", "") ==
          "s.textproto: table_height_cm: must be 1..1000000, got 0");
  }
  SECTION("no players") {
    CHECK(ScenarioError("players: [\"blue\", \"red\"]\n", "") ==
          "s.textproto: players: needs 1..8 entries, got 0");
  }
  SECTION("a duplicate base id, at the second") {
    CHECK(ScenarioError("id: \"b1.2\"", "id: \"b1.1\"") ==
          "s.textproto:15:9: bases[1].id: duplicate id 'b1.1'");
  }
  SECTION("a base sharing a unit's id (one namespace, as the engine's)") {
    CHECK(ScenarioError("id: \"r1.1\"", "id: \"r1\"") ==
          "s.textproto:16:9: bases[2].id: duplicate id 'r1'");
  }
  SECTION("a missing required field: a base's centre, at the base") {
    CHECK(ScenarioError(" centre { x_cm: 20000 y_cm: 30000 }", "") ==
          "s.textproto:14:1: bases[0].centre: missing (a point is required)");
  }
  SECTION("a coordinate out of range") {
    CHECK(ScenarioError("x_cm: 24000 y_cm: 45000", "x_cm: 24000 y_cm: -3000000") ==
          "s.textproto:16:52: bases[2].centre.y_cm: must be -1000000..1000000, got -3000000");
  }
  SECTION("a heading out of range") {
    CHECK(ScenarioError("heading_mdeg: 270000", "heading_mdeg: 720000") ==
          "s.textproto:16:66: bases[2].heading_mdeg: must be -360000..360000, got 720000");
  }
  SECTION("a polygon of two points, in a bracket list, at the piece") {
    CHECK(ScenarioError(", { x_cm: 5000 y_cm: 1000 }", "") ==
          "s.textproto:7:3: terrain[0].pieces[0].points: needs 3..1000 entries, got 2");
  }
  SECTION("a polygon of zero area") {
    CHECK(ScenarioError("points { x_cm: 9000 y_cm: 9000 }", "points { x_cm: 9500 y_cm: 4000 }")
              .find("terrain[0].pieces[1]: not a simple polygon") != std::string::npos);
  }
  SECTION("a feature without a category") {
    CHECK(ScenarioError(" category: WME_TERRAIN_CATEGORY_DIFFICULT", "")
              .rfind("s.textproto:5:1: terrain[0].category: must be one of "
                     "WME_TERRAIN_CATEGORY_PASSABLE, ",
                     0) == 0);
  }
  SECTION("a feature kind that is not a word") {
    CHECK(ScenarioError("kind: \"woods\"", "kind: \"dark-woods\"") ==
          "s.textproto:6:14: terrain[0].kind: must be a word (1 to 64 letters, digits or '_')");
  }
  SECTION("a unit without a troop type") {
    CHECK(ScenarioError(" troop_type: WME_TROOP_TYPE_INFANTRY", "")
              .rfind("s.textproto:12:1: units[0].troop_type: must be one of "
                     "WME_TROOP_TYPE_INFANTRY, ",
                     0) == 0);
  }
  SECTION("bases lost out of range") {
    CHECK(ScenarioError("bases_lost: 1", "bases_lost: -1") ==
          "s.textproto:13:66: units[1].bases_lost: must be 0..100, got -1");
  }
  SECTION("an id that is not one") {
    CHECK(ScenarioError("id: \"b1\"", "id: \"b 1\"") ==
          "s.textproto:12:9: units[0].id: 'b 1' is not an id (1 to 64 letters, digits, '_', "
          "'-' or '.')");
  }
  SECTION("a base of an unknown unit") {
    CHECK(ScenarioError("unit: \"r1\"", "unit: \"r9\"") ==
          "s.textproto:16:20: bases[2].unit: 'r9' is not one of the scenario's units");
  }
  SECTION("a unit of an unknown player") {
    CHECK(ScenarioError("owner: \"red\"", "owner: \"green\"") ==
          "s.textproto:13:18: units[1].owner: 'green' is not one of the scenario's players");
  }
  SECTION("a commander attached to an unknown unit") {
    CHECK(ScenarioError("attached_to: \"b1\"", "attached_to: \"b7\"") ==
          "s.textproto:18:14: commanders[0].attached_to: 'b7' is not one of the scenario's "
          "units");
  }
  SECTION("the engine's own check (InitialState): a unit without bases") {
    CHECK(ScenarioError("unit: \"r1\" centre", "unit: \"b1\" centre") ==
          "s.textproto:13:1: units[1]: refused by the engine: empty_unit r1");
  }
  SECTION("a scenario written for another ruleset") {
    CHECK(ScenarioError("name: \"probe\"", "name: \"probe\" ruleset: \"wme_v9\"") ==
          "s.textproto:1:15: ruleset: the scenario is written for 'wme_v9', the ruleset is "
          "'wme_movement_draft_p22_31'");
  }
  SECTION("an unknown field") {
    const std::string error = ScenarioError("bases_lost: 1", "bases_lost: 1 speed: 3");
    CHECK(error.rfind("s.textproto:13:", 0) == 0);
    CHECK(error.find("speed") != std::string::npos);
  }
}

}  // namespace
}  // namespace pbem::codec
