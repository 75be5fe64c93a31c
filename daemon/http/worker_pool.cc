#include "daemon/http/worker_pool.h"

#include <utility>

namespace pbem::daemon::http {

WorkerPool::WorkerPool(int workers, int queue) : queue_(queue) {
  threads_.reserve(static_cast<std::size_t>(workers));
  for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { Run(); });
}

WorkerPool::~WorkerPool() { Stop(); }

bool WorkerPool::TrySubmit(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    // Jobs already queued go to the idle threads first; `queue_` more may wait.
    if (stopping_ || static_cast<int>(jobs_.size()) >= idle_ + queue_) return false;
    jobs_.push_back(std::move(job));
  }
  ready_.notify_one();
  return true;
}

bool WorkerPool::HasRoom() const {
  std::lock_guard lock(mutex_);
  return !stopping_ && static_cast<int>(jobs_.size()) < idle_ + queue_;
}

int WorkerPool::Waiting() const {
  std::lock_guard lock(mutex_);
  return static_cast<int>(jobs_.size());
}

void WorkerPool::Stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
  }
  ready_.notify_all();
  for (std::thread& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
  std::lock_guard lock(mutex_);
  threads_.clear();
}

void WorkerPool::Run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    ++idle_;
    ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    --idle_;
    if (jobs_.empty()) return;  // stopping, nothing left to run
    std::function<void()> job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    job();
    lock.lock();
  }
}

}  // namespace pbem::daemon::http
