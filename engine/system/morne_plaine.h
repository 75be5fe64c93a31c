// Morne Plaine behind the game-system interface (system name "morne-plaine"). For the code
// that may name Morne Plaine's types: its codec and tests. Everything else uses game_system.h.
//
// What the engine offers and what it does not:
// - Load: Morne Plaine's data is text-format protobuf, parsed by proto/codec (protobuf),
//   which the standard-library engine cannot link. MakeMornePlaine(parser) takes that parser
//   from the codec side; without one, Load is kNotSupported. No scenario is carried in code.
// - EncodeState: a canonical text of engine::GameState written here (canonical.h), since the
//   engine had none (the codec's pbem.v1.GameState is protobuf).
// - Everything else calls the engine's own functions: InitialState, ValidateOrders,
//   ResolvePlayerTurn with SeededDice(seed), the state's finished/outcome, BotOrders.
// - DecodeOrders, EncodeTurnResult, DecodeTurnResult: protobuf too, through the codec's
//   functions given to MakeMornePlaine.
#ifndef PBEM_ENGINE_SYSTEM_MORNE_PLAINE_H_
#define PBEM_ENGINE_SYSTEM_MORNE_PLAINE_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/orders.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"
#include "engine/system/adapter.h"
#include "engine/system/game_system.h"

namespace pbem::game_system {

inline constexpr std::string_view kMornePlaine = "morne-plaine";

struct MornePlaineSetup {
  engine::Ruleset ruleset;
  engine::Scenario scenario;
};
using MornePlaineParser = std::function<Result<MornePlaineSetup>(const GameData&)>;

// How EncodeState/DecodeState keep a state when not as the canonical text below: the codec side
// gives pbem.v1.GameState's bytes, the form pbemd has stored since its first game, so that
// stored games and archives read back unchanged (proto/codec/systems.h). Both or neither set.
struct MornePlaineStateCodec {
  std::function<Result<std::string>(const engine::Scenario&, const engine::GameState&)> encode;
  std::function<Result<engine::GameState>(const engine::Scenario&, std::string_view)> decode;
};

// The codec side's reader of orders (DecodeOrders): the orders envelope to engine::Orders.
using MornePlaineOrdersDecoder = std::function<Result<engine::Orders>(std::string_view envelope)>;

// The codec side's writer and reader of turn results (EncodeTurnResult, DecodeTurnResult):
// pbem.v1.TurnResult in the current format (proto/codec/systems.h).
using MornePlaineResultCodec =
    adapter::TurnResultCodec<MornePlaineSetup, engine::GameState, engine::TurnResult>;

std::unique_ptr<GameSystem> MakeMornePlaine(MornePlaineParser parser = {},
                                            MornePlaineStateCodec state_codec = {},
                                            MornePlaineOrdersDecoder orders_decoder = {},
                                            MornePlaineResultCodec result_codec = {});

// Handles of Morne Plaine values, for its codec (orders parsed from a mail) and tests.
Setup MornePlaineSetupOf(MornePlaineSetup setup);
Orders MornePlaineOrdersOf(engine::Orders orders);
State MornePlaineStateOf(engine::GameState state);

// The canonical text of a state (EncodeState without a state codec), and back (DecodeState):
// nullopt-free, a Status naming the line and field on bad bytes.
std::string EncodeMornePlaineState(const engine::Scenario& scenario,
                                   const engine::GameState& state);
Result<engine::GameState> DecodeMornePlaineState(const engine::Scenario& scenario,
                                                 std::string_view bytes);

}  // namespace pbem::game_system

#endif  // PBEM_ENGINE_SYSTEM_MORNE_PLAINE_H_
