// DatabaseHealth: what pbemd knows of its database, heard from every repository's connection
// (storage::ConnectionObserver, one instance shared by all threads). It logs the loss once
// (event=database_down, however many threads notice it) and the return once
// (event=database_up, with how long it was down), and keeps Metrics up to date:
// pbemd_database_up, pbemd_database_reconnects_total, and the reason /healthz gives with its
// 503 (Metrics::database_down()).
//
// The state is the last thing any thread learnt: the scheduler touches the database at every
// pass (pbemd.turns.poll_ms), so a loss is seen within a pass even when nobody sends
// anything, and a return within the reconnection backoff (pbemd.db.reconnect_max_ms).
#ifndef PBEM_DAEMON_DATABASE_HEALTH_H_
#define PBEM_DAEMON_DATABASE_HEALTH_H_

#include <chrono>
#include <mutex>
#include <string>

#include "daemon/metrics.h"
#include "storage/connection.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace pbem::daemon {

class DatabaseHealth final : public storage::ConnectionObserver {
 public:
  // Both must outlive this object; `logger` may be null.
  DatabaseHealth(Metrics& metrics, spdlog::logger* logger) : metrics_(metrics), logger_(logger) {}

  void ConnectionLost(const std::string& store, const std::string& error) override;
  void ConnectionRestored(const std::string& store) override;

 private:
  Metrics& metrics_;
  spdlog::logger* logger_;
  std::mutex mutex_;
  bool down_ = false;
  std::chrono::steady_clock::time_point down_since_;
};

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_DATABASE_HEALTH_H_
