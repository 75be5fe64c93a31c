// Metrics: the daemon's counters, rendered in the Prometheus text exposition format (version
// 0.0.4) for GET /metrics. Thread-safe: every thread of the daemon counts into one instance.
#ifndef PBEM_DAEMON_METRICS_H_
#define PBEM_DAEMON_METRICS_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace pbem::daemon {

class Metrics {
 public:
  // The instance name (pbemd.instance.name) shown by pbemd_instance_info; "" shows none.
  void SetInstance(std::string name) {
    std::lock_guard lock(mutex_);
    instance_ = std::move(name);
  }
  void TurnResolved() { ++turns_resolved_; }
  // A game's turn job failed with an error that is not a database outage (daemon/scheduler.h).
  void TurnFailed() { ++turn_failures_; }
  // How many games are stuck (their turn job failed too often), as the last pass read it.
  void GamesStuck(std::int64_t count) { games_stuck_ = count; }
  // A game skipped by a scheduler pass because another instance was working on it.
  void GameBusy() { ++games_busy_; }
  // Whether this instance reads the mailbox (holds the mail intake lock).
  void IntakeLeader(bool leader) { intake_leader_ = leader ? 1 : 0; }
  void SubmissionAccepted(const std::string& channel);
  // `reason` is a stable code (malformed, unauthenticated, stale_turn, ...).
  void SubmissionRejected(const std::string& channel, const std::string& reason);
  void SubmissionDuplicate() { ++submissions_duplicate_; }
  void MailSent() { ++mails_sent_; }
  void MailFailed() { ++mails_failed_; }
  // An outbox mail dead-lettered: refused for good by the relay, or failed max_attempts times.
  void MailDeadLettered() { ++mails_dead_lettered_; }
  void MailQueued() { ++mails_queued_; }
  // Sent outbox mails deleted once past pbemd.outbox.keep_sent_days.
  void OutboxPruned(std::int64_t count) { outbox_pruned_ += count; }
  void MailboxPoll(bool ok) { ok ? ++mailbox_polls_ok_ : ++mailbox_polls_failed_; }
  void MailDropped() { ++mails_dropped_; }
  // An incoming mail moved to the quarantine folder after failing to process twice.
  void MailQuarantined() { ++mails_quarantined_; }
  // A refusal not mailed: its sender, not proven by a token, had pbemd.mail.in.
  // refusal_replies_per_hour refusals mailed in the last hour already.
  void RefusalReplyWithheld() { ++refusal_replies_withheld_; }
  // The database (daemon/database_health.h): reachable or not, with a sentence naming the
  // store and the error while it is not; a broken connection made again.
  void DatabaseUp() {
    std::lock_guard lock(mutex_);
    database_down_.reset();
  }
  void DatabaseDown(std::string why) {
    std::lock_guard lock(mutex_);
    database_down_ = std::move(why);
  }
  void DatabaseReconnected() { ++database_reconnects_; }
  // nullopt while the database can be reached (as far as the last operation of any thread
  // knows); else why not.
  std::optional<std::string> database_down() const {
    std::lock_guard lock(mutex_);
    return database_down_;
  }

  std::int64_t mails_sent() const { return mails_sent_; }
  std::int64_t mails_failed() const { return mails_failed_; }
  std::int64_t mails_dead_lettered() const { return mails_dead_lettered_; }
  std::int64_t outbox_pruned() const { return outbox_pruned_; }
  std::int64_t mailbox_polls() const { return mailbox_polls_ok_ + mailbox_polls_failed_; }
  std::int64_t turns_resolved() const { return turns_resolved_; }
  std::int64_t turn_failures() const { return turn_failures_; }
  std::int64_t games_stuck() const { return games_stuck_; }

  // The whole exposition, HELP and TYPE lines included, ending in a newline.
  std::string RenderPrometheus() const;

 private:
  std::atomic<std::int64_t> turns_resolved_{0};
  std::atomic<std::int64_t> games_busy_{0};
  std::atomic<std::int64_t> turn_failures_{0};
  std::atomic<std::int64_t> games_stuck_{0};
  std::atomic<int> intake_leader_{0};
  std::atomic<std::int64_t> submissions_duplicate_{0};
  std::atomic<std::int64_t> mails_sent_{0};
  std::atomic<std::int64_t> mails_failed_{0};
  std::atomic<std::int64_t> mails_dead_lettered_{0};
  std::atomic<std::int64_t> mails_queued_{0};
  std::atomic<std::int64_t> outbox_pruned_{0};
  std::atomic<std::int64_t> mails_dropped_{0};
  std::atomic<std::int64_t> mails_quarantined_{0};
  std::atomic<std::int64_t> refusal_replies_withheld_{0};
  std::atomic<std::int64_t> mailbox_polls_ok_{0};
  std::atomic<std::int64_t> mailbox_polls_failed_{0};
  std::atomic<std::int64_t> database_reconnects_{0};
  mutable std::mutex mutex_;
  std::string instance_;
  std::optional<std::string> database_down_;      // set while the database cannot be reached
  std::map<std::string, std::int64_t> accepted_;  // by channel
  std::map<std::pair<std::string, std::string>, std::int64_t> rejected_;  // (channel, reason)
};

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_METRICS_H_
