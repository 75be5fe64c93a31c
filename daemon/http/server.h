// pbemd's HTTP/1.1 front: accepts connections, reads each request head and body under size and
// time limits, hands complete requests to a bounded pool of workers that run the handlers of
// daemon/http_api.h, and writes their answers.
//
// Why not Poco::Net::HTTPServer: its TCPServerDispatcher closes a connection without a word
// when its queue is full, a worker thread stays with one connection for as long as the client
// keeps it (a slow head, an idle keep-alive: 4 such clients stopped pbemd's 4 workers), its
// only timeout is per read (a header line every 18 s never trips it), it sends "100 Continue"
// before any handler can look at the head, and it throws on "Content-Length: abc" and closes
// without an answer. Here:
//   - one thread per connection (at most max_connections) waits on the socket with poll()
//     against deadlines: the whole head within header_timeout, the whole body within
//     body_timeout, the next request of a kept-alive connection within idle_timeout; those
//     threads never run handlers, so slow or idle clients cost a thread and a socket only;
//   - `workers` threads run the handlers; at most `queue` complete requests wait for one;
//   - beyond either bound the client gets 503 with Retry-After, never a silent close;
//   - the head is parsed by Poco's HTTPRequest::read (its field and URI limits apply) and the
//     framing decided by DecideFraming (daemon/http/framing.h) before the body is read;
//     "100 Continue" is sent only for a body that passes those checks.
#ifndef PBEM_DAEMON_HTTP_SERVER_H_
#define PBEM_DAEMON_HTTP_SERVER_H_

#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/ServerSocket.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace spdlog {
class logger;
}  // namespace spdlog

namespace pbem::daemon::http {

struct ServerLimits {
  int workers = 8;            // handlers running at once
  int queue = 64;             // complete requests waiting for a worker; more: 503
  int max_connections = 256;  // connections open at once; more: 503 at once
  std::chrono::milliseconds header_timeout{10000};  // the whole request head
  std::chrono::milliseconds body_timeout{30000};    // the whole body; also writing an answer
  std::chrono::milliseconds idle_timeout{5000};     // between requests on one connection
  std::chrono::seconds retry_after{2};              // Retry-After of a 503
  std::size_t max_header_bytes = 16384;             // request line and header fields
  int max_header_fields = 64;
  std::size_t max_body_bytes = 1 << 20;  // Content-Length or decoded chunked body
};

// Counters since Start (tests and logs).
struct ServerStats {
  int open_connections = 0;           // now
  int waiting_requests = 0;           // now: complete requests waiting for a worker
  std::uint64_t refused_busy = 0;     // 503 answers (too many connections or a full queue)
  std::uint64_t timed_out = 0;        // heads or bodies cut off by their deadline
  std::uint64_t refused_framing = 0;  // 400/413/414/417/431/501 before a handler ran
};

class Server {
 public:
  // `socket` is bound and listening. REQUIRES: factory and logger not null.
  Server(Poco::Net::ServerSocket socket,
         std::unique_ptr<Poco::Net::HTTPRequestHandlerFactory> factory, ServerLimits limits,
         std::shared_ptr<spdlog::logger> logger);
  ~Server();  // Stop()
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  void Start();
  // Stops accepting, lets the requests being handled finish and their answers be written,
  // closes every connection. Idempotent.
  void Stop();
  ServerStats Stats() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace pbem::daemon::http

#endif  // PBEM_DAEMON_HTTP_SERVER_H_
