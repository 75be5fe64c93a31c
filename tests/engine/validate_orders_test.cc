#include "engine/morne_plaine/validate_orders.h"

#include <variant>

#include "engine/morne_plaine/game_state.h"
#include "tests/engine/fixtures.h"
#include "tests/engine/mini_test.h"

namespace pbem::engine {
namespace {

using testing::L;
using testing::TinyRuleset;
using testing::TinyScenario;

struct World {
  Ruleset ruleset = TinyRuleset();
  Scenario scenario = TinyScenario();
  GameState state = InitialState(scenario, "g1");
};

Orders BlueOrders() {
  Orders o;
  o.game_id = "g1";
  o.turn = 1;
  o.side = Side::kBlue;
  return o;
}

const OrderVerdict* Find(const std::vector<OrderVerdict>& vs, OrderKind kind, int index) {
  for (const OrderVerdict& v : vs) {
    if (v.order_kind == kind && v.index == index) return &v;
  }
  return nullptr;
}

TEST_CASE_MINI(ValidMoveIsOk) {
  World w;
  Orders o = BlueOrders();
  o.moves.push_back(MoveOrder{"b1", {L("0203")}, {}, {}, false, {}, {}});
  const auto vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  CHECK_EQ_MINI(vs.size(), 1);
  const OrderVerdict* v = Find(vs, OrderKind::kMove, 0);
  REQUIRE_MINI(v != nullptr);
  CHECK_MINI(v->verdict == VerdictKind::kOk);
  CHECK_MINI(AllAcceptable(vs));
}

TEST_CASE_MINI(UnknownUnitIsInvalid) {
  World w;
  Orders o = BlueOrders();
  o.moves.push_back(MoveOrder{"b9", {L("0203")}, {}, {}, false, {}, {}});
  const auto vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  const OrderVerdict* v = Find(vs, OrderKind::kMove, 0);
  REQUIRE_MINI(v != nullptr);
  CHECK_MINI(v->verdict == VerdictKind::kInvalid);
  CHECK_EQ_MINI(ReasonCode(v->reason), std::string_view("unknown_unit"));
  CHECK_MINI(!AllAcceptable(vs));
}

TEST_CASE_MINI(EnemyUnitIsIllegal) {
  World w;
  Orders o = BlueOrders();
  o.moves.push_back(MoveOrder{"o1", {L("0205")}, {}, {}, false, {}, {}});
  const auto vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  const OrderVerdict* v = Find(vs, OrderKind::kMove, 0);
  REQUIRE_MINI(v != nullptr);
  CHECK_MINI(v->verdict == VerdictKind::kIllegal);
  CHECK_MINI(v->reason == Reason::kNotYourUnit);
}

TEST_CASE_MINI(PathOffMapAndNotAdjacent) {
  World w;
  Orders o = BlueOrders();
  // 0202 -> 0201 -> 0200 (row 0 does not exist: off the map).
  o.moves.push_back(MoveOrder{"b1", {L("0201"), *ParseLabel("0299")}, {}, {}, false, {}, {}});
  o.moves.push_back(MoveOrder{"b1", {L("0403")}, {}, {}, false, {}, {}});
  const auto vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  const OrderVerdict* off = Find(vs, OrderKind::kMove, 0);
  REQUIRE_MINI(off != nullptr);
  CHECK_MINI(off->reason == Reason::kHexOffMap);
  const OrderVerdict* gap = Find(vs, OrderKind::kMove, 1);
  REQUIRE_MINI(gap != nullptr);
  CHECK_MINI(gap->reason == Reason::kPathNotAdjacent);
  CHECK_MINI(gap->verdict == VerdictKind::kInvalid);
}

TEST_CASE_MINI(SecondMoveStartsWhereTheFirstEnded) {
  World w;
  Orders o = BlueOrders();
  // b1 at 0202 goes W to 0102, then SW to 0103 (0102 is on an even row
  // label: its SW neighbour is 0103, which is not next to 0202). Corps I has
  // no leader here: b1 is made independent, so in command with its 3 MP.
  w.scenario.units[0].independent = true;
  o.moves.push_back(MoveOrder{"b1", {L("0102")}, {}, {}, false, {}, {}});
  o.moves.push_back(MoveOrder{"b1", {L("0103")}, {}, {}, false, {}, {}});
  auto vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  CHECK_MINI(AllAcceptable(vs));
  CHECK_EQ_MINI(vs.size(), 2);

  // 0203 is next to o1 in 0204 (its SE neighbour): entering it ends b1's
  // movement for the turn (digest 4.6), so a second move is refused, as
  // the resolution refuses it.
  o.moves[0].path = {L("0203")};
  o.moves[1].path = {L("0303")};  // 0203 is on an odd row label: its E neighbour is 0303
  vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  const OrderVerdict* second = Find(vs, OrderKind::kMove, 1);
  REQUIRE_MINI(second != nullptr);
  CHECK_MINI(second->verdict == VerdictKind::kIllegal);
  CHECK_MINI(second->reason == Reason::kMoveEndedInZoc);
}

TEST_CASE_MINI(HeaderProblems) {
  World w;
  Orders o = BlueOrders();
  o.turn = 3;
  o.side = Side::kOrange;
  o.game_id = "other";
  const auto vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  int header = 0;
  bool turn = false, side = false, game = false;
  for (const auto& v : vs) {
    if (v.order_kind != OrderKind::kHeader) continue;
    ++header;
    turn |= v.reason == Reason::kWrongTurn;
    side |= v.reason == Reason::kWrongSide;
    game |= v.reason == Reason::kWrongGame;
  }
  CHECK_EQ_MINI(header, 3);
  CHECK_MINI(turn && side && game);
}

TEST_CASE_MINI(BombardmentChecks) {
  World w;
  Orders o = BlueOrders();
  o.bombardments.push_back(BombardmentOrder{"b1", L("0204"), {}});  // not artillery
  o.bombardments.push_back(BombardmentOrder{"b2", L("0204"), {}});  // ok
  o.bombardments.push_back(BombardmentOrder{"b2", L("0504"), {}});  // fires twice
  const auto vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  CHECK_MINI(Find(vs, OrderKind::kBombardment, 0)->reason == Reason::kNotArtillery);
  CHECK_MINI(Find(vs, OrderKind::kBombardment, 1)->verdict == VerdictKind::kOk);
  CHECK_MINI(Find(vs, OrderKind::kBombardment, 2)->reason == Reason::kDuplicateOrder);
}

TEST_CASE_MINI(AttackChecks) {
  World w;
  Orders o = BlueOrders();
  o.moves.push_back(MoveOrder{"b1", {L("0203")}, {}, {}, false, {}, {}});  // next to o1 (0204)
  o.attacks.push_back(AttackOrder{"b1", "b2", {}});                        // own unit
  o.attacks.push_back(AttackOrder{"b1", "o1", {}});  // ok: in contact once b1 has moved
  o.attacks.push_back(AttackOrder{"b2", "o1", {}});  // defender attacked twice
  o.attacks.push_back(AttackOrder{"b2", "zz", {}});  // unknown defender
  const auto vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  CHECK_MINI(Find(vs, OrderKind::kAttack, 0)->reason == Reason::kAttackOwnUnit);
  CHECK_MINI(Find(vs, OrderKind::kAttack, 1)->verdict == VerdictKind::kOk);
  CHECK_MINI(Find(vs, OrderKind::kAttack, 2)->reason == Reason::kDuplicateOrder);
  CHECK_MINI(Find(vs, OrderKind::kAttack, 3)->reason == Reason::kUnknownUnit);
}

// Contact is judged where the attacker's move order ends, or where it stands
// (digest 5.1); a demoralised attacker is refused at once (digest 5.12).
TEST_CASE_MINI(AttackPreChecks) {
  World w;
  Orders o = BlueOrders();
  o.attacks.push_back(AttackOrder{"b1", "o1", {}});  // b1 at 0202, o1 at 0204: two hexes
  auto vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  const OrderVerdict* v = Find(vs, OrderKind::kAttack, 0);
  REQUIRE_MINI(v != nullptr);
  CHECK_MINI(v->verdict == VerdictKind::kIllegal);
  CHECK_MINI(v->reason == Reason::kNotInContact);
  REQUIRE_MINI(v->args.size() == 1);
  CHECK_MINI(std::get<Hex>(v->args[0]) == L("0204"));

  // Where the move order ends: b1 enters 0203, next to o1 (0203's SE
  // neighbour is 0204).
  o.moves.push_back(MoveOrder{"b1", {L("0203")}, {}, {}, false, {}, {}});
  vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  v = Find(vs, OrderKind::kAttack, 0);
  REQUIRE_MINI(v != nullptr);
  CHECK_MINI(v->verdict == VerdictKind::kOk);

  // Demoralised (MV 0), b1 may not enter o1's zone of control (digest 4.6),
  // so it stays out of contact; standing in contact, it may not attack.
  w.state.unit(*w.scenario.FindUnit("b1")).mv = 0;
  vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  v = Find(vs, OrderKind::kAttack, 0);
  REQUIRE_MINI(v != nullptr);
  CHECK_MINI(v->reason == Reason::kNotInContact);
  o.moves.clear();
  w.state.unit(*w.scenario.FindUnit("b1")).hex = L("0203");
  vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  v = Find(vs, OrderKind::kAttack, 0);
  REQUIRE_MINI(v != nullptr);
  CHECK_MINI(v->reason == Reason::kDemoralisedCannotAttack);
}

// Issue 13 finding 10: a refused order consumes nothing. Only attacks the
// check accepts count as the attacker's one attack (digest 5.1), only shots
// it accepts as the battery's one shot (digest 3.1).
TEST_CASE_MINI(RefusedOrdersConsumeNothing) {
  World w;
  Orders o = BlueOrders();
  o.moves.push_back(MoveOrder{"b1", {L("0203")}, {}, {}, false, {}, {}});  // next to o1 (0204)
  o.attacks.push_back(AttackOrder{"b1", "o2", {}});  // o2 at 0504: not in contact
  o.attacks.push_back(AttackOrder{"b1", "o1", {}});
  o.bombardments.push_back(BombardmentOrder{"b2", L("0303"), {}});  // nobody there
  o.bombardments.push_back(BombardmentOrder{"b2", L("0504"), {}});  // o2, three hexes
  const auto vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  const OrderVerdict* refused = Find(vs, OrderKind::kAttack, 0);
  const OrderVerdict* attack = Find(vs, OrderKind::kAttack, 1);
  const OrderVerdict* no_shot = Find(vs, OrderKind::kBombardment, 0);
  const OrderVerdict* shot = Find(vs, OrderKind::kBombardment, 1);
  REQUIRE_MINI(refused != nullptr && attack != nullptr && no_shot != nullptr && shot != nullptr);
  CHECK_MINI(refused->reason == Reason::kNotInContact);
  CHECK_MINI(attack->verdict == VerdictKind::kOk);
  CHECK_MINI(attack->reason != Reason::kDuplicateOrder);
  CHECK_MINI(no_shot->reason == Reason::kNoUnitAtTarget);
  CHECK_MINI(shot->verdict == VerdictKind::kOk);
  CHECK_MINI(shot->reason != Reason::kDuplicateOrder);
}

TEST_CASE_MINI(PlacementChecks) {
  World w;
  Orders o = BlueOrders();
  o.placements.push_back(PlacementOrder{"b1", L("0101"), {}});  // ok, in zone
  o.placements.push_back(PlacementOrder{"b2", L("0101"), {}});  // taken by b1 now
  o.placements.push_back(PlacementOrder{"b2", L("0305"), {}});  // outside blue zone
  const auto vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  CHECK_MINI(Find(vs, OrderKind::kPlacement, 0)->verdict == VerdictKind::kOk);
  CHECK_MINI(Find(vs, OrderKind::kPlacement, 1)->reason == Reason::kPlacementOccupied);
  // The refused placement does not count: this one is judged on its own.
  CHECK_MINI(Find(vs, OrderKind::kPlacement, 2)->reason == Reason::kPlacementOutsideZone);

  w.state.turn = 2;
  Orders late = BlueOrders();
  late.turn = 2;
  late.placements.push_back(PlacementOrder{"b1", L("0101"), {}});
  const auto later = ValidateOrders(w.ruleset, w.scenario, w.state, late);
  CHECK_MINI(Find(later, OrderKind::kPlacement, 0)->reason == Reason::kSetupNotAllowed);
}

TEST_CASE_MINI(DecodeProblemBecomesInvalidVerdict) {
  World w;
  Orders o = BlueOrders();
  MoveOrder m{
      "b1", {}, {}, {}, false, {}, DecodeProblem{Reason::kBadHexLabel, {std::string("x1")}}};
  o.moves.push_back(m);
  const auto vs = ValidateOrders(w.ruleset, w.scenario, w.state, o);
  const OrderVerdict* v = Find(vs, OrderKind::kMove, 0);
  REQUIRE_MINI(v != nullptr);
  CHECK_MINI(v->verdict == VerdictKind::kInvalid);
  CHECK_MINI(v->reason == Reason::kBadHexLabel);
}

TEST_CASE_MINI(EveryReasonCodeRoundTrips) {
  for (int i = 0; i <= static_cast<int>(Reason::kViaPath); ++i) {
    const auto r = static_cast<Reason>(i);
    const auto code = ReasonCode(r);
    CHECK_MINI(code != "unknown_reason");
    CHECK_MINI(ParseReasonCode(code) == r);
  }
}

}  // namespace
}  // namespace pbem::engine
