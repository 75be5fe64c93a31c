// GameSystem::EncodeTurnResult / DecodeTurnResult through the codec's registry
// (proto/codec/systems.h): a resolved player-turn as the shared turn-result envelope's bytes.
// Morne Plaine's are the bytes its turn job has always stored (TurnResultToProto of the
// engine's result, in the current format), and read back they encode to the same bytes; what
// is not such bytes is refused naming the field; without the codec the call says so.
#include <string>

#include "engine/core/dice.h"
#include "engine/m42/scenarios.h"
#include "engine/morne_plaine/turn.h"
#include "engine/system/m42.h"
#include "engine/system/morne_plaine.h"
#include "pbem/v1/turn_result.pb.h"
#include "proto/codec/codec.h"
#include "proto/codec/systems.h"
#include "tests/engine/mini_test.h"
#include "tests/engine/system/data_files.h"

namespace pbem::game_system {
namespace {

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE_MINI(TurnResultMornePlaineIsWhatTheTurnJobStoresAndReadsBack) {
  const Registry registry = codec::SystemRegistry();
  const GameSystem& mp = **registry.Find("morne-plaine");
  const Result<Setup> setup =
      mp.Load(test::BundledData("morne-plaine", "bois-de-la-morne.textproto"));
  REQUIRE_MINI(setup.ok());
  const MornePlaineSetup& data = *setup->handle.As<MornePlaineSetup>("morne-plaine");
  State state = *mp.InitialState(*setup, "g1");
  int events = 0;
  for (std::uint64_t turn = 1; turn <= 12; ++turn) {
    const Result<Orders> bot = mp.BotOrders(*setup, state, turn);
    REQUIRE_MINI(bot.ok());
    const std::uint64_t seed = 1000 + turn;
    const Result<TurnResolution> resolved = mp.ResolvePlayerTurn(*setup, state, *bot, seed);
    REQUIRE_MINI(resolved.ok());
    const Result<std::string> bytes = mp.EncodeTurnResult(*setup, state, *resolved);
    REQUIRE_MINI(bytes.ok());

    // The engine called directly, written as the turn job writes it.
    const engine::GameState& before = *state.handle.As<engine::GameState>("morne-plaine");
    engine::SeededDice dice(seed);
    const engine::TurnResult direct = engine::ResolvePlayerTurn(
        data.ruleset, data.scenario, before, *bot->handle.As<engine::Orders>("morne-plaine"), dice);
    const std::string stored = codec::SerializeMessage(
        codec::TurnResultToProto(direct, data.scenario, before.turn, before.side_to_move),
        codec::Format::kBinary);
    CHECK_MINI(*bytes == stored);

    // Read back: the same verdicts, events and next state, encoding to the same bytes.
    const Result<TurnResolution> decoded = mp.DecodeTurnResult(*setup, *bytes);
    REQUIRE_MINI(decoded.ok());
    REQUIRE_MINI(decoded->verdicts.size() == resolved->verdicts.size());
    for (std::size_t i = 0; i < decoded->verdicts.size(); ++i) {
      CHECK_EQ_MINI(decoded->verdicts[i].reason, resolved->verdicts[i].reason);
      CHECK_EQ_MINI(decoded->verdicts[i].unit, resolved->verdicts[i].unit);
      CHECK_MINI(decoded->verdicts[i].kind == resolved->verdicts[i].kind);
      CHECK_MINI(decoded->verdicts[i].args == resolved->verdicts[i].args);
    }
    REQUIRE_MINI(decoded->events.size() == resolved->events.size());
    for (std::size_t i = 0; i < decoded->events.size(); ++i) {
      CHECK_EQ_MINI(decoded->events[i].kind, resolved->events[i].kind);
    }
    CHECK_EQ_MINI(*mp.EncodeState(*setup, decoded->next), *mp.EncodeState(*setup, resolved->next));
    const Result<std::string> again = mp.EncodeTurnResult(*setup, state, *decoded);
    REQUIRE_MINI(again.ok());
    CHECK_MINI(*again == *bytes);

    events += static_cast<int>(resolved->events.size());
    state = resolved->next;
  }
  CHECK_MINI(events > 50);  // the turns played something worth comparing
}

TEST_CASE_MINI(TurnResultMornePlaineRefusesWhatItCannotHaveWritten) {
  const Registry registry = codec::SystemRegistry();
  const GameSystem& mp = **registry.Find("morne-plaine");
  const Result<Setup> setup =
      mp.Load(test::BundledData("morne-plaine", "bois-de-la-morne.textproto"));
  REQUIRE_MINI(setup.ok());
  const State state = *mp.InitialState(*setup, "g1");
  const Result<TurnResolution> resolved =
      mp.ResolvePlayerTurn(*setup, state, *mp.BotOrders(*setup, state, 1), 5);
  REQUIRE_MINI(resolved.ok());
  pbem::v1::TurnResult proto;
  REQUIRE_MINI(proto.ParseFromString(*mp.EncodeTurnResult(*setup, state, *resolved)));
  REQUIRE_MINI(proto.events_size() > 0);

  const Result<TurnResolution> garbage = mp.DecodeTurnResult(*setup, "\xff\xff\xff not protobuf");
  REQUIRE_MINI(!garbage.ok());
  CHECK_MINI(garbage.status().code() == StatusCode::kInvalidArgument);
  CHECK_MINI(Contains(garbage.status().message(), "the turn result"));

  pbem::v1::TurnResult stranger = proto;
  stranger.mutable_events(0)->set_unit("nobody-here");
  const Result<TurnResolution> unknown =
      mp.DecodeTurnResult(*setup, codec::SerializeMessage(stranger, codec::Format::kBinary));
  REQUIRE_MINI(!unknown.ok());
  CHECK_MINI(unknown.status().code() == StatusCode::kInvalidArgument);
  CHECK_MINI(Contains(unknown.status().message(), "nobody-here"));

  pbem::v1::TurnResult newer = proto;
  newer.set_format_version(99);
  const Result<TurnResolution> future =
      mp.DecodeTurnResult(*setup, codec::SerializeMessage(newer, codec::Format::kBinary));
  REQUIRE_MINI(!future.ok());
  CHECK_MINI(Contains(future.status().message(), "format_version"));
}

TEST_CASE_MINI(TurnResultRefusesAnotherSystemsResolution) {
  const Registry registry = codec::SystemRegistry();
  const GameSystem& mp = **registry.Find("morne-plaine");
  const GameSystem& m42 = **registry.Find("m42");
  const Result<Setup> mp_setup =
      mp.Load(test::BundledData("morne-plaine", "bois-de-la-morne.textproto"));
  const Result<Setup> m42_setup = m42.LoadBundled(m42::kPumpingStationName);
  REQUIRE_MINI(mp_setup.ok() && m42_setup.ok());
  const State mp_state = *mp.InitialState(*mp_setup, "g1");
  const State m42_state = *m42.InitialState(*m42_setup, "g1");
  const Result<TurnResolution> m42_turn =
      m42.ResolvePlayerTurn(*m42_setup, m42_state, *m42.BotOrders(*m42_setup, m42_state, 1), 0);
  REQUIRE_MINI(m42_turn.ok());
  const Result<std::string> mixed = mp.EncodeTurnResult(*mp_setup, mp_state, *m42_turn);
  REQUIRE_MINI(!mixed.ok());
  CHECK_MINI(mixed.status().code() == StatusCode::kInvalidArgument);
  CHECK_MINI(Contains(mixed.status().message(), "m42"));
}

TEST_CASE_MINI(TurnResultWithoutTheCodecIsNotSupported) {
  const auto mp = MakeMornePlaine();  // the engine's own: no protobuf
  const Registry registry = codec::SystemRegistry();
  const GameSystem& full = **registry.Find("morne-plaine");
  const Result<Setup> setup =
      full.Load(test::BundledData("morne-plaine", "bois-de-la-morne.textproto"));
  REQUIRE_MINI(setup.ok());
  const State state = *full.InitialState(*setup, "g1");
  const Result<TurnResolution> resolved =
      full.ResolvePlayerTurn(*setup, state, *full.BotOrders(*setup, state, 1), 5);
  REQUIRE_MINI(resolved.ok());
  const Result<std::string> encoded = mp->EncodeTurnResult(*setup, state, *resolved);
  REQUIRE_MINI(!encoded.ok());
  CHECK_MINI(encoded.status().code() == StatusCode::kNotSupported);
  CHECK_MINI(Contains(encoded.status().message(), "MakeMornePlaine"));
  const Result<TurnResolution> decoded = mp->DecodeTurnResult(*setup, "");
  REQUIRE_MINI(!decoded.ok());
  CHECK_MINI(decoded.status().code() == StatusCode::kNotSupported);
}

}  // namespace
}  // namespace pbem::game_system
