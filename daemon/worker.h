// PeriodicWorker: runs a function on its own thread every `interval` until stopped; Wake()
// runs it at once (e.g. the outbox after a reply was queued). Stop() interrupts the wait, lets
// a running pass finish and joins the thread.
#ifndef PBEM_DAEMON_WORKER_H_
#define PBEM_DAEMON_WORKER_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace pbem::daemon {

class PeriodicWorker {
 public:
  PeriodicWorker(std::chrono::milliseconds interval, std::function<void()> pass)
      : interval_(interval), pass_(std::move(pass)) {}
  ~PeriodicWorker() { Stop(); }
  PeriodicWorker(const PeriodicWorker&) = delete;
  PeriodicWorker& operator=(const PeriodicWorker&) = delete;

  void Start() {
    thread_ = std::thread([this] {
      std::unique_lock lock(mutex_);
      while (!stop_) {
        woken_ = false;
        lock.unlock();
        pass_();
        lock.lock();
        cv_.wait_for(lock, interval_, [this] { return stop_ || woken_; });
      }
    });
  }
  void Wake() {
    {
      std::lock_guard lock(mutex_);
      woken_ = true;
    }
    cv_.notify_all();
  }
  void Stop() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::chrono::milliseconds interval_;
  std::function<void()> pass_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool woken_ = false;
  std::thread thread_;
};

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_WORKER_H_
