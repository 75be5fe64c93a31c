// One HTTP connection of the front (daemon/http/server.h), on its own thread: reads each
// request head and body against deadlines and limits, has the request handled on a worker,
// writes the answer, and waits for the next request of a kept-alive connection.
#ifndef PBEM_DAEMON_HTTP_CONNECTION_H_
#define PBEM_DAEMON_HTTP_CONNECTION_H_

#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/Runnable.h>

#include <chrono>
#include <string>

#include "daemon/http/exchange.h"
#include "daemon/http/framing.h"
#include "daemon/http/server.h"
#include "daemon/http/worker_pool.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace pbem::daemon::http {

// What a connection needs from its server.
class ConnectionHost {
 public:
  virtual ~ConnectionHost() = default;
  virtual const ServerLimits& limits() const = 0;
  // Readable once the server stops.
  virtual int stop_fd() const = 0;
  virtual const Poco::Net::HTTPServerParams& params() const = 0;
  virtual WorkerPool& workers() = 0;
  virtual spdlog::logger& logger() = 0;
  virtual void CountBusy() = 0;
  virtual void CountTimeout() = 0;
  virtual void CountFraming() = 0;
  // Runs the handler on a worker thread. Never throws.
  virtual void Handle(BufferedRequest& request, BufferedResponse& response) = 0;
  // Called by the connection's thread once the connection is closed and deleted.
  virtual void ConnectionClosed() = 0;
};

class Connection : public Poco::Runnable {
 public:
  // A connection that deletes itself at the end of run() (then calls host.ConnectionClosed()).
  static Connection* New(ConnectionHost& host, Poco::Net::StreamSocket socket,
                         std::chrono::steady_clock::time_point accepted);
  ~Connection() override = default;
  virtual const Poco::Net::StreamSocket& socket() const = 0;
};

// A complete answer written by the front itself: the JSON error of `refusal`, with Retry-After
// for a 503, and "Connection: close".
std::string RefusalAnswer(const Refusal& refusal, std::chrono::seconds retry_after);

// The 503 of a full server.
Refusal Busy(std::chrono::seconds retry_after);

}  // namespace pbem::daemon::http

#endif  // PBEM_DAEMON_HTTP_CONNECTION_H_
