// The mail commands anyone may send to pbemd's address (issue 14 point 12), beside orders,
// "resign" and "join" (daemon/league_api.h). A command is a line alone in the mail's text body
// (mail::FindCommandLine: the keyword in any case, no regular expression):
//   status [GAME]    the state of GAME for the sender: turn, side to move, deadline, whether
//                    the sender's orders are in. Without GAME: the game the subject (or a
//                    game_id field) names, as the intake finds it; else every game the
//                    sender plays (at most kMaxListedGames). When it is the sender's move in
//                    the one game of the reply, it carries the side's orders template,
//                    attached and quoted, as a results mail does (orders_template.h).
//   archive [GAME]   the links to GAME's history page and to its verifiable archive file, and
//                    the file itself attached (GAME.pbem; `pbem verify GAME.pbem` checks it).
//   help [en|fr]     how to play by mail: the commands, how to send orders, the links.
//   aide             the same, in French.
// The sender is known by the From address, as for orders. An address that plays no game named
// gets the help only (in English, or the language asked), never the state of a game. Replies
// are in the player's language (EN/FR), worded in templates/mail/<lang>/command_*.{subject,txt}
// (MailTemplates::RenderCommandReply), greeting the player by name when they have one. A mail
// whose body parses as orders is never a command.
#ifndef PBEM_DAEMON_MAIL_COMMANDS_H_
#define PBEM_DAEMON_MAIL_COMMANDS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "daemon/mail/inbound.h"
#include "daemon/mail/intake.h"
#include "storage/game_repository.h"

namespace pbem::templates {
class MailTemplates;
}  // namespace pbem::templates

namespace pbem::daemon {
class GameCatalog;
}  // namespace pbem::daemon

namespace pbem::daemon::mail {

enum class CommandKind { kStatus, kArchive, kHelp };

struct MailCommand {
  CommandKind kind = CommandKind::kHelp;
  std::string game_id;   // as written after status/archive; empty when none was given
  std::string language;  // help's argument ("en", "fr"; "fr" for "aide"); empty when none
  // A game id that is not an identifier (daemon/validate.h IsGameId) is kept here, cut to
  // 64 bytes and made one line, to be named in the reply; game_id is then empty.
  std::string bad_game_id;
};

// The command a mail carries: the first text part (not an attachment, readable) holding one
// of the command lines above, looked for in the order status, archive, help, aide. nullopt
// when there is none, or when some part of the mail parses as orders (orders are never taken
// for a command). Pure: no store, no clock.
std::optional<MailCommand> FindMailCommand(const InboundMail& mail);

// At most this many games in a "status" reply that lists the sender's games.
inline constexpr std::size_t kMaxListedGames = 20;
// A larger archive is not attached; the reply gives its link only.
inline constexpr std::size_t kMaxArchiveAttachmentBytes = std::size_t{4} << 20;

struct CommandServices {
  GameCatalog* catalog = nullptr;                       // REQUIRES: not null (the state of a game)
  const templates::MailTemplates* templates = nullptr;  // REQUIRES: not null (the wording)
  std::string address;  // pbemd's own address (pbemd.mail.from): where orders are sent
  // Where players reach pbemd over HTTP ("http://host:port", no trailing '/'): the links of
  // the replies. Empty: the replies give no link.
  std::string public_url;
};

// Handles the command mail `mail` (sender known by its From): queues one reply to the sender
// in `repository`'s outbox and returns kAnswered; kRetryLater when the store failed (nothing
// queued); kDropped when the From is no usable address; kFailed when the reply cannot be
// worded (a template bug: the templates are checked when loaded). nullopt when the mail carries no
// command (FindMailCommand), to be read as orders.
std::optional<Disposition> HandleCommandMail(const CommandServices& services,
                                             const InboundMail& mail,
                                             storage::GameRepository& repository,
                                             storage::Timestamp now);

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_COMMANDS_H_
