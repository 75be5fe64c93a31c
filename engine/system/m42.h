// M42 behind the game-system interface (system name "m42"). For the code that may name M42's
// types: its codec and tests. Everything else uses game_system.h.
//
// What the engine offers and what it does not:
// - Load: M42's data is text-format protobuf (pbem.v1.M42Ruleset, M42Scenario: the files
//   engine/rulesets/m42/*.textproto and engine/scenarios/m42/*.textproto), parsed by
//   proto/codec/m42_codec.h, which the standard-library engine cannot link. As for Morne Plaine
//   (morne_plaine.h), MakeM42(parser) takes that parser from the codec side; without one, Load
//   is kNotSupported. The bundled scenario "pumping_station" is also built in C++
//   (engine/m42/scenarios.h): LoadBundled, equal to the data file.
// - M42's movement rules use no dice: the seed is ignored.
// - GameOutcome: the movement chapter has no end of game: kNotSupported.
// - EncodeState: the state lines of engine/m42/canonical.h's CanonicalText; DecodeState reads
//   them back (radii from the scenario's bases, as InitialState sets them).
// - BotOrders: engine/m42/bot.h.
#ifndef PBEM_ENGINE_SYSTEM_M42_H_
#define PBEM_ENGINE_SYSTEM_M42_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "engine/m42/orders.h"
#include "engine/m42/resolve.h"
#include "engine/m42/ruleset.h"
#include "engine/m42/scenario.h"
#include "engine/m42/state.h"
#include "engine/system/adapter.h"
#include "engine/system/game_system.h"

namespace pbem::game_system {

inline constexpr std::string_view kM42 = "m42";

struct M42Setup {
  m42::Ruleset ruleset;
  m42::Scenario scenario;
};

using M42Parser = std::function<Result<M42Setup>(const GameData&)>;

// The codec side's reader of orders (DecodeOrders): the orders envelope to the system's orders.
using M42OrdersDecoder = std::function<Result<m42::Orders>(std::string_view envelope)>;

// The codec side's writer and reader of turn results (EncodeTurnResult, DecodeTurnResult):
// pbem.v1.TurnResult with the system's body (proto/codec/systems.h).
using M42ResultCodec = adapter::TurnResultCodec<M42Setup, m42::State, m42::PlayerTurnResult>;

std::unique_ptr<GameSystem> MakeM42(M42Parser parser = {}, M42OrdersDecoder orders_decoder = {},
                                    M42ResultCodec result_codec = {});

Setup M42SetupOf(M42Setup setup);
Orders M42OrdersOf(m42::Orders orders);
State M42StateOf(m42::State state);

// A state's canonical text (EncodeState), and back against the setup (DecodeState: untrusted
// bytes, a Status naming the line and field), for the codec's turn results.
std::string EncodeM42State(const m42::State& state);
Result<m42::State> DecodeM42State(const M42Setup& setup, std::string_view bytes);

}  // namespace pbem::game_system

#endif  // PBEM_ENGINE_SYSTEM_M42_H_
