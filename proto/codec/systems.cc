#include "proto/codec/systems.h"

#include <string>
#include <utility>
#include <vector>

#include "engine/morne_plaine/ids.h"
#include "engine/system/m42.h"
#include "engine/system/morne_plaine.h"
#include "engine/system/wme.h"
#include "engine/wme/canonical.h"
#include "pbem/v1/game.pb.h"
#include "pbem/v1/orders.pb.h"
#include "pbem/v1/turn_result.pb.h"
#include "proto/codec/codec.h"
#include "proto/codec/m42_codec.h"
#include "proto/codec/wme_codec.h"

namespace pbem::codec {
namespace {

namespace gs = game_system;

// The ruleset files through `load_ruleset`, the scenario through `load_scenario` against that
// ruleset: a SetupT {ruleset, scenario}, or kInvalidArgument with the codec's located errors.
template <typename SetupT, typename LoadRuleset, typename LoadScenario>
gs::Result<SetupT> Parse(const gs::GameData& data, LoadRuleset load_ruleset,
                         LoadScenario load_scenario) {
  std::vector<NamedText> files;
  files.reserve(data.ruleset.size());
  for (const gs::DataFile& f : data.ruleset) files.push_back({f.name, f.text});
  auto ruleset = load_ruleset(files);
  if (!ruleset.ok()) return gs::Status(gs::StatusCode::kInvalidArgument, ruleset.ErrorText());
  auto scenario = load_scenario(data.scenario.text, data.scenario.name, ruleset.value().ruleset);
  if (!scenario.ok()) return gs::Status(gs::StatusCode::kInvalidArgument, scenario.ErrorText());
  return SetupT{std::move(ruleset.value().ruleset), std::move(scenario.value().scenario)};
}

gs::Result<std::string> EncodeMornePlaine(const engine::Scenario& scenario,
                                          const engine::GameState& state) {
  return SerializeMessage(StateToProto(state, scenario), Format::kBinary);
}

gs::Result<engine::GameState> DecodeMornePlaine(const engine::Scenario& scenario,
                                                std::string_view bytes) {
  pbem::v1::GameState proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return gs::Status(gs::StatusCode::kInvalidArgument,
                      "the stored state is not a pbem.v1.GameState");
  }
  Result<engine::GameState> state = StateFromProto(proto, scenario);
  if (!state.ok()) {
    return gs::Status(
        gs::StatusCode::kInvalidArgument,
        "the stored state does not fit scenario " + scenario.name + ": " + state.ErrorText());
  }
  return std::move(state).value();
}

// Why an envelope carrying `carried`'s body (with Morne Plaine's field `stray` set, or null)
// cannot be `what` ("orders") of a game of `system`; nullopt when it can.
std::optional<std::string> BodyProblem(std::string_view what, std::string_view goes,
                                       std::string_view carried, std::string_view system,
                                       const char* stray) {
  if (carried != system) {
    if (carried == kMornePlaineSystem) {
      return "field " + std::string(system) + ": missing; this game plays " + std::string(system) +
             " and " + std::string(goes) + " in that field";
    }
    return "field " + std::string(carried) + ": the " + std::string(what) + " " +
           (what == "orders" ? "are" : "is") + " written for " + std::string(carried) +
           "; this game plays " + std::string(system);
  }
  if (carried != kMornePlaineSystem && stray != nullptr) {
    return "field " + std::string(stray) + ": Morne Plaine's " + std::string(what) +
           " beside the " + std::string(carried) + " body";
  }
  return std::nullopt;
}

// Morne Plaine's turn result: pbem.v1.TurnResult in the current format, its turn and side the
// ones `before` waited for, as the turn job has stored them (SerializeMessage is deterministic).
gs::Result<std::string> EncodeMornePlaineResult(const gs::MornePlaineSetup& setup,
                                                const engine::GameState& before,
                                                const engine::TurnResult& result) {
  return SerializeMessage(
      TurnResultToProto(result, setup.scenario, before.turn, before.side_to_move), Format::kBinary);
}

gs::Result<engine::TurnResult> DecodeMornePlaineResult(const gs::MornePlaineSetup& setup,
                                                       std::string_view bytes) {
  pbem::v1::TurnResult proto;
  if (auto parsed = ParseMessage(bytes, Format::kBinary, "the turn result", proto); !parsed.ok()) {
    return gs::Status(gs::StatusCode::kInvalidArgument, parsed.ErrorText());
  }
  if (std::optional<std::string> wrong = TurnResultBodyProblem(proto, kMornePlaineSystem)) {
    return gs::Status(gs::StatusCode::kInvalidArgument, "the turn result: " + *wrong);
  }
  // What the rules resolved always has a next state (an archive page may read a result without
  // one, TurnResultFromProto; a game system may not).
  if (!proto.has_next_state()) {
    return gs::Status(gs::StatusCode::kInvalidArgument, "the turn result: next_state: missing");
  }
  Result<engine::TurnResult> result = TurnResultFromProto(proto, setup.scenario, "the turn result");
  if (!result.ok()) return gs::Status(gs::StatusCode::kInvalidArgument, result.ErrorText());
  return std::move(result).value();
}

// A tabletop system's turn result: the envelope with the turn and the player `before` waited
// for, and the system's body (its verdicts, events, and next state as EncodeState's bytes).
template <typename SetupT, typename StateT, typename Body>
gs::Result<std::string> EncodeTabletopResult(const SetupT& setup, const StateT& before,
                                             Body* (pbem::v1::TurnResult::*mutable_body)(),
                                             const Body& body_value) {
  if (before.active_player >= setup.scenario.players.size()) {
    return gs::Status(gs::StatusCode::kInvalidArgument,
                      "the turn result: the state's active player is not the scenario's");
  }
  pbem::v1::TurnResult envelope;
  envelope.set_format_version(static_cast<std::uint32_t>(kCurrentTurnResultFormat));
  envelope.set_turn(before.turn);
  envelope.set_player(setup.scenario.players[before.active_player]);
  *(envelope.*mutable_body)() = body_value;
  return SerializeMessage(envelope, Format::kBinary);
}

// The envelope's bytes read for `system`: parsed, its body the system's, then `convert(envelope)`.
template <typename T, typename Convert>
gs::Result<T> DecodeTabletopResult(std::string_view bytes, std::string_view system,
                                   Convert convert) {
  pbem::v1::TurnResult envelope;
  if (auto parsed = ParseMessage(bytes, Format::kBinary, "the turn result", envelope);
      !parsed.ok()) {
    return gs::Status(gs::StatusCode::kInvalidArgument, parsed.ErrorText());
  }
  if (!TurnResultFormatOf(envelope)) {
    return gs::Status(gs::StatusCode::kInvalidArgument,
                      "the turn result: format_version " +
                          std::to_string(envelope.format_version()) +
                          " is newer than this program knows");
  }
  if (std::optional<std::string> wrong = TurnResultBodyProblem(envelope, system)) {
    return gs::Status(gs::StatusCode::kInvalidArgument, "the turn result: " + *wrong);
  }
  return convert(envelope);
}

gs::Result<std::string> EncodeM42Result(const gs::M42Setup& setup, const m42::State& before,
                                        const m42::PlayerTurnResult& result) {
  pbem::v1::M42TurnResult body =
      M42TurnResultToProto(result.verdicts, result.events, gs::EncodeM42State(result.next));
  return EncodeTabletopResult(setup, before, &pbem::v1::TurnResult::mutable_m42, body);
}

gs::Result<m42::PlayerTurnResult> DecodeM42Result(const gs::M42Setup& setup,
                                                  std::string_view bytes) {
  return DecodeTabletopResult<m42::PlayerTurnResult>(
      bytes, gs::kM42,
      [&setup](const pbem::v1::TurnResult& envelope) -> gs::Result<m42::PlayerTurnResult> {
        Result<M42TurnResultBody> body = M42TurnResultFromProto(envelope.m42(), "the turn result");
        if (!body.ok()) return gs::Status(gs::StatusCode::kInvalidArgument, body.ErrorText());
        gs::Result<m42::State> next = gs::DecodeM42State(setup, body.value().next_state);
        if (!next.ok()) {
          return gs::Status(gs::StatusCode::kInvalidArgument,
                            "the turn result: next_state: " + next.status().message());
        }
        return m42::PlayerTurnResult{std::move(next).value(), std::move(body.value().verdicts),
                                     std::move(body.value().events)};
      });
}

gs::Result<std::string> EncodeWmeResult(const gs::WmeSetup& setup, const wme::State& before,
                                        const wme::PlayerTurnResult& result) {
  pbem::v1::WmeTurnResult body =
      WmeTurnResultToProto(result.verdicts, result.events, wme::CanonicalStateText(result.next));
  return EncodeTabletopResult(setup, before, &pbem::v1::TurnResult::mutable_wme, body);
}

gs::Result<wme::PlayerTurnResult> DecodeWmeResult(const gs::WmeSetup& setup,
                                                  std::string_view bytes) {
  return DecodeTabletopResult<wme::PlayerTurnResult>(
      bytes, gs::kWme,
      [&setup](const pbem::v1::TurnResult& envelope) -> gs::Result<wme::PlayerTurnResult> {
        Result<WmeTurnResultBody> body = WmeTurnResultFromProto(envelope.wme());
        if (!body.ok()) {
          return gs::Status(gs::StatusCode::kInvalidArgument,
                            "the turn result: " + body.ErrorText());
        }
        auto next =
            wme::StateFromCanonicalText(setup.ruleset, setup.scenario, body.value().next_state);
        if (const auto* error = std::get_if<wme::StateTextError>(&next)) {
          return gs::Status(gs::StatusCode::kInvalidArgument,
                            "the turn result: next_state: " + error->message);
        }
        return wme::PlayerTurnResult{std::get<wme::State>(std::move(next)),
                                     std::move(body.value().verdicts),
                                     std::move(body.value().events)};
      });
}

// The orders envelope's bytes (binary pbem.v1.Orders) read for `system`, then its body
// converted by `convert(envelope)`; kInvalidArgument with the codec's words otherwise.
template <typename T, typename Convert>
gs::Result<T> DecodeEnvelope(std::string_view bytes, std::string_view system, Convert convert) {
  pbem::v1::Orders envelope;
  if (auto parsed = ParseMessage(bytes, Format::kBinary, "the orders", envelope); !parsed.ok()) {
    return gs::Status(gs::StatusCode::kInvalidArgument, parsed.ErrorText());
  }
  if (std::optional<std::string> wrong = OrdersBodyProblem(envelope, system)) {
    return gs::Status(gs::StatusCode::kInvalidArgument, "the orders: " + *wrong);
  }
  return convert(envelope);
}

gs::Result<engine::Orders> DecodeMornePlaineOrders(std::string_view bytes) {
  return DecodeEnvelope<engine::Orders>(
      bytes, kMornePlaineSystem,
      [](const pbem::v1::Orders& envelope) -> gs::Result<engine::Orders> {
        // What cannot be read becomes a problem on its order, and a verdict (codec.h).
        return OrdersFromProto(envelope);
      });
}

// A tabletop system's orders: its body of the envelope read by the codec's `from_proto`
// (body, player, source), its located errors kept as the status's words.
template <typename T, typename Body>
gs::Result<T> DecodeBodyOrders(std::string_view bytes, std::string_view system,
                               const Body& (pbem::v1::Orders::*body)() const,
                               Result<T> (*from_proto)(const Body&, std::string_view,
                                                       std::string_view)) {
  return DecodeEnvelope<T>(bytes, system, [&](const pbem::v1::Orders& envelope) -> gs::Result<T> {
    Result<T> orders = from_proto((envelope.*body)(), envelope.player(), "the orders");
    if (!orders.ok()) return gs::Status(gs::StatusCode::kInvalidArgument, orders.ErrorText());
    return std::move(orders).value();
  });
}

gs::Result<m42::Orders> DecodeM42Orders(std::string_view bytes) {
  return DecodeBodyOrders(bytes, gs::kM42, &pbem::v1::Orders::m42, M42OrdersFromProto);
}

gs::Result<wme::TurnOrders> DecodeWmeOrders(std::string_view bytes) {
  return DecodeBodyOrders(bytes, gs::kWme, &pbem::v1::Orders::wme, WmeOrdersFromProto);
}

static_assert(kMornePlaineSystem == gs::kMornePlaine);

}  // namespace

std::string_view OrdersSystem(const pbem::v1::Orders& orders) {
  switch (orders.body_case()) {
    case pbem::v1::Orders::kM42:
      return gs::kM42;
    case pbem::v1::Orders::kWme:
      return gs::kWme;
    case pbem::v1::Orders::BODY_NOT_SET:
      break;
  }
  return kMornePlaineSystem;
}

std::optional<std::string> OrdersBodyProblem(const pbem::v1::Orders& orders,
                                             std::string_view system) {
  const char* stray = orders.placements_size() > 0     ? "placements"
                      : orders.bombardments_size() > 0 ? "bombardments"
                      : orders.moves_size() > 0        ? "moves"
                      : orders.attacks_size() > 0      ? "attacks"
                                                       : nullptr;
  return BodyProblem("orders", "its orders go", OrdersSystem(orders), system, stray);
}

std::string_view TurnResultSystem(const pbem::v1::TurnResult& result) {
  switch (result.body_case()) {
    case pbem::v1::TurnResult::kM42:
      return gs::kM42;
    case pbem::v1::TurnResult::kWme:
      return gs::kWme;
    case pbem::v1::TurnResult::BODY_NOT_SET:
      break;
  }
  return kMornePlaineSystem;
}

std::optional<std::string> TurnResultBodyProblem(const pbem::v1::TurnResult& result,
                                                 std::string_view system) {
  const char* stray = result.verdicts_size() > 0 ? "verdicts"
                      : result.events_size() > 0 ? "events"
                      : result.has_next_state()  ? "next_state"
                      : result.side() != 0       ? "side"
                                                 : nullptr;
  const std::string_view carried = TurnResultSystem(result);
  if (carried == system && carried == kMornePlaineSystem && !result.player().empty()) {
    return std::string("field player: a Morne Plaine result names its side, not a player");
  }
  return BodyProblem("turn result", "its turn results go", carried, system, stray);
}

std::optional<std::string> CanonicalOrdersEnvelope(std::string_view bytes) {
  pbem::v1::Orders orders;
  if (!orders.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return std::nullopt;
  return CanonicalOrders(orders);
}

std::optional<game_system::TurnInfo> OrdersHeader(std::string_view bytes) {
  pbem::v1::Orders orders;
  if (!orders.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return std::nullopt;
  game_system::TurnInfo header;
  header.turn = orders.turn();
  if (OrdersSystem(orders) == kMornePlaineSystem) {
    if (const std::optional<engine::Side> side = SideFromProto(orders.side())) {
      header.side = std::string(engine::SideName(*side));
    }
  } else {
    header.side = orders.player();
  }
  return header;
}

std::optional<std::string> OrdersMessage(std::string_view bytes) {
  pbem::v1::Orders orders;
  if (!orders.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return std::nullopt;
  return orders.message();
}

std::optional<std::string> EmptyOrdersEnvelope(std::string_view system, const std::string& game_id,
                                               int turn, const std::string& side_or_player) {
  pbem::v1::Orders orders;
  orders.set_game_id(game_id);
  orders.set_turn(turn);
  if (system == kMornePlaineSystem) {
    const std::optional<engine::Side> side = engine::ParseSide(side_or_player);
    if (!side) return std::nullopt;
    orders.set_side(SideToProto(*side));
  } else if (system == gs::kM42) {
    orders.set_player(side_or_player);
    orders.mutable_m42();
  } else if (system == gs::kWme) {
    orders.set_player(side_or_player);
    orders.mutable_wme();
  } else {
    return std::nullopt;
  }
  return CanonicalOrders(orders);
}

std::optional<std::string> TurnResultWithDice(std::string_view result_bytes,
                                              const pbem::v1::DiceCommitment& dice) {
  pbem::v1::TurnResult result;
  if (!result.ParseFromArray(result_bytes.data(), static_cast<int>(result_bytes.size()))) {
    return std::nullopt;
  }
  *result.mutable_dice() = dice;
  return SerializeMessage(result, Format::kBinary);
}

game_system::Setup MornePlaineSetup(const LoadedRuleset& ruleset, const LoadedScenario& scenario) {
  return gs::MornePlaineSetupOf({ruleset.ruleset, scenario.scenario});
}

game_system::Registry SystemRegistry() {
  game_system::Registry registry;
  registry.Put(gs::MakeMornePlaine(
      [](const gs::GameData& data) {
        return Parse<gs::MornePlaineSetup>(data, LoadRulesetFiles, LoadScenarioText);
      },
      gs::MornePlaineStateCodec{EncodeMornePlaine, DecodeMornePlaine}, DecodeMornePlaineOrders,
      gs::MornePlaineResultCodec{EncodeMornePlaineResult, DecodeMornePlaineResult}));
  registry.Put(gs::MakeM42(
      [](const gs::GameData& data) {
        return Parse<gs::M42Setup>(data, LoadM42RulesetFiles, LoadM42ScenarioText);
      },
      DecodeM42Orders, gs::M42ResultCodec{EncodeM42Result, DecodeM42Result}));
  registry.Put(gs::MakeWme(
      [](const gs::GameData& data) {
        return Parse<gs::WmeSetup>(data, LoadWmeRulesetFiles, LoadWmeScenarioText);
      },
      DecodeWmeOrders, gs::WmeResultCodec{EncodeWmeResult, DecodeWmeResult}));
  return registry;
}

}  // namespace pbem::codec
