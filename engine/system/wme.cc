#include "engine/system/wme.h"

#include <cstdint>
#include <utility>
#include <variant>

#include "engine/system/adapter.h"
#include "engine/wme/canonical.h"
#include "engine/wme/event.h"
#include "engine/wme/resolve.h"

namespace pbem::game_system {
namespace {

using adapter::Read;
constexpr std::string_view kName = kWme;

std::vector<Verdict> VerdictsOf(const std::vector<wme::Verdict>& verdicts) {
  std::vector<Verdict> out;
  for (const wme::Verdict& v : verdicts) {
    Verdict n;
    n.order = "move";
    n.unit = v.unit;
    n.kind = v.kind;
    n.reason = std::string(wme::ReasonName(v.reason));
    if (!v.base.empty()) n.args.push_back(Arg{"base", v.base});
    if (!v.other.empty()) n.args.push_back(Arg{"other", v.other});
    // value and limit are Milli, but CONTACT_NOT_MAXIMISED's counts (verdict.h).
    const std::string unit(v.reason == wme::Reason::kContactNotMaximised ? "" : kThousandthsOfACm);
    if (v.value) n.args.push_back(Arg{"value", std::to_string(*v.value), unit});
    if (v.limit) n.args.push_back(Arg{"limit", std::to_string(*v.limit), unit});
    if (!v.detail.empty()) n.args.push_back(Arg{"detail", v.detail});
    n.detail = Handle::Of(kName, v);
    out.push_back(std::move(n));
  }
  return out;
}

std::string_view MoveKindWord(wme::MoveKindOrder kind) {
  return kind == wme::MoveKindOrder::kEvade ? "evade" : "advance";
}
std::string_view ZoneWord(table::Zone zone) {
  switch (zone) {
    case table::Zone::kFront:
      return "front";
    case table::Zone::kLeftFlank:
      return "left_flank";
    case table::Zone::kRightFlank:
      return "right_flank";
    case table::Zone::kRear:
      return "rear";
  }
  return "front";
}
std::string Bool(bool b) { return b ? "true" : "false"; }

// The system-neutral fields of each event kind (wme/event.h's table): positions and lengths in
// Milli, headings in millidegrees, words lower-case. `unit` is the unit the event is about (the
// charger, the evader, the supporter); it stays in the args under the engine's name too.
struct EventArgs : adapter::EventFields {
  void operator()(const wme::UnitMoved& e) const {
    out->unit = e.unit;
    Add("kind", std::string(MoveKindWord(e.kind)));
    Add("by_initiative", Bool(e.by_initiative));
  }
  void operator()(const wme::UnitHeld& e) const {
    out->unit = e.unit;
    Add("reason", std::string(wme::ReasonName(e.reason)));
  }
  void operator()(const wme::Moved& e) const {
    Add("base", e.base);
    Length("from_x", e.from_x);
    Length("from_y", e.from_y);
    Angle("from_heading", e.from_heading_mdeg);
    Length("to_x", e.to_x);
    Length("to_y", e.to_y);
    Angle("to_heading", e.to_heading_mdeg);
    Length("travelled", e.travelled);
  }
  void operator()(const wme::FormationNow& e) const {
    out->unit = e.unit;
    Add("formation", adapter::LowerWord(wme::FormationName(e.formation)));
  }
  void operator()(const wme::RanksPassedThrough& e) const {
    out->unit = e.evader;
    Add("evader", e.evader);
    Add("crossed", e.crossed);
  }
  void operator()(const wme::ConfusionTest& e) const {
    out->unit = e.unit;
    Add("roll", std::to_string(e.roll));
    Add("confused", Bool(e.confused));
  }
  void operator()(const wme::PhaseEnded& e) const {
    Add("player", e.player);
    Add("turn", std::to_string(e.turn));
  }
  void operator()(const wme::ZoneTieRoll& e) const {
    out->unit = e.charger;
    Add("charger", e.charger);
    Add("target", e.target);
    Add("roll", std::to_string(e.roll));
  }
  void operator()(const wme::ChargeContact& e) const {
    out->unit = e.charger;
    Add("charger", e.charger);
    Add("target", e.target);
    Add("side", std::string(ZoneWord(e.side)));
    Add("base", e.base);
    Add("target_base", e.target_base);
  }
  void operator()(const wme::AdditionalChargedUnit& e) const { out->unit = e.unit; }
  void operator()(const wme::SupportingCharge& e) const {
    out->unit = e.supporter;
    Add("supporter", e.supporter);
    Add("charger", e.charger);
  }
};

TurnResolution ResolutionOf(wme::PlayerTurnResult result) {
  TurnResolution out;
  out.verdicts = VerdictsOf(result.verdicts);
  out.events.reserve(result.events.size());
  for (wme::Event& e : result.events) {
    const std::string_view kind = wme::EventKindName(e);
    out.events.push_back(adapter::EventOf<EventArgs>(kName, kind, kThousandthsOfACm, std::move(e)));
  }
  out.next = WmeStateOf(std::move(result.next));
  return out;
}

constexpr std::string_view kMake = "MakeWme(parser, orders_decoder, result_codec)";

class WmeSystem final : public GameSystem {
 public:
  WmeSystem(WmeParser parser, WmeOrdersDecoder orders_decoder, WmeResultCodec result_codec)
      : parser_(std::move(parser)),
        orders_decoder_(std::move(orders_decoder)),
        result_codec_(std::move(result_codec)) {}

  std::string_view name() const override { return kName; }

  std::vector<std::string> ReasonCodes() const override {
    std::vector<std::string> codes;
    for (int r = 1; r <= static_cast<int>(wme::kLastReason); ++r) {
      codes.emplace_back(wme::ReasonName(static_cast<wme::Reason>(r)));
    }
    return codes;
  }
  // The `detail` of UNIT_CANNOT_MOVE and SUPPORT_NOT_ELIGIBLE (wme/verdict.h).
  std::vector<ConditionArg> ConditionArgs() const override {
    const auto condition = [](wme::Reason reason, const auto& words) {
      return ConditionArg{std::string(wme::ReasonName(reason)), "detail",
                          std::vector<std::string>(words.begin(), words.end())};
    };
    return {condition(wme::Reason::kUnitCannotMove, wme::kCannotMoveConditions),
            condition(wme::Reason::kSupportNotEligible, wme::kSupportConditions)};
  }
  // The alternatives of wme::Event, in its order.
  bool VerdictsFollowDice() const override {
    return true;
  }  // confusion tests, zone rolls, off-table fate
  std::vector<std::string> EventKinds() const override {
    return adapter::VariantKindNames<wme::Event>(
        [](const wme::Event& e) { return wme::EventKindName(e); });
  }

  Result<Setup> Load(const GameData& data) const override {
    return adapter::LoadThrough(kName, parser_, data, "LoadWmeRulesetFiles, LoadWmeScenarioText",
                                "MakeWme", WmeSetupOf);
  }
  std::vector<std::string> BundledScenarios() const override { return {}; }
  Result<Setup> LoadBundled(std::string_view scenario) const override {
    return adapter::NoBundledScenario(kName, scenario, {});
  }

  Result<State> InitialState(const Setup& setup, std::string_view /*game_id*/) const override {
    const auto s = Read<WmeSetup>(kName, setup.handle, "setup");
    if (!s.ok()) return s.status();
    wme::InitialStateResult start = wme::InitialState((*s)->ruleset, (*s)->scenario);
    if (!start.state) {
      std::string problems;
      for (const wme::ScenarioProblem& p : start.problems) {
        problems += (problems.empty() ? "" : ", ") + p.code + " " + p.id;
      }
      return Status(StatusCode::kInvalidArgument, "wme: the scenario has problems: " + problems);
    }
    return WmeStateOf(std::move(*start.state));
  }

  Result<TurnInfo> WhoseTurn(const Setup& setup, const State& state) const override {
    const auto in = adapter::ReadInputs<WmeSetup, wme::State>(kName, setup, state);
    if (!in.ok()) return in.status();
    const std::vector<std::string>& players = in->setup->scenario.players;
    if (in->state->active_player >= players.size()) {
      return Status(StatusCode::kInvalidArgument, "wme: the active player is not the scenario's");
    }
    return TurnInfo{in->state->turn, players[in->state->active_player]};
  }

  // The check rolls its own copy of the dice ResolvePlayerTurn will roll (resolve.h).
  Result<std::vector<Verdict>> CheckOrders(const Setup& setup, const State& state,
                                           const Orders& orders,
                                           std::uint64_t dice_seed) const override {
    const auto in =
        adapter::ReadInputs<WmeSetup, wme::State, wme::TurnOrders>(kName, setup, state, orders);
    if (!in.ok()) return in.status();
    wme::SeededDice dice(dice_seed);
    return VerdictsOf(
        wme::CheckOrders(in->setup->ruleset, in->setup->scenario, *in->state, *in->orders, dice));
  }

  Result<TurnResolution> ResolvePlayerTurn(const Setup& setup, const State& state,
                                           const Orders& orders,
                                           std::uint64_t dice_seed) const override {
    const auto in =
        adapter::ReadInputs<WmeSetup, wme::State, wme::TurnOrders>(kName, setup, state, orders);
    if (!in.ok()) return in.status();
    wme::SeededDice dice(dice_seed);
    wme::PlayerTurnResult result = wme::ResolvePlayerTurn(in->setup->ruleset, in->setup->scenario,
                                                          *in->state, *in->orders, dice);
    return ResolutionOf(std::move(result));
  }

  Result<Outcome> GameOutcome(const Setup& /*setup*/, const State& /*state*/) const override {
    return adapter::NotSupported(kName, "the movement chapter has no end of game");
  }
  Result<Orders> DecodeOrders(const Setup& /*setup*/, std::string_view envelope) const override {
    return adapter::DecodeThrough<wme::TurnOrders>(kName, orders_decoder_, envelope, kMake,
                                                   WmeOrdersOf);
  }

  Result<std::string> EncodeTurnResult(const Setup& setup, const State& before,
                                       const TurnResolution& resolution) const override {
    return adapter::EncodeTurnResultThrough<WmeSetup, wme::State, wme::Verdict, wme::Event>(
        kName, result_codec_, setup, before, resolution, kMake,
        [](std::vector<wme::Verdict> verdicts, std::vector<wme::Event> events, wme::State next) {
          return wme::PlayerTurnResult{std::move(next), std::move(verdicts), std::move(events)};
        });
  }

  Result<TurnResolution> DecodeTurnResult(const Setup& setup,
                                          std::string_view bytes) const override {
    return adapter::DecodeTurnResultThrough(kName, result_codec_, setup, bytes, kMake,
                                            ResolutionOf);
  }

  Result<Orders> BotOrders(const Setup& /*setup*/, const State& /*state*/,
                           std::uint64_t /*seed*/) const override {
    return adapter::NotSupported(kName, "engine/wme has no soak bot yet");
  }
  Result<std::string> EncodeState(const Setup& setup, const State& state) const override {
    const auto in = adapter::ReadInputs<WmeSetup, wme::State>(kName, setup, state);
    if (!in.ok()) return in.status();
    return wme::CanonicalStateText(*in->state);
  }
  Result<State> DecodeState(const Setup& setup, std::string_view bytes) const override {
    const auto s = Read<WmeSetup>(kName, setup.handle, "setup");
    if (!s.ok()) return s.status();
    auto state = wme::StateFromCanonicalText((*s)->ruleset, (*s)->scenario, bytes);
    if (const auto* error = std::get_if<wme::StateTextError>(&state)) {
      return Status(StatusCode::kInvalidArgument, "wme state: " + error->message);
    }
    return WmeStateOf(std::get<wme::State>(std::move(state)));
  }

 private:
  WmeParser parser_;
  WmeOrdersDecoder orders_decoder_;
  WmeResultCodec result_codec_;
};

}  // namespace

std::unique_ptr<GameSystem> MakeWme(WmeParser parser, WmeOrdersDecoder orders_decoder,
                                    WmeResultCodec result_codec) {
  return std::make_unique<WmeSystem>(std::move(parser), std::move(orders_decoder),
                                     std::move(result_codec));
}

Setup WmeSetupOf(WmeSetup setup) { return Setup{Handle::Of(kName, std::move(setup))}; }
Orders WmeOrdersOf(wme::TurnOrders orders) { return Orders{Handle::Of(kName, std::move(orders))}; }
State WmeStateOf(wme::State state) { return State{Handle::Of(kName, std::move(state))}; }

}  // namespace pbem::game_system
