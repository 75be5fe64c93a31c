// Fixtures for the combat tests: the digest's default CRT (default_v1) and
// terrain effects on combat rebuilt in code (engine tests build with no
// codec; the values mirror engine/rulesets/morne-plaine/30-combat.textproto).
#ifndef PBEM_TESTS_ENGINE_COMBAT_FIXTURES_H_
#define PBEM_TESTS_ENGINE_COMBAT_FIXTURES_H_

#include <string>
#include <vector>

#include "engine/morne_plaine/ruleset.h"
#include "tests/engine/movement_fixtures.h"

namespace pbem::engine::testing {

// Digest 5.6 default_v1, from its generating rule: column shift s, x =
// result + s - 1, outcome by x.
inline CombatResultsTable DefaultCrt() {
  CombatResultsTable crt;
  const std::vector<std::string> labels = {"1-8", "1-7",   "1-6", "1-5",   "1-4", "1-3",
                                           "1-2", "1-1.5", "1-1", "1.5-1", "2-1", "3-1",
                                           "4-1", "5-1",   "6-1", "7-1",   "8-1"};
  const std::vector<int> shift = {-5, -5, -4, -4, -3, -3, -2, -1, 0, 1, 2, 3, 3, 4, 4, 5, 5};
  for (const std::string& l : labels) crt.columns.push_back(*ParseOddsColumn(l));
  crt.min_result = 0;
  crt.max_result = 7;
  for (int result = 0; result <= 7; ++result) {
    std::vector<CrtCell> row;
    for (const int s : shift) {
      const int x = result + s - 1;
      const char* text = x <= -3   ? "3*/0"
                         : x <= -1 ? "2*/0"
                         : x == 0  ? "1*/0"
                         : x == 1  ? "1/0"
                         : x == 2  ? "1/1"
                         : x == 3  ? "1/1*"
                         : x == 4  ? "0/1*"
                         : x <= 6  ? "0/2*"
                         : x <= 8  ? "0/3*"
                                   : "0/4*";
      row.push_back(*ParseCrtCell(text));
    }
    crt.rows.push_back(row);
  }
  return crt;
}

// Digest 5.3 default_v1 for the MpRuleset terrain.
inline void AddCombatRules(Ruleset& rs) {
  rs.crt = DefaultCrt();
  const auto t = [&](const char* name) { return *rs.FindTerrain(name); };
  const std::vector<Arm> foot = {Arm::kInfantry, Arm::kArtillery};
  const std::vector<Arm> mounted = {Arm::kCavalry, Arm::kLeader};
  // Digest 5.10 advance ranks (foot, mounted).
  const auto rank = [&](const char* name, int foot_rank, int mounted_rank) {
    TerrainType& tt = rs.terrain[t(name).index()];
    tt.advance_rank_foot = foot_rank;
    tt.advance_rank_mounted = mounted_rank;
  };
  rank("woods", 2, 0);
  rank("town", 2, 0);
  rank("hamlet", 1, 1);
  rank("marsh", -1, -1);
  rank("dune", -1, -1);
  rank("fort", 3, 3);
  rs.terrain_combat = {
      {t("town"), foot, Rational(2), 0},    {t("woods"), foot, Rational(2), 0},
      {t("hamlet"), {}, Rational(3, 2), 0}, {t("fort"), foot, Rational(3), 0},
      {t("fort"), mounted, Rational(2), 0}, {t("dune"), {}, Rational(1), 1},
      {t("marsh"), {}, Rational(1), 1},
  };
}

}  // namespace pbem::engine::testing

#endif  // PBEM_TESTS_ENGINE_COMBAT_FIXTURES_H_
