#include "engine/morne_plaine/bot.h"

#include <algorithm>
#include <string>
#include <vector>

#include "engine/core/dice.h"
#include "engine/morne_plaine/turn.h"
#include "engine/morne_plaine/validate_orders.h"
#include "tests/engine/combat_fixtures.h"
#include "tests/engine/mini_test.h"
#include "tests/engine/movement_fixtures.h"

namespace pbem::engine {
namespace {

using testing::H;
using testing::World;

constexpr Side kBlue = Side::kBlue;
constexpr Side kOrange = Side::kOrange;

// Blue: b-i1 in contact with o-i1, a battery with o-i2 two hexes away, and
// b-i2 / b-hc1 three hexes or so from o-i3, far from everything else.
World Fixture() {
  World w(10, 16);
  testing::AddCombatRules(w.ruleset);
  const std::string next_to = FormatLabel(Neighbor(H("0505"), Direction::kE));
  w.Add("b-i1", kBlue, "line_infantry", "0505");
  w.Add("o-i1", kOrange, "line_infantry", next_to.c_str());
  w.Add("b-fa1", kBlue, "foot_artillery", "0502");
  w.Add("o-i2", kOrange, "line_infantry", "0702");
  w.Add("b-i2", kBlue, "line_infantry", "0115");
  w.Add("b-hc1", kBlue, "heavy_cavalry", "0215");
  w.Add("o-i3", kOrange, "line_infantry", "0112");
  return w;
}

bool SameOrders(const Orders& a, const Orders& b) {
  if (a.game_id != b.game_id || a.turn != b.turn || a.side != b.side) return false;
  if (a.placements.size() != b.placements.size() ||
      a.bombardments.size() != b.bombardments.size() || a.moves.size() != b.moves.size() ||
      a.attacks.size() != b.attacks.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.bombardments.size(); ++i) {
    if (a.bombardments[i].unit != b.bombardments[i].unit ||
        a.bombardments[i].target != b.bombardments[i].target) {
      return false;
    }
  }
  for (std::size_t i = 0; i < a.moves.size(); ++i) {
    if (a.moves[i].unit != b.moves[i].unit || a.moves[i].path != b.moves[i].path ||
        a.moves[i].no_charge != b.moves[i].no_charge) {
      return false;
    }
  }
  for (std::size_t i = 0; i < a.attacks.size(); ++i) {
    if (a.attacks[i].attacker != b.attacks[i].attacker ||
        a.attacks[i].defender != b.attacks[i].defender) {
      return false;
    }
  }
  return true;
}

TEST_CASE_MINI(BotOrdersPassValidationAndResolveWithoutRefusals) {
  bool some_move = false;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    World w = Fixture();
    const GameState& state = w.state();
    const Orders orders = BotOrders(w.ruleset, w.scenario, state, seed);
    CHECK_EQ_MINI(orders.game_id, std::string("g"));
    CHECK_EQ_MINI(orders.turn, 1);
    CHECK_MINI(orders.side == kBlue);
    CHECK_MINI(orders.placements.empty());
    // b-i1 attacks o-i1; the battery fires at o-i2.
    REQUIRE_MINI(orders.attacks.size() == 1);
    CHECK_EQ_MINI(orders.attacks[0].attacker, std::string("b-i1"));
    CHECK_EQ_MINI(orders.attacks[0].defender, std::string("o-i1"));
    REQUIRE_MINI(orders.bombardments.size() == 1);
    CHECK_EQ_MINI(orders.bombardments[0].unit, std::string("b-fa1"));
    CHECK_MINI(orders.bombardments[0].target == H("0702"));
    // Neither the attacker nor the battery moves.
    for (const MoveOrder& m : orders.moves) {
      CHECK_MINI(m.unit == "b-i2" || m.unit == "b-hc1");
      CHECK_MINI(m.no_charge);
      CHECK_MINI(!m.path.empty());
      some_move = true;
    }
    const std::vector<OrderVerdict> verdicts = ValidateOrders(w.ruleset, w.scenario, state, orders);
    CHECK_MINI(AllAcceptable(verdicts));
    SeededDice dice(seed);
    std::vector<Phase> phases;
    const TurnResult r = ResolvePlayerTurn(w.ruleset, w.scenario, state, orders, dice,
                                           [&](Phase phase, const GameState& at) {
                                             phases.push_back(phase);
                                             CHECK_MINI(CheckInvariants(w.scenario, at).empty());
                                           });
    for (const OrderVerdict& v : r.verdicts) {
      CHECK_MINI(v.verdict == VerdictKind::kOk || v.verdict == VerdictKind::kPartial);
    }
    CHECK_MINI(CheckInvariants(w.scenario, r.next_state).empty());
    CHECK_MINI(CheckMovesExplained(w.scenario, state, r.events, r.next_state).empty());
    // The observer sees every phase once, in the order of digest 1.3.
    CHECK_MINI((phases == std::vector<Phase>{Phase::kSetup, Phase::kBombardment, Phase::kMovement,
                                             Phase::kCombat, Phase::kRally, Phase::kEndOfTurn}));
  }
  CHECK_MINI(some_move);
}

// Leaders and batteries in contact attack some of the time (the ruleset
// allows both by default); every such order is accepted and resolved.
TEST_CASE_MINI(BotSometimesAttacksWithLeadersAndBatteries) {
  bool leader_attacked = false;
  bool battery_attacked = false;
  for (std::uint64_t seed = 1; seed <= 32; ++seed) {
    World w(10, 10);
    testing::AddCombatRules(w.ruleset);
    w.Add("b-gen", kBlue, "leader", "0303");
    w.Add("o-a", kOrange, "line_infantry", FormatLabel(Neighbor(H("0303"), Direction::kE)).c_str());
    w.Add("b-gun", kBlue, "foot_artillery", "0307");
    w.Add("o-b", kOrange, "line_infantry", FormatLabel(Neighbor(H("0307"), Direction::kE)).c_str());
    const GameState& state = w.state();
    const Orders orders = BotOrders(w.ruleset, w.scenario, state, seed);
    for (const AttackOrder& a : orders.attacks) {
      leader_attacked |= a.attacker == "b-gen";
      battery_attacked |= a.attacker == "b-gun";
    }
    // A battery either attacks or bombards, never both.
    const bool gun_attacks =
        std::any_of(orders.attacks.begin(), orders.attacks.end(),
                    [](const AttackOrder& a) { return a.attacker == "b-gun"; });
    CHECK_MINI(!(gun_attacks && !orders.bombardments.empty()));
    SeededDice dice(seed);
    const TurnResult r = ResolvePlayerTurn(w.ruleset, w.scenario, state, orders, dice);
    for (const OrderVerdict& v : r.verdicts) {
      CHECK_MINI(v.verdict == VerdictKind::kOk || v.verdict == VerdictKind::kPartial);
    }
  }
  CHECK_MINI(leader_attacked);
  CHECK_MINI(battery_attacked);
}

// Turn 1: units off the map are always placed, some others re-placed, all
// inside the zone, on free hexes, accepted and carried out; fixed units stay.
TEST_CASE_MINI(BotPlacesUnitsInItsZoneOnTurnOne) {
  bool moved_one = false;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    World w(10, 10);
    testing::AddCombatRules(w.ruleset);
    w.Add("b-gen", kBlue, "leader", "0502");
    w.Add("b-i1", kBlue, "line_infantry", "");  // off the map: must be placed
    w.Add("b-i2", kBlue, "line_infantry", "0301");
    w.Add("b-fa1", kBlue, "foot_artillery", "0601");
    w.Add("o-i1", kOrange, "line_infantry", "0509");
    w.Corps(kBlue, "I");
    w.spec(*w.scenario.FindUnit("b-fa1")).fixed = true;
    for (int c = 1; c <= 10; ++c) {
      for (int r = 1; r <= 2; ++r)
        w.scenario.deployment[0].insert(FromOffset(Offset{c - 1, r - 1}));
    }
    const GameState& state = w.state();
    const Orders orders = BotOrders(w.ruleset, w.scenario, state, seed);
    bool placed_i1 = false;
    for (const PlacementOrder& p : orders.placements) {
      CHECK_MINI(w.scenario.deployment[0].count(p.hex) == 1);
      CHECK_MINI(p.unit != "b-fa1");
      placed_i1 |= p.unit == "b-i1";
      moved_one |= p.unit != "b-i1";
    }
    CHECK_MINI(placed_i1);
    CHECK_MINI(AllAcceptable(ValidateOrders(w.ruleset, w.scenario, state, orders)));
    SeededDice dice(seed);
    const TurnResult r = ResolvePlayerTurn(w.ruleset, w.scenario, state, orders, dice);
    CHECK_MINI(r.next_state.unit(*w.scenario.FindUnit("b-i1")).on_map());
    CHECK_MINI(CheckInvariants(w.scenario, r.next_state).empty());
    CHECK_MINI(CheckMovesExplained(w.scenario, state, r.events, r.next_state).empty());
  }
  CHECK_MINI(moved_one);
}

TEST_CASE_MINI(BotMovesGetCloserToTheEnemy) {
  World w = Fixture();
  const GameState& state = w.state();
  const Hex target = H("0112");  // o-i3, the nearest enemy of b-i2 and b-hc1
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const Orders orders = BotOrders(w.ruleset, w.scenario, state, seed);
    for (const MoveOrder& m : orders.moves) {
      const UnitId id = *w.scenario.FindUnit(m.unit);
      CHECK_MINI(Distance(m.path.back(), target) < Distance(*state.unit(id).hex, target));
    }
  }
}

TEST_CASE_MINI(BotSameSeedSameOrders) {
  World w = Fixture();
  const GameState& state = w.state();
  bool seeds_differ = false;
  const Orders first = BotOrders(w.ruleset, w.scenario, state, 42);
  CHECK_MINI(SameOrders(first, BotOrders(w.ruleset, w.scenario, state, 42)));
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const Orders a = BotOrders(w.ruleset, w.scenario, state, seed);
    CHECK_MINI(SameOrders(a, BotOrders(w.ruleset, w.scenario, state, seed)));
    if (!SameOrders(a, first)) seeds_differ = true;
  }
  // The seed only decides which units stay put; some seeds must differ.
  CHECK_MINI(seeds_differ);
}

TEST_CASE_MINI(BotGivesNoOrdersOnceTheGameIsOver) {
  World w = Fixture();
  GameState state = w.state();
  state.finished = true;
  const Orders orders = BotOrders(w.ruleset, w.scenario, state, 1);
  CHECK_MINI(orders.moves.empty() && orders.attacks.empty() && orders.bombardments.empty());
}

bool Mentions(const std::vector<std::string>& problems, const std::string& text) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const std::string& p) { return p.find(text) != std::string::npos; });
}

TEST_CASE_MINI(InvariantsHoldInTheInitialState) {
  World w = Fixture();
  CHECK_MINI(CheckInvariants(w.scenario, w.state()).empty());
}

TEST_CASE_MINI(MovesExplainedCatchJumpsAndUnloggedMoves) {
  World w = Fixture();
  const GameState before = w.state();
  const UnitId b_i2 = *w.scenario.FindUnit("b-i2");  // at 0115
  GameState after = before;
  after.unit(b_i2).hex = H("0113");
  // Two rows in one step (0113 is two hexes north of 0115).
  std::vector<Event> events{
      Event{Phase::kMovement, b_i2, {H("0115"), H("0113")}, payload::MoveStep{}, {}}};
  std::vector<std::string> problems = CheckMovesExplained(w.scenario, before, events, after);
  CHECK_EQ_MINI(problems.size(), 1);
  CHECK_MINI(Mentions(problems, "b-i2: move_step 0115 -> 0113 is not one step on the map"));
  // No log at all: the position change is unexplained.
  problems = CheckMovesExplained(w.scenario, before, {}, after);
  CHECK_EQ_MINI(problems.size(), 1);
  CHECK_MINI(Mentions(problems, "b-i2: stands at 0113, the log says 0115"));
  // Two adjacent steps explain it.
  events = {Event{Phase::kMovement, b_i2, {H("0115"), H("0114")}, payload::MoveStep{}, {}},
            Event{Phase::kMovement, b_i2, {H("0114"), H("0113")}, payload::MoveStep{}, {}}};
  CHECK_MINI(CheckMovesExplained(w.scenario, before, events, after).empty());
}

TEST_CASE_MINI(InvariantsCatchStacking) {
  World w = Fixture();
  GameState state = w.state();
  state.unit(*w.scenario.FindUnit("b-i2")).hex = H("0505");  // b-i1's hex
  const std::vector<std::string> problems = CheckInvariants(w.scenario, state);
  CHECK_EQ_MINI(problems.size(), 1);
  CHECK_MINI(Mentions(problems, "b-i2: shares 0505 with b-i1"));
}

TEST_CASE_MINI(InvariantsCatchCsAboveInitial) {
  World w = Fixture();
  GameState state = w.state();
  const UnitId id = *w.scenario.FindUnit("o-i3");
  state.unit(id).cs = w.scenario.unit(id).cs + 1;
  const std::vector<std::string> problems = CheckInvariants(w.scenario, state);
  CHECK_EQ_MINI(problems.size(), 1);
  CHECK_MINI(Mentions(problems, "o-i3: CS 6 outside 0..5"));
}

TEST_CASE_MINI(InvariantsCatchMvAndEliminationBreaches) {
  World w = Fixture();
  GameState state = w.state();
  const UnitId a = *w.scenario.FindUnit("b-i1");
  const UnitId b = *w.scenario.FindUnit("o-i1");
  const UnitId c = *w.scenario.FindUnit("o-i2");
  state.unit(a).mv = state.unit(a).mv_initial + 1;
  state.unit(b).eliminated = true;  // still has its hex
  state.unit(c).cs = 0;             // on the map at CS 0
  const std::vector<std::string> problems = CheckInvariants(w.scenario, state);
  CHECK_EQ_MINI(problems.size(), 3);
  CHECK_MINI(Mentions(problems, "b-i1: MV 5 outside 0..4"));
  CHECK_MINI(Mentions(problems, "o-i1: eliminated but still at"));
  CHECK_MINI(Mentions(problems, "o-i2: on the map at 0702 with CS 0"));
}

}  // namespace
}  // namespace pbem::engine
