// What a repository does when its connection to the store breaks (PostgreSQL restarted, the
// network cut): it connects again by itself, with backoff, and says so to an observer.
//
// Contract of SqlRepository (both backends):
//   - A call that fails because the connection is gone returns UNAVAILABLE, and the
//     repository tries once at once to connect again (a stale connection after a restart is
//     replaced without anyone waiting). While the store stays unreachable, calls fail at once
//     with UNAVAILABLE (no call waits on the network beyond libpq's connect_timeout); the
//     next call after `first_delay` tries again, then after twice that, up to `max_delay`.
//     Nothing is retried on the caller's behalf: a write whose connection broke may or may
//     not have committed, so the caller is told UNAVAILABLE and decides (HTTP: 503, the
//     client sends again and a stored copy is recognised as a duplicate).
//   - Locks (TryLock) live on the connection (PostgreSQL advisory locks): when it breaks,
//     they are gone, and another process may take them at once. So the repository never acts
//     silently as if it still held them: after a reconnection, every call other than
//     TryLock/Unlock fails with FAILED_PRECONDITION ("... lost the lock ...") until each lost
//     lock is either released (Unlock: OK, nothing to do on the server) or taken again
//     (TryLock: true only if nobody else took it meanwhile). The holder thus notices the loss
//     at its next call, drops the work it was doing under the lock and starts over (pbemd's
//     scheduler unlocks and retries at its next pass; the mail intake re-takes its lock at
//     every poll).
//   - The observer hears of the loss once per break (not once per failed call) and of each
//     reconnection.
// Timing uses std::chrono::steady_clock: it only paces reconnection attempts; nothing read
// from it is stored (storage's timestamps all come from the caller).
#ifndef PBEM_STORAGE_CONNECTION_H_
#define PBEM_STORAGE_CONNECTION_H_

#include <chrono>
#include <string>

namespace pbem::storage {

struct ReconnectPolicy {
  std::chrono::milliseconds first_delay{100};  // after the immediate attempt failed
  std::chrono::milliseconds max_delay{5000};   // the delay doubles up to this
};

// Hears of a repository's connection state. Called on the thread using the repository;
// implementations shared by several repositories must be thread-safe.
class ConnectionObserver {
 public:
  virtual ~ConnectionObserver() = default;
  // The connection to `store` (a description without secrets) broke and could not be made
  // again at once; `error` says why.
  virtual void ConnectionLost(const std::string& store, const std::string& error) = 0;
  // A connection to `store` was made again after a break.
  virtual void ConnectionRestored(const std::string& store) = 0;
};

}  // namespace pbem::storage

#endif  // PBEM_STORAGE_CONNECTION_H_
