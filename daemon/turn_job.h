// TurnJob: the seam between the daemon's scheduler and turn resolution. daemon/turn/ (built
// separately: OpenTurn with a seed commitment, ResolveAndCommit) will implement it; until then
// pbemd runs without one and resolves no turn. The daemon calls it from its scheduler thread
// with that thread's own repository.
#ifndef PBEM_DAEMON_TURN_JOB_H_
#define PBEM_DAEMON_TURN_JOB_H_

#include <string>
#include <vector>

#include "storage/game_repository.h"
#include "storage/status.h"

namespace pbem::daemon {

class TurnJob {
 public:
  virtual ~TurnJob() = default;
  // Resolves and commits the game's current turn when it is due at `now` (every expected
  // order in, or the deadline passed), enqueuing the result mails in the same transaction.
  // Returns true when a turn was committed, false when nothing was due.
  virtual Result<bool> ResolveIfDue(storage::GameRepository& repository, const std::string& game_id,
                                    storage::Timestamp now) = 0;
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
