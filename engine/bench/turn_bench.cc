// Whole player-turn benchmark (issue 4 goal: one player-turn with 200 units a side under
// 10 ms, and close to linear growth from 50 to 800 units a side).
//
//   cmake --build <build> --target turn_bench
//   <build>/bin/turn_bench --benchmark_min_time=0.5
//
// The ruleset is the bundled one (engine/rulesets/morne-plaine, loaded with the codec). The
// battlefield is generated deterministically in code, sized to the number of units N a side:
// R = sqrt(2N) units a row (one every other column) and N / R rows a side, so the map grows
// with the armies (50: 28x21, 200: 48x31, 800: 88x51) and the density stays the same. Blue
// stands in the northern rows, orange in the southern rows, the two front rows adjacent so
// the fronts are in contact, as on the morning of a battle. Terrain: woods patches and a
// hamlet in each army's zone (every 7th column of the 3rd row behind each front is woods,
// the hexes around the middle of the map a hamlet), a stream across the whole map between
// blue's second and third rows with a ford every 9 columns, a hill under orange's front row
// in the eastern third (elevation 1). Each side: per row, the front row has light and heavy
// cavalry at each end and line infantry between (one guard battalion in five), the second
// row is infantry with a foot battery every 5th slot, rows behind it infantry with a horse
// battery every 7th slot; one leader per corps of about 50 units in the last row, with the
// corps assigned by column band so most units are in command.
//
// Orders: engine::BotOrders for blue (attacks by every non-artillery unit in contact,
// bombardments by every battery with a target, moves toward the enemy for the rest, one in
// four standing still), made once outside the timed loop, like the orders of a real player.
// The timed call is engine::ResolvePlayerTurn: the command check, bombardment, movement
// with reaction fire, combat with supports, retreats and advances, rally and end of turn,
// returning verdicts, the event log and the next state. Dice: SeededDice(42) each iteration,
// so each iteration resolves the same turn.
//
//   BM_PlayerTurn/<units a side>
//   Counters: units (on the map, both sides), moves / attacks / bombardments ordered,
//   ok (verdicts), events, eliminated (units eliminated this turn).
//
//   BM_DecodeEncode/<units a side>: the floor to compare with (issue 19, point 5): what
//   pbemd does around a resolution at the least, on the same state and orders: the state's
//   protobuf bytes parsed and decoded (codec::StateFromProto), the orders' bytes parsed and
//   decoded (codec::OrdersFromProto), both encoded again and serialised. tests/bench.sh prints
//   BM_PlayerTurn as a multiple of it. Counters: state_bytes, orders_bytes.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/core/dice.h"
#include "engine/hex/hex.h"
#include "engine/morne_plaine/bot.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/orders.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn.h"
#include "engine/morne_plaine/turn_result.h"
#include "proto/codec/codec.h"

namespace {

namespace eng = pbem::engine;
using eng::Hex;

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "turn_bench: %s\n", what.c_str());
  std::exit(1);
}

const eng::Ruleset& BundledRuleset() {
  static const eng::Ruleset ruleset = [] {
    const std::filesystem::path dir =
        std::filesystem::path(PBEM_SOURCE_DIR) / "engine/rulesets/morne-plaine";
    auto loaded = pbem::codec::LoadRulesetDir(dir);
    if (!loaded.ok()) Fail("cannot load the ruleset " + dir.string());
    return loaded.value().ruleset;
  }();
  return ruleset;
}

Hex At(int col, int row) { return eng::FromOffset(eng::Offset{col, row}); }

eng::UnitSpec MakeUnit(const eng::Ruleset& rs, std::string id, eng::Side side, std::string corps,
                       const char* type_name, Hex hex) {
  const auto type = rs.FindUnitType(type_name);
  if (!type) Fail(std::string("the ruleset has no unit type ") + type_name);
  const eng::UnitType& t = rs.unit_type(*type);
  eng::UnitSpec u;
  u.id = std::move(id);
  u.name = u.id;
  u.side = side;
  u.corps = std::move(corps);
  u.type = *type;
  u.arm = t.arm;
  u.cs = t.defaults.cs.value_or(3);
  u.mv = t.arm == eng::Arm::kLeader ? 0 : t.defaults.mv.value_or(3);
  u.ma = t.defaults.ma.value_or(3);
  u.bv = t.defaults.bv.value_or(0);
  u.range = t.defaults.range.value_or(0);
  u.command_radius = t.defaults.command_radius.value_or(0);
  u.start_hex = hex;
  return u;
}

struct Fixture {
  eng::Scenario scenario;
  eng::GameState state;
  eng::Orders orders;
};

Fixture MakeFixture(int per_side) {
  const eng::Ruleset& rs = BundledRuleset();
  const int per_row = static_cast<int>(std::lround(std::sqrt(2.0 * per_side)));
  const int rows = (per_side + per_row - 1) / per_row;
  const int margin = 4;
  const int width = 2 * per_row + 2 * margin;
  const int height = 2 * rows + 2 * margin + 1;
  // Blue in rows margin .. margin + rows - 1 (its front row last), orange in the rows right
  // below (its front row first), so the two fronts touch.
  const int blue_front = margin + rows - 1;
  const int orange_front = blue_front + 1;

  Fixture f;
  eng::Scenario& s = f.scenario;
  s.name = "bench-turn-" + std::to_string(per_side);
  s.ruleset = "morne-plaine";
  const auto terrain = [&rs](const char* name) {
    const auto id = rs.FindTerrain(name);
    if (!id) Fail(std::string("the ruleset has no terrain ") + name);
    return *id;
  };
  s.map = eng::Map(width, height, terrain("clear"));
  eng::Map& map = s.map;
  // Woods every 7th column, three rows behind each front.
  for (int c = margin; c < width - margin; c += 7) {
    map.SetTerrain(At(c, blue_front - 2), terrain("woods"));
    map.SetTerrain(At(c + 1, orange_front + 2), terrain("woods"));
  }
  // A hamlet in the middle of each army.
  map.SetTerrain(At(width / 2, blue_front - 1), terrain("hamlet"));
  map.SetTerrain(At(width / 2 + 1, orange_front + 1), terrain("hamlet"));
  // A stream between blue's second and third rows, with a ford every 9 columns.
  for (int c = 0; c < width; ++c) {
    const Hex h = At(c, blue_front - 2);
    for (eng::Direction d : {eng::Direction::kSE, eng::Direction::kSW}) {
      if (!map.Contains(eng::Neighbor(h, d))) continue;
      const eng::Crossing crossing = c % 9 == 0 ? eng::Crossing::kFord : eng::Crossing::kNone;
      map.SetSide(eng::SideOf(h, d), eng::HexsideInfo{eng::Water::kStream, crossing});
    }
  }
  // A low hill under orange's front in the eastern third.
  for (int c = 2 * width / 3; c < width; ++c) {
    map.SetLevel(At(c, orange_front), 1);
    map.SetLevel(At(c, orange_front + 1), 1);
  }

  const int corps_count = std::max(1, per_side / 50);
  const auto corps_of = [&](int slot) {
    return std::to_string(std::min(corps_count - 1, slot * corps_count / per_row));
  };
  for (const eng::Side side : {eng::Side::kBlue, eng::Side::kOrange}) {
    const bool blue = side == eng::Side::kBlue;
    const std::string prefix = blue ? "b" : "o";
    int n = 0;
    // Leaders first in the last row, one per corps in the middle of its band.
    const int last_rank = rows - 1;
    std::vector<int> leader_slot(corps_count);
    for (int k = 0; k < corps_count; ++k) {
      leader_slot[k] = (2 * k + 1) * per_row / (2 * corps_count);
    }
    for (int rank = 0; rank < rows && n < per_side; ++rank) {
      const int row = blue ? blue_front - rank : orange_front + rank;
      for (int slot = 0; slot < per_row && n < per_side; ++slot) {
        // Blue on even columns, orange on odd ones: every front unit touches two enemies.
        const int col = margin + 2 * slot + (blue ? 0 : 1);
        const char* type = "line_infantry";
        bool leader = false;
        if (rank == last_rank) {
          for (int k = 0; k < corps_count; ++k) leader = leader || leader_slot[k] == slot;
        }
        if (leader) {
          type = "leader";
        } else if (rank == 0) {
          if (slot < 2)
            type = "light_cavalry";
          else if (slot >= per_row - 2)
            type = "heavy_cavalry";
          else if (slot % 5 == 2)
            type = "guard_infantry";
        } else if (rank == 1 && slot % 5 == 3) {
          type = "foot_artillery";
        } else if (rank >= 2 && slot % 7 == 4) {
          type = "horse_artillery";
        }
        s.units.push_back(MakeUnit(rs, prefix + std::to_string(n++), side,
                                   prefix + "-corps-" + corps_of(slot), type, At(col, row)));
      }
    }
  }
  s.turns = 12;
  s.IndexUnits();  // as the codec does for a loaded scenario
  const auto problems = eng::ValidateScenario(s);
  if (!problems.empty()) Fail("generated scenario: " + problems.front().message);

  f.state = eng::InitialState(s, "bench");
  f.state.turn = 3;
  f.state.side_to_move = eng::Side::kBlue;
  f.orders = eng::BotOrders(rs, s, f.state, 7);
  return f;
}

void BM_PlayerTurn(benchmark::State& st) {
  const eng::Ruleset& rs = BundledRuleset();
  const Fixture f = MakeFixture(static_cast<int>(st.range(0)));
  std::size_t events = 0;
  int ok = 0;
  int eliminated = 0;
  for (auto _ : st) {
    eng::SeededDice dice(42);
    eng::TurnResult result = eng::ResolvePlayerTurn(rs, f.scenario, f.state, f.orders, dice);
    benchmark::DoNotOptimize(result.next_state.units.data());
    events = result.events.size();
    ok = 0;
    for (const eng::OrderVerdict& v : result.verdicts) ok += v.verdict == eng::VerdictKind::kOk;
    eliminated = 0;
    for (const eng::UnitState& u : result.next_state.units) eliminated += u.eliminated;
  }
  int on_map = 0;
  for (const eng::UnitState& u : f.state.units) on_map += u.on_map();
  st.counters["units"] = on_map;
  st.counters["moves"] = static_cast<double>(f.orders.moves.size());
  st.counters["attacks"] = static_cast<double>(f.orders.attacks.size());
  st.counters["bombardments"] = static_cast<double>(f.orders.bombardments.size());
  st.counters["ok"] = ok;
  st.counters["events"] = static_cast<double>(events);
  st.counters["eliminated"] = eliminated;
}
BENCHMARK(BM_PlayerTurn)
    ->ArgName("units_a_side")
    ->Arg(50)
    ->Arg(200)
    ->Arg(800)
    ->Unit(benchmark::kMillisecond);

void BM_DecodeEncode(benchmark::State& st) {
  const Fixture f = MakeFixture(static_cast<int>(st.range(0)));
  const std::string state_bytes = pbem::codec::SerializeMessage(
      pbem::codec::StateToProto(f.state, f.scenario), pbem::codec::Format::kBinary);
  const std::string orders_bytes = pbem::codec::SerializeMessage(
      pbem::codec::OrdersToProto(f.orders, f.scenario), pbem::codec::Format::kBinary);
  for (auto _ : st) {
    pbem::v1::GameState state_proto;
    if (!state_proto.ParseFromString(state_bytes)) Fail("state bytes do not parse");
    pbem::codec::Result<eng::GameState> state =
        pbem::codec::StateFromProto(state_proto, f.scenario);
    if (!state.ok()) Fail("state: " + state.ErrorText());
    pbem::v1::Orders orders_proto;
    if (!orders_proto.ParseFromString(orders_bytes)) Fail("orders bytes do not parse");
    const eng::Orders orders = pbem::codec::OrdersFromProto(orders_proto);
    std::string state_out;
    pbem::codec::StateToProto(state.value(), f.scenario).SerializeToString(&state_out);
    std::string orders_out;
    pbem::codec::OrdersToProto(orders, f.scenario).SerializeToString(&orders_out);
    benchmark::DoNotOptimize(state_out.data());
    benchmark::DoNotOptimize(orders_out.data());
  }
  st.counters["state_bytes"] = static_cast<double>(state_bytes.size());
  st.counters["orders_bytes"] = static_cast<double>(orders_bytes.size());
}
BENCHMARK(BM_DecodeEncode)
    ->ArgName("units_a_side")
    ->Arg(50)
    ->Arg(200)
    ->Arg(800)
    ->Unit(benchmark::kMillisecond);

}  // namespace
