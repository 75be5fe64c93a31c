// Path search. The search itself knows nothing of the rules: it explores a
// SearchSpace, which offers the steps allowed from a state and their costs.
// On top of it, Reachable() lists every hex a unit can reach this turn with
// its cost and path, for destination orders and for the planning command.
#ifndef PBEM_ENGINE_MORNE_PLAINE_REACH_H_
#define PBEM_ENGINE_MORNE_PLAINE_REACH_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/hex/hex.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/movement.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"

namespace pbem::engine {

// ---- Generic search ----------------------------------------------------------

// A node of the search: a hex plus the caller's extra state (e.g. a road
// chain) packed in `tag`. REQUIRES: tag < 2^16 and |q|, |r| < 2^23.
struct SearchState {
  Hex hex;
  std::uint32_t tag = 0;

  friend bool operator==(const SearchState&, const SearchState&) = default;
};

// One step a SearchSpace offers.
struct SearchStep {
  Direction dir = Direction::kNE;
  SearchState to;
  int cost = 0;        // REQUIRES: >= 0
  bool expand = true;  // false: a path may end at `to` but not continue
};

// The graph to explore. Expand appends to `out` the steps allowed from
// `from`, reached for `spent` points (the space knows its own budget and
// offers only steps that fit it).
class SearchSpace {
 public:
  virtual ~SearchSpace() = default;
  virtual void Expand(const SearchState& from, int spent, std::vector<SearchStep>& out) const = 0;
};

struct SearchNode {
  SearchState state;
  int cost = 0;
  int steps = 0;
  std::int32_t parent = -1;        // index into SearchResult::nodes(); -1: start
  Direction dir = Direction::kNE;  // of the step from the parent
  bool expand = true;
};

// Every state reachable from the start with its best path. "Best" is the
// deterministic order: lowest cost, then fewest steps, then the path whose
// sequence of step directions is lexicographically smallest, directions
// ranked NE < E < SE < SW < W < NW (the rule order of hex.h).
class SearchResult {
 public:
  // All states found; nodes()[0] is the start. The order is deterministic.
  const std::vector<SearchNode>& nodes() const { return nodes_; }
  // The hexes entered along the best path to node `i` (start excluded).
  std::vector<Hex> Path(std::int32_t i) const;
  std::vector<Direction> Directions(std::int32_t i) const;
  // < 0 when node a's path is better than node b's, 0 when equal, > 0 else.
  int Compare(std::int32_t a, std::int32_t b) const;

 private:
  // Whether the path to `parent` then `dir` has a smaller direction sequence
  // than the path to `node`. REQUIRES: both have the same number of steps.
  bool NewPathIsSmaller(std::int32_t parent, Direction dir, std::int32_t node) const;

  friend SearchResult FindPaths(const SearchState& start, const SearchSpace& space);
  std::vector<SearchNode> nodes_;
};

// Dijkstra over the space from `start`. Costs may be 0 (road rate); every
// step adds 1 to the step count, so the order above is strict and the search
// always ends.
SearchResult FindPaths(const SearchState& start, const SearchSpace& space);

// ---- Movement reach ----------------------------------------------------------

struct ReachableHex {
  Hex hex;
  int cost = 0;            // movement points spent to get there
  std::vector<Hex> path;   // hexes entered in order, start excluded
  bool ends_move = false;  // an enemy ZoC: the move would stop there
  // The marsh stuck test that entering the hex would bring (digest 4.3).
  // The search plans as if the unit never gets stuck.
  int stuck_chance_in_4 = 0;
};

class ReachSet;
class ReachCache;
ReachSet FindReach(const Scenario& scenario, const GameState& state, const Board& board,
                   UnitId unit, const MoverState& mover, ReachCache& cache);

// Per-map data for fast movement searches, built once per (ruleset, map) and
// reused by every search on that map: the neighbours of each hex, the step
// costs per movement class (filled hex by hex the first time a search
// leaves a hex, from ComputeStepCost, so they are the rules' own answers),
// and the search's scratch arrays (each search undoes only what the last one
// touched, so nothing proportional to the map is cleared per search). Not
// thread-safe: one search at a time. The ruleset and the map must outlive it
// and not change. Memory: per movement class searched, one 64-byte row
// per (hex, route state) (allocated zeroed, so rows never reached cost no
// memory), plus 80 bytes per (hex, route state) of scratch (48 of them the
// queue, touched only as far as a search uses it).
// REQUIRES: fewer than 2^28 (hex, route state) pairs (hexes * 3 * road
// rates).
class ReachCache {
 public:
  ReachCache(const Ruleset& ruleset, const Map& map);
  ~ReachCache();
  ReachCache(const ReachCache&) = delete;
  ReachCache& operator=(const ReachCache&) = delete;

  const Ruleset& ruleset() const { return *ruleset_; }
  const Map& map() const { return *map_; }

  struct Impl;

 private:
  friend class ReachSet;
  friend ReachSet FindReach(const Scenario& scenario, const GameState& state, const Board& board,
                            UnitId unit, const MoverState& mover, ReachCache& cache);
  const Ruleset* ruleset_;
  const Map* map_;
  std::unique_ptr<Impl> impl_;  // defined in reach.cc
};

// Every hex a unit can reach, with its cost, whether it ends the move, its
// marsh test and its best path (as a tree: PathTo rebuilds a path on demand,
// so a search allocates nothing per hex).
class ReachSet {
 public:
  struct Entry {
    Hex hex;
    int cost = 0;
    bool ends_move = false;
    int stuck_chance_in_4 = 0;
    std::int32_t node = 0;  // in the path tree
  };
  // Sorted by label (column, then row); the unit's own hex is not listed.
  const std::vector<Entry>& hexes() const { return hexes_; }
  // The entry for `hex`, or nullptr when it cannot be reached.
  const Entry* Find(Hex hex) const;
  // The hexes entered along the entry's best path, start excluded.
  std::vector<Hex> PathTo(const Entry& entry) const;
  // Search states found (hex and road/track state), the start included.
  std::size_t states() const { return tree_.size(); }

 private:
  friend ReachSet FindReach(const Scenario& scenario, const GameState& state, const Board& board,
                            UnitId unit, const MoverState& mover, ReachCache& cache);
  struct TreeNode {
    Hex hex;
    std::int32_t parent = -1;
    std::int32_t steps = 0;
  };
  std::vector<Entry> hexes_;
  std::vector<TreeNode> tree_;
};

// Every hex `unit` can reach from `mover` against the board as it stands,
// with the best path by the order of SearchResult (so the cheapest legal
// path, ties broken by fewest steps, then by directions). Charges are never
// part of these paths: a destination order never charges. A bucket-queue
// (Dial) search over the cache's dense tables; it gives exactly what
// ReachableReference gives (tests/engine/reach_test.cc compares them on
// random maps). REQUIRES: cache built for this scenario's map and ruleset.
ReachSet FindReach(const Scenario& scenario, const GameState& state, const Board& board,
                   UnitId unit, const MoverState& mover, ReachCache& cache);

// FindReach with every path spelled out, sorted by label (column, then row).
// Without a cache (a one-off query) it runs ReachableReference, which is
// cheaper than building the map's tables for one search; same result.
std::vector<ReachableHex> Reachable(const Ruleset& ruleset, const Scenario& scenario,
                                    const GameState& state, const Board& board, UnitId unit,
                                    const MoverState& mover, ReachCache* cache = nullptr);

// The straightforward search the fast one is checked against: FindPaths over
// a SearchSpace asking StepRules::Check for every step. Same result as
// Reachable, much slower; for tests.
std::vector<ReachableHex> ReachableReference(const Ruleset& ruleset, const Scenario& scenario,
                                             const GameState& state, const Board& board,
                                             UnitId unit, const MoverState& mover);

// The same from the start of the unit's turn: its allowance from a fresh
// command check (digest 1.6) and the turn-start road chain. Empty when the
// unit is not on the map or may not move. For the planning command. `cache`
// may be null (a one-off query: see Reachable).
std::vector<ReachableHex> ReachableThisTurn(const Ruleset& ruleset, const Scenario& scenario,
                                            const GameState& state, UnitId unit,
                                            ReachCache* cache = nullptr);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_REACH_H_
