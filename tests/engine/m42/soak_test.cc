// The engine-level soak (issue 16 point 8): 200 games of "pumping_station", 12 player-turns each,
// played by the bot for both players, every action checked (engine/m42/soak.h: no two bases
// overlap, none off the table or on an impassable feature, a legal order leaves its unit
// coherent and clear of the enemy, a refused order changes nothing). The hash is printed so
// that gcc and clang builds can be compared (m42_soak prints the same for any N and seed).
// Also: the checks themselves catch what they claim to, and the bot is deterministic and
// exercises what the soak means to exercise.
#include "engine/m42/soak.h"

#include "engine/m42/bot.h"
#include "engine/m42/canonical.h"
#include "engine/m42/scenarios.h"
#include "tests/engine/m42/fixtures.h"

namespace pbem::m42::test {
namespace {

constexpr std::uint64_t kSeed = 20261126;

State PumpingStart() { return *InitialState(DefaultRuleset(), PumpingStation()).state; }

TEST_CASE_MINI(SoakTwoHundredGamesKeepsTheInvariants) {
  const GameRun run = PlayGames(DefaultRuleset(), PumpingStation(), kSeed, 200, 12);
  std::cout << "    m42 soak: 200 games, seed " << kSeed << ", " << run.counts.player_turns
            << " player-turns, " << run.counts.actions << " actions (" << run.counts.ok << " ok, "
            << run.counts.illegal << " illegal, " << run.counts.invalid << " invalid), hash "
            << HashHex(run.hash) << "\n";
  for (std::size_t i = 0; i < run.violations.size() && i < 10; ++i) {
    std::cout << "    violation: " << run.violations[i] << "\n";
  }
  CHECK_EQ_MINI(run.violations.size(), std::size_t{0});
  const SoakCounts& c = run.counts;
  CHECK_EQ_MINI(c.player_turns, std::uint64_t{2400});
  // Mostly legal, but refusals of both kinds occur.
  CHECK_MINI(c.ok * 2 > c.actions);
  CHECK_MINI(c.illegal * 20 > c.actions);
  CHECK_MINI(c.invalid > 0);
  for (const char* reason :
       {"EXCEEDS_ALLOWANCE", "ACTION_FORBIDS_MOVE", "TURN_FORBIDDEN", "IMPASSABLE",
        "AT_THE_DOUBLE_IN_SLOW_GOING", "ENEMY_TOO_CLOSE", "PATH_START_MISMATCH", "UNKNOWN_MODEL",
        "OFF_FLOOR", "OFF_TABLE", "COHERENCY"}) {
    CHECK_MINI(c.reasons.count(reason) == 1);
    if (!c.reasons.count(reason)) std::cout << "    never refused " << reason << "\n";
  }
  for (const char* action : {"ADVANCE", "AT_THE_DOUBLE", "GET_DOWN", "OPEN_FIRE"}) {
    CHECK_MINI(c.actions_done.count(action) == 1);
  }
  for (const char* event : {"model_moved", "model_turned", "slow_going", "difficult_going",
                            "closest_enemy", "close_combat_joined", "unit_held"}) {
    CHECK_MINI(c.events.count(event) == 1);
    if (!c.events.count(event)) std::cout << "    never saw " << event << "\n";
  }
  CHECK_MINI(c.upper_floor_ends > 0);
}

TEST_CASE_MINI(SoakIsDeterministic) {
  const Ruleset r = DefaultRuleset();
  const Scenario s = PumpingStation();
  const State start = PumpingStart();
  const Orders a = BotOrders(r, s, start, 42);
  const Orders b = BotOrders(r, s, start, 42);
  const Orders other = BotOrders(r, s, start, 43);
  const std::string ta = CanonicalText(ResolvePlayerTurn(r, s, start, a));
  CHECK_EQ_MINI(ta, CanonicalText(ResolvePlayerTurn(r, s, start, b)));
  CHECK_MINI(ta != CanonicalText(ResolvePlayerTurn(r, s, start, other)));
  CHECK_EQ_MINI(PlayGame(r, s, kSeed, 3, 6).hash, PlayGame(r, s, kSeed, 3, 6).hash);
  CHECK_MINI(PlayGame(r, s, kSeed, 3, 6).hash != PlayGame(r, s, kSeed, 4, 6).hash);
}

TEST_CASE_MINI(BotOrdersEveryUnitOfTheActivePlayerOnly) {
  const Ruleset r = DefaultRuleset();
  const Scenario s = PumpingStation();
  State start = PumpingStart();
  int ordered = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const Orders blue = BotOrders(r, s, start, seed);
    CHECK_EQ_MINI(blue.player, std::string("blue"));
    for (const UnitOrder& o : blue.actions) CHECK_EQ_MINI(o.unit.substr(0, 2), std::string("b_"));
    ordered += static_cast<int>(blue.actions.size());
  }
  // Five units, one time in ten left without an order.
  CHECK_MINI(ordered > 80 && ordered < 100);
  start.active_player = 1;
  const Orders red = BotOrders(r, s, start, 1);
  CHECK_EQ_MINI(red.player, std::string("red"));
  for (const UnitOrder& o : red.actions) CHECK_EQ_MINI(o.unit.substr(0, 2), std::string("r_"));
}

TEST_CASE_MINI(InvariantChecksCatchBreaches) {
  const Ruleset r = DefaultRuleset();
  const Scenario s = PumpingStation();
  const State start = PumpingStart();
  auto moved = [&](const std::string& id, double x, double y) {
    State st = start;
    for (ModelState& m : st.models) {
      if (m.id == id) m.pos = P(x, y);
    }
    return st;
  };
  CHECK_EQ_MINI(CheckInvariants(r, s, moved("b_hq_1", 23.5, 3.5)).size(), std::size_t{1});
  CHECK_EQ_MINI(CheckInvariants(r, s, moved("b_hq_1", 0.4, 3)).size(), std::size_t{1});
  CHECK_EQ_MINI(CheckInvariants(r, s, moved("b_hq_1", 23, 22)).size(), std::size_t{1});
  CHECK_EQ_MINI(CheckInvariants(r, s, moved("b_hq_1", 6, 34.2)).size(), std::size_t{1});
  // The pipeline is Slow + Difficult to a Leaper, not Impassible.
  CHECK_EQ_MINI(CheckInvariants(r, s, moved("r_jump_1", 6, 34.2)).size(), std::size_t{0});
  CHECK_EQ_MINI(CheckInvariants(r, s, moved("b_hq_1", 40.5, 38.5)).size(), std::size_t{1});
  State upstairs = moved("b_hq_1", 20, 10);
  upstairs.models[0].floor = 1;
  upstairs.models[0].structure = "station";
  CHECK_EQ_MINI(CheckInvariants(r, s, upstairs).size(), std::size_t{1});

  const UnitOrder order = Act("b_hq", Action::kAdvance, {});
  Verdict refused{"b_hq", VerdictKind::kIllegal, Reason::kCoherency, "b_hq_1", "", {}, {}};
  Verdict ok{"b_hq", VerdictKind::kOk, Reason::kNone, "", "", {}, {}};
  // A refused order that moved a model; a legal one that moved another unit's.
  CHECK_EQ_MINI(CheckActionEffect(r, s, start, moved("b_hq_1", 22, 5), order, refused).size(),
                std::size_t{1});
  CHECK_EQ_MINI(CheckActionEffect(r, s, start, moved("b_sq1_1", 6, 6), order, ok).size(),
                std::size_t{1});
  // A legal order that left the unit incoherent, or one model within 2" of an enemy.
  CHECK_EQ_MINI(CheckActionEffect(r, s, start, moved("b_hq_1", 22, 12), order, ok).size(),
                std::size_t{1});
  CHECK_EQ_MINI(CheckActionEffect(r, s, start, moved("b_hq_3", 25, 4.5), order, ok).size(),
                std::size_t{0});
  CHECK_EQ_MINI(
      CheckActionEffect(r, s, moved("b_hq_1", 22, 41), moved("b_hq_1", 22, 42), order, ok).size(),
      std::size_t{2});  // incoherent, and within 2" of r_beast_3
}

}  // namespace
}  // namespace pbem::m42::test
