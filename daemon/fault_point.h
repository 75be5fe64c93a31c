// Fault points: TEST-ONLY. Named places in pbemd where a test makes a thread wait, stop or
// crash on purpose, to force an interleaving by construction instead of hoping for one
// (HOUSE-STYLE: no sleeps-and-luck). Unarmed, as always in production, a point changes
// nothing (it looks its name up in an empty list). daemon/README.md, "Fault points", lists
// them all.
//
// Two ways to arm them:
//   - in-process tests: SetFaultHook(hook); every point calls hook(name) on its own thread.
//   - a real pbemd: the environment variable PBEM_FAULT, read once (at the first point
//     reached or at ArmedFaultPoints(), which pbemd calls at start), a comma-separated list of
//         <point>:<action>[:<argument>]
//     where <action> is one of
//         pause:<dir>    the first thread that reaches <point> creates <dir>/<point>.reached
//                        and waits until <dir>/<point>.go exists (then deletes it and goes
//                        on). Once only. It gives up after kFaultPauseLimit, logging it.
//         stop[:<text>]  the thread that reaches <point> (whose context contains <text>, when
//                        given) stops for good: the test kills the process (SIGTERM would wait
//                        for that thread forever).
//         abort[:<text>] the process aborts there (when the context contains <text>, if given).
//         fail[:<text>]  only at points that can fail (FaultFailure): the work there fails
//                        with INTERNAL (when the context contains <text>, if given), every
//                        time it is reached.
//     Every action taken is logged first: event=fault_point name=<point> action=<action>
//     <context>. An entry that does not parse (an unknown point or action, a pause with no
//     directory) makes pbemd refuse to start, naming it: a misspelt point never goes unseen.
//
// The points (their context in parentheses):
//   order_desk.before_store    an order submission was judged, not yet stored (game=, side=)
//   turn_loop.before_commit    a turn's orders were read (or found missing), not committed
//                              (game=)
//   outbox.after_send          the transport took an outbox mail, not yet marked sent: the
//                              at-least-once window (mail=outbox-<id>)
//   scheduler.after_game_lock  the scheduler took the lock of a game whose turn is due with
//                              the side to move's orders in, after this process resolved a turn
//                              and (when armed) once outbox.after_send was reached (game=)
//   intake.before_handle       a fetched mail was parsed, not yet handled (subject=)
//   league.after_rating        a result completed its league round, which is rated and its
//                              standings mails enqueued; the next round is not started, nor
//                              the season ended (game=, round=)
//   league.advance_wait        a caller about to record a league result or start or end a
//                              round or season finds another doing so in this process, and
//                              is about to wait for it (game= or league=)
//   turn_loop.resolve          the turn job is about to look at a game (game=); with fail, the
//                              job fails as a broken stored game would (not a database outage)
#ifndef PBEM_DAEMON_FAULT_POINT_H_
#define PBEM_DAEMON_FAULT_POINT_H_

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/status.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace pbem::daemon {

inline constexpr std::string_view kFaultOrderDeskBeforeStore = "order_desk.before_store";
inline constexpr std::string_view kFaultTurnLoopBeforeCommit = "turn_loop.before_commit";
inline constexpr std::string_view kFaultOutboxAfterSend = "outbox.after_send";
inline constexpr std::string_view kFaultSchedulerAfterGameLock = "scheduler.after_game_lock";
inline constexpr std::string_view kFaultIntakeBeforeHandle = "intake.before_handle";
inline constexpr std::string_view kFaultLeagueAfterRating = "league.after_rating";
inline constexpr std::string_view kFaultTurnLoopResolve = "turn_loop.resolve";
inline constexpr std::string_view kFaultLeagueAdvanceWait = "league.advance_wait";
inline constexpr std::string_view kFaultPointNames[] = {
    kFaultOrderDeskBeforeStore,   kFaultTurnLoopBeforeCommit, kFaultOutboxAfterSend,
    kFaultSchedulerAfterGameLock, kFaultIntakeBeforeHandle,   kFaultLeagueAfterRating,
    kFaultTurnLoopResolve,        kFaultLeagueAdvanceWait};

// How long a paused thread waits for its release before it goes on (and logs that it did).
inline constexpr std::chrono::seconds kFaultPauseLimit{600};

enum class FaultAction { kPause, kStop, kAbort, kFail };

struct FaultEntry {
  std::string point;
  FaultAction action = FaultAction::kStop;
  std::string argument;  // pause: the directory; stop, abort, fail: the context filter (or empty)
};

// Parses a PBEM_FAULT value. An empty value arms nothing.
Result<std::vector<FaultEntry>> ParseFaultSpec(std::string_view spec);

// The entries armed from PBEM_FAULT (parsed once); an error when it does not parse. `logger`
// (may be null) is where the fault points log from then on.
Result<std::vector<FaultEntry>> ArmedFaultPoints(spdlog::logger* logger);

// The point `name` is reached, in `context` (key=value words, logged as they are).
void FaultPoint(std::string_view name, std::string_view context = {});

// A point where the work can fail: INTERNAL (logged as the other actions are) when a fail
// entry for `name` matches `context`; OK otherwise (always, unarmed).
Status FaultFailure(std::string_view name, std::string_view context = {});

// True when PBEM_FAULT arms `name`.
bool FaultArmed(std::string_view name);

// Returns once a thread reached `name` and took its action; at once when it is not armed.
void WaitForFaultPoint(std::string_view name);

// In-process tests: arms `entries` as if PBEM_FAULT had said so (ParseFaultSpec), replacing
// what was armed; an empty list disarms. Same thread-safety as SetFaultHook.
void SetArmedFaultPointsForTest(std::vector<FaultEntry> entries);

// Installs (or, with an empty function, removes) the test hook. Not thread-safe against
// points running: set it before the threads start, clear it after they stop.
void SetFaultHook(std::function<void(std::string_view)> hook);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_FAULT_POINT_H_
