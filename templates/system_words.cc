#include "templates/system_words.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <functional>
#include <kainjow/mustache.hpp>
#include <optional>
#include <utility>
#include <vector>

#include "proto/codec/shown.h"
#include "templates/french_typography.h"
#include "templates/sentence_table.h"

namespace pbem::templates {

namespace mst = kainjow::mustache;

// A sentence's mustache parsed once at load, rendered as plain text (no escaping: the caller
// escapes for HTML). kainjow's render is not const only because it records an error met in a
// lambda or a partial; the data rendered here holds strings and bools only, so rendering reads
// the parsed tree and writes nothing: a loaded SystemWords can be shared between threads.
class SystemWords::Parsed {
 public:
  explicit Parsed(const std::string& sentence) : tmpl_(sentence) {
    tmpl_.set_custom_escape([](const std::string& s) { return s; });
  }
  bool valid() const { return tmpl_.is_valid(); }
  const std::string& error() const { return tmpl_.error_message(); }
  std::string Render(const mst::data& fields) const { return tmpl_.render(fields); }

 private:
  mutable mst::mustache tmpl_;
};

namespace {

// The units of game_system::Arg that units.table must word.
constexpr std::array<std::string_view, 3> kUnits{game_system::kThousandthsOfAnInch,
                                                 game_system::kThousandthsOfACm,
                                                 game_system::kThousandthsOfADegree};
constexpr std::string_view kDecimalMark = "decimal_mark";
// The language whose tables follow templates/french_typography.h's rule (LanguageCode).
constexpr std::string_view kFrench = "fr";

std::optional<std::int64_t> ParseInt(const std::string& text) {
  std::int64_t n = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, n);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return n;
}

// A value that can name a mustache section ("not_behind", "confused"): lower-case letters,
// digits and '_'.
bool IsWord(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

Status LoadTable(const std::filesystem::path& path, bool french, SentenceTable* table) {
  std::string text;
  if (Status s = ReadTemplateFile(path, &text); !s.ok) return s;
  if (french) {
    if (Status s = CheckFrenchSpacing(path, text); !s.ok) return s;
  }
  return ParseSentenceTable(path, text, table);
}

// Every key of `table` (read from `path`) is one of `codes` and every code has a sentence.
Status CheckKeys(const std::filesystem::path& path, const SentenceTable& table,
                 const std::vector<std::string>& codes, std::string_view what,
                 std::string_view system) {
  for (const std::string& code : codes) {
    if (table.find(code) == table.end()) {
      return Status::Error(path.string() + ": no sentence for '" + code + "'");
    }
  }
  for (const auto& [key, sentence] : table) {
    if (std::find(codes.begin(), codes.end(), key) == codes.end()) {
      return Status::Error(path.string() + ": '" + key + "' is not " + std::string(what) + " of " +
                           std::string(system));
    }
  }
  return Status::Ok();
}

using ArgTextFn = std::function<std::string(const game_system::Arg&)>;

// The args as fields: each by its name, worded, and a section <name>_<value> for a word.
void SetArgs(const std::vector<game_system::Arg>& args, const ArgTextFn& arg_text,
             mst::data* fields) {
  for (const game_system::Arg& arg : args) {
    fields->set(arg.name, arg_text(arg));
    if (IsWord(arg.value)) fields->set(arg.name + "_" + arg.value, true);
  }
}

// The fields of a verdict's sentence (the arguments' sections included).
mst::data VerdictFields(const game_system::Verdict& verdict, const ArgTextFn& arg_text) {
  mst::data fields;
  fields.set("unit", codec::Shown(verdict.unit));
  fields.set("order", verdict.order);
  SetArgs(verdict.args, arg_text, &fields);
  return fields;
}

// The fields of an event's sentence: {{unit}} and the args.
mst::data EventFields(const game_system::Event& event, const ArgTextFn& arg_text) {
  mst::data fields;
  fields.set("unit", codec::Shown(event.unit));
  SetArgs(event.args, arg_text, &fields);
  return fields;
}

}  // namespace

std::string ThousandthsText(std::int64_t thousandths, std::string_view decimal_mark) {
  // Unsigned so that the most negative value has a magnitude.
  const bool negative = thousandths < 0;
  const std::uint64_t size = negative ? 0 - static_cast<std::uint64_t>(thousandths)
                                      : static_cast<std::uint64_t>(thousandths);
  std::string out = (negative ? "-" : "") + std::to_string(size / 1000);
  std::uint64_t fraction = size % 1000;
  if (fraction == 0) return out;
  std::string digits = std::to_string(1000 + fraction).substr(1);  // "500", "025", "001"
  while (digits.back() == '0') digits.pop_back();
  return out + std::string(decimal_mark) + digits;
}

Status SystemWords::Load(const std::filesystem::path& mail_dir, std::string_view language,
                         const game_system::GameSystem& system, SystemWords* out) {
  SystemWords loaded;
  const bool french = language == kFrench;
  const std::filesystem::path systems = mail_dir / std::string(language) / "systems";
  const std::filesystem::path reasons = systems / std::string(system.name()) / "reasons.table";
  SentenceTable reason_table;
  if (Status s = LoadTable(reasons, french, &reason_table); !s.ok) return s;
  if (Status s =
          CheckKeys(reasons, reason_table, system.ReasonCodes(), "a reason code", system.name());
      !s.ok) {
    return s;
  }
  const std::filesystem::path events = systems / std::string(system.name()) / "events.table";
  SentenceTable event_table;
  if (Status s = LoadTable(events, french, &event_table); !s.ok) return s;
  if (Status s =
          CheckKeys(events, event_table, system.EventKinds(), "an event kind", system.name());
      !s.ok) {
    return s;
  }
  const std::filesystem::path units = systems / "units.table";
  SentenceTable unit_table;
  if (Status s = LoadTable(units, french, &unit_table); !s.ok) return s;
  for (const auto& [key, sentence] : unit_table) {
    if (key != kDecimalMark && std::find(kUnits.begin(), kUnits.end(), key) == kUnits.end()) {
      return Status::Error(units.string() + ": '" + key + "' is not a unit");
    }
  }
  for (const std::string_view key : kUnits) {
    if (unit_table.find(key) == unit_table.end()) {
      return Status::Error(units.string() + ": no sentence for '" + std::string(key) + "'");
    }
  }
  const auto mark = unit_table.find(kDecimalMark);
  if (mark == unit_table.end()) {
    return Status::Error(units.string() + ": no '" + std::string(kDecimalMark) + "'");
  }
  loaded.decimal_mark_ = mark->second;
  // Parsed once here (ParseSentenceTable checked that each parses); never again per sentence.
  const std::pair<const SentenceTable*, ParsedTable*> tables[] = {{&reason_table, &loaded.reasons_},
                                                                  {&event_table, &loaded.events_},
                                                                  {&unit_table, &loaded.units_}};
  for (const auto& [table, parsed] : tables) {
    for (const auto& [key, sentence] : *table) {
      auto p = std::make_shared<const Parsed>(sentence);
      if (!p->valid()) return Status::Error(key + ": " + p->error());  // checked above: not reached
      parsed->emplace(key, std::move(p));
    }
  }
  // Every condition word the system declares is worded by its reason's sentence: rendered with
  // the word's section on, the sentence must differ from the same verdict without it (else the
  // player reads an empty clause, or the code itself).
  for (const game_system::ConditionArg& condition : system.ConditionArgs()) {
    const auto sentence = loaded.reasons_.find(condition.reason);
    if (sentence == loaded.reasons_.end()) {
      return Status::Error(std::string(system.name()) + " declares conditions of '" +
                           condition.reason + "', not one of its reason codes");
    }
    for (const std::string& word : condition.words) {
      if (!IsWord(word)) {
        return Status::Error(std::string(system.name()) + ": condition '" + word + "' of " +
                             condition.reason + " cannot name a section (a-z, 0-9, '_')");
      }
      game_system::Verdict verdict;
      verdict.reason = condition.reason;
      verdict.args.push_back({condition.arg, word});
      const auto arg_text = [&loaded](const game_system::Arg& a) { return loaded.ArgText(a); };
      mst::data with = VerdictFields(verdict, arg_text);
      mst::data without = with;
      without.set(condition.arg + "_" + word, false);
      if (sentence->second->Render(with) == sentence->second->Render(without)) {
        return Status::Error(reasons.string() + ": " + condition.reason + " does not word the " +
                             condition.arg + " '" + word + "' (no section {{#" + condition.arg +
                             "_" + word + "}} with text in it)");
      }
    }
  }
  *out = std::move(loaded);
  return Status::Ok();
}

std::string SystemWords::ArgText(const game_system::Arg& arg) const {
  // Ids and words as given, cut as codec::Shown cuts what a player wrote (an unknown unit).
  if (arg.unit.empty()) return codec::Shown(arg.value);
  const auto sentence = units_.find(arg.unit);
  const std::optional<std::int64_t> n = ParseInt(arg.value);
  // A unit this language does not word, or a value that is not a number: shown as given.
  if (sentence == units_.end() || !n) return arg.value + " " + arg.unit;
  mst::data fields;
  fields.set("number", ThousandthsText(*n, decimal_mark_));
  fields.set("one", *n == 1000);
  fields.set("below_two", *n > -2000 && *n < 2000);
  return sentence->second->Render(fields);
}

Status SystemWords::Sentence(const game_system::Verdict& verdict, std::string* out) const {
  out->clear();
  if (verdict.reason.empty()) return Status::Ok();
  const auto sentence = reasons_.find(verdict.reason);
  if (sentence == reasons_.end()) {
    return Status::Error("no sentence for reason '" + verdict.reason + "'");
  }
  *out = sentence->second->Render(
      VerdictFields(verdict, [this](const game_system::Arg& a) { return ArgText(a); }));
  return Status::Ok();
}

Status SystemWords::EventSentence(const game_system::Event& event, std::string* out) const {
  out->clear();
  const auto sentence = events_.find(event.kind);
  if (sentence == events_.end()) {
    return Status::Error("no sentence for event kind '" + event.kind + "'");
  }
  *out = sentence->second->Render(
      EventFields(event, [this](const game_system::Arg& a) { return ArgText(a); }));
  return Status::Ok();
}

}  // namespace pbem::templates
