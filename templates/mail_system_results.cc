// The results mail of another game system than Morne Plaine (templates/mail_render.h,
// MailTemplates::RenderSystemResults): system_results.{subject,txt,html} over the mover's
// verdicts and the turn's events worded by the system's SystemWords (loaded by
// MailTemplates::Load), the order lines by events.table "system_verdict". Every sentence is
// built as plain text and escaped by the HTML template like any other value.
#include <algorithm>
#include <kainjow/mustache.hpp>
#include <utility>
#include <vector>

#include "proto/codec/shown.h"
#include "templates/mail_render.h"
#include "templates/mail_text.h"
#include "templates/mail_view.h"

namespace pbem::templates {

namespace {

namespace mst = kainjow::mustache;

using detail::ListOf;
using detail::MailRenderer;
using detail::Num;

constexpr std::string_view kKind = "system_results";

// A list item starts with a capital: the systems' sentences start in lower case, to be said
// after a colon as well ("refused: model b_sq1_1 would move ..."). Their first letter is ASCII
// ("unit", "l'unité", "le socle"); anything else is left as it is.
std::string Capitalized(std::string sentence) {
  if (!sentence.empty() && sentence[0] >= 'a' && sentence[0] <= 'z') {
    sentence[0] = static_cast<char>(sentence[0] - 'a' + 'A');
  }
  return sentence;
}

mst::data Item(const std::string& text) {
  mst::data item;
  item.set("text", text);
  return item;
}

// The line of one order: "Order 2 (b_sq1): refused: model b_sq1_1 would move ...", escaped
// for HTML when `html`.
Status VerdictLine(const MailTemplates::LanguageSet& set, const SystemWords& words,
                   const game_system::Verdict& verdict, std::size_t index, bool html,
                   std::string* out) {
  std::string reason;
  if (Status s = words.Sentence(verdict, &reason); !s.ok) return s;
  mst::data f;
  f.set("number", Num(static_cast<std::int64_t>(index + 1)));
  f.set("unit", codec::Shown(verdict.unit));
  f.set("has_unit", !verdict.unit.empty());
  f.set("ok", verdict.kind == game_system::VerdictKind::kOk);
  f.set("invalid", verdict.kind == game_system::VerdictKind::kInvalid);
  f.set("illegal", verdict.kind == game_system::VerdictKind::kIllegal);
  f.set("partial", verdict.kind == game_system::VerdictKind::kPartial);
  f.set("has_reason", !reason.empty());
  f.set("reason", reason);
  return detail::Render(set.events.at("system_verdict"), f, html, out, "system_verdict");
}

// The mail's fields, the same for the text and the HTML body.
Status ResultsData(const MailTemplates::LanguageSet& set, const SystemWords& words,
                   const SystemResultsInput& in, mst::data* out) {
  const MailRenderer plain(set, nullptr, false);
  const detail::Words& w = plain.words_;
  mst::data d;
  d.set("game", in.game_id);
  d.set("turn", Num(in.turn));
  d.set("side", w.Side(in.side));
  d.set("player", in.player);
  detail::SetGreeting(d, in.player_name);

  std::vector<mst::data> verdicts;
  std::int64_t ok = 0;
  for (std::size_t i = 0; i < in.verdicts.size(); ++i) {
    std::string line;
    if (Status s = VerdictLine(set, words, in.verdicts[i], i, false, &line); !s.ok) {
      return Status::Error("results mail of " + in.system + ", game " + in.game_id + ": order " +
                           Num(static_cast<std::int64_t>(i + 1)) + ": " + s.message);
    }
    verdicts.push_back(Item(line));
    ok += in.verdicts[i].kind == game_system::VerdictKind::kOk ? 1 : 0;
  }
  d.set("verdict_list", ListOf(verdicts));
  d.set("has_verdicts", !verdicts.empty());
  d.set("count", Num(static_cast<std::int64_t>(verdicts.size())));
  d.set("ok_count", Num(ok));
  d.set("orders_missed", in.orders_missed);

  std::vector<mst::data> events;
  for (const game_system::Event& event : in.events) {
    std::string sentence;
    if (Status s = words.EventSentence(event, &sentence); !s.ok) {
      return Status::Error("results mail of " + in.system + ", game " + in.game_id + ": " +
                           s.message);
    }
    events.push_back(Item(Capitalized(sentence)));
  }
  d.set("event_list", ListOf(events));
  d.set("has_events", !events.empty());

  d.set("message", in.message);
  d.set("has_message", !in.message.empty());
  d.set("finished", in.finished);
  d.set("has_winner", in.finished && !in.winner.empty());
  d.set("winner", in.winner.empty() ? std::string() : w.Side(in.winner));
  d.set("draw", in.finished && in.winner.empty() && in.draw);
  d.set("seed", in.revealed_seed);
  d.set("has_seed", !in.revealed_seed.empty());
  d.set("commitment", in.next_commitment);
  d.set("has_commitment", !in.next_commitment.empty());
  d.set("next_turn", Num(in.next_turn));
  d.set("next_side", w.Side(in.next_side));
  d.set("has_deadline", in.next_deadline.has_value());
  d.set("deadline", in.next_deadline ? plain.Date(*in.next_deadline) : std::string());
  *out = std::move(d);
  return Status::Ok();
}

}  // namespace

namespace detail {

Status SystemVerdictList(const MailTemplates::LanguageSet& set, const SystemWords& words,
                         const std::vector<game_system::Verdict>& verdicts, bool html,
                         bool only_problems, mst::data* out) {
  std::vector<mst::data> items;
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    if (only_problems && verdicts[i].kind == game_system::VerdictKind::kOk) continue;
    std::string line;
    if (Status s = VerdictLine(set, words, verdicts[i], i, html, &line); !s.ok) {
      return Status::Error("order " + Num(static_cast<std::int64_t>(i + 1)) + ": " + s.message);
    }
    items.push_back(Item(line));
  }
  *out = ListOf(items);
  return Status::Ok();
}

}  // namespace detail

Status MailTemplates::RenderSystemResults(Language language, const SystemResultsInput& input,
                                          Mail* out) const {
  const SystemWords* words = SystemWordsOf(language, input.system);
  if (words == nullptr) {
    return Status::Error("results mail: no words for game system '" + input.system +
                         "' (Morne Plaine's results are RenderResults')");
  }
  const LanguageSet& set = Set(language);
  mst::data d;
  if (Status s = ResultsData(set, *words, input, &d); !s.ok) return s;
  Mail mail;
  const std::string kind(kKind);
  if (Status s = detail::RenderTextMail(set, kind, d, &mail); !s.ok) return s;
  if (Status s = detail::Render(set.files.at(kind + ".html"), d, true, &mail.html, kind + ".html");
      !s.ok) {
    return s;
  }
  *out = std::move(mail);
  return Status::Ok();
}

}  // namespace pbem::templates
