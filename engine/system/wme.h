// The French mass-battle game (Warmaster Evolution's movement chapter) behind the game-system
// interface (system name "wme", as engine/wme and its rulesets "wme_..." are named). For the
// code that may name its types: its codec and tests. Everything else uses game_system.h.
//
// What the engine offers and what it does not:
// - Load: the French game's data is text-format protobuf (pbem.v1.WmeRuleset, WmeScenario: the
//   files engine/rulesets/wme/*.textproto and engine/scenarios/wme/*.textproto), parsed by
//   proto/codec/wme_codec.h, which the standard-library engine cannot link. As for M42 (m42.h),
//   MakeWme(parser) takes that parser from the codec side; without one, Load is kNotSupported.
//   No scenario is carried in code: LoadBundled knows none.
// - Dice: wme::SeededDice(seed), the project's generator (engine/core/dice.h, Pcg32FromSeed);
//   CheckOrders gets its own copy (resolve.h asks for that).
// - EncodeState: engine/wme/canonical.h's canonical state text; DecodeState reads it back
//   against the scenario's start (what play never changes comes from the scenario).
// - GameOutcome (the movement chapter has no end of game) and BotOrders (engine/wme has no
//   bot): kNotSupported.
#ifndef PBEM_ENGINE_SYSTEM_WME_H_
#define PBEM_ENGINE_SYSTEM_WME_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "engine/system/adapter.h"
#include "engine/system/game_system.h"
#include "engine/wme/dice.h"
#include "engine/wme/orders.h"
#include "engine/wme/resolve.h"
#include "engine/wme/ruleset.h"
#include "engine/wme/scenario.h"
#include "engine/wme/state.h"

namespace pbem::game_system {

inline constexpr std::string_view kWme = "wme";

struct WmeSetup {
  wme::Ruleset ruleset;
  wme::Scenario scenario;
};

using WmeParser = std::function<Result<WmeSetup>(const GameData&)>;

// The codec side's reader of orders (DecodeOrders): the orders envelope to the system's orders.
using WmeOrdersDecoder = std::function<Result<wme::TurnOrders>(std::string_view envelope)>;

// The codec side's writer and reader of turn results (EncodeTurnResult, DecodeTurnResult):
// pbem.v1.TurnResult with the system's body (proto/codec/systems.h).
using WmeResultCodec = adapter::TurnResultCodec<WmeSetup, wme::State, wme::PlayerTurnResult>;

std::unique_ptr<GameSystem> MakeWme(WmeParser parser = {}, WmeOrdersDecoder orders_decoder = {},
                                    WmeResultCodec result_codec = {});

Setup WmeSetupOf(WmeSetup setup);
Orders WmeOrdersOf(wme::TurnOrders orders);
State WmeStateOf(wme::State state);

}  // namespace pbem::game_system

#endif  // PBEM_ENGINE_SYSTEM_WME_H_
