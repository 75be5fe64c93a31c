// The mails' view models (templates/mail_view.h): templates rendered and text tidied, the
// words of one mail (Words), verdicts, dates, objectives and the results mail's fields.
#include "templates/mail_view.h"

#include <algorithm>
#include <sstream>
#include <variant>

#include "engine/hex/hex.h"
#include "engine/morne_plaine/victory.h"
#include "proto/codec/shown.h"

namespace pbem::templates::detail {

namespace {

std::string Identity(const std::string& s) { return s; }

}  // namespace

// Renders a template; `html` selects HTML escaping of values (else none, for text/plain).
Status Render(const std::string& text, const mst::data& data, bool html, std::string* out,
              std::string_view what) {
  mst::mustache tmpl(text);
  if (!html) tmpl.set_custom_escape(Identity);
  if (tmpl.is_valid()) *out = tmpl.render(data);
  if (!tmpl.is_valid()) {
    return Status::Error(std::string(what) + ": " + tmpl.error_message());
  }
  return Status::Ok();
}

// Mustache leaves the line of a skipped section's tags behind: at most one blank line in a
// row in a text body, trailing blanks removed (but for the signature separator "-- ").
std::string TidyText(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  int blanks = 0;
  while (std::getline(in, line)) {
    while (line != "-- " && !line.empty() && (line.back() == ' ' || line.back() == '\r')) {
      line.pop_back();
    }
    if (line.empty()) {
      if (++blanks > 1 || out.empty()) continue;
    } else {
      blanks = 0;
    }
    out += line;
    out += '\n';
  }
  return out;
}

int LabelWidthOf(const engine::Scenario* scenario) {
  if (scenario == nullptr) return 2;
  int largest = std::max(scenario->map.width(), scenario->map.height());
  int digits = 1;
  while (largest >= 10) {
    largest /= 10;
    ++digits;
  }
  return std::max(2, digits);
}

std::string FormatArgText(const engine::Arg& arg, int width) {
  if (const auto* n = std::get_if<std::int64_t>(&arg)) return Num(*n);
  if (const auto* h = std::get_if<engine::Hex>(&arg)) return engine::FormatLabel(*h, width);
  return std::get<std::string>(arg);
}

bool Words::HasWord(std::string_view group, std::string_view code) const {
  return words_.find(std::string(group) + "." + std::string(code)) != words_.end();
}

// A verdict's argument for a person: a unit id as the unit's name, a code the words table
// knows ("river", "artillery", "blue": group "arg") as its word, the rest as given; text the
// player wrote (an unknown unit, a game id) as codec::Shown shows it, so a huge or multi-line
// value does not come back whole.
std::string Words::ReasonArg(const engine::Arg& arg) const {
  if (const auto* s = std::get_if<std::string>(&arg)) {
    if (scenario_ != nullptr && scenario_->FindUnit(*s)) return UnitById(*s);
    if (HasWord("arg", *s)) return Word("arg", *s);
    return codec::Shown(*s);
  }
  return Arg(arg);
}

std::string Words::Word(std::string_view group, std::string_view code) const {
  const std::string key = std::string(group) + "." + std::string(code);
  const auto it = words_.find(key);
  return it == words_.end() ? std::string(code) : it->second;
}

std::string Words::Side(std::string_view side) const { return Word("side", side); }

std::string Words::Hex(engine::Hex hex) const { return engine::FormatLabel(hex, width_); }

std::string Words::Arg(const engine::Arg& arg) const { return FormatArgText(arg, width_); }

// "Name (id)", or the id alone when the unit has no other name or is unknown (an unknown id
// is what the player wrote: shown cut, as codec::Shown does).
std::string Words::UnitById(const std::string& id) const {
  if (scenario_ != nullptr) {
    if (const auto u = scenario_->FindUnit(id)) return Unit(*u);
  }
  return codec::Shown(id);
}

std::string Words::Unit(engine::UnitId id) const {
  if (scenario_ == nullptr || !id.valid() || id.index() >= scenario_->units.size()) return "?";
  const engine::UnitSpec& spec = scenario_->unit(id);
  if (spec.name.empty() || spec.name == spec.id) return spec.id;
  return spec.name + " (" + spec.id + ")";
}

mst::data ListOf(const std::vector<mst::data>& items) {
  mst::data list{mst::data::type::list};
  for (const mst::data& item : items) list.push_back(item);
  return list;
}

// A sentence of a table rendered with `fields`, escaped for the format.
std::string MailRenderer::Sentence(const std::map<std::string, std::string, std::less<>>& table,
                                   std::string_view key, const mst::data& fields) const {
  const auto it = table.find(key);
  if (it == table.end()) return std::string(key);
  std::string out;
  if (!Render(it->second, fields, html_, &out, key).ok) return std::string(key);
  return out;
}

std::string MailRenderer::Reason(engine::Reason reason,
                                 const std::vector<engine::Arg>& args) const {
  mst::data fields;
  for (std::size_t i = 0; i < args.size(); ++i) {
    fields.set("a" + std::to_string(i + 1), words_.ReasonArg(args[i]));
  }
  // A path check's last argument is the index of the path step: told counted from 1.
  const bool path_check =
      reason == engine::Reason::kHexOffMap || reason == engine::Reason::kPathNotAdjacent;
  const std::size_t step_at = reason == engine::Reason::kHexOffMap ? 1 : 2;
  if (path_check && args.size() == step_at + 1 &&
      std::holds_alternative<std::int64_t>(args[step_at])) {
    fields.set("a" + std::to_string(step_at + 1), std::string());
    fields.set("step", Num(std::get<std::int64_t>(args[step_at]) + 1));
  }
  return Sentence(set_.reasons, engine::ReasonCode(reason), fields);
}

// The one wording of an order's verdict (events.table "verdict"): the receipt, the refusals,
// the results mail, the CLI and the HTTP API's "text" all show this sentence.
std::string MailRenderer::VerdictLine(const engine::OrderVerdict& v) const {
  mst::data d;
  const bool header = v.order_kind == engine::OrderKind::kHeader;
  d.set("order", words_.Word("order", engine::OrderKindName(v.order_kind)));
  d.set("has_number", !header);
  d.set("number", Num(v.index + 1));
  d.set("unit", v.unit.empty() ? std::string() : words_.UnitById(v.unit));
  d.set("has_unit", !v.unit.empty());
  d.set("verdict", words_.Word("verdict", engine::VerdictKindName(v.verdict)));
  const bool has_reason = v.reason != engine::Reason::kNone;
  d.set("has_reason", has_reason);
  // The reason goes into the line: render it plain, the line escapes it.
  MailRenderer plain(set_, scenario_, false, label_width_);
  d.set("reason", has_reason ? plain.Reason(v.reason, v.args) : std::string());
  return Sentence(set_.events, "verdict", d);
}

mst::data MailRenderer::Verdict(const engine::OrderVerdict& v) const {
  mst::data d;
  d.set("text", VerdictLine(v));
  d.set("order", words_.Word("order", engine::OrderKindName(v.order_kind)));
  d.set("number", Num(v.index + 1));
  d.set("unit", v.unit.empty() ? std::string() : words_.UnitById(v.unit));
  d.set("has_unit", !v.unit.empty());
  d.set("verdict", words_.Word("verdict", engine::VerdictKindName(v.verdict)));
  d.set("ok", v.verdict == engine::VerdictKind::kOk);
  const bool has_reason = v.reason != engine::Reason::kNone;
  d.set("has_reason", has_reason);
  d.set("reason", has_reason ? Reason(v.reason, v.args) : std::string());
  d.set("code", std::string(engine::ReasonCode(v.reason)));
  return d;
}

mst::data MailRenderer::Verdicts(const std::vector<engine::OrderVerdict>& verdicts,
                                 bool only_problems) const {
  std::vector<mst::data> items;
  for (const engine::OrderVerdict& v : verdicts) {
    if (only_problems && v.verdict == engine::VerdictKind::kOk) continue;
    items.push_back(Verdict(v));
  }
  return ListOf(items);
}

// A moment for players, in UTC, by events.table "date" with words "month.N" and "day.N"
// ("le 1er novembre 2026 à 9 h 05 UTC", "1 November 2026 at 09:05 UTC").
std::string MailRenderer::Date(std::chrono::sys_seconds t) const {
  using namespace std::chrono;
  const sys_days day = floor<days>(t);
  const year_month_day ymd(day);
  const hh_mm_ss<seconds> tod(t - day);
  const auto two = [](std::int64_t n) { return (n < 10 ? "0" : "") + Num(n); };
  mst::data f;
  f.set("weekday", words_.Word("weekday", Num(weekday(day).c_encoding())));
  f.set("day", words_.Word("day", Num(static_cast<unsigned>(ymd.day()))));
  f.set("month", words_.Word("month", Num(static_cast<unsigned>(ymd.month()))));
  f.set("year", Num(static_cast<int>(ymd.year())));
  f.set("hour", Num(tod.hours().count()));
  f.set("hour2", two(tod.hours().count()));
  f.set("minute", two(tod.minutes().count()));
  return Sentence(set_.events, "date", f);
}

// Objectives and who holds them after the turn, with the points they are worth.
mst::data MailRenderer::Objectives(const engine::GameState& state) const {
  std::vector<mst::data> items;
  if (scenario_ == nullptr) return ListOf(items);
  for (const engine::Objective& o : scenario_->objectives) {
    const std::optional<engine::Side> holder = engine::ObjectiveHolder(*scenario_, state, o);
    mst::data f;
    std::string hexes;
    for (const engine::Hex h : o.hexes) hexes += (hexes.empty() ? "" : " ") + words_.Hex(h);
    f.set("objective", o.name);
    f.set("hexes", hexes);
    f.set("holder", holder ? words_.Side(engine::SideName(*holder)) : words_.Word("side", "none"));
    f.set("held", holder.has_value());
    f.set("vp_blue", Num(o.vp_blue));
    f.set("vp_orange", Num(o.vp_orange));
    mst::data line;
    line.set("text", Sentence(set_.events, "objective_held", f));
    items.push_back(line);
  }
  return ListOf(items);
}

mst::data MailRenderer::ResultsData(const ResultsInput& in) const {
  const engine::TurnResult& r = *in.result;
  mst::data d = Report(r);
  d.set("game", in.game_id);
  d.set("turn", Num(in.turn));
  d.set("side", words_.Side(in.side));
  d.set("player", in.player);
  SetGreeting(d, in.player_name);
  d.set("verdict_list", Verdicts(r.verdicts, true));
  d.set("orders_missed", in.orders_missed);
  d.set("has_refusals", std::any_of(r.verdicts.begin(), r.verdicts.end(), [](const auto& v) {
          return v.verdict != engine::VerdictKind::kOk;
        }));
  d.set("objectives", Objectives(r.next_state));
  d.set("message", r.message);
  d.set("has_message", !r.message.empty());
  d.set("finished", r.next_state.finished);
  const engine::GameOutcome& o = r.next_state.outcome;
  d.set("draw", !o.winner.has_value());
  d.set("winner", o.winner ? words_.Side(engine::SideName(*o.winner)) : std::string());
  d.set("level", words_.Word("level", engine::VictoryLevelName(o.level)));
  d.set("vp_blue", Num(o.vp_blue));
  d.set("vp_orange", Num(o.vp_orange));
  d.set("next_turn", Num(r.next_state.turn));
  d.set("next_side", words_.Side(engine::SideName(r.next_state.side_to_move)));
  d.set("has_deadline", in.next_deadline.has_value());
  d.set("deadline", in.next_deadline ? Date(*in.next_deadline) : std::string());
  d.set("seed", in.revealed_seed);
  d.set("has_seed", !in.revealed_seed.empty());
  d.set("commitment", in.next_commitment);
  d.set("has_commitment", !in.next_commitment.empty());
  return d;
}

}  // namespace pbem::templates::detail
