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
    for (int i = 0; i < kMaxTurnsPerPass; ++i) {
      Result<bool> resolved = job_.ResolveIfDue(repository_, game_id, clock_.Now());
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
  }
  return pass;
}

}  // namespace pbem::daemon
