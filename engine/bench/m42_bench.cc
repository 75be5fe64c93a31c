// M42 benchmarks (issue 16 point 9 goals: checking one 10-model unit's order under 50 us, a
// whole 40-model action phase under 2 ms; the third, the table map, belongs to the renderer).
//
//   cmake --build <build> --target m42_bench
//   <build>/bin/m42_bench --benchmark_min_time=0.5
//
// The table is the bundled scenario "pumping_station" (engine/m42/scenarios.h) with blue's
// platoon replaced by four units of ten models (1" bases, 1.5" apart): b1 and b3 in rows from
// x = 2" to 15.5" (y = 3" and 6"), b2 and b4 from x = 26" to 39.5" (same rows); red's platoon
// stays as bundled. Orders: every blue model advances 4" north in two legs (up 2" and 0.5"
// east, then up 2" and 0.5" west), front rows first: legal, a length of 4.123" each, crossing
// open ground in the middle of the terrain's features, measured against every one of them.
//
//   BM_CheckTenModelUnit   m42::CheckAction on b3's order (steps 1-10, no change).
//   BM_ActionPhase40       m42::ResolvePlayerTurn on blue's four orders (40 models): the
//                          checks, execution, events, close-combat checks and the phase end.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/m42/resolve.h"
#include "engine/m42/scenarios.h"
#include "engine/m42/validate.h"

namespace {

namespace m42 = pbem::m42;

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "m42_bench: %s\n", what.c_str());
  std::exit(1);
}

constexpr m42::Thou kStep = 1500;  // between the centres of a row

struct Bench {
  m42::Ruleset ruleset = m42::DefaultRuleset();
  m42::Scenario scenario;
  m42::State state;
  m42::Orders orders;
};

const Bench& Setup() {
  static const Bench bench = [] {
    Bench b;
    b.scenario = m42::PumpingStation();
    std::erase_if(b.scenario.models, [](const m42::ModelSpec& m) { return m.unit[0] == 'b'; });
    std::erase_if(b.scenario.units, [](const m42::UnitSpec& u) { return u.id[0] == 'b'; });
    // Front rows (y = 6") first in the orders, so nobody ends where another still stands.
    const struct {
      const char* id;
      m42::Thou x0, y;
    } rows[] = {{"b3", 2000, 6000}, {"b4", 26000, 6000}, {"b1", 2000, 3000}, {"b2", 26000, 3000}};
    for (const auto& row : rows) {
      m42::UnitSpec u;
      u.id = row.id;
      u.owner = "blue";
      u.task_force = "blue";
      u.mv_in = 5;
      b.scenario.units.push_back(u);
      m42::UnitOrder order{row.id, m42::Action::kAdvance, m42::Fire::kUnset, {}};
      for (int i = 0; i < 10; ++i) {
        const m42::Thou x = row.x0 + kStep * i;
        m42::ModelSpec m;
        m.id = std::string(row.id) + "_" + std::to_string(i + 1);
        m.unit = row.id;
        m.pos = *pbem::table::Point::Make(m42::ToUnits(x), m42::ToUnits(row.y));
        b.scenario.models.push_back(m);
        order.models.push_back(m42::ModelOrder{
            m.id, {{x, row.y, {}}, {x + 500, row.y + 2000, {}}, {x, row.y + 4000, {}}}, {}});
      }
      b.orders.actions.push_back(std::move(order));
    }
    b.orders.player = "blue";
    m42::InitialStateResult start = m42::InitialState(b.ruleset, b.scenario);
    if (!start.state) Fail("scenario refused: " + start.problems.front().code);
    b.state = *start.state;
    for (const m42::Verdict& v : m42::CheckOrders(b.ruleset, b.scenario, b.state, b.orders)) {
      if (v.kind != m42::VerdictKind::kOk) {
        Fail("order for " + v.unit + " refused: " + std::string(m42::ReasonName(v.reason)));
      }
    }
    return b;
  }();
  return bench;
}

void BM_CheckTenModelUnit(benchmark::State& st) {
  const Bench& b = Setup();
  const m42::UnitOrder& order = b.orders.actions.front();
  for (auto _ : st) {
    m42::ActionCheck check = m42::CheckAction(b.ruleset, b.scenario, b.state, "blue", order);
    benchmark::DoNotOptimize(check);
  }
  st.counters["models"] = static_cast<double>(order.models.size());
}
BENCHMARK(BM_CheckTenModelUnit)->Unit(benchmark::kMicrosecond);

void BM_ActionPhase40(benchmark::State& st) {
  const Bench& b = Setup();
  std::size_t events = 0;
  for (auto _ : st) {
    m42::PlayerTurnResult r = m42::ResolvePlayerTurn(b.ruleset, b.scenario, b.state, b.orders);
    events = r.events.size();
    benchmark::DoNotOptimize(r);
  }
  st.counters["models"] = 40;
  st.counters["events"] = static_cast<double>(events);
}
BENCHMARK(BM_ActionPhase40)->Unit(benchmark::kMicrosecond);

}  // namespace
