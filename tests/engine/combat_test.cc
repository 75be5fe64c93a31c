#include "engine/morne_plaine/combat.h"

#include <string>
#include <vector>

#include "engine/morne_plaine/combat_phase.h"
#include "engine/morne_plaine/turn.h"
#include "tests/engine/combat_fixtures.h"
#include "tests/engine/mini_test.h"
#include "tests/engine/movement_fixtures.h"

namespace pbem::engine {
namespace {

using testing::AddCombatRules;
using testing::Body;
using testing::DefaultCrt;
using testing::EventsOf;
using testing::H;
using testing::Rolls;
using testing::World;

constexpr Side kBlue = Side::kBlue;
constexpr Side kOrange = Side::kOrange;

std::string Column(int attack, int defence) {
  const CombatResultsTable crt = DefaultCrt();
  return crt.columns[static_cast<std::size_t>(ComputeOdds(crt, attack, defence).column)].label;
}

World CombatWorld() {
  World w;
  AddCombatRules(w.ruleset);
  return w;
}

// ---- Odds (digest 5.4) -------------------------------------------------------------

TEST_CASE_MINI(OddsRoundInTheDefendersFavour) {
  // The two examples of the combat page.
  CHECK_EQ_MINI(Column(10, 6), std::string("1.5-1"));
  CHECK_EQ_MINI(Column(6, 10), std::string("1-2"));
  CHECK_MINI(ComputeOdds(DefaultCrt(), 10, 6).ratio == Rational(5, 3));
  // Exact boundaries.
  CHECK_EQ_MINI(Column(6, 6), std::string("1-1"));
  CHECK_EQ_MINI(Column(3, 2), std::string("1.5-1"));
  CHECK_EQ_MINI(Column(2, 3), std::string("1-1.5"));
  CHECK_EQ_MINI(Column(5, 6), std::string("1-1.5"));
  CHECK_EQ_MINI(Column(11, 4), std::string("2-1"));
  CHECK_EQ_MINI(Column(12, 4), std::string("3-1"));
  CHECK_EQ_MINI(Column(4, 12), std::string("1-3"));
  CHECK_EQ_MINI(Column(4, 13), std::string("1-4"));
}

TEST_CASE_MINI(OddsClampToTheTableEnds) {
  CHECK_EQ_MINI(Column(8, 1), std::string("8-1"));
  CHECK_EQ_MINI(Column(30, 1), std::string("8-1"));
  CHECK_EQ_MINI(Column(1, 8), std::string("1-8"));
  CHECK_EQ_MINI(Column(1, 30), std::string("1-8"));
}

TEST_CASE_MINI(CrtLookupReadsTheTableAsData) {
  const CombatResultsTable crt = DefaultCrt();
  // Result 0 at 1-8: 3*/0; result 7 at 8-1: 0/4*; result 3 at 1-1: 1/1.
  const CrtCell& worst = CrtLookup(crt, 0, 0);
  CHECK_EQ_MINI(worst.attacker_loss, 3);
  CHECK_MINI(worst.attacker_test && !worst.defender_test);
  const CrtCell& best = CrtLookup(crt, 16, 7);
  CHECK_EQ_MINI(best.defender_loss, 4);
  CHECK_MINI(best.defender_test);
  const CrtCell& even = CrtLookup(crt, 8, 3);
  CHECK_EQ_MINI(even.attacker_loss, 1);
  CHECK_EQ_MINI(even.defender_loss, 1);
  CHECK_MINI(!even.attacker_test && !even.defender_test);
}

// ---- Contact (digest 1.9, R8) --------------------------------------------------------

TEST_CASE_MINI(CombatContactRules) {
  World w = CombatWorld();
  w.Water("0303", Direction::kE, Water::kStream);
  w.Water("0305", Direction::kE, Water::kRiver);
  w.Water("0307", Direction::kE, Water::kRiver, Crossing::kBridge);
  w.Level("0409", 2);
  const Map& m = w.scenario.map;
  CHECK_MINI(InCombatContact(w.ruleset, m, H("0303"), H("0403")));   // stream
  CHECK_MINI(!InCombatContact(w.ruleset, m, H("0305"), H("0405")));  // river
  CHECK_MINI(InCombatContact(w.ruleset, m, H("0307"), H("0407")));   // bridged river
  CHECK_MINI(!InCombatContact(w.ruleset, m, H("0309"), H("0409")));  // double slope
  CHECK_MINI(!InCombatContact(w.ruleset, m, H("0303"), H("0503")));  // not adjacent
  w.ruleset.params.combat_across_river_crossings = false;
  CHECK_MINI(!InCombatContact(w.ruleset, m, H("0307"), H("0407")));
}

// ---- Supports (digest 5.2) -------------------------------------------------------------

TEST_CASE_MINI(SupportsInContactAndFreeOfOtherEnemies) {
  World w = CombatWorld();
  const UnitId att = w.Add("att", kBlue, "line_infantry", "0403");
  const UnitId def = w.Add("def", kOrange, "line_infantry", "0503");
  // Around the defender 0503: 0502 (NE... see labels) and 0504 hold blue
  // units; 0602 holds another orange unit next to 0502's blue unit.
  const UnitId s1 = w.Add("s1", kBlue, "line_infantry", "0504");
  const UnitId s2 = w.Add("s2", kBlue, "light_cavalry", "0502");
  w.Add("other", kOrange, "line_infantry", "0501");  // in contact with s2 only
  const UnitId demo = w.Add("demo", kBlue, "line_infantry", "0603");
  w.state().unit(demo).mv = 0;
  const std::vector<UnitId> off = CombatSupports(w.ruleset, w.scenario, w.state(), def, kBlue, att);
  // s1 supports; s2 is in contact with "other"; demo is demoralised.
  CHECK_MINI(off == std::vector<UnitId>{s1});
  // A victorious unit always supports.
  w.state().unit(s2).victorious = true;
  const std::vector<UnitId> off2 =
      CombatSupports(w.ruleset, w.scenario, w.state(), def, kBlue, att);
  CHECK_EQ_MINI(off2.size(), std::size_t{2});
  // Defensive supports: orange units in contact with the attacker 0403.
  const std::vector<UnitId> defs =
      CombatSupports(w.ruleset, w.scenario, w.state(), att, kOrange, def);
  CHECK_MINI(defs.empty());
}

// ---- Strength corrections (digest 5.3) ---------------------------------------------------

TEST_CASE_MINI(TerrainMultipliesTheDefendingSide) {
  World w = CombatWorld();
  w.Terrain("0503", "town")
      .Terrain("0505", "hamlet")
      .Terrain("0507", "fort")
      .Terrain("0509", "woods");
  const UnitId a1 = w.Add("a1", kBlue, "line_infantry", "0403");
  const UnitId inf_town = w.Add("it", kOrange, "line_infantry", "0503");    // CS 5
  const UnitId cav_hamlet = w.Add("ch", kOrange, "light_cavalry", "0505");  // CS 3
  const UnitId cav_fort = w.Add("cf", kOrange, "light_cavalry", "0507");
  const UnitId cav_woods = w.Add("cw", kOrange, "light_cavalry", "0509");
  const auto value = [&](UnitId u) {
    return CorrectStrength(w.ruleset, w.scenario, w.state(), u, CombatSide::kDefending, u).value;
  };
  CHECK_EQ_MINI(value(inf_town), 10);   // x2
  CHECK_EQ_MINI(value(cav_hamlet), 4);  // 3 x 1.5 = 4.5 -> 4
  CHECK_EQ_MINI(value(cav_fort), 6);    // x2 for cavalry
  CHECK_EQ_MINI(value(cav_woods), 3);   // no change for cavalry
  // The report names the terrain that multiplied, and none when nothing changed.
  CHECK_EQ_MINI(
      CorrectStrength(w.ruleset, w.scenario, w.state(), cav_fort, CombatSide::kDefending, cav_fort)
          .terrain,
      std::string("fort"));
  CHECK_EQ_MINI(CorrectStrength(w.ruleset, w.scenario, w.state(), cav_woods, CombatSide::kDefending,
                                cav_woods)
                    .terrain,
                std::string());
  // The attacking side takes no terrain effect from its own hex.
  w.Terrain("0403", "town");
  CHECK_EQ_MINI(
      CorrectStrength(w.ruleset, w.scenario, w.state(), a1, CombatSide::kAttacking, inf_town).value,
      5);
}

TEST_CASE_MINI(ChargeThenWaterRoundDownEachStepMinimumOne) {
  World w = CombatWorld();
  w.Water("0403", Direction::kE, Water::kStream);
  const UnitId cav = w.Add("cav", kBlue, "heavy_cavalry", "0403");  // CS 5
  const UnitId def = w.Add("def", kOrange, "line_infantry", "0503");
  w.state().unit(cav).charged_targets.push_back(def);
  const CorrectedStrength s =
      CorrectStrength(w.ruleset, w.scenario, w.state(), cav, CombatSide::kAttacking, def);
  CHECK_EQ_MINI(s.after_charge, 7);  // 7.5 -> 7
  CHECK_EQ_MINI(s.after_water, 3);   // 3.5 -> 3
  CHECK_EQ_MINI(s.value, 3);
  // The report names the halving: across a stream, no bridge; no terrain multiplier.
  CHECK_EQ_MINI(s.water, std::string("stream"));
  CHECK_EQ_MINI(s.terrain, std::string());
  // The bonus is owed only against the charged unit.
  w.state().unit(cav).charged_targets.clear();
  CHECK_EQ_MINI(
      CorrectStrength(w.ruleset, w.scenario, w.state(), cav, CombatSide::kAttacking, def).value, 2);
  // CS 1 across a stream: 0.5 -> 0, at least 1.
  w.state().unit(cav).cs = 1;
  CHECK_EQ_MINI(
      CorrectStrength(w.ruleset, w.scenario, w.state(), cav, CombatSide::kAttacking, def).value, 1);
}

// ---- The die (digest 5.5) ------------------------------------------------------------------

TEST_CASE_MINI(DieModifiersAndClamp) {
  World w = CombatWorld();
  const UnitId att = w.Add("att", kBlue, "guard_infantry", "0403");   // MV 6
  const UnitId def = w.Add("def", kOrange, "line_infantry", "0503");  // MV 4
  // Morale: (6 - 4) / 2 = +1.
  CombatDie d = ModifyCombatDie(w.ruleset, w.scenario, w.state(), att, def, 3);
  CHECK_EQ_MINI(d.morale, 1);
  CHECK_EQ_MINI(d.result, 4);
  // Attacker higher: +1; 6 + 1 + 1 = 8 clamps to 7.
  w.Level("0403", 1);
  d = ModifyCombatDie(w.ruleset, w.scenario, w.state(), att, def, 6);
  CHECK_EQ_MINI(d.elevation, 1);
  CHECK_EQ_MINI(d.unclamped, 8);
  CHECK_EQ_MINI(d.result, 7);
  // Defender higher: -1; a defender with MV 6 against attacker MV 3: -3/2
  // truncates to -1; 1 - 1 - 1 = -1 clamps to 0.
  World v = CombatWorld();
  const UnitId a2 = v.Add("a2", kBlue, "line_infantry", "0403");
  const UnitId d2 = v.Add("d2", kOrange, "guard_infantry", "0503");
  v.state().unit(a2).mv = 3;
  v.Level("0503", 1);
  d = ModifyCombatDie(v.ruleset, v.scenario, v.state(), a2, d2, 1);
  CHECK_EQ_MINI(d.elevation, -1);
  CHECK_EQ_MINI(d.morale, -1);
  CHECK_EQ_MINI(d.result, 0);
  // The attacker-only model drops the negative modifier.
  v.ruleset.params.morale_drm_model = MoraleDrmModel::kAttackerOnly;
  d = ModifyCombatDie(v.ruleset, v.scenario, v.state(), a2, d2, 1);
  CHECK_EQ_MINI(d.morale, 0);
  // A defender in a marsh: +1 for the attacker.
  v.Terrain("0503", "marsh");
  d = ModifyCombatDie(v.ruleset, v.scenario, v.state(), a2, d2, 2);
  CHECK_EQ_MINI(d.terrain, 1);
}

TEST_CASE_MINI(LeadersFightWithCsPlusRadius) {
  World w = CombatWorld();
  const UnitId gen = w.Add("gen", kBlue, "leader", "0403");  // CS 2, radius 2: 4
  const UnitId def = w.Add("def", kOrange, "line_infantry", "0503");
  CHECK_EQ_MINI(CombatMorale(w.spec(gen), w.state().unit(gen)), 4);
  CHECK_EQ_MINI(ModifyCombatDie(w.ruleset, w.scenario, w.state(), gen, def, 3).morale, 0);
}

// ---- The phase (digest 5.7 to 5.11) -----------------------------------------------------

struct Fought {
  TurnResult result;
  bool dice_ok = true;
  std::size_t dice_left = 0;
};

Fought Attack(World& w, std::vector<std::pair<std::string, std::string>> attacks,
              std::vector<ScriptedRoll> dice) {
  GameState& state = w.state();
  state.side_to_move = kBlue;
  Orders orders = w.OrdersFor(kBlue);
  for (auto& [a, d] : attacks) orders.attacks.push_back(AttackOrder{a, d, {}});
  ScriptedDice scripted(std::move(dice));
  Fought f;
  f.result = ResolvePlayerTurn(w.ruleset, w.scenario, state, orders, scripted);
  f.dice_ok = scripted.ok();
  f.dice_left = scripted.remaining();
  return f;
}

const OrderVerdict& AttackVerdict(const TurnResult& r, int index) {
  for (const OrderVerdict& v : r.verdicts) {
    if (v.order_kind == OrderKind::kAttack && v.index == index) return v;
  }
  static const OrderVerdict kMissing{OrderKind::kHeader, -1, "", VerdictKind::kInvalid,
                                     Reason::kNone,      {}};
  return kMissing;
}

TEST_CASE_MINI(EvenFightBothLoseOneCs) {
  World w = CombatWorld();
  const UnitId att = w.Add("att", kBlue, "line_infantry", "0403");
  const UnitId def = w.Add("def", kOrange, "line_infantry", "0503");
  // 5 vs 5: 1-1; d6 3, no modifier: result 3 -> 1/1.
  const Fought f = Attack(w, {{"att", "def"}}, Rolls({{Die::kD6, 3}}));
  CHECK_MINI(f.dice_ok);
  CHECK_EQ_MINI(f.dice_left, std::size_t{0});
  CHECK_MINI(AttackVerdict(f.result, 0).verdict == VerdictKind::kOk);
  CHECK_EQ_MINI(f.result.next_state.unit(att).cs, 4);
  CHECK_EQ_MINI(f.result.next_state.unit(def).cs, 4);
  const auto combat = EventsOf(f.result.events, EventKind::kCombat);
  REQUIRE_MINI(combat.size() == 1);
  CHECK_EQ_MINI(Body<payload::Combat>(combat[0]).odds, std::string("1-1"));
  CHECK_EQ_MINI(Body<payload::Combat>(combat[0]).cell, std::string("1/1"));
  CHECK_MINI(!f.result.next_state.unit(att).victorious);
  CHECK_MINI(f.result.next_state.unit(att).has_attacked);
}

TEST_CASE_MINI(DefenderFailsRetreatsOppositeAndAttackerAdvances) {
  World w = CombatWorld();
  const UnitId att = w.Add("att", kBlue, "guard_infantry", "0403");   // CS 8 MV 6
  const UnitId def = w.Add("def", kOrange, "line_infantry", "0503");  // CS 5 MV 4
  // 8:5 -> 1.5-1; d6 4 + 1 (morale (6-4)/2) = 5 -> 0/2*: CS 5 -> 3; d9 5 > 4:
  // fails, retreats to 0603 (directly opposite 0403), the attacker advances.
  const Fought f = Attack(w, {{"att", "def"}}, Rolls({{Die::kD6, 4}, {Die::kD9, 5}}));
  CHECK_MINI(f.dice_ok);
  CHECK_EQ_MINI(f.dice_left, std::size_t{0});
  const GameState& s = f.result.next_state;
  CHECK_EQ_MINI(s.unit(def).cs, 3);
  CHECK_EQ_MINI(s.unit(def).hex, H("0603"));
  CHECK_EQ_MINI(s.unit(att).hex, H("0503"));
  CHECK_MINI(s.unit(att).victorious);
  CHECK_EQ_MINI(EventsOf(f.result.events, EventKind::kAdvance).size(), std::size_t{1});
}

TEST_CASE_MINI(MoraleTestMvFourWithAFourPasses) {
  World w = CombatWorld();
  const UnitId att = w.Add("att", kBlue, "guard_infantry", "0403");
  const UnitId def = w.Add("def", kOrange, "line_infantry", "0503");
  const Fought f = Attack(w, {{"att", "def"}}, Rolls({{Die::kD6, 4}, {Die::kD9, 4}}));
  CHECK_MINI(f.dice_ok);
  const GameState& s = f.result.next_state;
  CHECK_EQ_MINI(s.unit(def).hex, H("0503"));
  CHECK_EQ_MINI(s.unit(att).hex, H("0403"));
  CHECK_MINI(!s.unit(att).victorious);
  const auto tests = EventsOf(f.result.events, EventKind::kMoraleTest);
  REQUIRE_MINI(tests.size() == 1);
  CHECK_EQ_MINI(Body<payload::MoraleTest>(tests[0]).result, std::string("passed"));
}

TEST_CASE_MINI(EliminationGivesOneMvAndAdvance) {
  World w = CombatWorld();
  const UnitId att = w.Add("att", kBlue, "guard_infantry", "0403");
  const UnitId def = w.Add("def", kOrange, "line_infantry", "0503");
  w.state().unit(att).mv = 5;  // below its initial 6
  w.state().unit(def).cs = 1;
  // 8:1 -> 8-1; d6 1 + 0 ((5-4)/2 truncates to 0) = 1 -> 0/2*: eliminated
  // (no test for a unit that is gone); +1 MV: 6; advance.
  const Fought f = Attack(w, {{"att", "def"}}, Rolls({{Die::kD6, 1}}));
  CHECK_MINI(f.dice_ok);
  CHECK_EQ_MINI(f.dice_left, std::size_t{0});
  const GameState& s = f.result.next_state;
  CHECK_MINI(s.unit(def).eliminated);
  CHECK_EQ_MINI(s.unit(att).mv, 6);
  CHECK_EQ_MINI(s.unit(att).hex, H("0503"));
  CHECK_EQ_MINI(EventsOf(f.result.events, EventKind::kMoraleGained).size(), std::size_t{1});
}

TEST_CASE_MINI(NoRetreatHexEliminatesWithDefensiveSupport) {
  World w = CombatWorld();
  const UnitId att = w.Add("att", kBlue, "guard_infantry", "0201");
  const UnitId def = w.Add("def", kOrange, "line_infantry", "0101");
  const UnitId sup = w.Add("sup", kOrange, "line_infantry", "0102");
  // 0101 is the map corner: its only free neighbour 0102 holds "sup", which
  // is in contact with the attacker and supports: 8 vs 10 -> 1-1.5; d6 6 + 1
  // = 7 -> 0/2*; d9 9 fails; no hex to retreat into: eliminated.
  const Fought f = Attack(w, {{"att", "def"}}, Rolls({{Die::kD6, 6}, {Die::kD9, 9}}));
  CHECK_MINI(f.dice_ok);
  const GameState& s = f.result.next_state;
  CHECK_MINI(s.unit(def).eliminated);
  CHECK_EQ_MINI(s.unit(sup).cs, 5);  // supports never suffer results
  CHECK_EQ_MINI(s.unit(att).hex, H("0101"));
  const auto supports = EventsOf(f.result.events, EventKind::kSupport);
  REQUIRE_MINI(supports.size() == 1);
  CHECK_EQ_MINI(Body<payload::Support>(supports[0]).role, std::string("defensive"));
  const auto combat = EventsOf(f.result.events, EventKind::kCombat);
  REQUIRE_MINI(combat.size() == 1);
  CHECK_EQ_MINI(Body<payload::Combat>(combat[0]).odds, std::string("1-1.5"));
  const auto elim = EventsOf(f.result.events, EventKind::kEliminated);
  REQUIRE_MINI(elim.size() == 1);
  CHECK_EQ_MINI(Body<payload::Eliminated>(elim[0]).cause, std::string("no_retreat"));
}

TEST_CASE_MINI(AttackerFailsAndTheDefenderAdvances) {
  World w = CombatWorld();
  const UnitId att = w.Add("att", kBlue, "line_infantry", "0403");
  const UnitId def = w.Add("def", kOrange, "guard_infantry", "0503");
  // 5:8 -> 1-2; d6 2 - 1 ((4-6)/2) = 1 -> 2*/0: CS 5 -> 3; d9 5 > 4: the
  // attacker retreats to 0303, opposite the defender; the defender advances.
  const Fought f = Attack(w, {{"att", "def"}}, Rolls({{Die::kD6, 2}, {Die::kD9, 5}}));
  CHECK_MINI(f.dice_ok);
  const GameState& s = f.result.next_state;
  CHECK_EQ_MINI(s.unit(att).cs, 3);
  CHECK_EQ_MINI(s.unit(att).hex, H("0303"));
  CHECK_EQ_MINI(s.unit(def).hex, H("0403"));
  CHECK_MINI(s.unit(def).victorious);
}

TEST_CASE_MINI(ArtilleryNeverAdvances) {
  World w = CombatWorld();
  const UnitId att = w.Add("att", kBlue, "foot_artillery", "0403");  // CS 2 MV 3
  const UnitId def = w.Add("def", kOrange, "line_infantry", "0503");
  w.state().unit(def).cs = 1;
  // 2:1 -> 2-1; d6 6 + 0 ((3-4)/2 = 0) = 6 -> 0/3*: eliminated; no advance.
  const Fought f = Attack(w, {{"att", "def"}}, Rolls({{Die::kD6, 6}}));
  CHECK_MINI(f.dice_ok);
  CHECK_MINI(f.result.next_state.unit(def).eliminated);
  CHECK_EQ_MINI(f.result.next_state.unit(att).hex, H("0403"));
  CHECK_MINI(f.result.next_state.unit(att).victorious);
}

TEST_CASE_MINI(NoAdvanceOutOfBetterTerrain) {
  World w = CombatWorld();
  w.Terrain("0403", "woods");
  const UnitId att = w.Add("att", kBlue, "guard_infantry", "0403");
  const UnitId def = w.Add("def", kOrange, "line_infantry", "0503");
  const Fought f = Attack(w, {{"att", "def"}}, Rolls({{Die::kD6, 4}, {Die::kD9, 5}}));
  CHECK_MINI(f.dice_ok);
  CHECK_EQ_MINI(f.result.next_state.unit(def).hex, H("0603"));
  CHECK_EQ_MINI(f.result.next_state.unit(att).hex, H("0403"));  // woods rank 2 > clear 0
  CHECK_MINI(f.result.next_state.unit(att).victorious);
}

TEST_CASE_MINI(AttackRefusals) {
  World w = CombatWorld();
  w.Water("0403", Direction::kE, Water::kRiver);
  w.Add("a1", kBlue, "line_infantry", "0403");
  w.Add("d1", kOrange, "line_infantry", "0503");  // across a river
  const UnitId demo = w.Add("a2", kBlue, "line_infantry", "0405");
  w.Add("d2", kOrange, "line_infantry", "0505");
  w.Add("gen", kBlue, "leader", "0407");
  w.Add("d3", kOrange, "line_infantry", "0507");
  w.state().unit(demo).mv = 0;  // after the last Add: state() is built once
  w.ruleset.params.leaders_may_attack = false;
  const Fought f = Attack(w, {{"a1", "d1"}, {"a2", "d2"}, {"gen", "d3"}}, {});
  CHECK_MINI(f.dice_ok);
  CHECK_MINI(AttackVerdict(f.result, 0).reason == Reason::kNotInContact);
  CHECK_MINI(AttackVerdict(f.result, 1).reason == Reason::kDemoralisedCannotAttack);
  CHECK_MINI(AttackVerdict(f.result, 2).reason == Reason::kMayNotAttack);
  CHECK_MINI(EventsOf(f.result.events, EventKind::kCombat).empty());
}

TEST_CASE_MINI(VictoriousUnitSupportsDespiteOtherEnemies) {
  World w = CombatWorld();
  // First attack: v (guard at 0403) eliminates e1 (CS 1 at 0503) and
  // advances to 0503 (8-1, d6 1 + 1 = 2 -> 0/2*). Second attack: b2 at
  // 0604 attacks e2 at 0504 (adjacent to 0503, where v now stands, and v is
  // also in contact with e3 at 0502): v supports as a victorious unit.
  const UnitId v = w.Add("v", kBlue, "guard_infantry", "0403");
  const UnitId e1 = w.Add("e1", kOrange, "line_infantry", "0503");
  w.Add("b2", kBlue, "line_infantry", "0604");
  w.Add("e2", kOrange, "line_infantry", "0504");
  w.Add("e3", kOrange, "line_infantry", "0502");
  w.state().unit(e1).cs = 1;
  // Second attack: 5 + 8 = 13 vs 5 -> 2-1; d6 3 -> 0/1*; d9 1 passes.
  const Fought f =
      Attack(w, {{"v", "e1"}, {"b2", "e2"}}, Rolls({{Die::kD6, 1}, {Die::kD6, 3}, {Die::kD9, 1}}));
  CHECK_MINI(f.dice_ok);
  CHECK_EQ_MINI(f.result.next_state.unit(v).hex, H("0503"));
  bool v_supports = false;
  for (const Event& e : EventsOf(f.result.events, EventKind::kSupport)) {
    if (e.unit == v) v_supports = Body<payload::Support>(e).role == "offensive";
  }
  CHECK_MINI(v_supports);
}

TEST_CASE_MINI(SupportReuseOnceLimitsASupportToOneCombat) {
  // s (0403) eliminates e0 (CS 1 at 0503: 5-1, d6 1 -> 0/1*) and advances
  // into 0503: victorious, it supports whatever it touches. Then a1 (0703)
  // attacks e1 (0603) and a2 (0505) attacks e2 (0504); s touches both
  // defenders. Unlimited: 10 vs 5, 2-1, d6 1 -> 1/1 twice. Once: only the
  // first; the second is 5 vs 5, 1-1, d6 1 -> 1*/0 and a d9 1 that passes.
  for (const SupportReuse reuse : {SupportReuse::kUnlimited, SupportReuse::kOnce}) {
    World w = CombatWorld();
    const UnitId s = w.Add("s", kBlue, "line_infantry", "0403");
    const UnitId e0 = w.Add("e0", kOrange, "line_infantry", "0503");
    w.Add("a1", kBlue, "line_infantry", "0703");
    w.Add("e1", kOrange, "line_infantry", "0603");
    w.Add("a2", kBlue, "line_infantry", "0505");
    w.Add("e2", kOrange, "line_infantry", "0504");
    w.state().unit(e0).cs = 1;
    w.ruleset.params.support_reuse = reuse;
    const bool once = reuse == SupportReuse::kOnce;
    std::vector<std::pair<Die, int>> rolls = {{Die::kD6, 1}, {Die::kD6, 1}, {Die::kD6, 1}};
    if (once) rolls.push_back({Die::kD9, 1});
    const Fought f = Attack(w, {{"s", "e0"}, {"a1", "e1"}, {"a2", "e2"}}, Rolls(rolls));
    CHECK_MINI(f.dice_ok);
    CHECK_EQ_MINI(f.dice_left, std::size_t{0});
    CHECK_EQ_MINI(f.result.next_state.unit(s).hex, H("0503"));
    int supports_by_s = 0;
    for (const Event& e : EventsOf(f.result.events, EventKind::kSupport)) {
      if (e.unit == s) ++supports_by_s;
    }
    CHECK_EQ_MINI(supports_by_s, once ? 1 : 2);
  }
}

}  // namespace
}  // namespace pbem::engine
