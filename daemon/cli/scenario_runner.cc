#include "daemon/cli/scenario_runner.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "daemon/cli/cli.h"
#include "engine/dice.h"
#include "engine/game_state.h"
#include "engine/hex.h"
#include "engine/line.h"
#include "engine/orders.h"
#include "engine/turn.h"
#include "engine/validate_orders.h"
#include "engine/verdict.h"
#include "pbem/v1/scenario_case.pb.h"
#include "proto/codec/codec.h"

namespace pbem::cli {
namespace {

namespace fs = std::filesystem;
namespace gpb = google::protobuf;
namespace v1 = pbem::v1;

constexpr std::string_view kCaseSuffix = ".case.textproto";
constexpr std::string_view kScheduleName = "SCHEDULE";
constexpr std::string_view kDefaultRuleset = "engine/rulesets/morne-plaine";
// The game id of the state a turn case runs against; orders may leave their
// game_id empty (then it is not checked) or name this one.
constexpr std::string_view kCaseGameId = "case";

constexpr std::string_view kUsage =
    "usage: pbem scenario [--bless] [--verbose] PATH...\n"
    "  Runs scenario catalogue cases (*.case.textproto files, or directories\n"
    "  searched recursively for them) against the SCHEDULE above them.\n"
    "  --bless    rewrite the expect block of failing (non-KNOWN_BUG) cases with\n"
    "             the actual results; review the diff before committing\n"
    "  --verbose  also print each case's actual results\n"
    "  See tests/scenarios/README.md.\n";

// ---- Small helpers ---------------------------------------------------------

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string Quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += c;
    }
  }
  out += '"';
  return out;
}

std::string Mismatch(std::string_view field, std::string_view expected, std::string_view actual) {
  std::string line(field);
  line += ": expected ";
  line += expected;
  line += ", actual ";
  line += actual;
  return line;
}

std::vector<std::string> ErrorStrings(const std::vector<codec::Error>& errors) {
  std::vector<std::string> out;
  out.reserve(errors.size());
  for (const codec::Error& e : errors) out.push_back(e.ToString());
  return out;
}

// True when `path` is `dir` or lies below it (both absolute and normalised).
bool IsUnder(const fs::path& path, const fs::path& dir) {
  auto p = path.begin();
  for (auto d = dir.begin(); d != dir.end(); ++d, ++p) {
    if (d->empty()) continue;  // trailing separator
    if (p == path.end() || *p != *d) return false;
  }
  return true;
}

fs::path Normal(const fs::path& path) { return fs::weakly_canonical(fs::absolute(path)); }

// ---- Protobuf field values as text ----------------------------------------

// One field value as the mismatch lines show it: strings quoted and escaped,
// enums by name, everything else quoted too so that every value reads alike.
std::string FieldValueText(const gpb::Message& message, const gpb::FieldDescriptor* field,
                           int index) {
  std::string text;
  gpb::TextFormat::PrintFieldValueToString(message, field, index, &text);
  if (field->cpp_type() == gpb::FieldDescriptor::CPPTYPE_STRING) return text;
  return Quote(text);
}

std::string FieldText(const gpb::Message& message, const gpb::FieldDescriptor* field) {
  if (!field->is_repeated()) return FieldValueText(message, field, -1);
  const int n = message.GetReflection()->FieldSize(message, field);
  std::string out = "[";
  for (int i = 0; i < n; ++i) {
    if (i > 0) out += ", ";
    out += FieldValueText(message, field, i);
  }
  out += "]";
  return out;
}

// The fields `expected` sets (proto3: non-default, or present when
// `optional`), except those named in `skip`.
std::vector<const gpb::FieldDescriptor*> SetFields(const gpb::Message& expected,
                                                   const std::set<std::string>& skip) {
  std::vector<const gpb::FieldDescriptor*> fields;
  expected.GetReflection()->ListFields(expected, &fields);
  std::vector<const gpb::FieldDescriptor*> out;
  for (const gpb::FieldDescriptor* f : fields) {
    if (skip.count(f->name()) == 0) out.push_back(f);
  }
  return out;
}

// Mismatch lines for every field set in `expected` whose value in `actual`
// (same message type) differs. Partial expectations: unset fields are not
// compared.
std::vector<std::string> DiffSetFields(const gpb::Message& expected, const gpb::Message& actual,
                                       std::string_view prefix, const std::set<std::string>& skip) {
  std::vector<std::string> out;
  for (const gpb::FieldDescriptor* f : SetFields(expected, skip)) {
    const std::string e = FieldText(expected, f);
    const std::string a = FieldText(actual, f);
    if (e != a) out.push_back(Mismatch(std::string(prefix) + "." + f->name(), e, a));
  }
  return out;
}

// True when every field set in `expected` has the same value in `actual`.
bool MatchesSetFields(const gpb::Message& expected, const gpb::Message& actual,
                      const std::set<std::string>& skip) {
  return DiffSetFields(expected, actual, "", skip).empty();
}

std::string ShortText(const gpb::Message& message) {
  std::string text;
  gpb::TextFormat::Printer printer;
  printer.SetSingleLineMode(true);
  printer.SetUseShortRepeatedPrimitives(true);
  printer.PrintToString(message, &text);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return "{" + text + "}";
}

// ---- The SCHEDULE -----------------------------------------------------------

enum class Expectation { kPass, kKnownBug };

struct ScheduleEntry {
  Expectation status = Expectation::kPass;
  std::string reason;
  int line = 0;
};

struct Problem {
  std::string subject;  // displayed path (and line) the FAIL line names
  std::string message;
};

struct Schedule {
  fs::path dir;                                       // absolute, normalised
  fs::path file;                                      // dir / SCHEDULE
  std::map<fs::path, ScheduleEntry> entries;          // absolute, normalised case path
  std::vector<std::pair<int, std::string>> problems;  // line, message
};

std::vector<std::string> SplitWords(std::string_view line) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.emplace_back(line.substr(start, i - start));
  }
  return words;
}

std::unique_ptr<Schedule> ParseSchedule(const fs::path& dir) {
  auto schedule = std::make_unique<Schedule>();
  schedule->dir = dir;
  schedule->file = dir / kScheduleName;
  std::ifstream in(schedule->file);
  if (!in) {
    schedule->problems.emplace_back(0, "cannot read the file");
    return schedule;
  }
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    std::string_view line = raw;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::vector<std::string> words = SplitWords(line);
    if (words.empty()) continue;
    ScheduleEntry entry;
    entry.line = line_no;
    if (words[0] == "PASS") {
      entry.status = Expectation::kPass;
      if (words.size() != 2) {
        schedule->problems.emplace_back(line_no, "PASS takes exactly one path");
        continue;
      }
    } else if (words[0] == "KNOWN_BUG") {
      entry.status = Expectation::kKnownBug;
      if (words.size() < 2) {
        schedule->problems.emplace_back(line_no, "KNOWN_BUG without a path");
        continue;
      }
      if (words.size() < 3) {
        // Still an entry, so the case is not also reported as unlisted.
        schedule->problems.emplace_back(line_no, "KNOWN_BUG without a reason: " + words[1]);
      } else {
        // The reason is the rest of the line as written (comments removed).
        const std::size_t at =
            line.find(words[1], line.find(words[0]) + words[0].size()) + words[1].size();
        std::string_view reason = line.substr(at);
        while (!reason.empty() && (reason.front() == ' ' || reason.front() == '\t')) {
          reason.remove_prefix(1);
        }
        while (!reason.empty() && (reason.back() == ' ' || reason.back() == '\t')) {
          reason.remove_suffix(1);
        }
        entry.reason = std::string(reason);
      }
    } else {
      schedule->problems.emplace_back(line_no,
                                      "unknown status " + Quote(words[0]) + " (PASS or KNOWN_BUG)");
      continue;
    }
    const fs::path rel(words[1]);
    if (rel.is_absolute()) {
      schedule->problems.emplace_back(line_no,
                                      "path must be relative to the SCHEDULE: " + words[1]);
      continue;
    }
    const fs::path key = (dir / rel).lexically_normal();
    const auto [it, inserted] = schedule->entries.emplace(key, entry);
    if (!inserted) {
      schedule->problems.emplace_back(line_no, "duplicate entry for " + words[1] +
                                                   " (first at line " +
                                                   std::to_string(it->second.line) + ")");
    }
  }
  return schedule;
}

class Schedules {
 public:
  // The SCHEDULE of the nearest directory at or above `dir` that has one.
  Schedule* Governing(const fs::path& dir) {
    for (fs::path d = dir;; d = d.parent_path()) {
      if (fs::is_regular_file(d / kScheduleName)) return Load(d);
      if (d == d.root_path() || d.parent_path() == d) return nullptr;
    }
  }
  // Every SCHEDULE in `dir` and below it.
  void LoadBelow(const fs::path& dir) {
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (e.is_regular_file() && e.path().filename() == kScheduleName) {
        Load(Normal(e.path().parent_path()));
      }
    }
  }
  const std::map<fs::path, std::unique_ptr<Schedule>>& all() const { return by_dir_; }

 private:
  Schedule* Load(const fs::path& dir) {
    auto it = by_dir_.find(dir);
    if (it == by_dir_.end()) it = by_dir_.emplace(dir, ParseSchedule(dir)).first;
    return it->second.get();
  }

  std::map<fs::path, std::unique_ptr<Schedule>> by_dir_;
};

// ---- Running one case -------------------------------------------------------

struct CaseOutcome {
  // The case itself is broken (does not parse, names nothing to run, bad
  // labels): a failure whatever the SCHEDULE says, and never blessed.
  std::vector<std::string> errors;
  // Results that differ from the expectation.
  std::vector<std::string> mismatches;
  // The actual results, when the case ran to the end (what --bless writes).
  std::optional<v1::Expect> actual;

  bool failed() const { return !errors.empty() || !mismatches.empty(); }
};

bool ExpectIsEmpty(const v1::Expect& expect) {
  std::vector<const gpb::FieldDescriptor*> fields;
  expect.GetReflection()->ListFields(expect, &fields);
  return fields.empty();
}

// Expectations a kind of case cannot check are mistakes, not silently
// ignored statements: a case must be able to fail on everything it states.
std::vector<std::string> InapplicableExpectations(const v1::ScenarioCase& sc) {
  std::set<std::string> allowed;
  std::string kind;
  switch (sc.kind_case()) {
    case v1::ScenarioCase::kHex:
      allowed = {"result"};
      kind = "hex";
      break;
    case v1::ScenarioCase::kRulesetLoad:
      allowed = {"ok", "errors"};
      kind = "ruleset_load";
      break;
    case v1::ScenarioCase::kTurn:
      allowed = {"verdicts", "events", "units", "verdict_count"};
      kind = "turn";
      break;
    case v1::ScenarioCase::KIND_NOT_SET:
      return {};
  }
  std::vector<std::string> out;
  for (const gpb::FieldDescriptor* f : SetFields(sc.expect(), allowed)) {
    out.push_back("expect." + f->name() + ": not checked by " + kind + " cases");
  }
  if (!sc.ruleset().empty() && sc.kind_case() != v1::ScenarioCase::kTurn) {
    out.push_back("ruleset: only turn cases use it (ruleset_load names its own dir or files)");
  }
  if (sc.has_parameters() && sc.kind_case() != v1::ScenarioCase::kTurn) {
    out.push_back("parameters: only turn cases use it");
  }
  if (sc.kind_case() == v1::ScenarioCase::kTurn && sc.turn().mode() == v1::TURN_MODE_CHECK &&
      sc.turn().dice_size() > 0) {
    out.push_back("turn.dice: checking orders rolls no dice (TURN_MODE_RESOLVE uses them)");
  }
  return out;
}

// ---- Hex cases ----------------------------------------------------------------

class HexRunner {
 public:
  explicit HexRunner(const v1::HexCase& hc) : hc_(hc) {}

  // The result line, or nullopt with errors().
  std::optional<std::string> Run() {
    if ((hc_.width() > 0) != (hc_.height() > 0) || hc_.width() < 0 || hc_.height() < 0) {
      return Error("hex.width and hex.height are both positive or both 0");
    }
    for (const std::string& label : hc_.hexes()) {
      width_ = std::max<int>(width_, static_cast<int>(label.size() / 2));
    }
    for (const std::string& side : hc_.sides()) {
      if (const std::size_t colon = side.find(':'); colon != std::string::npos) {
        width_ = std::max<int>(width_, static_cast<int>(colon / 2));
      }
    }
    if (hc_.width() > 0) {
      width_ = std::max<int>(
          width_, static_cast<int>(std::to_string(std::max(hc_.width(), hc_.height())).size()));
    }
    switch (hc_.op()) {
      case v1::HEX_OP_DISTANCE: {
        const auto a = HexArg(0), b = HexArg(1);
        if (!a || !b) return std::nullopt;
        return std::to_string(engine::Distance(*a, *b));
      }
      case v1::HEX_OP_NEIGHBORS: {
        const auto a = HexArg(0);
        if (!a) return std::nullopt;
        std::string out;
        for (const engine::Hex& n : engine::Neighbors(*a)) {
          if (!out.empty()) out += ' ';
          out += OnMap(n) ? Label(n) : "-";
        }
        return out;
      }
      case v1::HEX_OP_LINE: {
        const auto a = HexArg(0), b = HexArg(1);
        if (!a || !b) return std::nullopt;
        std::string out;
        for (const engine::LineItem& item : engine::TraceLine(*a, *b).items) {
          if (!out.empty()) out += ' ';
          if (item.kind == engine::LineItem::Kind::kHex) {
            out += Label(item.hex);
          } else {
            const auto [x, y] = engine::Sides(item.side);
            out += Label(x) + "|" + Label(y);
          }
        }
        return out;
      }
      case v1::HEX_OP_DIRECTION: {
        const auto a = HexArg(0), b = HexArg(1);
        if (!a || !b) return std::nullopt;
        const auto dir = engine::DirectionTo(*a, *b);
        return dir ? std::string(engine::DirectionName(*dir)) : std::string("none");
      }
      case v1::HEX_OP_AXIAL: {
        const auto a = HexArg(0);
        if (!a) return std::nullopt;
        return std::to_string(a->q) + "," + std::to_string(a->r) + " " + Label(*a);
      }
      case v1::HEX_OP_SIDE: {
        if (hc_.sides_size() < 1) return Error("hex.sides[0] is missing");
        const std::string& text = hc_.sides(0);
        const std::size_t colon = text.find(':');
        const auto hex = colon == std::string::npos
                             ? std::nullopt
                             : engine::ParseLabel(std::string_view(text).substr(0, colon));
        const auto dir = colon == std::string::npos
                             ? std::nullopt
                             : engine::ParseDirection(std::string_view(text).substr(colon + 1));
        if (!hex || !dir) return Error("hex.sides[0]: not a side \"CCRR:DIR\": " + Quote(text));
        const engine::Hexside side = engine::SideOf(*hex, *dir);
        const auto [x, y] = engine::Sides(side);
        return Label(side.hex) + ":" + std::string(engine::DirectionName(side.dir)) + " " +
               Label(x) + " " + Label(y);
      }
      default:
        return Error("hex.op is not set");
    }
  }

  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::optional<std::string> Error(std::string message) {
    errors_.push_back(std::move(message));
    return std::nullopt;
  }

  std::optional<engine::Hex> HexArg(int i) {
    if (hc_.hexes_size() <= i) {
      Error("hex.hexes[" + std::to_string(i) + "] is missing");
      return std::nullopt;
    }
    const auto hex = engine::ParseLabel(hc_.hexes(i));
    if (!hex) Error("hex.hexes[" + std::to_string(i) + "]: bad label " + Quote(hc_.hexes(i)));
    return hex;
  }

  bool OnMap(engine::Hex hex) const {
    const engine::Offset o = engine::ToOffset(hex);
    if (o.col < 0 || o.row < 0) return false;  // such a hex has no label
    if (hc_.width() == 0) return true;
    return o.col < hc_.width() && o.row < hc_.height();
  }

  std::string Label(engine::Hex hex) const { return engine::FormatLabel(hex, width_); }

  const v1::HexCase& hc_;
  int width_ = 2;
  std::vector<std::string> errors_;
};

CaseOutcome RunHexCase(const v1::ScenarioCase& sc) {
  CaseOutcome outcome;
  HexRunner runner(sc.hex());
  const std::optional<std::string> result = runner.Run();
  if (!result) {
    outcome.errors = runner.errors();
    return outcome;
  }
  v1::Expect actual;
  actual.set_result(*result);
  const v1::Expect& expect = sc.expect();
  if (expect.has_result() && expect.result() != *result) {
    outcome.mismatches.push_back(Mismatch("expect.result", Quote(expect.result()), Quote(*result)));
  }
  if (!expect.has_result()) outcome.mismatches.push_back("expect.result: not set");
  outcome.actual = std::move(actual);
  return outcome;
}

// ---- Ruleset loading cases --------------------------------------------------

// Compares expect.ok and expect.errors (substrings, in order) with `actual`.
void CompareLoad(const v1::Expect& expect, const v1::Expect& actual, CaseOutcome& outcome) {
  bool show_errors = false;
  if (expect.has_ok() && expect.ok() != actual.ok()) {
    outcome.mismatches.push_back(Mismatch("expect.ok", Quote(expect.ok() ? "true" : "false"),
                                          Quote(actual.ok() ? "true" : "false")));
    show_errors = !actual.ok();
  }
  int next = 0;  // an error may hold several expected substrings
  for (int i = 0; i < expect.errors_size(); ++i) {
    int found = -1;
    for (int j = next; j < actual.errors_size(); ++j) {
      if (actual.errors(j).find(expect.errors(i)) != std::string::npos) {
        found = j;
        break;
      }
    }
    if (found < 0) {
      outcome.mismatches.push_back(
          Mismatch("expect.errors[" + std::to_string(i) + "]",
                   "an error containing " + Quote(expect.errors(i)) +
                       (i > 0 ? " (at or after the previous one)" : ""),
                   actual.errors_size() == 0 ? "no error" : "none of the errors below"));
      show_errors = true;
    } else {
      next = found;
    }
  }
  if (show_errors) {
    for (const std::string& e : actual.errors()) outcome.mismatches.push_back("  | " + e);
  }
}

CaseOutcome RunRulesetLoadCase(const v1::ScenarioCase& sc, const fs::path& root) {
  CaseOutcome outcome;
  const v1::RulesetLoadCase& rc = sc.ruleset_load();
  if (rc.dir().empty() == (rc.files_size() == 0)) {
    outcome.errors.push_back("ruleset_load: give either dir or files");
    return outcome;
  }
  std::optional<codec::Result<codec::LoadedRuleset>> ruleset;
  if (!rc.dir().empty()) {
    ruleset.emplace(codec::LoadRulesetDir(root / rc.dir()));
  } else {
    std::vector<codec::NamedText> files;
    for (const v1::InlineFile& f : rc.files()) files.push_back({f.name(), f.content()});
    ruleset.emplace(codec::LoadRulesetFiles(files));
  }
  v1::Expect actual;
  if (!ruleset->ok()) {
    actual.set_ok(false);
    for (std::string& e : ErrorStrings(ruleset->errors())) actual.add_errors(std::move(e));
  } else if (!rc.scenario_text().empty()) {
    const auto scenario =
        codec::LoadScenarioText(rc.scenario_text(), "scenario_text", ruleset->value().ruleset);
    actual.set_ok(scenario.ok());
    if (!scenario.ok()) {
      for (std::string& e : ErrorStrings(scenario.errors())) actual.add_errors(std::move(e));
    }
  } else {
    actual.set_ok(true);
  }
  const v1::Expect& expect = sc.expect();
  if (!expect.has_ok() && expect.errors_size() == 0) {
    outcome.mismatches.push_back("expect.ok: not set");
  }
  CompareLoad(expect, actual, outcome);
  outcome.actual = std::move(actual);
  return outcome;
}

// ---- Turn cases -------------------------------------------------------------

class RulesetCache {
 public:
  const codec::Result<codec::LoadedRuleset>& Get(const fs::path& dir) {
    auto it = cache_.find(dir);
    if (it == cache_.end()) {
      it = cache_
               .emplace(dir, std::make_unique<codec::Result<codec::LoadedRuleset>>(
                                 codec::LoadRulesetDir(dir)))
               .first;
    }
    return *it->second;
  }

 private:
  std::map<fs::path, std::unique_ptr<codec::Result<codec::LoadedRuleset>>> cache_;
};

std::string_view OrderKindLabel(v1::OrderKind kind) {
  switch (kind) {
    case v1::ORDER_PLACEMENT:
      return "placement";
    case v1::ORDER_BOMBARDMENT:
      return "bombardment";
    case v1::ORDER_MOVE:
      return "move";
    case v1::ORDER_ATTACK:
      return "attack";
    case v1::ORDER_HEADER:
      return "header";
    default:
      return "unspecified";
  }
}

std::string VerdictName(const v1::OrderVerdict& v) {
  return "verdicts[" + std::string(OrderKindLabel(v.order_kind())) + " " +
         std::to_string(v.index()) + "]";
}

// Expected verdicts are matched to actual ones by (order_kind, index); when
// several actual verdicts share the key (header verdicts), the first unused
// one that agrees on every set field is taken, else the first unused one.
void CompareVerdicts(const v1::Expect& expect, const std::vector<v1::OrderVerdict>& actual,
                     CaseOutcome& outcome) {
  const std::set<std::string> key_fields = {"order_kind", "index"};
  std::vector<bool> used(actual.size(), false);
  for (const v1::OrderVerdict& e : expect.verdicts()) {
    std::optional<std::size_t> pick;
    std::optional<std::size_t> first;
    for (std::size_t j = 0; j < actual.size(); ++j) {
      const v1::OrderVerdict& a = actual[j];
      if (used[j] || a.order_kind() != e.order_kind() || a.index() != e.index()) continue;
      if (!first) first = j;
      if (MatchesSetFields(e, a, key_fields)) {
        pick = j;
        break;
      }
    }
    if (!pick) pick = first;
    if (!pick) {
      outcome.mismatches.push_back(Mismatch(VerdictName(e), "a verdict " + ShortText(e), "none"));
      continue;
    }
    used[*pick] = true;
    for (std::string& line : DiffSetFields(e, actual[*pick], VerdictName(e), key_fields)) {
      outcome.mismatches.push_back(std::move(line));
    }
  }
  if (expect.has_verdict_count() && expect.verdict_count() != static_cast<int>(actual.size())) {
    outcome.mismatches.push_back(Mismatch("expect.verdict_count",
                                          Quote(std::to_string(expect.verdict_count())),
                                          Quote(std::to_string(actual.size()))));
    for (const v1::OrderVerdict& a : actual) {
      outcome.mismatches.push_back("  | " + VerdictName(a) + " " + ShortText(a));
    }
  }
}

// Expected events must appear in order; other events may come between them.
void CompareEvents(const v1::Expect& expect, const std::vector<v1::Event>& actual,
                   CaseOutcome& outcome) {
  std::size_t next = 0;
  for (int i = 0; i < expect.events_size(); ++i) {
    const v1::Event& e = expect.events(i);
    std::size_t j = next;
    while (j < actual.size() && !MatchesSetFields(e, actual[j], {})) ++j;
    if (j == actual.size()) {
      outcome.mismatches.push_back(Mismatch(
          "events[" + std::to_string(i) + "]",
          "an event " + ShortText(e) +
              (next > 0 ? " after event seq " + std::to_string(actual[next - 1].seq()) : ""),
          "none"));
      continue;
    }
    next = j + 1;
  }
}

// The actual state of a unit as an ExpectedUnit with every field set; the
// hex label is written `width` digits per number.
v1::ExpectedUnit ActualUnit(const std::string& id, const engine::UnitState& u, int width) {
  v1::ExpectedUnit a;
  a.set_id(id);
  a.set_hex(u.hex ? engine::FormatLabel(*u.hex, width) : std::string());
  a.set_cs(u.cs);
  a.set_mv(u.mv);
  a.set_eliminated(u.eliminated);
  a.set_in_command(u.in_command);
  a.set_stuck(u.stuck);
  a.set_moved_this_turn(u.moved_this_turn);
  a.set_bombarded_this_turn(u.bombarded_this_turn);
  a.set_reaction_fires(u.reaction_fires);
  a.set_victorious(u.victorious);
  return a;
}

// A case that stops because something it names does not load.
CaseOutcome LoadErrors(const std::string& what, const std::vector<codec::Error>& errors) {
  CaseOutcome outcome;
  outcome.errors.push_back(what);
  for (const std::string& e : ErrorStrings(errors)) outcome.errors.push_back("  | " + e);
  return outcome;
}

class TurnRunner {
 public:
  TurnRunner(const v1::ScenarioCase& sc, const fs::path& root, std::string source,
             RulesetCache& rulesets)
      : sc_(sc), root_(root), source_(std::move(source)), rulesets_(rulesets) {}

  CaseOutcome Run() {
    const v1::TurnCase& tc = sc_.turn();
    if (tc.mode() != v1::TURN_MODE_CHECK && tc.mode() != v1::TURN_MODE_RESOLVE) {
      return Error("turn.mode must be TURN_MODE_CHECK or TURN_MODE_RESOLVE");
    }
    const fs::path ruleset_dir =
        root_ / (sc_.ruleset().empty() ? std::string(kDefaultRuleset) : sc_.ruleset());
    const auto& ruleset = rulesets_.Get(ruleset_dir);
    if (!ruleset.ok()) {
      return LoadErrors("ruleset " + ruleset_dir.string() + " does not load:", ruleset.errors());
    }
    // Parameter overrides: merged over the ruleset's and validated again.
    std::optional<codec::LoadedRuleset> overridden;
    if (sc_.has_parameters()) {
      v1::Ruleset merged = ruleset.value().proto;
      merged.mutable_parameters()->MergeFrom(sc_.parameters());
      auto converted = codec::RulesetFromProto(merged, source_ + ": parameters");
      if (!converted.ok()) return LoadErrors("the parameters do not load:", converted.errors());
      overridden.emplace(std::move(converted).value());
    }
    const engine::Ruleset& rules = overridden ? overridden->ruleset : ruleset.value().ruleset;

    if (tc.has_scenario() == !tc.scenario_file().empty()) {
      return Error("turn: give either scenario or scenario_file");
    }
    const auto scenario =
        tc.has_scenario()
            ? codec::ScenarioFromProto(tc.scenario(), source_ + ": turn.scenario", rules)
            : codec::LoadScenarioFile(root_ / tc.scenario_file(), rules);
    if (!scenario.ok()) return LoadErrors("the scenario does not load:", scenario.errors());
    const engine::Scenario& sc = scenario.value().scenario;
    label_width_ = std::max<int>(
        2, static_cast<int>(std::to_string(std::max(sc.map.width(), sc.map.height())).size()));

    engine::GameState state = engine::InitialState(sc, std::string(kCaseGameId));
    if (tc.turn() != 0) state.turn = tc.turn();
    if (tc.side_to_move() != v1::SIDE_UNSPECIFIED) {
      const auto side = codec::SideFromProto(tc.side_to_move());
      if (!side) return Error("turn.side_to_move: not a side");
      state.side_to_move = *side;
    }
    for (int i = 0; i < tc.state_size(); ++i) {
      if (!ApplyOverride(tc.state(i), i, sc, state)) return std::move(outcome_);
    }
    if (!CheckExpectedUnits(sc)) return std::move(outcome_);

    const engine::Orders orders = codec::OrdersFromProto(tc.orders());
    if (tc.mode() == v1::TURN_MODE_RESOLVE) {
      std::vector<engine::ScriptedRoll> script;
      for (const v1::ScriptedDie& d : tc.dice()) {
        engine::ScriptedRoll roll;
        if (d.die() == v1::DIE_D4) roll.die = engine::Die::kD4;
        if (d.die() == v1::DIE_D6) roll.die = engine::Die::kD6;
        if (d.die() == v1::DIE_D9) roll.die = engine::Die::kD9;
        roll.value = d.value();
        script.push_back(roll);
      }
      engine::ScriptedDice dice(std::move(script));
      const engine::TurnResult result = engine::ResolvePlayerTurn(rules, sc, state, orders, dice);
      if (!dice.ok()) outcome_.mismatches.push_back("turn.dice: " + dice.problem());
      if (dice.remaining() > 0) {
        outcome_.mismatches.push_back("turn.dice: " + std::to_string(dice.remaining()) +
                                      " scripted rolls were not used");
      }
      const v1::TurnResult proto =
          codec::TurnResultToProto(result, sc, state.turn, state.side_to_move);
      const std::vector<v1::OrderVerdict> verdicts(proto.verdicts().begin(),
                                                   proto.verdicts().end());
      const std::vector<v1::Event> events(proto.events().begin(), proto.events().end());
      Compare(sc, result.next_state, verdicts, events);
      return std::move(outcome_);
    }

    std::vector<v1::OrderVerdict> verdicts;
    for (const engine::OrderVerdict& v : engine::ValidateOrders(rules, sc, state, orders)) {
      verdicts.push_back(codec::VerdictToProto(v));
    }
    const std::vector<v1::Event> events;  // checking orders changes nothing and logs nothing
    Compare(sc, state, verdicts, events);
    return std::move(outcome_);
  }

 private:
  CaseOutcome Error(std::string message) {
    outcome_.errors.push_back(std::move(message));
    return std::move(outcome_);
  }

  bool ApplyOverride(const v1::ExpectedUnit& o, int i, const engine::Scenario& sc,
                     engine::GameState& state) {
    const std::string where = "turn.state[" + std::to_string(i) + "]";
    const auto id = sc.FindUnit(o.id());
    if (!id) {
      outcome_.errors.push_back(where + ": unknown unit " + Quote(o.id()));
      return false;
    }
    engine::UnitState& u = state.unit(*id);
    if (o.has_hex()) {
      if (o.hex().empty()) {
        u.hex.reset();
      } else if (const auto hex = engine::ParseLabel(o.hex())) {
        u.hex = *hex;
      } else {
        outcome_.errors.push_back(where + ".hex: bad label " + Quote(o.hex()));
        return false;
      }
    }
    if (o.has_cs()) u.cs = o.cs();
    if (o.has_mv()) u.mv = o.mv();
    if (o.has_eliminated()) u.eliminated = o.eliminated();
    if (o.has_in_command()) u.in_command = o.in_command();
    if (o.has_stuck()) u.stuck = o.stuck();
    if (o.has_moved_this_turn()) u.moved_this_turn = o.moved_this_turn();
    if (o.has_bombarded_this_turn()) u.bombarded_this_turn = o.bombarded_this_turn();
    if (o.has_reaction_fires()) u.reaction_fires = o.reaction_fires();
    if (o.has_victorious()) u.victorious = o.victorious();
    return true;
  }

  bool CheckExpectedUnits(const engine::Scenario& sc) {
    for (int i = 0; i < sc_.expect().units_size(); ++i) {
      const v1::ExpectedUnit& e = sc_.expect().units(i);
      const std::string where = "expect.units[" + std::to_string(i) + "]";
      if (!sc.FindUnit(e.id())) {
        outcome_.errors.push_back(where + ": unknown unit " + Quote(e.id()));
      } else if (e.has_hex() && !e.hex().empty() && !engine::ParseLabel(e.hex())) {
        outcome_.errors.push_back(where + ".hex: bad label " + Quote(e.hex()));
      }
    }
    return outcome_.errors.empty();
  }

  void Compare(const engine::Scenario& sc, const engine::GameState& post,
               const std::vector<v1::OrderVerdict>& verdicts,
               const std::vector<v1::Event>& events) {
    const v1::Expect& expect = sc_.expect();
    v1::Expect actual;
    for (const v1::OrderVerdict& v : verdicts) *actual.add_verdicts() = v;
    actual.set_verdict_count(static_cast<int>(verdicts.size()));
    if (expect.events_size() > 0) {
      for (const v1::Event& e : events) *actual.add_events() = e;
    }
    for (const v1::ExpectedUnit& e : expect.units()) {
      const engine::UnitId id = *sc.FindUnit(e.id());
      const int width =
          e.has_hex() && !e.hex().empty() ? static_cast<int>(e.hex().size() / 2) : label_width_;
      v1::ExpectedUnit a = ActualUnit(e.id(), post.unit(id), width);
      for (std::string& line : DiffSetFields(e, a, "units[" + e.id() + "]", {"id"})) {
        outcome_.mismatches.push_back(std::move(line));
      }
      // Bless keeps the expectation partial: only the fields it names.
      std::vector<const gpb::FieldDescriptor*> all;
      a.GetReflection()->ListFields(a, &all);
      for (const gpb::FieldDescriptor* f : all) {
        if (f->name() != "id" && !e.GetReflection()->HasField(e, f)) {
          a.GetReflection()->ClearField(&a, f);
        }
      }
      *actual.add_units() = std::move(a);
    }
    CompareVerdicts(expect, verdicts, outcome_);
    CompareEvents(expect, events, outcome_);
    if (ExpectIsEmpty(expect)) outcome_.mismatches.push_back("expect: states nothing");
    outcome_.actual = std::move(actual);
  }

  const v1::ScenarioCase& sc_;
  const fs::path& root_;
  std::string source_;
  RulesetCache& rulesets_;
  int label_width_ = 2;
  CaseOutcome outcome_;
};

CaseOutcome RunCase(const fs::path& file, const std::string& shown, const fs::path& root,
                    RulesetCache& rulesets) {
  CaseOutcome outcome;
  const codec::Result<std::string> bytes = codec::ReadFile(file);
  if (!bytes.ok()) {
    outcome.errors = ErrorStrings(bytes.errors());
    return outcome;
  }
  v1::ScenarioCase sc;
  const auto parsed = codec::ParseMessage(bytes.value(), codec::Format::kText, shown, sc);
  if (!parsed.ok()) {
    outcome.errors = ErrorStrings(parsed.errors());
    return outcome;
  }
  if (sc.title().empty()) outcome.errors.push_back("title: not set");
  if (sc.rule().empty()) outcome.errors.push_back("rule: not set (digest section and tag)");
  for (std::string& e : InapplicableExpectations(sc)) outcome.errors.push_back(std::move(e));
  if (!outcome.errors.empty()) return outcome;
  switch (sc.kind_case()) {
    case v1::ScenarioCase::kHex:
      return RunHexCase(sc);
    case v1::ScenarioCase::kRulesetLoad:
      return RunRulesetLoadCase(sc, root);
    case v1::ScenarioCase::kTurn:
      return TurnRunner(sc, root, shown, rulesets).Run();
    case v1::ScenarioCase::KIND_NOT_SET:
      break;
  }
  outcome.errors.push_back("the case has no kind: hex, ruleset_load or turn");
  return outcome;
}

// ---- --bless: rewriting the expect block -------------------------------------

bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Skips a comment or a string literal starting at `i`; returns the index
// after it, or `i` when there is none there.
std::size_t SkipCommentOrString(const std::string& text, std::size_t i) {
  if (text[i] == '#') {
    const std::size_t eol = text.find('\n', i);
    return eol == std::string::npos ? text.size() : eol + 1;
  }
  if (text[i] == '"' || text[i] == '\'') {
    const char quote = text[i];
    std::size_t j = i + 1;
    while (j < text.size() && text[j] != quote && text[j] != '\n') {
      j += text[j] == '\\' ? 2 : 1;
    }
    return std::min(j + 1, text.size());
  }
  return i;
}

// The [begin, end) range of the top-level `expect { ... }` (or `expect: {`,
// `expect < ... >`) block of a text-format file, from the `e` of `expect` to
// just after the closing bracket.
std::optional<std::pair<std::size_t, std::size_t>> FindTopLevelBlock(const std::string& text,
                                                                     std::string_view name) {
  int depth = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    if (const std::size_t after = SkipCommentOrString(text, i); after != i) {
      i = after;
      continue;
    }
    const char c = text[i];
    if (c == '{' || c == '<') {
      ++depth;
      ++i;
      continue;
    }
    if (c == '}' || c == '>') {
      --depth;
      ++i;
      continue;
    }
    if (!IsIdentChar(c)) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && IsIdentChar(text[j])) ++j;
    if (depth != 0 || std::string_view(text).substr(i, j - i) != name) {
      i = j;
      continue;
    }
    // Found the field name at top level: find its opening bracket.
    std::size_t k = j;
    const auto skip_blank = [&] {
      while (k < text.size()) {
        if (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\r') {
          ++k;
        } else if (text[k] == '#') {
          k = SkipCommentOrString(text, k);
        } else {
          break;
        }
      }
    };
    skip_blank();
    if (k < text.size() && text[k] == ':') {
      ++k;
      skip_blank();
    }
    if (k >= text.size() || (text[k] != '{' && text[k] != '<')) return std::nullopt;
    int inner = 0;
    while (k < text.size()) {
      if (const std::size_t after = SkipCommentOrString(text, k); after != k) {
        k = after;
        continue;
      }
      if (text[k] == '{' || text[k] == '<') ++inner;
      if (text[k] == '}' || text[k] == '>') {
        if (--inner == 0) return std::make_pair(i, k + 1);
      }
      ++k;
    }
    return std::nullopt;  // unbalanced; the parser would have refused it
  }
  return std::nullopt;
}

std::string ExpectBlockText(const v1::Expect& expect) {
  gpb::TextFormat::Printer printer;
  printer.SetInitialIndentLevel(1);
  printer.SetUseShortRepeatedPrimitives(true);
  std::string body;
  printer.PrintToString(expect, &body);
  return "expect {\n" + body + "}";
}

// Rewrites the expect block of `file`; returns an error message or "".
std::string Bless(const fs::path& file, const v1::Expect& actual) {
  const codec::Result<std::string> bytes = codec::ReadFile(file);
  if (!bytes.ok()) return bytes.ErrorText();
  std::string text = bytes.value();
  const std::string block = ExpectBlockText(actual);
  if (const auto range = FindTopLevelBlock(text, "expect")) {
    text.replace(range->first, range->second - range->first, block);
  } else {
    if (!text.empty() && text.back() != '\n') text += '\n';
    text += block + "\n";
  }
  const fs::path tmp = file.string() + ".bless-tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) return "cannot write " + tmp.string();
  }
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) return "cannot replace " + file.string() + ": " + ec.message();
  return "";
}

// ---- The command --------------------------------------------------------------

struct Options {
  bool bless = false;
  bool verbose = false;
  std::vector<std::string> paths;
};

class Command {
 public:
  Command(Options options, std::ostream& out, std::ostream& err)
      : options_(std::move(options)), out_(out), err_(err), root_(Normal(DataDir())) {}

  int Run() {
    // Resolve the arguments and collect the cases.
    std::set<fs::path> cases;
    std::vector<fs::path> dirs;  // directory arguments: SCHEDULE entries below them are checked
    std::vector<Problem> empty_dirs;
    for (const std::string& arg : options_.paths) {
      // Relative to the repository root first (so `pbem scenario tests/scenarios`
      // works from the build directory too), else to the current directory.
      fs::path path(arg);
      if (path.is_relative() && fs::exists(root_ / path)) path = root_ / path;
      if (!fs::exists(path)) {
        err_ << "pbem scenario: no such file or directory: " << arg << "\n";
        return 2;
      }
      path = Normal(path);
      if (fs::is_directory(path)) {
        dirs.push_back(path);
        std::size_t found = 0;
        for (const auto& e : fs::recursive_directory_iterator(path)) {
          if (e.is_regular_file() && EndsWith(e.path().filename().string(), kCaseSuffix)) {
            cases.insert(Normal(e.path()));
            ++found;
          }
        }
        if (found == 0) empty_dirs.push_back({Show(path), "no *.case.textproto file below it"});
      } else {
        cases.insert(path);
      }
    }

    // SCHEDULE problems first: they concern the whole run.
    for (const fs::path& dir : dirs) {
      schedules_.Governing(dir);
      schedules_.LoadBelow(dir);
    }
    for (const fs::path& c : cases) schedules_.Governing(c.parent_path());
    for (const auto& [dir, schedule] : schedules_.all()) {
      for (const auto& [line, message] : schedule->problems) {
        Fail({Show(schedule->file) + ":" + std::to_string(line), message});
      }
      for (const auto& [listed, entry] : schedule->entries) {
        // A named copy: clang 14 cannot capture a structured binding in a lambda.
        const fs::path& path = listed;
        const bool in_scope = cases.count(path) > 0 ||
                              std::any_of(dirs.begin(), dirs.end(),
                                          [&](const fs::path& d) { return IsUnder(path, d); });
        if (in_scope && !fs::is_regular_file(path)) {
          Fail({Show(path), "listed in " + Show(schedule->file) + ":" + std::to_string(entry.line) +
                                " but the file does not exist"});
        }
      }
    }
    for (const Problem& p : empty_dirs) Fail(p);

    for (const fs::path& c : cases) RunOne(c);

    out_ << passed_ << " passed, " << failed_ << " failed\n";
    return failed_ > 0 ? 1 : 0;
  }

 private:
  // The path as the report shows it: relative to the repository root when
  // below it.
  std::string Show(const fs::path& path) const {
    if (IsUnder(path, root_)) return path.lexically_relative(root_).generic_string();
    return path.generic_string();
  }

  void Fail(const Problem& p) {
    out_ << "FAIL " << p.subject << "\n  " << p.message << "\n";
    ++failed_;
  }

  void RunOne(const fs::path& file) {
    const std::string shown = Show(file);
    CaseOutcome outcome;
    try {
      outcome = RunCase(file, shown, root_, rulesets_);
    } catch (const std::exception& e) {
      outcome.errors.push_back(std::string("internal error: ") + e.what());
    }

    std::vector<std::string> lines = outcome.errors;
    lines.insert(lines.end(), outcome.mismatches.begin(), outcome.mismatches.end());

    const Schedule* schedule = schedules_.Governing(file.parent_path());
    const ScheduleEntry* entry = nullptr;
    if (schedule != nullptr) {
      if (const auto it = schedule->entries.find(file); it != schedule->entries.end()) {
        entry = &it->second;
      }
    }
    bool ok = false;
    if (entry == nullptr) {
      lines.insert(lines.begin(),
                   schedule == nullptr
                       ? std::string("not in SCHEDULE (no SCHEDULE file above it)")
                       : "not in SCHEDULE (" + Show(schedule->file) + "): add \"" +
                             (outcome.failed() ? "KNOWN_BUG " : "PASS ") +
                             file.lexically_relative(schedule->dir).generic_string() +
                             (outcome.failed() ? " <reason>" : "") + "\"");
    } else if (entry->status == Expectation::kPass) {
      ok = !outcome.failed();
    } else if (!outcome.errors.empty()) {
      // A broken case file is never a known bug of the engine.
    } else if (!outcome.failed()) {
      lines.insert(lines.begin(), "KNOWN_BUG now passes: update SCHEDULE (" + Show(schedule->file) +
                                      ":" + std::to_string(entry->line) + ")");
    } else {
      ok = true;
    }

    if (ok && entry->status == Expectation::kKnownBug) {
      out_ << "KNOWN_BUG " << shown;
      if (!entry->reason.empty()) out_ << " (" << entry->reason << ")";
      out_ << "\n";
      if (options_.verbose) Indent(lines);
    } else if (ok) {
      out_ << "PASS " << shown << "\n";
    } else {
      out_ << "FAIL " << shown << "\n";
      Indent(lines);
    }
    if (options_.verbose) PrintActual(outcome);
    if (ok) {
      ++passed_;
      return;
    }
    ++failed_;
    const bool known_bug = entry != nullptr && entry->status == Expectation::kKnownBug;
    if (options_.bless && !known_bug && outcome.errors.empty() && !outcome.mismatches.empty() &&
        outcome.actual) {
      const std::string error = Bless(file, *outcome.actual);
      if (error.empty()) {
        out_ << "BLESSED " << shown << "\n";
      } else {
        out_ << "  cannot bless: " << error << "\n";
      }
    }
  }

  void Indent(const std::vector<std::string>& lines) {
    for (const std::string& line : lines) out_ << "  " << line << "\n";
  }

  void PrintActual(const CaseOutcome& outcome) {
    if (!outcome.actual) return;
    out_ << "  actual:\n";
    std::istringstream block(ExpectBlockText(*outcome.actual));
    for (std::string line; std::getline(block, line);) out_ << "    " << line << "\n";
  }

  Options options_;
  std::ostream& out_;
  std::ostream& err_;
  fs::path root_;
  Schedules schedules_;
  RulesetCache rulesets_;
  int passed_ = 0;
  int failed_ = 0;
};

}  // namespace

int RunScenarioCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options options;
  bool only_paths = false;
  for (const std::string& arg : args) {
    if (!only_paths && arg == "--") {
      only_paths = true;
    } else if (!only_paths && arg == "--bless") {
      options.bless = true;
    } else if (!only_paths && arg == "--verbose") {
      options.verbose = true;
    } else if (!only_paths && (arg == "--help" || arg == "-h")) {
      out << kUsage;
      return 0;
    } else if (!only_paths && arg.size() > 1 && arg[0] == '-') {
      err << "pbem scenario: unknown option " << arg << "\n" << kUsage;
      return 2;
    } else {
      options.paths.push_back(arg);
    }
  }
  if (options.paths.empty()) {
    err << "pbem scenario: no PATH given\n" << kUsage;
    return 2;
  }
  try {
    return Command(std::move(options), out, err).Run();
  } catch (const std::exception& e) {
    err << "pbem scenario: " << e.what() << "\n";
    return 2;
  }
}

int RunScenarioCommand(const std::vector<std::string>& args) {
  return RunScenarioCommand(args, std::cout, std::cerr);
}

}  // namespace pbem::cli
