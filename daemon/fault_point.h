// Fault points: named places in pbemd where a test can stop a thread, to force an interleaving
// by construction instead of by timing (HOUSE-STYLE: no sleeps-and-luck). Off unless a test
// turns them on; a point costs one atomic load when off.
//
// Two ways to turn them on:
//   - in-process tests: SetFaultHook(hook); every point calls hook(name) on its own thread.
//   - a real pbemd: PBEM_FAULT_POINT=<name>:<dir> in its environment. The first thread that
//     reaches <name> creates <dir>/<name>.reached and waits until <dir>/<name>.go exists (then
//     deletes it and goes on; at most 60 s, then it goes on anyway and logs nothing). Once only.
//
// The points:
//   order_desk.before_store  an order submission was judged, not yet stored
//   turn_loop.before_commit  a turn's orders were read (or found missing), not yet committed
#ifndef PBEM_DAEMON_FAULT_POINT_H_
#define PBEM_DAEMON_FAULT_POINT_H_

#include <functional>
#include <string_view>

namespace pbem::daemon {

void FaultPoint(std::string_view name);

// Installs (or, with an empty function, removes) the test hook. Not thread-safe against
// points running: set it before the threads start, clear it after they stop.
void SetFaultHook(std::function<void(std::string_view)> hook);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_FAULT_POINT_H_
