#include "engine/system/morne_plaine.h"

#include <utility>
#include <variant>

#include "engine/core/canonical.h"
#include "engine/core/dice.h"
#include "engine/morne_plaine/bot.h"
#include "engine/morne_plaine/turn.h"
#include "engine/morne_plaine/turn_result.h"
#include "engine/morne_plaine/validate_orders.h"
#include "engine/morne_plaine/victory.h"
#include "engine/system/adapter.h"

namespace pbem::game_system {
namespace {

using adapter::Read;
constexpr std::string_view kName = kMornePlaine;

std::string ArgText(const engine::Arg& arg) {
  if (const auto* n = std::get_if<std::int64_t>(&arg)) return std::to_string(*n);
  if (const auto* h = std::get_if<engine::Hex>(&arg)) return engine::FormatLabel(*h);
  return std::get<std::string>(arg);
}

std::vector<Verdict> VerdictsOf(const std::vector<engine::OrderVerdict>& verdicts) {
  std::vector<Verdict> out;
  out.reserve(verdicts.size());
  for (const engine::OrderVerdict& v : verdicts) {
    Verdict n;
    n.order = std::string(engine::OrderKindName(v.order_kind));
    n.unit = v.unit;
    n.kind = v.verdict;
    n.reason = std::string(engine::ReasonCode(v.reason));
    for (std::size_t i = 0; i < v.args.size(); ++i) {
      n.args.push_back(Arg{std::to_string(i), ArgText(v.args[i])});
    }
    n.detail = Handle::Of(kName, v);
    out.push_back(std::move(n));
  }
  return out;
}

TurnResolution ResolutionOf(engine::TurnResult result) {
  TurnResolution out;
  out.verdicts = VerdictsOf(result.verdicts);
  out.events.reserve(result.events.size());
  for (engine::Event& e : result.events) {
    // No unit nor args: Morne Plaine's events are worded by its own templates from `detail`.
    Event n;
    n.kind = std::string(engine::EventKindName(e.kind()));
    n.detail = Handle::Of(kName, std::move(e));
    out.events.push_back(std::move(n));
  }
  out.next = MornePlaineStateOf(std::move(result.next_state));
  return out;
}

constexpr std::string_view kMake = "MakeMornePlaine(parser, state_codec, decoder, result_codec)";

class MornePlaineSystem final : public GameSystem {
 public:
  MornePlaineSystem(MornePlaineParser parser, MornePlaineStateCodec state_codec,
                    MornePlaineOrdersDecoder orders_decoder, MornePlaineResultCodec result_codec)
      : parser_(std::move(parser)),
        state_codec_(std::move(state_codec)),
        orders_decoder_(std::move(orders_decoder)),
        result_codec_(std::move(result_codec)) {}

  std::string_view name() const override { return kName; }

  // Morne Plaine's verdicts carry "none" when there is no reason (its mail words it too).
  std::vector<std::string> ReasonCodes() const override {
    std::vector<std::string> codes;
    for (std::uint16_t r = 0;; ++r) {
      const std::string_view code = engine::ReasonCode(static_cast<engine::Reason>(r));
      if (code == "unknown_reason") break;
      codes.emplace_back(code);
    }
    return codes;
  }
  // Its arguments are positional values (hexes, ids, words.table's "arg.*" words), no condition
  // sections.
  std::vector<ConditionArg> ConditionArgs() const override { return {}; }
  // engine::EventKind's names, in its order.
  bool VerdictsFollowDice() const override {
    return false;
  }  // ValidateOrders rolls none: combat dice decide results, not verdicts
  std::vector<std::string> EventKinds() const override {
    std::vector<std::string> kinds;
    for (std::size_t k = 0; k < engine::kEventKindCount; ++k) {
      kinds.emplace_back(engine::EventKindName(static_cast<engine::EventKind>(k)));
    }
    return kinds;
  }

  Result<Setup> Load(const GameData& data) const override {
    return adapter::LoadThrough(kName, parser_, data, "LoadRulesetFiles, LoadScenarioText",
                                "MakeMornePlaine", MornePlaineSetupOf);
  }

  std::vector<std::string> BundledScenarios() const override { return {}; }
  Result<Setup> LoadBundled(std::string_view scenario) const override {
    return adapter::NoBundledScenario(kName, scenario, {});
  }

  Result<State> InitialState(const Setup& setup, std::string_view game_id) const override {
    const auto s = Read<MornePlaineSetup>(kName, setup.handle, "setup");
    if (!s.ok()) return s.status();
    return MornePlaineStateOf(engine::InitialState((*s)->scenario, std::string(game_id)));
  }

  Result<TurnInfo> WhoseTurn(const Setup& setup, const State& state) const override {
    const auto in = adapter::ReadInputs<MornePlaineSetup, engine::GameState>(kName, setup, state);
    if (!in.ok()) return in.status();
    return TurnInfo{in->state->turn, std::string(engine::SideName(in->state->side_to_move))};
  }

  Result<std::vector<Verdict>> CheckOrders(
      const Setup& setup, const State& state, const Orders& orders,
      std::uint64_t /*dice_seed: the check uses none*/) const override {
    const auto in = adapter::ReadInputs<MornePlaineSetup, engine::GameState, engine::Orders>(
        kName, setup, state, orders);
    if (!in.ok()) return in.status();
    return VerdictsOf(
        engine::ValidateOrders(in->setup->ruleset, in->setup->scenario, *in->state, *in->orders));
  }

  Result<TurnResolution> ResolvePlayerTurn(const Setup& setup, const State& state,
                                           const Orders& orders,
                                           std::uint64_t dice_seed) const override {
    const auto in = adapter::ReadInputs<MornePlaineSetup, engine::GameState, engine::Orders>(
        kName, setup, state, orders);
    if (!in.ok()) return in.status();
    engine::SeededDice dice(dice_seed);
    return ResolutionOf(engine::ResolvePlayerTurn(in->setup->ruleset, in->setup->scenario,
                                                  *in->state, *in->orders, dice));
  }

  Result<Outcome> GameOutcome(const Setup& setup, const State& state) const override {
    const auto in = adapter::ReadInputs<MornePlaineSetup, engine::GameState>(kName, setup, state);
    if (!in.ok()) return in.status();
    Outcome out;
    if (!in->state->finished) return out;
    const engine::GameOutcome& o = in->state->outcome;
    out.finished = true;
    if (o.winner) out.winner = std::string(engine::SideName(*o.winner));
    out.level = std::string(engine::VictoryLevelName(o.level));
    out.scores = {{"blue", o.vp_blue}, {"orange", o.vp_orange}};
    return out;
  }

  Result<Orders> DecodeOrders(const Setup& /*setup*/, std::string_view envelope) const override {
    return adapter::DecodeThrough<engine::Orders>(kName, orders_decoder_, envelope, kMake,
                                                  MornePlaineOrdersOf);
  }

  Result<std::string> EncodeTurnResult(const Setup& setup, const State& before,
                                       const TurnResolution& resolution) const override {
    return adapter::EncodeTurnResultThrough<MornePlaineSetup, engine::GameState,
                                            engine::OrderVerdict, engine::Event>(
        kName, result_codec_, setup, before, resolution, kMake,
        [](std::vector<engine::OrderVerdict> verdicts, std::vector<engine::Event> events,
           engine::GameState next) {
          return engine::TurnResult{std::move(verdicts), std::move(events), std::move(next), {}};
        });
  }

  Result<TurnResolution> DecodeTurnResult(const Setup& setup,
                                          std::string_view bytes) const override {
    return adapter::DecodeTurnResultThrough(kName, result_codec_, setup, bytes, kMake,
                                            ResolutionOf);
  }

  Result<Orders> BotOrders(const Setup& setup, const State& state,
                           std::uint64_t seed) const override {
    const auto in = adapter::ReadInputs<MornePlaineSetup, engine::GameState>(kName, setup, state);
    if (!in.ok()) return in.status();
    return MornePlaineOrdersOf(
        engine::BotOrders(in->setup->ruleset, in->setup->scenario, *in->state, seed));
  }

  Result<std::string> EncodeState(const Setup& setup, const State& state) const override {
    const auto in = adapter::ReadInputs<MornePlaineSetup, engine::GameState>(kName, setup, state);
    if (!in.ok()) return in.status();
    if (state_codec_.encode) return state_codec_.encode(in->setup->scenario, *in->state);
    return EncodeMornePlaineState(in->setup->scenario, *in->state);
  }

  Result<State> DecodeState(const Setup& setup, std::string_view bytes) const override {
    const auto s = Read<MornePlaineSetup>(kName, setup.handle, "setup");
    if (!s.ok()) return s.status();
    Result<engine::GameState> state = state_codec_.decode
                                          ? state_codec_.decode((*s)->scenario, bytes)
                                          : DecodeMornePlaineState((*s)->scenario, bytes);
    if (!state.ok()) return state.status();
    return MornePlaineStateOf(std::move(state).value());
  }

 private:
  MornePlaineParser parser_;
  MornePlaineStateCodec state_codec_;
  MornePlaineOrdersDecoder orders_decoder_;
  MornePlaineResultCodec result_codec_;
};

// The canonical text, line by line (every line as CanonicalWriter writes it):
//   morne-plaine-state 1
//   game <id>
//   turn <turn> <side to move>
//   units <count>                      (the scenario's count)
//   unit <at q r | off> <cs> <mv> <mv_initial> <eliminated> <in_command> <bombarded_this_turn>
//        <reaction_fires> <stuck> <moved_this_turn> <victorious> <has_attacked>
//        <has_been_attacked> <charged count> <charged unit indices...>     (scenario order)
//   objectives <count>, then objective <q> <r> <side>   (map order)
//   forts <count>, then fort <q> <r> <side>              (map order)
//   outcome <finished> <winner | -> <level> <vp_blue> <vp_orange>
constexpr std::string_view kMagic = "morne-plaine-state";
constexpr std::int64_t kVersion = 1;
constexpr std::int64_t kMaxInt = 1'000'000'000;

void WriteOwners(engine::CanonicalWriter& w, std::string_view what, std::string_view each,
                 const std::map<engine::Hex, engine::Side>& owners) {
  w.Word(what).Int(static_cast<std::int64_t>(owners.size()));
  w.End();
  for (const auto& [hex, side] : owners) {
    w.Word(each).Int(hex.q).Int(hex.r).Word(engine::SideName(side));
    w.End();
  }
}

int Flag(bool b) { return b ? 1 : 0; }

}  // namespace

std::string EncodeMornePlaineState(const engine::Scenario& /*scenario*/,
                                   const engine::GameState& state) {
  engine::CanonicalWriter w;
  w.Word(kMagic).Int(kVersion);
  w.End();
  w.Word("game").Id(state.game_id);
  w.End();
  w.Word("turn").Int(state.turn).Word(engine::SideName(state.side_to_move));
  w.End();
  w.Word("units").Int(static_cast<std::int64_t>(state.units.size()));
  w.End();
  for (const engine::UnitState& u : state.units) {
    w.Word("unit");
    if (u.hex) {
      w.Word("at").Int(u.hex->q).Int(u.hex->r);
    } else {
      w.Word("off");
    }
    w.Int(u.cs).Int(u.mv).Int(u.mv_initial).Int(Flag(u.eliminated)).Int(Flag(u.in_command));
    w.Int(Flag(u.bombarded_this_turn)).Int(u.reaction_fires).Int(Flag(u.stuck));
    w.Int(Flag(u.moved_this_turn)).Int(Flag(u.victorious)).Int(Flag(u.has_attacked));
    w.Int(Flag(u.has_been_attacked)).Int(static_cast<std::int64_t>(u.charged_targets.size()));
    for (const engine::UnitId id : u.charged_targets) w.Int(id.value);
    w.End();
  }
  WriteOwners(w, "objectives", "objective", state.objective_owners);
  WriteOwners(w, "forts", "fort", state.fort_owners);
  const engine::GameOutcome& o = state.outcome;
  w.Word("outcome").Int(Flag(state.finished));
  w.Word(o.winner ? engine::SideName(*o.winner) : std::string_view("-"));
  w.Word(engine::VictoryLevelName(o.level)).Int(o.vp_blue).Int(o.vp_orange);
  w.End();
  return w.Take();
}

namespace {

// The decoder's steps; each false return leaves the reader on the line at fault.
struct Decoder {
  const engine::Scenario& scenario;
  engine::CanonicalReader r;
  std::string error;

  bool Fail(std::string what) {
    error = std::move(what);
    return false;
  }
  std::optional<engine::Side> Side() {
    const std::optional<std::string_view> w = r.Word();
    return w ? engine::ParseSide(*w) : std::nullopt;
  }
  std::optional<engine::Hex> HexOnMap() {
    const auto q = r.IntIn(-kMaxInt, kMaxInt);
    const auto rr = q ? r.IntIn(-kMaxInt, kMaxInt) : std::nullopt;
    if (!rr) return std::nullopt;
    const engine::Hex hex{static_cast<std::int32_t>(*q), static_cast<std::int32_t>(*rr)};
    if (!scenario.map.Contains(hex)) return std::nullopt;
    return hex;
  }
  std::optional<bool> FlagValue() {
    const auto v = r.IntIn(0, 1);
    return v ? std::optional<bool>(*v == 1) : std::nullopt;
  }
  std::optional<int> Small() {
    const auto v = r.IntIn(-kMaxInt, kMaxInt);
    return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
  }

  bool Unit(engine::UnitState& u) {
    if (!r.Expect("unit")) return Fail("expected 'unit'");
    const std::optional<std::string_view> where = r.Word();
    if (where == "at") {
      u.hex = HexOnMap();
      if (!u.hex) return Fail("unit: a hex on the map");
    } else if (where != "off") {
      return Fail("unit: 'at' or 'off'");
    }
    std::optional<int> cs = Small(), mv = cs ? Small() : std::nullopt;
    std::optional<int> mv_initial = mv ? Small() : std::nullopt;
    if (!mv_initial) return Fail("unit: cs, mv, mv_initial");
    u.cs = *cs;
    u.mv = *mv;
    u.mv_initial = *mv_initial;
    bool* const flags1[] = {&u.eliminated, &u.in_command, &u.bombarded_this_turn};
    for (bool* f : flags1) {
      const std::optional<bool> v = FlagValue();
      if (!v) return Fail("unit: a flag 0 or 1");
      *f = *v;
    }
    const std::optional<int> fires = Small();
    if (!fires) return Fail("unit: reaction_fires");
    u.reaction_fires = *fires;
    bool* const flags2[] = {&u.stuck, &u.moved_this_turn, &u.victorious, &u.has_attacked,
                            &u.has_been_attacked};
    for (bool* f : flags2) {
      const std::optional<bool> v = FlagValue();
      if (!v) return Fail("unit: a flag 0 or 1");
      *f = *v;
    }
    const auto units = static_cast<std::int64_t>(scenario.units.size());
    const auto charged = r.IntIn(0, units);
    if (!charged) return Fail("unit: the count of charged units");
    for (std::int64_t i = 0; i < *charged; ++i) {
      const auto id = r.IntIn(0, units - 1);
      if (!id) return Fail("unit: a charged unit's index");
      u.charged_targets.push_back(engine::UnitId{static_cast<std::int32_t>(*id)});
    }
    return r.End() || Fail("unit: end of line");
  }

  bool Owners(std::string_view what, std::string_view each,
              std::map<engine::Hex, engine::Side>& owners) {
    if (!r.Expect(what)) return Fail("expected '" + std::string(what) + "'");
    const auto count = r.IntIn(0, static_cast<std::int64_t>(scenario.map.width()) *
                                      static_cast<std::int64_t>(scenario.map.height()));
    if (!count || !r.End()) return Fail(std::string(what) + ": a count");
    for (std::int64_t i = 0; i < *count; ++i) {
      if (!r.Expect(each)) return Fail("expected '" + std::string(each) + "'");
      const std::optional<engine::Hex> hex = HexOnMap();
      const std::optional<engine::Side> side = hex ? Side() : std::nullopt;
      if (!side || !r.End()) return Fail(std::string(each) + ": a hex on the map and a side");
      if (!owners.emplace(*hex, *side).second) return Fail(std::string(each) + ": twice");
    }
    return true;
  }

  bool State(engine::GameState& s) {
    if (!r.Expect(kMagic) || r.Int() != kVersion || !r.End()) {
      return Fail("expected '" + std::string(kMagic) + " 1'");
    }
    std::optional<std::string> game = r.Expect("game") ? r.Id() : std::nullopt;
    if (!game || !r.End()) return Fail("expected 'game <id>'");
    s.game_id = std::move(*game);
    const auto turn = r.Expect("turn") ? r.IntIn(1, kMaxInt) : std::nullopt;
    const std::optional<engine::Side> side = turn ? Side() : std::nullopt;
    if (!side || !r.End()) return Fail("expected 'turn <turn> <side>'");
    s.turn = static_cast<int>(*turn);
    s.side_to_move = *side;
    const auto units = static_cast<std::int64_t>(scenario.units.size());
    if (!r.Expect("units") || r.Int() != units || !r.End()) {
      return Fail("expected 'units " + std::to_string(units) + "' (the scenario's units)");
    }
    s.units.resize(scenario.units.size());
    for (engine::UnitState& u : s.units) {
      if (!Unit(u)) return false;
    }
    if (!Owners("objectives", "objective", s.objective_owners)) return false;
    if (!Owners("forts", "fort", s.fort_owners)) return false;
    const std::optional<bool> finished = r.Expect("outcome") ? FlagValue() : std::nullopt;
    if (!finished) return Fail("expected 'outcome <finished>'");
    s.finished = *finished;
    const std::optional<std::string_view> winner = r.Word();
    if (winner && *winner != "-") s.outcome.winner = engine::ParseSide(*winner);
    if (!winner || (*winner != "-" && !s.outcome.winner)) return Fail("outcome: a winner");
    const std::optional<std::string_view> level = r.Word();
    bool known = false;
    for (const engine::VictoryLevel l :
         {engine::VictoryLevel::kDraw, engine::VictoryLevel::kMinor,
          engine::VictoryLevel::kTactical, engine::VictoryLevel::kMajor,
          engine::VictoryLevel::kTotal}) {
      if (level && *level == engine::VictoryLevelName(l)) {
        s.outcome.level = l;
        known = true;
      }
    }
    const std::optional<int> vp_blue = known ? Small() : std::nullopt;
    const std::optional<int> vp_orange = vp_blue ? Small() : std::nullopt;
    if (!vp_orange || !r.End()) return Fail("outcome: a level and two VP");
    s.outcome.vp_blue = *vp_blue;
    s.outcome.vp_orange = *vp_orange;
    return r.AtEnd() || Fail("bytes after the state");
  }
};

}  // namespace

Result<engine::GameState> DecodeMornePlaineState(const engine::Scenario& scenario,
                                                 std::string_view bytes) {
  Decoder d{scenario, engine::CanonicalReader(bytes), {}};
  engine::GameState state;
  if (!d.State(state)) {
    return Status(StatusCode::kInvalidArgument, std::string(kName) + " state: line " +
                                                    std::to_string(d.r.line()) + ": " + d.error);
  }
  return state;
}

std::unique_ptr<GameSystem> MakeMornePlaine(MornePlaineParser parser,
                                            MornePlaineStateCodec state_codec,
                                            MornePlaineOrdersDecoder orders_decoder,
                                            MornePlaineResultCodec result_codec) {
  return std::make_unique<MornePlaineSystem>(std::move(parser), std::move(state_codec),
                                             std::move(orders_decoder), std::move(result_codec));
}

Setup MornePlaineSetupOf(MornePlaineSetup setup) {
  return Setup{Handle::Of(kName, std::move(setup))};
}
Orders MornePlaineOrdersOf(engine::Orders orders) {
  return Orders{Handle::Of(kName, std::move(orders))};
}
State MornePlaineStateOf(engine::GameState state) {
  return State{Handle::Of(kName, std::move(state))};
}

}  // namespace pbem::game_system
