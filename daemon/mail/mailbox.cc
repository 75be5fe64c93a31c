#include "daemon/mail/mailbox.h"

#include <curl/curl.h>

#include <algorithm>
#include <charconv>
#include <sstream>

#include "daemon/mail/idle.h"

namespace pbem::daemon::mail {
namespace {

struct Sink {
  std::string* out;
  std::size_t max_bytes;
  bool truncated = false;
  std::size_t total = 0;  // every byte the server sent, kept or not
};

std::size_t WriteChunk(char* data, std::size_t size, std::size_t count, void* user) {
  auto* sink = static_cast<Sink*>(user);
  const std::size_t n = size * count;
  sink->total += n;
  const std::size_t room = sink->max_bytes - std::min(sink->max_bytes, sink->out->size());
  sink->out->append(data, std::min(n, room));
  if (n > room) sink->truncated = true;
  return n;  // keep reading: the rest is discarded, the connection stays usable
}

}  // namespace

std::vector<std::uint32_t> ParseSearchResponse(const std::string& response) {
  std::vector<std::uint32_t> uids;
  std::istringstream lines(response);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("* SEARCH", 0) != 0) continue;
    std::istringstream words(line.substr(8));
    std::string word;
    while (words >> word) {
      std::uint32_t uid = 0;
      const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), uid);
      if (error == std::errc() && end == word.data() + word.size() && uid > 0) uids.push_back(uid);
    }
  }
  std::sort(uids.begin(), uids.end());
  return uids;
}

ImapMailbox::ImapMailbox(MailInConfig config) : config_(std::move(config)) {
  mailbox_url_ = config_.url;
  while (!mailbox_url_.empty() && mailbox_url_.back() == '/') mailbox_url_.pop_back();
  curl_ = curl_easy_init();
}

ImapMailbox::~ImapMailbox() {
  if (curl_ != nullptr) curl_easy_cleanup(static_cast<CURL*>(curl_));
}

Status ImapMailbox::Perform(const std::string& url, const std::string& command, std::string& out,
                            std::size_t max_bytes, bool* truncated, std::size_t* total) {
  CURL* h = static_cast<CURL*>(curl_);
  if (h == nullptr) return Status::Internal("curl_easy_init failed");
  curl_easy_reset(h);  // keeps the connection cache
  char error_buffer[CURL_ERROR_SIZE] = {};
  Sink sink{&out, max_bytes};
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT, 60L);
  curl_easy_setopt(h, CURLOPT_USERNAME, config_.user.c_str());
  curl_easy_setopt(h, CURLOPT_PASSWORD, config_.password.c_str());
  if (!config_.ca_file.empty()) curl_easy_setopt(h, CURLOPT_CAINFO, config_.ca_file.c_str());
  if (!command.empty()) curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, command.c_str());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &WriteChunk);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
  const CURLcode code = curl_easy_perform(h);
  if (truncated != nullptr) *truncated = sink.truncated;
  if (total != nullptr) *total = sink.total;
  if (code != CURLE_OK) {
    const std::string what = command.empty() ? "FETCH " + url : command;
    return Status::IoError("IMAP " + what + " at " + mailbox_url_ + ": " +
                           (error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(code)));
  }
  return Status::Ok();
}

Result<std::vector<std::uint32_t>> ImapMailbox::ListUids() {
  std::string response;
  // curl keeps the mailbox selected across calls on one connection, and Dovecot only shows
  // mail that arrived since at a sync point: NOOP first, or new mail waits a poll longer.
  Status synced = Perform(mailbox_url_, "NOOP", response, 1 << 16, nullptr);
  if (!synced.ok()) return synced;
  response.clear();
  Status status = Perform(mailbox_url_, "UID SEARCH ALL", response, 1 << 20, nullptr);
  if (!status.ok()) return status;
  return ParseSearchResponse(response);
}

Result<FetchedMessage> ImapMailbox::Fetch(std::uint32_t uid, std::size_t max_bytes) {
  FetchedMessage message;
  Status status = Perform(mailbox_url_ + "/;UID=" + std::to_string(uid), "", message.data,
                          max_bytes, &message.truncated, &message.size_bytes);
  if (!status.ok()) return status;
  return message;
}

Status ImapMailbox::Delete(std::uint32_t uid) {
  std::string ignored;
  Status stored = Perform(mailbox_url_, "UID STORE " + std::to_string(uid) + " +FLAGS (\\Deleted)",
                          ignored, 1 << 16, nullptr);
  if (!stored.ok()) return stored;
  return Perform(mailbox_url_, "EXPUNGE", ignored, 1 << 16, nullptr);
}

Status ImapMailbox::MoveTo(std::uint32_t uid, const std::string& folder) {
  std::string ignored;
  const std::string copy = "UID COPY " + std::to_string(uid) + " " + ImapQuoted(folder);
  Status copied = Perform(mailbox_url_, copy, ignored, 1 << 16, nullptr);
  if (!copied.ok()) {
    // Most likely [TRYCREATE]: the folder does not exist yet. CREATE fails harmlessly when
    // another instance created it meanwhile; the second COPY says whether it worked.
    ignored.clear();
    (void)Perform(mailbox_url_, "CREATE " + ImapQuoted(folder), ignored, 1 << 16, nullptr);
    ignored.clear();
    copied = Perform(mailbox_url_, copy, ignored, 1 << 16, nullptr);
    if (!copied.ok()) return copied;
  }
  return Delete(uid);
}

}  // namespace pbem::daemon::mail
