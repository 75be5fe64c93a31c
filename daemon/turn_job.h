// TurnJob: the seam between the daemon's scheduler and turn resolution. daemon/turn/ (built
// separately: OpenTurn with a seed commitment, ResolveAndCommit) will implement it; until then
// pbemd runs without one and resolves no turn. The daemon calls it from its scheduler thread
// with that thread's own repository.
#ifndef PBEM_DAEMON_TURN_JOB_H_
#define PBEM_DAEMON_TURN_JOB_H_

#include <optional>
#include <string>
#include <vector>

#include "storage/game_repository.h"
#include "storage/status.h"

namespace pbem::daemon {

// What one visit of a game did (TurnJob::Visit): whether a turn was committed and, when none
// was and the job could tell it from the reads it made, the game's next wake-up as NextWake
// would answer (wake_known; wake nullopt: only a write can give it work).
struct GameVisit {
  bool resolved = false;
  bool wake_known = false;
  std::optional<storage::Timestamp> wake;
};

class TurnJob {
 public:
  virtual ~TurnJob() = default;
  // Resolves and commits the game's current turn when it is due at `now` (every expected
  // order in, or the deadline passed), enqueuing the result mails in the same transaction.
  // Returns true when a turn was committed, false when nothing was due.
  virtual Result<bool> ResolveIfDue(storage::GameRepository& repository, const std::string& game_id,
                                    storage::Timestamp now) = 0;
  // When the game next needs ResolveIfDue, seen from `now`, once ResolveIfDue has returned
  // false: the earliest time it could act without anything being written to the game first
  // (every write makes the game due again: storage::GameWake). nullopt: only a write can
  // give it work. A time at or before `now` keeps the game due. The default: always due, so
  // a job that does not say is looked at on every pass.
  virtual Result<std::optional<storage::Timestamp>> NextWake(storage::GameRepository& repository,
                                                             const std::string& game_id,
                                                             storage::Timestamp now) {
    (void)repository;
    (void)game_id;
    return std::optional<storage::Timestamp>(now);
  }
  // ResolveIfDue, and the next wake-up from the same reads where the job can: the scheduler
  // reads the game once per visit instead of twice (issue 19 point 4). A wake-up computed
  // before a write the visit made is refused by SetWake's compare-and-set, so it may be stale
  // then. The default: ResolveIfDue, the wake-up left to NextWake.
  virtual Result<GameVisit> Visit(storage::GameRepository& repository, const std::string& game_id,
                                  storage::Timestamp now) {
    Result<bool> resolved = ResolveIfDue(repository, game_id, now);
    if (!resolved.ok()) return resolved.status();
    return GameVisit{*resolved, false, std::nullopt};
  }
  // The mails that tell the game's players it is stuck: its turn job failed too often, so the
  // referee could not resolve the turn, their acknowledged orders are kept and will be played,
  // and the operator was told (daemon/scheduler.h). Enqueued by the scheduler with the stuck
  // state, so they go once. The default tells nobody.
  virtual Result<std::vector<storage::NewMail>> StuckMails(storage::GameRepository& repository,
                                                           const std::string& game_id,
                                                           storage::Timestamp now) {
    (void)repository;
    (void)game_id;
    (void)now;
    return std::vector<storage::NewMail>();
  }
};

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_TURN_JOB_H_
