// Leaving the table (french-fantasy.md §6, WME-R67..R69): WME-T24 hand-worked, and the
// boundaries of WME-P14 and of the re-entry search (W-R10).
#include "engine/wme/offtable.h"

#include "tests/engine/wme/fixtures.h"

namespace pbem::wme {
namespace {

using namespace testing;

// WME-T24 setup: blue U9 (one base lost) after a forced recoil of 3 cm west.
Game T24() {
  Game g;
  g.Unit("U9", "blue", TroopType::kInfantry, {{Cm(0), Cm(58), 0}, {Cm(0), Cm(62), 0}}).bases_lost =
      1;
  return g;
}

std::optional<OffTableResult> Leave(const Game& g, int roll) {
  ScriptedDice dice({roll});
  return ResolveLeftTable(g.ruleset, g.scenario, g.Start(), "U9", dice);
}

bool At(const std::vector<ReturnPose>& poses, std::vector<std::pair<Milli, Milli>> want) {
  if (poses.size() != want.size()) return false;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (!(poses[i].centre == Pt(want[i].first, want[i].second)) || poses[i].heading_mdeg != 0) {
      return false;
    }
  }
  return true;
}

// WME-T24 (a), (b): the fate roll, D6 - bases lost.
TEST_CASE_MINI(T24_FateRoll) {
  const Game g = T24();
  CHECK_MINI(LeftTable(g.ruleset, g.scenario, g.Start(), "U9"));
  const std::optional<OffTableResult> a = Leave(g, 5);
  REQUIRE_MINI(a.has_value());
  CHECK_MINI(a->exit.edge == TableEdge::kWest);
  CHECK_MINI(a->exit.point == Pt(0, Cm(60)));
  CHECK_EQ_MINI(a->modified, 4);
  CHECK_MINI(a->fate == Fate::kReturnNextTurn);
  CHECK_MINI(!a->returned);
  const std::optional<std::vector<ReturnPose>> back =
      ReturnPlacement(g.ruleset, g.scenario, g.Start(), "U9", a->exit);
  REQUIRE_MINI(back.has_value());
  CHECK_MINI(At(*back, {{Cm(1), Cm(58)}, {Cm(1), Cm(62)}}));
  CHECK_MINI(Leave(g, 3)->fate == Fate::kLost);
  CHECK_MINI(Leave(g, 6)->fate == Fate::kReturnNow);
  CHECK_MINI(At(*Leave(g, 6)->returned, {{Cm(1), Cm(58)}, {Cm(1), Cm(62)}}));
}

// WME-T24 (c), W-R10: the return slides along the edge until 1 cm clear of the enemy.
TEST_CASE_MINI(T24_ReturnSlidesClearOfTheEnemy) {
  Game g = T24();
  g.Unit("Rd", "red", TroopType::kCavalry, {{Cm(2), Cm(62), 0}, {Cm(2), Cm(64), 0}});
  const std::optional<std::vector<ReturnPose>> back = ReturnPlacement(
      g.ruleset, g.scenario, g.Start(), "U9", ExitPoint{TableEdge::kWest, Pt(0, Cm(60))});
  REQUIRE_MINI(back.has_value());
  CHECK_MINI(At(*back, {{Cm(1), Cm(54)}, {Cm(1), Cm(58)}}));
  // With a gap of 1.5 cm wanted, -4 (1.0) is not enough: -4.5 (1.5 - ε met exactly: 1.5).
  g.ruleset.reentry_enemy_gap_cm = Cm(1, 500);
  CHECK_MINI(At(*ReturnPlacement(g.ruleset, g.scenario, g.Start(), "U9",
                                 ExitPoint{TableEdge::kWest, Pt(0, Cm(60))}),
                {{Cm(1), Cm(53, 500)}, {Cm(1), Cm(57, 500)}}));
  g.ruleset.reentry_enemy_gap_cm = Cm(1, 10);  // 1.0 = 1.01 - ε: still enough
  CHECK_MINI(At(*ReturnPlacement(g.ruleset, g.scenario, g.Start(), "U9",
                                 ExitPoint{TableEdge::kWest, Pt(0, Cm(60))}),
                {{Cm(1), Cm(54)}, {Cm(1), Cm(58)}}));
}

// WME-T24 (d), WME-R69: the general shares the unit's fate; not back at once, the army
// withdraws.
TEST_CASE_MINI(T24_GeneralLeavesWithTheUnit) {
  Game g = T24();
  g.scenario.commanders.push_back(
      CommanderSpec{"gen", "blue", Pt(Cm(1), Cm(60)), true, false, std::string("U9")});
  const std::optional<OffTableResult> six = Leave(g, 6);
  CHECK_MINI(six->fate == Fate::kReturnNow && !six->army_withdraws && !six->general_lost);
  const std::optional<OffTableResult> five = Leave(g, 5);
  CHECK_MINI(five->fate == Fate::kReturnNextTurn && five->army_withdraws && five->general_lost);
}

// WME-P14: beyond an edge by ε is still on the table, by 0.011 it has left.
TEST_CASE_MINI(LeavingTheTableBoundary) {
  Game g;
  g.Unit("A", "blue", TroopType::kInfantry, {{Cm(50), Cm(118, 990)}});  // north edge y 119.99
  CHECK_MINI(!LeftTable(g.ruleset, g.scenario, g.Start(), "A"));
  CHECK_MINI(!FindExitPoint(g.ruleset, g.scenario, g.Start(), "A"));
  g.scenario.bases[0].centre = Pt(Cm(50), Cm(119, 11));
  CHECK_MINI(LeftTable(g.ruleset, g.scenario, g.Start(), "A"));
  const std::optional<ExitPoint> exit = FindExitPoint(g.ruleset, g.scenario, g.Start(), "A");
  REQUIRE_MINI(exit.has_value());
  CHECK_MINI(exit->edge == TableEdge::kNorth);
  CHECK_MINI(exit->point == Pt(Cm(50), Cm(120)));
}

}  // namespace
}  // namespace pbem::wme
