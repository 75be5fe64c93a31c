// How many times the intake began to process a mail, kept on disk so that it survives a crash
// (issue 13, finding 1): the intake records an attempt BEFORE it processes a mail and clears it
// after; a mail found with kMaxAttempts recorded attempts failed that often (an exception, or a
// crash that took pbemd down) and goes to quarantine unprocessed. One small file per mail under
// <data_dir>/mail-attempts/, named by the SHA-1 of the mail's bytes (the mailbox UID may change,
// the bytes do not), holding the count; written to a temporary file, fsync'ed and renamed.
// Without a directory (unit tests), counts live in memory only.
#ifndef PBEM_DAEMON_MAIL_ATTEMPTS_H_
#define PBEM_DAEMON_MAIL_ATTEMPTS_H_

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "storage/status.h"

namespace pbem::daemon::mail {

class AttemptLog {
 public:
  // A mail with this many attempts recorded goes to quarantine.
  static constexpr int kMaxAttempts = 2;
  // Recorded once the sender was told of the quarantine (not told twice if the move failed).
  static constexpr int kToldSender = 100;

  explicit AttemptLog(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // The key of a mail: the hex SHA-1 of its bytes.
  static std::string KeyOf(std::string_view data);

  // The count recorded for `key`; 0 when none.
  int Count(const std::string& key) const;
  // Records `count` durably (returns once it is on disk).
  Status Record(const std::string& key, int count);
  // Forgets `key`.
  void Clear(const std::string& key);

 private:
  std::filesystem::path dir_;
  std::map<std::string, int> memory_;  // when dir_ is empty
};

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_ATTEMPTS_H_
