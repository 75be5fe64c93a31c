#include "daemon/cli/scenario_runner.h"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "daemon/cli/cli.h"
#include "daemon/cli/scenario_parts.h"

namespace pbem::cli {
namespace {

using namespace scenario;  // NOLINT: the command's own parts (scenario_parts.h)

constexpr std::string_view kCaseSuffix = ".case.textproto";

constexpr std::string_view kUsage =
    "usage: pbem scenario [--bless] [--verbose] PATH...\n"
    "  Runs scenario catalogue cases (*.case.textproto files, or directories\n"
    "  searched recursively for them) against the SCHEDULE above them.\n"
    "  --bless    rewrite the expect block of failing (non-KNOWN_BUG) cases with\n"
    "             the actual results; review the diff before committing\n"
    "  --verbose  also print each case's actual results\n"
    "  See tests/scenarios/README.md.\n";

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
