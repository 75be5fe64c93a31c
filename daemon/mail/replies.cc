#include "daemon/mail/replies.h"

#include <string>
#include <vector>

#include "engine/hex/hex.h"
#include "proto/codec/codec.h"
#include "proto/codec/shown.h"

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

}  // namespace

std::string VerdictText(const engine::OrderVerdict& v, int label_width) {
  std::string line;
  if (v.order_kind == engine::OrderKind::kHeader) {
    line = "header";
  } else {
    line = std::string(engine::OrderKindName(v.order_kind)) + " " + std::to_string(v.index + 1);
    if (!v.unit.empty()) line += " (" + codec::Shown(v.unit) + ")";
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
      line += codec::Shown(codec::FormatArg(arg));  // text the player wrote, cut
    }
  }
  return line;
}

std::string SystemVerdictText(const game_system::Verdict& verdict, std::size_t index) {
  std::string line = verdict.order + " " + std::to_string(index + 1);
  if (!verdict.unit.empty()) line += " (" + codec::Shown(verdict.unit) + ")";
  line += ": ";
  line += game_system::VerdictKindName(verdict.kind);
  if (!verdict.reason.empty()) line += ", " + verdict.reason;
  for (const game_system::Arg& arg : verdict.args) {
    line += " " + arg.name + "=" + codec::Shown(arg.value);
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
  for (const game_system::Verdict& v : info.system_verdicts) {
    (v.kind == engine::VerdictKind::kOk) ? ++ok : ++problems;
  }
  body += "\nVerdicts (" + std::to_string(ok + problems) + " orders: " + std::to_string(ok) +
          " ok, " + std::to_string(problems) + " with a problem):\n";
  for (const engine::OrderVerdict& v : info.verdicts) {
    body += "  " + VerdictText(v, info.label_width) + "\n";
  }
  for (std::size_t i = 0; i < info.system_verdicts.size(); ++i) {
    body += "  " + SystemVerdictText(info.system_verdicts[i], i) + "\n";
  }
  body +=
      "\nOrders that are invalid or illegal will not be carried out. To change your orders, "
      "send the whole set again before the deadline; the last set received counts.\n";
  mail.body = std::move(body);
  return mail;
}

templates::ErrorKind ErrorKindOf(const std::string& code) {
  using templates::ErrorKind;
  if (code == kOversized) return ErrorKind::kOversized;
  if (code == kWrongGame || code == kGameOver) return ErrorKind::kWrongGame;
  if (code == kStaleTurn) return ErrorKind::kStaleTurn;
  if (code == kUnauthenticated) return ErrorKind::kUnauthenticated;
  if (code == kRejectedOrders) return ErrorKind::kIllegal;
  if (code == kGameUnavailable) return ErrorKind::kUnavailable;
  return ErrorKind::kMalformed;
}

storage::NewMail ErrorMail(const templates::MailTemplates& templates, templates::Language language,
                           templates::ErrorReplyInput refusal, storage::Timestamp now,
                           std::string* render_error) {
  templates::ErrorReplyInput input = refusal;
  input.kind = ErrorKindOf(refusal.code);
  // The templates put "Re: " in front of the subject themselves.
  std::string& subject = input.original_subject;
  while (subject.size() >= 3 && (subject[0] == 'R' || subject[0] == 'r') &&
         (subject[1] == 'E' || subject[1] == 'e') && subject[2] == ':') {
    const std::size_t rest = subject.find_first_not_of(' ', 3);
    subject.erase(0, rest == std::string::npos ? subject.size() : rest);
  }
  if (subject.empty()) {
    subject = refusal.game_id.empty() ? "[pbem] orders" : "[pbem " + refusal.game_id + "] orders";
  }
  std::erase_if(input.verdicts, [](const engine::OrderVerdict& v) {
    return v.verdict == engine::VerdictKind::kOk;
  });
  if (input.kind == templates::ErrorKind::kIllegal &&
      (!input.verdicts.empty() || !input.system_verdicts.empty())) {
    // The detail is the failed verdict's machine form; the template lists that verdict in
    // words (templates' VerdictSentence), so the codes are not shown twice.
    input.detail.clear();
  }
  if (input.kind == templates::ErrorKind::kMalformed) {
    // A malformed mail's detail is its problem, listed by the template.
    if (input.problems.empty()) input.problems.push_back(refusal.detail);
    input.detail.clear();
  }

  templates::Mail rendered;
  const templates::Status made = templates.RenderErrorReply(language, input, &rendered);
  if (!made.ok) {
    if (render_error != nullptr) *render_error = made.message;
    return PlainErrorMail(refusal, now);
  }
  storage::NewMail mail;
  mail.recipient = refusal.player;
  mail.next_try = now;
  mail.subject = rendered.subject;
  mail.body = rendered.text;
  mail.attachments.push_back(storage::Attachment{"", "text/html", rendered.html});
  return mail;
}

storage::NewMail PlainErrorMail(const templates::ErrorReplyInput& refusal, storage::Timestamp now) {
  storage::NewMail mail;
  mail.recipient = refusal.player;
  mail.next_try = now;
  const std::string tag = refusal.game_id.empty() ? "[pbem]" : "[pbem " + refusal.game_id + "]";
  mail.subject = ReplySubject(refusal.original_subject, tag + " orders refused");
  mail.body = "Error: " + refusal.code + "\nDetail: " + refusal.detail + "\n";
  return mail;
}

}  // namespace pbem::daemon::mail
