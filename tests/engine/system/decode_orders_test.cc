// GameSystem::DecodeOrders through the codec's registry (proto/codec/systems.h): each system
// reads its own body from the shared orders envelope (canonical bytes, as stored and archived)
// and plays it as the orders the codec converts directly; another system's body, or none, is
// refused naming the field.
#include <string>

#include "engine/m42/bot.h"
#include "engine/m42/canonical.h"
#include "engine/m42/resolve.h"
#include "engine/m42/scenarios.h"
#include "engine/system/m42.h"
#include "engine/system/morne_plaine.h"
#include "engine/system/wme.h"
#include "proto/codec/codec.h"
#include "proto/codec/m42_codec.h"
#include "proto/codec/systems.h"
#include "proto/codec/wme_codec.h"
#include "tests/engine/mini_test.h"
#include "tests/engine/system/data_files.h"

namespace pbem::game_system {
namespace {

// The canonical envelope of orders in text ("" when they do not parse: no system reads that).
std::string Envelope(const std::string& text) {
  const auto parsed = codec::ParseOrders(text, codec::Format::kText, "orders", nullptr);
  return parsed.ok() ? codec::CanonicalOrders(parsed.value()) : std::string();
}

TEST_CASE_MINI(DecodeOrdersMornePlaineReadsTheBundledOrdersAsTheCodecDoes) {
  const Registry registry = codec::SystemRegistry();
  const GameSystem& mp = **registry.Find("morne-plaine");
  const Result<Setup> setup =
      mp.Load(test::BundledData("morne-plaine", "bois-de-la-morne.textproto"));
  REQUIRE_MINI(setup.ok());
  const State state = *mp.InitialState(*setup, "demo");  // the orders' game
  const std::string text =
      test::Slurp(test::kEngineData / "scenarios/bois-de-la-morne.orders-blue.textproto");
  const Result<Orders> decoded = mp.DecodeOrders(*setup, Envelope(text));
  REQUIRE_MINI(decoded.ok());
  const auto direct = codec::ParseOrders(text, codec::Format::kText, "orders", nullptr);
  REQUIRE_MINI(direct.ok());
  const Orders converted = MornePlaineOrdersOf(codec::OrdersFromProto(direct.value()));
  // The same player-turn, to the last event and the next state.
  const Result<TurnResolution> a = mp.ResolvePlayerTurn(*setup, state, *decoded, 7);
  const Result<TurnResolution> b = mp.ResolvePlayerTurn(*setup, state, converted, 7);
  REQUIRE_MINI(a.ok() && b.ok());
  CHECK_EQ_MINI(*mp.EncodeState(*setup, a->next), *mp.EncodeState(*setup, b->next));
  CHECK_EQ_MINI(a->verdicts.size(), b->verdicts.size());
  CHECK_EQ_MINI(a->events.size(), b->events.size());
  CHECK_MINI(a->verdicts.size() >= 3);
}

TEST_CASE_MINI(DecodeOrdersM42PlaysTheBotsOrdersFromTheEnvelope) {
  const Registry registry = codec::SystemRegistry();
  const GameSystem& m42 = **registry.Find("m42");
  const Result<Setup> setup = m42.LoadBundled(m42::kPumpingStationName);
  REQUIRE_MINI(setup.ok());
  State state = *m42.InitialState(*setup, "g1");
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Result<Orders> bot = m42.BotOrders(*setup, state, seed);
    REQUIRE_MINI(bot.ok());
    const m42::Orders& orders = *bot->handle.As<m42::Orders>("m42");
    pbem::v1::Orders envelope;
    envelope.set_game_id("g1");
    envelope.set_player(orders.player);
    *envelope.mutable_m42() = codec::M42OrdersToProto(orders);
    const Result<Orders> decoded = m42.DecodeOrders(*setup, codec::CanonicalOrders(envelope));
    REQUIRE_MINI(decoded.ok());
    const Result<TurnResolution> a = m42.ResolvePlayerTurn(*setup, state, *decoded, 0);
    const Result<TurnResolution> b = m42.ResolvePlayerTurn(*setup, state, *bot, 0);
    REQUIRE_MINI(a.ok() && b.ok());
    CHECK_EQ_MINI(*m42.EncodeState(*setup, a->next), *m42.EncodeState(*setup, b->next));
    CHECK_EQ_MINI(a->verdicts.size(), orders.actions.size());
    state = a->next;
  }
}

TEST_CASE_MINI(DecodeOrdersWmeReadsItsBody) {
  const Registry registry = codec::SystemRegistry();
  const GameSystem& wme = **registry.Find("wme");
  const Result<Orders> decoded =
      wme.DecodeOrders(Setup{}, Envelope(R"(game_id: "g" turn: 1 player: "nord"
        wme { initiative { evade { unit: "u5" base { id: "u5.1" leg { translate { x: 20 y: 10.5 } } } } }
              orders { charge { unit: "u3" target: "e2" } } })"));
  REQUIRE_MINI(decoded.ok());
  const wme::TurnOrders& orders = *decoded->handle.As<wme::TurnOrders>("wme");
  CHECK_EQ_MINI(orders.player, std::string("nord"));
  REQUIRE_MINI(orders.initiative.size() == 1 && orders.orders.size() == 1);
  const auto& evade = std::get<wme::MoveOrder>(orders.initiative[0]);
  CHECK_MINI(evade.kind == wme::MoveKindOrder::kEvade);
  CHECK_EQ_MINI(evade.bases[0].legs[0].y, wme::Milli{10500});
}

TEST_CASE_MINI(DecodeOrdersRefusesAnotherSystemsBodyOrNone) {
  const Registry registry = codec::SystemRegistry();
  const std::string mp = Envelope(R"(game_id: "g" turn: 1 side: SIDE_BLUE)");
  const std::string m42 = Envelope(R"(game_id: "g" turn: 1 player: "blue" m42 { })");
  const struct {
    const char* system;
    const std::string& bytes;
    const char* message;
  } cases[] = {
      {"m42", mp,
       "the orders: field m42: missing; this game plays m42 and its orders go in that field"},
      {"wme", m42, "the orders: field m42: the orders are written for m42; this game plays wme"},
      {"morne-plaine", m42,
       "the orders: field m42: the orders are written for m42; this game plays morne-plaine"},
  };
  for (const auto& c : cases) {
    const Result<Orders> decoded = (*registry.Find(c.system))->DecodeOrders(Setup{}, c.bytes);
    REQUIRE_MINI(!decoded.ok());
    CHECK_MINI(decoded.status().code() == StatusCode::kInvalidArgument);
    CHECK_EQ_MINI(decoded.status().message(), std::string(c.message));
  }
  // Bytes that are no envelope at all: the codec's words.
  const Result<Orders> garbage =
      (*registry.Find("m42"))->DecodeOrders(Setup{}, std::string("\xff\xff\xff", 3));
  REQUIRE_MINI(!garbage.ok());
  CHECK_MINI(garbage.status().code() == StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pbem::game_system
