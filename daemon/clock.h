// Clock: where the daemon's workers read the time, so that tests can drive the scheduler
// with a fake one. Storage and the engine never read a clock; the daemon passes times in.
#ifndef PBEM_DAEMON_CLOCK_H_
#define PBEM_DAEMON_CLOCK_H_

#include <chrono>
#include <mutex>

#include "storage/game_repository.h"

namespace pbem::daemon {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual storage::Timestamp Now() const = 0;
};

class SystemClock final : public Clock {
 public:
  storage::Timestamp Now() const override {
    return std::chrono::time_point_cast<std::chrono::milliseconds>(
        std::chrono::system_clock::now());
  }
};

// A clock that moves only when told (unit tests). Thread-safe.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(storage::Timestamp start) : now_(start) {}
  storage::Timestamp Now() const override {
    std::lock_guard lock(mutex_);
    return now_;
  }
  void Advance(std::chrono::milliseconds by) {
    std::lock_guard lock(mutex_);
    now_ += by;
  }

 private:
  mutable std::mutex mutex_;
  storage::Timestamp now_;
};

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_CLOCK_H_
