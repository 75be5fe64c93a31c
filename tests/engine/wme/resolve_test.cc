// A player-turn (resolve.h, french-fantasy.md §5.2, §5.3 step 6, GAP-20): sequencing of the
// initiative and orders blocks, events, consequences of refusals, and CheckOrders giving
// exactly the verdicts ResolvePlayerTurn gives.
#include "tests/engine/wme/fixtures.h"

namespace pbem::wme {
namespace {

using namespace testing;
constexpr TroopType kInf = TroopType::kInfantry;

MoveOrder GForward(Milli dy) {
  return Advance("G", {{"G.1", {Translate(Cm(20), Cm(20) + dy)}},
                       {"G.2", {Translate(Cm(24), Cm(20) + dy)}},
                       {"G.3", {Translate(Cm(28), Cm(20) + dy)}}});
}

// WME-T12 (a), WME-R35, R36, §5.3 step 6: the events of a *traversée de rangs*.
TEST_CASE_MINI(T12_EventsOfAPassageThroughTheRanks) {
  const Game g = T12Game();
  ScriptedDice dice({2, 5});
  const PlayerTurnResult r =
      ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(), {"blue", {EvadeThroughG()}, {}}, dice);
  CHECK_EQ_MINI(r.verdicts.size(), 1);
  CHECK_EQ_MINI(r.verdicts[0], Ok("E"));
  const std::vector<Event> want{Moved{"E.2", Cm(24), Cm(30), 90000, Cm(24), Cm(10), 90000, Cm(20)},
                                Moved{"E.1", Cm(20), Cm(30), 90000, Cm(20), Cm(10), 90000, Cm(20)},
                                Moved{"E.3", Cm(28), Cm(30), 90000, Cm(28), Cm(10), 90000, Cm(20)},
                                FormationNow{"E", table::Formation::kLine},
                                UnitMoved{"E", MoveKindOrder::kEvade, true},
                                RanksPassedThrough{"E", "G"},
                                ConfusionTest{"E", 2, true},
                                ConfusionTest{"G", 5, false},
                                PhaseEnded{"blue", 1}};
  CHECK_MINI(r.events == want);
  CHECK_MINI(FindUnit(r.next, "E")->confused);
  CHECK_MINI(!FindUnit(r.next, "G")->confused);
  CHECK_MINI(FindBase(r.next, "E.2")->centre == Pt(Cm(24), Cm(10)));
  CHECK_EQ_MINI(r.next.active_player, 1);
  CHECK_EQ_MINI(r.next.turn, 1);
  CHECK_MINI(!FindUnit(r.next, "E")->moved_by_initiative);  // reset for the next player
}

// WME-R01, GAP-20: a unit that moved by initiative may not move by order; one whose initiative
// move was illegal may (it only lost its initiative move).
TEST_CASE_MINI(InitiativeThenOrders) {
  Game g = T12Game();
  g.scenario.units.pop_back();  // no G
  g.scenario.bases.resize(4);
  const State s = g.Start();
  MoveOrder evade = EvadeThroughG();
  evade.allow_pass_through.clear();
  const MoveOrder advance = Advance("E", {{"E.2", {Translate(Cm(24), Cm(31))}},
                                          {"E.1", {Translate(Cm(20), Cm(31))}},
                                          {"E.3", {Translate(Cm(28), Cm(31))}}});
  ScriptedDice dice({});
  PlayerTurnResult r =
      ResolvePlayerTurn(g.ruleset, g.scenario, s, {"blue", {evade}, {advance}}, dice);
  CHECK_EQ_MINI(r.verdicts[0], Ok("E"));
  CHECK_EQ_MINI(r.verdicts[1], Refused("E", Reason::kModeConflict));
  MoveOrder wrong = evade;
  wrong.bases[0].legs = {Translate(Cm(24), Cm(40))};  // T10 (b)
  r = ResolvePlayerTurn(g.ruleset, g.scenario, s, {"blue", {wrong}, {advance}}, dice);
  CHECK_EQ_MINI(r.verdicts[0], Refused("E", Reason::kEvadeWrongDirection, "E.2"));
  CHECK_EQ_MINI(r.verdicts[1], Ok("E"));
  CHECK_MINI(std::holds_alternative<UnitHeld>(r.events[0]));
  CHECK_MINI(FindBase(r.next, "E.2")->centre == Pt(Cm(24), Cm(31)));
  // A second initiative move is a MODE_CONFLICT too.
  r = ResolvePlayerTurn(g.ruleset, g.scenario, s, {"blue", {evade, evade}, {}}, dice);
  CHECK_EQ_MINI(r.verdicts[1], Refused("E", Reason::kModeConflict));
}

// §5.2 steps 2-3: entries in the order written, each against the state the earlier ones left;
// several ordered moves of one unit are each validated (GAP-10).
TEST_CASE_MINI(EntriesSeeEarlierMoves) {
  Game g;
  g.Unit("A", "blue", kInf, {{Cm(20), Cm(40)}});
  g.Unit("B", "blue", kInf, {{Cm(20), Cm(30)}});
  const MoveOrder a_aside = Advance("A", {{"A.1", {Translate(Cm(40), Cm(40))}}});
  const MoveOrder b_up = Advance("B", {{"B.1", {Translate(Cm(20), Cm(45))}}});
  const MoveOrder b_more = Advance("B", {{"B.1", {Translate(Cm(20), Cm(60))}}});
  ScriptedDice dice({});
  PlayerTurnResult r = ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(),
                                         {"blue", {}, {b_up, a_aside, b_up, b_more}}, dice);
  CHECK_EQ_MINI(r.verdicts[0], Refused("B", Reason::kCrossesOtherUnit, "B.1", "A"));
  CHECK_EQ_MINI(r.verdicts[1], Ok("A"));
  CHECK_EQ_MINI(r.verdicts[2], Ok("B"));
  CHECK_EQ_MINI(r.verdicts[3], Ok("B"));
  CHECK_MINI(FindBase(r.next, "B.1")->centre == Pt(Cm(20), Cm(60)));
}

// INVALID changes nothing and emits nothing; so does a charge the engine cannot play yet (the
// *charge de soutien* is played now, support_test.cc; a charger of 8 bases is still refused,
// front_line_test.cc).
TEST_CASE_MINI(InvalidEntriesAndChargesChangeNothing) {
  Game g = T12Game();
  std::vector<Pose> eight;
  for (int k = 0; k < 8; ++k) eight.push_back({Cm(86 + 4 * k), Cm(50)});
  g.Unit("C", "blue", kInf, eight);
  g.Unit("R", "red", kInf, {{Cm(100), Cm(60), 270000}});
  const State s = g.Start();
  ChargeOrder charge;
  charge.unit = "C";
  charge.target = "R";
  ChargeOrder unknown;
  unknown.unit = "E";
  unknown.target = "nobody";
  ScriptedDice dice({});
  const PlayerTurnResult r = ResolvePlayerTurn(
      g.ruleset, g.scenario, s,
      {"blue", {}, {charge, unknown, Advance("E", {{"E.7", {Translate(0, 0)}}})}}, dice);
  CHECK_EQ_MINI(r.verdicts[0], Refused("C", Reason::kChargeNotSupported, "", "R"));
  CHECK_EQ_MINI(r.verdicts[1], Refused("E", Reason::kUnknownUnit, "", "nobody"));
  CHECK_EQ_MINI(r.verdicts[2], Refused("E", Reason::kUnknownBase, "E.7"));
  CHECK_EQ_MINI(r.events.size(), 1);  // phase_ended only
  for (std::size_t i = 0; i < s.bases.size(); ++i) {
    CHECK_MINI(r.next.bases[i].centre == s.bases[i].centre);
  }
}

// The turn passes to the next player, and the turn number grows after the last one.
TEST_CASE_MINI(TurnPassesInPlayerOrder) {
  const Game g = T12Game();
  ScriptedDice dice({});
  const PlayerTurnResult blue =
      ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(), {"blue", {}, {}}, dice);
  const PlayerTurnResult red =
      ResolvePlayerTurn(g.ruleset, g.scenario, blue.next, {"red", {}, {}}, dice);
  CHECK_EQ_MINI(red.next.active_player, 0);
  CHECK_EQ_MINI(red.next.turn, 2);
}

// "Acknowledged means played": with a copy of the same dice, CheckOrders gives the verdicts of
// ResolvePlayerTurn, also when a *test de confusion* decides a later one (G confused on 1).
TEST_CASE_MINI(CheckOrdersMatchesResolution) {
  const Game g = T12Game();
  const TurnOrders orders{"blue", {EvadeThroughG()}, {GForward(Cm(2))}};
  for (const std::vector<int>& rolls : {std::vector<int>{6, 1}, std::vector<int>{6, 6}}) {
    ScriptedDice check_dice(rolls);
    ScriptedDice play_dice(rolls);
    const std::vector<Verdict> checked =
        CheckOrders(g.ruleset, g.scenario, g.Start(), orders, check_dice);
    const PlayerTurnResult played =
        ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(), orders, play_dice);
    CHECK_MINI(checked == played.verdicts);
    const Reason expected = rolls[1] == 1 ? Reason::kUnitCannotMove : Reason::kNone;
    CHECK_MINI(played.verdicts[1].reason == expected);
  }
}

// §5.4 step 11 for a one-base charger (WME-T20 b, then WME-R52 with a second red unit
// touching the slot by a corner, as T23's T5).
TEST_CASE_MINI(OneBaseChargeMakesContact) {
  Game g;
  g.Unit("S", "blue", kInf, {{Cm(100), Cm(30)}});
  g.Unit("R", "red", kInf, {{Cm(100), Cm(50), 270000}});
  g.Unit("T5", "red", kInf, {{Cm(104), Cm(50), 270000}});
  ChargeOrder charge;
  charge.unit = "S";
  charge.target = "R";
  ScriptedDice dice({});
  const PlayerTurnResult r =
      ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(), {"blue", {}, {charge}}, dice);
  CHECK_EQ_MINI(r.verdicts[0], Ok("S"));
  const std::vector<Event> want{
      Moved{"S.1", Cm(100), Cm(30), 90000, Cm(100), Cm(48), 90000, Cm(18)},
      FormationNow{"S", table::Formation::kLine},
      ChargeContact{"S", "R", table::Zone::kFront, "S.1", "R.1"}, AdditionalChargedUnit{"T5"},
      PhaseEnded{"blue", 1}};
  CHECK_MINI(r.events == want);
  CHECK_MINI(FindUnit(r.next, "S")->engaged && FindUnit(r.next, "R")->engaged &&
             FindUnit(r.next, "T5")->engaged);
  ScriptedDice again({});
  CHECK_MINI(CheckOrders(g.ruleset, g.scenario, g.Start(), {"blue", {}, {charge}}, again) ==
             r.verdicts);
}

}  // namespace
}  // namespace pbem::wme
