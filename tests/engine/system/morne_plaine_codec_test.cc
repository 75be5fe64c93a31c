// Morne Plaine's bundled scenario (engine/scenarios/bois-de-la-morne.textproto with the ruleset
// engine/rulesets/morne-plaine) loaded through the codec's registry (proto/codec/systems.h: the
// engine itself cannot parse text-format protobuf). Each answer compared with a direct call of
// the engine; states kept as pbemd has always stored them (pbem.v1.GameState's bytes).
#include <memory>
#include <string>
#include <vector>

#include "engine/core/dice.h"
#include "engine/morne_plaine/bot.h"
#include "engine/morne_plaine/turn.h"
#include "engine/morne_plaine/validate_orders.h"
#include "engine/system/morne_plaine.h"
#include "engine/system/registry.h"
#include "pbem/v1/game.pb.h"
#include "proto/codec/codec.h"
#include "proto/codec/systems.h"
#include "tests/engine/mini_test.h"
#include "tests/engine/system/data_files.h"

namespace pbem::game_system {
namespace {

GameData BundledData() { return test::BundledData("morne-plaine", "bois-de-la-morne.textproto"); }

TEST_CASE_MINI(BoisDeLaMorneThroughTheRegistryPlaysAsTheEngine) {
  Registry registry = codec::SystemRegistry();
  const GameSystem& mp = **registry.Find("morne-plaine");
  const Result<Setup> setup = mp.Load(BundledData());
  REQUIRE_MINI(setup.ok());
  const MornePlaineSetup& typed = *setup->handle.As<MornePlaineSetup>("morne-plaine");
  const std::unique_ptr<GameSystem> engine_only = MakeMornePlaine();
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
    // Stored as the turn job has always stored a state, and read back to the same state.
    const std::string bytes = *mp.EncodeState(*setup, got->next);
    CHECK_EQ_MINI(bytes,
                  codec::SerializeMessage(codec::StateToProto(want.next_state, typed.scenario),
                                          codec::Format::kBinary));
    CHECK_EQ_MINI(*mp.EncodeState(*setup, *mp.DecodeState(*setup, bytes)), bytes);
    // Without the codec's state codec, the engine's canonical text.
    CHECK_EQ_MINI(*engine_only->EncodeState(*setup, got->next),
                  EncodeMornePlaineState(typed.scenario, want.next_state));
    direct = std::move(want.next_state);
    state = got->next;
  }
}

TEST_CASE_MINI(ADamagedScenarioIsRefusedWithTheCodecsError) {
  Registry registry = codec::SystemRegistry();
  GameData data = BundledData();
  data.scenario.text += "\nno_such_field: 1\n";
  const Result<Setup> setup = (*registry.Find("morne-plaine"))->Load(data);
  REQUIRE_MINI(!setup.ok());
  CHECK_MINI(setup.status().code() == StatusCode::kInvalidArgument);
  CHECK_MINI(setup.status().message().find("bois-de-la-morne.textproto") != std::string::npos);
}

TEST_CASE_MINI(StoredStateBytesTheRulesRefuseAreNamed) {
  Registry registry = codec::SystemRegistry();
  const GameSystem& mp = **registry.Find("morne-plaine");
  const Result<Setup> setup = mp.Load(BundledData());
  REQUIRE_MINI(setup.ok());
  const Result<State> garbage = mp.DecodeState(*setup, std::string("\xff\xff\xff", 3));
  REQUIRE_MINI(!garbage.ok());
  CHECK_MINI(garbage.status().code() == StatusCode::kInvalidArgument);
  CHECK_MINI(garbage.status().message().find("not a pbem.v1.GameState") != std::string::npos);
  // A state of another scenario: a unit the scenario does not have.
  const MornePlaineSetup& typed = *setup->handle.As<MornePlaineSetup>("morne-plaine");
  pbem::v1::GameState proto =
      codec::StateToProto(engine::InitialState(typed.scenario, "g1"), typed.scenario);
  REQUIRE_MINI(proto.units_size() > 0);
  proto.mutable_units(0)->set_id("no_such_unit");
  const Result<State> foreign = mp.DecodeState(*setup, proto.SerializeAsString());
  REQUIRE_MINI(!foreign.ok());
  CHECK_MINI(foreign.status().message().find("does not fit scenario bois-de-la-morne") !=
             std::string::npos);
}

}  // namespace
}  // namespace pbem::game_system
