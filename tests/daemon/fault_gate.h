// A fault-point gate for in-process tests (daemon/fault_point.h): stops the first thread that
// reaches `stop_at` until Open(); a thread that reaches `open_at` (when given) opens it, so a
// test can say "let the stopped thread go as soon as another one is about to wait for it",
// which is an interleaving, not a guess at timing. FaultHookGuard installs it as the hook.
#ifndef PBEM_TESTS_DAEMON_FAULT_GATE_H_
#define PBEM_TESTS_DAEMON_FAULT_GATE_H_

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <string_view>

#include "daemon/fault_point.h"

namespace pbem::daemon::testing {

class FaultGate {
 public:
  explicit FaultGate(std::string stop_at, std::string open_at = "")
      : stop_at_(std::move(stop_at)), open_at_(std::move(open_at)) {}

  void Reach(std::string_view name) {
    if (!open_at_.empty() && name == open_at_) {
      std::lock_guard<std::mutex> lock(mutex_);
      opened_at_point_ = true;
      open_ = true;
      changed_.notify_all();
      return;
    }
    if (name != stop_at_) return;
    std::unique_lock<std::mutex> lock(mutex_);
    if (used_) return;
    used_ = true;
    reached_ = true;
    changed_.notify_all();
    changed_.wait(lock, [&] { return open_; });
  }
  // True once a thread stopped at `stop_at` (false after 60 s without one).
  bool WaitReached() {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(60), [&] { return reached_; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  // True when a thread reached `open_at`.
  bool OpenedAtPoint() {
    std::lock_guard<std::mutex> lock(mutex_);
    return opened_at_point_;
  }

 private:
  std::string stop_at_, open_at_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool used_ = false, reached_ = false, open_ = false, opened_at_point_ = false;
};

struct FaultHookGuard {
  explicit FaultHookGuard(FaultGate& gate) {
    SetFaultHook([&gate](std::string_view name) { gate.Reach(name); });
  }
  ~FaultHookGuard() { SetFaultHook({}); }
  FaultHookGuard(const FaultHookGuard&) = delete;
  FaultHookGuard& operator=(const FaultHookGuard&) = delete;
};

}  // namespace pbem::daemon::testing

#endif  // PBEM_TESTS_DAEMON_FAULT_GATE_H_
