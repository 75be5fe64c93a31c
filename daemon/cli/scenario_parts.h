// The parts of `pbem scenario` (scenario_runner.h), internal to the command:
//   scenario_fields.cc      comparing an expectation with the results, field by field, and
//                           the wording of the mismatch lines
//   scenario_schedule.cc    the SCHEDULE files: which case must pass, which is a known bug
//   scenario_cases.cc       running one case file: hex and ruleset-loading cases
//   scenario_turn_case.cc   turn cases: orders checked or a turn resolved with fixed dice
//   scenario_bless.cc       --bless: rewriting a case's expect block with the actual results
//   scenario_runner.cc      the command: arguments, the cases to run, the report
#ifndef PBEM_DAEMON_CLI_SCENARIO_PARTS_H_
#define PBEM_DAEMON_CLI_SCENARIO_PARTS_H_

#include <google/protobuf/message.h>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pbem/v1/scenario_case.pb.h"
#include "proto/codec/codec.h"

namespace pbem::cli::scenario {

namespace fs = std::filesystem;
namespace gpb = google::protobuf;
namespace v1 = pbem::v1;

// ---- Small helpers and field comparison (scenario_fields.cc) ----------------

bool EndsWith(std::string_view text, std::string_view suffix);
// `text` in double quotes, with ", \, newline and tab escaped.
std::string Quote(std::string_view text);
// "<field>: expected <expected>, actual <actual>".
std::string Mismatch(std::string_view field, std::string_view expected, std::string_view actual);
std::vector<std::string> ErrorStrings(const std::vector<codec::Error>& errors);
// True when `path` is `dir` or lies below it (both absolute and normalised).
bool IsUnder(const fs::path& path, const fs::path& dir);
fs::path Normal(const fs::path& path);

// The fields `expected` sets (proto3: non-default, or present when
// `optional`), except those named in `skip`.
std::vector<const gpb::FieldDescriptor*> SetFields(const gpb::Message& expected,
                                                   const std::set<std::string>& skip);
// Mismatch lines for every field set in `expected` whose value in `actual`
// (same message type) differs. Partial expectations: unset fields are not
// compared.
std::vector<std::string> DiffSetFields(const gpb::Message& expected, const gpb::Message& actual,
                                       std::string_view prefix, const std::set<std::string>& skip);
// True when every field set in `expected` has the same value in `actual`.
bool MatchesSetFields(const gpb::Message& expected, const gpb::Message& actual,
                      const std::set<std::string>& skip);
// The message in text format on one line, in braces.
std::string ShortText(const gpb::Message& message);

// ---- The SCHEDULE (scenario_schedule.cc) -------------------------------------

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

// The SCHEDULE files read so far, by directory.
class Schedules {
 public:
  // The SCHEDULE of the nearest directory at or above `dir` that has one.
  Schedule* Governing(const fs::path& dir);
  // Every SCHEDULE in `dir` and below it.
  void LoadBelow(const fs::path& dir);
  const std::map<fs::path, std::unique_ptr<Schedule>>& all() const { return by_dir_; }

 private:
  Schedule* Load(const fs::path& dir);

  std::map<fs::path, std::unique_ptr<Schedule>> by_dir_;
};

// ---- Running one case (scenario_cases.cc, scenario_turn_case.cc) -------------

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

// The rulesets the turn cases of one run load, each loaded once.
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

// Runs the case in `file` (`shown` names it in the report; paths inside it are relative to
// `root`).
CaseOutcome RunCase(const fs::path& file, const std::string& shown, const fs::path& root,
                    RulesetCache& rulesets);

// Runs a turn case `sc` (its kind is turn; `source` names it in messages).
CaseOutcome RunTurnCase(const v1::ScenarioCase& sc, const fs::path& root, std::string source,
                        RulesetCache& rulesets);

// ---- --bless (scenario_bless.cc) ----------------------------------------------

// `expect` as the block --bless writes ("expect {\n...}").
std::string ExpectBlockText(const v1::Expect& expect);
// Rewrites the expect block of `file`; returns an error message or "".
std::string Bless(const fs::path& file, const v1::Expect& actual);

}  // namespace pbem::cli::scenario

#endif  // PBEM_DAEMON_CLI_SCENARIO_PARTS_H_
