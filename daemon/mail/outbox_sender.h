// OutboxSender: sends the repository's due outbox mails through a Mailer. A sent mail is
// marked sent; a failure is recorded with the next attempt scheduled by exponential backoff
// (retry_base, 2x, 4x, ... capped at retry_max), so a mail server that is down delays mail
// but loses none: the outbox is persistent and the next pass (or the next pbemd) retries.
// Retrying is bounded: a mail the relay refuses for good (the Mailer's INVALID_ARGUMENT, an
// SMTP 5xx to its recipient or data) is dead-lettered at once, one that failed
// config.max_attempts times too (storage MarkMailDead: kept, never due again, listed and put
// back by `pbem outbox dead|requeue`), logged (event=mail_dead_letter) and counted
// (pbemd_mails_dead_lettered_total). The other players' mails go out all the same.
//
// Several pbemd on one database each run a sender: a pass claims its batch for its instance
// (storage ClaimDueMail, for config.claim_lease), so no two instances send one mail. A mail is
// sent at least once: an instance killed between handing a mail to the transport and marking
// it sent leaves it claimed, and another sends it again when the claim runs out (same
// Message-ID, <pbemd-outbox-ID@domain>, so the receiver can tell).
#ifndef PBEM_DAEMON_MAIL_OUTBOX_SENDER_H_
#define PBEM_DAEMON_MAIL_OUTBOX_SENDER_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "daemon/config.h"
#include "daemon/mail/mailer.h"
#include "daemon/metrics.h"
#include "storage/game_repository.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace pbem::daemon::mail {

// When to try again after `failed_attempts` failures (>= 1): now + base * 2^(n-1), at most
// now + max.
storage::Timestamp NextAttempt(storage::Timestamp now, std::int64_t failed_attempts,
                               std::chrono::seconds base, std::chrono::seconds max);

struct OutboxPass {
  int sent = 0;
  int failed = 0;  // failed attempts, the dead-lettered included
  int dead = 0;    // mails dead-lettered by this pass
};

class OutboxSender {
 public:
  // Every reference must outlive the sender. `from` is the envelope and header sender.
  // `instance` names this process in the claims (pbemd.instance.name).
  OutboxSender(storage::GameRepository& repository, Mailer& mailer, std::string from,
               std::string instance, const MailOutConfig& config, Metrics& metrics,
               spdlog::logger& logger);

  // Claims the mails due at `now` (at most `batch` of them) and sends them. Fails only when
  // the repository cannot claim; a mail that cannot be sent is counted in `failed`.
  Result<OutboxPass> RunOnce(storage::Timestamp now, int batch = 50);

  // Housekeeping, run by the outbox thread after each sending pass: deletes the mails sent
  // before now - config.keep_sent (storage PruneSentMail: never a mail not sent yet, never a
  // dead letter), in batches of `batch` rows, each its own short transaction, at most
  // `max_batches` a call. Does nothing when keep_sent is 0, or within kPruneInterval of the
  // last call that found no more to prune. Counts (pbemd_outbox_pruned_total) and logs
  // (event=outbox_pruned, once a call that pruned) what it deleted; returns how many.
  static constexpr std::chrono::minutes kPruneInterval{60};
  static constexpr int kPruneBatch = 500;
  static constexpr int kPruneBatchesPerPass = 20;
  Result<int> Prune(storage::Timestamp now, int batch = kPruneBatch,
                    int max_batches = kPruneBatchesPerPass);

 private:
  storage::GameRepository& repository_;
  Mailer& mailer_;
  std::string from_;
  std::string instance_;
  MailOutConfig config_;
  Metrics& metrics_;
  spdlog::logger& logger_;
  storage::Timestamp next_prune_{};  // Prune does nothing before
};

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_OUTBOX_SENDER_H_
