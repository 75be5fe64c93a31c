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
//     with per-order verdicts; a receipt or an error reply is queued either way.
// Nothing in a mail can stop the intake: every failure is a reply, a drop or (for a store
// failure) a retry at the next poll, the mail staying in the mailbox.
#ifndef PBEM_DAEMON_MAIL_INTAKE_H_
#define PBEM_DAEMON_MAIL_INTAKE_H_

#include <functional>
#include <optional>
#include <string>

#include "daemon/config.h"
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
  kRetryLater,  // the store failed: keep the mail
};

struct PollStats {
  int fetched = 0;
  int answered = 0;
  int dropped = 0;
  int kept = 0;  // left in the mailbox for the next poll
};

class MailIntake {
 public:
  // `on_mail_queued` is called after replies were queued (e.g. to wake the outbox); may be
  // empty. Every reference must outlive the intake.
  MailIntake(storage::GameRepository& repository, OrderDesk& desk, Metrics& metrics,
             spdlog::logger& logger, const DaemonConfig& config,
             std::function<void()> on_mail_queued = {});

  // With templates, the receipt of newly accepted orders is RenderReceipt's text and HTML in
  // the player's language (scenario: to name the units); its subject stays "Re: <original>"
  // so that it threads. Refusals and duplicates keep replies.cc's wording, which names the
  // exact problem. Set before the first poll; `templates` and `catalog` must outlive it.
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

 private:
  Disposition HandleUnsafe(const FetchedMessage& message, storage::Timestamp now);
  Status Reply(const storage::NewMail& mail);

  storage::GameRepository& repository_;
  OrderDesk& desk_;
  Metrics& metrics_;
  spdlog::logger& logger_;
  LimitsConfig limits_;
  std::string own_address_;
  std::function<void()> on_mail_queued_;
  const templates::MailTemplates* templates_ = nullptr;
  GameCatalog* catalog_ = nullptr;
  CommandHook command_hook_;
};

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_INTAKE_H_
