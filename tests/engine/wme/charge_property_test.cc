// Charges on random layouts (the project's PCG32, engine/core/dice.h, fixed seeds): whenever
// the engine carries a charge out, the invariants of §5.4 hold on the state it leaves:
// - no two bases of different units overlap (WME-P02; contact is touching), nor two of the
//   charger's own bases (WME-R25);
// - the first base touches a base of the target (WME-R47), frontally (W-R2);
// - the charger is in formation (WME-R05, R49) and on the table (GAP-29);
// - no base travelled farther than the full speed (+ eps) (WME-R19, R42).
// A fingerprint of every verdict and placement is printed, to compare a gcc build with a clang
// build (`wme_tests` prints "wme charge fingerprint: ...").
#include <cstdio>

#include "engine/table/contact.h"
#include "engine/table/formation.h"
#include "engine/wme/charge.h"
#include "tests/engine/wme/fixtures.h"
#include "tests/engine/wme/layouts.h"

namespace pbem::wme {
namespace {

using namespace testing;

bool Overlaps(const State& s, std::size_t a, std::size_t b, table::Coord eps) {
  return table::Overlap(Footprint(s.bases[a]), Footprint(s.bases[b]), eps);
}

TEST_CASE_MINI(ChargeInvariantsOnRandomLayouts) {
  Layouts rng(20261126);
  Fnv fingerprint;
  int carried = 0;
  int multi = 0;
  int failures = 0;
  for (int round = 0; round < 4000 && failures < 5; ++round) {
    Game g;
    const bool any = rng.Between(0, 3) == 0;
    const Milli tx = Cm(90) + rng.Between(-5000, 5000);
    const Milli ty = Cm(60) + rng.Between(-5000, 5000);
    const std::int64_t th = rng.Heading(any);
    g.Unit("T", "red", TroopType::kInfantry,
           rng.Line(static_cast<int>(rng.Between(1, 3)), tx, ty, th));
    // The charger 8-22 cm away in a random direction, facing roughly towards the target.
    const std::int64_t bearing = rng.Between(0, 359999);
    const Milli dist = rng.Between(8000, 22000);
    const table::UnitVector b = table::HeadingVector(bearing);
    const Milli cx = tx + static_cast<Milli>(table::RoundDiv(table::Int128{dist} * b.x,
                                                             table::Int128{table::kUnitOne}));
    const Milli cy = ty + static_cast<Milli>(table::RoundDiv(table::Int128{dist} * b.y,
                                                             table::Int128{table::kUnitOne}));
    const std::int64_t ch =
        NormaliseHeading(bearing + 180000 + (any ? rng.Between(-30000, 30000) : 0));
    const int n = static_cast<int>(rng.Between(1, 4));
    g.Unit("C", "blue", TroopType::kInfantry, rng.Line(n, cx, cy, ch));
    const int extra = static_cast<int>(rng.Between(0, 2));
    for (int k = 0; k < extra; ++k) {  // other units round the target, either side
      const Milli ox = tx + rng.Between(-8000, 8000);
      const Milli oy = ty + rng.Between(-8000, 8000);
      const std::int64_t oh = rng.Heading(any);
      // One draw per statement: gcc and clang evaluate function arguments in different orders.
      const std::string side = rng.Between(0, 1) == 0 ? "red" : "blue";
      const int size = static_cast<int>(rng.Between(1, 2));
      g.Unit("O" + std::to_string(k), side, TroopType::kInfantry, rng.Line(size, ox, oy, oh));
    }
    const InitialStateResult start = InitialState(g.ruleset, g.scenario);
    if (!start.state) continue;
    const State& s = *start.state;
    const table::Coord eps = ToUnits(g.ruleset.epsilon_cm);
    bool apart = true;  // the layout itself must not overlap
    for (std::size_t i = 0; i < s.bases.size(); ++i) {
      for (std::size_t j = i + 1; j < s.bases.size(); ++j) {
        if (s.bases[i].unit != s.bases[j].unit &&
            table::Touch(Footprint(s.bases[i]), Footprint(s.bases[j]), eps)) {
          apart = false;
        }
        if (Overlaps(s, i, j, 0)) apart = false;
      }
    }
    if (!apart) continue;
    ChargeOrder order;
    order.unit = "C";
    order.target = "T";
    order.reserve = rng.Between(0, 1) == 0 ? Reserve::kBehind : Reserve::kLine;
    order.envelop = rng.Between(0, 1) == 1;
    ScriptedDice dice({3, 3, 3, 3});
    const PlayerTurnResult r =
        ResolvePlayerTurn(g.ruleset, g.scenario, s, {"blue", {}, {order}}, dice);
    fingerprint.Add(static_cast<int>(r.verdicts[0].reason));
    if (r.verdicts[0].kind != VerdictKind::kOk) continue;
    ++carried;
    if (n > 1) ++multi;
    const State& e = r.next;
    bool ok = true;
    for (std::size_t i = 0; i < e.bases.size(); ++i) {
      fingerprint.Add(e.bases[i].centre.x());
      fingerprint.Add(e.bases[i].centre.y());
      fingerprint.Add(e.bases[i].heading_mdeg);
      for (std::size_t j = i + 1; j < e.bases.size(); ++j) {
        if (Overlaps(e, i, j, eps)) ok = false;  // WME-P02, R25
      }
      if (!table::OnTable(Footprint(e.bases[i]), ToUnits(g.scenario.table_width_cm),
                          ToUnits(g.scenario.table_height_cm), eps)) {
        ok = false;
      }
    }
    std::vector<table::Rect> charger;
    for (std::size_t i : BasesOf(e, "C")) charger.push_back(Footprint(e.bases[i]));
    if (table::Classify(charger, eps, g.ruleset.epsilon_deg) == table::Formation::kNone) {
      ok = false;
    }
    std::string first;
    for (const Event& ev : r.events) {
      if (const Moved* m = std::get_if<Moved>(&ev)) {
        if (first.empty()) first = m->base;
        const Milli full = *g.ruleset.speed_cm[static_cast<std::size_t>(TroopType::kInfantry)];
        if (m->travelled > full + g.ruleset.epsilon_cm) ok = false;  // at most full speed
      }
    }
    const BaseState* fb = FindBase(e, first);
    bool frontal = false;
    for (std::size_t t : BasesOf(e, "T")) {
      if (fb && table::FrontalContactEdge(Footprint(*fb), Footprint(e.bases[t]), eps,
                                          g.ruleset.epsilon_deg)) {
        frontal = true;
      }
    }
    if (!frontal) ok = false;
    if (!ok) {
      ++failures;
      std::printf("charge invariant broken in round %d\n", round);
    }
  }
  std::printf("wme charge fingerprint: %016llx (%d charges carried out, %d of several bases)\n",
              static_cast<unsigned long long>(fingerprint.h), carried, multi);
  CHECK_EQ_MINI(failures, 0);
  CHECK_MINI(multi > 100);  // the layouts do exercise the front line
}

}  // namespace
}  // namespace pbem::wme
