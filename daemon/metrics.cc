#include "daemon/metrics.h"

#include <sstream>

namespace pbem::daemon {
namespace {

void Counter(std::ostringstream& out, const char* name, const char* help, std::int64_t value) {
  out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << " counter\n"
      << name << ' ' << value << '\n';
}

}  // namespace

void Metrics::SubmissionAccepted(const std::string& channel) {
  std::lock_guard lock(mutex_);
  ++accepted_[channel];
}

void Metrics::SubmissionRejected(const std::string& channel, const std::string& reason) {
  std::lock_guard lock(mutex_);
  ++rejected_[{channel, reason}];
}

std::string Metrics::RenderPrometheus() const {
  std::ostringstream out;
  {
    std::lock_guard lock(mutex_);
    if (!instance_.empty()) {
      // Every counter below is this instance's; the label says which one it is (Prometheus
      // adds its own `instance` label, the scrape target, hence another name).
      out << "# HELP pbemd_instance_info This pbemd among those sharing one database.\n"
             "# TYPE pbemd_instance_info gauge\n"
          << "pbemd_instance_info{pbemd_instance=\"" << instance_ << "\"} 1\n";
    }
  }
  Counter(out, "pbemd_turns_resolved_total", "Turns resolved and committed.", turns_resolved_);
  Counter(out, "pbemd_turn_failures_total",
          "Failures of a game's turn job that were not a database outage (the game backs off, "
          "then is stuck).",
          turn_failures_);
  out << "# HELP pbemd_games_stuck Games whose turn job failed too often; listed by "
         "`pbem turns stuck`.\n"
         "# TYPE pbemd_games_stuck gauge\n"
      << "pbemd_games_stuck " << games_stuck_ << '\n';
  Counter(out, "pbemd_games_busy_total",
          "Games a scheduler pass skipped because another instance was working on them.",
          games_busy_);
  out << "# HELP pbemd_mail_intake_leader 1 while this instance reads the mailbox.\n"
         "# TYPE pbemd_mail_intake_leader gauge\n"
      << "pbemd_mail_intake_leader " << intake_leader_ << '\n';
  {
    std::lock_guard lock(mutex_);
    out << "# HELP pbemd_submissions_accepted_total Order submissions accepted.\n"
           "# TYPE pbemd_submissions_accepted_total counter\n";
    for (const char* channel : {"http", "mail"}) {
      const auto it = accepted_.find(channel);
      out << "pbemd_submissions_accepted_total{channel=\"" << channel << "\"} "
          << (it == accepted_.end() ? 0 : it->second) << '\n';
    }
    out << "# HELP pbemd_submissions_rejected_total Order submissions rejected, by reason.\n"
           "# TYPE pbemd_submissions_rejected_total counter\n";
    for (const auto& [key, value] : rejected_) {
      out << "pbemd_submissions_rejected_total{channel=\"" << key.first << "\",reason=\""
          << key.second << "\"} " << value << '\n';
    }
  }
  Counter(out, "pbemd_submissions_duplicate_total",
          "Order submissions recognised as duplicates (accepted once).", submissions_duplicate_);
  Counter(out, "pbemd_mails_sent_total", "Outbox mails handed to the transport.", mails_sent_);
  Counter(out, "pbemd_mails_failed_total", "Failed attempts to send an outbox mail.",
          mails_failed_);
  Counter(out, "pbemd_mails_dead_lettered_total",
          "Outbox mails dead-lettered (refused for good, or failed too often); "
          "listed by `pbem outbox dead`.",
          mails_dead_lettered_);
  Counter(out, "pbemd_mails_queued_total", "Mails put into the outbox by this process.",
          mails_queued_);
  Counter(out, "pbemd_outbox_pruned_total",
          "Sent outbox mails deleted once past pbemd.outbox.keep_sent_days.", outbox_pruned_);
  Counter(out, "pbemd_mails_dropped_total",
          "Incoming mails dropped without reply (unknown sender).", mails_dropped_);
  Counter(out, "pbemd_mail_quarantined_total",
          "Incoming mails moved to the quarantine folder after failing to process twice.",
          mails_quarantined_);
  Counter(out, "pbemd_mail_refusal_replies_withheld_total",
          "Refused mails stored but not answered: their sender, proven by no token, had "
          "pbemd.mail.in.refusal_replies_per_hour refusals mailed in the last hour.",
          refusal_replies_withheld_);
  out << "# HELP pbemd_mailbox_polls_total Mailbox polls, by outcome.\n"
         "# TYPE pbemd_mailbox_polls_total counter\n"
      << "pbemd_mailbox_polls_total{outcome=\"ok\"} " << mailbox_polls_ok_ << '\n'
      << "pbemd_mailbox_polls_total{outcome=\"failed\"} " << mailbox_polls_failed_ << '\n';
  out << "# HELP pbemd_database_up 1 while the database can be reached, 0 while it cannot.\n"
         "# TYPE pbemd_database_up gauge\n"
      << "pbemd_database_up " << (database_down().has_value() ? 0 : 1) << '\n';
  Counter(out, "pbemd_database_reconnects_total",
          "Database connections made again after they broke.", database_reconnects_);
  return out.str();
}

}  // namespace pbem::daemon
