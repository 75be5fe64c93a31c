#include "daemon/scheduler.h"

#include <spdlog/spdlog.h>

#include "daemon/config.h"

namespace pbem::daemon {

Result<SchedulerPass> Scheduler::Pass() {
  Result<std::vector<std::string>> games = repository_.ListGames();
  if (!games.ok()) return games.status();
  SchedulerPass pass;
  for (const std::string& game_id : *games) {
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
    for (int i = 0; i < kMaxTurnsPerPass; ++i) {
      Result<bool> resolved = job_.ResolveIfDue(repository_, game_id, clock_.Now());
      if (!resolved.ok() && resolved.status().code() == StatusCode::kUnavailable) {
        // Nothing was committed, or the commit went through before the connection broke
        // (then the next resolution finds the turn committed). The game's lock went with the
        // connection: drop the work, release it below, retry at a later pass.
        unavailable = resolved.status();
        break;
      }
      if (!resolved.ok()) {
        ++pass.failures;
        if (logger_ != nullptr) {
          logger_->error("event=turn_failed game={} error={}", game_id,
                         QuoteLogValue(resolved.status().ToString()));
        }
        break;
      }
      if (!*resolved) break;
      ++pass.turns_resolved;
      if (logger_ != nullptr) logger_->info("event=turn_resolved game={}", game_id);
    }
    if (Status released = repository_.Unlock(GameLock(game_id));
        !released.ok() && logger_ != nullptr) {
      // The connection is broken: the server frees the lock when it closes.
      logger_->error("event=game_unlock_failed game={} error={}", game_id,
                     QuoteLogValue(released.ToString()));
    }
    if (!unavailable.ok()) return unavailable;
  }
  return pass;
}

}  // namespace pbem::daemon
