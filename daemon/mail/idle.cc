#include "daemon/mail/idle.h"

#include <curl/curl.h>
#include <poll.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <exception>

namespace pbem::daemon::mail {
namespace {

constexpr auto kIdleRenewal = std::chrono::minutes(25);
constexpr auto kCommandTimeout = std::chrono::seconds(30);
constexpr auto kFirstBackoff = std::chrono::seconds(5);
constexpr auto kMaxBackoff = std::chrono::seconds(120);
constexpr int kPollSliceMs = 200;  // how soon Stop() is noticed

std::string Upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

}  // namespace

bool AnnouncesNewMail(std::string_view line) {
  if (line.size() < 4 || line.substr(0, 2) != "* ") return false;
  std::size_t i = 2;
  const std::size_t digits = i;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])) != 0) ++i;
  if (i == digits || i >= line.size() || line[i] != ' ') return false;
  std::string rest = Upper(line.substr(i + 1));
  while (!rest.empty() && (rest.back() == '\r' || rest.back() == ' ')) rest.pop_back();
  return rest == "EXISTS";
}

std::string ImapQuoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string MailboxOfUrl(std::string_view url) {
  const std::size_t scheme = url.find("://");
  const std::size_t slash = url.find('/', scheme == std::string_view::npos ? 0 : scheme + 3);
  if (slash == std::string_view::npos) return "INBOX";
  std::string_view box = url.substr(slash + 1);
  while (!box.empty() && box.back() == '/') box.remove_suffix(1);
  return box.empty() ? "INBOX" : std::string(box);
}

// One IMAP connection through libcurl (connect-only: libcurl connects, does TLS for imaps://
// and reads the greeting; the commands are ours).
class ImapIdleWatcher::Connection {
 public:
  explicit Connection(const MailInConfig& config) : curl_(curl_easy_init()) {
    if (curl_ == nullptr) return;
    curl_easy_setopt(curl_, CURLOPT_URL, config.url.c_str());
    curl_easy_setopt(curl_, CURLOPT_CONNECT_ONLY, 1L);
    curl_easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl_, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(curl_, CURLOPT_ERRORBUFFER, error_);
    if (!config.ca_file.empty()) curl_easy_setopt(curl_, CURLOPT_CAINFO, config.ca_file.c_str());
  }
  ~Connection() {
    if (curl_ != nullptr) curl_easy_cleanup(curl_);
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  Status Open() {
    if (curl_ == nullptr) return Status::Internal("curl_easy_init failed");
    const CURLcode code = curl_easy_perform(curl_);
    if (code != CURLE_OK) return Failure("connecting", code);
    if (curl_easy_getinfo(curl_, CURLINFO_ACTIVESOCKET, &socket_) != CURLE_OK ||
        socket_ == CURL_SOCKET_BAD) {
      return Status::IoError("IMAP IDLE: no socket after connecting");
    }
    return Status::Ok();
  }

  Status Send(const std::string& line) {
    const std::string data = line + "\r\n";
    std::size_t done = 0;
    while (done < data.size()) {
      std::size_t sent = 0;
      const CURLcode code = curl_easy_send(curl_, data.data() + done, data.size() - done, &sent);
      if (code == CURLE_AGAIN) {
        pollfd p{socket_, POLLOUT, 0};
        ::poll(&p, 1, kPollSliceMs);
        continue;
      }
      if (code != CURLE_OK) return Failure("sending", code);
      done += sent;
    }
    return Status::Ok();
  }

  // Reads one line (without CRLF) into *line. Returns false in *got when `slice_ms` passed
  // without a whole line (the caller checks for Stop() and calls again).
  Status ReadLine(std::string* line, bool* got) {
    *got = false;
    for (;;) {
      const std::size_t end = buffer_.find("\r\n");
      if (end != std::string::npos) {
        *line = buffer_.substr(0, end);
        buffer_.erase(0, end + 2);
        *got = true;
        return Status::Ok();
      }
      char chunk[4096];
      std::size_t n = 0;
      const CURLcode code = curl_easy_recv(curl_, chunk, sizeof chunk, &n);
      if (code == CURLE_AGAIN) {
        pollfd p{socket_, POLLIN, 0};
        if (::poll(&p, 1, kPollSliceMs) == 0) return Status::Ok();
        continue;
      }
      if (code != CURLE_OK) return Failure("reading", code);
      if (n == 0) return Status::IoError("IMAP IDLE: the server closed the connection");
      buffer_.append(chunk, n);
      if (buffer_.size() > (1 << 20)) return Status::IoError("IMAP IDLE: a line over 1 MiB");
    }
  }

 private:
  Status Failure(const char* what, CURLcode code) const {
    return Status::IoError(std::string("IMAP IDLE: ") + what + ": " +
                           (error_[0] != '\0' ? error_ : curl_easy_strerror(code)));
  }

  CURL* curl_;
  curl_socket_t socket_ = CURL_SOCKET_BAD;
  std::string buffer_;
  char error_[CURL_ERROR_SIZE] = {};
};

ImapIdleWatcher::ImapIdleWatcher(MailInConfig config, spdlog::logger& logger,
                                 std::function<void()> on_new_mail)
    : config_(std::move(config)), logger_(logger), on_new_mail_(std::move(on_new_mail)) {}

ImapIdleWatcher::~ImapIdleWatcher() { Stop(); }

void ImapIdleWatcher::Start() {
  thread_ = std::thread([this] {
    try {
      Run();
    } catch (const std::exception& e) {
      // A bug, not a server's answer: IDLE ends, the periodic poll goes on.
      logger_.error("event=imap_idle_stopped error={}", QuoteLogValue(e.what()));
    }
  });
}

void ImapIdleWatcher::Stop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool ImapIdleWatcher::Stopping() {
  std::lock_guard lock(mutex_);
  return stop_;
}

void ImapIdleWatcher::Run() {
  auto backoff = std::chrono::duration_cast<std::chrono::seconds>(kFirstBackoff);
  while (!Stopping()) {
    Result<End> end = Session();
    if (end.ok() && *end == End::kUnsupported) {
      logger_.warn("event=imap_idle_unsupported url={} fallback=poll", QuoteLogValue(config_.url));
      return;
    }
    if (end.ok()) return;  // stopped
    logger_.warn("event=imap_idle_failed error={} retry_seconds={}",
                 QuoteLogValue(end.status().ToString()), backoff.count());
    std::unique_lock lock(mutex_);
    if (cv_.wait_for(lock, backoff, [this] { return stop_; })) return;
    backoff = std::min(backoff * 2, std::chrono::duration_cast<std::chrono::seconds>(kMaxBackoff));
  }
}

Result<ImapIdleWatcher::End> ImapIdleWatcher::Session() {
  Connection connection(config_);
  if (Status opened = connection.Open(); !opened.ok()) return opened;
  int tag_number = 0;
  std::string line;
  // Runs a command to its tagged answer; untagged lines announcing mail are passed on.
  auto command = [&](const std::string& text, std::string* tagged) -> Status {
    const std::string tag = "i" + std::to_string(++tag_number);
    if (Status sent = connection.Send(tag + " " + text); !sent.ok()) return sent;
    const auto deadline = std::chrono::steady_clock::now() + kCommandTimeout;
    for (;;) {
      bool got = false;
      if (Status read = connection.ReadLine(&line, &got); !read.ok()) return read;
      if (!got) {
        if (Stopping()) return Status::Ok();
        if (std::chrono::steady_clock::now() > deadline) {
          return Status::IoError("IMAP IDLE: no answer to " + text.substr(0, text.find(' ')));
        }
        continue;
      }
      if (line.rfind(tag + " ", 0) == 0) {
        *tagged = Upper(line.substr(tag.size() + 1, 3));
        return Status::Ok();
      }
      if (line.rfind("+", 0) == 0 && text == "IDLE") {
        *tagged = "+";
        return Status::Ok();
      }
    }
  };
  std::string answer;
  if (Status s = command("LOGIN " + ImapQuoted(config_.user) + " " + ImapQuoted(config_.password),
                         &answer);
      !s.ok() || Stopping()) {
    return s.ok() ? Result<End>(End::kStopped) : Result<End>(s);
  }
  if (answer.rfind("OK", 0) != 0) return Status::IoError("IMAP IDLE: LOGIN refused");
  if (Status s = command("SELECT " + ImapQuoted(MailboxOfUrl(config_.url)), &answer);
      !s.ok() || Stopping()) {
    return s.ok() ? Result<End>(End::kStopped) : Result<End>(s);
  }
  if (answer.rfind("OK", 0) != 0) return Status::IoError("IMAP IDLE: SELECT refused");

  bool announced = false;
  for (;;) {
    const std::string idle_tag = "i" + std::to_string(tag_number + 1);
    if (Status s = command("IDLE", &answer); !s.ok() || Stopping()) {
      return s.ok() ? Result<End>(End::kStopped) : Result<End>(s);
    }
    if (answer != "+") return End::kUnsupported;
    if (!announced) {
      logger_.info("event=imap_idle_ready url={}", QuoteLogValue(config_.url));
      announced = true;
    }
    // Mail may have come between the last poll and IDLE: one wake-up costs one poll.
    if (on_new_mail_) on_new_mail_();
    const auto renew_at = std::chrono::steady_clock::now() + kIdleRenewal;
    bool stop = false;
    while (!stop && std::chrono::steady_clock::now() < renew_at) {
      bool got = false;
      if (Status read = connection.ReadLine(&line, &got); !read.ok()) return read;
      if (got && AnnouncesNewMail(line) && on_new_mail_) on_new_mail_();
      stop = Stopping();
    }
    if (Status sent = connection.Send("DONE"); !sent.ok()) return sent;
    // The IDLE command's tagged answer.
    const auto deadline = std::chrono::steady_clock::now() + kCommandTimeout;
    for (;;) {
      bool got = false;
      if (Status read = connection.ReadLine(&line, &got); !read.ok()) return read;
      if (got && line.rfind(idle_tag + " ", 0) == 0) break;
      if (got && AnnouncesNewMail(line) && on_new_mail_) on_new_mail_();
      if (std::chrono::steady_clock::now() > deadline) {
        return Status::IoError("IMAP IDLE: no answer to DONE");
      }
    }
    if (stop) {
      (void)connection.Send("i0 LOGOUT");
      return End::kStopped;
    }
  }
}

}  // namespace pbem::daemon::mail
