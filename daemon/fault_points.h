// FaultPoints: TEST-ONLY. Named points where pbemd stops on purpose, so that a test forces an
// interleaving instead of hoping for one (tests/daemon/two_instances.sh). Read once at start
// from the environment variable PBEM_FAULT, a comma-separated list of names. Unset, as it
// always is in production, nothing is armed and nothing changes. An armed point, once
// reached, logs `event=fault_point name=<name> ...` and blocks the thread that reached it for
// good: the test then kills the process (SIGTERM would wait for that thread forever).
//
//   hold_outbox_after_send  the outbox thread, right after the transport took a mail and
//                           before the mail is marked sent: the mail is out (the at-least-once
//                           window) and the rest of its batch stays claimed by this instance.
//   block_after_game_lock   the scheduler thread, right after it took the lock of a game whose
//                           turn is due (the side to move has orders in), once this process
//                           has resolved a turn and, when armed, hold_outbox_after_send was
//                           reached: the game stays locked with its turn unresolved.
#ifndef PBEM_DAEMON_FAULT_POINTS_H_
#define PBEM_DAEMON_FAULT_POINTS_H_

#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "daemon/mail/mailer.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace pbem::daemon {

inline constexpr std::string_view kFaultHoldOutboxAfterSend = "hold_outbox_after_send";
inline constexpr std::string_view kFaultBlockAfterGameLock = "block_after_game_lock";

class FaultPoints {
 public:
  // `spec`: comma-separated names (unknown names are kept and never reached).
  explicit FaultPoints(std::string_view spec);
  // From PBEM_FAULT; nothing armed when it is unset or empty.
  static std::unique_ptr<FaultPoints> FromEnvironment();

  bool armed(std::string_view name) const { return armed_.count(std::string(name)) > 0; }
  bool any_armed() const { return !armed_.empty(); }

  // Marks `name` reached, logs it with `detail` and blocks the calling thread for good.
  [[noreturn]] void Stop(std::string_view name, const std::string& detail, spdlog::logger& logger);
  // Returns once `name` was reached; at once when it is not armed.
  void WaitFor(std::string_view name);

 private:
  std::set<std::string> armed_;
  std::mutex mutex_;
  std::condition_variable reached_cv_;
  std::set<std::string> reached_;
};

// A Mailer that stops at hold_outbox_after_send after `inner` took a mail.
class FaultMailer final : public mail::Mailer {
 public:
  // `faults` and `logger` must outlive it.
  FaultMailer(std::unique_ptr<mail::Mailer> inner, FaultPoints& faults, spdlog::logger& logger)
      : inner_(std::move(inner)), faults_(faults), logger_(logger) {}
  Status Send(const mail::OutgoingMessage& message) override;

 private:
  std::unique_ptr<mail::Mailer> inner_;
  FaultPoints& faults_;
  spdlog::logger& logger_;
};

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_FAULT_POINTS_H_
