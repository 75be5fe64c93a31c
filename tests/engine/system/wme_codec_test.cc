// The French game's data files (engine/rulesets/wme/*.textproto,
// engine/scenarios/wme/palissade.textproto) through the codec: the ruleset file is exactly
// DefaultRuleset() (compared as the codec's canonical messages, which hold every field of the
// engine's Ruleset), the scenario loads and wme::InitialState accepts it, and Load through the
// codec's registry (proto/codec/systems.h) gives a setup the system plays.
#include "proto/codec/wme_codec.h"

#include <string>
#include <vector>

#include "engine/system/registry.h"
#include "engine/system/wme.h"
#include "engine/wme/ruleset.h"
#include "engine/wme/state.h"
#include "proto/codec/systems.h"
#include "tests/engine/mini_test.h"
#include "tests/engine/system/codec_parser.h"
#include "tests/engine/system/data_files.h"

namespace pbem::game_system {
namespace {

constexpr char kRuleset[] = "wme";
constexpr char kScenario[] = "wme/palissade.textproto";

using test::Bytes;
using test::RulesetTexts;

TEST_CASE_MINI(WmeRulesetFileIsDefaultRuleset) {
  const auto loaded =
      codec::LoadWmeRulesetFiles(RulesetTexts(test::BundledData(kRuleset, kScenario)));
  REQUIRE_MINI(loaded.ok());
  const pbem::v1::WmeRuleset want = codec::WmeRulesetToProto(wme::DefaultRuleset());
  CHECK_EQ_MINI(Bytes(codec::WmeRulesetToProto(loaded.value().ruleset)), Bytes(want));
  // The file sets every key explicitly, as the engine's values give them.
  CHECK_EQ_MINI(Bytes(loaded.value().proto), Bytes(want));
}

TEST_CASE_MINI(WmeScenarioFileLoadsAndStarts) {
  const GameData data = test::BundledData(kRuleset, kScenario);
  const wme::Ruleset ruleset = wme::DefaultRuleset();
  const auto loaded = codec::LoadWmeScenarioText(data.scenario.text, data.scenario.name, ruleset);
  REQUIRE_MINI(loaded.ok());
  const wme::Scenario& s = loaded.value().scenario;
  CHECK_MINI((s.players == std::vector<std::string>{"blue", "red"}));
  CHECK_EQ_MINI(s.terrain.size(), std::size_t{3});
  CHECK_EQ_MINI(s.units.size(), std::size_t{6});
  CHECK_EQ_MINI(s.bases.size(), std::size_t{18});
  const wme::InitialStateResult start = wme::InitialState(ruleset, s);
  CHECK_MINI(start.problems.empty());
  REQUIRE_MINI(start.state.has_value());
  // The cavalry is CHOC by the ruleset's choc_types: 2 x 4 cm bases.
  const wme::BaseState* cav = wme::FindBase(*start.state, "b_cav.1");
  REQUIRE_MINI(cav != nullptr);
  CHECK_EQ_MINI(cav->width, wme::ToUnits(2000));
  CHECK_EQ_MINI(cav->depth, wme::ToUnits(4000));
  // What the codec writes back (every heading explicit) loads to the same scenario.
  const pbem::v1::WmeScenario once = codec::WmeScenarioToProto(s, "palissade", ruleset.ruleset);
  const auto again = codec::LoadWmeScenarioText(codec::SerializeMessage(once, codec::Format::kText),
                                                "again.textproto", ruleset);
  REQUIRE_MINI(again.ok());
  CHECK_EQ_MINI(
      Bytes(codec::WmeScenarioToProto(again.value().scenario, "palissade", ruleset.ruleset)),
      Bytes(once));
  CHECK_EQ_MINI(once.name(), loaded.value().proto.name());
}

TEST_CASE_MINI(WmeLoadOfTheDataFilesStartsAndResolves) {
  Registry registry = codec::SystemRegistry();
  const GameSystem& wme = **registry.Find("wme");
  const Result<Setup> loaded = wme.Load(test::BundledData(kRuleset, kScenario));
  REQUIRE_MINI(loaded.ok());
  const Result<State> start = wme.InitialState(*loaded, "g1");
  REQUIRE_MINI(start.ok());
  CHECK_MINI((*wme.WhoseTurn(*loaded, *start) == TurnInfo{1, "blue"}));
  // No orders: a turn that changes nothing, refused nothing.
  const Result<TurnResolution> turn =
      wme.ResolvePlayerTurn(*loaded, *start, WmeOrdersOf(wme::TurnOrders{"blue", {}, {}}), 7);
  REQUIRE_MINI(turn.ok());
  CHECK_MINI(turn->verdicts.empty());
}

TEST_CASE_MINI(WmeADamagedScenarioIsRefusedWithTheCodecsError) {
  Registry registry = codec::SystemRegistry();
  GameData data = test::BundledData(kRuleset, kScenario);
  data.scenario.text +=
      "\nbases { id: \"b_cav.3\" unit: \"b_cav\" centre { x_cm: 1000 y_cm: 1000 } }\n";
  const Result<Setup> setup = (*registry.Find("wme"))->Load(data);
  REQUIRE_MINI(!setup.ok());
  CHECK_MINI(setup.status().code() == StatusCode::kInvalidArgument);
  CHECK_MINI(setup.status().message().find("palissade.textproto:") != std::string::npos);
  CHECK_MINI(setup.status().message().find("duplicate id 'b_cav.3'") != std::string::npos);
}

}  // namespace
}  // namespace pbem::game_system
