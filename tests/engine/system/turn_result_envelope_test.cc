// GameSystem::EncodeTurnResult / DecodeTurnResult through the codec's registry
// (proto/codec/systems.h): a resolved player-turn as the shared turn-result envelope's bytes.
// Morne Plaine's are the bytes its turn job has always stored (TurnResultToProto of the
// engine's result, in the current format); M42's carry its body with the player; read back,
// each encodes to the same bytes (wme's: wme_turn_result_codec_test.cc). What is not such
// bytes, or another system's, is refused naming the field; without the codec the call says so.
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
#include "tests/engine/system/turn_result_check.h"

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
    CHECK_MINI(test::CheckTurnResultRoundTrip(mp, *setup, state, *resolved) == *bytes);

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

  pbem::v1::TurnResult stateless = proto;
  stateless.clear_next_state();
  const Result<TurnResolution> no_state =
      mp.DecodeTurnResult(*setup, codec::SerializeMessage(stateless, codec::Format::kBinary));
  REQUIRE_MINI(!no_state.ok());
  CHECK_MINI(Contains(no_state.status().message(), "next_state: missing"));

  pbem::v1::TurnResult named = proto;
  named.set_player("blue");
  const Result<TurnResolution> player =
      mp.DecodeTurnResult(*setup, codec::SerializeMessage(named, codec::Format::kBinary));
  REQUIRE_MINI(!player.ok());
  CHECK_MINI(Contains(player.status().message(), "field player"));

  pbem::v1::TurnResult newer = proto;
  newer.set_format_version(99);
  const Result<TurnResolution> future =
      mp.DecodeTurnResult(*setup, codec::SerializeMessage(newer, codec::Format::kBinary));
  REQUIRE_MINI(!future.ok());
  CHECK_MINI(Contains(future.status().message(), "format_version"));
}

TEST_CASE_MINI(TurnResultM42CarriesItsBodyAndThePlayer) {
  const Registry registry = codec::SystemRegistry();
  const GameSystem& m42 = **registry.Find("m42");
  const Result<Setup> setup = m42.LoadBundled(m42::kPumpingStationName);
  REQUIRE_MINI(setup.ok());
  State state = *m42.InitialState(*setup, "g1");
  std::size_t events = 0;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const Result<TurnResolution> resolved =
        m42.ResolvePlayerTurn(*setup, state, *m42.BotOrders(*setup, state, seed), 0);
    REQUIRE_MINI(resolved.ok());
    const std::string bytes = test::CheckTurnResultRoundTrip(m42, *setup, state, *resolved);
    REQUIRE_MINI(!bytes.empty());
    pbem::v1::TurnResult envelope;
    REQUIRE_MINI(envelope.ParseFromString(bytes));
    CHECK_MINI(envelope.has_m42());
    CHECK_EQ_MINI(envelope.verdicts_size(), 0);
    CHECK_EQ_MINI(envelope.events_size(), 0);
    CHECK_EQ_MINI(static_cast<std::size_t>(envelope.m42().events_size()), resolved->events.size());
    events += resolved->events.size();
    state = resolved->next;
  }
  CHECK_MINI(events > 100);
}

// Bytes written for one system read by another: refused naming the field, whichever way.
TEST_CASE_MINI(TurnResultOfAnotherSystemIsRefusedNamingTheField) {
  const Registry registry = codec::SystemRegistry();
  const GameSystem& mp = **registry.Find("morne-plaine");
  const GameSystem& m42 = **registry.Find("m42");
  const GameSystem& wme = **registry.Find("wme");
  const Result<Setup> mp_setup =
      mp.Load(test::BundledData("morne-plaine", "bois-de-la-morne.textproto"));
  const Result<Setup> m42_setup = m42.LoadBundled(m42::kPumpingStationName);
  const Result<Setup> wme_setup = wme.Load(test::BundledData("wme", "wme/palissade.textproto"));
  REQUIRE_MINI(mp_setup.ok() && m42_setup.ok() && wme_setup.ok());
  const State mp_state = *mp.InitialState(*mp_setup, "g1");
  const State m42_state = *m42.InitialState(*m42_setup, "g1");
  const std::string mp_bytes = *mp.EncodeTurnResult(
      *mp_setup, mp_state,
      *mp.ResolvePlayerTurn(*mp_setup, mp_state, *mp.BotOrders(*mp_setup, mp_state, 1), 5));
  const std::string m42_bytes = *m42.EncodeTurnResult(
      *m42_setup, m42_state,
      *m42.ResolvePlayerTurn(*m42_setup, m42_state, *m42.BotOrders(*m42_setup, m42_state, 1), 0));
  const auto refused = [](const Result<TurnResolution>& r, const std::string& words) {
    CHECK_MINI(!r.ok());
    if (r.ok()) return;
    CHECK_MINI(r.status().code() == StatusCode::kInvalidArgument);
    CHECK_MINI(Contains(r.status().message(), words));
  };
  refused(mp.DecodeTurnResult(*mp_setup, m42_bytes),
          "field m42: the turn result is written for m42");
  refused(m42.DecodeTurnResult(*m42_setup, mp_bytes), "field m42: missing");
  refused(wme.DecodeTurnResult(*wme_setup, m42_bytes), "this game plays wme");

  // Morne Plaine's fields beside a body; a body whose next state is not the game's.
  pbem::v1::TurnResult mixed;
  REQUIRE_MINI(mixed.ParseFromString(m42_bytes));
  *mixed.add_events() = pbem::v1::Event();
  refused(m42.DecodeTurnResult(*m42_setup, codec::SerializeMessage(mixed, codec::Format::kBinary)),
          "field events: Morne Plaine's turn result beside the m42 body");
  pbem::v1::TurnResult broken;
  REQUIRE_MINI(broken.ParseFromString(m42_bytes));
  broken.mutable_m42()->set_next_state("state 1 0\nmodel nobody");
  refused(m42.DecodeTurnResult(*m42_setup, codec::SerializeMessage(broken, codec::Format::kBinary)),
          "next_state");
  pbem::v1::TurnResult sided;
  REQUIRE_MINI(sided.ParseFromString(m42_bytes));
  sided.set_side(pbem::v1::SIDE_BLUE);
  refused(m42.DecodeTurnResult(*m42_setup, codec::SerializeMessage(sided, codec::Format::kBinary)),
          "field side: Morne Plaine's turn result beside the m42 body");
  pbem::v1::TurnResult future;
  REQUIRE_MINI(future.ParseFromString(m42_bytes));
  future.set_format_version(99);
  refused(m42.DecodeTurnResult(*m42_setup, codec::SerializeMessage(future, codec::Format::kBinary)),
          "format_version 99");
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
