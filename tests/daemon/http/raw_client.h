// A raw HTTP/1.1 client on loopback for the front's tests: sends exactly the bytes given and
// reads exactly what comes back (no library fixing up a bad request on the way).
#ifndef PBEM_TESTS_DAEMON_HTTP_RAW_CLIENT_H_
#define PBEM_TESTS_DAEMON_HTTP_RAW_CLIENT_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace pbem::daemon::http::testing {

struct RawResponse {
  int status = 0;  // 0: no complete answer (the connection closed or the time ran out)
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  std::string head;  // the status line and header fields as received

  // The value of header field `name` (lower case), "" when absent.
  std::string Header(const std::string& name) const {
    const auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
  // True when header field `name` (lower case) has `value`, compared without case.
  bool HeaderIs(const std::string& name, std::string_view value) const {
    const std::string actual = Header(name);
    return std::equal(actual.begin(), actual.end(), value.begin(), value.end(),
                      [](char a, char b) { return std::tolower(a) == std::tolower(b); });
  }
};

class RawClient {
 public:
  explicit RawClient(std::uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ =
        fd_ >= 0 && ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  }
  ~RawClient() {
    if (fd_ >= 0) ::close(fd_);
  }
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;

  bool connected() const { return connected_; }

  // False when the server has closed its side for reading (a reset).
  bool Send(std::string_view data) {
    while (!data.empty()) {
      const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }

  // Reads one answer (head, then a Content-Length body), waiting at most `timeout` in all.
  RawResponse Read(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    RawResponse response;
    std::size_t head_end;
    while ((head_end = in_.find("\r\n\r\n")) == std::string::npos) {
      if (!Fill(deadline)) return response;
    }
    response.head = in_.substr(0, head_end + 2);
    std::size_t line_end = in_.find("\r\n");
    const std::string status_line = in_.substr(0, line_end);
    if (status_line.size() < 12 || status_line.rfind("HTTP/1.", 0) != 0) return response;
    for (std::size_t at = line_end + 2; at < head_end + 2;) {
      const std::size_t end = in_.find("\r\n", at);
      const std::string line = in_.substr(at, end - at);
      const std::size_t colon = line.find(':');
      std::string name = line.substr(0, colon);
      std::transform(name.begin(), name.end(), name.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      std::size_t value = colon + 1;
      while (value < line.size() && line[value] == ' ') ++value;
      response.headers[name] = colon == std::string::npos ? "" : line.substr(value);
      at = end + 2;
    }
    const std::size_t length = response.headers.count("content-length")
                                   ? std::stoul(response.headers["content-length"])
                                   : 0;
    const std::size_t body_start = head_end + 4;
    while (in_.size() < body_start + length) {
      if (!Fill(deadline)) return response;
    }
    response.body = in_.substr(body_start, length);
    in_.erase(0, body_start + length);
    response.status = std::stoi(status_line.substr(9, 3));
    return response;
  }

  // True when the server closes the connection (end of stream or reset) within `timeout`
  // without sending anything more.
  bool ClosedWithin(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    const std::size_t before = in_.size();
    while (Fill(deadline)) {
    }
    return closed_ && in_.size() == before;
  }

  // What was received and not read as an answer yet.
  const std::string& pending() const { return in_; }

 private:
  // Reads what arrives before `deadline`; false at the end of the stream or the deadline.
  bool Fill(std::chrono::steady_clock::time_point deadline) {
    pollfd fd{fd_, POLLIN, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0 || ::poll(&fd, 1, static_cast<int>(left)) <= 0) return false;
    char buffer[16384];
    const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
    if (n <= 0) {
      closed_ = true;
      return false;
    }
    in_.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

  int fd_ = -1;
  bool connected_ = false;
  bool closed_ = false;
  std::string in_;
};

}  // namespace pbem::daemon::http::testing

#endif  // PBEM_TESTS_DAEMON_HTTP_RAW_CLIENT_H_
