// M42 through the game-system interface: its bundled scenario through the registry, every
// answer equal to a direct call of engine/m42 (CanonicalText byte for byte).
#include "engine/system/m42.h"

#include <string>
#include <vector>

#include "engine/m42/bot.h"
#include "engine/m42/canonical.h"
#include "engine/m42/resolve.h"
#include "engine/m42/scenarios.h"
#include "engine/system/registry.h"
#include "tests/engine/mini_test.h"

namespace pbem::game_system {
namespace {

struct M42Fixture {
  Registry registry = BuiltinRegistry();
  const GameSystem& system = **registry.Find("m42");
  Setup setup = *system.LoadBundled("pumping_station");
  m42::Ruleset ruleset = m42::DefaultRuleset();
  m42::Scenario scenario = m42::PumpingStation();
};

// The interface's resolution rebuilt as engine/m42's result type, to print it canonically.
m42::PlayerTurnResult Unwrap(const TurnResolution& r) {
  m42::PlayerTurnResult out;
  out.next = *r.next.handle.As<m42::State>("m42");
  for (const Verdict& v : r.verdicts) out.verdicts.push_back(*v.detail.As<m42::Verdict>("m42"));
  for (const Event& e : r.events) out.events.push_back(*e.detail.As<m42::Event>("m42"));
  return out;
}

TEST_CASE_MINI(M42LoadsItsBundledScenarioThroughTheRegistry) {
  const M42Fixture f;
  CHECK_MINI((f.system.BundledScenarios() == std::vector<std::string>{"pumping_station"}));
  CHECK_EQ_MINI(f.setup.handle.system(), std::string("m42"));
  const Result<Setup> missing = f.system.LoadBundled("pumping");
  CHECK_MINI(missing.status().code() == StatusCode::kNotFound);
  CHECK_EQ_MINI(missing.status().message(),
                std::string("m42: no bundled scenario 'pumping' (bundled: pumping_station)"));
  const Result<Setup> text = f.system.Load(GameData{});
  CHECK_MINI(text.status().code() == StatusCode::kNotSupported);
  const Result<State> start = f.system.InitialState(f.setup, "g1");
  REQUIRE_MINI(start.ok());
  CHECK_MINI((*f.system.WhoseTurn(f.setup, *start) == TurnInfo{1, "blue"}));
  const Result<Outcome> outcome = f.system.GameOutcome(f.setup, *start);
  CHECK_MINI(outcome.status().code() == StatusCode::kNotSupported);
  CHECK_MINI(outcome.status().message().find("end of game") != std::string::npos);
}

TEST_CASE_MINI(M42ChecksOrdersAsTheEngine) {
  const M42Fixture f;
  const m42::State start = *m42::InitialState(f.ruleset, f.scenario).state;
  const State state = *f.system.InitialState(f.setup, "g1");
  const std::string unit = f.scenario.units[0].id;  // blue's
  const m42::Orders valid{"blue", {m42::UnitOrder{unit, m42::Action::kGetDown, {}, {}}}};
  const m42::Orders invalid{"blue", {m42::UnitOrder{"nobody", m42::Action::kAdvance, {}, {}}}};
  for (const m42::Orders& orders : {valid, invalid}) {
    const std::vector<m42::Verdict> want = m42::CheckOrders(f.ruleset, f.scenario, start, orders);
    const Result<std::vector<Verdict>> got =
        f.system.CheckOrders(f.setup, state, M42OrdersOf(orders), 9);
    REQUIRE_MINI(got.ok());
    REQUIRE_MINI(got->size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      CHECK_MINI(*(*got)[i].detail.As<m42::Verdict>("m42") == want[i]);
      CHECK_EQ_MINI((*got)[i].reason, std::string(m42::ReasonName(want[i].reason)));
    }
  }
  CHECK_MINI(AllAcceptable(*f.system.CheckOrders(f.setup, state, M42OrdersOf(valid), 9)));
  const std::vector<Verdict> refused =
      *f.system.CheckOrders(f.setup, state, M42OrdersOf(invalid), 9);
  CHECK_MINI(!AllAcceptable(refused));
  REQUIRE_MINI(refused.size() == 1);
  CHECK_MINI(refused[0].kind == VerdictKind::kInvalid);
  CHECK_EQ_MINI(refused[0].reason, std::string("UNKNOWN_UNIT"));
}

// A game of bot turns through the interface, each player-turn's CanonicalText equal to the
// engine's byte for byte.
TEST_CASE_MINI(M42ResolvesAsTheEngine) {
  const M42Fixture f;
  m42::State direct = *m42::InitialState(f.ruleset, f.scenario).state;
  State state = *f.system.InitialState(f.setup, "g1");
  for (std::uint64_t pt = 1; pt <= 6; ++pt) {
    const m42::Orders orders = m42::BotOrders(f.ruleset, f.scenario, direct, pt);
    m42::PlayerTurnResult want = m42::ResolvePlayerTurn(f.ruleset, f.scenario, direct, orders);
    const Result<Orders> bot = f.system.BotOrders(f.setup, state, pt);
    REQUIRE_MINI(bot.ok());
    const Result<TurnResolution> got = f.system.ResolvePlayerTurn(f.setup, state, *bot, 77);
    REQUIRE_MINI(got.ok());
    CHECK_EQ_MINI(m42::CanonicalText(Unwrap(*got)), m42::CanonicalText(want));
    direct = std::move(want.next);
    state = got->next;
  }
}

TEST_CASE_MINI(M42StateRoundTrip) {
  const M42Fixture f;
  State state = *f.system.InitialState(f.setup, "g1");
  for (std::uint64_t pt = 1; pt <= 3; ++pt) {
    state = f.system.ResolvePlayerTurn(f.setup, state, *f.system.BotOrders(f.setup, state, pt), 0)
                ->next;
  }
  const Result<std::string> bytes = f.system.EncodeState(f.setup, state);
  REQUIRE_MINI(bytes.ok());
  const Result<State> back = f.system.DecodeState(f.setup, *bytes);
  REQUIRE_MINI(back.ok());
  CHECK_EQ_MINI(*f.system.EncodeState(f.setup, *back), *bytes);
  const m42::State& a = *state.handle.As<m42::State>("m42");
  const m42::State& b = *back->handle.As<m42::State>("m42");
  REQUIRE_MINI(a.models.size() == b.models.size());
  for (std::size_t i = 0; i < a.models.size(); ++i) {
    CHECK_MINI(a.models[i].radius == b.models[i].radius && a.models[i].pos == b.models[i].pos);
  }
  CHECK_MINI(!f.system.DecodeState(f.setup, bytes->substr(0, bytes->size() / 2)).ok());
  CHECK_MINI(!f.system.DecodeState(f.setup, "state 1 0\n").ok());
}

}  // namespace
}  // namespace pbem::game_system
