#include "daemon/fault_points.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace pbem::daemon {

FaultPoints::FaultPoints(std::string_view spec) {
  while (!spec.empty()) {
    const std::size_t comma = spec.find(',');
    std::string_view name = spec.substr(0, comma);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (!name.empty()) armed_.emplace(name);
    if (comma == std::string_view::npos) break;
    spec.remove_prefix(comma + 1);
  }
}

std::unique_ptr<FaultPoints> FaultPoints::FromEnvironment() {
  const char* spec = std::getenv("PBEM_FAULT");  // NOLINT(concurrency-mt-unsafe): at start
  return std::make_unique<FaultPoints>(spec == nullptr ? "" : spec);
}

void FaultPoints::Stop(std::string_view name, const std::string& detail, spdlog::logger& logger) {
  {
    std::lock_guard lock(mutex_);
    reached_.emplace(name);
  }
  reached_cv_.notify_all();
  logger.warn("event=fault_point name={} {} note=\"test-only (PBEM_FAULT): this thread stops\"",
              name, detail);
  logger.flush();
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

void FaultPoints::WaitFor(std::string_view name) {
  if (!armed(name)) return;
  std::unique_lock lock(mutex_);
  reached_cv_.wait(lock, [&] { return reached_.count(std::string(name)) > 0; });
}

Status FaultMailer::Send(const mail::OutgoingMessage& message) {
  Status sent = inner_->Send(message);
  if (sent.ok() && faults_.armed(kFaultHoldOutboxAfterSend)) {
    faults_.Stop(kFaultHoldOutboxAfterSend, "mail=" + message.name, logger_);
  }
  return sent;
}

}  // namespace pbem::daemon
