// MailIntake: reads order mails from a Mailbox, judges them (OrderDesk), stores them, answers
// at once through the outbox, and deletes each mail only after what it carried is stored.
//
// Per mail:
//   - larger than limits.max_message_bytes           -> "oversized" (headers still read)
//   - MIME beyond the part / depth caps, or no part holding orders that parse
//                                                     -> "malformed", with the parse error
//   - the sender is identified as a player of the game the orders (or, when they do not
//     parse, the game id they mention or the subject's words) name; a sender who is no
//     player there is logged and dropped WITHOUT reply (no backscatter), as are mails that
//     are auto-submitted (bounces, vacation replies) or come from pbemd's own address
//   - then OrderDesk: wrong_game, unauthenticated, stale_turn, rejected_orders, or accepted
//     with per-order verdicts; a receipt or an error reply is queued either way, except that
//     an address no token proved gets at most pbemd.mail.in.refusal_replies_per_hour refusals
//     an hour (anyone can write a player's address in From:): further ones are stored, logged
//     (event=refusal_reply_withheld) and counted, not answered.
// Nothing in a mail can stop the intake: every failure is a reply, a drop or (for a store
// failure) a retry at the next poll, the mail staying in the mailbox.
//
// Quarantine (issue 13, finding 1): before a mail is processed the intake records the attempt
// on disk (AttemptLog, <data_dir>/mail-attempts), and clears it after. A mail whose processing
// threw, or took pbemd down, keeps its record; one found with AttemptLog::kMaxAttempts (2)
// attempts is not processed again: it is moved to the quarantine folder
// (pbemd.mail.in.quarantine_folder), logged (event=mail_quarantined), counted
// (pbemd_mail_quarantined_total), and its sender, when the From is a usable address (not
// auto-submitted, not pbemd's own), is told in their language when they play a game the
// subject names, else in English. A store failure (the database down) is not the mail's fault
// and counts no attempt.
//
// Test-only fault point intake.before_handle (daemon/fault_point.h), e.g.
// PBEM_FAULT=intake.before_handle:abort:poison makes pbemd abort while processing a mail whose
// subject contains "poison" (tests/mail/mail_quarantine.sh). Never set it in production.
//
// Several pbemd on one database read the mailbox one at a time: PollIfLeader polls only while
// this instance holds the lock kIntakeLock (GameRepository::TryLock), which it takes at the
// first poll it can and keeps until it stops or dies (its connection closes, the lock frees,
// and another instance's next poll takes it).
#ifndef PBEM_DAEMON_MAIL_INTAKE_H_
#define PBEM_DAEMON_MAIL_INTAKE_H_

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "daemon/config.h"
#include "daemon/mail/attempts.h"
#include "daemon/mail/inbound.h"
#include "daemon/mail/mailbox.h"
#include "daemon/metrics.h"
#include "daemon/order_desk.h"
#include "storage/game_repository.h"

namespace pbem::templates {
class MailTemplates;
}  // namespace pbem::templates

namespace spdlog {
class logger;
}  // namespace spdlog

namespace pbem::daemon::mail {

enum class Disposition {
  kAnswered,    // stored (or a duplicate) and a reply queued: delete the mail
  kDropped,     // unknown sender or auto-submitted: delete without reply
  kRetryLater,  // the store failed: keep the mail (an attempt, unless the database is down)
  kFailed,      // processing threw (a bug): keep the mail; the attempt stays recorded
};

struct PollStats {
  int fetched = 0;
  int answered = 0;
  int dropped = 0;
  int kept = 0;         // left in the mailbox for the next poll
  int quarantined = 0;  // moved to the quarantine folder
};

// The lock of the instance that reads the mailbox.
inline constexpr const char* kIntakeLock = "mail-intake";

class MailIntake {
 public:
  // `on_mail_queued` is called after replies were queued (e.g. to wake the outbox); may be
  // empty. Every reference must outlive the intake.
  MailIntake(storage::GameRepository& repository, OrderDesk& desk, Metrics& metrics,
             spdlog::logger& logger, const DaemonConfig& config,
             std::function<void()> on_mail_queued = {});

  // With templates, the receipt of newly accepted orders is RenderReceipt's text and HTML in
  // the player's language (scenario: to name the units); its subject stays "Re: <original>"
  // so that it threads. A refusal is RenderErrorReply's text and HTML in the player's
  // language, with the stable error code and the sentence naming the exact problem (see
  // replies.h); without templates only the code and the sentence. Duplicates keep replies.cc's
  // receipt. Set before the first poll; `templates` and `catalog` must outlive it.
  void UseTemplates(const templates::MailTemplates* templates, GameCatalog* catalog) {
    templates_ = templates;
    catalog_ = catalog;
  }

  // A command mail (a resignation: daemon/league_api.h) is offered to the hook first: nullopt
  // lets the intake read it as orders; a disposition ends the mail's handling there (the hook
  // queued its own reply). Set before the first poll.
  using CommandHook =
      std::function<std::optional<Disposition>(const InboundMail&, storage::Timestamp)>;
  void UseCommandHook(CommandHook hook) { command_hook_ = std::move(hook); }

  // Judges and stores one mail and queues its reply.
  Disposition Handle(const FetchedMessage& message, storage::Timestamp now);

  // One pass over the mailbox: every message is fetched, handled and, unless kRetryLater,
  // deleted. Fails only when the mailbox cannot be listed.
  Result<PollStats> PollOnce(Mailbox& mailbox, storage::Timestamp now);

  // PollOnce while this instance holds (or can take) kIntakeLock; nullopt, and the mailbox left
  // alone, while another instance holds it. Reports leadership changes to the log and metrics.
  Result<std::optional<PollStats>> PollIfLeader(Mailbox& mailbox, storage::Timestamp now);
  // Lets kIntakeLock go (at shutdown), for another instance to take at once.
  void StepDown();

 private:
  Disposition HandleUnsafe(const FetchedMessage& message, storage::Timestamp now);
  // Tells the sender (once), moves the mail to the quarantine folder and forgets its attempts.
  // False when it stays in the mailbox for the next poll (the reply or the move failed).
  bool Quarantine(Mailbox& mailbox, std::uint32_t uid, const FetchedMessage& message,
                  const std::string& key, int attempts, storage::Timestamp now);
  // The reply telling the sender of `mail` that it went to quarantine.
  storage::NewMail QuarantineMail(const InboundMail& mail, storage::Timestamp now);
  Status Reply(const storage::NewMail& mail);
  // Counts a refusal to `address`, whose sender no token proved, when fewer than
  // refusal_replies_per_hour were mailed to it in the hour before `now`; false otherwise.
  bool UnprovenRefusalAllowed(const std::string& address, storage::Timestamp now);
  // The refusal of `mail` from `player` of `game`; `orders` when they parsed, else null.
  storage::NewMail RefusalMail(const storage::Game& game, const storage::Player& player,
                               const pbem::v1::Orders* orders, const FetchedMessage& message,
                               const InboundMail& mail, const DeskOutcome& outcome,
                               storage::Timestamp now);

  storage::GameRepository& repository_;
  OrderDesk& desk_;
  Metrics& metrics_;
  spdlog::logger& logger_;
  LimitsConfig limits_;
  std::string own_address_;
  std::string quarantine_folder_;
  AttemptLog attempts_;
  std::function<void()> on_mail_queued_;
  const templates::MailTemplates* templates_ = nullptr;
  GameCatalog* catalog_ = nullptr;
  // The refusals mailed in the last hour to each address no token proved (at most
  // refusal_replies_per_hour each; only players' addresses get refusals, so few keys).
  int refusal_replies_per_hour_;
  std::map<std::string, std::deque<storage::Timestamp>> unproven_refusals_;
  bool leader_ = false;
  bool told_follower_ = false;  // logged once that another instance reads the mailbox
  CommandHook command_hook_;
};

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_INTAKE_H_
