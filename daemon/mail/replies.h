// The replies pbemd sends at once to an order submission: the receipt (with one line per order
// verdict) and the refusals. A refusal's words are the mail templates' (templates/mail/<lang>/
// error_<kind>.*, rendered by MailTemplates::RenderErrorReply in the player's language), with
// the stable error code and the sentence naming the exact problem under them; PlainErrorMail is
// only the fallback when no templates are at hand (unit tests) or rendering fails.
#ifndef PBEM_DAEMON_MAIL_REPLIES_H_
#define PBEM_DAEMON_MAIL_REPLIES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/morne_plaine/verdict.h"
#include "engine/system/game_system.h"
#include "storage/game_repository.h"
#include "templates/mail_render.h"

namespace pbem::daemon::mail {

// Stable codes of refused submissions (metrics labels, stored reasons, HTTP error codes).
inline constexpr const char* kOversized = "oversized";
inline constexpr const char* kMalformed = "malformed";
inline constexpr const char* kWrongGame = "wrong_game";
inline constexpr const char* kStaleTurn = "stale_turn";
inline constexpr const char* kUnauthenticated = "unauthenticated";
inline constexpr const char* kRejectedOrders = "rejected_orders";  // a header verdict failed
inline constexpr const char* kGameUnavailable = "game_unavailable";
// The game is over (won, drawn, resigned or forfeited): it takes no more orders. Mailed with
// the wrong_game template, which words "unknown or finished game".
inline constexpr const char* kGameOver = "game_over";

struct ReceiptInfo {
  std::string game_id;
  std::int64_t turn = 0;
  std::string side;
  std::vector<engine::OrderVerdict> verdicts;
  std::vector<game_system::Verdict> system_verdicts;  // a game of another system: these instead
  int label_width = 2;
  bool duplicate = false;  // the same orders were received before; nothing changed
  std::string original_subject;
};

// The verdict's machine form, "move 2 (b-i1): illegal, path_not_adjacent 0405 0607" (header
// verdicts start "header"): for the stored refusal detail, logs, and the plain fallback mails
// sent when no templates are loaded. What players read is templates' VerdictSentence.
std::string VerdictText(const engine::OrderVerdict& verdict, int label_width);
// The same for a verdict of another system at position `index` (0-based) of its orders:
// "action 2 (b_sq1): invalid, PATH_START_NOT_CURRENT value=1500".
std::string SystemVerdictText(const game_system::Verdict& verdict, std::size_t index);

// The receipt for accepted orders: subject "Re: <original>" or "[pbem GAME] orders received
// for turn T", one line per verdict.
storage::NewMail ReceiptMail(const std::string& to, const ReceiptInfo& info,
                             storage::Timestamp now);

// The template kind of an error code (kRejectedOrders -> kIllegal, kGameUnavailable ->
// kUnavailable; an unknown code -> kMalformed).
templates::ErrorKind ErrorKindOf(const std::string& code);

// The refusal in `language`, from the templates. `refusal` is filled as the intake knows it:
// player (the recipient), game_id, original_subject, code (one of the constants above) and
// detail (the sentence naming the exact problem), and what the kind shows (verdicts, turns,
// sizes); ErrorMail sets the kind from the code, keeps only the verdicts that are not ok, and
// lists a malformed mail's detail as its problem. Subject "Re: <original subject>: <what>"
// ("Re:" never doubled), text and HTML (the HTML as an attachment with no file name, see
// mailer.h). A template that fails to render gives PlainErrorMail (the error in
// *render_error when not null).
storage::NewMail ErrorMail(const templates::MailTemplates& templates, templates::Language language,
                           templates::ErrorReplyInput refusal, storage::Timestamp now,
                           std::string* render_error = nullptr);

// Without templates: subject "Re: <original>" (or "[pbem GAME] orders refused"), and the code
// and the detail alone ("Error: CODE", "Detail: SENTENCE").
storage::NewMail PlainErrorMail(const templates::ErrorReplyInput& refusal, storage::Timestamp now);

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_REPLIES_H_
