// The turn job of any game system (issue 15): the same contract as the Morne Plaine turn job
// (turn_job.h: open a player-turn with a committed dice seed, resolve and commit it in one
// transaction), reaching the rules only through the game-system interface
// (engine/system/game_system.h) and the shared envelopes through the codec's registry
// (proto/codec/systems.h). No system's types appear here: a game's state is EncodeState's
// bytes, orders are the shared orders envelope's bytes (binary pbem.v1.Orders), a result the
// shared turn-result envelope's (binary pbem.v1.TurnResult).
//
// For Morne Plaine the bytes are those of turn_job.h's path: the same canonical orders, result
// and next state for the same state, orders and seed (tests/turn/system_turn_test.cc).
//
// Who calls what, in order, for each player-turn of a game:
//   1. MakeSystemGame(...) once, and GameRepository::CreateGame with it.
//   2. OpenSystemTurn(...) when the turn opens; publish the returned commitment.
//   3. ResolveAndCommitSystemTurn(...) with the orders envelope of the side or player to move
//      (EmptyOrdersEnvelope, proto/codec/systems.h, when they sent none).
// Both 2 and 3 are idempotent as OpenTurn and ResolveAndCommit are (turn_job.h).
//
// Contracts common to every function:
// - REQUIRES: `repository` has been opened (OpenOrMigrate succeeded).
// - REQUIRES: `setup` is the one `system` loaded for the game (its ruleset and scenario).
// - Failures are Status values naming the game; nothing is partly stored. A failure of the
//   system on the game's own stored data (a state or result it cannot read back) is
//   INVALID_ARGUMENT with the system's words, as turn_job.h's stored-state errors are.
// - A game whose system cannot say whether it is over (GameOutcome answers
//   StatusCode::kNotSupported: M42's and wme's movement chapters have no end of game) is
//   treated as not finished.
#ifndef PBEM_DAEMON_TURN_SYSTEM_TURN_H_
#define PBEM_DAEMON_TURN_SYSTEM_TURN_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "daemon/turn/dice.h"
#include "daemon/turn/turn_shared.h"
#include "engine/system/game_system.h"
#include "engine/system/handle.h"
#include "storage/game_repository.h"
#include "storage/status.h"

namespace pbem::daemon {

// What a new game pins besides its state: names stored with it and the ruleset and scenario as
// the caller keeps them (for Morne Plaine the serialised pbem.v1.Ruleset and pbem.v1.Scenario
// MakeNewGame stores; may be empty, see storage::NewGame).
struct SystemGamePins {
  std::string scenario;  // the scenario's name
  std::string ruleset_name;
  std::string ruleset_version;
  Bytes ruleset_bytes;
  Bytes scenario_bytes;
};

// A NewGame of `system` for `setup`, naming the system (storage::NewGame::system): its initial
// state EncodeState(InitialState(setup, game_id)), `pins`, kEngineVersion. Deadlines are left at
// zero for the caller to set. INVALID_ARGUMENT with the system's words when the system cannot start
// a game of `setup`.
Result<storage::NewGame> MakeSystemGame(const game_system::GameSystem& system,
                                        const game_system::Setup& setup, const std::string& game_id,
                                        storage::Timestamp now, const SystemGamePins& pins);

// The game's current state (DecodeState of its stored bytes). NOT_FOUND for an unknown game,
// INVALID_ARGUMENT naming the game for bytes the system cannot read.
Result<game_system::State> CurrentSystemState(storage::GameRepository& repository,
                                              const game_system::GameSystem& system,
                                              const game_system::Setup& setup,
                                              const std::string& game_id);

// Whether `state` ends the game (GameOutcome; false when the system answers kNotSupported).
Result<bool> SystemGameFinished(const game_system::GameSystem& system,
                                const game_system::Setup& setup, const game_system::State& state);

// Opens the player-turn the game's current state waits for (WhoseTurn: its turn and side or
// player; OpenedTurn is turn_shared.h's): draws a kSeedBytes seed from `entropy` and stores it
// with its commitment. When that turn is already open, returns the stored seed and commitment
// and draws nothing. FAILED_PRECONDITION when the game is finished; NOT_FOUND for an unknown
// game; IO_ERROR when the entropy source or the store fails.
Result<OpenedTurn> OpenSystemTurn(storage::GameRepository& repository,
                                  const game_system::GameSystem& system,
                                  const game_system::Setup& setup, const std::string& game_id,
                                  EntropySource& entropy, storage::Timestamp now);

// One player-turn resolved with a given seed: pure, no storage.
struct SystemResolution {
  Bytes canonical_orders;        // CanonicalOrdersEnvelope of the envelope given
  std::uint64_t dice_key = 0;    // DiceKey(seed, canonical_orders): the system's dice seed
  Bytes result;                  // EncodeTurnResult's envelope, dice revealed
  Bytes next_state;              // EncodeState(resolution.next)
  game_system::TurnInfo played;  // whose player-turn it was (WhoseTurn of the state)
  game_system::TurnResolution resolution;          // verdicts, events and the next state
  bool finished = false;                           // the next state ends the game
  std::optional<game_system::TurnInfo> next_turn;  // whose turn is next; nullopt when finished
};

// Resolves the orders envelope `orders_envelope` (binary pbem.v1.Orders, untrusted) for
// `state`'s player-turn with the dice derived from `seed` (dice.h): the canonical bytes are
// decoded (DecodeOrders) and resolved, so that a verifier holding only them gets the same turn.
// Orders the rules refuse are verdicts in the result, not failures. INVALID_ARGUMENT when the
// bytes are no envelope, or the system refuses them (another system's body: the message names
// the field); the system's other failures with its words.
Result<SystemResolution> ResolveSystemTurn(const game_system::GameSystem& system,
                                           const game_system::Setup& setup,
                                           const game_system::State& state,
                                           std::string_view orders_envelope, const Bytes& seed);

// How the turn loop commits a turn and what it commits besides the turn itself (turn_job.h's
// CommitPlan on system-neutral values).
struct SystemCommitPlan : CommitOptions {  // turn_shared.h
  // Called once with the state resolved, the resolution, the turn's open turn and the next
  // one (when opened): the mails and the game's end to commit with the turn.
  std::function<Result<TurnAftermath>(const game_system::State& before, const SystemResolution&,
                                      const storage::OpenTurn& open,
                                      const std::optional<storage::OpenTurn>& next)>
      aftermath;
};

struct SystemCommittedTurn {
  storage::CommittedTurn committed;  // as stored (replayed: it was committed before)
  // This call's resolution; nullopt when replayed (the stored result is committed.turn.result).
  std::optional<SystemResolution> resolution;
};

// Resolves `orders_envelope` for the game's open turn with the dice derived from its stored
// seed and commits, in one transaction: the canonical orders, seed, commitment, result
// (revealing the seed), next state and what `plan` adds.
// Replays: when the envelope's header (OrdersHeader, proto/codec/systems.h) names a turn and
// side or player (turn != 0, side or player set) other than the one the game waits for, and
// that turn is already committed, returns the stored commit with replayed = true and stores
// nothing. An envelope with no header is always for the turn the game waits for (Morne Plaine's
// engine plays no turn for orders naming none: its state stays; a missed turn is
// EmptyOrdersEnvelope's, header and all).
// FAILED_PRECONDITION when the game is not at plan.based_on, is finished, or its turn was not
// opened (call OpenSystemTurn first); NOT_FOUND for an unknown game; INVALID_ARGUMENT as
// ResolveSystemTurn (nothing stored).
Result<SystemCommittedTurn> ResolveAndCommitSystemTurn(
    storage::GameRepository& repository, const game_system::GameSystem& system,
    const game_system::Setup& setup, const std::string& game_id, std::string_view orders_envelope,
    storage::Timestamp now, const SystemCommitPlan& plan = {});

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_TURN_SYSTEM_TURN_H_
