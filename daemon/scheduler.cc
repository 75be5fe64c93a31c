#include "daemon/scheduler.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "daemon/config.h"
#include "daemon/metrics.h"

namespace pbem::daemon {

std::chrono::milliseconds Scheduler::RetryDelay(std::int64_t failures) const {
  const std::chrono::milliseconds cap = std::max(options_.retry_max, options_.retry_base);
  std::chrono::milliseconds delay = options_.retry_base;
  for (std::int64_t i = 1; i < failures && delay < cap; ++i) delay *= 2;
  return std::min(delay, cap);
}

Status Scheduler::RecordFailure(const storage::SchedulableGame& game, const Status& error,
                                storage::Timestamp now, SchedulerPass& pass) {
  ++pass.failures;
  if (options_.metrics != nullptr) options_.metrics->TurnFailed();
  storage::TurnFailure failure;
  failure.game_id = game.id;
  failure.failures_before = game.turn_failures;
  failure.error = error.ToString();
  failure.at = now;
  const std::int64_t count = game.turn_failures + 1;
  const std::chrono::milliseconds delay = RetryDelay(count);
  failure.retry_at = now + delay;
  failure.stuck = count >= options_.max_failures;
  if (failure.stuck) {
    // The players are told in the same transaction that makes the game stuck: once.
    Result<std::vector<storage::NewMail>> mails = job_.StuckMails(repository_, game.id, now);
    if (!mails.ok() && mails.status().code() == StatusCode::kUnavailable) return mails.status();
    if (mails.ok()) {
      failure.mails = std::move(mails).value();
    } else if (logger_ != nullptr) {
      logger_->error("event=stuck_mail_failed game={} error={}", game.id,
                     QuoteLogValue(mails.status().ToString()));
    }
  }
  Result<std::int64_t> recorded = repository_.RecordTurnFailure(failure);
  if (!recorded.ok()) {
    if (recorded.status().code() == StatusCode::kUnavailable) return recorded.status();
    if (logger_ != nullptr) {
      logger_->error("event=turn_failure_not_recorded game={} error={} failure={}", game.id,
                     QuoteLogValue(recorded.status().ToString()), QuoteLogValue(failure.error));
    }
    return Status::Ok();
  }
  if (failure.stuck) {
    ++pass.stuck;
    if (options_.metrics != nullptr) {
      for (std::size_t i = 0; i < failure.mails.size(); ++i) options_.metrics->MailQueued();
    }
    if (logger_ != nullptr) {
      logger_->error(
          "event=game_stuck game={} failures={} players_told={} error={} "
          "hint=\"pbem turns stuck; pbem turns retry {}\"",
          game.id, *recorded, failure.mails.size(), QuoteLogValue(failure.error), game.id);
    }
  } else if (logger_ != nullptr) {
    logger_->warn("event=turn_failed game={} failures={} max_failures={} retry_in_ms={} error={}",
                  game.id, *recorded, options_.max_failures, delay.count(),
                  QuoteLogValue(failure.error));
  }
  return Status::Ok();
}

Status Scheduler::StoreWake(const std::string& game_id, Result<storage::GameWake> seen,
                            const GameVisit& visit, SchedulerPass& pass) {
  // Without the visit's wake-up, the sequence is read again, first: the visit may have written.
  if (!visit.wake_known) seen = repository_.GetWake(game_id);
  Status failed = seen.status();
  if (seen.ok()) {
    const storage::Timestamp now = clock_.Now();
    Result<std::optional<storage::Timestamp>> next =
        visit.wake_known ? Result<std::optional<storage::Timestamp>>(visit.wake)
                         : job_.NextWake(repository_, game_id, now);
    failed = next.status();
    if (next.ok() && (!*next || **next > now)) {
      Result<bool> stored = repository_.SetWake(game_id, seen->sequence, *next);
      failed = stored.status();
      if (stored.ok() && *stored) ++pass.waking;
    }
  }
  if (failed.ok()) return Status::Ok();
  if (failed.code() == StatusCode::kUnavailable) return failed;
  // It stays due: the next pass does what this one did.
  if (logger_ != nullptr) {
    logger_->error("event=game_wake_not_stored game={} error={}", game_id,
                   QuoteLogValue(failed.ToString()));
  }
  return Status::Ok();
}

Result<SchedulerPass> Scheduler::Pass() {
  if (!all_marked_due_) {
    if (Status marked = repository_.MarkAllGamesDue(); !marked.ok()) return marked;
    all_marked_due_ = true;
  }
  Result<std::vector<storage::SchedulableGame>> games =
      repository_.ListSchedulableGames(clock_.Now());
  if (!games.ok()) return games.status();
  SchedulerPass pass;
  for (const storage::SchedulableGame& game : *games) {
    const std::string& game_id = game.id;
    ++pass.games;
    Result<bool> claimed = repository_.TryLock(GameLock(game_id));
    // The database cannot be reached: the rest of the pass would fail the same way, game by
    // game (and log each); stop here, the next pass retries once the connection is back.
    if (!claimed.ok() && claimed.status().code() == StatusCode::kUnavailable) {
      return claimed.status();
    }
    if (!claimed.ok()) {
      ++pass.failures;
      if (logger_ != nullptr) {
        logger_->error("event=game_lock_failed game={} error={}", game_id,
                       QuoteLogValue(claimed.status().ToString()));
      }
      continue;
    }
    if (!*claimed) {
      ++pass.busy;
      continue;
    }
    if (after_lock_) after_lock_(game_id);
    Status unavailable;
    Status failed;
    // The wake sequence is read before each visit's reads: a write after it, even one before
    // the visit reads the game, makes SetWake refuse, and the game stays due.
    Result<storage::GameWake> seen = Status::Internal("not read");
    GameVisit last;
    for (int i = 0; i < kMaxTurnsPerPass; ++i) {
      seen = repository_.GetWake(game_id);
      if (!seen.ok() && seen.status().code() == StatusCode::kUnavailable) {
        unavailable = seen.status();
        break;
      }
      Result<GameVisit> resolved = job_.Visit(repository_, game_id, clock_.Now());
      if (!resolved.ok() && resolved.status().code() == StatusCode::kUnavailable) {
        // Nothing was committed, or the commit went through before the connection broke
        // (then the next resolution finds the turn committed). The game's lock went with the
        // connection: drop the work, release it below, retry at a later pass.
        unavailable = resolved.status();
        break;
      }
      if (!resolved.ok()) {
        failed = resolved.status();
        break;
      }
      last = *resolved;
      if (!resolved->resolved) break;
      ++pass.turns_resolved;
      if (logger_ != nullptr) logger_->info("event=turn_resolved game={}", game_id);
    }
    if (unavailable.ok() && !failed.ok()) {
      unavailable = RecordFailure(game, failed, clock_.Now(), pass);
    } else if (unavailable.ok() && game.turn_failures > 0) {
      // The game went through: its failures in a row are over.
      if (Status cleared = repository_.ClearTurnFailures(game_id); !cleared.ok()) {
        if (cleared.code() == StatusCode::kUnavailable) {
          unavailable = cleared;
        } else if (logger_ != nullptr) {
          logger_->error("event=turn_failures_not_cleared game={} error={}", game_id,
                         QuoteLogValue(cleared.ToString()));
        }
      }
    }
    if (unavailable.ok() && failed.ok()) unavailable = StoreWake(game_id, seen, last, pass);
    if (Status released = repository_.Unlock(GameLock(game_id));
        !released.ok() && logger_ != nullptr) {
      // The connection is broken: the server frees the lock when it closes.
      logger_->error("event=game_unlock_failed game={} error={}", game_id,
                     QuoteLogValue(released.ToString()));
    }
    if (!unavailable.ok()) return unavailable;
  }
  if (options_.metrics != nullptr) {
    Result<std::vector<storage::StuckGame>> stuck = repository_.ListStuckGames();
    if (!stuck.ok()) return stuck.status();
    options_.metrics->GamesStuck(static_cast<std::int64_t>(stuck->size()));
  }
  return pass;
}

}  // namespace pbem::daemon
