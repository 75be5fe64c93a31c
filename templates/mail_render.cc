#include "templates/mail_render.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <kainjow/mustache.hpp>
#include <sstream>
#include <utility>

#include "engine/hex/hex.h"
#include "engine/morne_plaine/victory.h"
#include "templates/mail_text.h"

namespace pbem::templates {

namespace mst = kainjow::mustache;

namespace {

// The greeting's fields: "Hello{{#has_name}} {{name}}{{/has_name}},". No address ever.
void SetGreeting(kainjow::mustache::data& d, const std::string& name) {
  d.set("name", name);
  d.set("has_name", !name.empty());
}

// Every mail kind has KIND.subject, KIND.txt and KIND.html.
std::vector<std::string> MailKinds() {
  std::vector<std::string> kinds{"results", "receipt", "reminder", "welcome"};
  for (const ErrorKind k : kAllErrorKinds)
    kinds.push_back("error_" + std::string(ErrorKindName(k)));
  return kinds;
}

// Partials shared by the mails, and the tables.
constexpr std::array<std::string_view, 8> kPartialFiles{
    "report.txt",    "report.html",    "verdicts.txt",     "verdicts.html",
    "your_move.txt", "your_move.html", "orders_block.txt", "orders_block.html"};

// The mails with a text body only (KIND.subject, KIND.txt): the mail commands' replies, the
// notice of a turn the referee could not resolve (turn_stuck), and the paragraph of one game
// in a status reply (command_game.txt).
constexpr std::array<std::string_view, 5> kTextMailKinds{
    "command_status", "command_games", "command_archive", "command_help", "turn_stuck"};

// The event sentences the report uses; Load refuses a table without one of them.
constexpr std::array<std::string_view, 30> kEventKeys{"place",
                                                      "out_of_command",
                                                      "bombard",
                                                      "move",
                                                      "move_stopped",
                                                      "stuck",
                                                      "charge",
                                                      "morale_test",
                                                      "retreat",
                                                      "reaction_fire",
                                                      "support",
                                                      "combat",
                                                      "loss",
                                                      "eliminated",
                                                      "advance",
                                                      "morale_gained",
                                                      "rally",
                                                      "objective_taken",
                                                      "fort_taken",
                                                      "victory_points",
                                                      "strength_points",
                                                      "game_end",
                                                      "objective_held",
                                                      "verdict",
                                                      "headline_losses",
                                                      "headline_side_loss",
                                                      "headline_eliminated",
                                                      "headline_objective",
                                                      "headline_quiet",
                                                      "date"};

// Words every language must define (others fall back to the code itself).
constexpr std::array<std::string_view, 19> kRequiredWords{
    "side.blue",       "side.orange",       "side.none",       "level.draw",
    "level.minor",     "level.tactical",    "level.major",     "level.total",
    "verdict.ok",      "verdict.invalid",   "verdict.illegal", "verdict.partial",
    "order.placement", "order.bombardment", "order.move",      "order.attack",
    "order.header",    "phase.bombardment", "phase.movement"};

Status ReadText(const std::filesystem::path& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error(path.string() + ": cannot be read (missing?)");
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return Status::Ok();
}

// "key: sentence" lines; '#' starts a comment line; blank lines are ignored.
Status ParseTable(const std::filesystem::path& path, const std::string& text,
                  std::map<std::string, std::string, std::less<>>* table) {
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) {
      return Status::Error(path.string() + ":" + std::to_string(number) +
                           ": expected \"key: sentence\"");
    }
    std::string key = line.substr(first, colon - first);
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
    std::string value = line.substr(colon + 1);
    const auto start = value.find_first_not_of(" \t");
    value = start == std::string::npos ? std::string() : value.substr(start);
    if (key.empty() || value.empty()) {
      return Status::Error(path.string() + ":" + std::to_string(number) +
                           ": empty key or sentence");
    }
    mst::mustache check(value);
    if (!check.is_valid()) {
      return Status::Error(path.string() + ":" + std::to_string(number) + ": " +
                           check.error_message());
    }
    if (!table->emplace(key, value).second) {
      return Status::Error(path.string() + ":" + std::to_string(number) + ": key '" + key +
                           "' given twice");
    }
  }
  return Status::Ok();
}

std::string Identity(const std::string& s) { return s; }

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

std::string Num(std::int64_t n) { return std::to_string(n); }

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

// How the rendering of one mail sees the world: language tables, label width, unit names.
class Words {
 public:
  // `label_width` 0: the scenario's own (LabelWidthOf).
  Words(const std::map<std::string, std::string, std::less<>>& words,
        const engine::Scenario* scenario, int label_width = 0)
      : words_(words),
        scenario_(scenario),
        width_(label_width > 0 ? label_width : LabelWidthOf(scenario)) {}

  bool HasWord(std::string_view group, std::string_view code) const {
    return words_.find(std::string(group) + "." + std::string(code)) != words_.end();
  }
  // A verdict's argument for a person: a unit id as the unit's name, a code the words table
  // knows ("river", "artillery", "blue": group "arg") as its word, the rest as given.
  std::string ReasonArg(const engine::Arg& arg) const {
    if (const auto* s = std::get_if<std::string>(&arg)) {
      if (scenario_ != nullptr && scenario_->FindUnit(*s)) return UnitById(*s);
      if (HasWord("arg", *s)) return Word("arg", *s);
    }
    return Arg(arg);
  }

  std::string Word(std::string_view group, std::string_view code) const {
    const std::string key = std::string(group) + "." + std::string(code);
    const auto it = words_.find(key);
    return it == words_.end() ? std::string(code) : it->second;
  }
  std::string Side(engine::Side side) const { return Word("side", engine::SideName(side)); }
  std::string Hex(engine::Hex hex) const { return engine::FormatLabel(hex, width_); }
  std::string Arg(const engine::Arg& arg) const { return FormatArgText(arg, width_); }
  // "Name (id)", or the id alone when the unit has no other name or is unknown.
  std::string UnitById(const std::string& id) const {
    if (scenario_ != nullptr) {
      if (const auto u = scenario_->FindUnit(id)) return Unit(*u);
    }
    return id;
  }
  std::string Unit(engine::UnitId id) const {
    if (scenario_ == nullptr || !id.valid() || id.index() >= scenario_->units.size()) return "?";
    const engine::UnitSpec& spec = scenario_->unit(id);
    if (spec.name.empty() || spec.name == spec.id) return spec.id;
    return spec.name + " (" + spec.id + ")";
  }
  int width() const { return width_; }

 private:
  const std::map<std::string, std::string, std::less<>>& words_;
  const engine::Scenario* scenario_;
  int width_;
};

mst::data ListOf(const std::vector<mst::data>& items) {
  mst::data list{mst::data::type::list};
  for (const mst::data& item : items) list.push_back(item);
  return list;
}

}  // namespace

std::string_view LanguageCode(Language language) {
  return language == Language::kFrench ? "fr" : "en";
}

std::optional<Language> ParseLanguage(std::string_view text) {
  std::string lower;
  for (const char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "en" || lower == "english") return Language::kEnglish;
  if (lower == "fr" || lower == "french" || lower == "francais" ||
      lower ==
          "fran\xc3\xa7"
          "ais") {
    return Language::kFrench;
  }
  return std::nullopt;
}

std::string_view ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kMalformed:
      return "malformed";
    case ErrorKind::kIllegal:
      return "illegal";
    case ErrorKind::kUnauthenticated:
      return "unauthenticated";
    case ErrorKind::kWrongGame:
      return "wrong_game";
    case ErrorKind::kStaleTurn:
      return "stale_turn";
    case ErrorKind::kOversized:
      return "oversized";
    case ErrorKind::kDuplicate:
      return "duplicate";
    case ErrorKind::kUnavailable:
      return "unavailable";
  }
  return "?";
}

std::filesystem::path DefaultMailTemplateDir(const std::filesystem::path& data_dir) {
  return data_dir / "templates" / "mail";
}

Status MailTemplates::Load(const std::filesystem::path& dir, MailTemplates* out) {
  MailTemplates loaded;
  for (const Language language : kAllLanguages) {
    LanguageSet& set = loaded.sets_[static_cast<std::size_t>(language)];
    const std::filesystem::path lang_dir = dir / LanguageCode(language);
    std::vector<std::string> names;
    for (const std::string& kind : MailKinds()) {
      for (const char* ext : {".subject", ".txt", ".html"}) names.push_back(kind + ext);
    }
    for (const std::string_view p : kPartialFiles) names.emplace_back(p);
    for (const std::string_view kind : kTextMailKinds) {
      names.push_back(std::string(kind) + ".subject");
      names.push_back(std::string(kind) + ".txt");
    }
    names.emplace_back("command_game.txt");
    for (const std::string& name : names) {
      std::string text;
      if (Status s = ReadText(lang_dir / name, &text); !s.ok) return s;
      mst::mustache check(text);
      if (!check.is_valid()) {
        return Status::Error((lang_dir / name).string() + ": " + check.error_message());
      }
      set.files.emplace(name, std::move(text));
    }
    const std::pair<const char*, std::map<std::string, std::string, std::less<>>*> tables[] = {
        {"reasons.table", &set.reasons},
        {"events.table", &set.events},
        {"words.table", &set.words}};
    for (const auto& [name, table] : tables) {
      std::string text;
      if (Status s = ReadText(lang_dir / name, &text); !s.ok) return s;
      if (Status s = ParseTable(lang_dir / name, text, table); !s.ok) return s;
    }
    // Every reason code of the engine must be worded (the names table is the wire format).
    for (std::uint16_t r = 0;; ++r) {
      const std::string_view code = engine::ReasonCode(static_cast<engine::Reason>(r));
      if (code == "unknown_reason") break;
      if (set.reasons.find(code) == set.reasons.end()) {
        return Status::Error((lang_dir / "reasons.table").string() + ": no sentence for '" +
                             std::string(code) + "'");
      }
    }
    for (const std::string_view key : kEventKeys) {
      if (set.events.find(key) == set.events.end()) {
        return Status::Error((lang_dir / "events.table").string() + ": no sentence for '" +
                             std::string(key) + "'");
      }
    }
    for (const std::string_view key : kRequiredWords) {
      if (set.words.find(key) == set.words.end()) {
        return Status::Error((lang_dir / "words.table").string() + ": no word for '" +
                             std::string(key) + "'");
      }
    }
  }
  *out = std::move(loaded);
  return Status::Ok();
}

const MailTemplates::LanguageSet& MailTemplates::Set(Language language) const {
  return sets_[static_cast<std::size_t>(language)];
}

bool MailTemplates::HasReasonSentence(Language language, std::string_view code) const {
  return Set(language).reasons.find(code) != Set(language).reasons.end();
}

// Builds the mustache view models of the mails. One instance renders one mail in one format.
class MailRenderer {
 public:
  MailRenderer(const MailTemplates::LanguageSet& set, const engine::Scenario* scenario, bool html,
               int label_width = 0)
      : set_(set),
        words_(set.words, scenario, label_width),
        scenario_(scenario),
        html_(html),
        label_width_(label_width) {}

  // A sentence of a table rendered with `fields`, escaped for the format.
  std::string Sentence(const std::map<std::string, std::string, std::less<>>& table,
                       std::string_view key, const mst::data& fields) const {
    const auto it = table.find(key);
    if (it == table.end()) return std::string(key);
    std::string out;
    if (!Render(it->second, fields, html_, &out, key).ok) return std::string(key);
    return out;
  }

  std::string Reason(engine::Reason reason, const std::vector<engine::Arg>& args) const {
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
  std::string VerdictLine(const engine::OrderVerdict& v) const {
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

  mst::data Verdict(const engine::OrderVerdict& v) const {
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

  mst::data Verdicts(const std::vector<engine::OrderVerdict>& verdicts, bool only_problems) const {
    std::vector<mst::data> items;
    for (const engine::OrderVerdict& v : verdicts) {
      if (only_problems && v.verdict == engine::VerdictKind::kOk) continue;
      items.push_back(Verdict(v));
    }
    return ListOf(items);
  }

  // The fields of a shot (bombardment or reaction fire).
  void ShotFields(const std::string& target, std::int64_t roll, std::int64_t modified,
                  std::int64_t bv, const std::string& shot, mst::data& f) const {
    f.set("target", words_.UnitById(target));
    f.set("roll", Num(roll));
    f.set("modified", Num(modified));
    f.set("is_modified", roll != modified);
    f.set("bv", Num(bv));
    f.set("result", words_.Word("shot", shot));
    f.set("hit", shot != "miss");
  }

  // One unit's strength in a combat, every step named: "Dragons (b-c1) 5 -> 7 (charge) -> 3
  // (across a stream)".
  std::string StrengthText(const std::string& unit, const engine::payload::Strength& s,
                           std::int64_t value) const {
    std::string out = unit + " " + Num(s.cs);
    std::int64_t prev = s.cs;
    const auto step = [&](std::int64_t v, const std::string& why) {
      if (v == prev) return;
      out += " \xe2\x86\x92 " + Num(v) + " (" + why + ")";
      prev = v;
    };
    step(s.after_charge, words_.Word("mod", "charge"));
    step(s.after_terrain, words_.Word("terrain", s.terrain));
    step(s.after_water, words_.Word("mod", "water_" + s.water));
    step(value, words_.Word("mod", "minimum"));
    return out;
  }

  // The die's modifiers by name: " +1 (higher ground) -1 (morale)".
  std::string DieText(const engine::payload::CombatSteps& c) const {
    std::string out;
    const auto mod = [&](std::int64_t v, const std::string& why) {
      if (v == 0) return;
      out += (v > 0 ? " +" : " \xe2\x88\x92") + Num(v > 0 ? v : -v) + " (" + why + ")";
    };
    mod(c.elevation, words_.Word("mod", c.elevation > 0 ? "higher" : "lower"));
    mod(c.morale, words_.Word("mod", "morale"));
    mod(c.terrain, words_.Word("terrain", c.terrain_name));
    return out;
  }

  // The combat line's fields: each side's strength with its supports first, then odds, die
  // and its modifiers by name, result. `supports` are the kSupport events logged before it.
  void CombatFields(const engine::Event& e, const std::vector<const engine::Event*>& supports,
                    mst::data& f) const {
    const engine::payload::Combat& c = *e.get<engine::payload::Combat>();
    f.set("target", words_.UnitById(c.defender));
    f.set("attack", Num(c.attack));
    f.set("defence", Num(c.defence));
    f.set("odds", c.odds);
    f.set("roll", Num(c.roll));
    f.set("die", Num(c.die));
    // Logs from before the steps were recorded (pbem-engine 1) show the totals alone.
    const bool detailed = c.steps.has_value();
    std::string attack = detailed ? StrengthText(e.unit ? words_.Unit(*e.unit) : "?",
                                                 c.steps->attacker, c.attacker_cs)
                                  : Num(c.attack);
    std::string defence =
        detailed ? StrengthText(words_.UnitById(c.defender), c.steps->defender, c.defender_cs)
                 : Num(c.defence);
    bool attack_sum = false;
    bool defence_sum = false;
    for (const engine::Event* s : supports) {
      const engine::payload::Support& support = *s->get<engine::payload::Support>();
      const bool offensive = support.role == "offensive";
      const std::string unit = s->unit ? words_.Unit(*s->unit) : "?";
      const std::string text = support.strength ? StrengthText(unit, *support.strength, support.cs)
                                                : unit + " " + Num(support.cs);
      (offensive ? attack : defence) += " + " + text;
      (offensive ? attack_sum : defence_sum) = true;
    }
    f.set("attack_detail", attack);
    f.set("defence_detail", defence);
    f.set("attack_sum", detailed && attack_sum);
    f.set("defence_sum", detailed && defence_sum);
    f.set("die_detail", detailed ? DieText(*c.steps) : std::string());
    const std::int64_t unclamped =
        detailed ? c.roll + c.steps->elevation + c.steps->morale + c.steps->terrain : c.die;
    f.set("is_modified", c.roll != c.die || unclamped != c.die);
    f.set("unclamped", Num(unclamped));
    f.set("clamped", unclamped != c.die);
    const std::string& cell = c.cell;  // "A/D", '*' = morale test
    f.set("result", cell);
    const auto slash = cell.find('/');
    std::string att = cell.substr(0, slash);
    std::string def = slash == std::string::npos ? std::string() : cell.substr(slash + 1);
    const bool att_test = !att.empty() && att.back() == '*';
    const bool def_test = !def.empty() && def.back() == '*';
    if (att_test) att.pop_back();
    if (def_test) def.pop_back();
    f.set("att_loss", att);
    f.set("def_loss", def);
    f.set("att_test", att_test);
    f.set("def_test", def_test);
  }

  // What the results mail opens with: losses per side, units eliminated, objectives taken.
  struct Headline {
    std::array<std::int64_t, 2> cs_lost{0, 0};  // blue, orange
    std::array<std::int64_t, 2> mv_lost{0, 0};
    std::vector<std::string> eliminated;
    std::vector<std::string> objectives;  // rendered headline_objective sentences
  };

  void CountHeadline(const engine::Event& e, Headline& h) const {
    if (!e.unit || scenario_ == nullptr || !e.unit->valid() ||
        e.unit->index() >= scenario_->units.size()) {
      return;
    }
    const std::size_t side = scenario_->unit(*e.unit).side == engine::Side::kBlue ? 0 : 1;
    if (const auto* loss = e.get<engine::payload::Loss>()) {
      h.mv_lost[side] += loss->mv_lost;
      h.cs_lost[side] += loss->cs_lost;
    } else if (e.kind() == engine::EventKind::kEliminated) {
      h.eliminated.push_back(words_.Unit(*e.unit));
    }
  }

  std::vector<mst::data> HeadlineLines(const Headline& h) const {
    std::vector<std::string> texts;
    const bool losses = h.cs_lost[0] + h.cs_lost[1] + h.mv_lost[0] + h.mv_lost[1] > 0;
    if (losses) {
      mst::data f;
      const char* sides[] = {"blue", "orange"};
      for (std::size_t i = 0; i < 2; ++i) {
        mst::data l;
        l.set("cs", Num(h.cs_lost[i]));
        l.set("mv", Num(h.mv_lost[i]));
        l.set("has_cs", h.cs_lost[i] > 0);
        l.set("has_mv", h.mv_lost[i] > 0);
        l.set("both", h.cs_lost[i] > 0 && h.mv_lost[i] > 0);
        l.set("none", h.cs_lost[i] + h.mv_lost[i] == 0);
        MailRenderer plain(set_, scenario_, false, label_width_);
        f.set(sides[i], plain.Sentence(set_.events, "headline_side_loss", l));
      }
      texts.push_back(Sentence(set_.events, "headline_losses", f));
    }
    if (!h.eliminated.empty()) {
      std::string units;
      for (const std::string& u : h.eliminated) units += (units.empty() ? "" : ", ") + u;
      mst::data f;
      f.set("units", units);
      f.set("count", Num(static_cast<std::int64_t>(h.eliminated.size())));
      f.set("one", h.eliminated.size() == 1);
      texts.push_back(Sentence(set_.events, "headline_eliminated", f));
    }
    for (const std::string& o : h.objectives) texts.push_back(o);
    if (texts.empty()) texts.push_back(Sentence(set_.events, "headline_quiet", mst::data{}));
    std::vector<mst::data> lines;
    for (const std::string& t : texts) {
      mst::data line;
      line.set("text", t);
      lines.push_back(line);
    }
    return lines;
  }

  // A moment for players, in UTC, by events.table "date" with words "month.N" and "day.N"
  // ("le 1er novembre 2026 à 9 h 05 UTC", "1 November 2026 at 09:05 UTC").
  std::string Date(std::chrono::sys_seconds t) const {
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

  // One report line per event worth telling; moves are gathered into one line per unit.
  mst::data Report(const engine::TurnResult& result) const {
    // Lines by phase, told in the phases' order whatever the log's order: the command check
    // is logged first but halves movement, so its lines open the movement phase.
    std::map<engine::Phase, std::vector<mst::data>> by_phase;
    std::vector<mst::data> rally;
    std::vector<const engine::Event*> pending_supports;  // waiting for their combat
    Headline headline;
    const std::vector<engine::Event>& ev = result.events;
    for (std::size_t i = 0; i < ev.size(); ++i) {
      const engine::Event& e = ev[i];
      std::string key;
      mst::data f;
      if (e.unit) f.set("unit", words_.Unit(*e.unit));
      const auto hex = [&](std::size_t k) {
        return k < e.hexes.size() ? words_.Hex(e.hexes[k]) : std::string();
      };
      f.set("hex", hex(0));
      f.set("has_hex", !e.hexes.empty());
      f.set("from", hex(0));
      f.set("to", hex(1));
      using K = engine::EventKind;
      namespace payload = engine::payload;
      switch (e.kind()) {
        case K::kPlace:
          key = "place";
          break;
        case K::kCommandCheck:
          if (e.get<payload::CommandCheck>()->status == "out_of_command") key = "out_of_command";
          break;
        case K::kBombard: {
          const payload::Bombard& b = *e.get<payload::Bombard>();
          key = "bombard";
          ShotFields(b.target, b.roll, b.modified, b.bv, b.result, f);
          break;
        }
        case K::kMoveStep: {
          // Gather this unit's consecutive steps into one line.
          if (e.hexes.empty()) break;
          key = "move";
          std::vector<std::string> path;
          const engine::Hex start = e.hexes.size() >= 2 ? e.hexes[0] : e.hexes.front();
          std::size_t j = i;
          std::int64_t left = 0;
          while (j < ev.size() && ev[j].kind() == K::kMoveStep && ev[j].unit == e.unit) {
            path.push_back(words_.Hex(ev[j].hexes.back()));
            left = ev[j].get<payload::MoveStep>()->points_left;
            ++j;
          }
          i = j - 1;
          std::string joined;
          for (const std::string& p : path) joined += (joined.empty() ? "" : " ") + p;
          f.set("from", words_.Hex(start));
          f.set("to", path.back());
          f.set("path", joined);
          f.set("steps", Num(static_cast<std::int64_t>(path.size())));
          f.set("points_left", Num(left));
          f.set("one_left", left == 1);
          f.set("none_left", left == 0);
          f.set("many_left", left > 1);
          break;
        }
        case K::kMoveEnd: {
          const std::string& code = e.get<payload::MoveEnd>()->reason;
          const auto reason = engine::ParseReasonCode(code);
          if (reason && *reason != engine::Reason::kNone) {
            key = "move_stopped";
            std::vector<engine::Arg> args;
            for (const engine::Hex h : e.hexes) args.emplace_back(h);
            // The sentence goes into another sentence: render it plain, the outer one escapes.
            MailRenderer plain(set_, scenario_, false);
            f.set("reason", plain.Reason(*reason, args));
          }
          break;
        }
        case K::kStuck:
          key = "stuck";
          f.set("roll", Num(e.get<payload::Stuck>()->roll));
          f.set("chance", Num(e.get<payload::Stuck>()->chance));
          break;
        case K::kCharge:
          key = "charge";
          f.set("target", words_.UnitById(e.get<payload::Charge>()->target));
          break;
        case K::kMoraleTest: {
          const payload::MoraleTest& t = *e.get<payload::MoraleTest>();
          key = "morale_test";
          f.set("roll", Num(t.roll));
          f.set("modified", Num(t.modified));
          f.set("is_modified", t.roll != t.modified);
          f.set("needed", Num(t.needed));
          f.set("passed", t.result == "passed");
          f.set("cause", words_.Word("cause", t.cause));
          break;
        }
        case K::kRetreat:
          key = "retreat";
          f.set("cause", words_.Word("cause", e.get<payload::Retreat>()->cause));
          break;
        case K::kReactionFire: {
          const payload::ReactionFire& r = *e.get<payload::ReactionFire>();
          key = "reaction_fire";
          ShotFields(r.target, r.roll, r.modified, r.bv, r.result, f);
          break;
        }
        case K::kSupport:
          // Told within the combat it belongs to (CombatFields); alone only when no combat
          // follows (a log cut short).
          pending_supports.push_back(&e);
          continue;
        case K::kCombat:
          key = "combat";
          CombatFields(e, pending_supports, f);
          pending_supports.clear();
          break;
        case K::kLoss: {
          key = "loss";
          const payload::Loss& loss = *e.get<payload::Loss>();
          const std::int64_t mv = loss.mv_lost;
          const std::int64_t cs = loss.cs_lost;
          f.set("mv_lost", Num(mv));
          f.set("cs_lost", Num(cs));
          f.set("has_mv", mv > 0);
          f.set("has_cs", cs > 0);
          f.set("both", mv > 0 && cs > 0);
          f.set("cause", words_.Word("cause", loss.cause));
          break;
        }
        case K::kEliminated:
          key = "eliminated";
          f.set("cause", words_.Word("cause", e.get<payload::Eliminated>()->cause));
          break;
        case K::kAdvance:
          key = "advance";
          break;
        case K::kMoraleGained:
          key = "morale_gained";
          f.set("points", Num(e.get<payload::MoraleGained>()->points));
          break;
        case K::kRally:
          if (const payload::Rally& rallied = *e.get<payload::Rally>(); rallied.gain > 0) {
            mst::data r = f;
            r.set("gain", Num(rallied.gain));
            r.set("mv", Num(rallied.mv));
            r.set("conditions", words_.Word("rally", rallied.conditions));
            mst::data line;
            line.set("text", Sentence(set_.events, "rally", r));
            rally.push_back(line);
          }
          break;
        case K::kObjectiveTaken:
          key = "objective_taken";
          f.set("objective", e.get<payload::ObjectiveTaken>()->objective);
          f.set("side", words_.Word("side", e.get<payload::ObjectiveTaken>()->side));
          break;
        case K::kFortTaken:
          key = "fort_taken";
          f.set("side", words_.Word("side", e.get<payload::FortTaken>()->side));
          break;
        case K::kVictoryPoints: {
          const payload::VictoryPoints& vp = *e.get<payload::VictoryPoints>();
          key = vp.source == "strength" && e.hexes.empty() ? "strength_points" : "victory_points";
          f.set("objective", vp.source);
          f.set("holder", words_.Word("side", vp.holder));
          f.set("held", vp.holder != "none" && !vp.holder.empty());
          f.set("points", Num(vp.points));
          f.set("lost_blue", vp.lost ? vp.lost->blue : std::string());
          f.set("lost_orange", vp.lost ? vp.lost->orange : std::string());
          break;
        }
        case K::kGameEnd: {
          key = "game_end";
          const payload::GameEnd& end = *e.get<payload::GameEnd>();
          f.set("draw", end.winner == "draw");
          f.set("winner", words_.Word("side", end.winner));
          f.set("level", words_.Word("level", end.level));
          f.set("vp_blue", Num(end.vp_blue));
          f.set("vp_orange", Num(end.vp_orange));
          break;
        }
        case K::kDie:      // every roll is told with what it decided
        case K::kTurnEnd:  // in the mail's header
          break;
      }
      CountHeadline(e, headline);
      if (key.empty()) continue;
      if (key == "objective_taken" || key == "fort_taken") {
        f.set("held", true);
        headline.objectives.push_back(Sentence(set_.events, "headline_objective", f));
      }
      mst::data line;
      line.set("text", Sentence(set_.events, key, f));
      const engine::Phase phase =
          e.kind() == engine::EventKind::kCommandCheck ? engine::Phase::kMovement : e.phase;
      by_phase[phase].push_back(line);
    }
    for (const engine::Event* s : pending_supports) {
      mst::data f;
      f.set("unit", s->unit ? words_.Unit(*s->unit) : std::string("?"));
      f.set("hex", s->hexes.empty() ? std::string() : words_.Hex(s->hexes.front()));
      f.set("offensive", s->get<engine::payload::Support>()->role == "offensive");
      f.set("value", Num(s->get<engine::payload::Support>()->cs));
      mst::data line;
      line.set("text", Sentence(set_.events, "support", f));
      by_phase[engine::Phase::kCombat].push_back(line);
    }
    std::vector<mst::data> phases;
    for (const auto& [phase, lines] : by_phase) {
      mst::data p;
      p.set("phase", words_.Word("phase", engine::PhaseName(phase)));
      p.set("lines", ListOf(lines));
      phases.push_back(p);
    }
    mst::data report;
    report.set("phases", ListOf(phases));
    report.set("has_events", !phases.empty());
    report.set("headline", ListOf(HeadlineLines(headline)));
    report.set("rally", ListOf(rally));
    report.set("has_rally", !rally.empty());
    return report;
  }

  // Objectives and who holds them after the turn, with the points they are worth.
  mst::data Objectives(const engine::GameState& state) const {
    std::vector<mst::data> items;
    if (scenario_ == nullptr) return ListOf(items);
    for (const engine::Objective& o : scenario_->objectives) {
      const std::optional<engine::Side> holder = engine::ObjectiveHolder(*scenario_, state, o);
      mst::data f;
      std::string hexes;
      for (const engine::Hex h : o.hexes) hexes += (hexes.empty() ? "" : " ") + words_.Hex(h);
      f.set("objective", o.name);
      f.set("hexes", hexes);
      f.set("holder", holder ? words_.Side(*holder) : words_.Word("side", "none"));
      f.set("held", holder.has_value());
      f.set("vp_blue", Num(o.vp_blue));
      f.set("vp_orange", Num(o.vp_orange));
      mst::data line;
      line.set("text", Sentence(set_.events, "objective_held", f));
      items.push_back(line);
    }
    return ListOf(items);
  }

  mst::data ResultsData(const ResultsInput& in) const {
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
    d.set("winner", o.winner ? words_.Side(*o.winner) : std::string());
    d.set("level", words_.Word("level", engine::VictoryLevelName(o.level)));
    d.set("vp_blue", Num(o.vp_blue));
    d.set("vp_orange", Num(o.vp_orange));
    d.set("next_turn", Num(r.next_state.turn));
    d.set("next_side", words_.Side(r.next_state.side_to_move));
    d.set("has_deadline", in.next_deadline.has_value());
    d.set("deadline", in.next_deadline ? Date(*in.next_deadline) : std::string());
    d.set("seed", in.revealed_seed);
    d.set("has_seed", !in.revealed_seed.empty());
    d.set("commitment", in.next_commitment);
    d.set("has_commitment", !in.next_commitment.empty());
    return d;
  }

  const MailTemplates::LanguageSet& set_;
  Words words_;
  const engine::Scenario* scenario_;
  bool html_;
  int label_width_;
};

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

void SetGreeting(mst::data& d, const std::string& name) { templates::SetGreeting(d, name); }

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

Status MailTemplates::RenderReceipt(Language language, const ReceiptInput& input, Mail* out) const {
  return RenderMail(
      Set(language), "receipt", input.scenario,
      [&](const MailRenderer& r) {
        mst::data d;
        d.set("game", input.game_id);
        d.set("turn", Num(input.turn));
        d.set("side", r.words_.Side(input.side));
        d.set("player", input.player);
        d.set("verdict_list", r.Verdicts(input.verdicts, false));
        SetGreeting(d, input.player_name);
        int ok = 0;
        for (const auto& v : input.verdicts) ok += v.verdict == engine::VerdictKind::kOk ? 1 : 0;
        d.set("count", Num(static_cast<std::int64_t>(input.verdicts.size())));
        d.set("ok_count", Num(ok));
        d.set("all_ok", ok == static_cast<int>(input.verdicts.size()));
        d.set("has_deadline", input.deadline.has_value());
        d.set("deadline", input.deadline ? r.Date(*input.deadline) : std::string());
        return d;
      },
      out);
}

Status MailTemplates::RenderErrorReply(Language language, const ErrorReplyInput& input,
                                       Mail* out) const {
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
        d.set("verdict_list", r.Verdicts(input.verdicts, true));
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

}  // namespace pbem::templates

namespace pbem::templates {

std::string MailTemplates::VerdictSentence(Language language, const engine::OrderVerdict& verdict,
                                           const engine::Scenario* scenario,
                                           int label_width) const {
  const MailRenderer renderer(Set(language), scenario, false, label_width);
  return renderer.VerdictLine(verdict);
}

}  // namespace pbem::templates

namespace pbem::templates {

std::string MailTemplates::FormatDate(Language language, std::chrono::sys_seconds moment) const {
  const MailRenderer renderer(Set(language), nullptr, false);
  return renderer.Date(moment);
}

}  // namespace pbem::templates

namespace pbem::templates {

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
