#include "engine/reach.h"

#include <algorithm>
#include <memory>
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

// One step of the cost table: bits 32-63 the hex entered, bit 31 passable,
// bits 24-27 the StepBasis, bits 16-23 the route tag after the step
// (normalised at the hex entered), bits 0-15 the cost. A step that is not
// passable (or leaves the map) costs kNoStep, more than any budget, so the
// search needs one test: cost <= points left.
constexpr std::uint64_t kPassable = 1u << 31;
constexpr std::uint64_t kNoStep = 0xFFFF;

// Per hex and search.
constexpr std::uint8_t kCellAny = 1;       // under an enemy ZoC
constexpr std::uint8_t kCellMounted = 2;   // under a mounted enemy's ZoC
constexpr std::uint8_t kCellOccupied = 4;  // another unit stands there

// A search node: (hex, route tag). Valid when stamp == the search's
// generation.
// State ids are tag-major (tag * hexes + hex), so that the common tag 0 of
// neighbouring hexes sits close together in memory.
struct Node {
  std::uint32_t stamp = 0;
  std::int32_t disc = 0;     // discovery index (the path tree's numbering)
  std::int32_t parent = -1;  // state id of the parent; -1: the start
  std::int32_t pdisc = -1;   // the parent's discovery index; -1: the start
  std::int32_t hex = 0;      // the hex index and route tag of the state,
  std::int32_t cost = 0;     // kept to avoid dividing the id
  std::int32_t steps = 0;
  std::uint8_t tag = 0;
  std::uint8_t dir = 0;
  std::uint8_t expand = 1;
  std::uint8_t settled = 0;
  std::uint8_t basis = 0;  // StepBasis of the step from the parent
};

}  // namespace

struct ReachCache::Impl {
  int width = 0;
  int height = 0;
  std::size_t n_hex = 0;
  int tags = 3;                        // route states per hex: max(1, road rates) * 3 modes
  std::vector<std::int32_t> neighbor;  // n_hex * 6: hex index or -1
  std::vector<Hex> hex_of;             // n_hex
  std::vector<TerrainId> terrain_of;   // n_hex
  std::vector<std::int32_t> col_of;    // n_hex: offset column and row
  std::vector<std::int32_t> row_of;
  std::vector<std::uint8_t> has_road;   // a road passes through
  std::vector<std::uint8_t> has_track;  // a track passes through
  std::vector<std::uint8_t> never_ctl;  // town/woods or fort: never under control
  std::vector<std::uint8_t> no_exert;   // town/woods: units there exert no ZoC
  std::vector<std::uint8_t> zoc_side;   // n_hex * 6: a ZoC crosses the hexside
  std::vector<std::int32_t> forts;      // fort hexes

  struct ClassTable {
    bool built = false;
    std::vector<std::uint8_t> filled;        // per hex: its steps are in `steps`
    std::unique_ptr<std::uint64_t[]> steps;  // (tag * hexes + hex) * 6 + dir
    // Per (tag * hexes + hex): the cheapest passable step, 0xFFFF if none.
    std::unique_ptr<std::uint16_t[]> cheapest;
  };
  std::vector<ClassTable> classes;  // [0]: invalid class, then by index + 1

  // Scratch, stamped with `gen`.
  std::uint32_t gen = 0;
  std::vector<Node> nodes;           // n_hex * tags
  std::vector<std::uint8_t> cell;    // n_hex: kCell* bits of this search
  std::vector<std::int32_t> marked;  // the hexes whose cell is not 0
  std::vector<std::uint32_t> best_stamp;
  std::vector<std::int32_t> best;  // per hex: state id of its best node
  std::vector<std::int32_t> touched;
  std::vector<std::int32_t> found;   // hexes reached
  std::vector<std::int32_t> sorted;  // the same, sorting
  std::vector<std::int32_t> counts;
  std::vector<int> stuck_of;  // per terrain type
  // Open nodes by cost, then by steps (a two-level Dial bucket queue); all
  // empty between searches.
  std::vector<std::vector<std::vector<std::int32_t>>> open;

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

  ClassTable& Table(MovementClassId cls) {
    const std::size_t i = cls.valid() ? cls.index() + 1 : 0;
    if (classes.size() <= i) classes.resize(i + 1);
    ClassTable& t = classes[i];
    if (!t.built) {
      t.filled.assign(n_hex, 0);
      t.steps.reset(new std::uint64_t[n_hex * static_cast<std::size_t>(tags) * 6]);
      t.cheapest.reset(new std::uint16_t[n_hex * static_cast<std::size_t>(tags)]);
      t.built = true;
    }
    return t;
  }

  // The steps out of hex `h` for every route tag, from ComputeStepCost.
  void Fill(const Ruleset& ruleset, const Map& map, MovementClassId cls, ClassTable& t,
            std::size_t h) {
    for (int tag = 0; tag < tags; ++tag) {
      const RouteState route = UnpackRoute(static_cast<std::uint32_t>(tag));
      std::uint64_t* row = &t.steps[(static_cast<std::size_t>(tag) * n_hex + h) * 6];
      std::uint16_t& cheapest = t.cheapest[static_cast<std::size_t>(tag) * n_hex + h];
      cheapest = 0xFFFF;
      for (std::size_t d = 0; d < 6; ++d) {
        row[d] = kNoStep;
        const std::int32_t n = neighbor[h * 6 + d];
        if (n < 0) continue;
        const StepCost sc = ComputeStepCost(ruleset, map, cls, hex_of[h],
                                            hex_of[static_cast<std::size_t>(n)], route);
        if (!sc.passable) continue;
        PBEM_CHECK(sc.cost >= 0 && sc.cost < static_cast<int>(kNoStep));
        const std::uint32_t next = Tag(sc.next, n);
        PBEM_CHECK(next < 256);
        row[d] = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(n)) << 32) | kPassable |
                 (static_cast<std::uint64_t>(sc.basis) << 24) |
                 (static_cast<std::uint64_t>(next) << 16) | static_cast<std::uint64_t>(sc.cost);
        cheapest = std::min(cheapest, static_cast<std::uint16_t>(sc.cost));
      }
    }
    t.filled[h] = 1;
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
  c.neighbor.assign(c.n_hex * 6, -1);
  c.hex_of.resize(c.n_hex);
  c.terrain_of.resize(c.n_hex);
  c.col_of.resize(c.n_hex);
  c.row_of.resize(c.n_hex);
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
      c.col_of[i] = col;
      c.row_of[i] = row;
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
  c.nodes.resize(c.n_hex * static_cast<std::size_t>(c.tags));
  c.cell.assign(c.n_hex, 0);
  c.best_stamp.assign(c.n_hex, 0);
  c.best.assign(c.n_hex, -1);
  c.touched.reserve(1024);
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
  ReachCache::Impl::ClassTable& table = c.Table(cls);
  const auto tags = static_cast<std::size_t>(c.tags);

  if (++c.gen == 0) {  // the stamps wrapped: start afresh
    for (Node& n : c.nodes) n.stamp = 0;
    std::fill(c.best_stamp.begin(), c.best_stamp.end(), 0);
    c.gen = 1;
  }
  const std::uint32_t gen = c.gen;
  const std::int32_t self = unit.value;
  // The previous search's marks are cleared, not stamped: one load per step.
  for (const std::int32_t h : c.marked) c.cell[static_cast<std::size_t>(h)] = 0;
  c.marked.clear();
  std::uint8_t* const cells = c.cell.data();
  const auto set_cell = [&](std::size_t h, std::uint8_t bits) {
    if (cells[h] == 0) c.marked.push_back(static_cast<std::int32_t>(h));
    cells[h] |= bits;
  };
  const auto cell = [&](std::size_t h) -> std::uint8_t { return cells[h]; };

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
  if (c.open.size() < static_cast<std::size_t>(budget) + 1) {
    c.open.resize(static_cast<std::size_t>(budget) + 1);
  }
  c.touched.clear();

  const std::size_t start_hex = c.Index(mover.at);
  const std::uint32_t start_tag = PackRoute(mover.route);
  PBEM_CHECK(start_tag < tags);
  const Control start_control = rules.EnemyControl(mover.at);
  const bool demoralised = IsDemoralised(spec, state.unit(unit));
  const auto refused = static_cast<std::uint8_t>(kCellOccupied | (demoralised ? kCellAny : 0));

  Node* const nodes = c.nodes.data();
  const auto discover = [&](std::int32_t id, std::size_t hex, std::size_t tag, int cost, int steps,
                            std::int32_t parent, std::uint8_t dir, bool expand,
                            std::uint8_t basis) {
    Node& n = nodes[id];
    n.stamp = gen;
    n.hex = static_cast<std::int32_t>(hex);
    n.tag = static_cast<std::uint8_t>(tag);
    n.disc = static_cast<std::int32_t>(c.touched.size());
    n.parent = parent;
    n.pdisc = parent < 0 ? -1 : nodes[parent].disc;
    n.cost = cost;
    n.steps = steps;
    n.dir = dir;
    n.expand = expand ? 1 : 0;
    n.settled = 0;
    n.basis = basis;
    c.touched.push_back(id);
  };
  const auto push = [&](int cost, int steps, std::int32_t id) {
    auto& by_steps = c.open[static_cast<std::size_t>(cost)];
    if (by_steps.size() <= static_cast<std::size_t>(steps)) {
      by_steps.resize(static_cast<std::size_t>(steps) + 1);
    }
    by_steps[static_cast<std::size_t>(steps)].push_back(id);
  };
  // SearchResult::NewPathIsSmaller on the node arrays.
  const auto new_path_smaller = [&](std::int32_t parent, std::uint8_t dir, std::int32_t id) {
    std::int32_t a = parent;
    std::int32_t b = nodes[id].parent;
    if (a == b) return dir < nodes[id].dir;
    while (nodes[a].parent != nodes[b].parent) {
      a = nodes[a].parent;
      b = nodes[b].parent;
    }
    return nodes[a].dir < nodes[b].dir;
  };
  // FindPaths' relaxation: lowest cost, then fewest steps, then the smaller
  // direction sequence.
  const auto relax = [&](std::int32_t from, int cost, int steps, std::uint8_t dir,
                         std::size_t to_hex, std::size_t to_tag, int step_cost, bool expand,
                         std::uint8_t basis) {
    const int new_cost = cost + step_cost;
    const int new_steps = steps + 1;
    const auto to = static_cast<std::int32_t>(to_tag * c.n_hex + to_hex);
    Node& n = nodes[to];
    if (n.stamp != gen) {
      discover(to, to_hex, to_tag, new_cost, new_steps, from, dir, expand, basis);
    } else {
      if (n.settled) return;
      const bool better_key = new_cost < n.cost || (new_cost == n.cost && new_steps < n.steps);
      if (!better_key) {
        if (new_cost != n.cost || new_steps != n.steps || !new_path_smaller(from, dir, to)) return;
      }
      n.cost = new_cost;
      n.steps = new_steps;
      n.parent = from;
      n.pdisc = nodes[from].disc;
      n.dir = dir;
      n.expand = expand ? 1 : 0;
      n.basis = basis;
      if (!better_key) return;
    }
    push(new_cost, new_steps, to);
  };

  const auto start_id = static_cast<std::int32_t>(start_tag * c.n_hex + start_hex);
  discover(start_id, start_hex, start_tag, 0, 0, -1, 0, true, 0);
  push(0, 0, start_id);

  // Held in locals: the stores of the search do not make the compiler
  // reload them.
  const std::uint8_t* const filled = table.filled.data();
  const std::uint16_t* const cheapest = table.cheapest.get();
  const std::uint64_t* const step_table = table.steps.get();
  for (int cost = 0; cost <= budget; ++cost) {
    auto& by_steps = c.open[static_cast<std::size_t>(cost)];
    const int left = mover.points_left - cost;
    // The most a step may cost now, kNoStep excluded.
    const int affordable = std::min(left, static_cast<int>(kNoStep) - 1);
    // Zero-cost steps append to by_steps[steps + 1]: index, do not hold
    // references across relax().
    for (std::size_t steps_u = 0; steps_u < by_steps.size(); ++steps_u) {
      const int steps = static_cast<int>(steps_u);
      for (std::size_t k = 0; k < by_steps[steps_u].size(); ++k) {
        const std::int32_t id = by_steps[steps_u][k];
        Node& n = nodes[id];
        if (n.settled || n.cost != cost || n.steps != steps) continue;
        n.settled = 1;
        if (!n.expand) continue;
        const auto h = static_cast<std::size_t>(n.hex);
        if (h == start_hex) {
          // The start hex: the full rules (leaving a ZoC, the minimum
          // move), as the reference search asks them.
          MoverState m;
          m.at = mover.at;
          m.points_left = left;
          m.route = UnpackRoute(n.tag);
          m.has_moved = cost == 0 ? mover.has_moved : true;
          for (const Direction d : kAllDirections) {
            const std::int32_t to = c.neighbor[h * 6 + static_cast<std::size_t>(d)];
            if (to < 0) continue;
            const std::uint8_t there = cell(static_cast<std::size_t>(to));
            const StepCheck check =
                rules.Check(m, c.hex_of[static_cast<std::size_t>(to)], start_control,
                            (there & kCellAny) != 0, (there & kCellMounted) != 0);
            if (!check.legal) continue;
            relax(id, cost, steps, static_cast<std::uint8_t>(d), static_cast<std::size_t>(to),
                  c.Tag(check.next, to), check.cost, !check.enters_enemy_zoc,
                  static_cast<std::uint8_t>(check.basis));
          }
          continue;
        }
        // Anywhere else: no ZoC to leave (entering one ends the path), the
        // unit has moved; the table has the step's cost.
        if (!filled[h]) c.Fill(ruleset, map, cls, table, h);
        if (cheapest[static_cast<std::size_t>(id)] > left) continue;  // no points left
        const std::uint64_t* out = &step_table[static_cast<std::size_t>(id) * 6];
        for (std::size_t d = 0; d < 6; ++d) {
          const std::uint64_t e = out[d];
          const int step_cost = static_cast<int>(e & 0xFFFFu);
          if (step_cost > affordable) continue;
          const auto to = static_cast<std::size_t>(e >> 32);
          const std::uint8_t there = cell(to);
          if (there & refused) continue;
          relax(id, cost, steps, static_cast<std::uint8_t>(d), to, (e >> 16) & 0xFFu, step_cost,
                (there & kCellAny) == 0, static_cast<std::uint8_t>((e >> 24) & 0xFu));
        }
      }
    }
    for (auto& list : by_steps) list.clear();
  }

  // The best node per hex; the start hex is not listed.
  const auto better_node = [&](std::int32_t a, std::int32_t b) {
    if (nodes[a].cost != nodes[b].cost) return nodes[a].cost < nodes[b].cost;
    if (nodes[a].steps != nodes[b].steps) return nodes[a].steps < nodes[b].steps;
    while (nodes[a].parent != nodes[b].parent) {
      a = nodes[a].parent;
      b = nodes[b].parent;
    }
    return nodes[a].dir < nodes[b].dir;
  };
  // Data pointers held in locals: the stores below do not make the
  // compiler reload them.
  ReachSet result;
  const std::size_t n_touched = c.touched.size();
  result.tree_.resize(n_touched);
  ReachSet::TreeNode* const tree = result.tree_.data();
  const std::int32_t* const touched = c.touched.data();
  const Hex* const hex_of = c.hex_of.data();
  std::uint32_t* const best_stamp = c.best_stamp.data();
  std::int32_t* const best = c.best.data();
  const std::int32_t* const row_of = c.row_of.data();
  const std::int32_t* const col_of = c.col_of.data();
  c.found.resize(n_touched);
  std::int32_t* const found_hex = c.found.data();
  std::size_t n_found = 0;
  // The hexes per row and per column, counted on the way for the sort.
  const auto height = static_cast<std::size_t>(c.height);
  const auto width = static_cast<std::size_t>(c.width);
  c.counts.assign(height + width + 2, 0);
  std::int32_t* const row_start = c.counts.data();         // [row + 1]: count
  std::int32_t* const col_start = row_start + height + 1;  // [col + 1]: count
  for (std::size_t k = 0; k < n_touched; ++k) {
    const std::int32_t id = touched[k];
    const Node& n = nodes[id];
    const auto h = static_cast<std::size_t>(n.hex);
    tree[k] = ReachSet::TreeNode{hex_of[h], n.pdisc, n.steps};
    if (h == start_hex) continue;
    if (best_stamp[h] != gen) {
      best_stamp[h] = gen;
      best[h] = id;
      found_hex[n_found++] = static_cast<std::int32_t>(h);
      ++row_start[row_of[h] + 1];
      ++col_start[col_of[h] + 1];
    } else if (better_node(id, best[h])) {
      best[h] = id;
    }
  }
  c.found.resize(n_found);  // shrinks: found_hex stays valid
  // Label order (column, then row): a counting sort by row, then a stable
  // one by column.
  for (std::size_t i = 1; i <= height; ++i) row_start[i] += row_start[i - 1];
  for (std::size_t i = 1; i <= width; ++i) col_start[i] += col_start[i - 1];
  c.sorted.resize(n_found);
  std::int32_t* const sorted = c.sorted.data();
  for (std::size_t i = 0; i < n_found; ++i) {
    const std::int32_t h = found_hex[i];
    sorted[row_start[row_of[h]]++] = h;
  }
  for (std::size_t i = 0; i < n_found; ++i) {
    const std::int32_t h = sorted[i];
    found_hex[col_start[col_of[h]]++] = h;
  }

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
    ReachSet::Entry& e = entries[i];
    e.hex = hex_of[h];
    e.cost = n.cost;
    e.ends_move = !n.expand;
    e.node = n.disc;
    const auto ph = static_cast<std::size_t>(nodes[n.parent].hex);
    if (ph == start_hex) {
      // As the reference: the last step checked again from its parent.
      const std::uint8_t there = cell(h);
      MoverState m{mover.at, mover.points_left - nodes[n.parent].cost,
                   UnpackRoute(nodes[n.parent].tag), n.parent == start_id ? mover.has_moved : true};
      const StepCheck last = rules.Check(m, e.hex, n.parent == start_id ? start_control : Control{},
                                         (there & kCellAny) != 0, (there & kCellMounted) != 0);
      e.stuck_chance_in_4 = last.stuck_chance_in_4;
    } else {
      e.stuck_chance_in_4 = n.basis == static_cast<std::uint8_t>(StepBasis::kRoad) && !marsh_on_road
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
