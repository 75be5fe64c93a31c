#include "engine/morne_plaine/reach.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <queue>
#include <tuple>
#include <unordered_map>

#include "engine/core/check.h"

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

std::vector<ReachableHex> ReachableReference(const Ruleset& ruleset, const Scenario& scenario,
                                             const GameState& state, const Board& board,
                                             UnitId unit, const MoverState& mover) {
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

// ---- Fast movement reach -----------------------------------------------------

namespace {

// Search keys: cost in the high 32 bits, steps in the low 32, so that one
// unsigned comparison orders two paths by cost, then by steps; a step adds
// (cost << 32) + 1. A node's key is kUndiscovered between searches (each
// search resets the nodes it touched).
constexpr std::uint64_t kUndiscovered = ~std::uint64_t{0};
constexpr int KeyCost(std::uint64_t key) { return static_cast<int>(key >> 32); }
constexpr int KeySteps(std::uint64_t key) { return static_cast<int>(key & 0xFFFFFFFFu); }
constexpr std::uint64_t StepKey(std::uint32_t cost) {
  return (static_cast<std::uint64_t>(cost) << 32) + 1;
}

// One step of the cost table: the state entered ((route tag after the step)
// * hexes + hex) in bits 0-27 of `to`, the StepBasis in bits 28-31, and the
// cost. A step that is not passable (or leaves the map) costs kImpassable,
// so that its key (2^63 and more) is above any budget: the search needs one
// test per step.
constexpr std::uint32_t kStateMask = (1u << 28) - 1;
constexpr std::uint32_t kImpassable = 1u << 31;
struct Edge {
  std::uint32_t to;
  std::uint32_t cost;
};

// The steps out of one state, one cache line. `min_plus` is the cheapest
// passable step's cost + 1, so that 0 (a row never filled: the table is
// allocated zeroed) and the sentinels below all exceed any points left
// once 1 is taken away.
constexpr std::uint32_t kRowNoStep = 0xFFFFFFFE;  // no passable step
constexpr std::uint32_t kRowStart = 0xFFFFFFFF;   // the start hex: ask the full rules
struct alignas(64) Row {
  std::uint32_t min_plus;
  std::uint32_t pad[3];
  Edge edges[6];
};
static_assert(sizeof(Row) == 64);

// A search node per (hex, route tag). State ids are tag-major (tag * hexes
// + hex), so that the common tag 0 of neighbouring hexes sits close
// together in memory. `zoc`: the hex is under enemy control (a path may end
// there but not continue), set for this search.
struct Node {
  std::uint64_t key = kUndiscovered;
  std::int32_t disc = -1;  // discovery index (the path tree's numbering)
  std::uint32_t zoc = 0;
};
static_assert(sizeof(Node) == 16);

// The path tree, by discovery index (dense: the tie-breaks walk it): the
// parent's discovery index (-1: the start) and `info`, bits 0-2 the
// direction of the step from the parent, bits 4-7 its StepBasis.
struct TreeLink {
  std::int32_t parent;
  std::uint32_t info;
};
constexpr std::uint32_t kInfoDir = 7;
constexpr std::uint32_t Info(std::uint32_t dir, std::uint32_t basis) { return dir | (basis << 4); }

// SearchResult::NewPathIsSmaller on the tree: whether the path to `parent`
// then `dir` has a smaller direction sequence than the path to `node` (same
// length).
inline __attribute__((always_inline)) bool NewPathIsSmaller(const TreeLink* tree,
                                                            std::int32_t parent, std::uint32_t dir,
                                                            std::int32_t node) {
  std::int32_t a = parent;
  std::int32_t b = tree[node].parent;
  if (a == b) return dir < (tree[node].info & kInfoDir);
  while (tree[a].parent != tree[b].parent) {
    a = tree[a].parent;
    b = tree[b].parent;
  }
  return (tree[a].info & kInfoDir) < (tree[b].info & kInfoDir);
}

// The bucket queue's entries: a node and the next entry of its bucket.
struct QueueEntry {
  std::int32_t id;
  std::int32_t next;
};

// A step from the start hex, from the full rules.
struct StartStep {
  std::uint64_t key;
  std::uint32_t to;
  std::uint32_t info;
};

// The bucket-queue search over the step rows, resumable: Run goes on until
// the queue is empty or a node needs what only the caller can do (fill its
// row from the rules, or ask the rules for the start hex's steps), and
// returns that node; the caller hands the answer over (`pending`, `extra`)
// and calls Run again. So the loop makes no calls, and its values stay in
// registers. A node is expanded once, when it leaves the queue with its
// final key; every step adds a step to the key, so a node already taken
// from the queue has a smaller key than any new path to it (no settled
// flags).
struct Dial {
  Node* nodes = nullptr;
  const Row* rows = nullptr;
  TreeLink* links = nullptr;        // by discovery index
  std::int32_t* touched = nullptr;  // discovery index -> state id
  std::int32_t n_touched = 0;
  std::int32_t* heads = nullptr;  // [cost * stride + steps]: -1 or the last entry of the bucket
  std::size_t stride = 0;
  QueueEntry* queue = nullptr;  // room for every push: 6 per expanded node, plus the start
  std::int32_t n_queue = 0;
  std::size_t max_steps = 0;  // the most steps of a queued key
  std::uint64_t limit = 0;    // a path fits when its key is below
  std::size_t budget = 0;
  std::int32_t start = -1;  // the start node's state id
  bool overflow = false;    // a key had stride steps or more: not queued, run again wider
  // Where the search is: the bucket being emptied and the next entry.
  std::size_t cost = 0;
  std::size_t steps = 0;
  std::int32_t q = -1;
  // Handed over by the caller: a node whose row was just filled, to expand
  // first; steps from the start hex, to relax first.
  std::int32_t pending = -1;
  StartStep extra[6];
  int n_extra = 0;
  std::int32_t extra_from = -1;

  std::uint64_t Key() const { return (static_cast<std::uint64_t>(cost) << 32) | steps; }

  // -1 when the queue is empty; else a node whose row is not filled or is
  // the start hex's (it is taken off the queue: the caller deals with it).
  std::int32_t Run();
};

std::int32_t Dial::Run() {
  Node* const nodes_l = nodes;
  const Row* const rows_l = rows;
  TreeLink* const links_l = links;
  std::int32_t* const touched_l = touched;
  std::int32_t* const heads_l = heads;
  QueueEntry* const queue_l = queue;
  const std::size_t stride_l = stride;
  const std::uint64_t limit_l = limit;
  const std::size_t budget_l = budget;
  const std::int32_t start_l = start;
  std::int32_t n_touched_l = n_touched;
  std::int32_t n_queue_l = n_queue;
  std::size_t max_steps_l = max_steps;
  bool overflow_l = overflow;
  std::size_t cost_l = cost;
  std::size_t steps_l = steps;
  std::int32_t q_l = q;

  const auto push = [&](std::uint64_t key, std::int32_t id) __attribute__((always_inline)) {
    const auto s = static_cast<std::size_t>(KeySteps(key));
    if (s >= stride_l) [[unlikely]] {
      overflow_l = true;
      return;
    }
    max_steps_l = std::max(max_steps_l, s);
    const std::size_t b = static_cast<std::size_t>(KeyCost(key)) * stride_l + s;
    queue_l[n_queue_l] = QueueEntry{id, heads_l[b]};
    heads_l[b] = n_queue_l++;
  };
  // FindPaths' relaxation (lowest cost, then fewest steps, then the smaller
  // direction sequence) of a step from the node discovered `from`th that
  // the caller found no worse than the best path to `to` so far (new_key <=
  // its key).
  const auto relax = [&](std::int32_t from, std::uint64_t new_key, std::uint32_t to,
                         std::uint32_t info) __attribute__((always_inline)) {
    Node& n = nodes_l[to];
    if (new_key == n.key) {
      if (!NewPathIsSmaller(links_l, from, info & kInfoDir, n.disc)) return;
    } else {
      if (n.key == kUndiscovered) {
        n.disc = n_touched_l;
        touched_l[n_touched_l++] = static_cast<std::int32_t>(to);
      }
      n.key = new_key;
      push(new_key, static_cast<std::int32_t>(to));
    }
    links_l[n.disc] = TreeLink{from, info};
  };
  // The steps of a node's row that fit the points left. Anywhere but the
  // start hex: no ZoC to leave (entering one ends the path), the unit has
  // moved; the table has the step's cost.
  const auto expand = [&](std::int32_t id, std::uint64_t key) __attribute__((always_inline)) {
    const Row& row = rows_l[id];
    const std::int32_t from = nodes_l[id].disc;
    for (std::uint32_t d = 0; d < 6; ++d) {
      const Edge e = row.edges[d];
      const std::uint64_t new_key = key + StepKey(e.cost);  // no wrap: both < 2^63
      const std::uint32_t to = e.to & kStateMask;
      if (new_key >= limit_l || new_key > nodes_l[to].key) continue;
      relax(from, new_key, to, d | ((e.to >> 24) & 0xF0u));
    }
  };

  for (int k = 0; k < n_extra; ++k) {
    const StartStep& s = extra[k];
    if (s.key >= limit_l || s.key > nodes_l[s.to].key) continue;
    relax(extra_from, s.key, s.to, s.info);
  }
  n_extra = 0;
  if (pending >= 0) {
    const std::uint64_t key = (static_cast<std::uint64_t>(cost_l) << 32) | steps_l;
    if (rows_l[pending].min_plus - 1 <= budget_l - cost_l) expand(pending, key);
    pending = -1;
  }

  std::int32_t stop = -1;
  for (;;) {
    if (q_l < 0) {
      // The next bucket that holds entries, from the current one on.
      bool found = false;
      for (; cost_l <= budget_l; ++cost_l, steps_l = 0) {
        for (; steps_l <= max_steps_l; ++steps_l) {
          const std::size_t b = cost_l * stride_l + steps_l;
          if (heads_l[b] < 0) continue;
          q_l = heads_l[b];
          heads_l[b] = -1;
          found = true;
          break;
        }
        if (found) break;
      }
      if (!found) break;
    }
    const QueueEntry entry = queue_l[q_l];
    q_l = entry.next;
    const std::int32_t id = entry.id;
    const std::uint64_t key = (static_cast<std::uint64_t>(cost_l) << 32) | steps_l;
    const Node& n = nodes_l[id];
    // A stale entry; a path's end (the start expands even under control).
    if (n.key != key || (n.zoc && id != start_l)) continue;
    const std::uint32_t min_plus = rows_l[id].min_plus;
    if (min_plus - 1 > budget_l - cost_l) [[unlikely]] {  // no step fits; or a sentinel
      if (min_plus == 0 || min_plus == kRowStart) {
        stop = id;
        break;
      }
      continue;
    }
    expand(id, key);
  }

  n_touched = n_touched_l;
  n_queue = n_queue_l;
  max_steps = max_steps_l;
  overflow = overflow_l;
  cost = cost_l;
  steps = steps_l;
  q = q_l;
  return stop;
}

// Per hex and search.
constexpr std::uint8_t kCellAny = 1;       // under an enemy ZoC
constexpr std::uint8_t kCellMounted = 2;   // under a mounted enemy's ZoC
constexpr std::uint8_t kCellOccupied = 4;  // another unit stands there

// Zeroed memory for the step tables, from calloc so that the rows of a
// large map that no search reaches cost no memory.
struct FreeRows {
  void operator()(void* p) const { std::free(p); }
};

}  // namespace

struct ReachCache::Impl {
  int width = 0;
  int height = 0;
  std::size_t n_hex = 0;
  std::size_t n_states = 0;
  int tags = 3;                        // route states per hex: max(1, road rates) * 3 modes
  std::vector<std::int32_t> neighbor;  // n_hex * 6: hex index or -1
  std::vector<Hex> hex_of;             // n_hex
  std::vector<TerrainId> terrain_of;   // n_hex
  // Label order (column, then row): label_of[hex] = column * height + row,
  // and back.
  std::vector<std::int32_t> label_of;  // n_hex
  std::vector<std::int32_t> hex_of_label;
  std::vector<std::uint8_t> has_road;   // a road passes through
  std::vector<std::uint8_t> has_track;  // a track passes through
  std::vector<std::uint8_t> never_ctl;  // town/woods or fort: never under control
  std::vector<std::uint8_t> no_exert;   // town/woods: units there exert no ZoC
  std::vector<std::uint8_t> zoc_side;   // n_hex * 6: a ZoC crosses the hexside
  std::vector<std::int32_t> forts;      // fort hexes
  std::vector<std::int32_t> state_hex;  // n_states: the hex of a state

  struct ClassTable {
    std::unique_ptr<void, FreeRows> memory;
    Row* rows = nullptr;  // n_states, 64-byte aligned in `memory`
  };
  std::vector<ClassTable> classes;  // [0]: invalid class, then by index + 1

  // Scratch. Between searches every node is undiscovered and every queue
  // head empty; Reset undoes at the start of a search what the last one
  // recorded (touched nodes, blocked and ZoC states, cells, best hexes, the
  // start hex's rows).
  std::vector<Node> nodes;            // n_states
  std::vector<std::int32_t> touched;  // n_states: the states discovered, in order
  std::vector<TreeLink> links;        // n_states: the path tree by discovery index
  std::size_t n_touched = 0;
  std::vector<std::int32_t> blocked;  // states with key 0 (the unit may not enter)
  std::vector<std::int32_t> zoc;      // states with zoc set
  std::vector<std::uint8_t> cell;     // n_hex: kCell* bits of this search
  std::vector<std::int32_t> marked;   // the hexes whose cell is not 0
  std::vector<std::int32_t> best;     // per hex: state id of its best node, or -1
  std::vector<std::int32_t> found;    // n_hex: the hexes whose best is set
  std::size_t n_found = 0;
  // One bit per label: the hexes found, read in label order (all clear
  // between searches: reading clears them).
  std::vector<std::uint64_t> label_bits;
  std::vector<int> stuck_of;  // per terrain type
  // The start hex's rows' min_plus, saved while a search marks them.
  Row* start_rows = nullptr;
  std::size_t start_hex = 0;
  std::vector<std::uint32_t> start_saved;  // per tag
  // The bucket queue: heads[cost * stride + steps], -1 when empty, into
  // `queue` (cleared per search).
  std::vector<std::int32_t> heads;
  std::size_t stride = 0;
  std::unique_ptr<QueueEntry[]> queue;  // 6 * n_states + 1: room for every push of a search
  bool searching = false;               // set while a search runs

  std::size_t Index(Hex h) const {
    const Offset o = ToOffset(h);
    return static_cast<std::size_t>(o.row * width + o.col);
  }

  std::uint32_t Tag(const RouteState& r, std::int32_t hex) const {
    RouteState n = r;
    if (!has_road[static_cast<std::size_t>(hex)]) n.chain = 0;
    if (!has_track[static_cast<std::size_t>(hex)] || n.mode != RouteMode::kTrack) {
      n.mode = RouteMode::kNone;
    }
    return PackRoute(n);
  }

  std::uint32_t State(std::uint32_t tag, std::int32_t hex) const {
    return static_cast<std::uint32_t>(tag * n_hex + static_cast<std::size_t>(hex));
  }

  Row* Table(MovementClassId cls) {
    const std::size_t i = cls.valid() ? cls.index() + 1 : 0;
    if (classes.size() <= i) classes.resize(i + 1);
    ClassTable& t = classes[i];
    if (t.rows == nullptr) {
      void* p = std::calloc(n_states * sizeof(Row) + alignof(Row), 1);
      if (p == nullptr) throw std::bad_alloc();
      t.memory.reset(p);
      const auto at = reinterpret_cast<std::uintptr_t>(p);
      t.rows = reinterpret_cast<Row*>((at + alignof(Row) - 1) & ~std::uintptr_t{alignof(Row) - 1});
    }
    return t.rows;
  }

  // The steps out of hex `h` for every route tag, from ComputeStepCost.
  void Fill(const Ruleset& ruleset, const Map& map, MovementClassId cls, Row* rows, std::size_t h) {
    for (int tag = 0; tag < tags; ++tag) {
      const RouteState route = UnpackRoute(static_cast<std::uint32_t>(tag));
      Row& row = rows[static_cast<std::size_t>(tag) * n_hex + h];
      std::uint32_t cheapest = kImpassable;
      for (std::size_t d = 0; d < 6; ++d) {
        row.edges[d] = Edge{0, kImpassable};
        const std::int32_t n = neighbor[h * 6 + d];
        if (n < 0) continue;
        const StepCost sc = ComputeStepCost(ruleset, map, cls, hex_of[h],
                                            hex_of[static_cast<std::size_t>(n)], route);
        if (!sc.passable) continue;
        PBEM_CHECK(sc.cost >= 0);
        const auto cost = static_cast<std::uint32_t>(sc.cost);  // < 2^31: an int
        const std::uint32_t next = Tag(sc.next, n);
        PBEM_CHECK(next < static_cast<std::uint32_t>(tags));
        PBEM_CHECK(static_cast<std::uint32_t>(sc.basis) < 16);
        row.edges[d] = Edge{State(next, n) | (static_cast<std::uint32_t>(sc.basis) << 28), cost};
        cheapest = std::min(cheapest, cost);
      }
      row.min_plus = cheapest == kImpassable ? kRowNoStep : cheapest + 1;
    }
  }

  // Undoes what the last search left marked (see the scratch comment).
  void Reset() {
    if (searching) {  // the last search stopped midway: start afresh
      for (Node& n : nodes) n = Node{};
      std::fill(heads.begin(), heads.end(), -1);
      searching = false;
    } else {
      for (std::size_t k = 0; k < n_touched; ++k) {
        nodes[static_cast<std::size_t>(touched[k])].key = kUndiscovered;
      }
      for (const std::int32_t id : blocked) nodes[static_cast<std::size_t>(id)].key = kUndiscovered;
      for (const std::int32_t id : zoc) nodes[static_cast<std::size_t>(id)].zoc = 0;
    }
    n_touched = 0;
    blocked.clear();
    zoc.clear();
    for (const std::int32_t h : marked) cell[static_cast<std::size_t>(h)] = 0;
    marked.clear();
    for (std::size_t k = 0; k < n_found; ++k) best[static_cast<std::size_t>(found[k])] = -1;
    n_found = 0;
    if (start_rows != nullptr) {
      for (std::size_t tag = 0; tag < start_saved.size(); ++tag) {
        start_rows[tag * n_hex + start_hex].min_plus = start_saved[tag];
      }
      start_rows = nullptr;
    }
  }

  // Room in `heads` for costs 0..budget and `steps`.
  void Reserve(int budget, std::size_t steps) {
    const std::size_t levels = static_cast<std::size_t>(budget) + 1;
    if (steps < stride && heads.size() >= levels * stride) return;
    std::size_t new_stride = std::max<std::size_t>(stride, 64);
    while (new_stride <= steps) new_stride *= 2;
    const std::size_t old_levels = stride == 0 ? 0 : heads.size() / stride;
    std::vector<std::int32_t> grown(std::max(levels, old_levels) * new_stride, -1);
    for (std::size_t c = 0; c < old_levels; ++c) {
      std::copy_n(heads.begin() + static_cast<std::ptrdiff_t>(c * stride), stride,
                  grown.begin() + static_cast<std::ptrdiff_t>(c * new_stride));
    }
    heads = std::move(grown);
    stride = new_stride;
  }
};

ReachCache::ReachCache(const Ruleset& ruleset, const Map& map)
    : ruleset_(&ruleset), map_(&map), impl_(new Impl) {
  Impl& c = *impl_;
  c.width = map.width();
  c.height = map.height();
  c.n_hex = static_cast<std::size_t>(c.width) * static_cast<std::size_t>(c.height);
  const int n_road = static_cast<int>(ruleset.routes.road_alternating_costs.size());
  c.tags = std::max(1, n_road) * 3;
  c.n_states = c.n_hex * static_cast<std::size_t>(c.tags);
  // State ids are 28 bits in the tables.
  PBEM_CHECK(c.n_states <= kStateMask);
  c.neighbor.assign(c.n_hex * 6, -1);
  c.hex_of.resize(c.n_hex);
  c.terrain_of.resize(c.n_hex);
  c.label_of.resize(c.n_hex);
  c.hex_of_label.resize(c.n_hex);
  c.label_bits.assign((c.n_hex + 63) / 64, 0);
  c.has_road.assign(c.n_hex, 0);
  c.has_track.assign(c.n_hex, 0);
  c.never_ctl.assign(c.n_hex, 0);
  c.no_exert.assign(c.n_hex, 0);
  c.zoc_side.assign(c.n_hex * 6, 0);
  for (int row = 0; row < c.height; ++row) {
    for (int col = 0; col < c.width; ++col) {
      const Hex h = FromOffset(Offset{col, row});
      const std::size_t i = c.Index(h);
      c.hex_of[i] = h;
      c.label_of[i] = col * c.height + row;
      c.hex_of_label[static_cast<std::size_t>(c.label_of[i])] = static_cast<std::int32_t>(i);
      c.terrain_of[i] = map.terrain(h);
      for (const std::int32_t id : map.RoutesThrough(h)) {
        (map.routes()[static_cast<std::size_t>(id)].track ? c.has_track : c.has_road)[i] = 1;
      }
      const TerrainType& t = ruleset.terrain_type(c.terrain_of[i]);
      c.never_ctl[i] = (t.uncontrollable || t.fort) ? 1 : 0;
      c.no_exert[i] = t.uncontrollable ? 1 : 0;
      if (t.fort) c.forts.push_back(static_cast<std::int32_t>(i));
      for (const Direction d : kAllDirections) {
        const Hex n = Neighbor(h, d);
        if (!map.Contains(n)) continue;
        const std::size_t k = i * 6 + static_cast<std::size_t>(d);
        c.neighbor[k] = static_cast<std::int32_t>(c.Index(n));
        c.zoc_side[k] = ZocCrossesSide(map, SideOf(h, d)) ? 1 : 0;
      }
    }
  }
  c.state_hex.resize(c.n_states);
  for (std::size_t s = 0; s < c.n_states; ++s) {
    c.state_hex[s] = static_cast<std::int32_t>(s % c.n_hex);
  }
  c.nodes.resize(c.n_states);
  c.touched.resize(c.n_states);
  c.links.resize(c.n_states);
  c.cell.assign(c.n_hex, 0);
  c.best.assign(c.n_hex, -1);
  c.found.resize(c.n_hex);
  // Not initialised: pages no search reaches are never touched.
  c.queue.reset(new QueueEntry[c.n_states * 6 + 1]);
}

ReachCache::~ReachCache() = default;

const ReachSet::Entry* ReachSet::Find(Hex hex) const {
  const Offset o = ToOffset(hex);
  const auto it = std::lower_bound(hexes_.begin(), hexes_.end(), o, [](const Entry& e, Offset x) {
    const Offset oe = ToOffset(e.hex);
    return std::tie(oe.col, oe.row) < std::tie(x.col, x.row);
  });
  if (it == hexes_.end() || !(it->hex == hex)) return nullptr;
  return &*it;
}

std::vector<Hex> ReachSet::PathTo(const Entry& entry) const {
  std::vector<Hex> out(static_cast<std::size_t>(tree_[static_cast<std::size_t>(entry.node)].steps));
  std::size_t k = out.size();
  for (std::int32_t n = entry.node; n >= 0 && tree_[static_cast<std::size_t>(n)].parent >= 0;
       n = tree_[static_cast<std::size_t>(n)].parent) {
    out[--k] = tree_[static_cast<std::size_t>(n)].hex;
  }
  return out;
}

ReachSet FindReach(const Scenario& scenario, const GameState& state, const Board& board,
                   UnitId unit, const MoverState& mover, ReachCache& cache) {
  PBEM_CHECK(&scenario.map == cache.map_);
  ReachCache::Impl& c = *cache.impl_;
  const Ruleset& ruleset = *cache.ruleset_;
  const Map& map = scenario.map;
  const UnitSpec& spec = scenario.unit(unit);
  const StepRules rules(ruleset, scenario, state, board, unit);
  const MovementClassId cls = CostClass(ruleset, spec);
  Row* const rows = c.Table(cls);
  const auto tags = static_cast<std::size_t>(c.tags);
  const std::size_t n_hex = c.n_hex;
  c.Reset();
  c.searching = true;
  const std::int32_t self = unit.value;

  std::uint8_t* const cells = c.cell.data();
  const auto set_cell = [&](std::size_t h, std::uint8_t bits) {
    if (cells[h] == 0) c.marked.push_back(static_cast<std::int32_t>(h));
    cells[h] |= bits;
  };

  // Who stands where, and the enemy control of every hex (ControlOf,
  // scattered from the controllers).
  const Side controller = Opponent(spec.side);
  const auto mark = [&](std::size_t from, std::uint8_t bits) {
    for (std::size_t d = 0; d < 6; ++d) {
      const std::int32_t n = c.neighbor[from * 6 + d];
      if (n < 0 || !c.zoc_side[from * 6 + d]) continue;
      const auto un = static_cast<std::size_t>(n);
      if (!c.never_ctl[un]) set_cell(un, bits);
    }
  };
  const std::vector<std::int32_t>& occupant = board.occupants();
  for (std::size_t i = 0; i < state.units.size(); ++i) {
    const UnitState& u = state.units[i];
    if (!u.on_map() || static_cast<std::int32_t>(i) == self || !map.Contains(*u.hex)) continue;
    const std::size_t at = c.Index(*u.hex);
    if (occupant[at] != static_cast<std::int32_t>(i)) continue;
    set_cell(at, kCellOccupied);
    const UnitSpec& s = scenario.units[i];
    if (s.side != controller) continue;
    if (s.arm == Arm::kArtillery || IsDemoralised(s, u) || c.no_exert[at]) continue;
    mark(at, static_cast<std::uint8_t>(kCellAny | (IsMounted(ruleset, s) ? kCellMounted : 0)));
  }
  for (const std::int32_t f : c.forts) {
    if (FortController(ruleset, scenario, state, board, c.hex_of[static_cast<std::size_t>(f)]) ==
        controller) {
      mark(static_cast<std::size_t>(f), kCellAny);
    }
  }

  const int budget = std::max(0, mover.points_left);
  // A path fits when its key is below `limit`: cost <= budget.
  const std::uint64_t limit = (static_cast<std::uint64_t>(budget) + 1) << 32;
  c.Reserve(budget, 0);

  const std::size_t start_hex = c.Index(mover.at);
  const std::uint32_t start_tag = PackRoute(mover.route);
  PBEM_CHECK(start_tag < tags);
  const Control start_control = rules.EnemyControl(mover.at);
  const bool demoralised = IsDemoralised(spec, state.unit(unit));
  const auto refused = static_cast<std::uint8_t>(kCellOccupied | (demoralised ? kCellAny : 0));
  // The hexes the unit may not enter (occupied; under enemy control for a
  // demoralised unit) get key 0, below any path, so that the search's one
  // key comparison per step refuses them; the states of hexes under enemy
  // control are marked (a path may end there but not go on).
  Node* const nodes = c.nodes.data();
  for (const std::int32_t h : c.marked) {
    const std::uint8_t bits = cells[static_cast<std::size_t>(h)];
    for (std::size_t tag = 0; tag < tags; ++tag) {
      const std::size_t id = tag * n_hex + static_cast<std::size_t>(h);
      if (bits & refused) {
        nodes[id].key = 0;
        c.blocked.push_back(static_cast<std::int32_t>(id));
      }
      if (bits & kCellAny) {
        nodes[id].zoc = 1;
        c.zoc.push_back(static_cast<std::int32_t>(id));
      }
    }
  }

  // Steps out of the start hex are asked of the full rules: its rows are
  // marked kRowStart for this search (Reset puts them back).
  c.start_saved.resize(tags);
  for (std::size_t tag = 0; tag < tags; ++tag) {
    c.start_saved[tag] = rows[tag * n_hex + start_hex].min_plus;
    rows[tag * n_hex + start_hex].min_plus = kRowStart;
  }
  c.start_rows = rows;
  c.start_hex = start_hex;

  const auto start_id =
      static_cast<std::int32_t>(c.State(start_tag, static_cast<std::int32_t>(start_hex)));
  int start_stuck[6] = {};  // the marsh test of each step from the start node
  // The start hex's steps, from the full rules (leaving a ZoC, the
  // minimum move), as the reference search asks them, for any route state.
  const auto expand_start = [&](std::int32_t id, std::uint64_t key, StartStep* out) {
    const int cost = KeyCost(key);
    MoverState m;
    m.at = mover.at;
    m.points_left = mover.points_left - cost;
    m.route = UnpackRoute(static_cast<std::uint32_t>(static_cast<std::size_t>(id) / n_hex));
    m.has_moved = cost == 0 ? mover.has_moved : true;
    int n_out = 0;
    for (const Direction d : kAllDirections) {
      const std::int32_t to = c.neighbor[start_hex * 6 + static_cast<std::size_t>(d)];
      if (to < 0) continue;
      const std::uint8_t there = cells[static_cast<std::size_t>(to)];
      const StepCheck check = rules.Check(m, c.hex_of[static_cast<std::size_t>(to)], start_control,
                                          (there & kCellAny) != 0, (there & kCellMounted) != 0);
      if (!check.legal) continue;
      PBEM_CHECK(check.cost >= 0);
      // The rules end the move on entering an enemy ZoC exactly where the
      // search's zoc marks do (check.enters_enemy_zoc is the cell's bit).
      PBEM_CHECK(check.enters_enemy_zoc == ((there & kCellAny) != 0));
      if (id == start_id) start_stuck[static_cast<std::size_t>(d)] = check.stuck_chance_in_4;
      out[n_out++] = StartStep{
          key + StepKey(static_cast<std::uint32_t>(check.cost)), c.State(c.Tag(check.next, to), to),
          Info(static_cast<std::uint32_t>(d), static_cast<std::uint32_t>(check.basis))};
    }
    return n_out;
  };

  Dial dial;
  dial.nodes = nodes;
  dial.rows = rows;
  dial.links = c.links.data();
  dial.touched = c.touched.data();
  dial.queue = c.queue.get();
  dial.limit = limit;
  dial.budget = static_cast<std::size_t>(budget);
  dial.start = start_id;
  for (;;) {
    dial.heads = c.heads.data();
    dial.stride = c.stride;
    nodes[start_id].key = 0;
    nodes[start_id].disc = 0;
    dial.touched[0] = start_id;
    dial.links[0] = TreeLink{-1, 0};
    dial.n_touched = 1;
    dial.queue[0] = QueueEntry{start_id, -1};
    dial.n_queue = 1;
    dial.heads[0] = 0;
    dial.max_steps = 0;
    dial.cost = 0;
    dial.steps = 0;
    dial.q = -1;
    for (std::int32_t id = dial.Run(); id >= 0; id = dial.Run()) {
      if (rows[id].min_plus == kRowStart) {
        dial.n_extra = expand_start(id, dial.Key(), dial.extra);
        dial.extra_from = nodes[id].disc;
      } else {
        c.Fill(ruleset, map, cls, rows, static_cast<std::size_t>(c.state_hex[id]));
        dial.pending = id;
      }
    }
    if (!dial.overflow) break;
    // A path of more steps than the queue has room for: widen it and
    // search again (the queue is empty; forget the nodes found).
    c.Reserve(budget, c.stride);
    for (std::int32_t k = 0; k < dial.n_touched; ++k) {
      nodes[dial.touched[k]].key = kUndiscovered;
    }
    dial.overflow = false;
  }
  const std::int32_t n_touched = dial.n_touched;
  TreeLink* const links = dial.links;
  std::int32_t* const touched = dial.touched;
  c.n_touched = static_cast<std::size_t>(n_touched);
  c.searching = false;

  // The best node per hex; the start hex is not listed.
  const auto better_node = [&](std::int32_t a, std::int32_t b) {
    if (nodes[a].key != nodes[b].key) return nodes[a].key < nodes[b].key;
    std::int32_t x = nodes[a].disc;
    std::int32_t y = nodes[b].disc;
    while (links[x].parent != links[y].parent) {
      x = links[x].parent;
      y = links[y].parent;
    }
    return (links[x].info & kInfoDir) < (links[y].info & kInfoDir);
  };
  // Data pointers held in locals: the stores below do not make the
  // compiler reload them.
  ReachSet result;
  const auto n_nodes = static_cast<std::size_t>(n_touched);
  result.tree_.resize(n_nodes);
  ReachSet::TreeNode* const tree = result.tree_.data();
  const Hex* const hex_of = c.hex_of.data();
  const std::int32_t* const state_hex = c.state_hex.data();
  std::int32_t* const best = c.best.data();
  const std::int32_t* const label_of = c.label_of.data();
  std::uint64_t* const label_bits = c.label_bits.data();
  std::size_t n_found = 0;
  std::int32_t label_min = std::numeric_limits<std::int32_t>::max();
  std::int32_t label_max = -1;
  for (std::size_t k = 0; k < n_nodes; ++k) {
    const std::int32_t id = touched[k];
    const auto h = static_cast<std::size_t>(state_hex[id]);
    tree[k] = ReachSet::TreeNode{hex_of[h], links[k].parent, KeySteps(nodes[id].key)};
    if (h == start_hex) continue;
    if (best[h] < 0) {
      best[h] = id;
      ++n_found;
      const std::int32_t label = label_of[h];
      label_bits[label >> 6] |= std::uint64_t{1} << (label & 63);
      label_min = std::min(label_min, label);
      label_max = std::max(label_max, label);
    } else if (better_node(id, best[h])) {
      best[h] = id;
    }
  }
  // Label order (column, then row) without a sort: the hexes found, read
  // off their label bits (which reading clears for the next search).
  std::int32_t* const found_hex = c.found.data();  // n_hex
  const std::int32_t* const hex_of_label = c.hex_of_label.data();
  std::size_t n_listed = 0;
  if (n_found > 0) {
    for (auto w = static_cast<std::size_t>(label_min >> 6);
         w <= static_cast<std::size_t>(label_max >> 6); ++w) {
      for (std::uint64_t bits = label_bits[w]; bits != 0; bits &= bits - 1) {
        const auto label =
            static_cast<std::size_t>(w * 64) + static_cast<std::size_t>(std::countr_zero(bits));
        found_hex[n_listed++] = hex_of_label[label];
      }
      label_bits[w] = 0;
    }
  }
  c.n_found = n_listed;

  const MovementClassId stuck_class = StuckClass(ruleset, spec);
  const bool marsh_on_road = ruleset.params.marsh_test_on_road;
  result.hexes_.resize(n_found);
  ReachSet::Entry* const entries = result.hexes_.data();
  const TerrainId* const terrain_of = c.terrain_of.data();
  // The marsh test of entering each terrain (off a road) for this unit.
  c.stuck_of.assign(ruleset.terrain.size(), 0);
  for (std::size_t t = 0; t < ruleset.terrain.size(); ++t) {
    const TerrainType& entered = ruleset.terrain[t];
    if (stuck_class.valid() && stuck_class.index() < entered.stuck_chance_in_4.size()) {
      c.stuck_of[t] = entered.stuck_chance_in_4[stuck_class.index()];
    }
  }
  const int* const stuck_of = c.stuck_of.data();
  for (std::size_t i = 0; i < n_found; ++i) {
    const auto h = static_cast<std::size_t>(found_hex[i]);
    const std::int32_t id = best[h];
    const Node& n = nodes[id];
    const TreeLink& link = links[n.disc];
    ReachSet::Entry& e = entries[i];
    e.hex = hex_of[h];
    e.cost = KeyCost(n.key);
    e.ends_move = n.zoc != 0;
    e.node = n.disc;
    const std::int32_t parent = touched[link.parent];
    if (parent == start_id) {
      // As the reference: the marsh test of the rules' check of the step
      // (the search made that very check).
      e.stuck_chance_in_4 = start_stuck[link.info & kInfoDir];
    } else if (static_cast<std::size_t>(state_hex[parent]) == start_hex) {
      // As the reference: the last step checked again from its parent.
      const std::uint8_t there = cells[h];
      const auto parent_tag = static_cast<std::uint32_t>(static_cast<std::size_t>(parent) / n_hex);
      MoverState m{mover.at, mover.points_left - KeyCost(nodes[parent].key),
                   UnpackRoute(parent_tag), true};
      const StepCheck last =
          rules.Check(m, e.hex, Control{}, (there & kCellAny) != 0, (there & kCellMounted) != 0);
      e.stuck_chance_in_4 = last.stuck_chance_in_4;
    } else {
      e.stuck_chance_in_4 =
          (link.info >> 4) == static_cast<std::uint32_t>(StepBasis::kRoad) && !marsh_on_road
              ? 0
              : stuck_of[terrain_of[h].index()];
    }
  }
  return result;
}

namespace {

std::vector<ReachableHex> Spelled(const ReachSet& set) {
  std::vector<ReachableHex> out;
  out.reserve(set.hexes().size());
  for (const ReachSet::Entry& e : set.hexes()) {
    out.push_back(ReachableHex{e.hex, e.cost, set.PathTo(e), e.ends_move, e.stuck_chance_in_4});
  }
  return out;
}

}  // namespace

std::vector<ReachableHex> Reachable(const Ruleset& ruleset, const Scenario& scenario,
                                    const GameState& state, const Board& board, UnitId unit,
                                    const MoverState& mover, ReachCache* cache) {
  // A one-off query: building the map's tables costs more than the plain
  // search (same result, see reach_test.cc).
  if (cache == nullptr) return ReachableReference(ruleset, scenario, state, board, unit, mover);
  return Spelled(FindReach(scenario, state, board, unit, mover, *cache));
}

std::vector<ReachableHex> ReachableThisTurn(const Ruleset& ruleset, const Scenario& scenario,
                                            const GameState& state, UnitId unit,
                                            ReachCache* cache) {
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
  return Reachable(ruleset, scenario, checked, board, unit, mover, cache);
}

}  // namespace pbem::engine
