// The resolution of a player's Action Phase (engine/m42/resolve.h): how units' actions are
// sequenced, the consequences of INVALID and ILLEGAL orders (m42.md §5.2, GAP-20), the events
// of §5.3, the end of the phase, and the initial state from a scenario.
#include "tests/engine/m42/fixtures.h"

namespace pbem::m42::test {
namespace {

// Sequencing (resolve.h): a later unit sees an earlier unit at its new position.
TEST_CASE_MINI(LaterUnitSeesEarlierMoves) {
  World w;
  w.Model("a1", "alpha", 10, 10).Model("b1", "bravo", 10, 6);
  const auto alpha_moves = Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(14, 10)})});
  const auto bravo_moves = Act("bravo", Action::kAdvance, {Move("b1", {V(10, 6), V(10, 10)})});
  const auto first = w.Resolve({alpha_moves, bravo_moves});
  CHECK_MINI(Legal(first.verdicts.at(0)));
  CHECK_MINI(Legal(first.verdicts.at(1)));
  CHECK_MINI(ModelIn(first.next, "b1").pos == P(10, 10));
  const auto second = w.Resolve({bravo_moves, alpha_moves});
  ExpectIllegal(second.verdicts.at(0), "ENDS_ON_FRIENDLY", "b1", "a1");
  // The held unit does not move; alpha still may.
  CHECK_MINI(Legal(second.verdicts.at(1)));
  CHECK_MINI(ModelIn(second.next, "b1").pos == P(10, 6));
}

// M42-P12 sequence semantics within a unit (validate.h): a1 may not end where a2, listed after
// it, still stands; listing a2 first makes the same moves legal.
TEST_CASE_MINI(SequenceWithinUnit) {
  World w;
  w.Model("a1", "alpha", 10, 10).Model("a2", "alpha", 11.5, 10);
  const auto a1 = Move("a1", {V(10, 10), V(11.5, 10)});
  const auto a2 = Move("a2", {V(11.5, 10), V(13, 10)});
  ExpectIllegal(w.Check(Act("alpha", Action::kAdvance, {a1, a2})), "ENDS_ON_FRIENDLY", "a1", "a2");
  CHECK_MINI(Legal(w.Check(Act("alpha", Action::kAdvance, {a2, a1}))));
}

// GAP-20 (hold_and_spend): an ILLEGAL order holds the unit, which has acted; UnitHeld names the
// reason; another order for it is UNIT_ALREADY_ACTED.
TEST_CASE_MINI(IllegalOrderHoldsAndSpends) {
  World w;
  w.Model("a1", "alpha", 10, 10);
  const auto r = w.Resolve({Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 16)})}),
                            Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 12)})})});
  ExpectIllegal(r.verdicts.at(0), "EXCEEDS_ALLOWANCE", "a1", "", 6000, 5000);
  ExpectVerdict(r.verdicts.at(1), VerdictKind::kInvalid, "UNIT_ALREADY_ACTED", "");
  CHECK_MINI(EventsOf<UnitHeld>(r).at(0) == (UnitHeld{"alpha", Reason::kExceedsAllowance}));
  CHECK_EQ_MINI(EventsOf<ModelMoved>(r).size(), 0u);
  CHECK_MINI(ModelIn(r.next, "a1").pos == P(10, 10));
}

// §5.2 step 1: an INVALID order changes nothing; the unit may be ordered again in the batch.
TEST_CASE_MINI(InvalidOrderChangesNothing) {
  World w;
  w.Model("a1", "alpha", 10, 10);
  const auto r = w.Resolve({Act("alpha", Action::kAdvance, {Move("a1", {V(11, 10), V(10, 12)})}),
                            Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 12)})})});
  ExpectVerdict(r.verdicts.at(0), VerdictKind::kInvalid, "PATH_START_MISMATCH", "a1");
  CHECK_MINI(Legal(r.verdicts.at(1)));
  CHECK_EQ_MINI(EventsOf<UnitHeld>(r).size(), 0u);
  CHECK_MINI(ModelIn(r.next, "a1").pos == P(10, 12));
}

// §5.2 step 11, §5.3: the events of one legal action, in order.
TEST_CASE_MINI(EventsOfAnAction) {
  World w;
  w.Model("a1", "alpha", 10, 10).Model("x1", "xray", 30, 10);
  w.scenario.terrain.areas.push_back(Area("W1", Square(8, 12, 12, 13)));
  const auto r =
      w.Resolve({Act("alpha", Action::kAdvance, {Turn("a1", 0, {V(10, 10), V(10, 14)})})});
  CHECK_MINI(Legal(r.verdicts.at(0)));
  std::vector<std::string> kinds;
  for (const Event& e : r.events) kinds.emplace_back(EventKindName(e));
  const std::vector<std::string> expected{"unit_acted",    "model_moved",  "slow_going",
                                          "closest_enemy", "model_turned", "action_phase_ended"};
  CHECK_MINI(kinds == expected);
  CHECK_MINI(EventsOf<ModelMoved>(r).at(0) ==
             (ModelMoved{"a1", 10000, 10000, 0, 10000, 14000, 0, 4000}));
  // x1 is nearest at the start: centre 20 -> edge 19.000.
  CHECK_MINI(EventsOf<ClosestEnemy>(r).at(0) == (ClosestEnemy{"a1", "x1", 19000}));
  CHECK_MINI(EventsOf<UnitActed>(r).at(0) == (UnitActed{"alpha", Action::kAdvance, Fire::kUnset}));
  CHECK_MINI(FindUnit(r.next, "alpha")->acted == false);  // reset for the next phase
}

// resolve.h: the phase ends, the next player is active; after the last, the turn grows.
TEST_CASE_MINI(PhaseEndPassesTheTurn) {
  World w;
  w.Model("a1", "alpha", 10, 10).Model("x1", "xray", 60, 40);
  const auto blue = w.Resolve({});
  CHECK_EQ_MINI(blue.next.active_player, 1u);
  CHECK_EQ_MINI(blue.next.turn, 1);
  CHECK_MINI(EventsOf<ActionPhaseEnded>(blue).at(0) == (ActionPhaseEnded{"blue", 1}));
  const auto red = ResolvePlayerTurn(
      w.ruleset, w.scenario, blue.next,
      Orders{"red", {Act("xray", Action::kAdvance, {Move("x1", {V(60, 40), V(60, 38)})})}});
  CHECK_MINI(Legal(red.verdicts.at(0)));
  CHECK_EQ_MINI(red.next.active_player, 0u);
  CHECK_EQ_MINI(red.next.turn, 2);
}

// GAP-15: close combat is checked again at the end of the phase, for units that did not act.
TEST_CASE_MINI(CloseCombatAtPhaseEnd) {
  World w;
  w.Model("a1", "alpha", 10, 10).Model("b1", "bravo", 14, 20).Model("x1", "xray", 14, 26);
  const auto r = w.Resolve({Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(10, 11)})})});
  const auto joined = EventsOf<CloseCombatJoined>(r);
  CHECK_EQ_MINI(joined.size(), 1u);
  CHECK_MINI(joined.at(0) == (CloseCombatJoined{"bravo", "xray", 5000}));
}

// "Acknowledged means played": CheckOrders gives exactly the verdicts resolution gives.
TEST_CASE_MINI(CheckOrdersMatchesResolution) {
  World w;
  w.Model("a1", "alpha", 10, 10).Model("b1", "bravo", 10, 6);
  const Orders orders{"blue",
                      {Act("bravo", Action::kAdvance, {Move("b1", {V(10, 6), V(10, 10)})}),
                       Act("alpha", Action::kAdvance, {Move("a1", {V(10, 10), V(14, 10)})}),
                       Act("bravo", Action::kAdvance, {Move("b1", {V(10, 6), V(10, 10)})})}};
  const State s = w.Start();
  const auto checked = CheckOrders(w.ruleset, w.scenario, s, orders);
  CHECK_MINI(checked == ResolvePlayerTurn(w.ruleset, w.scenario, s, orders).verdicts);
  CHECK_EQ_MINI(checked.size(), 3u);
  CHECK_EQ_MINI(Code(checked.at(0)), "ENDS_ON_FRIENDLY");
  CHECK_EQ_MINI(Code(checked.at(2)), "UNIT_ALREADY_ACTED");
}

// §1: the initial state, and the scenario data it refuses.
TEST_CASE_MINI(InitialStateFromScenario) {
  World w;
  w.Model("a1", "alpha", 10, 10, 450);
  const State s = w.Start();
  CHECK_EQ_MINI(s.models.size(), 1u);
  CHECK_EQ_MINI(s.models.at(0).radius, 127000);  // 0.5" (GAP-02)
  CHECK_EQ_MINI(s.models.at(0).facing_mdeg, 90000);
  CHECK_EQ_MINI(FindUnit(s, "alpha")->task_force, "blue");  // M-R8
  World bad = w;
  bad.Model("a1", "alpha", 20, 20).Model("z1", "zulu", 30, 30);
  bad.Unit("yankee").owner = "green";
  const auto r = InitialState(bad.ruleset, bad.scenario);
  CHECK_MINI(!r.state.has_value());
  const std::vector<ScenarioProblem> expected{
      {"unknown_owner", "yankee"}, {"duplicate_id", "a1"}, {"unknown_unit", "z1"}};
  CHECK_MINI(r.problems == expected);
  World scoped = w;
  scoped.ruleset.task_force_scope = TaskForceScope::kScenario;
  scoped.Unit("charlie").task_force.reset();
  CHECK_MINI(InitialState(scoped.ruleset, scoped.scenario).problems ==
             (std::vector<ScenarioProblem>{{"missing_task_force", "charlie"}}));
}

}  // namespace
}  // namespace pbem::m42::test
