// Morne Plaine through the game-system interface: every answer equal to a direct call of
// engine/morne_plaine with the same inputs and seed.
#include "engine/system/morne_plaine.h"

#include <sstream>
#include <string>
#include <vector>

#include "engine/core/dice.h"
#include "engine/morne_plaine/bot.h"
#include "engine/morne_plaine/turn.h"
#include "engine/morne_plaine/validate_orders.h"
#include "engine/morne_plaine/victory.h"
#include "engine/system/registry.h"
#include "tests/engine/fixtures.h"
#include "tests/engine/mini_test.h"

namespace pbem::game_system {
namespace {

using engine::testing::L;
using engine::testing::TinyRuleset;
using engine::testing::TinyScenario;

// A registry whose Morne Plaine parses with a stand-in for the codec: it answers the tiny
// ruleset and scenario for the scenario file "tiny", and an error naming the file otherwise.
Registry TinyRegistry() {
  Registry registry = BuiltinRegistry();
  registry.Put(MakeMornePlaine([](const GameData& data) -> Result<MornePlaineSetup> {
    if (data.scenario.name != "tiny") {
      return Status(StatusCode::kInvalidArgument, data.scenario.name + ": not the tiny scenario");
    }
    return MornePlaineSetup{TinyRuleset(), TinyScenario()};
  }));
  return registry;
}

const GameSystem& System(const Registry& registry) { return **registry.Find("morne-plaine"); }

GameData TinyData() { return GameData{{}, DataFile{"tiny", ""}}; }

// Everything of an event, as text.
std::string EventText(const engine::Event& e) {
  std::ostringstream out;
  out << static_cast<int>(e.phase) << " " << engine::EventKindName(e.kind()) << " "
      << (e.unit ? static_cast<int>(e.unit->index()) : -1);
  for (const engine::Hex& h : e.hexes) out << " " << h.q << "," << h.r;
  for (const std::string& a : engine::EventArgs(e.body)) out << " [" << a << "]";
  if (e.die) out << " die " << static_cast<int>(e.die->die) << e.die->value << e.die->purpose;
  return out.str();
}

engine::Orders B1Move(const engine::GameState& s, std::string unit) {
  engine::Orders o;
  o.game_id = s.game_id;
  o.turn = s.turn;
  o.side = s.side_to_move;
  engine::MoveOrder m;
  m.unit = std::move(unit);
  m.path = {L("0203")};
  o.moves.push_back(m);
  return o;
}

TEST_CASE_MINI(MornePlaineLoadNeedsTheCodecsParser) {
  const Registry registry = BuiltinRegistry();
  const Result<Setup> setup = System(registry).Load(TinyData());
  REQUIRE_MINI(!setup.ok());
  CHECK_MINI(setup.status().code() == StatusCode::kNotSupported);
  CHECK_MINI(setup.status().message().find("proto/codec") != std::string::npos);
  CHECK_MINI(System(registry).BundledScenarios().empty());
  CHECK_MINI(System(registry).LoadBundled("tiny").status().code() == StatusCode::kNotFound);
}

TEST_CASE_MINI(MornePlaineLoadsThroughTheRegistry) {
  const Registry registry = TinyRegistry();
  const Result<Setup> setup = System(registry).Load(TinyData());
  REQUIRE_MINI(setup.ok());
  CHECK_EQ_MINI(setup->handle.system(), std::string("morne-plaine"));
  const Result<Setup> wrong = System(registry).Load(GameData{{}, DataFile{"big", ""}});
  CHECK_MINI(wrong.status().code() == StatusCode::kInvalidArgument);
  CHECK_EQ_MINI(wrong.status().message(), std::string("big: not the tiny scenario"));
  const Result<State> start = System(registry).InitialState(*setup, "g1");
  REQUIRE_MINI(start.ok());
  CHECK_MINI((*System(registry).WhoseTurn(*setup, *start) == TurnInfo{1, "blue"}));
  const Result<Outcome> outcome = System(registry).GameOutcome(*setup, *start);
  REQUIRE_MINI(outcome.ok());
  CHECK_MINI(!outcome->finished);
}

TEST_CASE_MINI(MornePlaineChecksOrdersAsTheEngine) {
  const Registry registry = TinyRegistry();
  const GameSystem& mp = System(registry);
  const Setup setup = *mp.Load(TinyData());
  const engine::GameState start = engine::InitialState(TinyScenario(), "g1");
  const State state = *mp.InitialState(setup, "g1");
  for (const char* unit : {"b1", "nobody"}) {
    const engine::Orders orders = B1Move(start, unit);
    const std::vector<engine::OrderVerdict> want =
        engine::ValidateOrders(TinyRuleset(), TinyScenario(), start, orders);
    const Result<std::vector<Verdict>> got =
        mp.CheckOrders(setup, state, MornePlaineOrdersOf(orders), 1);
    REQUIRE_MINI(got.ok());
    REQUIRE_MINI(got->size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      CHECK_EQ_MINI((*got)[i].reason, std::string(engine::ReasonCode(want[i].reason)));
      CHECK_EQ_MINI((*got)[i].unit, want[i].unit);
      CHECK_EQ_MINI(std::string(VerdictKindName((*got)[i].kind)),
                    std::string(engine::VerdictKindName(want[i].verdict)));
      CHECK_MINI((*got)[i].detail.As<engine::OrderVerdict>("morne-plaine") != nullptr);
    }
    CHECK_EQ_MINI(AllAcceptable(*got), engine::AllAcceptable(want));
    CHECK_EQ_MINI(AllAcceptable(*got), std::string(unit) == "b1");
  }
}

// Resolving a player-turn with seed X through the interface gives what ResolvePlayerTurn gives
// with SeededDice(X): the same verdicts, events and next state (its canonical bytes).
TEST_CASE_MINI(MornePlaineResolvesAsTheEngineWithTheSameSeed) {
  const Registry registry = TinyRegistry();
  const GameSystem& mp = System(registry);
  const Setup setup = *mp.Load(TinyData());
  engine::GameState direct = engine::InitialState(TinyScenario(), "g1");
  State state = *mp.InitialState(setup, "g1");
  for (std::uint64_t pt = 1; pt <= 6; ++pt) {
    const engine::Orders orders = engine::BotOrders(TinyRuleset(), TinyScenario(), direct, pt);
    engine::SeededDice dice(100 + pt);
    engine::TurnResult want =
        engine::ResolvePlayerTurn(TinyRuleset(), TinyScenario(), direct, orders, dice);
    const Result<TurnResolution> got =
        mp.ResolvePlayerTurn(setup, state, MornePlaineOrdersOf(orders), 100 + pt);
    REQUIRE_MINI(got.ok());
    REQUIRE_MINI(got->events.size() == want.events.size());
    for (std::size_t i = 0; i < want.events.size(); ++i) {
      const auto* e = got->events[i].detail.As<engine::Event>("morne-plaine");
      REQUIRE_MINI(e != nullptr);
      CHECK_EQ_MINI(EventText(*e), EventText(want.events[i]));
      CHECK_EQ_MINI(got->events[i].kind, std::string(engine::EventKindName(want.events[i].kind())));
    }
    CHECK_EQ_MINI(got->verdicts.size(), want.verdicts.size());
    CHECK_EQ_MINI(*mp.EncodeState(setup, got->next),
                  EncodeMornePlaineState(TinyScenario(), want.next_state));
    direct = std::move(want.next_state);
    state = got->next;
  }
}

// The bot through the interface plays the engine's bot; a whole game ends with the engine's
// outcome.
TEST_CASE_MINI(MornePlaineBotGameEndsAsTheEngines) {
  const Registry registry = TinyRegistry();
  const GameSystem& mp = System(registry);
  const Setup setup = *mp.Load(TinyData());
  engine::GameState direct = engine::InitialState(TinyScenario(), "g1");
  State state = *mp.InitialState(setup, "g1");
  for (std::uint64_t pt = 1; !direct.finished && pt < 40; ++pt) {
    const engine::Orders orders = engine::BotOrders(TinyRuleset(), TinyScenario(), direct, pt);
    engine::SeededDice dice(pt);
    direct =
        engine::ResolvePlayerTurn(TinyRuleset(), TinyScenario(), direct, orders, dice).next_state;
    const Result<Orders> bot = mp.BotOrders(setup, state, pt);
    REQUIRE_MINI(bot.ok());
    state = mp.ResolvePlayerTurn(setup, state, *bot, pt)->next;
    CHECK_EQ_MINI(*mp.EncodeState(setup, state), EncodeMornePlaineState(TinyScenario(), direct));
  }
  REQUIRE_MINI(direct.finished);
  const Result<Outcome> outcome = mp.GameOutcome(setup, state);
  REQUIRE_MINI(outcome.ok());
  CHECK_MINI(outcome->finished);
  CHECK_EQ_MINI(outcome->winner.value_or("draw"),
                direct.outcome.winner ? std::string(engine::SideName(*direct.outcome.winner))
                                      : std::string("draw"));
  CHECK_EQ_MINI(outcome->level, std::string(engine::VictoryLevelName(direct.outcome.level)));
  CHECK_MINI((outcome->scores == std::vector<Score>{{"blue", direct.outcome.vp_blue},
                                                    {"orange", direct.outcome.vp_orange}}));
}

// Canonical bytes: a state with every field away from its default survives the round trip, and
// two encodings of equal states are equal bytes.
TEST_CASE_MINI(MornePlaineStateRoundTrip) {
  const Registry registry = TinyRegistry();
  const GameSystem& mp = System(registry);
  const Setup setup = *mp.Load(TinyData());
  engine::GameState s = engine::InitialState(TinyScenario(), "a game id with spaces\n2");
  s.turn = 7;
  s.side_to_move = engine::Side::kOrange;
  s.units[0] = engine::UnitState{std::nullopt,
                                 3,
                                 2,
                                 4,
                                 true,
                                 false,
                                 true,
                                 1,
                                 true,
                                 true,
                                 {engine::UnitId{2}, engine::UnitId{3}},
                                 true,
                                 true,
                                 true};
  s.objective_owners[L("0101")] = engine::Side::kOrange;
  s.fort_owners[L("0302")] = engine::Side::kBlue;
  s.finished = true;
  s.outcome = engine::GameOutcome{engine::Side::kBlue, engine::VictoryLevel::kMajor, 5, 2};
  const std::string bytes = *mp.EncodeState(setup, MornePlaineStateOf(s));
  const Result<State> back = mp.DecodeState(setup, bytes);
  REQUIRE_MINI(back.ok());
  CHECK_EQ_MINI(*mp.EncodeState(setup, *back), bytes);
  const auto* t = back->handle.As<engine::GameState>("morne-plaine");
  REQUIRE_MINI(t != nullptr);
  CHECK_EQ_MINI(t->game_id, s.game_id);
  CHECK_EQ_MINI(t->units[0].charged_targets.size(), std::size_t{2});
  CHECK_MINI(t->units[0].eliminated && !t->units[0].hex.has_value());
  CHECK_MINI(t->units[1].hex == s.units[1].hex);
  CHECK_MINI(t->fort_owners == s.fort_owners && t->objective_owners == s.objective_owners);
  CHECK_MINI(t->outcome.level == engine::VictoryLevel::kMajor && t->outcome.vp_blue == 5);
  const engine::GameState fresh = engine::InitialState(TinyScenario(), "g");
  CHECK_EQ_MINI(EncodeMornePlaineState(TinyScenario(), fresh),
                EncodeMornePlaineState(TinyScenario(), engine::GameState(fresh)));
}

// Untrusted bytes: each damage is refused with the line it is on, never a state.
TEST_CASE_MINI(MornePlaineDecodeRefusesDamagedBytes) {
  const Registry registry = TinyRegistry();
  const GameSystem& mp = System(registry);
  const Setup setup = *mp.Load(TinyData());
  const std::string good =
      EncodeMornePlaineState(TinyScenario(), engine::InitialState(TinyScenario(), "g"));
  std::vector<std::string> bad = {"", "garbage", good.substr(0, good.size() / 2), good + "extra\n"};
  std::string wrong_count = good;
  wrong_count.replace(wrong_count.find("units 4"), 7, "units 5");
  bad.push_back(wrong_count);
  std::string huge = good;
  huge.replace(huge.find("game 1:g"), 8, "game 99999999999:g");
  bad.push_back(huge);
  for (const std::string& b : bad) {
    const Result<State> s = mp.DecodeState(setup, b);
    CHECK_MINI(!s.ok());
    CHECK_MINI(s.status().code() == StatusCode::kInvalidArgument);
    CHECK_MINI(s.status().message().find("line ") != std::string::npos);
  }
}

}  // namespace
}  // namespace pbem::game_system
