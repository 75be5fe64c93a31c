// A fixed set of threads running jobs, with a bounded queue: TrySubmit refuses (false) instead
// of waiting when `queue` jobs already wait and no thread is idle.
#ifndef PBEM_DAEMON_HTTP_WORKER_POOL_H_
#define PBEM_DAEMON_HTTP_WORKER_POOL_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pbem::daemon::http {

class WorkerPool {
 public:
  // REQUIRES: workers >= 1, queue >= 0. A job must not throw (it is the caller's boundary).
  WorkerPool(int workers, int queue);
  ~WorkerPool();  // Stop()
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // False (and `job` dropped) when the pool is full or stopped.
  bool TrySubmit(std::function<void()> job);
  // True when TrySubmit would accept a job now (a hint: another thread may take the room).
  bool HasRoom() const;
  int Waiting() const;
  // Runs the jobs already queued, then joins the threads. Idempotent.
  void Stop();

 private:
  void Run();

  const int queue_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  int idle_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace pbem::daemon::http

#endif  // PBEM_DAEMON_HTTP_WORKER_POOL_H_
