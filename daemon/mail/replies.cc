#include "daemon/mail/replies.h"

#include "engine/hex.h"
#include "proto/codec/codec.h"

namespace pbem::daemon::mail {
namespace {

std::string ReplySubject(const std::string& original, const std::string& fallback) {
  if (original.empty()) return fallback;
  if (original.size() >= 3 &&
      (original.compare(0, 3, "Re:") == 0 || original.compare(0, 3, "RE:") == 0)) {
    return original;
  }
  return "Re: " + original;
}

const char* Explain(const std::string& code) {
  if (code == kOversized) return "Your mail is larger than this game accepts.";
  if (code == kMalformed) return "No orders could be read from your mail.";
  if (code == kWrongGame) return "Your orders are for another game than the one you play.";
  if (code == kStaleTurn) return "Your orders are not for the turn being played.";
  if (code == kUnauthenticated) {
    return "Your orders could not be authenticated: they must carry your token and your side.";
  }
  if (code == kRejectedOrders) return "Your orders were refused as a whole.";
  if (code == kGameUnavailable) return "The game cannot take orders at the moment.";
  return "Your mail was refused.";
}

}  // namespace

std::string VerdictText(const engine::OrderVerdict& v, int label_width) {
  std::string line;
  if (v.order_kind == engine::OrderKind::kHeader) {
    line = "header";
  } else {
    line = std::string(engine::OrderKindName(v.order_kind)) + " " + std::to_string(v.index + 1);
    if (!v.unit.empty()) line += " (" + v.unit + ")";
  }
  line += ": ";
  line += engine::VerdictKindName(v.verdict);
  if (v.reason != engine::Reason::kNone) {
    line += ", ";
    line += engine::ReasonCode(v.reason);
  }
  for (const engine::Arg& arg : v.args) {
    line += " ";
    if (const auto* hex = std::get_if<engine::Hex>(&arg)) {
      line += engine::FormatLabel(*hex, label_width);
    } else {
      line += codec::FormatArg(arg);
    }
  }
  return line;
}

storage::NewMail ReceiptMail(const std::string& to, const ReceiptInfo& info,
                             storage::Timestamp now) {
  storage::NewMail mail;
  mail.recipient = to;
  mail.next_try = now;
  mail.subject =
      ReplySubject(info.original_subject, "[pbem " + info.game_id + "] orders received for turn " +
                                              std::to_string(info.turn));
  std::string body = "Game " + info.game_id + ", turn " + std::to_string(info.turn) + ", side " +
                     info.side + ": your orders are received.\n";
  if (info.duplicate) {
    body += "You had sent these orders already; they are kept once and nothing changed.\n";
  }
  int ok = 0;
  int problems = 0;
  for (const engine::OrderVerdict& v : info.verdicts) {
    (v.verdict == engine::VerdictKind::kOk) ? ++ok : ++problems;
  }
  body += "\nVerdicts (" + std::to_string(info.verdicts.size()) + " orders: " + std::to_string(ok) +
          " ok, " + std::to_string(problems) + " with a problem):\n";
  for (const engine::OrderVerdict& v : info.verdicts) {
    body += "  " + VerdictText(v, info.label_width) + "\n";
  }
  body +=
      "\nOrders that are invalid or illegal will not be carried out. To change your orders, "
      "send the whole set again before the deadline; the last set received counts.\n";
  mail.body = std::move(body);
  return mail;
}

storage::NewMail ErrorMail(const std::string& to, const std::string& game_id,
                           const std::string& code, const std::string& detail,
                           const std::string& original_subject, storage::Timestamp now) {
  storage::NewMail mail;
  mail.recipient = to;
  mail.next_try = now;
  const std::string tag = game_id.empty() ? "[pbem]" : "[pbem " + game_id + "]";
  mail.subject = ReplySubject(original_subject, tag + " orders refused");
  mail.body = std::string(Explain(code)) + "\n\nError: " + code + "\nDetail: " + detail +
              "\n\nNothing was changed in the game. Correct the problem and send your orders "
              "again.\n";
  return mail;
}

}  // namespace pbem::daemon::mail
