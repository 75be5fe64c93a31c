#include "engine/morne_plaine/bombardment.h"

#include <string>
#include <utility>
#include <vector>

#include "engine/morne_plaine/line_of_sight.h"
#include "engine/morne_plaine/turn.h"
#include "engine/morne_plaine/verdict.h"
#include "tests/engine/mini_test.h"
#include "tests/engine/movement_fixtures.h"

namespace pbem::engine {
namespace {

using testing::Body;
using testing::EventsOf;
using testing::H;
using testing::PathOrder;
using testing::Rolls;
using testing::World;

constexpr Side kBlue = Side::kBlue;
constexpr Side kOrange = Side::kOrange;

LosResult Los(const World& w, const char* from, const char* to) {
  return LineOfSight(w.ruleset, w.scenario.map, H(from), H(to));
}

std::vector<Hex> Blockers(const LosResult& r) {
  return r.block ? r.block->hexes : std::vector<Hex>{};
}

// One whole player-turn of `side` with these bombardments (and moves).
struct TurnRun {
  TurnResult result;
  bool dice_ok = true;
  std::size_t dice_left = 0;
};

TurnRun Bombard(World& w, Side side, std::vector<std::pair<std::string, const char*>> shots,
                std::vector<ScriptedRoll> dice, std::vector<MoveOrder> moves = {}) {
  GameState& state = w.state();
  state.side_to_move = side;
  Orders orders = w.OrdersFor(side);
  for (auto& [unit, target] : shots) {
    orders.bombardments.push_back(BombardmentOrder{unit, H(target), {}});
  }
  orders.moves = std::move(moves);
  ScriptedDice scripted(std::move(dice));
  TurnRun run;
  run.result = ResolvePlayerTurn(w.ruleset, w.scenario, state, orders, scripted);
  run.dice_ok = scripted.ok();
  run.dice_left = scripted.remaining();
  return run;
}

const OrderVerdict& BombardVerdict(const TurnResult& r, int index) {
  for (const OrderVerdict& v : r.verdicts) {
    if (v.order_kind == OrderKind::kBombardment && v.index == index) return v;
  }
  static const OrderVerdict kMissing{OrderKind::kHeader, -1, "", VerdictKind::kInvalid,
                                     Reason::kNone,      {}};
  return kMissing;
}

// ---- Reason codes ---------------------------------------------------------------

TEST_CASE_MINI(BombardmentReasonCodesRoundTrip) {
  const std::vector<std::pair<Reason, std::string>> codes = {
      {Reason::kOutOfRange, "out_of_range"},
      {Reason::kNoLineOfSight, "no_line_of_sight"},
      {Reason::kCannotFireFromTerrain, "cannot_fire_from_terrain"},
      {Reason::kAlreadyFired, "already_fired"},
      {Reason::kNoTarget, "no_target"},
      {Reason::kBombardInEnemyZoc, "bombard_in_enemy_zoc"}};
  for (const auto& [r, code] : codes) {
    CHECK_EQ_MINI(std::string(ReasonCode(r)), code);
    CHECK_MINI(ParseReasonCode(code) == r);
  }
}

// ---- Line of sight (digest 3.3, levels_v1) ----------------------------------------

TEST_CASE_MINI(LosClearOverOpenGroundAndUnits) {
  World w;
  // 0103 -> 0403 crosses 0203 and 0303; units never block (step 6).
  w.Add("x", kOrange, "line_infantry", "0203");
  w.Add("y", kBlue, "line_infantry", "0303");
  CHECK_MINI(Los(w, "0103", "0403").clear);
}

TEST_CASE_MINI(LosBlockedByEachBlockingTerrain) {
  for (const char* terrain : {"woods", "town", "fort", "dune", "palm_grove"}) {
    World w;
    w.Terrain("0303", terrain);
    const LosResult r = Los(w, "0103", "0403");
    CHECK_MINI(!r.clear);
    CHECK_MINI(Blockers(r) == std::vector<Hex>{H("0303")});
  }
}

TEST_CASE_MINI(LosNotBlockedByRoughMarshOrchardHamlet) {
  for (const char* terrain : {"rough", "coppice", "marsh", "orchard", "hamlet"}) {
    World w;
    w.Terrain("0203", terrain).Terrain("0303", terrain);
    CHECK_MINI(Los(w, "0103", "0403").clear);
  }
}

TEST_CASE_MINI(LosFirerAndTargetHexesNeverBlock) {
  World w;
  w.Terrain("0103", "woods").Terrain("0403", "town");
  CHECK_MINI(Los(w, "0103", "0403").clear);
}

TEST_CASE_MINI(LosFirstBlockerFromTheFirerIsReported) {
  World w;
  w.Terrain("0203", "town").Terrain("0303", "woods");
  CHECK_MINI(Blockers(Los(w, "0103", "0403")) == std::vector<Hex>{H("0203")});
  CHECK_MINI(Blockers(Los(w, "0403", "0103")) == std::vector<Hex>{H("0303")});
}

TEST_CASE_MINI(LosAlongAHexsideBlockedOnlyWhenBothSidesBlock) {
  // 0303 -> 0305 runs along the side between 0204 and 0304 (hex case
  // line-north-south-along-hexside).
  World one;
  one.Terrain("0204", "woods");
  CHECK_MINI(Los(one, "0303", "0305").clear);
  World other;
  other.Terrain("0304", "town");
  CHECK_MINI(Los(other, "0303", "0305").clear);
  World both;
  both.Terrain("0204", "woods").Terrain("0304", "town");
  const LosResult r = Los(both, "0303", "0305");
  CHECK_MINI(!r.clear);
  CHECK_MINI(Blockers(r) == (std::vector<Hex>{H("0204"), H("0304")}));
}

TEST_CASE_MINI(LosCornerTouchesNeverBlock) {
  // 0101 -> 0502 touches 0202 and 0401 at one vertex each (hex case
  // line-touches-corners-only) and crosses 0201 0301 0302 0402.
  World w;
  w.Terrain("0202", "woods").Terrain("0401", "woods");
  CHECK_MINI(Los(w, "0101", "0502").clear);
  w.Terrain("0302", "woods");
  CHECK_MINI(Blockers(Los(w, "0101", "0502")) == std::vector<Hex>{H("0302")});
}

TEST_CASE_MINI(LosHigherGroundBlocksAtEqualLevels) {
  World w;
  // Step 4: firer and target at level 0, a clear hill (H = 1) between.
  w.Level("0303", 1);
  CHECK_MINI(!Los(w, "0103", "0403").clear);
  // Firer and target at level 1: a clear level-1 hex (H = 1) does not block...
  World v;
  v.Level("0103", 1).Level("0403", 1).Level("0203", 1).Level("0303", 1);
  CHECK_MINI(Los(v, "0103", "0403").clear);
  // ...woods on it (H = 2) do.
  v.Terrain("0303", "woods");
  CHECK_MINI(!Los(v, "0103", "0403").clear);
}

TEST_CASE_MINI(LosHollowNeverBlocks) {
  // Both ends at level 1, woods at level 0 between: H = 1, not above 1.
  World w;
  w.Level("0103", 1).Level("0403", 1).Terrain("0203", "woods").Terrain("0303", "woods");
  CHECK_MINI(Los(w, "0103", "0403").clear);
}

TEST_CASE_MINI(LosDifferentLevelsUseTheSightLineHeight) {
  // Step 5, D = 3. Firer 0103 at level 2, target 0403 at level 0: at 0303
  // (d = 2) the line is at 2 - 2 * 2/3 = 2/3; woods there (H = 1) block.
  World w;
  w.Level("0103", 2).Terrain("0303", "woods");
  CHECK_MINI(Blockers(Los(w, "0103", "0403")) == std::vector<Hex>{H("0303")});
  // Firer at level 3: the line is at 3 - 3 * 2/3 = 1 exactly: H = 1 is not
  // above it (exact arithmetic, no rounding).
  World v;
  v.Level("0103", 3).Terrain("0303", "woods");
  CHECK_MINI(Los(v, "0103", "0403").clear);
  // Seen from below it is the same line: target 0103 at 3, firer 0403 at 0;
  // 0303 is at d = 1 from the firer: 0 + 3 * 1/3 = 1.
  CHECK_MINI(Los(v, "0403", "0103").clear);
  CHECK_MINI(HexBlocksSight(w.ruleset, w.scenario.map, H("0103"), H("0403"), H("0303")));
  CHECK_MINI(!HexBlocksSight(v.ruleset, v.scenario.map, H("0103"), H("0403"), H("0303")));
}

TEST_CASE_MINI(LosModelNoneIgnoresTerrain) {
  World w;
  w.Terrain("0303", "woods").Level("0203", 3);
  w.ruleset.params.los_model = LosModel::kNone;
  CHECK_MINI(Los(w, "0103", "0403").clear);
}

// ---- The default results model (digest 3.4) -----------------------------------------

TEST_CASE_MINI(ShotModifiersAndDoubleLoss) {
  World w;
  const UnitId gun = w.Add("gun", kBlue, "foot_artillery", "0101");  // BV 3, range 3
  const UnitSpec& g = w.spec(gun);
  const TerrainType& clear = w.ruleset.terrain_type(*w.ruleset.FindTerrain("clear"));
  const TerrainType& town = w.ruleset.terrain_type(*w.ruleset.FindTerrain("town"));
  const TerrainType& hamlet = w.ruleset.terrain_type(*w.ruleset.FindTerrain("hamlet"));
  const TerrainType& fort = w.ruleset.terrain_type(*w.ruleset.FindTerrain("fort"));
  // 3 <= 3 at distance 2 on clear ground: a hit, 1 MV.
  BombardShot s = JudgeBombardShot(w.ruleset, g, clear, 2, 3);
  CHECK_MINI(s.hit && !s.doubled);
  CHECK_EQ_MINI(s.loss, 1);
  // 4 > 3: a miss.
  s = JudgeBombardShot(w.ruleset, g, clear, 2, 4);
  CHECK_MINI(!s.hit);
  CHECK_EQ_MINI(s.loss, 0);
  // At the maximum range 3 + 1 = 4: a miss; 2 + 1 = 3: a hit.
  s = JudgeBombardShot(w.ruleset, g, clear, 3, 3);
  CHECK_MINI(!s.hit);
  CHECK_EQ_MINI(s.range_modifier, 1);
  CHECK_MINI(JudgeBombardShot(w.ruleset, g, clear, 3, 2).hit);
  // Town and hamlet +1, fort +2.
  CHECK_EQ_MINI(JudgeBombardShot(w.ruleset, g, town, 2, 3).modified, 4);
  CHECK_EQ_MINI(JudgeBombardShot(w.ruleset, g, hamlet, 2, 3).modified, 4);
  CHECK_EQ_MINI(JudgeBombardShot(w.ruleset, g, fort, 2, 1).modified, 3);
  CHECK_MINI(!JudgeBombardShot(w.ruleset, g, fort, 2, 2).hit);
  // A 1 that stays <= BV - 2 = 1 costs 2 MV; with any modifier it is 2 > 1:
  // a single loss.
  s = JudgeBombardShot(w.ruleset, g, clear, 1, 1);
  CHECK_MINI(s.hit && s.doubled);
  CHECK_EQ_MINI(s.loss, 2);
  s = JudgeBombardShot(w.ruleset, g, town, 1, 1);
  CHECK_MINI(s.hit && !s.doubled);
  CHECK_EQ_MINI(s.loss, 1);
  s = JudgeBombardShot(w.ruleset, g, clear, 3, 1);
  CHECK_MINI(s.hit && !s.doubled);
  // Horse artillery, BV 2: a 1 is never <= 0, no double loss.
  const UnitId horse = w.Add("horse", kBlue, "horse_artillery", "0102");
  s = JudgeBombardShot(w.ruleset, w.spec(horse), clear, 1, 1);
  CHECK_MINI(s.hit && !s.doubled);
}

TEST_CASE_MINI(MoraleLossSplitsMvThenCs) {
  World w;
  const UnitId inf = w.Add("inf", kBlue, "line_infantry", "0101");
  const UnitId gen = w.Add("gen", kBlue, "leader", "0102");
  UnitState s;
  s.mv = 1;
  s.cs = 5;
  MoraleLossSplit split = SplitMoraleLoss(w.spec(inf), s, 2);
  CHECK_EQ_MINI(split.mv_lost, 1);
  CHECK_EQ_MINI(split.cs_lost, 1);
  s.mv = 0;
  s.cs = 1;
  split = SplitMoraleLoss(w.spec(inf), s, 2);
  CHECK_EQ_MINI(split.mv_lost, 0);
  CHECK_EQ_MINI(split.cs_lost, 1);
  s.mv = 0;
  s.cs = 2;
  split = SplitMoraleLoss(w.spec(gen), s, 1);
  CHECK_EQ_MINI(split.mv_lost, 0);
  CHECK_EQ_MINI(split.cs_lost, 1);
}

// ---- The phase ------------------------------------------------------------------------

TEST_CASE_MINI(BombardmentHitLogsDieAndLoss) {
  World w;
  w.Add("gun", kBlue, "foot_artillery", "0103");
  const UnitId target = w.Add("o", kOrange, "line_infantry", "0303");  // MV 4
  const TurnRun run = Bombard(w, kBlue, {{"gun", "0303"}}, Rolls({{Die::kD6, 2}}));
  CHECK_MINI(run.dice_ok);
  CHECK_EQ_MINI(run.dice_left, std::size_t{0});
  CHECK_MINI(BombardVerdict(run.result, 0).verdict == VerdictKind::kOk);
  CHECK_EQ_MINI(run.result.next_state.unit(target).mv, 3);
  const auto dice = EventsOf(run.result.events, EventKind::kDie);
  REQUIRE_MINI(dice.size() == 1);
  CHECK_MINI(dice[0].phase == Phase::kBombardment);
  CHECK_EQ_MINI(dice[0].die->purpose, std::string("bombardment"));
  const auto shots = EventsOf(run.result.events, EventKind::kBombard);
  REQUIRE_MINI(shots.size() == 1);
  CHECK_EQ_MINI(Body<payload::Bombard>(shots[0]).target, std::string("o"));
  CHECK_EQ_MINI(Body<payload::Bombard>(shots[0]).roll, 2);      // roll
  CHECK_EQ_MINI(Body<payload::Bombard>(shots[0]).modified, 2);  // modified
  CHECK_EQ_MINI(Body<payload::Bombard>(shots[0]).bv, 3);        // BV
  CHECK_EQ_MINI(Body<payload::Bombard>(shots[0]).result, std::string("hit"));
  const auto losses = EventsOf(run.result.events, EventKind::kLoss);
  REQUIRE_MINI(losses.size() == 1);
  CHECK_EQ_MINI(Body<payload::Loss>(losses[0]).mv_lost, 1);
  CHECK_EQ_MINI(Body<payload::Loss>(losses[0]).cs_lost, 0);
  // Never a retreat nor a morale test (step 4).
  CHECK_MINI(EventsOf(run.result.events, EventKind::kRetreat).empty());
  CHECK_MINI(EventsOf(run.result.events, EventKind::kMoraleTest).empty());
  CHECK_EQ_MINI(run.result.next_state.unit(target).hex, H("0303"));
}

TEST_CASE_MINI(BombardmentMissCostsNothingButTheBatteryHasFired) {
  World w;
  w.Add("gun", kBlue, "foot_artillery", "0103");
  const UnitId target = w.Add("o", kOrange, "line_infantry", "0303");
  // The battery fired: it may not move in the following movement phase.
  const TurnRun run =
      Bombard(w, kBlue, {{"gun", "0303"}}, Rolls({{Die::kD6, 4}}), {PathOrder("gun", {"0104"})});
  CHECK_MINI(run.dice_ok);
  CHECK_EQ_MINI(run.result.next_state.unit(target).mv, 4);
  CHECK_MINI(EventsOf(run.result.events, EventKind::kLoss).empty());
  bool refused = false;
  for (const OrderVerdict& v : run.result.verdicts) {
    if (v.order_kind == OrderKind::kMove) refused = v.reason == Reason::kBombardedCannotMove;
  }
  CHECK_MINI(refused);
}

TEST_CASE_MINI(TwoBatteriesOnOneHexAndElimination) {
  World w;
  w.Add("gun1", kBlue, "foot_artillery", "0103");
  w.Add("gun2", kBlue, "foot_artillery", "0305");
  w.Add("gun3", kBlue, "foot_artillery", "0503");
  const UnitId target = w.Add("o", kOrange, "light_cavalry", "0303");  // CS 3 MV 4
  w.state().unit(target).mv = 1;
  w.state().unit(target).cs = 2;
  // gun1: 1 at distance 2, double: MV 1 -> 0 and CS 2 -> 1. gun2 (distance 2):
  // 3, hit: CS 1 -> 0, eliminated. gun3 finds no target.
  const TurnRun run = Bombard(w, kBlue, {{"gun1", "0303"}, {"gun2", "0303"}, {"gun3", "0303"}},
                              Rolls({{Die::kD6, 1}, {Die::kD6, 3}}));
  CHECK_MINI(run.dice_ok);
  CHECK_EQ_MINI(run.dice_left, std::size_t{0});
  const UnitState& t = run.result.next_state.unit(target);
  CHECK_MINI(t.eliminated);
  CHECK_MINI(!t.hex.has_value());
  CHECK_EQ_MINI(t.cs, 0);
  const auto losses = EventsOf(run.result.events, EventKind::kLoss);
  REQUIRE_MINI(losses.size() == 2);
  CHECK_EQ_MINI(Body<payload::Loss>(losses[0]).mv_lost, 1);
  CHECK_EQ_MINI(Body<payload::Loss>(losses[0]).cs_lost, 1);
  CHECK_EQ_MINI(Body<payload::Loss>(losses[1]).mv_lost, 0);
  CHECK_EQ_MINI(Body<payload::Loss>(losses[1]).cs_lost, 1);
  CHECK_EQ_MINI(EventsOf(run.result.events, EventKind::kEliminated).size(), std::size_t{1});
  CHECK_MINI(BombardVerdict(run.result, 0).verdict == VerdictKind::kOk);
  CHECK_MINI(BombardVerdict(run.result, 1).verdict == VerdictKind::kOk);
  CHECK_MINI(BombardVerdict(run.result, 2).reason == Reason::kNoTarget);
}

// Digest 5.11 GAP: with elimination_bonus_scope kAll the battery whose shot
// eliminates regains 1 MV (never above its initial MV); with the default
// kCombatPhase it does not.
TEST_CASE_MINI(EliminationBonusScopeAllRewardsTheBattery) {
  for (const bool all : {false, true}) {
    World w;
    if (all) w.ruleset.params.elimination_bonus_scope = EliminationBonusScope::kAll;
    const UnitId gun = w.Add("gun", kBlue, "foot_artillery", "0103");  // BV 3, MV 3
    const UnitId gun2 = w.Add("gun2", kBlue, "foot_artillery", "0107");
    const UnitId target = w.Add("o", kOrange, "light_cavalry", "0303");
    const UnitId target2 = w.Add("o2", kOrange, "light_cavalry", "0307");
    w.state().unit(gun).mv = 1;
    w.state().unit(gun2).mv = 3;  // already at its initial MV
    w.state().unit(target).mv = 0;
    w.state().unit(target).cs = 1;
    w.state().unit(target2).mv = 0;
    w.state().unit(target2).cs = 1;
    // Distance 2 each: 3 <= BV 3, a hit, MV 0 so CS 1 -> 0: eliminated.
    const TurnRun run = Bombard(w, kBlue, {{"gun", "0303"}, {"gun2", "0307"}},
                                Rolls({{Die::kD6, 3}, {Die::kD6, 3}}));
    CHECK_MINI(run.dice_ok);
    CHECK_MINI(run.result.next_state.unit(target).eliminated);
    CHECK_MINI(run.result.next_state.unit(target2).eliminated);
    CHECK_EQ_MINI(run.result.next_state.unit(gun).mv, all ? 2 : 1);
    CHECK_EQ_MINI(run.result.next_state.unit(gun2).mv, 3);
    const auto gained = EventsOf(run.result.events, EventKind::kMoraleGained);
    REQUIRE_MINI(gained.size() == (all ? 1u : 0u));
    if (all) {
      CHECK_MINI(gained[0].unit == gun);
      CHECK_MINI(gained[0].phase == Phase::kBombardment);
      CHECK_EQ_MINI(Body<payload::MoraleGained>(gained[0]).cause, std::string("elimination"));
    }
  }
}

TEST_CASE_MINI(LeaderLosesCs) {
  World w;
  w.Add("gun", kBlue, "foot_artillery", "0103");
  const UnitId gen = w.Add("gen", kOrange, "leader", "0303");  // CS 2
  const TurnRun run = Bombard(w, kBlue, {{"gun", "0303"}}, Rolls({{Die::kD6, 3}}));
  CHECK_EQ_MINI(run.result.next_state.unit(gen).cs, 1);
}

TEST_CASE_MINI(RefusalsCarryTheirReasons) {
  World w;
  w.Terrain("0102", "woods").Terrain("0203", "woods");
  w.Add("far", kBlue, "foot_artillery", "0105");  // 4 from 0505
  w.Add("inwood", kBlue, "foot_artillery", "0102");
  w.Add("blind", kBlue, "foot_artillery", "0103");  // 0203 woods towards 0403
  const UnitId fired = w.Add("fired", kBlue, "foot_artillery", "0607");
  w.Add("o1", kOrange, "line_infantry", "0505");
  w.Add("o2", kOrange, "line_infantry", "0403");
  w.state().unit(fired).bombarded_this_turn = true;
  const TurnRun run = Bombard(
      w, kBlue, {{"far", "0505"}, {"inwood", "0403"}, {"blind", "0403"}, {"fired", "0505"}}, {});
  CHECK_MINI(run.dice_ok);
  const OrderVerdict& far = BombardVerdict(run.result, 0);
  CHECK_MINI(far.verdict == VerdictKind::kIllegal);
  CHECK_MINI(far.reason == Reason::kOutOfRange);
  CHECK_MINI(far.args ==
             (std::vector<Arg>{H("0505"), std::int64_t{4}, std::int64_t{1}, std::int64_t{3}}));
  const OrderVerdict& inwood = BombardVerdict(run.result, 1);
  CHECK_MINI(inwood.reason == Reason::kCannotFireFromTerrain);
  CHECK_MINI(inwood.args == (std::vector<Arg>{H("0102"), std::string("woods")}));
  const OrderVerdict& blind = BombardVerdict(run.result, 2);
  CHECK_MINI(blind.reason == Reason::kNoLineOfSight);
  CHECK_MINI(blind.args == (std::vector<Arg>{H("0403"), H("0203")}));
  CHECK_MINI(BombardVerdict(run.result, 3).reason == Reason::kAlreadyFired);
  CHECK_MINI(EventsOf(run.result.events, EventKind::kBombard).empty());
}

TEST_CASE_MINI(MinimumDistanceAndEnemyZocParameters) {
  World w;
  w.Add("gun", kBlue, "foot_artillery", "0303");
  w.Add("o", kOrange, "line_infantry", "0403");  // adjacent: its ZoC covers 0303
  w.ruleset.params.min_bombard_distance = 2;
  TurnRun run = Bombard(w, kBlue, {{"gun", "0403"}}, {});
  CHECK_MINI(BombardVerdict(run.result, 0).reason == Reason::kOutOfRange);
  World v;
  v.Add("gun", kBlue, "foot_artillery", "0303");
  v.Add("o", kOrange, "line_infantry", "0403");
  v.ruleset.params.bombard_allowed_in_enemy_zoc = false;
  run = Bombard(v, kBlue, {{"gun", "0403"}}, {});
  CHECK_MINI(BombardVerdict(run.result, 0).reason == Reason::kBombardInEnemyZoc);
  // The default allows it (digest 3.1 GAP).
  World u;
  u.Add("gun", kBlue, "foot_artillery", "0303");
  u.Add("o", kOrange, "line_infantry", "0403");
  run = Bombard(u, kBlue, {{"gun", "0403"}}, Rolls({{Die::kD6, 6}}));
  CHECK_MINI(BombardVerdict(run.result, 0).verdict == VerdictKind::kOk);
  CHECK_MINI(run.dice_ok);
}

}  // namespace
}  // namespace pbem::engine
