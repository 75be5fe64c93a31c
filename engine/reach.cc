#include "engine/reach.h"

#include <algorithm>
#include <queue>
#include <tuple>
#include <unordered_map>

#include "engine/check.h"

namespace pbem::engine {

namespace {

std::uint64_t Key(const SearchState& s) {
  PBEM_CHECK(s.tag < (1u << 16));
  const auto q = static_cast<std::uint64_t>(static_cast<std::uint32_t>(s.hex.q) & 0xFFFFFFu);
  const auto r = static_cast<std::uint64_t>(static_cast<std::uint32_t>(s.hex.r) & 0xFFFFFFu);
  return (q << 40) | (r << 16) | static_cast<std::uint64_t>(s.tag);
}

// A heap entry: the key it was pushed with, then the node. The node index
// breaks ties deterministically (nodes are numbered in discovery order).
using HeapEntry = std::tuple<int, int, std::int32_t>;

}  // namespace

std::vector<Direction> SearchResult::Directions(std::int32_t i) const {
  std::vector<Direction> out;
  for (std::int32_t n = i; n >= 0 && nodes_[static_cast<std::size_t>(n)].parent >= 0;
       n = nodes_[static_cast<std::size_t>(n)].parent) {
    out.push_back(nodes_[static_cast<std::size_t>(n)].dir);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

std::vector<Hex> SearchResult::Path(std::int32_t i) const {
  std::vector<Hex> out;
  out.reserve(static_cast<std::size_t>(nodes_[static_cast<std::size_t>(i)].steps));
  for (std::int32_t n = i; n >= 0 && nodes_[static_cast<std::size_t>(n)].parent >= 0;
       n = nodes_[static_cast<std::size_t>(n)].parent) {
    out.push_back(nodes_[static_cast<std::size_t>(n)].state.hex);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

int SearchResult::Compare(std::int32_t a, std::int32_t b) const {
  const SearchNode& na = nodes_[static_cast<std::size_t>(a)];
  const SearchNode& nb = nodes_[static_cast<std::size_t>(b)];
  if (na.cost != nb.cost) return na.cost < nb.cost ? -1 : 1;
  if (na.steps != nb.steps) return na.steps < nb.steps ? -1 : 1;
  const auto da = Directions(a);
  const auto db = Directions(b);
  if (da == db) return 0;
  return da < db ? -1 : 1;
}

bool SearchResult::NewPathIsSmaller(std::int32_t parent, Direction dir, std::int32_t node) const {
  // Both paths have the same length: climb both chains in step until they
  // share a parent; the first difference from the start is just below it.
  const auto at = [this](std::int32_t i) -> const SearchNode& {
    return nodes_[static_cast<std::size_t>(i)];
  };
  std::int32_t a = parent;
  std::int32_t b = at(node).parent;
  if (a == b) return dir < at(node).dir;
  while (at(a).parent != at(b).parent) {
    a = at(a).parent;
    b = at(b).parent;
  }
  // Two children of one parent: distinct nodes, so reached in distinct
  // directions.
  return at(a).dir < at(b).dir;
}

SearchResult FindPaths(const SearchState& start, const SearchSpace& space) {
  SearchResult result;
  auto& nodes = result.nodes_;
  std::unordered_map<std::uint64_t, std::int32_t> index;  // lookups only, never iterated
  index.reserve(1024);
  nodes.reserve(1024);
  std::vector<bool> settled;
  std::priority_queue<HeapEntry, std::vector<HeapEntry>, std::greater<HeapEntry>> heap;

  nodes.push_back(SearchNode{start, 0, 0, -1, Direction::kNE, true});
  settled.push_back(false);
  index.emplace(Key(start), 0);
  heap.emplace(0, 0, 0);

  std::vector<SearchStep> steps;
  while (!heap.empty()) {
    const auto [cost, nsteps, i] = heap.top();
    heap.pop();
    const auto ui = static_cast<std::size_t>(i);
    if (settled[ui] || nodes[ui].cost != cost || nodes[ui].steps != nsteps) continue;
    settled[ui] = true;
    if (!nodes[ui].expand) continue;
    steps.clear();
    space.Expand(nodes[ui].state, cost, steps);
    for (const SearchStep& step : steps) {
      PBEM_CHECK(step.cost >= 0);
      const int new_cost = cost + step.cost;
      const int new_steps = nsteps + 1;
      const auto [it, fresh] = index.emplace(Key(step.to), static_cast<std::int32_t>(nodes.size()));
      if (fresh) {
        nodes.push_back(SearchNode{step.to, new_cost, new_steps, i, step.dir, step.expand});
        settled.push_back(false);
        heap.emplace(new_cost, new_steps, it->second);
        continue;
      }
      const auto uj = static_cast<std::size_t>(it->second);
      if (settled[uj]) continue;  // its best path is final (parents settle first)
      SearchNode& n = nodes[uj];
      const bool better_key = new_cost < n.cost || (new_cost == n.cost && new_steps < n.steps);
      bool better = better_key;
      if (!better_key && new_cost == n.cost && new_steps == n.steps) {
        // Same cost and length: the smaller direction sequence wins. Both
        // parents are settled, so their paths are final.
        better = result.NewPathIsSmaller(i, step.dir, it->second);
      }
      if (!better) continue;
      n.cost = new_cost;
      n.steps = new_steps;
      n.parent = i;
      n.dir = step.dir;
      n.expand = step.expand;
      if (better_key) heap.emplace(new_cost, new_steps, it->second);
    }
  }
  return result;
}

// ---- Movement reach ----------------------------------------------------------

namespace {

// Route states packed into a search tag: chain * 3 + mode.
std::uint32_t PackRoute(const RouteState& r) {
  return static_cast<std::uint32_t>(r.chain) * 3u + static_cast<std::uint32_t>(r.mode);
}

// The route state with what cannot matter at `hex` dropped, so that the
// search does not explore equivalent states: ComputeStepCost reads the mode
// only to tell a track follower (kTrack) from anyone else where a road and a
// track share a hexside, and reads the chain only for a step along a road;
// both need a route through the hex.
RouteState Normalise(const Map& map, Hex hex, RouteState r) {
  bool road = false;
  bool track = false;
  for (const std::int32_t id : map.RoutesThrough(hex)) {
    (map.routes()[static_cast<std::size_t>(id)].track ? track : road) = true;
  }
  if (!road) r.chain = 0;
  if (!track || r.mode != RouteMode::kTrack) r.mode = RouteMode::kNone;
  return r;
}

RouteState UnpackRoute(std::uint32_t tag) {
  RouteState r;
  r.chain = static_cast<int>(tag / 3u);
  r.mode = static_cast<RouteMode>(tag % 3u);
  return r;
}

class MovementSpace final : public SearchSpace {
 public:
  MovementSpace(const StepRules& rules, const Map& map, const MoverState& mover)
      : rules_(rules), map_(map), mover_(mover), start_control_(rules.EnemyControl(mover.at)) {}

  void Expand(const SearchState& from, int spent, std::vector<SearchStep>& out) const override {
    MoverState m;
    m.at = from.hex;
    m.points_left = mover_.points_left - spent;
    m.route = UnpackRoute(from.tag);
    const bool at_start = from.hex == mover_.at && spent == 0;
    m.has_moved = at_start ? mover_.has_moved : true;
    // Only the start can be under enemy control: entering a controlled hex
    // ends the path there (expand = false), digest 4.6.
    const Control& from_control = from.hex == mover_.at ? start_control_ : no_control_;
    for (const Direction dir : kAllDirections) {
      const Hex to = Neighbor(from.hex, dir);
      const StepCheck check = rules_.Check(m, to, from_control, /*explain=*/false);
      if (!check.legal) continue;
      out.push_back(SearchStep{dir, SearchState{to, PackRoute(Normalise(map_, to, check.next))},
                               check.cost, !check.enters_enemy_zoc});
    }
  }

 private:
  const StepRules& rules_;
  const Map& map_;
  MoverState mover_;
  Control start_control_;
  Control no_control_;
};

}  // namespace

std::vector<ReachableHex> Reachable(const Ruleset& ruleset, const Scenario& scenario,
                                    const GameState& state, const Board& board, UnitId unit,
                                    const MoverState& mover) {
  StepRules rules(ruleset, scenario, state, board, unit);
  rules.EnableControlCache();
  const MovementSpace space(rules, scenario.map, mover);
  const SearchResult found = FindPaths(SearchState{mover.at, PackRoute(mover.route)}, space);

  // The best node per hex (several route states may reach one hex).
  std::vector<std::int32_t> best;
  const auto& nodes = found.nodes();
  {
    std::vector<std::pair<Hex, std::int32_t>> by_hex;
    by_hex.reserve(nodes.size());
    for (std::size_t i = 1; i < nodes.size(); ++i) {
      if (nodes[i].state.hex == mover.at) continue;
      by_hex.emplace_back(nodes[i].state.hex, static_cast<std::int32_t>(i));
    }
    const auto label_less = [](Hex a, Hex b) {
      const Offset oa = ToOffset(a);
      const Offset ob = ToOffset(b);
      return std::tie(oa.col, oa.row) < std::tie(ob.col, ob.row);
    };
    std::stable_sort(by_hex.begin(), by_hex.end(),
                     [&](const auto& a, const auto& b) { return label_less(a.first, b.first); });
    for (std::size_t i = 0; i < by_hex.size(); ++i) {
      if (i > 0 && by_hex[i].first == by_hex[i - 1].first) {
        if (found.Compare(by_hex[i].second, best.back()) < 0) best.back() = by_hex[i].second;
        continue;
      }
      best.push_back(by_hex[i].second);
    }
  }

  std::vector<ReachableHex> out;
  out.reserve(best.size());
  const Control start_control = rules.EnemyControl(mover.at);
  for (const std::int32_t i : best) {
    const SearchNode& n = nodes[static_cast<std::size_t>(i)];
    ReachableHex r;
    r.hex = n.state.hex;
    r.cost = n.cost;
    r.path = found.Path(i);
    r.ends_move = !n.expand;
    // Re-check the last step for its marsh test.
    const std::int32_t p = n.parent;
    const SearchNode& pn = nodes[static_cast<std::size_t>(p)];
    MoverState m{pn.state.hex, mover.points_left - pn.cost, UnpackRoute(pn.state.tag),
                 p == 0 ? mover.has_moved : true};
    const StepCheck last = rules.Check(m, n.state.hex, p == 0 ? start_control : Control{});
    r.stuck_chance_in_4 = last.stuck_chance_in_4;
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<ReachableHex> ReachableThisTurn(const Ruleset& ruleset, const Scenario& scenario,
                                            const GameState& state, UnitId unit) {
  if (!unit.valid() || unit.index() >= state.units.size()) return {};
  // A state between turns: last turn's stuck flag no longer applies.
  if (!state.unit(unit).on_map()) return {};
  GameState checked = state;
  checked.unit(unit).in_command = CheckCommand(ruleset, scenario, state, unit).in_command;
  const Allowance allowance = MovementAllowance(ruleset, scenario, checked, unit);
  if (!allowance.can_move) return {};
  const Board board(scenario, checked);
  MoverState mover;
  mover.at = *checked.unit(unit).hex;
  mover.points_left = allowance.points;
  mover.route = TurnStartRoute();
  return Reachable(ruleset, scenario, checked, board, unit, mover);
}

}  // namespace pbem::engine
