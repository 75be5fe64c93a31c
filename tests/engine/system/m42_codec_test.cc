// M42's data files (engine/rulesets/m42/*.textproto,
// engine/scenarios/m42/pumping_station.textproto) through the codec: the ruleset file is exactly
// DefaultRuleset(), the scenario file exactly PumpingStation() (compared as the codec's canonical
// messages, which hold every field of the engine's structs in exact thousandths), and Load through
// the codec's registry (proto/codec/systems.h), plays as
// LoadBundled("pumping_station") does.
#include "proto/codec/m42_codec.h"

#include <string>
#include <vector>

#include "engine/m42/ruleset.h"
#include "engine/m42/scenarios.h"
#include "engine/system/m42.h"
#include "engine/system/registry.h"
#include "proto/codec/systems.h"
#include "tests/engine/mini_test.h"
#include "tests/engine/system/codec_parser.h"
#include "tests/engine/system/data_files.h"

namespace pbem::game_system {
namespace {

constexpr char kRuleset[] = "m42";
constexpr char kScenario[] = "m42/pumping_station.textproto";

using test::Bytes;
using test::RulesetTexts;

TEST_CASE_MINI(M42RulesetFileIsDefaultRuleset) {
  const auto loaded =
      codec::LoadM42RulesetFiles(RulesetTexts(test::BundledData(kRuleset, kScenario)));
  REQUIRE_MINI(loaded.ok());
  const pbem::v1::M42Ruleset want = codec::M42RulesetToProto(m42::DefaultRuleset());
  CHECK_EQ_MINI(Bytes(codec::M42RulesetToProto(loaded.value().ruleset)), Bytes(want));
  // The file sets every key explicitly, as the engine's values give them.
  CHECK_EQ_MINI(Bytes(loaded.value().proto), Bytes(want));
}

TEST_CASE_MINI(M42ScenarioFileIsPumpingStation) {
  const GameData data = test::BundledData(kRuleset, kScenario);
  const auto loaded =
      codec::LoadM42ScenarioText(data.scenario.text, data.scenario.name, m42::DefaultRuleset());
  REQUIRE_MINI(loaded.ok());
  const pbem::v1::M42Scenario want = codec::M42ScenarioToProto(
      m42::PumpingStation(), m42::kPumpingStationName, m42::DefaultRuleset().ruleset);
  CHECK_EQ_MINI(Bytes(codec::M42ScenarioToProto(loaded.value().scenario, m42::kPumpingStationName,
                                                m42::DefaultRuleset().ruleset)),
                Bytes(want));
  CHECK_EQ_MINI(Bytes(loaded.value().proto), Bytes(want));
}

TEST_CASE_MINI(M42LoadOfTheDataFilesPlaysAsLoadBundled) {
  Registry registry = codec::SystemRegistry();
  const GameSystem& m42 = **registry.Find("m42");
  const Result<Setup> loaded = m42.Load(test::BundledData(kRuleset, kScenario));
  REQUIRE_MINI(loaded.ok());
  const Result<Setup> bundled = m42.LoadBundled(m42::kPumpingStationName);
  REQUIRE_MINI(bundled.ok());
  State a = *m42.InitialState(*loaded, "g1");
  State b = *m42.InitialState(*bundled, "g1");
  CHECK_EQ_MINI(*m42.EncodeState(*loaded, a), *m42.EncodeState(*bundled, b));
  // A few player-turns of the bot on each: the same states.
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const Result<TurnResolution> ra =
        m42.ResolvePlayerTurn(*loaded, a, *m42.BotOrders(*loaded, a, seed), 0);
    const Result<TurnResolution> rb =
        m42.ResolvePlayerTurn(*bundled, b, *m42.BotOrders(*bundled, b, seed), 0);
    REQUIRE_MINI(ra.ok() && rb.ok());
    CHECK_EQ_MINI(*m42.EncodeState(*loaded, ra->next), *m42.EncodeState(*bundled, rb->next));
    a = ra->next;
    b = rb->next;
  }
}

TEST_CASE_MINI(M42ADamagedScenarioIsRefusedWithTheCodecsError) {
  Registry registry = codec::SystemRegistry();
  GameData data = test::BundledData(kRuleset, kScenario);
  data.scenario.text +=
      "\nmodels { id: \"b_hq_1\" unit: \"b_hq\" pos { x_in: 1000 y_in: 1000 } }\n";
  const Result<Setup> setup = (*registry.Find("m42"))->Load(data);
  REQUIRE_MINI(!setup.ok());
  CHECK_MINI(setup.status().code() == StatusCode::kInvalidArgument);
  CHECK_MINI(setup.status().message().find("pumping_station.textproto:") != std::string::npos);
  CHECK_MINI(setup.status().message().find("duplicate id 'b_hq_1'") != std::string::npos);
}

}  // namespace
}  // namespace pbem::game_system
