// The turn job: opens a player-turn (draws and stores its secret dice seed, returns the
// commitment to publish), then resolves the orders with the dice derived from that seed and
// commits everything in one transaction (daemon/turn/dice.h has the derivation).
//
// Who calls what, in order, for each player-turn of a game:
//   1. OpenTurn(...) when the turn opens; publish the returned commitment to the players.
//   2. ResolveAndCommit(...) with the orders of the side to move (after the deadline, or
//      once they arrive); send the result, which reveals the seed.
// Both are idempotent: after a crash, call them again with the same arguments. OpenTurn never
// draws a second seed for a turn once one is stored; ResolveAndCommit with orders whose header
// names a turn already committed (game, turn, side) returns the stored commit
// (replayed = true) and changes nothing.
//
// Contracts common to every function:
// - REQUIRES: `repository` has been opened (OpenOrMigrate succeeded).
// - REQUIRES: `ruleset` and `scenario` are the ones the game was created with.
// - Failures are Status values naming the game; nothing is partly stored.
#ifndef PBEM_DAEMON_TURN_TURN_JOB_H_
#define PBEM_DAEMON_TURN_TURN_JOB_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/turn/dice.h"
#include "daemon/turn/turn_shared.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/orders.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "pbem/v1/orders.pb.h"
#include "pbem/v1/ruleset.pb.h"
#include "pbem/v1/scenario.pb.h"
#include "pbem/v1/turn_result.pb.h"
#include "proto/codec/codec.h"
#include "storage/game_repository.h"
#include "storage/status.h"

namespace pbem::daemon {

// A NewGame for `scenario` played with `ruleset`: its initial state (serialised
// pbem.v1.GameState for game `game_id`), the ruleset and scenario pinned as serialised protos,
// kEngineVersion. Deadlines are left at zero for the caller to set.
storage::NewGame MakeNewGame(const pbem::v1::Ruleset& ruleset_proto,
                             const pbem::v1::Scenario& scenario_proto,
                             const engine::Scenario& scenario, const std::string& game_id,
                             storage::Timestamp now);

// Opens the player-turn the game's current state is waiting for (its turn and side to move):
// draws a kSeedBytes seed from `entropy` and stores it with its commitment before any order
// is resolved. When that turn is already open, returns the stored seed and commitment (and
// draws nothing). FAILED_PRECONDITION when the game is finished; NOT_FOUND for an unknown
// game; IO_ERROR when the entropy source or the store fails.
Result<OpenedTurn> OpenTurn(storage::GameRepository& repository, const engine::Scenario& scenario,
                            const std::string& game_id, EntropySource& entropy,
                            storage::Timestamp now);
// The same, for a caller that has just read the game and its state (the turn loop): no second
// read.
Result<OpenedTurn> OpenTurn(storage::GameRepository& repository, const storage::Game& game,
                            const engine::GameState& state, EntropySource& entropy,
                            storage::Timestamp now);

// One player-turn resolved with a given seed: pure, no storage. What ResolveAndCommit stores
// and what `pbem verify` recomputes.
struct Resolution {
  Bytes canonical_orders;  // codec::CanonicalOrders(orders)
  Bytes result;            // serialised pbem.v1.TurnResult, dice revealed
  Bytes next_state;        // serialised pbem.v1.GameState
  engine::GameState next;  // the same as an engine value
  pbem::v1::TurnResult result_proto;
};
// The result is written in `format`: new turns in the current one, `pbem verify` in the one
// the archived result was written in (an archive keeps the bytes of its time).
// REQUIRES: `state` is a state of `scenario` (between player-turns).
Resolution ResolveWithSeed(const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                           const engine::GameState& state, const pbem::v1::Orders& orders,
                           const Bytes& seed,
                           codec::TurnResultFormat format = codec::kCurrentTurnResultFormat);

struct ResolvedTurn {
  storage::CommittedTurn committed;  // as stored (replayed: it was committed before)
  pbem::v1::TurnResult result;       // the stored result, parsed
};

// Resolves `orders` for the game's open turn with the dice derived from its stored seed and
// commits, in one transaction: the canonical orders, seed, commitment, result (revealing the
// seed), next state and `mails`. The orders are taken as they are: the engine gives invalid
// or illegal orders their verdicts (that is a result, not a failure).
// Replays: when the orders' header names a turn and side (turn != 0, side set) other than the
// one the game waits for, and that (turn, side) is already committed, returns the stored
// commit with replayed = true and stores nothing (a retry after a crash, or a concurrent
// commit that won). Orders with no header are always for the turn the game waits for.
// FAILED_PRECONDITION when the turn was not opened (call OpenTurn first) or the game is
// finished; NOT_FOUND for an unknown game.
Result<ResolvedTurn> ResolveAndCommit(storage::GameRepository& repository,
                                      const engine::Ruleset& ruleset,
                                      const engine::Scenario& scenario, const std::string& game_id,
                                      const pbem::v1::Orders& orders, storage::Timestamp now,
                                      std::vector<storage::NewMail> mails = {});

// How pbemd's turn loop commits a turn (CommitOptions, turn_shared.h: the position, the
// submission played, a missed turn, the next turn's entropy) and what it commits besides it
// (TurnAftermath, turn_shared.h).
struct CommitPlan : CommitOptions {
  // Called once with the state resolved, the resolution, the turn's open turn and the next
  // one (when the game goes on): the mails and the game's end to commit with the turn.
  std::function<Result<TurnAftermath>(const engine::GameState& before, const Resolution&,
                                      const storage::OpenTurn& open,
                                      const std::optional<storage::OpenTurn>& next)>
      aftermath;
};

// The one path by which a turn is committed (pbemd's turn loop, the crash test, the tools):
// ResolveAndCommit above is this with a plan that only enqueues `mails`.
Result<ResolvedTurn> ResolveAndCommit(storage::GameRepository& repository,
                                      const engine::Ruleset& ruleset,
                                      const engine::Scenario& scenario, const std::string& game_id,
                                      const pbem::v1::Orders& orders, storage::Timestamp now,
                                      const CommitPlan& plan);

// Deadline arithmetic never overflows: every term is clamped to [0, the end of year 9999]
// before it is added, so a game stored with an absurd timeout (before pbemd bounded it, see
// daemon/validate.h) waits until then instead of wrapping into the past and playing itself
// out as missed turns.
inline constexpr std::int64_t kFarFutureMs = 253402300799999;
std::chrono::milliseconds ClampedDuration(std::chrono::milliseconds d);
std::chrono::milliseconds ClampedDuration(std::chrono::seconds d);

// When the open turn's orders are due: opened_at + the game's turn_timeout + the time the game
// stood paused while it was open and the organiser's extensions (OpenTurn::paused), without the
// grace; nullopt when the game has no timeout. (TurnLoop and the league status view.)
std::optional<storage::Timestamp> TurnDeadline(const storage::Game& game,
                                               const storage::OpenTurn& open);

// The game's current state as an engine value. NOT_FOUND / INVALID_ARGUMENT (bad stored
// bytes) naming the game.
Result<engine::GameState> CurrentState(storage::GameRepository& repository,
                                       const engine::Scenario& scenario,
                                       const std::string& game_id);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_TURN_TURN_JOB_H_
