#include "proto/codec/systems.h"

#include <string>
#include <utility>
#include <vector>

#include "engine/system/m42.h"
#include "engine/system/morne_plaine.h"
#include "engine/system/wme.h"
#include "pbem/v1/game.pb.h"
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
  Result<engine::TurnResult> result = TurnResultFromProto(proto, setup.scenario, "the turn result");
  if (!result.ok()) return gs::Status(gs::StatusCode::kInvalidArgument, result.ErrorText());
  return std::move(result).value();
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
  const std::string_view carried = OrdersSystem(orders);
  if (carried != system) {
    if (carried == kMornePlaineSystem) {
      return "field " + std::string(system) + ": missing; this game plays " + std::string(system) +
             " and its orders go in that field";
    }
    return "field " + std::string(carried) + ": the orders are written for " +
           std::string(carried) + "; this game plays " + std::string(system);
  }
  if (carried != kMornePlaineSystem) {
    const char* stray = orders.placements_size() > 0     ? "placements"
                        : orders.bombardments_size() > 0 ? "bombardments"
                        : orders.moves_size() > 0        ? "moves"
                        : orders.attacks_size() > 0      ? "attacks"
                                                         : nullptr;
    if (stray != nullptr) {
      return "field " + std::string(stray) + ": Morne Plaine's orders beside the " +
             std::string(carried) + " body";
    }
  }
  return std::nullopt;
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
      DecodeM42Orders));
  registry.Put(gs::MakeWme(
      [](const gs::GameData& data) {
        return Parse<gs::WmeSetup>(data, LoadWmeRulesetFiles, LoadWmeScenarioText);
      },
      DecodeWmeOrders));
  return registry;
}

}  // namespace pbem::codec
