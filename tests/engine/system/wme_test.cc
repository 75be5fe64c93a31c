// The French mass-battle game ("wme") through the game-system interface: what its engine has
// (check, resolve with the project's dice) equal to direct calls; what it lacks a typed
// kNotSupported naming it.
#include "engine/system/wme.h"

#include <string>
#include <vector>

#include "engine/core/dice.h"
#include "engine/system/registry.h"
#include "engine/wme/resolve.h"
#include "tests/engine/mini_test.h"
#include "tests/engine/wme/fixtures.h"

namespace pbem::game_system {
namespace {

struct WmeFixture {
  Registry registry = BuiltinRegistry();
  const GameSystem& system = **registry.Find("wme");
  wme::testing::Game game = wme::testing::T12Game();
  Setup setup = WmeSetupOf(WmeSetup{game.ruleset, game.scenario});
};

void CheckNotSupported(const Status& status, const std::string& names) {
  CHECK_MINI(status.code() == StatusCode::kNotSupported);
  CHECK_MINI(status.message().find(names) != std::string::npos);
}

// The French game's seeded dice are the project's generator: the same rolls as
// engine::SeededDice for a d6.
TEST_CASE_MINI(WmeDiceDrawFromTheProjectsGenerator) {
  wme::SeededDice wme_dice(42);
  engine::SeededDice core_dice(42);
  for (int i = 0; i < 50; ++i) CHECK_EQ_MINI(wme_dice.Roll(6), core_dice.Roll(engine::Die::kD6));
}

TEST_CASE_MINI(WmeSaysWhatItsEngineLacks) {
  const WmeFixture f;
  CHECK_MINI(f.system.BundledScenarios().empty());
  CHECK_MINI(f.system.LoadBundled("t12").status().code() == StatusCode::kNotFound);
  // Without the codec's parser (MakeWme(parser), engine/system/wme.h), Load says where it is.
  CheckNotSupported(f.system.Load(GameData{}).status(), "text-format protobuf");
  CheckNotSupported(f.system.Load(GameData{}).status(), "MakeWme(parser)");
  const State start = *f.system.InitialState(f.setup, "g1");
  CHECK_MINI((*f.system.WhoseTurn(f.setup, start) == TurnInfo{1, "blue"}));
  CheckNotSupported(f.system.GameOutcome(f.setup, start).status(), "end of game");
  CheckNotSupported(f.system.BotOrders(f.setup, start, 1).status(), "bot");
}

// Every field of a state (wme::State has no operator==), the static ones included.
std::string Dump(const wme::State& s) {
  std::string out = std::to_string(s.turn) + " " + std::to_string(s.active_player) + "\n";
  for (const wme::BaseState& b : s.bases) {
    out += b.id + " " + b.unit + " " + std::to_string(b.centre.x()) + "," +
           std::to_string(b.centre.y()) + " " + std::to_string(b.heading_mdeg) + " " +
           std::to_string(b.width) + "x" + std::to_string(b.depth) + " " + std::to_string(b.alive) +
           "\n";
  }
  for (const wme::UnitState& u : s.units) {
    out += u.id + " " + u.owner + " " + std::to_string(static_cast<int>(u.troop_type)) +
           std::to_string(static_cast<int>(u.mount)) + " " + std::to_string(u.speed_cm) + " " +
           std::to_string(u.engaged) + std::to_string(u.confused) + std::to_string(u.fortified) +
           std::to_string(u.fanatic) + " " + std::to_string(u.bases_lost) + " " +
           std::to_string(u.moved_by_initiative) + std::to_string(u.moved_by_order) + "\n";
  }
  for (const wme::CommanderState& c : s.commanders) {
    out += c.id + " " + c.owner + " " + std::to_string(c.centre.x()) + "," +
           std::to_string(c.centre.y()) + " " + std::to_string(c.radius) + " " +
           std::to_string(c.general) + std::to_string(c.on_flyer) + " " +
           c.attached_to.value_or("-") + "\n";
  }
  return out;
}

// A state is stored as its canonical text (engine/wme/canonical.h) and read back whole: the
// start and the states after resolved turns with several seeds (moved, confused, evaded).
TEST_CASE_MINI(WmeStatesGoOutAndComeBackAsTheirCanonicalText) {
  const WmeFixture f;
  const State start = *f.system.InitialState(f.setup, "g1");
  std::vector<State> states{start};
  const wme::TurnOrders valid{"blue", {wme::testing::EvadeThroughG()}, {}};
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Result<TurnResolution> r =
        f.system.ResolvePlayerTurn(f.setup, start, WmeOrdersOf(valid), seed);
    REQUIRE_MINI(r.ok());
    states.push_back(r->next);
  }
  for (const State& state : states) {
    const Result<std::string> text = f.system.EncodeState(f.setup, state);
    REQUIRE_MINI(text.ok());
    const Result<State> back = f.system.DecodeState(f.setup, *text);
    REQUIRE_MINI(back.ok());
    CHECK_EQ_MINI(Dump(*back->handle.As<wme::State>("wme")),
                  Dump(*state.handle.As<wme::State>("wme")));
    CHECK_EQ_MINI(*f.system.EncodeState(f.setup, *back), *text);
  }
  // A state that moved is not the start's text.
  CHECK_MINI(*f.system.EncodeState(f.setup, states[1]) != *f.system.EncodeState(f.setup, start));
}

TEST_CASE_MINI(WmeRefusesAStateTextThatIsNotTheScenariosNamingTheLine) {
  const WmeFixture f;
  const State start = *f.system.InitialState(f.setup, "g1");
  const std::string text = *f.system.EncodeState(f.setup, start);
  const auto refused = [&f](const std::string& bytes, const std::string& part) {
    const Result<State> r = f.system.DecodeState(f.setup, bytes);
    REQUIRE_MINI(!r.ok());
    CHECK_MINI(r.status().code() == StatusCode::kInvalidArgument);
    CHECK_MINI(r.status().message().find(part) != std::string::npos);
  };
  refused("", "wme state: line 1: expected 'state <turn> <active player>'");
  refused(text + "base 1:x 1:y 0 0 0 1\n", "bytes after the state");
  refused(text.substr(0, text.size() / 2), "wme state: line ");
  std::string other = text;
  const std::size_t at = other.find("\nunit ");
  REQUIRE_MINI(at != std::string::npos);
  other.replace(other.find(' ', at + 6) + 1, 1, "9");  // a unit's owner's length prefix
  refused(other, "expected 'unit ");
  // A player index the scenario does not have.
  std::string player = text;
  player.replace(0, player.find('\n'), "state 1 7");
  refused(player, "line 1: expected 'state");
}

TEST_CASE_MINI(WmeChecksAndResolvesAsTheEngineWithTheSameSeed) {
  const WmeFixture f;
  const wme::State start = f.game.Start();
  const State state = *f.system.InitialState(f.setup, "g1");
  const wme::TurnOrders valid{"blue", {wme::testing::EvadeThroughG()}, {}};
  wme::MoveOrder stranger = wme::testing::EvadeThroughG();
  stranger.unit = "nobody";
  const wme::TurnOrders invalid{"blue", {stranger}, {}};
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    for (const bool is_valid : {true, false}) {
      const wme::TurnOrders& orders = is_valid ? valid : invalid;
      wme::SeededDice check_dice(seed);
      const std::vector<wme::Verdict> want_verdicts =
          wme::CheckOrders(f.game.ruleset, f.game.scenario, start, orders, check_dice);
      const Result<std::vector<Verdict>> got =
          f.system.CheckOrders(f.setup, state, WmeOrdersOf(orders), seed);
      REQUIRE_MINI(got.ok());
      REQUIRE_MINI(got->size() == want_verdicts.size());
      for (std::size_t i = 0; i < want_verdicts.size(); ++i) {
        CHECK_MINI(*(*got)[i].detail.As<wme::Verdict>("wme") == want_verdicts[i]);
      }
      CHECK_EQ_MINI(AllAcceptable(*got), is_valid);

      wme::SeededDice dice(seed);
      const wme::PlayerTurnResult want =
          wme::ResolvePlayerTurn(f.game.ruleset, f.game.scenario, start, orders, dice);
      const Result<TurnResolution> r =
          f.system.ResolvePlayerTurn(f.setup, state, WmeOrdersOf(orders), seed);
      REQUIRE_MINI(r.ok());
      REQUIRE_MINI(r->events.size() == want.events.size());
      for (std::size_t i = 0; i < want.events.size(); ++i) {
        CHECK_MINI(*r->events[i].detail.As<wme::Event>("wme") == want.events[i]);
        CHECK_EQ_MINI(r->events[i].kind, std::string(wme::EventKindName(want.events[i])));
      }
      const wme::State& next = *r->next.handle.As<wme::State>("wme");
      REQUIRE_MINI(next.bases.size() == want.next.bases.size());
      for (std::size_t i = 0; i < next.bases.size(); ++i) {
        CHECK_MINI(next.bases[i].centre == want.next.bases[i].centre);
        CHECK_EQ_MINI(next.bases[i].heading_mdeg, want.next.bases[i].heading_mdeg);
      }
      for (std::size_t i = 0; i < next.units.size(); ++i) {
        CHECK_EQ_MINI(next.units[i].confused, want.next.units[i].confused);
      }
      CHECK_EQ_MINI(next.active_player, want.next.active_player);
    }
  }
}

}  // namespace
}  // namespace pbem::game_system
