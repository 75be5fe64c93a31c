// The mails of templates/mail_render.h: the MailTemplates::Render* entry points, each mail
// rendered as text and HTML with the shared partials. The view models are built in
// mail_view.cc and mail_report.cc (templates/mail_view.h); the templates are loaded in
// mail_load.cc.
#include "templates/mail_render.h"

#include <algorithm>
#include <kainjow/mustache.hpp>
#include <utility>

#include "templates/mail_text.h"
#include "templates/mail_view.h"

namespace pbem::templates {

namespace mst = kainjow::mustache;

using detail::kPartialFiles;
using detail::ListOf;
using detail::MailRenderer;
using detail::Num;
using detail::Render;
using detail::SetGreeting;
using detail::TidyText;
using detail::Words;

namespace {

// A subject is one line.
void OneLine(std::string& subject) {
  while (!subject.empty() && (subject.back() == '\n' || subject.back() == '\r')) {
    subject.pop_back();
  }
  std::replace(subject.begin(), subject.end(), '\n', ' ');
  std::replace(subject.begin(), subject.end(), '\r', ' ');
}

// The shared partials of one format ({{>report}}, {{>verdicts}}) into `d`.
void SetPartials(const MailTemplates::LanguageSet& set, bool html, mst::data& d) {
  for (const std::string_view p : kPartialFiles) {
    const std::string name(p);
    const bool partial_html = name.size() > 5 && name.substr(name.size() - 5) == ".html";
    if (partial_html != html) continue;
    const std::string stem = name.substr(0, name.find('.'));
    const std::string text = set.files.at(name);
    d.set(stem, mst::partial([text] { return text; }));
  }
}

// KIND.txt (tidied) and KIND.subject (one line) into `mail`.
Status RenderTextParts(const MailTemplates::LanguageSet& set, const std::string& kind,
                       const mst::data& d, Mail* mail) {
  if (Status s = Render(set.files.at(kind + ".txt"), d, false, &mail->text, kind + ".txt"); !s.ok) {
    return s;
  }
  mail->text = TidyText(mail->text);
  if (Status s =
          Render(set.files.at(kind + ".subject"), d, false, &mail->subject, kind + ".subject");
      !s.ok) {
    return s;
  }
  OneLine(mail->subject);
  return Status::Ok();
}

// Renders KIND.subject / .txt / .html with one view model built per format.
template <typename Build>
Status RenderMail(const MailTemplates::LanguageSet& set, const std::string& kind,
                  const engine::Scenario* scenario, Build build, Mail* out) {
  Mail mail;
  for (const bool html : {false, true}) {
    MailRenderer renderer(set, scenario, html);
    mst::data d = build(renderer);
    SetPartials(set, html, d);
    if (html) {
      if (Status s = Render(set.files.at(kind + ".html"), d, true, &mail.html, kind + ".html");
          !s.ok) {
        return s;
      }
    } else if (Status s = RenderTextParts(set, kind, d, &mail); !s.ok) {
      return s;
    }
  }
  *out = std::move(mail);
  return Status::Ok();
}

}  // namespace

namespace detail {

// The greeting's fields: "Hello{{#has_name}} {{name}}{{/has_name}},". No address ever.
void SetGreeting(mst::data& d, const std::string& name) {
  d.set("name", name);
  d.set("has_name", !name.empty());
}

Status RenderTextFile(const MailTemplates::LanguageSet& set, const std::string& name,
                      const mst::data& d, std::string* out) {
  if (Status s = Render(set.files.at(name), d, false, out, name); !s.ok) return s;
  *out = TidyText(*out);
  return Status::Ok();
}

Status RenderTextMail(const MailTemplates::LanguageSet& set, const std::string& kind,
                      const mst::data& d, Mail* out) {
  Mail mail;
  if (Status s = RenderTextParts(set, kind, d, &mail); !s.ok) return s;
  *out = std::move(mail);
  return Status::Ok();
}

}  // namespace detail

Status MailTemplates::RenderResults(Language language, const ResultsInput& input, Mail* out) const {
  if (input.scenario == nullptr || input.result == nullptr) {
    return Status::Error("results mail: scenario and result are required");
  }
  return RenderMail(
      Set(language), "results", input.scenario,
      [&](const MailRenderer& r) { return r.ResultsData(input); }, out);
}

Status MailTemplates::RenderReportFragment(Language language, const ResultsInput& input,
                                           std::string* html) const {
  if (input.scenario == nullptr || input.result == nullptr) {
    return Status::Error("report: scenario and result are required");
  }
  MailRenderer renderer(Set(language), input.scenario, true);
  mst::data d = renderer.ResultsData(input);
  SetPartials(Set(language), true, d);
  return Render(Set(language).files.at("report.html"), d, true, html, "report.html");
}

namespace {

// The verdict lists of a game of another system (`system` not empty), plain and HTML, for a
// mail rendered by RenderMail: lists[html].
// `words`: SystemWordsOf(the language, system).
Status SystemLists(const MailTemplates::LanguageSet& set, const SystemWords* words,
                   const std::string& system, const std::vector<game_system::Verdict>& verdicts,
                   bool only_problems, std::array<mst::data, 2>* lists) {
  if (system.empty()) return Status::Ok();
  if (words == nullptr) return Status::Error("no words for game system '" + system + "'");
  for (const bool html : {false, true}) {
    if (Status s = detail::SystemVerdictList(set, *words, verdicts, html, only_problems,
                                             &(*lists)[html ? 1 : 0]);
        !s.ok) {
      return s;
    }
  }
  return Status::Ok();
}

}  // namespace

Status MailTemplates::RenderReceipt(Language language, const ReceiptInput& input, Mail* out) const {
  std::array<mst::data, 2> system_lists;
  if (Status s = SystemLists(Set(language), SystemWordsOf(language, input.system), input.system,
                             input.system_verdicts, false, &system_lists);
      !s.ok) {
    return Status::Error("receipt of game " + input.game_id + ": " + s.message);
  }
  const bool system = !input.system.empty();
  return RenderMail(
      Set(language), "receipt", input.scenario,
      [&](const MailRenderer& r) {
        mst::data d;
        d.set("game", input.game_id);
        d.set("turn", Num(input.turn));
        d.set("side", r.words_.Side(input.side));
        d.set("player", input.player);
        d.set("verdict_list",
              system ? system_lists[r.html_ ? 1 : 0] : r.Verdicts(input.verdicts, false));
        SetGreeting(d, input.player_name);
        int ok = 0;
        for (const auto& v : input.verdicts) ok += v.verdict == engine::VerdictKind::kOk ? 1 : 0;
        for (const auto& v : input.system_verdicts) ok += v.kind == engine::VerdictKind::kOk;
        d.set("count", Num(static_cast<std::int64_t>(system ? input.system_verdicts.size()
                                                            : input.verdicts.size())));
        d.set("ok_count", Num(ok));
        d.set("all_ok", ok == static_cast<int>(system ? input.system_verdicts.size()
                                                      : input.verdicts.size()));
        d.set("has_deadline", input.deadline.has_value());
        d.set("deadline", input.deadline ? r.Date(*input.deadline) : std::string());
        return d;
      },
      out);
}

Status MailTemplates::RenderErrorReply(Language language, const ErrorReplyInput& input,
                                       Mail* out) const {
  std::array<mst::data, 2> system_lists;
  if (Status s = SystemLists(Set(language), SystemWordsOf(language, input.system), input.system,
                             input.system_verdicts, true, &system_lists);
      !s.ok) {
    return Status::Error("refusal of orders for game " + input.game_id + ": " + s.message);
  }
  return RenderMail(
      Set(language), "error_" + std::string(ErrorKindName(input.kind)), input.scenario,
      [&](const MailRenderer& r) {
        mst::data d;
        d.set("game", input.game_id);
        d.set("has_game", !input.game_id.empty());
        d.set("player", input.player);
        d.set("subject", input.original_subject);
        SetGreeting(d, input.player_name);
        std::vector<mst::data> problems;
        for (const std::string& p : input.problems) {
          mst::data item;
          item.set("text", p);
          problems.push_back(item);
        }
        d.set("problems", ListOf(problems));
        d.set("verdict_list", input.system.empty() ? r.Verdicts(input.verdicts, true)
                                                   : system_lists[r.html_ ? 1 : 0]);
        d.set("current_turn", Num(input.current_turn));
        d.set("received_turn", Num(input.received_turn));
        // The right turn but not this side's move (its turn was just played): said so, not
        // "orders for turn 3, the game is at turn 3".
        d.set("other_side", input.received_turn == input.current_turn);
        d.set("size_kib", Num((input.size_bytes + 1023) / 1024));
        d.set("has_size", input.size_bytes > 0);
        d.set("code", input.code);
        d.set("has_code", !input.code.empty());
        d.set("detail", input.detail);
        d.set("has_detail", !input.detail.empty());
        d.set("limit_kib", Num(input.limit_bytes / 1024));
        d.set("message_id", input.original_message_id);
        d.set("has_message_id", !input.original_message_id.empty());
        return d;
      },
      out);
}

Status MailTemplates::RenderReminder(Language language, const ReminderInput& input,
                                     Mail* out) const {
  return RenderMail(
      Set(language), "reminder", nullptr,
      [&](const MailRenderer& r) {
        mst::data d;
        d.set("game", input.game_id);
        d.set("turn", Num(input.turn));
        d.set("side", r.words_.Side(input.side));
        d.set("player", input.player);
        d.set("deadline", r.Date(input.deadline));
        SetGreeting(d, input.player_name);
        const std::int64_t minutes = std::max<std::int64_t>(0, input.time_left.count());
        d.set("hours_left", Num(minutes / 60));
        d.set("minutes_left", Num(minutes % 60));
        return d;
      },
      out);
}

std::string MailTemplates::Word(Language language, std::string_view group,
                                std::string_view code) const {
  return Words(Set(language).words, nullptr).Word(group, code);
}

std::string MailTemplates::ReasonSentence(Language language, engine::Reason reason,
                                          const std::vector<engine::Arg>& args) const {
  if (!HasReasonSentence(language, engine::ReasonCode(reason))) return std::string();
  MailRenderer renderer(Set(language), nullptr, false);
  return renderer.Reason(reason, args);
}

std::string MailTemplates::VerdictSentence(Language language, const engine::OrderVerdict& verdict,
                                           const engine::Scenario* scenario,
                                           int label_width) const {
  const MailRenderer renderer(Set(language), scenario, false, label_width);
  return renderer.VerdictLine(verdict);
}

std::string MailTemplates::FormatDate(Language language, std::chrono::sys_seconds moment) const {
  const MailRenderer renderer(Set(language), nullptr, false);
  return renderer.Date(moment);
}

namespace {

// The fields of the your_move and orders_block partials.
void SetMoveRequest(const MailRenderer& r, const std::optional<std::chrono::sys_seconds>& deadline,
                    const std::string& orders_template, const std::string& orders_file,
                    mst::data& d) {
  d.set("has_deadline", deadline.has_value());
  d.set("deadline", deadline ? r.Date(*deadline) : std::string());
  d.set("template", orders_template);
  d.set("orders_file", orders_file);
}

}  // namespace

Status MailTemplates::RenderWelcome(Language language, const WelcomeInput& input, Mail* out) const {
  return RenderMail(
      Set(language), "welcome", nullptr,
      [&](const MailRenderer& r) {
        mst::data d;
        d.set("game", input.game_id);
        d.set("scenario", input.scenario_title);
        d.set("turns", Num(input.turns));
        d.set("player", input.player);
        SetGreeting(d, input.player_name);
        d.set("side", r.words_.Side(input.side));
        std::vector<mst::data> others;
        for (const WelcomeInput::OtherPlayer& other : input.others) {
          mst::data item;
          item.set("side", r.words_.Side(other.side));
          item.set("address", other.address);
          item.set("has_name", !other.name.empty());
          item.set("name", other.name);
          others.push_back(item);
        }
        d.set("others", ListOf(others));
        d.set("moves_first", input.side == input.first_side);
        d.set("first_side", r.words_.Side(input.first_side));
        d.set("token", input.token);
        d.set("reply_to", input.reply_to);
        d.set("rules_file", input.rules_file);
        d.set("has_rules_file", !input.rules_file.empty());
        d.set("rules_path", input.rules_path);
        SetMoveRequest(r, input.deadline, input.orders_template, input.orders_file, d);
        return d;
      },
      out);
}

Status MailTemplates::RenderMoveRequest(Language language, const MoveRequestInput& input,
                                        MoveRequest* out) const {
  MoveRequest request;
  for (const bool html : {false, true}) {
    const MailRenderer renderer(Set(language), nullptr, html);
    mst::data d;
    SetMoveRequest(renderer, input.deadline, input.orders_template, input.orders_file, d);
    for (const std::string stem : {"your_move", "orders_block"}) {
      const std::string name = stem + (html ? ".html" : ".txt");
      std::string rendered;
      if (Status s = Render(Set(language).files.at(name), d, html, &rendered, name); !s.ok) {
        return s;
      }
      if (!html) rendered = TidyText(rendered);
      std::string& slot = stem == "your_move"
                              ? (html ? request.headline_html : request.headline_text)
                              : (html ? request.block_html : request.block_text);
      slot = std::move(rendered);
    }
  }
  *out = std::move(request);
  return Status::Ok();
}

}  // namespace pbem::templates
