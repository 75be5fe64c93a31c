#include "engine/system/m42.h"

#include <cstdint>
#include <utility>
#include <variant>

#include "engine/core/canonical.h"
#include "engine/m42/bot.h"
#include "engine/m42/canonical.h"
#include "engine/m42/event.h"
#include "engine/m42/resolve.h"
#include "engine/m42/scenarios.h"
#include "engine/system/adapter.h"

namespace pbem::game_system {
namespace {

using adapter::Read;
constexpr std::string_view kName = kM42;

std::vector<Verdict> VerdictsOf(const std::vector<m42::Verdict>& verdicts) {
  std::vector<Verdict> out;
  for (const m42::Verdict& v : verdicts) {
    Verdict n;
    n.order = "action";
    n.unit = v.unit;
    n.kind = v.kind;
    n.reason = std::string(m42::ReasonName(v.reason));
    if (!v.model.empty()) n.args.push_back(Arg{"model", v.model});
    if (!v.other.empty()) n.args.push_back(Arg{"other", v.other});
    // Every value and limit is a length or distance in Thou (verdict.h).
    const std::string thou(kThousandthsOfAnInch);
    if (v.value) n.args.push_back(Arg{"value", std::to_string(*v.value), thou});
    if (v.limit) n.args.push_back(Arg{"limit", std::to_string(*v.limit), thou});
    n.detail = Handle::Of(kName, v);
    out.push_back(std::move(n));
  }
  return out;
}

// The state lines of m42::CanonicalText back into a State, checked against the scenario's
// start (same models and units in the same order; radii are the scenario's).
Result<m42::State> Decode(const M42Setup& setup, std::string_view bytes) {
  const m42::InitialStateResult start = m42::InitialState(setup.ruleset, setup.scenario);
  if (!start.state) return Status(StatusCode::kInvalidArgument, "m42: the scenario has problems");
  m42::State s = *start.state;
  engine::CanonicalReader r(bytes);
  const auto fail = [&r](const std::string& what) {
    return Status(StatusCode::kInvalidArgument,
                  "m42 state: line " + std::to_string(r.line()) + ": " + what);
  };
  const auto turn = r.Expect("state") ? r.IntIn(1, 1'000'000'000) : std::nullopt;
  const auto active = turn
                          ? r.IntIn(0, static_cast<std::int64_t>(setup.scenario.players.size()) - 1)
                          : std::nullopt;
  if (!active || !r.End()) return fail("expected 'state <turn> <active player>'");
  s.turn = static_cast<int>(*turn);
  s.active_player = static_cast<std::size_t>(*active);
  for (m42::ModelState& m : s.models) {
    const std::optional<std::string> id = r.Expect("model") ? r.Id() : std::nullopt;
    const std::optional<std::string> unit = id == m.id ? r.Id() : std::nullopt;
    if (unit != m.unit) return fail("expected 'model " + m.id + " " + m.unit + "'");
    const auto x = r.Int();
    const auto y = x ? r.Int() : std::nullopt;
    const std::optional<table::Point> pos = y ? table::Point::Make(*x, *y) : std::nullopt;
    const auto floor = pos ? r.IntIn(0, 1000) : std::nullopt;
    if (!floor) return fail("model " + m.id + ": a position on the table and a floor");
    m.pos = *pos;
    m.floor = static_cast<int>(*floor);
    m.structure.reset();
    if (*floor >= 1) {
      m.structure = r.Id();
      if (!m.structure) return fail("model " + m.id + ": a structure");
    } else if (!r.Expect("-")) {
      return fail("model " + m.id + ": '-' for no structure");
    }
    const auto facing = r.IntIn(0, 359'999);
    const auto alive = facing ? r.IntIn(0, 1) : std::nullopt;
    if (!alive || !r.End()) return fail("model " + m.id + ": a facing and alive");
    m.facing_mdeg = *facing;
    m.alive = *alive == 1;
  }
  for (m42::UnitState& u : s.units) {
    const std::optional<std::string> id = r.Expect("unit") ? r.Id() : std::nullopt;
    const std::optional<std::string> owner = id == u.id ? r.Id() : std::nullopt;
    const std::optional<std::string> task_force = owner == u.owner ? r.Id() : std::nullopt;
    if (task_force != u.task_force) return fail("expected 'unit " + u.id + "' and its owner");
    const auto acted = r.IntIn(0, 1);
    const std::optional<std::string_view> action = acted ? r.Word() : std::nullopt;
    if (!action) return fail("unit " + u.id + ": acted and an action");
    u.acted = *acted == 1;
    u.action.reset();
    for (std::size_t a = 0; a < m42::kActionCount; ++a) {
      if (*action == m42::ActionName(static_cast<m42::Action>(a))) {
        u.action = static_cast<m42::Action>(a);
      }
    }
    if (!u.action && *action != "-") return fail("unit " + u.id + ": an action or '-'");
    u.close_combat_with.clear();
    while (!r.AtLineEnd()) {
      const std::optional<std::string> enemy = r.Id();
      if (!enemy || m42::FindUnit(s, *enemy) == nullptr ||
          !u.close_combat_with.insert(*enemy).second) {
        return fail("unit " + u.id + ": close-combat units");
      }
    }
    if (!r.End()) return fail("unit " + u.id + ": end of line");
  }
  if (!r.AtEnd()) return fail("bytes after the state");
  return s;
}

std::string_view FireWord(m42::Fire fire) {
  switch (fire) {
    case m42::Fire::kUnset:
      return "none";
    case m42::Fire::kBeforeMove:
      return "before_move";
    case m42::Fire::kAfterMove:
      return "after_move";
  }
  return "none";
}

// The system-neutral fields of each event kind (m42/event.h's table): lengths and positions in
// Thou, facings in millidegrees, words lower-case.
struct EventArgs : adapter::EventFields {
  void operator()(const m42::UnitActed& e) const {
    out->unit = e.unit;
    Add("action", adapter::LowerWord(m42::ActionName(e.action)));
    Add("fire", std::string(FireWord(e.fire)));
  }
  void operator()(const m42::UnitHeld& e) const {
    out->unit = e.unit;
    Add("reason", std::string(m42::ReasonName(e.reason)));
  }
  void operator()(const m42::ModelMoved& e) const {
    Add("model", e.model);
    Length("from_x", e.from_x);
    Length("from_y", e.from_y);
    Add("from_floor", std::to_string(e.from_floor));
    Length("to_x", e.to_x);
    Length("to_y", e.to_y);
    Add("to_floor", std::to_string(e.to_floor));
    Length("length", e.length);
  }
  void operator()(const m42::ModelTurned& e) const {
    Add("model", e.model);
    Angle("facing", e.facing_mdeg);
  }
  void operator()(const m42::SlowGoing& e) const {
    Add("model", e.model);
    Add("feature", e.feature);
  }
  void operator()(const m42::DifficultGoing& e) const {
    Add("model", e.model);
    Add("feature", e.feature);
    Length("allowance", std::int64_t{e.allowance} * m42::kThouPerInch);  // whole inches
  }
  void operator()(const m42::ClosestEnemy& e) const {
    Add("model", e.model);
    Add("enemy", e.enemy);
    Length("distance", e.distance);
  }
  void operator()(const m42::CloseCombatJoined& e) const {
    out->unit = e.unit;
    Add("enemy_unit", e.enemy_unit);
    Length("distance", e.distance);
  }
  void operator()(const m42::ActionPhaseEnded& e) const {
    Add("player", e.player);
    Add("turn", std::to_string(e.turn));
  }
};

TurnResolution ResolutionOf(m42::PlayerTurnResult result) {
  TurnResolution out;
  out.verdicts = VerdictsOf(result.verdicts);
  out.events.reserve(result.events.size());
  for (m42::Event& e : result.events) {
    const std::string_view kind = m42::EventKindName(e);
    out.events.push_back(
        adapter::EventOf<EventArgs>(kName, kind, kThousandthsOfAnInch, std::move(e)));
  }
  out.next = M42StateOf(std::move(result.next));
  return out;
}

constexpr std::string_view kMake = "MakeM42(parser, orders_decoder, result_codec)";

class M42System final : public GameSystem {
 public:
  M42System(M42Parser parser, M42OrdersDecoder orders_decoder, M42ResultCodec result_codec)
      : parser_(std::move(parser)),
        orders_decoder_(std::move(orders_decoder)),
        result_codec_(std::move(result_codec)) {}

  std::string_view name() const override { return kName; }

  std::vector<std::string> ReasonCodes() const override {
    std::vector<std::string> codes;
    for (int r = 1; r <= static_cast<int>(m42::kLastReason); ++r) {
      codes.emplace_back(m42::ReasonName(static_cast<m42::Reason>(r)));
    }
    return codes;
  }
  // M42's verdicts carry models, features and lengths (m42/verdict.h), no condition word.
  std::vector<ConditionArg> ConditionArgs() const override { return {}; }
  // The alternatives of m42::Event, in its order.
  bool VerdictsFollowDice() const override { return false; }  // its movement chapters roll no dice
  std::vector<std::string> EventKinds() const override {
    return adapter::VariantKindNames<m42::Event>(
        [](const m42::Event& e) { return m42::EventKindName(e); });
  }

  Result<Setup> Load(const GameData& data) const override {
    return adapter::LoadThrough(kName, parser_, data, "LoadM42RulesetFiles, LoadM42ScenarioText",
                                "MakeM42", M42SetupOf);
  }
  std::vector<std::string> BundledScenarios() const override {
    return {std::string(m42::kPumpingStationName)};
  }
  Result<Setup> LoadBundled(std::string_view scenario) const override {
    if (scenario != m42::kPumpingStationName) {
      return adapter::NoBundledScenario(kName, scenario, BundledScenarios());
    }
    return M42SetupOf(M42Setup{m42::DefaultRuleset(), m42::PumpingStation()});
  }

  Result<State> InitialState(const Setup& setup, std::string_view /*game_id*/) const override {
    const auto s = Read<M42Setup>(kName, setup.handle, "setup");
    if (!s.ok()) return s.status();
    m42::InitialStateResult start = m42::InitialState((*s)->ruleset, (*s)->scenario);
    if (!start.state) {
      std::string problems;
      for (const m42::ScenarioProblem& p : start.problems) {
        problems += (problems.empty() ? "" : ", ") + p.code + " " + p.id;
      }
      return Status(StatusCode::kInvalidArgument, "m42: the scenario has problems: " + problems);
    }
    return M42StateOf(std::move(*start.state));
  }

  Result<TurnInfo> WhoseTurn(const Setup& setup, const State& state) const override {
    const auto in = adapter::ReadInputs<M42Setup, m42::State>(kName, setup, state);
    if (!in.ok()) return in.status();
    const std::vector<std::string>& players = in->setup->scenario.players;
    if (in->state->active_player >= players.size()) {
      return Status(StatusCode::kInvalidArgument, "m42: the active player is not the scenario's");
    }
    return TurnInfo{in->state->turn, players[in->state->active_player]};
  }

  Result<std::vector<Verdict>> CheckOrders(const Setup& setup, const State& state,
                                           const Orders& orders,
                                           std::uint64_t /*dice_seed: no dice*/) const override {
    const auto in =
        adapter::ReadInputs<M42Setup, m42::State, m42::Orders>(kName, setup, state, orders);
    if (!in.ok()) return in.status();
    return VerdictsOf(
        m42::CheckOrders(in->setup->ruleset, in->setup->scenario, *in->state, *in->orders));
  }

  Result<TurnResolution> ResolvePlayerTurn(const Setup& setup, const State& state,
                                           const Orders& orders,
                                           std::uint64_t /*dice_seed: no dice*/) const override {
    const auto in =
        adapter::ReadInputs<M42Setup, m42::State, m42::Orders>(kName, setup, state, orders);
    if (!in.ok()) return in.status();
    m42::PlayerTurnResult result =
        m42::ResolvePlayerTurn(in->setup->ruleset, in->setup->scenario, *in->state, *in->orders);
    return ResolutionOf(std::move(result));
  }

  Result<Outcome> GameOutcome(const Setup& /*setup*/, const State& /*state*/) const override {
    return adapter::NotSupported(kName, "the movement chapter has no end of game");
  }

  Result<Orders> DecodeOrders(const Setup& /*setup*/, std::string_view envelope) const override {
    return adapter::DecodeThrough<m42::Orders>(kName, orders_decoder_, envelope, kMake,
                                               M42OrdersOf);
  }

  Result<std::string> EncodeTurnResult(const Setup& setup, const State& before,
                                       const TurnResolution& resolution) const override {
    return adapter::EncodeTurnResultThrough<M42Setup, m42::State, m42::Verdict, m42::Event>(
        kName, result_codec_, setup, before, resolution, kMake,
        [](std::vector<m42::Verdict> verdicts, std::vector<m42::Event> events, m42::State next) {
          return m42::PlayerTurnResult{std::move(next), std::move(verdicts), std::move(events)};
        });
  }

  Result<TurnResolution> DecodeTurnResult(const Setup& setup,
                                          std::string_view bytes) const override {
    return adapter::DecodeTurnResultThrough(kName, result_codec_, setup, bytes, kMake,
                                            ResolutionOf);
  }

  Result<Orders> BotOrders(const Setup& setup, const State& state,
                           std::uint64_t seed) const override {
    const auto in = adapter::ReadInputs<M42Setup, m42::State>(kName, setup, state);
    if (!in.ok()) return in.status();
    return M42OrdersOf(m42::BotOrders(in->setup->ruleset, in->setup->scenario, *in->state, seed));
  }

  Result<std::string> EncodeState(const Setup& setup, const State& state) const override {
    const auto in = adapter::ReadInputs<M42Setup, m42::State>(kName, setup, state);
    if (!in.ok()) return in.status();
    return EncodeM42State(*in->state);
  }

  Result<State> DecodeState(const Setup& setup, std::string_view bytes) const override {
    const auto s = Read<M42Setup>(kName, setup.handle, "setup");
    if (!s.ok()) return s.status();
    Result<m42::State> state = Decode(**s, bytes);
    if (!state.ok()) return state.status();
    return M42StateOf(std::move(state).value());
  }

 private:
  M42Parser parser_;
  M42OrdersDecoder orders_decoder_;
  M42ResultCodec result_codec_;
};

}  // namespace

std::unique_ptr<GameSystem> MakeM42(M42Parser parser, M42OrdersDecoder orders_decoder,
                                    M42ResultCodec result_codec) {
  return std::make_unique<M42System>(std::move(parser), std::move(orders_decoder),
                                     std::move(result_codec));
}

Setup M42SetupOf(M42Setup setup) { return Setup{Handle::Of(kName, std::move(setup))}; }
Orders M42OrdersOf(m42::Orders orders) { return Orders{Handle::Of(kName, std::move(orders))}; }
State M42StateOf(m42::State state) { return State{Handle::Of(kName, std::move(state))}; }

std::string EncodeM42State(const m42::State& state) {
  return m42::CanonicalText(m42::PlayerTurnResult{state, {}, {}});
}
Result<m42::State> DecodeM42State(const M42Setup& setup, std::string_view bytes) {
  return Decode(setup, bytes);
}

}  // namespace pbem::game_system
