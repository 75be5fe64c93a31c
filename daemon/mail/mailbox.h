// Mail in: a Mailbox the intake reads (list, fetch, delete by UID) and ImapMailbox, its IMAP
// implementation over libcurl (Poco 1.11 has no IMAP client).
#ifndef PBEM_DAEMON_MAIL_MAILBOX_H_
#define PBEM_DAEMON_MAIL_MAILBOX_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "daemon/config.h"
#include "storage/status.h"

namespace pbem::daemon::mail {

struct FetchedMessage {
  std::string data;            // the message, at most max_bytes of it
  bool truncated = false;      // the message was larger than max_bytes
  std::size_t size_bytes = 0;  // the whole message's size, also when truncated; 0: not known
};

class Mailbox {
 public:
  virtual ~Mailbox() = default;
  // The UIDs of every message in the mailbox, ascending.
  virtual Result<std::vector<std::uint32_t>> ListUids() = 0;
  // The message; keeps only the first max_bytes (the rest is read and discarded).
  virtual Result<FetchedMessage> Fetch(std::uint32_t uid, std::size_t max_bytes) = 0;
  // Removes the message for good (IMAP: UID STORE +FLAGS (\Deleted), then EXPUNGE).
  virtual Status Delete(std::uint32_t uid) = 0;
  // Moves the message into `folder` (a sibling mailbox, created when missing), then removes it
  // here. `folder` is a valid folder name (config: IsQuarantineFolderName).
  virtual Status MoveTo(std::uint32_t uid, const std::string& folder) = 0;
};

// IMAP over libcurl. `config.url` names the mailbox: imap://host:port/INBOX (imaps:// for
// TLS). One connection, reused across calls; not thread-safe. Connect timeout 10 s, each
// command 60 s.
class ImapMailbox final : public Mailbox {
 public:
  explicit ImapMailbox(MailInConfig config);
  ~ImapMailbox() override;
  ImapMailbox(const ImapMailbox&) = delete;
  ImapMailbox& operator=(const ImapMailbox&) = delete;

  Result<std::vector<std::uint32_t>> ListUids() override;
  Result<FetchedMessage> Fetch(std::uint32_t uid, std::size_t max_bytes) override;
  Status Delete(std::uint32_t uid) override;
  // UID COPY to the folder (CREATE first when the COPY fails), then Delete.
  Status MoveTo(std::uint32_t uid, const std::string& folder) override;

 private:
  // Runs one request: `url` with an optional custom command; the response body goes into
  // `out` (at most max_bytes, the rest counted in `truncated`; the whole size in `total`).
  Status Perform(const std::string& url, const std::string& command, std::string& out,
                 std::size_t max_bytes, bool* truncated, std::size_t* total = nullptr);

  MailInConfig config_;
  std::string mailbox_url_;  // config_.url without a trailing '/'
  void* curl_ = nullptr;     // CURL*
};

// Parses the untagged "* SEARCH 3 5 9" lines of a UID SEARCH response.
std::vector<std::uint32_t> ParseSearchResponse(const std::string& response);

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_MAILBOX_H_
