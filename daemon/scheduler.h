// Scheduler: one pass over every game (pbemd runs it every pbemd.turns.poll_ms on its own
// thread, and at once after an accepted submission). For each game: opens the turn it waits
// for, then resolves turns while they are due (TurnJob::ResolveIfDue: the side's orders are
// in, or its deadline plus the grace period passed). Time comes from an injected Clock.
//
// Several pbemd may share one database: a pass works on a game only while it holds the
// game's lock (GameRepository::TryLock("game:<id>")), and skips (counts `busy`) a game another
// instance holds. So one instance at a time resolves a game, renders its results mails and
// reminds its players; the storage's own checks (CommitTurn refuses a second commit of a turn,
// RecordReminder and EndGame act once) stay as the last guard. A killed instance's locks free
// with its connection, and the next pass of another instance takes its games.
//
// When the database cannot be reached (UNAVAILABLE: PostgreSQL restarting), a pass stops at
// the first game that says so and fails with that status (pbemd does not log it: the
// repository's observer logged the loss once). A game whose lock went with a broken
// connection is released (Unlock: nothing to do on the server) and its work dropped; the
// next pass takes the lock again before touching the game (storage/connection.h).
//
// Any other failure of a game's turn job (a stored state or submission the engine or codec
// refuses, a scenario file gone, a bug) is counted in the store (GameRepository::
// RecordTurnFailure) and the game backs off: the next try comes SchedulerOptions::retry_base
// later, then twice as long each time, up to retry_max (the pass lists only games due:
// ListSchedulableGames). After max_failures in a row the game is stuck: logged once at error
// level, its players told once by mail (TurnJob::StuckMails, enqueued with the stuck state),
// and left alone until an operator retries it (`pbem turns retry`). A pass that goes through
// clears the count. Counted in /metrics: pbemd_turn_failures_total, pbemd_games_stuck.
//
// A pass costs the games that are due, not the games that exist: it lists only the games
// whose wake-up has come (storage::GameWake, an indexed column). Having worked on a game, the
// pass asks the job when it next needs to (TurnJob::NextWake: a reminder, a deadline, or
// nothing until a write) and stores that, unless the game was written meanwhile. Every write
// to a game makes it due again in the store itself, so no writer (order desk, mail intake,
// the organiser, pbem commands) has to remember to. A process's first pass makes every game
// due (MarkAllGamesDue): the grace, reminder and forfeit settings may have changed.
#ifndef PBEM_DAEMON_SCHEDULER_H_
#define PBEM_DAEMON_SCHEDULER_H_

#include <chrono>
#include <functional>
#include <string>
#include <utility>

#include "daemon/clock.h"
#include "daemon/turn_job.h"
#include "storage/game_repository.h"
#include "storage/status.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace pbem::daemon {

class Metrics;

struct SchedulerOptions {
  // A failing game is tried again after retry_base (pbemd.turns.poll_ms), then after twice
  // as long each time ...
  std::chrono::milliseconds retry_base{1000};
  // ... up to this (pbemd.turns.retry_max_ms).
  std::chrono::milliseconds retry_max{300000};
  // After this many failures in a row the game is stuck (pbemd.turns.max_failures).
  int max_failures = 10;
  Metrics* metrics = nullptr;  // may be null
};

struct SchedulerPass {
  int games = 0;           // games looked at
  int turns_resolved = 0;  // turns committed in this pass
  int failures = 0;        // games whose pass failed (logged; retried after a backoff)
  int stuck = 0;           // games that became stuck in this pass
  int busy = 0;            // games skipped: another instance was working on them
  int waking = 0;          // games whose next wake-up was stored (later than the pass)
};

class Scheduler {
 public:
  // All must outlive the scheduler; `repository` is used by this scheduler's thread only.
  // `logger` may be null.
  Scheduler(storage::GameRepository& repository, TurnJob& job, const Clock& clock,
            spdlog::logger* logger, SchedulerOptions options = {})
      : repository_(repository), job_(job), clock_(clock), logger_(logger), options_(options) {}

  // One pass over the games due (every game on a process's first pass) but the stuck ones and
  // those backing off. Fails only when the games cannot be listed, or with UNAVAILABLE when
  // the database cannot be reached.
  Result<SchedulerPass> Pass();

  // At most this many turns of one game are resolved in one pass (both sides' orders may be
  // in at once).
  static constexpr int kMaxTurnsPerPass = 8;

  // TEST-ONLY fault point (daemon/fault_point.h): called right after the pass took a game's
  // lock, before it works on the game. Never set in production.
  void SetAfterLockHook(std::function<void(const std::string& game_id)> hook) {
    after_lock_ = std::move(hook);
  }

  // The lock a pass holds while it works on a game.
  static std::string GameLock(const std::string& game_id) { return "game:" + game_id; }

  // How long a game waits after its `failures`-th failure in a row (1 or more).
  std::chrono::milliseconds RetryDelay(std::int64_t failures) const;

 private:
  // Counts `error` against `game` (backoff, or stuck with its players' mails); a non-OK
  // status only when the database cannot be reached.
  Status RecordFailure(const storage::SchedulableGame& game, const Status& error,
                       storage::Timestamp now, SchedulerPass& pass);

  // Stores the game's next wake-up: the last visit's own under `seen` (its wake sequence read
  // before the visit) when it knew it, else TurnJob::NextWake's under the sequence read again.
  // A failure leaves the game due (logged). Non-OK only when the database cannot be reached.
  Status StoreWake(const std::string& game_id, Result<storage::GameWake> seen,
                   const GameVisit& visit, SchedulerPass& pass);

  storage::GameRepository& repository_;
  TurnJob& job_;
  const Clock& clock_;
  spdlog::logger* logger_;
  SchedulerOptions options_;
  std::function<void(const std::string& game_id)> after_lock_;
  bool all_marked_due_ = false;
};

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_SCHEDULER_H_
