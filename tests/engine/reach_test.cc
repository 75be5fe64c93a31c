#include "engine/morne_plaine/reach.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "tests/engine/mini_test.h"
#include "tests/engine/movement_fixtures.h"

namespace pbem::engine {
namespace {

using testing::H;
using testing::World;

// A rules-free space: every neighbour within `radius` of the origin at a
// cost given per direction; hexes in `walls` cannot be entered and hexes in
// `stops` end a path.
class TestSpace final : public SearchSpace {
 public:
  int radius = 3;
  int budget = 100;
  std::vector<int> dir_cost = {1, 1, 1, 1, 1, 1};
  std::vector<Hex> walls;
  std::vector<Hex> stops;

  void Expand(const SearchState& from, int spent, std::vector<SearchStep>& out) const override {
    for (const Direction d : kAllDirections) {
      const Hex to = Neighbor(from.hex, d);
      if (Distance(Hex{0, 0}, to) > radius) continue;
      if (std::find(walls.begin(), walls.end(), to) != walls.end()) continue;
      const int c = dir_cost[static_cast<std::size_t>(d)];
      if (spent + c > budget) continue;
      const bool stop = std::find(stops.begin(), stops.end(), to) != stops.end();
      out.push_back(SearchStep{d, SearchState{to, 0}, c, !stop});
    }
  }
};

std::int32_t NodeOf(const SearchResult& r, Hex h) {
  for (std::size_t i = 0; i < r.nodes().size(); ++i) {
    if (r.nodes()[i].state.hex == h) return static_cast<std::int32_t>(i);
  }
  return -1;
}

TEST_CASE_MINI(FindPathsReachesEveryHexAtItsDistance) {
  TestSpace space;
  const SearchResult r = FindPaths(SearchState{Hex{0, 0}, 0}, space);
  CHECK_EQ_MINI(r.nodes().size(), 37);  // 1 + 6 + 12 + 18
  CHECK_MINI(r.nodes()[0].state.hex == (Hex{0, 0}));
  for (const SearchNode& n : r.nodes()) CHECK_EQ_MINI(n.cost, Distance(Hex{0, 0}, n.state.hex));
}

TEST_CASE_MINI(FindPathsBreaksTiesByFewestStepsThenDirections) {
  TestSpace space;
  // Going E costs 0, everything else 1: E,E then SE is as cheap as SE then
  // E,E and as going SE,E... The target (1,1) two hexes away: E then SE (cost
  // 1) or SE then E (cost 1): same cost and steps; E < SE wins.
  space.dir_cost = {1, 0, 1, 1, 1, 1};
  const SearchResult r = FindPaths(SearchState{Hex{0, 0}, 0}, space);
  const std::int32_t t = NodeOf(r, Hex{1, 1});
  REQUIRE_MINI(t >= 0);
  CHECK_EQ_MINI(r.nodes()[static_cast<std::size_t>(t)].cost, 1);
  const auto dirs = r.Directions(t);
  CHECK_MINI((dirs == std::vector<Direction>{Direction::kE, Direction::kSE}));
  // Fewest steps before directions: with all costs 1, (2,0) is reached in 2
  // steps straight east, never by a 3-step detour.
  TestSpace flat;
  const SearchResult f = FindPaths(SearchState{Hex{0, 0}, 0}, flat);
  const std::int32_t e2 = NodeOf(f, Hex{2, 0});
  CHECK_EQ_MINI(f.nodes()[static_cast<std::size_t>(e2)].steps, 2);
  // Among equal paths to (1,1) with unit costs: (E, SE) vs (SE, E): E first.
  const auto d11 = f.Directions(NodeOf(f, Hex{1, 1}));
  CHECK_MINI((d11 == std::vector<Direction>{Direction::kE, Direction::kSE}));
  // (-1, 2) (two hexes "south"): SE,SW vs SW,SE: SE first.
  const auto ds = f.Directions(NodeOf(f, Hex{-1, 2}));
  CHECK_MINI((ds == std::vector<Direction>{Direction::kSE, Direction::kSW}));
}

TEST_CASE_MINI(FindPathsWithZeroCostStepsEnds) {
  TestSpace space;
  space.dir_cost = {0, 0, 0, 0, 0, 0};
  space.radius = 5;
  const SearchResult r = FindPaths(SearchState{Hex{0, 0}, 0}, space);
  CHECK_EQ_MINI(r.nodes().size(), 91);
  for (const SearchNode& n : r.nodes()) CHECK_EQ_MINI(n.steps, Distance(Hex{0, 0}, n.state.hex));
}

TEST_CASE_MINI(FindPathsDoesNotExpandStopStates) {
  TestSpace space;
  space.radius = 2;
  // A ring of stops around the origin: nothing beyond distance 1.
  for (const Hex n : Neighbors(Hex{0, 0})) space.stops.push_back(n);
  const SearchResult r = FindPaths(SearchState{Hex{0, 0}, 0}, space);
  CHECK_EQ_MINI(r.nodes().size(), 7);
  for (const SearchNode& n : r.nodes()) {
    if (n.parent >= 0) CHECK_MINI(!n.expand);
  }
}

TEST_CASE_MINI(FindPathsRespectsWallsAndBudget) {
  TestSpace space;
  space.budget = 2;
  space.walls = {Hex{1, 0}};
  const SearchResult r = FindPaths(SearchState{Hex{0, 0}, 0}, space);
  CHECK_EQ_MINI(NodeOf(r, Hex{1, 0}), -1);
  const std::int32_t e2 = NodeOf(r, Hex{2, 0});
  REQUIRE_MINI(e2 < 0);  // (2,0) needs 3 steps around the wall
  CHECK_EQ_MINI(NodeOf(r, Hex{0, 3}), -1);
}

// ---- Reachable ----------------------------------------------------------------------

TEST_CASE_MINI(ReachableOnClearGroundIsTheHexagonOfTheAllowance) {
  World w(15, 15);
  const UnitId u = w.Add("u", Side::kBlue, "line_infantry", "0808");  // MA 3
  const auto reach = ReachableThisTurn(w.ruleset, w.scenario, w.state(), u);
  CHECK_EQ_MINI(reach.size(), 36);
  for (const ReachableHex& r : reach) {
    CHECK_EQ_MINI(r.cost, Distance(H("0808"), r.hex));
    CHECK_EQ_MINI(r.path.size(), static_cast<std::size_t>(r.cost));
    CHECK_MINI(!r.path.empty() && r.path.back() == r.hex);
  }
  // Sorted by label: column, then row.
  for (std::size_t i = 1; i < reach.size(); ++i) {
    const Offset a = ToOffset(reach[i - 1].hex);
    const Offset b = ToOffset(reach[i].hex);
    CHECK_MINI(a.col < b.col || (a.col == b.col && a.row < b.row));
  }
}

TEST_CASE_MINI(ReachableStopsAtEnemyZocAndAvoidsOccupiedHexes) {
  World w(12, 12);
  const UnitId u = w.Add("u", Side::kBlue, "light_cavalry", "0305");  // MA 5
  w.Add("o", Side::kOrange, "line_infantry", "0605");
  w.Add("f", Side::kBlue, "line_infantry", "0405");
  const auto reach = ReachableThisTurn(w.ruleset, w.scenario, w.state(), u);
  bool saw_zoc = false;
  for (const ReachableHex& r : reach) {
    CHECK_MINI(r.hex != H("0405") && r.hex != H("0605"));
    for (std::size_t i = 0; i + 1 < r.path.size(); ++i) {
      // No path passes through a controlled hex.
      CHECK_MINI(Distance(r.path[i], H("0605")) > 1);
    }
    if (Distance(r.hex, H("0605")) == 1) {
      CHECK_MINI(r.ends_move);
      saw_zoc = true;
    }
  }
  CHECK_MINI(saw_zoc);
}

TEST_CASE_MINI(ReachableUsesTheRoadAndHalvesOutOfCommand) {
  World w(30, 5);
  std::vector<const char*> road = {"0103", "0203", "0303", "0403", "0503", "0603",
                                   "0703", "0803", "0903", "1003", "1103", "1203"};
  w.Route(road);
  const UnitId u = w.Add("u", Side::kBlue, "line_infantry", "0103");  // MA 3
  const auto reach = ReachableThisTurn(w.ruleset, w.scenario, w.state(), u);
  // 0,1,0,1,0,1,0: seven road hexes for 3 points.
  bool found = false;
  for (const ReachableHex& r : reach) {
    if (r.hex == H("0803")) {
      found = true;
      CHECK_EQ_MINI(r.cost, 3);
    }
    CHECK_MINI(r.hex != H("0903"));
  }
  CHECK_MINI(found);
  // Out of command (leader far away): MA 1 -> 0,1,0: three road hexes.
  World far(30, 5);
  far.Route(road);
  const UnitId v = far.Add("v", Side::kBlue, "line_infantry", "0103");
  far.Add("gen", Side::kBlue, "leader", "2001");
  far.Corps(Side::kBlue, "I");
  const auto reach2 = ReachableThisTurn(far.ruleset, far.scenario, far.state(), v);
  bool has4 = false;
  bool has5 = false;
  for (const ReachableHex& r : reach2) {
    has4 = has4 || r.hex == H("0403");
    has5 = has5 || r.hex == H("0503");
  }
  CHECK_MINI(has4);
  CHECK_MINI(!has5);
}

TEST_CASE_MINI(ReachableReportsTheMarshTest) {
  World w;
  w.Terrain("0605", "marsh");
  const UnitId u = w.Add("u", Side::kBlue, "foot_artillery", "0505");
  const auto reach = ReachableThisTurn(w.ruleset, w.scenario, w.state(), u);
  for (const ReachableHex& r : reach) {
    CHECK_EQ_MINI(r.stuck_chance_in_4, r.hex == H("0605") ? 3 : 0);
  }
}

// ---- The fast search against the reference ------------------------------------------

// A small deterministic generator for the random worlds (tests only).
class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : s_(seed * 6364136223846793005ull + 1442695040888963407ull) {}
  int Below(int n) {
    s_ = s_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int>((s_ >> 33) % static_cast<std::uint64_t>(n));
  }

 private:
  std::uint64_t s_;
};

bool SameReach(const std::vector<ReachableHex>& a, const std::vector<ReachableHex>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!(a[i].hex == b[i].hex) || a[i].cost != b[i].cost || a[i].path != b[i].path ||
        a[i].ends_move != b[i].ends_move || a[i].stuck_chance_in_4 != b[i].stuck_chance_in_4) {
      std::cout << "  differs at " << FormatLabel(a[i].hex) << " / " << FormatLabel(b[i].hex)
                << ": cost " << a[i].cost << " / " << b[i].cost << ", steps " << a[i].path.size()
                << " / " << b[i].path.size() << "\n";
      return false;
    }
  }
  return true;
}

// Whether FindReach gives what ReachableReference gives for this query
// (every entry spelled out; each entry also found by Find).
bool FastMatchesReference(const World& w, const GameState& state, const Board& board,
                          UnitId mover_id, const MoverState& mover, ReachCache& cache) {
  const auto reference = ReachableReference(w.ruleset, w.scenario, state, board, mover_id, mover);
  const ReachSet fast = FindReach(w.scenario, state, board, mover_id, mover, cache);
  std::vector<ReachableHex> spelled;
  bool found = true;
  for (const ReachSet::Entry& e : fast.hexes()) {
    spelled.push_back(
        ReachableHex{e.hex, e.cost, fast.PathTo(e), e.ends_move, e.stuck_chance_in_4});
    found = found && fast.Find(e.hex) == &e;
  }
  return found && SameReach(spelled, reference);
}

TEST_CASE_MINI(FastReachMatchesTheReferenceOnRandomWorlds) {
  const char* terrains[] = {"clear", "clear",   "clear", "rough", "woods", "town",
                            "marsh", "orchard", "fort",  "dune",  "hamlet"};
  const char* types[] = {"line_infantry",  "light_cavalry", "heavy_cavalry", "dromedary",
                         "foot_artillery", "leader",        "guard_infantry"};
  int compared = 0;
  int nonempty = 0;
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    Lcg rng(seed);
    const int width = 8 + rng.Below(10);
    const int height = 8 + rng.Below(10);
    World w(width, height);
    w.ruleset.params.allow_min_move = rng.Below(2) == 0;
    w.ruleset.params.mounted_leave_any_control = rng.Below(2) == 0;
    w.ruleset.params.marsh_test_on_road = rng.Below(2) == 0;
    Map& map = w.scenario.map;
    for (const Hex h : map.AllHexes()) {
      if (rng.Below(3) == 0) {
        map.SetTerrain(h, *w.ruleset.FindTerrain(terrains[rng.Below(11)]));
      }
      if (rng.Below(6) == 0) map.SetLevel(h, rng.Below(4));
      for (const Direction d : {Direction::kNE, Direction::kE, Direction::kSE}) {
        if (!map.Contains(Neighbor(h, d)) || rng.Below(7) != 0) continue;
        const Water water = static_cast<Water>(1 + rng.Below(3));
        const Crossing crossing = static_cast<Crossing>(rng.Below(3));
        map.SetSide(SideOf(h, d), HexsideInfo{water, crossing});
      }
    }
    // Roads and tracks: random walks.
    for (int r = 0; r < 4; ++r) {
      Route route;
      route.track = rng.Below(3) == 0;
      route.name = "route";
      Hex at = FromOffset(Offset{rng.Below(width), rng.Below(height)});
      route.hexes.push_back(at);
      for (int k = 0; k < 12; ++k) {
        const Hex next = Neighbor(at, static_cast<Direction>(rng.Below(6)));
        if (!map.Contains(next) ||
            std::find(route.hexes.begin(), route.hexes.end(), next) != route.hexes.end()) {
          continue;
        }
        route.hexes.push_back(next);
        at = next;
      }
      if (route.hexes.size() >= 2) map.AddRoute(route);
    }
    // Units: the mover and some of both sides.
    std::vector<Hex> used;
    const auto free_hex = [&]() {
      for (;;) {
        const Hex h = FromOffset(Offset{rng.Below(width), rng.Below(height)});
        if (std::find(used.begin(), used.end(), h) == used.end()) {
          used.push_back(h);
          return h;
        }
      }
    };
    const int n_units = 2 + rng.Below(10);
    for (int k = 0; k < n_units; ++k) {
      const Side side = k == 0 || rng.Below(3) == 0 ? Side::kBlue : Side::kOrange;
      const std::string label = FormatLabel(free_hex());
      w.Add("u" + std::to_string(k), side, types[rng.Below(7)], label.c_str());
    }
    for (const Hex h : map.AllHexes()) {
      if (w.ruleset.terrain_type(map.terrain(h)).fort && rng.Below(2) == 0) {
        w.scenario.fort_owners[h] = rng.Below(2) == 0 ? Side::kBlue : Side::kOrange;
      }
    }
    GameState& state = w.state();
    for (std::size_t k = 1; k < state.units.size(); ++k) {
      if (rng.Below(6) == 0) state.units[k].mv = 0;  // demoralised
    }
    if (rng.Below(5) == 0) state.units[0].mv = 0;
    const UnitId mover_id{0};
    const Board board(w.scenario, state);
    ReachCache cache(w.ruleset, w.scenario.map);
    for (int q = 0; q < 3; ++q) {
      MoverState mover;
      mover.at = *state.unit(mover_id).hex;
      mover.points_left = rng.Below(9);
      mover.route.chain = rng.Below(2);
      mover.route.mode = static_cast<RouteMode>(rng.Below(3));
      mover.has_moved = rng.Below(2) == 0;
      const auto reference =
          ReachableReference(w.ruleset, w.scenario, state, board, mover_id, mover);
      const bool same = FastMatchesReference(w, state, board, mover_id, mover, cache);
      if (!same) std::cout << "  seed " << seed << " query " << q << "\n";
      CHECK_MINI(same);
      CHECK_MINI(SameReach(Reachable(w.ruleset, w.scenario, state, board, mover_id, mover, &cache),
                           reference));
      ++compared;
      if (!reference.empty()) ++nonempty;
    }
  }
  CHECK_EQ_MINI(compared, 360);
  CHECK_MINI(nonempty > 200);  // the worlds are not trivially empty
}

// Long road paths: a road along a 140x4 map and allowances of 30 to 60
// points give best paths of more than 64 steps, more than the fast search's
// first bucket stride, so it must widen its queue and search again; the
// result must still be the reference's.
TEST_CASE_MINI(FastReachMatchesTheReferenceOnLongRoads) {
  int longest = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    Lcg rng(seed);
    World w(140, 4);
    Map& map = w.scenario.map;
    Route road;
    road.name = "long";
    for (int col = 0; col < 140; ++col) road.hexes.push_back(FromOffset(Offset{col, 1}));
    map.AddRoute(road);
    for (const Hex h : map.AllHexes()) {
      if (rng.Below(8) == 0) map.SetTerrain(h, *w.ruleset.FindTerrain("rough"));
    }
    w.Add("mover", Side::kBlue, rng.Below(2) == 0 ? "line_infantry" : "light_cavalry", "0102");
    for (int k = 0; k < 3; ++k) {
      const std::string label = FormatLabel(FromOffset(Offset{10 + rng.Below(120), 3}));
      w.Add("e" + std::to_string(k), Side::kOrange, "line_infantry", label.c_str());
    }
    const GameState& state = w.state();
    const UnitId mover_id{0};
    const Board board(w.scenario, state);
    ReachCache cache(w.ruleset, map);
    for (int q = 0; q < 2; ++q) {
      MoverState mover;
      mover.at = *state.unit(mover_id).hex;
      mover.points_left = 30 + rng.Below(31);
      mover.route = TurnStartRoute();
      const auto reference =
          ReachableReference(w.ruleset, w.scenario, state, board, mover_id, mover);
      const bool same = FastMatchesReference(w, state, board, mover_id, mover, cache);
      if (!same) std::cout << "  seed " << seed << " query " << q << "\n";
      CHECK_MINI(same);
      for (const ReachableHex& r : reference) {
        longest = std::max(longest, static_cast<int>(r.path.size()));
      }
    }
  }
  CHECK_MINI(longest > 64);  // the widening was needed
}

}  // namespace
}  // namespace pbem::engine
