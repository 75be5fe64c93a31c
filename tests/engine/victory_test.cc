#include "engine/morne_plaine/victory.h"

#include <string>
#include <variant>

#include "engine/core/dice.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/turn.h"
#include "tests/engine/fixtures.h"
#include "tests/engine/mini_test.h"

namespace pbem::engine {
namespace {

using testing::L;
using testing::MakeUnit;
using testing::TinyRuleset;

// A 8x6 clear map, 3 turns, blue moves first. Units (MakeUnit values: line
// and hussar CS 4 MV 4 = 16 points, gun BV 3 x range 3 = 9, general 30):
//   0 "bg" blue general 0101, 1 "b1" blue line 0201, 2 "b2" blue gun 0301,
//   3 "og" orange general 0806, 4 "o1" orange line 0706, 5 "o2" orange hussar 0606.
// Blue total 30 + 16 + 9 = 55; orange 30 + 16 + 16 = 62.
struct VictoryWorld {
  Ruleset ruleset = TinyRuleset();
  Scenario scenario;
  GameState state;

  VictoryWorld() {
    scenario.name = "victory";
    scenario.map = Map(8, 6, TerrainId{0});
    scenario.units = {
        MakeUnit("bg", Side::kBlue, UnitTypeId{3}, Arm::kLeader, L("0101")),
        MakeUnit("b1", Side::kBlue, UnitTypeId{0}, Arm::kInfantry, L("0201")),
        MakeUnit("b2", Side::kBlue, UnitTypeId{2}, Arm::kArtillery, L("0301")),
        MakeUnit("og", Side::kOrange, UnitTypeId{3}, Arm::kLeader, L("0806")),
        MakeUnit("o1", Side::kOrange, UnitTypeId{0}, Arm::kInfantry, L("0706")),
        MakeUnit("o2", Side::kOrange, UnitTypeId{1}, Arm::kCavalry, L("0606")),
    };
    scenario.turns = 3;
    scenario.first_side = Side::kBlue;
    state = InitialState(scenario, "g");
  }

  void Objective(std::string name, ObjectiveKind kind, std::vector<Hex> hexes, int vp_blue,
                 int vp_orange, std::optional<Side> owner = std::nullopt) {
    engine::Objective o;
    o.name = std::move(name);
    o.kind = kind;
    o.hexes = std::move(hexes);
    o.vp_blue = vp_blue;
    o.vp_orange = vp_orange;
    o.initial_owner = owner;
    scenario.objectives.push_back(o);
    state = InitialState(scenario, "g");
  }
  UnitState& U(int i) { return state.units[static_cast<std::size_t>(i)]; }
};

payload::VictoryPoints VpOf(const Event& e) {
  const auto* vp = e.get<payload::VictoryPoints>();
  return vp != nullptr ? *vp : payload::VictoryPoints{};
}

payload::GameEnd EndOf(const Event& e) {
  const auto* end = e.get<payload::GameEnd>();
  return end != nullptr ? *end : payload::GameEnd{};
}

std::vector<Event> OfKind(const std::vector<Event>& events, EventKind kind) {
  std::vector<Event> out;
  for (const Event& e : events) {
    if (e.kind() == kind) out.push_back(e);
  }
  return out;
}

TEST_CASE_MINI(VictoryLevelsByDifference) {
  CHECK_MINI(LevelForDifference(0) == VictoryLevel::kDraw);
  CHECK_MINI(LevelForDifference(1) == VictoryLevel::kMinor);
  CHECK_MINI(LevelForDifference(-2) == VictoryLevel::kTactical);
  CHECK_MINI(LevelForDifference(3) == VictoryLevel::kMajor);
  CHECK_MINI(LevelForDifference(4) == VictoryLevel::kTotal);
  CHECK_MINI(LevelForDifference(9) == VictoryLevel::kTotal);
  CHECK_EQ_MINI(VictoryLevelName(VictoryLevel::kTactical), std::string_view("tactical"));
}

TEST_CASE_MINI(VictoryLastPlayerTurnIsTheSecondSideOfTheLastTurn) {
  VictoryWorld w;
  w.state.turn = 3;
  w.state.side_to_move = Side::kBlue;
  CHECK_MINI(!IsLastPlayerTurn(w.scenario, w.state));
  w.state.side_to_move = Side::kOrange;
  CHECK_MINI(IsLastPlayerTurn(w.scenario, w.state));
  w.state.turn = 2;
  CHECK_MINI(!IsLastPlayerTurn(w.scenario, w.state));
}

TEST_CASE_MINI(VictoryOccupiedHexNeedsANonLeader) {
  VictoryWorld w;
  w.Objective("mill", ObjectiveKind::kOccupied, {L("0201")}, 1, 1);
  CHECK_MINI(ObjectiveHolder(w.scenario, w.state, w.scenario.objectives[0]) == Side::kBlue);
  w.U(1).hex = L("0202");
  w.U(0).hex = L("0201");  // the blue general alone on the hex
  CHECK_MINI(!ObjectiveHolder(w.scenario, w.state, w.scenario.objectives[0]).has_value());
  w.U(0).hex = L("0101");
  w.U(4).hex = L("0201");
  CHECK_MINI(ObjectiveHolder(w.scenario, w.state, w.scenario.objectives[0]) == Side::kOrange);
  w.U(4).eliminated = true;  // an eliminated unit holds nothing
  CHECK_MINI(!ObjectiveHolder(w.scenario, w.state, w.scenario.objectives[0]).has_value());
}

TEST_CASE_MINI(VictoryPassingHexBelongsToItsOwner) {
  VictoryWorld w;
  w.Objective("bridge", ObjectiveKind::kPassing, {L("0404")}, 2, 1, Side::kOrange);
  CHECK_MINI(ObjectiveHolder(w.scenario, w.state, w.scenario.objectives[0]) == Side::kOrange);
  w.U(1).hex = L("0404");  // standing on it does not change the owner
  CHECK_MINI(ObjectiveHolder(w.scenario, w.state, w.scenario.objectives[0]) == Side::kOrange);
  w.state.objective_owners[L("0404")] = Side::kBlue;
  CHECK_MINI(ObjectiveHolder(w.scenario, w.state, w.scenario.objectives[0]) == Side::kBlue);
  w.state.objective_owners.clear();
  CHECK_MINI(!ObjectiveHolder(w.scenario, w.state, w.scenario.objectives[0]).has_value());
}

TEST_CASE_MINI(VictoryOccupiedZoneByStrictMajority) {
  VictoryWorld w;
  w.Objective("ridge", ObjectiveKind::kOccupiedZone, {L("0303"), L("0403"), L("0503")}, 1, 1);
  const engine::Objective& o = w.scenario.objectives[0];
  CHECK_MINI(!ObjectiveHolder(w.scenario, w.state, o).has_value());  // 0-0
  w.U(1).hex = L("0303");
  w.U(4).hex = L("0403");
  CHECK_MINI(!ObjectiveHolder(w.scenario, w.state, o).has_value());  // 1-1
  w.U(2).hex = L("0503");
  CHECK_MINI(ObjectiveHolder(w.scenario, w.state, o) == Side::kBlue);  // 2-1
  w.U(2).hex = L("0301");
  w.U(3).hex = L("0503");  // the orange general does not count: 1-1
  CHECK_MINI(!ObjectiveHolder(w.scenario, w.state, o).has_value());
}

TEST_CASE_MINI(VictoryPassingZoneByStrictMajority) {
  VictoryWorld w;
  w.Objective("village", ObjectiveKind::kPassingZone, {L("0303"), L("0403"), L("0503")}, 1, 1);
  const engine::Objective& o = w.scenario.objectives[0];
  w.state.objective_owners[L("0303")] = Side::kBlue;
  w.state.objective_owners[L("0403")] = Side::kOrange;
  CHECK_MINI(!ObjectiveHolder(w.scenario, w.state, o).has_value());
  w.state.objective_owners[L("0503")] = Side::kOrange;
  CHECK_MINI(ObjectiveHolder(w.scenario, w.state, o) == Side::kOrange);
}

TEST_CASE_MINI(VictoryUnitStrengthValues) {
  VictoryWorld w;
  CHECK_EQ_MINI(UnitStrength(w.ruleset, w.scenario.units[0], 0, 0, false), 30);
  CHECK_EQ_MINI(UnitStrength(w.ruleset, w.scenario.units[1], 3, 2, false), 6);
  CHECK_EQ_MINI(UnitStrength(w.ruleset, w.scenario.units[2], 4, 1, false), 9);  // BV 3 x range 3
  CHECK_EQ_MINI(UnitStrength(w.ruleset, w.scenario.units[5], 4, 4, true), 0);
  w.ruleset.params.leader_strength_points = 20;
  CHECK_EQ_MINI(UnitStrength(w.ruleset, w.scenario.units[3], 0, 0, false), 20);
}

TEST_CASE_MINI(VictoryStrengthOneVpBelowTheGap) {
  VictoryWorld w;
  // Orange o1 CS 4 MV 4 -> CS 2 MV 4: 16 -> 8, orange lost 8/62 = 4/31
  // (12.9 %); blue lost nothing. Gap 12.9 points < 25: blue gains 1 VP.
  w.U(4).cs = 2;
  const StrengthComparison c = CompareStrength(w.ruleset, w.scenario, w.state);
  CHECK_EQ_MINI(c.initial[0], 55);
  CHECK_EQ_MINI(c.initial[1], 62);
  CHECK_EQ_MINI(c.current[1], 54);
  CHECK_MINI(c.lost[1] == Rational(4, 31));
  CHECK_MINI(c.lost[0] == Rational(0));
  CHECK_MINI(c.side == Side::kBlue);
  CHECK_EQ_MINI(c.vp, 1);
}

TEST_CASE_MINI(VictoryStrengthTwoVpFromTheGap) {
  VictoryWorld w;
  // Orange general eliminated: orange lost 30/62 = 15/31 (48.39 %). Blue b1
  // eliminated: blue lost 16/55 (29.09 %). Orange lost more, so blue gains;
  // gap 15/31 - 16/55 = 329/1705 = 19.30 points < 25: 1 VP.
  w.U(3).eliminated = true;
  w.U(1).eliminated = true;
  StrengthComparison c = CompareStrength(w.ruleset, w.scenario, w.state);
  CHECK_MINI(c.lost[1] == Rational(15, 31));
  CHECK_MINI(c.lost[0] == Rational(16, 55));
  CHECK_MINI(c.side == Side::kBlue);
  CHECK_EQ_MINI(c.vp, 1);
  // b1 back: gap 15/31 = 48.39 points >= 25: 2 VP.
  w.U(1).eliminated = false;
  c = CompareStrength(w.ruleset, w.scenario, w.state);
  CHECK_EQ_MINI(c.vp, 2);
  // The threshold is a parameter: 48.39 >= 48 gives 2, < 49 gives 1.
  w.ruleset.params.strength_vp_gap_percent = 48;
  CHECK_EQ_MINI(CompareStrength(w.ruleset, w.scenario, w.state).vp, 2);
  w.ruleset.params.strength_vp_gap_percent = 49;
  CHECK_EQ_MINI(CompareStrength(w.ruleset, w.scenario, w.state).vp, 1);
}

TEST_CASE_MINI(VictoryStrengthGapExactlyAtThreshold) {
  VictoryWorld w;
  // Leader points 32: blue 32 + 16 + 9 = 57, orange 32 + 16 + 16 = 64. o1
  // eliminated: orange lost 16/64 = 1/4, exactly 25 points (>= counts).
  w.ruleset.params.leader_strength_points = 32;
  w.U(4).eliminated = true;
  StrengthComparison c = CompareStrength(w.ruleset, w.scenario, w.state);
  CHECK_MINI(c.lost[1] == Rational(1, 4));
  CHECK_MINI(c.side == Side::kBlue);
  CHECK_EQ_MINI(c.vp, 2);
  w.ruleset.params.strength_vp_gap_percent = 26;
  CHECK_EQ_MINI(CompareStrength(w.ruleset, w.scenario, w.state).vp, 1);
}

TEST_CASE_MINI(VictoryStrengthEqualLossesGiveNothing) {
  VictoryWorld w;
  const StrengthComparison c = CompareStrength(w.ruleset, w.scenario, w.state);
  CHECK_MINI(!c.side.has_value());
  CHECK_EQ_MINI(c.vp, 0);
}

TEST_CASE_MINI(VictoryScoreGameEventsAndOutcome) {
  VictoryWorld w;
  w.Objective("mill", ObjectiveKind::kOccupied, {L("0201")}, 2, 1);
  w.Objective("bridge", ObjectiveKind::kPassing, {L("0404")}, 1, 1, Side::kOrange);
  w.U(4).eliminated = true;  // orange lost 8/31 >= 25 points: blue +2
  std::vector<Event> events;
  const GameOutcome o = ScoreGame(w.ruleset, w.scenario, w.state, events);
  // Blue: mill 2 + strength 2 = 4; orange: bridge 1. Difference 3: major.
  CHECK_EQ_MINI(o.vp_blue, 4);
  CHECK_EQ_MINI(o.vp_orange, 1);
  CHECK_MINI(o.winner == Side::kBlue);
  CHECK_MINI(o.level == VictoryLevel::kMajor);
  REQUIRE_MINI(events.size() == 4);
  CHECK_EQ_MINI(VpOf(events[0]).source, std::string("mill"));
  CHECK_EQ_MINI(VpOf(events[0]).holder, std::string("blue"));
  CHECK_EQ_MINI(VpOf(events[0]).points, 2);
  CHECK_EQ_MINI(VpOf(events[1]).holder, std::string("orange"));
  CHECK_EQ_MINI(VpOf(events[2]).source, std::string("strength"));
  CHECK_EQ_MINI(VpOf(events[2]).lost.value_or(payload::LostStrength{}).blue, std::string("0"));
  CHECK_EQ_MINI(VpOf(events[2]).lost.value_or(payload::LostStrength{}).orange, std::string("8/31"));
  CHECK_MINI(events[3].kind() == EventKind::kGameEnd);
  CHECK_EQ_MINI(EndOf(events[3]).winner, std::string("blue"));
  CHECK_EQ_MINI(EndOf(events[3]).level, std::string("major"));
}

TEST_CASE_MINI(VictoryNoStrengthEventWithModelNone) {
  VictoryWorld w;
  w.ruleset.params.strength_vp_model = StrengthVpModel::kNone;
  w.U(4).eliminated = true;
  std::vector<Event> events;
  const GameOutcome o = ScoreGame(w.ruleset, w.scenario, w.state, events);
  CHECK_EQ_MINI(events.size(), std::size_t{1});
  CHECK_EQ_MINI(o.vp_blue, 0);
  CHECK_MINI(!o.winner.has_value());
  CHECK_MINI(o.level == VictoryLevel::kDraw);
  CHECK_EQ_MINI(EndOf(events[0]).winner, std::string("draw"));
}

Orders Empty(int turn, Side side) {
  Orders orders;
  orders.game_id = "g";
  orders.turn = turn;
  orders.side = side;
  return orders;
}

TEST_CASE_MINI(VictoryGameEndsAfterTheLastPlayerTurnOnly) {
  VictoryWorld w;
  w.Objective("mill", ObjectiveKind::kOccupied, {L("0201")}, 1, 1);
  ScriptedDice dice({});
  // Blue's half of the last turn: the game goes on.
  w.state.turn = 3;
  w.state.side_to_move = Side::kBlue;
  TurnResult r = ResolvePlayerTurn(w.ruleset, w.scenario, w.state, Empty(3, Side::kBlue), dice);
  CHECK_MINI(!r.next_state.finished);
  CHECK_MINI(OfKind(r.events, EventKind::kGameEnd).empty());
  // Orange's half: scored. Blue holds the mill (1 VP), strength equal: minor.
  r = ResolvePlayerTurn(w.ruleset, w.scenario, r.next_state, Empty(3, Side::kOrange), dice);
  CHECK_MINI(r.next_state.finished);
  CHECK_MINI(r.next_state.outcome.winner == Side::kBlue);
  CHECK_MINI(r.next_state.outcome.level == VictoryLevel::kMinor);
  CHECK_EQ_MINI(r.next_state.outcome.vp_blue, 1);
  CHECK_EQ_MINI(r.next_state.outcome.vp_orange, 0);
  const std::vector<Event> end = OfKind(r.events, EventKind::kGameEnd);
  REQUIRE_MINI(end.size() == 1);
  CHECK_MINI(r.events.back().kind() == EventKind::kGameEnd);
  CHECK_EQ_MINI(EndOf(end[0]).winner, std::string("blue"));
  CHECK_EQ_MINI(EndOf(end[0]).level, std::string("minor"));
  // Later orders are refused: nothing is resolved.
  const TurnResult after =
      ResolvePlayerTurn(w.ruleset, w.scenario, r.next_state, Empty(4, Side::kBlue), dice);
  CHECK_MINI(after.events.empty());
  REQUIRE_MINI(!after.verdicts.empty());
  CHECK_MINI(after.verdicts[0].reason == Reason::kGameFinished);
}

}  // namespace
}  // namespace pbem::engine
