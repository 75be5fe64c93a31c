#include "daemon/database_health.h"

#include <spdlog/spdlog.h>

#include "daemon/config.h"

namespace pbem::daemon {

void DatabaseHealth::ConnectionLost(const std::string& store, const std::string& error) {
  std::lock_guard lock(mutex_);
  metrics_.DatabaseDown("the database (" + store + ") cannot be reached: " + error);
  if (down_) return;  // another thread told already
  down_ = true;
  down_since_ = std::chrono::steady_clock::now();
  if (logger_ != nullptr) {
    logger_->error("event=database_down db={} error={} hint=\"reconnecting with backoff\"",
                   QuoteLogValue(store), QuoteLogValue(error));
  }
}

void DatabaseHealth::ConnectionRestored(const std::string& store) {
  std::lock_guard lock(mutex_);
  metrics_.DatabaseReconnected();
  metrics_.DatabaseUp();
  if (!down_) return;
  down_ = false;
  const auto down_for = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - down_since_);
  if (logger_ != nullptr) {
    logger_->info("event=database_up db={} down_ms={}", QuoteLogValue(store), down_for.count());
  }
}

}  // namespace pbem::daemon
