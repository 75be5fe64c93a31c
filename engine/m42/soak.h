// Soak runs of M42 (issue 16 point 8, engine side): whole games of a scenario played by the bot
// (bot.h) for both players, with the invariants checked after every action and a hash of
// everything that happened, so that two builds (gcc, clang) can be compared.
#ifndef PBEM_ENGINE_M42_SOAK_H_
#define PBEM_ENGINE_M42_SOAK_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/core/fnv.h"
#include "engine/m42/orders.h"
#include "engine/m42/resolve.h"
#include "engine/m42/ruleset.h"
#include "engine/m42/scenario.h"
#include "engine/m42/state.h"

namespace pbem::m42 {

// What must hold in any state, between actions; one message per breach, naming the models
// ("b_hq_1 overlaps r_sq1_2"). Empty: all hold.
//  * no two living bases overlap (M42-P02: by more than epsilon; plan distance, GAP-14);
//  * every living base is on the table (table_edge: wall, M42-P17);
//  * no living model on the ground shares area with an explicit impassable area (M-R6), or
//    with the body or footprint of an obstacle Impassible to its unit (M42-R08, R19, R31);
//  * a model on floor f >= 1 stands inside floor f of its structure (M42-P10).
std::vector<std::string> CheckInvariants(const Ruleset& ruleset, const Scenario& scenario,
                                         const State& state);

// What one action may change, `before` and `after` it, given its verdict; one message per
// breach. Empty: all hold.
//  * a refused order (INVALID or ILLEGAL) moves, turns or removes nothing;
//  * a legal order changes only its own unit's models;
//  * after a legal order in which a model moved, the unit is coherent (M42-R29, P14: its
//    near-graph connected, which its sequence coherency implies), and every model that moved
//    ends at least enemy_clearance - epsilon from every enemy base (M42-R12; base-edge
//    measure only).
std::vector<std::string> CheckActionEffect(const Ruleset& ruleset, const Scenario& scenario,
                                           const State& before, const State& after,
                                           const UnitOrder& order, const Verdict& verdict);

using engine::Fnv1a64;  // engine/core/fnv.h

// Counts over a soak run, to show what it exercised.
struct SoakCounts {
  std::uint64_t player_turns = 0;
  std::uint64_t actions = 0;
  std::uint64_t ok = 0;
  std::uint64_t illegal = 0;
  std::uint64_t invalid = 0;
  std::map<std::string, std::uint64_t> reasons;       // reason name -> verdicts
  std::map<std::string, std::uint64_t> events;        // event kind -> events
  std::map<std::string, std::uint64_t> actions_done;  // action name -> unit_acted events
  std::uint64_t upper_floor_ends = 0;                 // model_moved events ending on a floor >= 1
  void Add(const SoakCounts& other);
};

struct GameRun {
  std::uint64_t hash = 0;  // FNV-1a over CanonicalText of every player-turn, in order
  std::vector<std::string> violations;
  SoakCounts counts;
};

// 16 lower-case hex digits.
std::string HashHex(std::uint64_t hash);

// Game `game` of a soak run: `player_turns` player-turns from the scenario's initial state.
// Player-turn T's bot seed is a SplitMix64 chain over (seed, game, T), as `pbem play` keys
// Morne Plaine's. Each action is checked on the state it leaves (the player-turn resolved up to
// it: CheckActionEffect, CheckInvariants), and the whole player-turn must leave the models
// where its last action did. A scenario InitialState refuses is one violation. `all`, when
// given, takes every canonical text too (a hash over several games).
GameRun PlayGame(const Ruleset& ruleset, const Scenario& scenario, std::uint64_t seed,
                 std::uint64_t game, int player_turns, Fnv1a64* all = nullptr);

// Games 1..games of a soak run: `hash` over every player-turn of every game in order, the
// violations and counts of all games.
GameRun PlayGames(const Ruleset& ruleset, const Scenario& scenario, std::uint64_t seed,
                  std::uint64_t games, int player_turns);

}  // namespace pbem::m42

#endif  // PBEM_ENGINE_M42_SOAK_H_
