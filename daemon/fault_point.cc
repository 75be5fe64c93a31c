#include "daemon/fault_point.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace pbem::daemon {

namespace {

std::function<void(std::string_view)>& Hook() {
  static std::function<void(std::string_view)> hook;
  return hook;
}
std::atomic<bool> hook_set{false};

std::string_view ActionName(FaultAction action) {
  switch (action) {
    case FaultAction::kPause:
      return "pause";
    case FaultAction::kStop:
      return "stop";
    case FaultAction::kAbort:
      return "abort";
    case FaultAction::kFail:
      return "fail";
  }
  return "?";
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// What PBEM_FAULT armed, and which points were reached; lives as long as the process.
struct Armed {
  std::vector<FaultEntry> entries;
  std::optional<Status> error;  // PBEM_FAULT did not parse: nothing is armed
  std::atomic<spdlog::logger*> logger{nullptr};
  std::mutex mutex;
  std::condition_variable reached_cv;
  std::set<std::string> reached;
  std::set<std::string> paused;  // pause is once only
};

Armed& FromEnvironment() {
  static Armed* armed = [] {
    auto* a = new Armed;  // never freed: a stopped thread may still use it at exit
    const char* spec = std::getenv("PBEM_FAULT");  // NOLINT(concurrency-mt-unsafe): once
    if (spec != nullptr) {
      Result<std::vector<FaultEntry>> parsed = ParseFaultSpec(spec);
      if (parsed.ok()) {
        a->entries = std::move(*parsed);
      } else {
        a->error = parsed.status();
      }
    }
    return a;
  }();
  return *armed;
}

void Log(Armed& armed, const FaultEntry& entry, std::string_view context, std::string_view note) {
  spdlog::logger* logger = armed.logger.load();
  if (logger == nullptr) return;
  logger->warn("event=fault_point name={} action={} {} note=\"test-only (PBEM_FAULT): {}\"",
               entry.point, ActionName(entry.action), context, note);
  logger->flush();
}

void MarkReached(Armed& armed, std::string_view name) {
  {
    std::lock_guard lock(armed.mutex);
    armed.reached.emplace(name);
  }
  armed.reached_cv.notify_all();
}

void Pause(Armed& armed, const FaultEntry& entry, std::string_view context) {
  {
    std::lock_guard lock(armed.mutex);
    if (!armed.paused.insert(entry.point).second) return;
  }
  namespace fs = std::filesystem;
  Log(armed, entry, context, "waits for its release");
  const fs::path dir = entry.argument;
  std::ofstream(dir / (entry.point + ".reached")) << "reached\n";
  MarkReached(armed, entry.point);
  const fs::path go = dir / (entry.point + ".go");
  const auto until = std::chrono::steady_clock::now() + kFaultPauseLimit;
  std::error_code ec;
  while (!fs::exists(go, ec)) {
    if (std::chrono::steady_clock::now() >= until) {
      Log(armed, entry, context, "never released: goes on");
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  fs::remove(go, ec);
}

}  // namespace

Result<std::vector<FaultEntry>> ParseFaultSpec(std::string_view spec) {
  std::vector<FaultEntry> entries;
  while (!spec.empty()) {
    const std::size_t comma = spec.find(',');
    const std::string_view item = Trim(spec.substr(0, comma));
    spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
    if (item.empty()) continue;
    const std::size_t colon = item.find(':');
    FaultEntry entry;
    entry.point = std::string(Trim(item.substr(0, colon)));
    std::string_view rest = colon == std::string_view::npos ? "" : item.substr(colon + 1);
    const std::size_t second = rest.find(':');
    const std::string_view action = rest.substr(0, second);
    entry.argument = second == std::string_view::npos ? "" : std::string(rest.substr(second + 1));
    if (action == "pause") {
      entry.action = FaultAction::kPause;
    } else if (action == "stop") {
      entry.action = FaultAction::kStop;
    } else if (action == "abort") {
      entry.action = FaultAction::kAbort;
    } else if (action == "fail") {
      entry.action = FaultAction::kFail;
    } else {
      return Status::InvalidArgument("PBEM_FAULT: \"" + std::string(item) +
                                     "\": expected <point>:pause:<dir>, <point>:stop[:<text>], "
                                     "<point>:abort[:<text>] or <point>:fail[:<text>]");
    }
    if (std::find(std::begin(kFaultPointNames), std::end(kFaultPointNames), entry.point) ==
        std::end(kFaultPointNames)) {
      return Status::InvalidArgument("PBEM_FAULT: \"" + std::string(item) +
                                     "\": no such fault point (daemon/README.md lists them)");
    }
    if (entry.point.empty() || (entry.action == FaultAction::kPause && entry.argument.empty())) {
      return Status::InvalidArgument("PBEM_FAULT: \"" + std::string(item) +
                                     "\": a point name is needed, and pause needs a directory");
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

Result<std::vector<FaultEntry>> ArmedFaultPoints(spdlog::logger* logger) {
  Armed& armed = FromEnvironment();
  if (armed.error) return *armed.error;
  armed.logger.store(logger);
  return armed.entries;
}

void FaultPoint(std::string_view name, std::string_view context) {
  if (hook_set.load(std::memory_order_acquire)) Hook()(name);
  Armed& armed = FromEnvironment();
  for (const FaultEntry& entry : armed.entries) {
    if (entry.point != name) continue;
    switch (entry.action) {
      case FaultAction::kPause:
        Pause(armed, entry, context);
        break;
      case FaultAction::kStop:
        if (!entry.argument.empty() && context.find(entry.argument) == std::string_view::npos) {
          break;
        }
        Log(armed, entry, context, "this thread stops");
        MarkReached(armed, name);
        for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
      case FaultAction::kAbort:
        if (!entry.argument.empty() && context.find(entry.argument) == std::string_view::npos) {
          break;
        }
        Log(armed, entry, context, "the process aborts");
        std::abort();
      case FaultAction::kFail:
        break;  // FaultFailure's
    }
  }
}

Status FaultFailure(std::string_view name, std::string_view context) {
  Armed& armed = FromEnvironment();
  for (const FaultEntry& entry : armed.entries) {
    if (entry.point != name || entry.action != FaultAction::kFail) continue;
    if (!entry.argument.empty() && context.find(entry.argument) == std::string_view::npos) {
      continue;
    }
    Log(armed, entry, context, "the work fails");
    MarkReached(armed, name);
    return Status::Internal("fault point " + std::string(name) + " failed on purpose (" +
                            std::string(context) + ")");
  }
  return Status::Ok();
}

void SetArmedFaultPointsForTest(std::vector<FaultEntry> entries) {
  FromEnvironment().entries = std::move(entries);
}

bool FaultArmed(std::string_view name) {
  for (const FaultEntry& entry : FromEnvironment().entries) {
    if (entry.point == name) return true;
  }
  return false;
}

void WaitForFaultPoint(std::string_view name) {
  if (!FaultArmed(name)) return;
  Armed& armed = FromEnvironment();
  std::unique_lock lock(armed.mutex);
  armed.reached_cv.wait(lock, [&] { return armed.reached.count(std::string(name)) > 0; });
}

void SetFaultHook(std::function<void(std::string_view)> hook) {
  hook_set.store(false, std::memory_order_release);
  Hook() = std::move(hook);
  if (Hook()) hook_set.store(true, std::memory_order_release);
}

}  // namespace pbem::daemon
