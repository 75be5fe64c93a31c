#include "daemon/mail/outbox_sender.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "daemon/fault_point.h"

namespace pbem::daemon::mail {

storage::Timestamp NextAttempt(storage::Timestamp now, std::int64_t failed_attempts,
                               std::chrono::seconds base, std::chrono::seconds max) {
  std::chrono::seconds delay = base;
  for (std::int64_t i = 1; i < failed_attempts && delay < max; ++i) delay *= 2;
  return now + std::min(delay, max);
}

OutboxSender::OutboxSender(storage::GameRepository& repository, Mailer& mailer, std::string from,
                           std::string instance, const MailOutConfig& config, Metrics& metrics,
                           spdlog::logger& logger)
    : repository_(repository),
      mailer_(mailer),
      from_(std::move(from)),
      instance_(std::move(instance)),
      config_(config),
      metrics_(metrics),
      logger_(logger) {}

Result<OutboxPass> OutboxSender::RunOnce(storage::Timestamp now, int batch) {
  Result<std::vector<storage::OutboxMail>> due = repository_.ClaimDueMail(
      now, batch, instance_,
      std::chrono::duration_cast<std::chrono::milliseconds>(config_.claim_lease));
  if (!due.ok()) return due.status();
  OutboxPass pass;
  for (const storage::OutboxMail& mail : *due) {
    Status sent = Status::Ok();
    Result<OutgoingMessage> message = BuildMimeMessage(mail, from_);
    sent = message.ok() ? mailer_.Send(*message) : message.status();
    if (sent.ok()) {
      // TEST-ONLY (daemon/fault_point.h): the mail is out, not yet marked sent.
      FaultPoint(kFaultOutboxAfterSend, "mail=" + message->name);
      Status marked = repository_.MarkMailSent(mail.id, now);
      if (!marked.ok()) {
        // Sent but not marked: it will be sent again (at least once beats at most once).
        logger_.error("event=outbox_mark_failed mail_id={} error={}", mail.id,
                      QuoteLogValue(marked.ToString()));
      }
      metrics_.MailSent();
      ++pass.sent;
      logger_.info("event=mail_sent mail_id={} to={} attempts={}", mail.id,
                   QuoteLogValue(mail.recipient), mail.attempts + 1);
      continue;
    }
    const std::int64_t attempts = mail.attempts + 1;
    const bool for_good = sent.code() == StatusCode::kInvalidArgument;
    const bool dead = for_good || attempts >= config_.max_attempts;
    const storage::Timestamp next =
        NextAttempt(now, attempts, config_.retry_base, config_.retry_max);
    Status marked = dead ? repository_.MarkMailDead(mail.id, now, sent.message())
                         : repository_.MarkMailFailed(mail.id, next, sent.message());
    metrics_.MailFailed();
    ++pass.failed;
    if (dead) {
      metrics_.MailDeadLettered();
      ++pass.dead;
      logger_.error("event=mail_dead_letter mail_id={} to={} attempts={} reason={} error={}",
                    mail.id, QuoteLogValue(mail.recipient), attempts,
                    for_good ? "refused" : "too_many_attempts", QuoteLogValue(sent.message()));
    } else {
      logger_.warn("event=mail_failed mail_id={} to={} attempts={} retry_in_s={} error={}", mail.id,
                   QuoteLogValue(mail.recipient), attempts,
                   std::chrono::duration_cast<std::chrono::seconds>(next - now).count(),
                   QuoteLogValue(sent.message()));
    }
    if (!marked.ok()) {
      // Not recorded: the mail is due again when its claim runs out, and tried again.
      logger_.error("event=outbox_mark_failed mail_id={} error={}", mail.id,
                    QuoteLogValue(marked.ToString()));
    }
  }
  return pass;
}

Result<int> OutboxSender::Prune(storage::Timestamp now, int batch, int max_batches) {
  if (config_.keep_sent.count() <= 0 || now < next_prune_) return 0;
  const storage::Timestamp sent_before = now - config_.keep_sent;
  int pruned = 0;
  bool more = false;  // every batch was full: there may be more
  Status failed = Status::Ok();
  for (int i = 0; i < max_batches; ++i) {
    Result<int> deleted = repository_.PruneSentMail(sent_before, batch);
    if (!deleted.ok()) {
      failed = deleted.status();
      more = false;
      break;
    }
    pruned += *deleted;
    more = *deleted >= batch;
    if (!more) break;
  }
  // A backlog (as after an upgrade) goes on at the next pass; otherwise in an hour, also after
  // a failure (logged by the caller once, not at every pass).
  next_prune_ = more ? now : now + kPruneInterval;
  if (pruned > 0) {
    metrics_.OutboxPruned(pruned);
    logger_.info("event=outbox_pruned mails={} keep_sent_days={} more={}", pruned,
                 config_.keep_sent.count(), more);
  }
  if (!failed.ok()) return failed;
  return pruned;
}

}  // namespace pbem::daemon::mail
