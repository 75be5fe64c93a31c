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
  CheckNotSupported(f.system.EncodeState(f.setup, start).status(), "canonical");
  CheckNotSupported(f.system.DecodeState(f.setup, "x").status(), "canonical");
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
