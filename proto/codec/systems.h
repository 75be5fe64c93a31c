// The game systems with their data read by this codec: the registry that code outside the
// engine plays through (pbemd's GameCatalog, the CLI). The engine's own BuiltinRegistry()
// (engine/system/registry.h) cannot parse text-format protobuf; this one can:
// - every system's Load parses its ruleset files and scenario with the loaders here
//   (LoadRulesetFiles/LoadScenarioText, LoadM42RulesetFiles/LoadM42ScenarioText,
//   LoadWmeRulesetFiles/LoadWmeScenarioText), errors located by file, line and field;
// - Morne Plaine's EncodeState/DecodeState are pbem.v1.GameState's binary bytes, the form
//   pbemd has stored since its first game (StateToProto/StateFromProto): stored games and
//   archives read back unchanged;
// - every system's DecodeOrders reads the orders envelope (binary pbem.v1.Orders, what
//   CanonicalOrders writes) and converts its own body (OrdersFromProto, M42OrdersFromProto,
//   WmeOrdersFromProto); an envelope with another system's body is refused (OrdersBodyProblem);
// - every system's EncodeTurnResult / DecodeTurnResult write and read the turn-result envelope
//   (binary pbem.v1.TurnResult): Morne Plaine's fields as its turn job has always stored them,
//   M42's and wme's in their body with the player and turn around it (TurnResultBodyProblem).
#ifndef PBEM_PROTO_CODEC_SYSTEMS_H_
#define PBEM_PROTO_CODEC_SYSTEMS_H_

#include <optional>
#include <string>
#include <string_view>

#include "engine/system/game_system.h"
#include "engine/system/registry.h"
#include "pbem/v1/dice.pb.h"
#include "proto/codec/codec.h"

namespace pbem::codec {

game_system::Registry SystemRegistry();

// Morne Plaine's registry key, and a ruleset and scenario this codec loaded as that system's
// setup (for GameCatalog, which keeps the loaded messages beside it and so loads the files
// itself), without naming the system's adapter.
inline constexpr std::string_view kMornePlaineSystem = "morne-plaine";
game_system::Setup MornePlaineSetup(const LoadedRuleset& ruleset, const LoadedScenario& scenario);

// The system whose body an orders envelope (pbem.v1.Orders, orders.proto) carries:
// kMornePlaineSystem when `body` is unset (Morne Plaine's fields are the envelope's own, as
// since format 1), else the registry key of the body's field ("m42", "wme").
std::string_view OrdersSystem(const pbem::v1::Orders& orders);
// Why `orders` cannot be orders for a game of `system` (the registry key), naming the field
// (another system's body; Morne Plaine's fields beside another body); nullopt when they can.
std::optional<std::string> OrdersBodyProblem(const pbem::v1::Orders& orders,
                                             std::string_view system);

// The same for a turn-result envelope (pbem.v1.TurnResult, turn_result.proto): the system whose
// body it carries (kMornePlaineSystem when none: Morne Plaine's fields are the envelope's own),
// and why it cannot be a turn result of a game of `system`.
std::string_view TurnResultSystem(const pbem::v1::TurnResult& result);
std::optional<std::string> TurnResultBodyProblem(const pbem::v1::TurnResult& result,
                                                 std::string_view system);

// What the system-neutral turn core (daemon/turn/system_turn.h) reads and writes of the shared
// envelopes without naming their schemas.
//
// The canonical bytes (CanonicalOrders) of the orders envelope `bytes` (binary pbem.v1.Orders,
// untrusted): what is hashed into the dice key, stored and resolved. nullopt when the bytes are
// no envelope.
std::optional<std::string> CanonicalOrdersEnvelope(std::string_view bytes);
// The header of the orders envelope `bytes`: its turn (0 when unset) and who sends it, Morne
// Plaine's side by name ("blue", "" when unset) when it carries Morne Plaine's fields, else its
// `player` ("" when unset). nullopt when the bytes are no envelope.
std::optional<game_system::TurnInfo> OrdersHeader(std::string_view bytes);
// The message to the other players the orders envelope `bytes` carries (its `message` field,
// "" when none): what the results mail quotes. nullopt when the bytes are no envelope.
std::optional<std::string> OrdersMessage(std::string_view bytes);
// The canonical envelope of no orders for `side_or_player`'s player-turn `turn` of game
// `game_id` played with `system` (the registry key): what a missed turn resolves. Morne Plaine's
// is the header alone (game, turn, side), as pbemd's turn loop has always written it; another
// system's is the header (game, turn, player) with its body present and empty, so that its
// DecodeOrders reads it as that system's orders. nullopt for an unknown system, or a Morne
// Plaine side that is not one.
std::optional<std::string> EmptyOrdersEnvelope(std::string_view system, const std::string& game_id,
                                               int turn, const std::string& side_or_player);
// The turn-result envelope `result_bytes` (binary pbem.v1.TurnResult, as EncodeTurnResult writes
// it) with its `dice` field set to `dice`, written again (binary, deterministic). nullopt when the
// bytes are no envelope.
std::optional<std::string> TurnResultWithDice(std::string_view result_bytes,
                                              const pbem::v1::DiceCommitment& dice);

}  // namespace pbem::codec

#endif  // PBEM_PROTO_CODEC_SYSTEMS_H_
