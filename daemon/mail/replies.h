// The wording of every reply pbemd sends at once to an order submission: the receipt (with
// one line per order verdict) and the error replies. All player-facing text of mail intake
// lives in this one file so that it can be replaced by the mail templates (templates/) later
// without touching the intake logic.
#ifndef PBEM_DAEMON_MAIL_REPLIES_H_
#define PBEM_DAEMON_MAIL_REPLIES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/verdict.h"
#include "storage/game_repository.h"

namespace pbem::daemon::mail {

// Stable codes of refused submissions (metrics labels, stored reasons, HTTP error codes).
inline constexpr const char* kOversized = "oversized";
inline constexpr const char* kMalformed = "malformed";
inline constexpr const char* kWrongGame = "wrong_game";
inline constexpr const char* kStaleTurn = "stale_turn";
inline constexpr const char* kUnauthenticated = "unauthenticated";
inline constexpr const char* kRejectedOrders = "rejected_orders";  // a header verdict failed
inline constexpr const char* kGameUnavailable = "game_unavailable";

struct ReceiptInfo {
  std::string game_id;
  std::int64_t turn = 0;
  std::string side;
  std::vector<engine::OrderVerdict> verdicts;
  int label_width = 2;
  bool duplicate = false;  // the same orders were received before; nothing changed
  std::string original_subject;
};

// "move 2 (b-i1): illegal, path_not_adjacent 0405 0607" (header verdicts start "header").
std::string VerdictText(const engine::OrderVerdict& verdict, int label_width);

// The receipt for accepted orders: subject "Re: <original>" or "[pbem GAME] orders received
// for turn T", one line per verdict.
storage::NewMail ReceiptMail(const std::string& to, const ReceiptInfo& info,
                             storage::Timestamp now);

// A refusal: names the problem (`code`, one of the constants above) and its detail.
storage::NewMail ErrorMail(const std::string& to, const std::string& game_id,
                           const std::string& code, const std::string& detail,
                           const std::string& original_subject, storage::Timestamp now);

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_REPLIES_H_
