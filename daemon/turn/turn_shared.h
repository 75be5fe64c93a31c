// What the Morne Plaine turn job (turn_job.h) and the system-neutral turn core (system_turn.h)
// share, without any game system's headers: the engine version stored in new games, what a
// commit carries besides the turn itself, and the storage steps both take around the rules
// (opening a turn with a fresh seed, the position check, replays). A turn's side is the
// system's name of the side or player it waits for ("blue", "nord").
#ifndef PBEM_DAEMON_TURN_TURN_SHARED_H_
#define PBEM_DAEMON_TURN_TURN_SHARED_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/turn/dice.h"
#include "storage/game_repository.h"
#include "storage/status.h"

namespace pbem::daemon {

// The engine version stored in new games and archives. 2: combat and support events carry each
// unit's strength steps and the die's modifiers (issue 14 point 6); a version 1 archive with a
// combat no longer re-resolves byte for byte (its events have fewer arguments).
inline constexpr std::string_view kEngineVersion = "pbem-engine 2";

// What pbemd's turn loop commits with a turn besides the turn itself, all in the one
// transaction of GameRepository::CommitTurn (see TurnCommit).
struct TurnAftermath {
  std::vector<storage::NewMail> mails;
  std::optional<storage::GameEnding> end;  // set: the turn also ends the game so
};

// How a turn is committed, whatever the system: turn_job.h's CommitPlan and system_turn.h's
// SystemCommitPlan add the aftermath on their own values.
struct CommitOptions {
  // The game's turns_committed the orders were chosen for; -1: whatever it is. When the game
  // is at another position, FAILED_PRECONDITION (choose the orders again).
  std::int64_t based_on = -1;
  // The accepted submission the orders were read from (0: none). The commit is refused
  // (FAILED_PRECONDITION) when the side has a later accepted submission for the position.
  std::int64_t played_submission = 0;
  bool missed = false;  // resolved without orders: counts a missed turn for the side
  // When set, draws the next player-turn's seed and opens it in the same transaction (unless
  // the turn ends the game), so that the commitment the mails publish is the stored one.
  EntropySource* entropy = nullptr;
};

// The player-turn that follows a resolved one.
struct NextTurn {
  std::int64_t turn = 0;
  std::string side;
};
// The commit of `open`'s player-turn of `game` resolved at `now` into `orders` (canonical),
// `result` and `next_state`, with `options`; when options.entropy is set and `next` is given
// (nullopt: the turn ends the game), that turn opened with a fresh seed. IO_ERROR when the
// entropy source fails.
Result<storage::TurnCommit> TurnCommitOf(const storage::Game& game, const storage::OpenTurn& open,
                                         const CommitOptions& options, Bytes orders, Bytes result,
                                         Bytes next_state, const std::optional<NextTurn>& next,
                                         storage::Timestamp now);

// The turn that is open (or about to open) in a game.
struct OpenedTurn {
  storage::OpenTurn stored;             // as stored: seed (secret) and commitment bytes
  pbem::v1::DiceCommitment commitment;  // what to publish: no seed in it
  bool recorded = false;                // this call stored it (a write to the game)
};

// Player-turn `turn` of `side` in `game` opened at `now` with a kSeedBytes seed drawn from
// `entropy` and its commitment, based on the game's `based_on` turns; not stored. IO_ERROR
// when the entropy source fails.
Result<storage::OpenTurn> DrawOpenTurn(const std::string& game_id, std::int64_t turn,
                                       const std::string& side, std::int64_t based_on,
                                       EntropySource& entropy, storage::Timestamp now);

// The stored open turn (turn, side) of `game`, or one drawn (DrawOpenTurn, based on the game's
// turns_committed) and recorded when there is none. Another process may record it first: the
// stored (first) seed comes back.
Result<OpenedTurn> OpenOrReuseTurn(storage::GameRepository& repository, const storage::Game& game,
                                   std::int64_t turn, const std::string& side,
                                   EntropySource& entropy, storage::Timestamp now);

// FAILED_PRECONDITION (after `what`) when `based_on` >= 0 is not the game's turns_committed:
// the orders were chosen for another position.
Status CheckPosition(const storage::Game& game, std::int64_t based_on, const std::string& what);

// The stored commit of player-turn (turn, side) of the game as a replay (replayed = true);
// nullopt when that turn is not committed.
Result<std::optional<storage::CommittedTurn>> StoredCommit(storage::GameRepository& repository,
                                                           const std::string& game_id,
                                                           std::int64_t turn,
                                                           const std::string& side);

// The open turn (turn, side) a commit resolves with. FAILED_PRECONDITION (after `what`) when it
// was never opened, naming `open_call`, the function that opens it.
Result<storage::OpenTurn> OpenTurnToResolve(storage::GameRepository& repository,
                                            const std::string& game_id, std::int64_t turn,
                                            const std::string& side, const std::string& what,
                                            std::string_view open_call);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_TURN_TURN_SHARED_H_
