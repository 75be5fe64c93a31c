// Random orders from a fixed seed against a table with terrain: whatever the verdict, the
// state after it keeps the invariants the rules promise (issue 16 point 8, engine side): no
// two bases overlap, every base is on the table, a model that moved ends at least 2" - eps
// from every enemy, a unit that moved legally is coherent, and an order that is not legal
// moves nothing.
#include <cstdint>

#include "engine/table/discs.h"
#include "tests/engine/m42/fixtures.h"

namespace pbem::m42::test {
namespace {

struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t Next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::int64_t Between(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(Next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
};

World Battlefield() {
  World w;
  const char* names[] = {"a1", "a2", "a3", "a4"};
  for (int i = 0; i < 4; ++i) w.Model(names[i], "alpha", 10 + 1.5 * i, 10);
  w.Model("b1", "bravo", 10, 20).Model("b2", "bravo", 11.5, 20).Model("b3", "bravo", 13, 20);
  w.Model("x1", "xray", 30, 15).Model("x2", "xray", 31.5, 15);
  w.scenario.terrain.areas.push_back(Area("W1", Square(16, 8, 22, 14)));
  w.O1(3);
  w.scenario.terrain.hills.push_back(Hill{"H1", {Square(4, 24, 20, 34)}});
  w.scenario.terrain.impassable.push_back(ImpassableArea{"Lake", Square(22, 20, 26, 26)});
  return w;
}

TEST_CASE_MINI(RandomOrdersKeepInvariants) {
  const World w = Battlefield();
  const table::Coord eps = ToUnits(w.ruleset.epsilon_in);
  SplitMix64 rng{20261126};
  State state = w.Start();
  int legal = 0;
  for (int round = 0; round < 400; ++round) {
    const std::string unit = rng.Next() % 2 ? "alpha" : "bravo";
    const Action kind = rng.Next() % 4 == 0 ? Action::kAtTheDouble : Action::kAdvance;
    UnitOrder order = Act(unit, kind, {});
    // The unit moves together (one displacement per leg) with a little jitter per model.
    const std::int64_t dx[2] = {rng.Between(-3000, 3000), rng.Between(-3000, 3000)};
    const std::int64_t dy[2] = {rng.Between(-3000, 3000), rng.Between(-3000, 3000)};
    for (const ModelState& m : state.models) {
      if (m.unit != unit || rng.Next() % 5 == 0) continue;
      ModelOrder mo{m.id, {{m.pos.x() / 254, m.pos.y() / 254, std::nullopt}}, std::nullopt};
      const int legs = static_cast<int>(rng.Between(1, 2));
      for (int k = 0; k < legs; ++k) {
        const PathVertex& last = mo.path.back();
        mo.path.push_back({last.x_thou + dx[k] + rng.Between(-400, 400),
                           last.y_thou + dy[k] + rng.Between(-400, 400), std::nullopt});
      }
      order.models.push_back(std::move(mo));
    }
    const auto r = ResolvePlayerTurn(w.ruleset, w.scenario, state, Orders{"blue", {order}});
    const bool ok = r.verdicts.at(0).kind == VerdictKind::kOk;
    legal += ok;
    for (std::size_t i = 0; i < state.models.size(); ++i) {
      const ModelState& before = state.models[i];
      const ModelState& after = r.next.models[i];
      if (!ok) CHECK_MINI(before.pos == after.pos);
      const table::Disc d = *table::Disc::Make(after.pos, after.radius);
      CHECK_MINI(table::SweepInsideTable(*table::Polyline::Make({after.pos}), after.radius,
                                         ToUnits(w.scenario.table_width_in),
                                         ToUnits(w.scenario.table_height_in)));
      for (std::size_t j = i + 1; j < state.models.size(); ++j) {
        const ModelState& other = r.next.models[j];
        CHECK_MINI(!table::Overlap(d, *table::Disc::Make(other.pos, other.radius), eps));
        const bool enemies = (other.unit == "xray") != (after.unit == "xray");
        if (enemies && !(before.pos == after.pos)) {
          CHECK_MINI(table::CompareEdgeDistance(d, *table::Disc::Make(other.pos, other.radius),
                                                ToUnits(2000) - eps) >= 0);
        }
      }
    }
    if (ok) {
      std::vector<table::Disc> discs;
      for (const ModelState& m : r.next.models) {
        if (m.unit == unit) discs.push_back(*table::Disc::Make(m.pos, m.radius));
      }
      CHECK_MINI(!table::Coherency(discs, ToUnits(2000), eps, table::CoherencyMode::kConnected));
    }
    state = r.next;
    state.active_player = 0;  // blue again
    state.turn = 1;
  }
  // The test means something only if both kinds of verdict occur often.
  CHECK_MINI(legal > 40);
  CHECK_MINI(legal < 360);
}

}  // namespace
}  // namespace pbem::m42::test
