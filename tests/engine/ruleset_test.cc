#include "engine/morne_plaine/ruleset.h"

#include <string>

#include "tests/engine/fixtures.h"
#include "tests/engine/mini_test.h"

namespace pbem::engine {
namespace {

using testing::TinyRuleset;

bool HasProblem(const std::vector<RulesetProblem>& problems, const std::string& path,
                const std::string& fragment) {
  for (const RulesetProblem& p : problems) {
    if (p.path == path && p.message.find(fragment) != std::string::npos) return true;
  }
  return false;
}

TEST_CASE_MINI(TinyRulesetIsValid) {
  const auto problems = ValidateRuleset(TinyRuleset());
  CHECK_EQ_MINI(problems.size(), 0);
  for (const auto& p : problems) std::cout << "  " << p.path << ": " << p.message << "\n";
}

TEST_CASE_MINI(MissingMoveCostIsReported) {
  Ruleset rs = TinyRuleset();
  rs.terrain[1].move_costs[1].reset();
  const auto problems = ValidateRuleset(rs);
  CHECK_MINI(HasProblem(problems, "terrain[1].move_costs", "no cost for movement class 'horse'"));
}

TEST_CASE_MINI(IncompleteCrtIsReported) {
  Ruleset rs = TinyRuleset();
  rs.crt.rows.pop_back();
  CHECK_MINI(HasProblem(ValidateRuleset(rs), "crt.rows", "needs 2 rows"));
  rs = TinyRuleset();
  rs.crt.rows[1].pop_back();
  CHECK_MINI(HasProblem(ValidateRuleset(rs), "crt.rows[1].cells", "has 1 cells, expected 2"));
}

TEST_CASE_MINI(CrtColumnsMustIncrease) {
  Ruleset rs = TinyRuleset();
  std::swap(rs.crt.columns[0], rs.crt.columns[1]);
  CHECK_MINI(HasProblem(ValidateRuleset(rs), "crt.columns[1]", "better odds"));
}

TEST_CASE_MINI(DuplicateAndEmptyNamesAreReported) {
  Ruleset rs = TinyRuleset();
  rs.terrain[1].name = "clear";
  CHECK_MINI(HasProblem(ValidateRuleset(rs), "terrain[1].name", "duplicate terrain name 'clear'"));
  rs = TinyRuleset();
  rs.unit_types[0].name.clear();
  CHECK_MINI(HasProblem(ValidateRuleset(rs), "unit_types[0].name", "no name"));
}

TEST_CASE_MINI(LeadersMoveAsMustNameAClass) {
  Ruleset rs = TinyRuleset();
  rs.params.leaders_move_as = "camel";
  CHECK_MINI(HasProblem(ValidateRuleset(rs), "parameters.leaders_move_as", "'camel'"));
}

TEST_CASE_MINI(ZocLeaveCostAndReactionFiresMustNotBeNegative) {
  Ruleset rs = TinyRuleset();
  CHECK_MINI(!HasProblem(ValidateRuleset(rs), "parameters.zoc_leave_cost", ""));
  rs.params.zoc_leave_cost = -1;
  CHECK_MINI(HasProblem(ValidateRuleset(rs), "parameters.zoc_leave_cost", "got -1"));
  rs.params.reaction_fire_per_enemy_turn = -2;
  CHECK_MINI(HasProblem(ValidateRuleset(rs), "parameters.reaction_fire_per_enemy_turn", "got -2"));
}

TEST_CASE_MINI(ParseOddsColumns) {
  const auto c = ParseOddsColumn("1.5-1");
  REQUIRE_MINI(c.has_value());
  CHECK_EQ_MINI(c->attacker, Rational(3, 2));
  CHECK_EQ_MINI(c->defender, Rational(1));
  const auto d = ParseOddsColumn("1-8");
  REQUIRE_MINI(d.has_value());
  CHECK_EQ_MINI(d->attacker / d->defender, Rational(1, 8));
  CHECK_MINI(!ParseOddsColumn("1:8").has_value());
  CHECK_MINI(!ParseOddsColumn("0-1").has_value());
  CHECK_MINI(!ParseOddsColumn("-1").has_value());
}

TEST_CASE_MINI(ParseCrtCells) {
  const auto cell = ParseCrtCell("3*/0");
  REQUIRE_MINI(cell.has_value());
  CHECK_EQ_MINI(cell->attacker_loss, 3);
  CHECK_MINI(cell->attacker_test);
  CHECK_EQ_MINI(cell->defender_loss, 0);
  CHECK_MINI(!cell->defender_test);
  const auto other = ParseCrtCell("0/2*");
  REQUIRE_MINI(other.has_value());
  CHECK_MINI(other->defender_test);
  CHECK_EQ_MINI(other->defender_loss, 2);
  CHECK_MINI(!ParseCrtCell("3*").has_value());
  CHECK_MINI(!ParseCrtCell("a/1").has_value());
  CHECK_MINI(!ParseCrtCell("1/-1").has_value());
  CHECK_MINI(!ParseCrtCell("1**/0").has_value());
}

TEST_CASE_MINI(MountedFollowsArmAndDromedaryFlag) {
  UnitType cav{"c", Arm::kCavalry, MovementClassId{0}, false, false, false, {}};
  UnitType dromedary{"d", Arm::kInfantry, MovementClassId{0}, true, false, false, {}};
  UnitType leader{"l", Arm::kLeader, MovementClassId{0}, false, false, false, {}};
  CHECK_MINI(cav.mounted());
  CHECK_MINI(leader.mounted());
  CHECK_MINI(!dromedary.mounted());
}

}  // namespace
}  // namespace pbem::engine
