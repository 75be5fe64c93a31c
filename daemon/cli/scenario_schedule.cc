#include <fstream>

#include "daemon/cli/scenario_parts.h"

namespace pbem::cli::scenario {
namespace {

constexpr std::string_view kScheduleName = "SCHEDULE";

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

}  // namespace

Schedule* Schedules::Governing(const fs::path& dir) {
  for (fs::path d = dir;; d = d.parent_path()) {
    if (fs::is_regular_file(d / kScheduleName)) return Load(d);
    if (d == d.root_path() || d.parent_path() == d) return nullptr;
  }
}

void Schedules::LoadBelow(const fs::path& dir) {
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().filename() == kScheduleName) {
      Load(Normal(e.path().parent_path()));
    }
  }
}

Schedule* Schedules::Load(const fs::path& dir) {
  auto it = by_dir_.find(dir);
  if (it == by_dir_.end()) it = by_dir_.emplace(dir, ParseSchedule(dir)).first;
  return it->second.get();
}

}  // namespace pbem::cli::scenario
