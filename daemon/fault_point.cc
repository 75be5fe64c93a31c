#include "daemon/fault_point.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace pbem::daemon {

namespace {

std::function<void(std::string_view)>& Hook() {
  static std::function<void(std::string_view)> hook;
  return hook;
}
std::atomic<bool> hook_set{false};

// PBEM_FAULT_POINT=<name>:<dir>, read once.
struct EnvPoint {
  std::string name;
  std::filesystem::path dir;
  std::atomic<bool> used{false};
};

EnvPoint* FromEnvironment() {
  static EnvPoint* point = []() -> EnvPoint* {
    const char* value = std::getenv("PBEM_FAULT_POINT");
    if (value == nullptr) return nullptr;
    const std::string text = value;
    const std::size_t colon = text.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) return nullptr;
    auto* p = new EnvPoint;  // lives as long as the process
    p->name = text.substr(0, colon);
    p->dir = text.substr(colon + 1);
    return p;
  }();
  return point;
}

void WaitForGo(const EnvPoint& point) {
  namespace fs = std::filesystem;
  std::ofstream(point.dir / (point.name + ".reached")) << "reached\n";
  const fs::path go = point.dir / (point.name + ".go");
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::error_code ec;
  while (!fs::exists(go, ec) && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  fs::remove(go, ec);
}

}  // namespace

void FaultPoint(std::string_view name) {
  if (hook_set.load(std::memory_order_acquire)) Hook()(name);
  if (EnvPoint* point = FromEnvironment(); point != nullptr && point->name == name) {
    if (!point->used.exchange(true)) WaitForGo(*point);
  }
}

void SetFaultHook(std::function<void(std::string_view)> hook) {
  hook_set.store(false, std::memory_order_release);
  Hook() = std::move(hook);
  if (Hook()) hook_set.store(true, std::memory_order_release);
}

}  // namespace pbem::daemon
