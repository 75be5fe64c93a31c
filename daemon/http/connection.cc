#include "daemon/http/connection.h"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPRequest.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <future>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "daemon/config.h"
#include "daemon/http_api.h"
#include "daemon/mail/replies.h"

namespace pbem::daemon::http {
namespace {

using Clock = std::chrono::steady_clock;
using Poco::Net::HTTPResponse;

constexpr std::size_t kMaxChunkLine = 1024;       // chunk-size line with its extensions
constexpr std::size_t kReadSize = 16384;          // bytes asked of one recv()
constexpr std::chrono::seconds kLinger{2};        // draining a refused client's bytes
constexpr std::size_t kMaxLingerBytes = 1 << 20;  // ... at most this many

// The outcome of waiting for, or reading from, the socket.
enum class Io { kReady, kTimeout, kClosed, kStopped };

}  // namespace

std::string RefusalAnswer(const Refusal& refusal, std::chrono::seconds retry_after) {
  BufferedResponse answer;
  answer.setVersion(Poco::Net::HTTPMessage::HTTP_1_1);
  answer.setStatusAndReason(static_cast<HTTPResponse::HTTPStatus>(refusal.status));
  answer.setContentType("application/json");
  if (refusal.status == HTTPResponse::HTTP_SERVICE_UNAVAILABLE) {
    answer.set("Retry-After", std::to_string(retry_after.count()));
  }
  answer.send() << ErrorBody(refusal.code, refusal.message);
  return answer.Serialize(/*keep_alive=*/false, /*head_only=*/false);
}

Refusal Busy(std::chrono::seconds retry_after) {
  return Refusal{
      HTTPResponse::HTTP_SERVICE_UNAVAILABLE, "busy",
      "the server is busy; try again in " + std::to_string(retry_after.count()) + " seconds"};
}

namespace {

int MillisecondsUntil(Clock::time_point deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, INT_MAX));
}

// One connection, on its own thread: reads requests, has them handled, writes the answers.
class ConnectionImpl final : public Connection {
 public:
  ConnectionImpl(ConnectionHost& server, Poco::Net::StreamSocket socket, Clock::time_point accepted)
      : server_(server),
        limits_(server.limits()),
        socket_(std::move(socket)),
        fd_(socket_.impl()->sockfd()),
        accepted_(accepted) {}

  const Poco::Net::StreamSocket& socket() const override { return socket_; }

  void run() override {
    try {
      Serve();
    } catch (const Poco::Exception& e) {
      server_.logger().debug("event=http_connection_failed error={}",
                             QuoteLogValue(e.displayText()));
    } catch (const std::exception& e) {
      server_.logger().debug("event=http_connection_failed error={}", QuoteLogValue(e.what()));
    }
    try {
      socket_.close();
    } catch (const Poco::Exception&) {
    }
    ConnectionHost& server = server_;
    delete this;
    server.ConnectionClosed();
  }

 private:
  // The outcome of reading a body: read, refused (answered), or the client went away.
  struct BodyOutcome {
    bool ok = false;
    std::optional<Refusal> refusal;
  };

  void Serve() {
    try {
      client_ = socket_.peerAddress();
      local_ = socket_.address();
    } catch (const Poco::Exception&) {
      return;  // already gone
    }
    Clock::time_point head_deadline = accepted_ + limits_.header_timeout;
    for (bool first = true;; first = false) {
      in_.erase(0, pos_);
      pos_ = 0;
      if (!first) {
        // Kept alive: wait for the next request's first byte, then give it a whole head time.
        SkipBlankLines();
        while (pos_ == in_.size()) {
          if (Fill(Clock::now() + limits_.idle_timeout) != Io::kReady) return;
          SkipBlankLines();
        }
        head_deadline = Clock::now() + limits_.header_timeout;
      }
      if (!ServeOne(head_deadline)) return;
    }
  }

  // One request and its answer; false when the connection is to be closed.
  bool ServeOne(Clock::time_point head_deadline) {
    std::optional<std::size_t> end;
    for (;;) {
      SkipBlankLines();
      end = FindHeadEnd(std::string_view(in_).substr(pos_));
      if (end || in_.size() - pos_ > limits_.max_header_bytes) break;
      const Io io = Fill(head_deadline);
      if (io == Io::kTimeout && in_.size() > pos_) {
        server_.CountTimeout();
        return Refuse(Refusal{HTTPResponse::HTTP_REQUEST_TIMEOUT, "timeout",
                              "the request head did not arrive within " +
                                  std::to_string(limits_.header_timeout.count()) + " ms"});
      }
      if (io != Io::kReady) return false;
    }
    if (!end || *end > limits_.max_header_bytes) {
      server_.CountFraming();
      const std::string_view pending = std::string_view(in_).substr(pos_);
      const std::size_t line_end = pending.find('\n');
      const std::string limit = std::to_string(limits_.max_header_bytes);
      if (line_end == std::string_view::npos || line_end > limits_.max_header_bytes) {
        return Refuse(Refusal{HTTPResponse::HTTP_REQUEST_URI_TOO_LONG, "uri_too_long",
                              "the request line is longer than " + limit + " bytes"});
      }
      return Refuse(Refusal{HTTPResponse::HTTP_REQUEST_HEADER_FIELDS_TOO_LARGE, "headers_too_large",
                            "the request header fields are longer than " + limit + " bytes"});
    }

    BufferedResponse response;
    BufferedRequest request(response, client_, local_, server_.params());
    request.setFieldLimit(limits_.max_header_fields);
    {
      std::istringstream head(in_.substr(pos_, *end));
      pos_ += *end;
      try {
        request.read(head);
      } catch (const Poco::Exception& e) {
        server_.CountFraming();
        return Refuse(Refusal{HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                              "the request head does not parse: " + e.message()});
      }
    }
    const std::string& version = request.getVersion();
    const bool http10 = version == Poco::Net::HTTPMessage::HTTP_1_0;
    if (!http10 && version != Poco::Net::HTTPMessage::HTTP_1_1) {
      server_.CountFraming();
      const bool http = version.rfind("HTTP/", 0) == 0;
      return Refuse(
          Refusal{http ? HTTPResponse::HTTP_VERSION_NOT_SUPPORTED : HTTPResponse::HTTP_BAD_REQUEST,
                  http ? "version_not_supported" : mail::kMalformed,
                  "the request line's version " + QuoteHeaderValue(version) +
                      " is not HTTP/1.0 or HTTP/1.1"});
    }
    response.setVersion(http10 ? Poco::Net::HTTPMessage::HTTP_1_0
                               : Poco::Net::HTTPMessage::HTTP_1_1);

    const auto decided = DecideFraming(request, limits_.max_body_bytes);
    if (const auto* refusal = std::get_if<Refusal>(&decided)) {
      server_.CountFraming();
      return Refuse(*refusal);
    }
    const BodyFraming& framing = std::get<BodyFraming>(decided);
    const Clock::time_point body_deadline = Clock::now() + limits_.body_timeout;
    if (framing.expect_continue) {
      if (!server_.workers().HasRoom()) return RefuseBusy();
      if (!WriteAll("HTTP/1.1 100 Continue\r\n\r\n", body_deadline)) return false;
    }
    std::string body;
    const BodyOutcome outcome = ReadBody(framing, body_deadline, body);
    if (outcome.refusal) return Refuse(*outcome.refusal);
    if (!outcome.ok) return false;
    request.SetBody(std::move(body));

    std::promise<void> done;
    std::future<void> handled = done.get_future();
    if (!server_.workers().TrySubmit([&] {
          server_.Handle(request, response);
          done.set_value();
        })) {
      return RefuseBusy();
    }
    handled.wait();

    const bool keep_alive = request.getKeepAlive() && response.getKeepAlive();
    const bool head_only = request.getMethod() == Poco::Net::HTTPRequest::HTTP_HEAD;
    if (!WriteAll(response.Serialize(keep_alive, head_only), Clock::now() + limits_.body_timeout)) {
      return false;
    }
    if (!keep_alive) Linger();
    return keep_alive;
  }

  BodyOutcome ReadBody(const BodyFraming& framing, Clock::time_point deadline, std::string& body) {
    switch (framing.kind) {
      case BodyFraming::Kind::kNone:
        return BodyOutcome{true, std::nullopt};
      case BodyFraming::Kind::kLength:
        return ReadExact(static_cast<std::size_t>(framing.length), deadline, body);
      case BodyFraming::Kind::kChunked:
        return ReadChunked(deadline, body);
    }
    return BodyOutcome{};
  }

  BodyOutcome ReadChunked(Clock::time_point deadline, std::string& body) {
    const std::size_t max = limits_.max_body_bytes;
    for (;;) {
      std::string line;
      BodyOutcome read = ReadLine(kMaxChunkLine, deadline, line);
      if (!read.ok) return read;
      const std::optional<std::uint64_t> size = ParseChunkSize(line);
      if (!size) {
        server_.CountFraming();
        return Refused(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                       "the chunk size " + QuoteHeaderValue(line) +
                           " is not hexadecimal (Transfer-Encoding: chunked)");
      }
      if (*size > max - body.size()) {
        server_.CountFraming();
        return Refused(HTTPResponse::HTTP_REQUESTENTITYTOOLARGE, mail::kOversized,
                       "the chunked body (Transfer-Encoding: chunked) is larger than the limit "
                       "of " +
                           std::to_string(max) + " bytes");
      }
      if (*size == 0) break;
      std::string chunk;
      read = ReadExact(static_cast<std::size_t>(*size), deadline, chunk);
      if (!read.ok) return read;
      body += chunk;
      read = ReadLine(2, deadline, line);
      if (!read.ok) return read;
      if (!line.empty()) {
        server_.CountFraming();
        return Refused(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                       "a chunk of " + std::to_string(*size) +
                           " bytes is not followed by CRLF (Transfer-Encoding: chunked)");
      }
    }
    // Trailer fields: read and ignored, bounded like a head.
    std::size_t trailers = 0;
    for (;;) {
      std::string line;
      const BodyOutcome read = ReadLine(kMaxChunkLine, deadline, line);
      if (!read.ok) return read;
      if (line.empty()) return BodyOutcome{true, std::nullopt};
      trailers += line.size();
      if (trailers > limits_.max_header_bytes) {
        server_.CountFraming();
        return Refused(HTTPResponse::HTTP_REQUEST_HEADER_FIELDS_TOO_LARGE, "headers_too_large",
                       "the chunked body's trailer fields are longer than " +
                           std::to_string(limits_.max_header_bytes) + " bytes");
      }
    }
  }

  static BodyOutcome Refused(HTTPResponse::HTTPStatus status, std::string code,
                             std::string message) {
    return BodyOutcome{false, Refusal{status, std::move(code), std::move(message)}};
  }

  // A read that did not complete: a timeout is answered 408, anything else closes.
  BodyOutcome Incomplete(Io io) {
    if (io != Io::kTimeout) return BodyOutcome{};
    server_.CountTimeout();
    return Refused(HTTPResponse::HTTP_REQUEST_TIMEOUT, "timeout",
                   "the request body did not arrive within " +
                       std::to_string(limits_.body_timeout.count()) + " ms");
  }

  BodyOutcome ReadExact(std::size_t size, Clock::time_point deadline, std::string& out) {
    while (in_.size() - pos_ < size) {
      const Io io = Fill(deadline);
      if (io != Io::kReady) return Incomplete(io);
    }
    out.assign(in_, pos_, size);
    pos_ += size;
    return BodyOutcome{true, std::nullopt};
  }

  // A line without its CRLF (or LF); refused 400 when longer than `max`.
  BodyOutcome ReadLine(std::size_t max, Clock::time_point deadline, std::string& line) {
    std::size_t lf;
    while ((lf = in_.find('\n', pos_)) == std::string::npos) {
      if (in_.size() - pos_ > max + 1) break;
      const Io io = Fill(deadline);
      if (io != Io::kReady) return Incomplete(io);
    }
    if (lf == std::string::npos || lf - pos_ > max + 1) {
      server_.CountFraming();
      return Refused(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                     "a line of the chunked body (Transfer-Encoding: chunked) is longer than " +
                         std::to_string(max) + " bytes");
    }
    line.assign(in_, pos_, lf - pos_);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    pos_ = lf + 1;
    return BodyOutcome{true, std::nullopt};
  }

  // Empty lines before a request line are ignored (RFC 9112 2.2).
  void SkipBlankLines() {
    while (pos_ < in_.size() && (in_[pos_] == '\r' || in_[pos_] == '\n')) ++pos_;
  }

  bool RefuseBusy() {
    server_.CountBusy();
    return Refuse(Busy(limits_.retry_after));
  }

  // Answers `refusal` and closes the connection (false, for ServeOne's callers).
  bool Refuse(const Refusal& refusal) {
    server_.logger().debug("event=http_refused status={} reason={}", refusal.status,
                           QuoteLogValue(refusal.message));
    const Clock::time_point deadline =
        Clock::now() + std::min<Clock::duration>(limits_.body_timeout, kLinger);
    if (WriteAll(RefusalAnswer(refusal, limits_.retry_after), deadline)) Linger();
    return false;
  }

  // Half-closes, then reads and drops what the client still sends (a body it had started)
  // until it closes, for at most kLinger or kMaxLingerBytes: closing a socket with unread
  // bytes resets the connection, and the client may then lose the answer.
  void Linger() {
    ::shutdown(fd_, SHUT_WR);
    const Clock::time_point until = Clock::now() + kLinger;
    std::size_t dropped = 0;
    while (dropped < kMaxLingerBytes) {
      if (Wait(POLLIN, until, /*stoppable=*/true) != Io::kReady) return;
      char sink[kReadSize];
      const ssize_t n = ::recv(fd_, sink, sizeof sink, MSG_DONTWAIT);
      if (n == 0) return;
      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return;
      if (n > 0) dropped += static_cast<std::size_t>(n);
    }
  }

  Io Wait(short events, Clock::time_point deadline, bool stoppable) {
    pollfd fds[2] = {{fd_, events, 0}, {server_.stop_fd(), POLLIN, 0}};
    for (;;) {
      const int timeout = MillisecondsUntil(deadline);
      if (timeout == 0) return Io::kTimeout;
      const int n = ::poll(fds, stoppable ? 2 : 1, timeout);
      if (n < 0) {
        if (errno == EINTR) continue;
        return Io::kClosed;
      }
      if (stoppable && fds[1].revents != 0) return Io::kStopped;
      if (fds[0].revents != 0) return Io::kReady;  // POLLHUP/POLLERR: the next call says
    }
  }

  // Reads what the socket has (at least one byte) into in_.
  Io Fill(Clock::time_point deadline) {
    for (;;) {
      const Io io = Wait(POLLIN, deadline, /*stoppable=*/true);
      if (io != Io::kReady) return io;
      char buffer[kReadSize];
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT);
      if (n > 0) {
        in_.append(buffer, static_cast<std::size_t>(n));
        return Io::kReady;
      }
      if (n == 0) return Io::kClosed;
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return Io::kClosed;
    }
  }

  // Writes all of `data` by `deadline` (an answer being written is finished even while the
  // server stops).
  bool WriteAll(std::string_view data, Clock::time_point deadline) {
    while (!data.empty()) {
      const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n > 0) {
        data.remove_prefix(static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return false;
      if (Wait(POLLOUT, deadline, /*stoppable=*/false) != Io::kReady) return false;
    }
    return true;
  }

  ConnectionHost& server_;
  const ServerLimits& limits_;
  Poco::Net::StreamSocket socket_;
  const int fd_;
  const Clock::time_point accepted_;
  Poco::Net::SocketAddress client_;
  Poco::Net::SocketAddress local_;
  std::string in_;       // bytes received and not yet consumed from pos_ on
  std::size_t pos_ = 0;  // the first unconsumed byte of in_
};

}  // namespace

Connection* Connection::New(ConnectionHost& host, Poco::Net::StreamSocket socket,
                            Clock::time_point accepted) {
  return new ConnectionImpl(host, std::move(socket), accepted);
}

}  // namespace pbem::daemon::http
