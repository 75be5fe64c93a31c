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
  Counter(out, "pbemd_turns_resolved_total", "Turns resolved and committed.", turns_resolved_);
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
  Counter(out, "pbemd_mails_queued_total", "Mails put into the outbox by this process.",
          mails_queued_);
  Counter(out, "pbemd_mails_dropped_total",
          "Incoming mails dropped without reply (unknown sender).", mails_dropped_);
  out << "# HELP pbemd_mailbox_polls_total Mailbox polls, by outcome.\n"
         "# TYPE pbemd_mailbox_polls_total counter\n"
      << "pbemd_mailbox_polls_total{outcome=\"ok\"} " << mailbox_polls_ok_ << '\n'
      << "pbemd_mailbox_polls_total{outcome=\"failed\"} " << mailbox_polls_failed_ << '\n';
  return out.str();
}

}  // namespace pbem::daemon
