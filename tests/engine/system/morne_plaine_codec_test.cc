// Morne Plaine's bundled scenario (engine/scenarios/bois-de-la-morne.textproto with the ruleset
// engine/rulesets/morne-plaine) loaded through the registry, with the codec's parser given to
// MakeMornePlaine as the codec side will give it (the engine itself cannot parse text-format
// protobuf). Each answer compared with a direct call of the engine.
#include <string>
#include <vector>

#include "engine/core/dice.h"
#include "engine/morne_plaine/bot.h"
#include "engine/morne_plaine/turn.h"
#include "engine/morne_plaine/validate_orders.h"
#include "engine/system/morne_plaine.h"
#include "engine/system/registry.h"
#include "proto/codec/codec.h"
#include "tests/engine/mini_test.h"
#include "tests/engine/system/data_files.h"

namespace pbem::game_system {
namespace {

// The codec as a MornePlaineParser.
Result<MornePlaineSetup> CodecParser(const GameData& data) {
  std::vector<codec::NamedText> files;
  for (const DataFile& f : data.ruleset) files.push_back({f.name, f.text});
  codec::Result<codec::LoadedRuleset> ruleset = codec::LoadRulesetFiles(files);
  if (!ruleset.ok()) return Status(StatusCode::kInvalidArgument, ruleset.ErrorText());
  codec::Result<codec::LoadedScenario> scenario =
      codec::LoadScenarioText(data.scenario.text, data.scenario.name, ruleset.value().ruleset);
  if (!scenario.ok()) return Status(StatusCode::kInvalidArgument, scenario.ErrorText());
  return MornePlaineSetup{std::move(ruleset.value().ruleset), std::move(scenario.value().scenario)};
}

GameData BundledData() { return test::BundledData("morne-plaine", "bois-de-la-morne.textproto"); }

TEST_CASE_MINI(BoisDeLaMorneThroughTheRegistryPlaysAsTheEngine) {
  Registry registry = BuiltinRegistry();
  registry.Put(MakeMornePlaine(CodecParser));
  const GameSystem& mp = **registry.Find("morne-plaine");
  const Result<Setup> setup = mp.Load(BundledData());
  REQUIRE_MINI(setup.ok());
  const MornePlaineSetup& typed = *setup->handle.As<MornePlaineSetup>("morne-plaine");
  CHECK_EQ_MINI(typed.scenario.name, std::string("bois-de-la-morne"));

  engine::GameState direct = engine::InitialState(typed.scenario, "g1");
  State state = *mp.InitialState(*setup, "g1");
  for (std::uint64_t pt = 1; pt <= 8; ++pt) {
    const engine::Orders orders = engine::BotOrders(typed.ruleset, typed.scenario, direct, pt);
    const Result<Orders> bot = mp.BotOrders(*setup, state, pt);
    REQUIRE_MINI(bot.ok());
    const Result<std::vector<Verdict>> checked = mp.CheckOrders(*setup, state, *bot, pt);
    REQUIRE_MINI(checked.ok());
    CHECK_EQ_MINI(AllAcceptable(*checked), engine::AllAcceptable(engine::ValidateOrders(
                                               typed.ruleset, typed.scenario, direct, orders)));
    engine::SeededDice dice(pt);
    engine::TurnResult want =
        engine::ResolvePlayerTurn(typed.ruleset, typed.scenario, direct, orders, dice);
    const Result<TurnResolution> got = mp.ResolvePlayerTurn(*setup, state, *bot, pt);
    REQUIRE_MINI(got.ok());
    CHECK_EQ_MINI(got->events.size(), want.events.size());
    const std::string bytes = *mp.EncodeState(*setup, got->next);
    CHECK_EQ_MINI(bytes, EncodeMornePlaineState(typed.scenario, want.next_state));
    CHECK_EQ_MINI(*mp.EncodeState(*setup, *mp.DecodeState(*setup, bytes)), bytes);
    direct = std::move(want.next_state);
    state = got->next;
  }
}

TEST_CASE_MINI(ADamagedScenarioIsRefusedWithTheCodecsError) {
  Registry registry = BuiltinRegistry();
  registry.Put(MakeMornePlaine(CodecParser));
  GameData data = BundledData();
  data.scenario.text += "\nno_such_field: 1\n";
  const Result<Setup> setup = (*registry.Find("morne-plaine"))->Load(data);
  REQUIRE_MINI(!setup.ok());
  CHECK_MINI(setup.status().code() == StatusCode::kInvalidArgument);
  CHECK_MINI(setup.status().message().find("bois-de-la-morne.textproto") != std::string::npos);
}

}  // namespace
}  // namespace pbem::game_system
