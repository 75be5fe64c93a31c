// The digest's §7 worked cases of the evade (*évitement*) and of formations: WME-T10, T11, T12
// (*traversée de rangs*) and T25, hand-worked, with their boundaries (ε = 0.01 cm).
#include "tests/engine/wme/fixtures.h"

namespace pbem::wme {
namespace {

using namespace testing;
constexpr TroopType kInf = TroopType::kInfantry;

// WME-T10 (WME-R29, R30, R31, R33, P08).
TEST_CASE_MINI(T10_EvadeDirectlyAwayFromTheNearestEnemy) {
  const Game g = T10Game();
  const MoveCheck a =
      CheckMove(g.ruleset, g.scenario, g.Start(), "blue", EvadeSouth(), Subphase::kInitiative);
  CHECK_EQ_MINI(a.verdict, Ok("E"));
  CHECK_EQ_MINI(NearestMilli(a.bases[0].travelled), Cm(20));
  CHECK_EQ_MINI(a.allowance, ToUnits(Cm(20)));
  MoveOrder b = EvadeSouth();
  b.bases[0].legs = {Translate(Cm(24), Cm(40)), Translate(Cm(24), Cm(10))};
  CHECK_EQ_MINI(Check(g, b, Subphase::kInitiative),
                Refused("E", Reason::kEvadeWrongDirection, "E.2"));
  CHECK_EQ_MINI(Check(g, EvadeSouth(), Subphase::kOrders),
                Refused("E", Reason::kEvadeNotByInitiative));
  // GAP-18: 3.01° off u is within 5°, 6.01° is not.
  // The whole line moves as a block (W-R1: E.2 sweeps over E.3, which moves the same way).
  auto tilt_by = [](Milli dx) {
    return EvadeFrom("E", "X",
                     {{"E.2", {Translate(Cm(24) + dx, Cm(11))}},
                      {"E.1", {Translate(Cm(20) + dx, Cm(11))}},
                      {"E.3", {Translate(Cm(28) + dx, Cm(11))}}});
  };
  CHECK_EQ_MINI(Check(g, tilt_by(Cm(1)), Subphase::kInitiative), Ok("E"));
  MoveOrder tilt = tilt_by(Cm(2));
  CHECK_EQ_MINI(Check(g, tilt, Subphase::kInitiative),
                Refused("E", Reason::kEvadeWrongDirection, "E.2"));
  // WME-R33: E.2 (12.000) is nearer than E.1 (12.042).
  MoveOrder first = EvadeSouth();
  std::swap(first.bases[0], first.bases[1]);
  CHECK_EQ_MINI(Check(g, first, Subphase::kInitiative),
                Refused("E", Reason::kEvadeFirstBaseWrong, "E.1", "E.2"));
}

// GAP-09: initiative range 20 cm; X at 20 + ε is in range, 20.011 is not.
TEST_CASE_MINI(T10_InitiativeRangeBoundary) {
  CHECK_EQ_MINI(Check(T10Game(Cm(53)), EvadeSouth(Cm(11)), Subphase::kInitiative), Ok("E"));
  CHECK_EQ_MINI(Check(T10Game(Cm(53, 10)), EvadeSouth(Cm(11)), Subphase::kInitiative), Ok("E"));
  CHECK_EQ_MINI(Check(T10Game(Cm(53, 11)), EvadeSouth(Cm(11)), Subphase::kInitiative),
                Refused("E", Reason::kNoEnemyInInitiativeRange));
}

// WME-T11 (WME-R32, P15): the evader ends at least 1 cm from engaged units.
TEST_CASE_MINI(T11_EvadeEndsClearOfCombat) {
  auto with_k = [](Milli y) {
    Game g = T10Game();
    g.Unit("K", "blue", kInf, {{Cm(24), y}}).engaged = true;
    return g;
  };
  Verdict near = Refused("E", Reason::kEvadeEndsNearCombat, "E.2", "K");
  near.value = Cm(0, 500);
  near.limit = Cm(1);
  CHECK_EQ_MINI(Check(with_k(Cm(7, 500)), EvadeSouth(), Subphase::kInitiative), near);
  CHECK_EQ_MINI(Check(with_k(Cm(6, 500)), EvadeSouth(), Subphase::kInitiative), Ok("E"));
  // Boundary: a gap of 1 - ε is enough, 0.989 is not.
  CHECK_EQ_MINI(Check(with_k(Cm(7, 10)), EvadeSouth(), Subphase::kInitiative), Ok("E"));
  near.value = Cm(0, 989);
  CHECK_EQ_MINI(Check(with_k(Cm(7, 11)), EvadeSouth(), Subphase::kInitiative), near);
}

// WME-T12 (WME-R35, R36): *traversée de rangs*.
TEST_CASE_MINI(T12_PassingThroughTheRanks) {
  const Game g = T12Game();
  const MoveCheck a =
      CheckMove(g.ruleset, g.scenario, g.Start(), "blue", EvadeThroughG(), Subphase::kInitiative);
  CHECK_EQ_MINI(a.verdict, Ok("E"));
  CHECK_EQ_MINI(a.crossed, std::vector<std::string>{"G"});
  CHECK_EQ_MINI(Check(g, EvadeThroughG(Cm(20)), Subphase::kInitiative),
                Refused("E", Reason::kPassThroughNotCleared, "", "G"));
  CHECK_EQ_MINI(Check(T12Game(true), EvadeThroughG(), Subphase::kInitiative),
                Refused("E", Reason::kPassThroughUnitEngaged, "", "G"));
  CHECK_EQ_MINI(Check(g, EvadeSouth(), Subphase::kInitiative),
                Refused("E", Reason::kCrossesOtherUnit, "E.2", "G"));
  // Boundary of (b): E's front edge ε into G's rear edge still clears it, 0.011 does not.
  CHECK_EQ_MINI(Check(g, EvadeThroughG(Cm(18, 10)), Subphase::kInitiative), Ok("E"));
  CHECK_EQ_MINI(Check(g, EvadeThroughG(Cm(18, 11)), Subphase::kInitiative),
                Refused("E", Reason::kPassThroughNotCleared, "", "G"));
}

// WME-R35 (c): another player's unit cannot be named (no consent in the order format).
TEST_CASE_MINI(T12_PassThroughOfAnotherPlayersUnitIsNotAccepted) {
  Game g = T12Game();
  g.Unit("Z", "red", kInf, {{Cm(150), Cm(100)}});
  MoveOrder m = EvadeThroughG();
  m.allow_pass_through.push_back("Z");
  CHECK_EQ_MINI(Check(g, m, Subphase::kInitiative),
                Refused("E", Reason::kPassThroughNotAccepted, "", "Z"));
}

// WME-T25 (WME-R05..R08, R24, P05, P06) through moves: the formation at the end of a move.
TEST_CASE_MINI(T25_FormationAtTheEndOfAMove) {
  Game g;
  g.Unit("L", "blue", kInf, {{Cm(20), Cm(30)}, {Cm(24), Cm(30)}, {Cm(28), Cm(30)}});
  auto third_to = [&g](Milli x, Milli y, std::int64_t turn = 0) {
    std::vector<LegOrder> legs;
    if (turn != 0) legs.push_back(Rotate(turn));
    legs.push_back(Translate(x, y));
    return CheckMove(g.ruleset, g.scenario, g.Start(), "blue", Advance("L", {{"L.3", legs}}),
                     Subphase::kOrders);
  };
  CHECK_MINI(third_to(Cm(28), Cm(32)).formation == table::Formation::kLine);       // (b) escalier
  CHECK_MINI(third_to(Cm(28), Cm(31)).formation == table::Formation::kIrregular);  // (c)
  CHECK_MINI(third_to(Cm(20), Cm(32)).formation == table::Formation::kIrregular);  // (e)
  CHECK_MINI(third_to(Cm(24), Cm(33), -90000).formation ==
             table::Formation::kIrregular);  // (g): faces east, touches L.2
  CHECK_EQ_MINI(third_to(Cm(29), Cm(30)).verdict, Refused("L", Reason::kFormationBroken));  // (f)
  // Boundary: 28.010 still touches L.2 (gap ε), 28.011 does not.
  CHECK_MINI(third_to(Cm(28, 10), Cm(30)).verdict == Ok("L"));
  CHECK_EQ_MINI(third_to(Cm(28, 11), Cm(30)).verdict, Refused("L", Reason::kFormationBroken));
  Game col;
  col.Unit("H", "blue", TroopType::kCavalry, {{Cm(20), Cm(30)}, {Cm(20), Cm(34)}});
  const MoveCheck h =
      CheckMove(col.ruleset, col.scenario, col.Start(), "blue",
                Advance("H", {{"H.2", {Translate(Cm(20), Cm(26))}}}), Subphase::kOrders);
  CHECK_MINI(h.formation == table::Formation::kColumn);  // (h) CHOC column
}

}  // namespace
}  // namespace pbem::wme
