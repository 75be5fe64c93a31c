// ImapIdleWatcher: prompt pick-up of order mail. On a connection of its own to the game
// mailbox it LOGINs, SELECTs the mailbox and waits in IMAP IDLE (RFC 2177); when the server
// announces new mail ("* N EXISTS") it calls `on_new_mail` (pbemd wakes the intake worker, which
// polls at once). The periodic poll (pbemd.mail.in.poll_seconds) stays as it was: IDLE only
// makes it prompt, and nothing is lost when IDLE is off, unsupported or the connection drops.
//
// The connection is libcurl's in connect-only mode on pbemd.mail.in.url, so imap:// and
// imaps:// and the CA bundle (pbemd.mail.ca_file) behave exactly as for the mailbox itself.
// IDLE is renewed every 25 minutes (servers may drop it after 30); after an error the watcher
// reconnects after 5 s, then twice as long each time up to 2 minutes. A server that refuses
// IDLE is logged once and left alone.
#ifndef PBEM_DAEMON_MAIL_IDLE_H_
#define PBEM_DAEMON_MAIL_IDLE_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "daemon/config.h"
#include "storage/status.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace pbem::daemon::mail {

// True for an untagged response that announces new mail: "* 3 EXISTS" (any case).
bool AnnouncesNewMail(std::string_view line);
// An IMAP quoted string: "..." with \ and " escaped.
std::string ImapQuoted(std::string_view text);
// The mailbox named by an imap(s)://host[:port]/MAILBOX URL; "INBOX" when there is none.
std::string MailboxOfUrl(std::string_view url);

class ImapIdleWatcher {
 public:
  ImapIdleWatcher(MailInConfig config, spdlog::logger& logger, std::function<void()> on_new_mail);
  ~ImapIdleWatcher();
  ImapIdleWatcher(const ImapIdleWatcher&) = delete;
  ImapIdleWatcher& operator=(const ImapIdleWatcher&) = delete;

  void Start();
  // Ends IDLE (DONE, LOGOUT) within about 200 ms and joins the thread.
  void Stop();

 private:
  class Connection;
  enum class End { kStopped, kUnsupported };
  void Run();
  // One connection: login, select, IDLE until Stop() (kStopped), an IDLE refusal
  // (kUnsupported) or an error (the status).
  Result<End> Session();
  bool Stopping();

  MailInConfig config_;
  spdlog::logger& logger_;
  std::function<void()> on_new_mail_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_IDLE_H_
