// Movement engine benchmarks (issue 3 goals: the reachable set of a unit with 12 movement
// points on a 100x100 map under 20 us; a whole movement phase of 200 units under 2 ms).
//
//   cmake --build <build> --target movement_bench
//   <build>/bin/movement_bench --benchmark_min_time=0.5
//
// The ruleset is the bundled one (engine/rulesets/morne-plaine, loaded with the codec); the
// maps and armies are generated deterministically in code (no randomness):
//
// Reach (100x100): roads along rows 25, 50, 75 and columns 20, 50, 80 (crossroads where they
// meet), a track along row 35, a river on the hexsides between rows 60 and 61 with bridges
// where the roads cross it and fords at columns 35 and 65, a stream between rows 40 and 41
// (columns 0-45), woods (columns 38-44, rows 40-48), marsh (columns 56-62, rows 52-57) and
// rough ground (columns 24-30, rows 55-58). The unit stands at 4852, two hexes off the
// column-50 road and two rows below the row-50 road, with 12 movement points (its type's MA
// overridden to 12), so the road rate (0, 1, 0, 1 ...) carries it about 20 hexes along the
// roads and the search meets the river, the fords, the stream, woods and marsh.
//   BM_Reachable/<class>/<enemies>          engine::Reachable with a prebuilt Board,
//                                           MoverState and ReachCache: FindReach plus every
//                                           path spelled out (a vector per hex)
//   BM_FindReach/<class>/<enemies>          engine::FindReach with the map's ReachCache kept
//                                           across queries (the goal's measure: the set with
//                                           costs and the path tree)
//   BM_ReachableReference/<class>/<enemies> the straightforward search, for comparison
//   BM_ReachableThisTurn/<class>/<enemies>  engine::ReachableThisTurn (what `pbem reach`
//                                           pays: command check, state copy, Board, and a
//                                           one-off search, i.e. ReachableReference)
//   class 0 = line infantry, 1 = light cavalry; enemies 0 = the unit alone on the map,
//   1 = 12 enemy infantry placed around it, about 4-7 hexes away (zones of control in the search).
//   Counter hexes: the number of hexes reached.
//
// Movement phase (80x60): roads along row 30 and column 40, a stream between rows 22 and 23
// with a ford at column 20 and a bridge under the road at column 40, woods (columns 14-19,
// rows 23-25) and marsh (columns 46-50, rows 23-24) in front of blue. Blue, 100 units, in
// rows 18-21 (even columns 10-58; 10 light cavalry in the front row, 4 foot batteries in the
// rear row, the rest line infantry); orange, 100 units, in rows 26-29 (its front row holds
// 5 foot batteries, which fire in reaction). Blue moves: every unit has a path order
// south-east/south-west alternately, 3 steps for infantry and artillery (MA 3 / 2) and 4 for
// cavalry (MA 5), front rank first. Many orders end early, as in a real turn: the stream
// costs a point, rear units bump into units ahead that stopped, artillery runs out of points,
// the cavalry enters orange's zone of control (and the batteries' reaction fire). Dice:
// SeededDice(42) each iteration, so every iteration resolves the same phase.
// MOVEMENT_BENCH_VERBOSE=1 prints every verdict that is not ok (once) to stderr.
//   BM_MovementPhase   engine::ResolveMovementPhase, state copy excluded (PauseTiming)
//   Counters: steps (kMoveStep events), ok / partial / illegal verdicts, events.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/core/dice.h"
#include "engine/hex/hex.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/movement.h"
#include "engine/morne_plaine/movement_phase.h"
#include "engine/morne_plaine/orders.h"
#include "engine/morne_plaine/reach.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"
#include "proto/codec/codec.h"

namespace {

namespace eng = pbem::engine;
using eng::Hex;

const eng::Ruleset& BundledRuleset() {
  static const eng::Ruleset ruleset = [] {
    const std::filesystem::path dir =
        std::filesystem::path(PBEM_SOURCE_DIR) / "engine/rulesets/morne-plaine";
    auto loaded = pbem::codec::LoadRulesetDir(dir);
    if (!loaded.ok()) {
      std::fprintf(stderr, "movement_bench: cannot load the ruleset %s\n", dir.c_str());
      std::exit(1);
    }
    return loaded.value().ruleset;
  }();
  return ruleset;
}

eng::TerrainId Terrain(const eng::Ruleset& rs, const char* name) {
  const auto id = rs.FindTerrain(name);
  if (!id) {
    std::fprintf(stderr, "movement_bench: the ruleset has no terrain '%s'\n", name);
    std::exit(1);
  }
  return *id;
}

eng::UnitTypeId UnitType(const eng::Ruleset& rs, const char* name) {
  const auto id = rs.FindUnitType(name);
  if (!id) {
    std::fprintf(stderr, "movement_bench: the ruleset has no unit type '%s'\n", name);
    std::exit(1);
  }
  return *id;
}

Hex At(int col, int row) { return eng::FromOffset(eng::Offset{col, row}); }

void Fill(eng::Map& map, eng::TerrainId t, int col0, int col1, int row0, int row1) {
  for (int r = row0; r <= row1; ++r) {
    for (int c = col0; c <= col1; ++c) map.SetTerrain(At(c, r), t);
  }
}

void RowRoute(eng::Map& map, const std::string& name, bool track, int row, int col0, int col1) {
  eng::Route route;
  route.name = name;
  route.track = track;
  for (int c = col0; c <= col1; ++c) route.hexes.push_back(At(c, row));
  map.AddRoute(std::move(route));
}

// Same offset column, consecutive rows: always adjacent (a zig-zag in cube terms).
void ColumnRoute(eng::Map& map, const std::string& name, int col, int row0, int row1) {
  eng::Route route;
  route.name = name;
  for (int r = row0; r <= row1; ++r) route.hexes.push_back(At(col, r));
  map.AddRoute(std::move(route));
}

// Water on the SE and SW hexsides of every hex of `row` from col0 to col1.
void WaterLine(eng::Map& map, eng::Water water, int row, int col0, int col1) {
  for (int c = col0; c <= col1; ++c) {
    for (eng::Direction d : {eng::Direction::kSE, eng::Direction::kSW}) {
      // The map's west and east edges have no hexside there.
      if (!map.Contains(eng::Neighbor(At(c, row), d))) continue;
      map.SetSide(eng::SideOf(At(c, row), d), eng::HexsideInfo{water, eng::Crossing::kNone});
    }
  }
}

// A crossing where column `col` passes from `row` to row + 1 (the hexside a column road uses).
void Crossing(eng::Map& map, eng::Water water, eng::Crossing crossing, int col, int row) {
  const auto side = eng::SideBetween(At(col, row), At(col, row + 1));
  if (side) map.SetSide(*side, eng::HexsideInfo{water, crossing});
}

eng::UnitSpec MakeUnit(const eng::Ruleset& rs, const std::string& id, eng::Side side,
                       const char* type_name, Hex hex) {
  const eng::UnitTypeId type = UnitType(rs, type_name);
  const eng::UnitType& t = rs.unit_type(type);
  eng::UnitSpec u;
  u.id = id;
  u.name = id;
  u.side = side;
  u.corps = side == eng::Side::kBlue ? "I" : "II";
  u.type = type;
  u.arm = t.arm;
  u.cs = t.defaults.cs.value_or(3);
  u.mv = t.defaults.mv.value_or(3);
  u.ma = t.defaults.ma.value_or(3);
  u.bv = t.defaults.bv.value_or(0);
  u.range = t.defaults.range.value_or(0);
  u.command_radius = t.defaults.command_radius.value_or(0);
  u.start_hex = hex;
  u.independent = true;  // always in command: no leaders in these benchmarks
  return u;
}

// ---- (a) reach on 100x100 ---------------------------------------------------------------------

struct ReachFixture {
  eng::Scenario scenario;
  eng::GameState state;
  eng::UnitId unit;
};

ReachFixture MakeReachFixture(bool cavalry, bool enemies) {
  const eng::Ruleset& rs = BundledRuleset();
  ReachFixture f;
  eng::Scenario& s = f.scenario;
  s.name = "bench-reach-100x100";
  s.ruleset = "morne-plaine";
  s.map = eng::Map(100, 100, Terrain(rs, "clear"));
  eng::Map& map = s.map;
  Fill(map, Terrain(rs, "woods"), 38, 44, 40, 48);
  Fill(map, Terrain(rs, "marsh"), 56, 62, 52, 57);
  Fill(map, Terrain(rs, "rough"), 24, 30, 55, 58);
  for (int row : {25, 50, 75}) RowRoute(map, "road-row-" + std::to_string(row), false, row, 0, 99);
  for (int col : {20, 50, 80}) ColumnRoute(map, "road-col-" + std::to_string(col), col, 0, 99);
  RowRoute(map, "track-row-35", true, 35, 0, 99);
  WaterLine(map, eng::Water::kRiver, 60, 0, 99);
  for (int col : {20, 50, 80}) Crossing(map, eng::Water::kRiver, eng::Crossing::kBridge, col, 60);
  for (int col : {35, 65}) Crossing(map, eng::Water::kRiver, eng::Crossing::kFord, col, 60);
  WaterLine(map, eng::Water::kStream, 40, 0, 45);

  eng::UnitSpec mover = MakeUnit(rs, "mover", eng::Side::kBlue,
                                 cavalry ? "light_cavalry" : "line_infantry", At(48, 52));
  mover.ma = 12;
  s.units.push_back(mover);
  if (enemies) {
    const int spots[][2] = {{44, 47}, {52, 46}, {55, 50}, {41, 53}, {54, 56}, {47, 58},
                            {50, 45}, {43, 51}, {56, 53}, {45, 57}, {51, 59}, {53, 48}};
    int n = 0;
    for (const auto& p : spots) {
      s.units.push_back(MakeUnit(rs, "enemy-" + std::to_string(n++), eng::Side::kOrange,
                                 "line_infantry", At(p[0], p[1])));
    }
  }
  f.state = eng::InitialState(s, "bench");
  f.unit = eng::UnitId{0};
  return f;
}

// Runs `query(fixture, board, mover, cache)` (returning the number of hexes reached) on the
// fixture the benchmark's arguments name, the Board, MoverState and ReachCache built once.
// The four fixtures: {line infantry, light cavalry} x {alone, 12 enemies}.
void AllReachArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"cavalry", "enemies"})
      ->Args({0, 0})
      ->Args({1, 0})
      ->Args({0, 1})
      ->Args({1, 1})
      ->Unit(benchmark::kMicrosecond);
}

template <typename Query>
void RunReach(benchmark::State& st, Query query) {
  const eng::Ruleset& rs = BundledRuleset();
  const ReachFixture f = MakeReachFixture(st.range(0) != 0, st.range(1) != 0);
  const eng::Board board(f.scenario, f.state);
  eng::ReachCache cache(rs, f.scenario.map);
  eng::MoverState mover;
  mover.at = *f.state.unit(f.unit).hex;
  mover.points_left = 12;
  mover.route = eng::TurnStartRoute();
  std::size_t reached = 0;
  for (auto _ : st) reached = query(f, board, mover, cache);
  st.counters["hexes"] = static_cast<double>(reached);
}

void BM_Reachable(benchmark::State& st) {
  RunReach(st, [](const ReachFixture& f, const eng::Board& board, const eng::MoverState& mover,
                  eng::ReachCache& cache) {
    auto out = eng::Reachable(BundledRuleset(), f.scenario, f.state, board, f.unit, mover, &cache);
    benchmark::DoNotOptimize(out.data());
    return out.size();
  });
}
BENCHMARK(BM_Reachable)->Apply(AllReachArgs);

// The goal's measure: the reachable set (every hex, its cost, whether it ends the move, its
// marsh test, and the path tree) with the map's ReachCache built once, outside the loop, as
// the movement phase and a server keep it per map. The first iteration fills the step costs.
void BM_FindReach(benchmark::State& st) {
  std::size_t states = 0;
  RunReach(st, [&states](const ReachFixture& f, const eng::Board& board,
                         const eng::MoverState& mover, eng::ReachCache& cache) {
    auto out = eng::FindReach(f.scenario, f.state, board, f.unit, mover, cache);
    benchmark::DoNotOptimize(out.hexes().data());
    states = out.states();
    return out.hexes().size();
  });
  st.counters["states"] = static_cast<double>(states);
}
BENCHMARK(BM_FindReach)->Apply(AllReachArgs);

// The straightforward search the fast one is tested against, for comparison.
void BM_ReachableReference(benchmark::State& st) {
  RunReach(st, [](const ReachFixture& f, const eng::Board& board, const eng::MoverState& mover,
                  eng::ReachCache&) {
    auto out = eng::ReachableReference(BundledRuleset(), f.scenario, f.state, board, f.unit, mover);
    benchmark::DoNotOptimize(out.data());
    return out.size();
  });
}
BENCHMARK(BM_ReachableReference)
    ->ArgNames({"cavalry", "enemies"})
    ->Args({0, 0})
    ->Args({1, 1})
    ->Unit(benchmark::kMicrosecond);

void BM_ReachableThisTurn(benchmark::State& st) {
  const eng::Ruleset& rs = BundledRuleset();
  const ReachFixture f = MakeReachFixture(st.range(0) != 0, st.range(1) != 0);
  std::size_t reached = 0;
  for (auto _ : st) {
    auto out = eng::ReachableThisTurn(rs, f.scenario, f.state, f.unit);
    reached = out.size();
    benchmark::DoNotOptimize(out.data());
  }
  st.counters["hexes"] = static_cast<double>(reached);
}
BENCHMARK(BM_ReachableThisTurn)->Apply(AllReachArgs);

// ---- (b) movement phase on 80x60
// -----------------------------------------------------------------

struct PhaseFixture {
  eng::Scenario scenario;
  eng::GameState state;
  eng::Orders orders;
};

PhaseFixture MakePhaseFixture() {
  const eng::Ruleset& rs = BundledRuleset();
  PhaseFixture f;
  eng::Scenario& s = f.scenario;
  s.name = "bench-phase-80x60";
  s.ruleset = "morne-plaine";
  s.map = eng::Map(80, 60, Terrain(rs, "clear"));
  eng::Map& map = s.map;
  RowRoute(map, "road-row-30", false, 30, 0, 79);
  ColumnRoute(map, "road-col-40", 40, 0, 59);
  WaterLine(map, eng::Water::kStream, 22, 0, 79);
  Crossing(map, eng::Water::kStream, eng::Crossing::kFord, 20, 22);
  Crossing(map, eng::Water::kStream, eng::Crossing::kBridge, 40, 22);
  Fill(map, Terrain(rs, "woods"), 14, 19, 23, 25);
  Fill(map, Terrain(rs, "marsh"), 46, 50, 23, 24);
  Fill(map, Terrain(rs, "woods"), 60, 66, 10, 15);

  // Blue: rows 18-21, even columns 10..58 (25 a row). Row 21 (front): cavalry at columns
  // 10-28, infantry beyond; rows 18-20 infantry, with 4 foot batteries in row 18.
  // Orange: rows 26-29, same columns; its front row 26 holds 5 foot batteries.
  int n = 0;
  for (int row = 21; row >= 18; --row) {
    for (int col = 10; col <= 58; col += 2) {
      const char* type = "line_infantry";
      if (row == 21 && col <= 28) type = "light_cavalry";
      if (row == 18 && col % 12 == 0) type = "foot_artillery";
      s.units.push_back(
          MakeUnit(rs, "b" + std::to_string(n++), eng::Side::kBlue, type, At(col, row)));
    }
  }
  n = 0;
  for (int row = 26; row <= 29; ++row) {
    for (int col = 10; col <= 58; col += 2) {
      const char* type = "line_infantry";
      if (row == 26 && col % 10 == 0) type = "foot_artillery";
      if (row == 29 && col % 8 == 0) type = "heavy_cavalry";
      s.units.push_back(
          MakeUnit(rs, "o" + std::to_string(n++), eng::Side::kOrange, type, At(col, row)));
    }
  }

  f.state = eng::InitialState(s, "bench");
  f.state.turn = 2;
  f.state.side_to_move = eng::Side::kBlue;
  f.orders.game_id = "bench";
  f.orders.turn = 2;
  f.orders.side = eng::Side::kBlue;
  // Front rank first, so each unit walks into hexes its rank ahead has left.
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    const eng::UnitSpec& u = s.units[i];
    if (u.side != eng::Side::kBlue) continue;
    const int steps = u.arm == eng::Arm::kCavalry ? 4 : 3;
    eng::MoveOrder order;
    order.unit = u.id;
    Hex at = *u.start_hex;
    for (int k = 0; k < steps; ++k) {
      at = eng::Neighbor(at, k % 2 == 0 ? eng::Direction::kSE : eng::Direction::kSW);
      order.path.push_back(at);
    }
    f.orders.moves.push_back(std::move(order));
  }
  return f;
}

void BM_MovementPhase(benchmark::State& st) {
  const eng::Ruleset& rs = BundledRuleset();
  const PhaseFixture f = MakePhaseFixture();
  static bool printed = false;
  if (!printed && std::getenv("MOVEMENT_BENCH_VERBOSE") != nullptr) {
    printed = true;
    // One run, with every verdict that is not ok, to check the fixture does what it says.
    eng::GameState state = f.state;
    eng::SeededDice dice(42);
    std::vector<eng::Event> events;
    const auto result =
        eng::ResolveMovementPhase(rs, f.scenario, state, eng::Side::kBlue, f.orders, dice, events);
    for (const eng::OrderVerdict& v : result.verdicts) {
      if (v.verdict == eng::VerdictKind::kOk) continue;
      std::fprintf(stderr, "%s %s %s\n", v.unit.c_str(),
                   std::string(eng::VerdictKindName(v.verdict)).c_str(),
                   std::string(eng::ReasonCode(v.reason)).c_str());
    }
  }
  int steps = 0;
  int ok = 0;
  int partial = 0;
  int illegal = 0;
  int invalid = 0;
  std::size_t events_count = 0;
  for (auto _ : st) {
    st.PauseTiming();
    eng::GameState state = f.state;
    eng::SeededDice dice(42);
    std::vector<eng::Event> events;
    st.ResumeTiming();
    const eng::MovementPhaseResult result =
        eng::ResolveMovementPhase(rs, f.scenario, state, eng::Side::kBlue, f.orders, dice, events);
    benchmark::DoNotOptimize(result.verdicts.data());
    benchmark::DoNotOptimize(events.data());
    st.PauseTiming();
    steps = ok = partial = illegal = invalid = 0;
    for (const eng::Event& e : events) {
      if (e.kind() == eng::EventKind::kMoveStep) ++steps;
    }
    for (const eng::OrderVerdict& v : result.verdicts) {
      switch (v.verdict) {
        case eng::VerdictKind::kOk:
          ++ok;
          break;
        case eng::VerdictKind::kPartial:
          ++partial;
          break;
        case eng::VerdictKind::kIllegal:
          ++illegal;
          break;
        case eng::VerdictKind::kInvalid:
          ++invalid;
          break;
      }
    }
    events_count = events.size();
    st.ResumeTiming();
  }
  st.counters["steps"] = steps;
  st.counters["ok"] = ok;
  st.counters["partial"] = partial;
  st.counters["illegal"] = illegal;
  st.counters["invalid"] = invalid;
  st.counters["events"] = static_cast<double>(events_count);
}
BENCHMARK(BM_MovementPhase)->Unit(benchmark::kMicrosecond);

}  // namespace
