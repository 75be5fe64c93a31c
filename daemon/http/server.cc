#include "daemon/http/server.h"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/ThreadPool.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "daemon/config.h"
#include "daemon/http/connection.h"
#include "daemon/http/exchange.h"
#include "daemon/http/worker_pool.h"
#include "daemon/http_api.h"

namespace pbem::daemon::http {
namespace {

using Clock = std::chrono::steady_clock;
using Poco::Net::HTTPResponse;

constexpr std::chrono::seconds kRejectedLinger{1};  // a connection refused on accept
constexpr std::size_t kMaxRejected = 512;           // ... at most this many at once

}  // namespace

class Server::Impl final : public ConnectionHost {
 public:
  Impl(Poco::Net::ServerSocket socket,
       std::unique_ptr<Poco::Net::HTTPRequestHandlerFactory> factory, ServerLimits limits,
       std::shared_ptr<spdlog::logger> logger)
      : socket_(std::move(socket)),
        factory_(std::move(factory)),
        limits_(limits),
        logger_(std::move(logger)),
        params_(new Poco::Net::HTTPServerParams),
        workers_(limits.workers, limits.queue),
        // A connection thread only reads and writes sockets: a small stack is plenty.
        connections_(2, limits.max_connections + 8, 60, 512 * 1024) {
    stop_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  }

  ~Impl() {
    Stop();
    if (stop_fd_ >= 0) ::close(stop_fd_);
  }

  void Start() {
    socket_.setBlocking(false);
    acceptor_ = std::thread([this] { AcceptLoop(); });
  }

  void Stop() {
    {
      std::lock_guard lock(mutex_);
      if (stopped_) return;
      stopped_ = true;
    }
    const std::uint64_t one = 1;
    if (::write(stop_fd_, &one, sizeof one) < 0) {
      logger_->error("event=http_stop_failed error={}", QuoteLogValue("eventfd write failed"));
    }
    if (acceptor_.joinable()) acceptor_.join();
    rejected_.clear();
    socket_.close();
    {
      std::unique_lock lock(mutex_);
      drained_.wait(lock, [this] { return open_ == 0; });
    }
    connections_.joinAll();
    workers_.Stop();
  }

  ServerStats Stats() const {
    ServerStats stats;
    {
      std::lock_guard lock(mutex_);
      stats.open_connections = open_;
    }
    stats.waiting_requests = workers_.Waiting();
    stats.refused_busy = refused_busy_;
    stats.timed_out = timed_out_;
    stats.refused_framing = refused_framing_;
    return stats;
  }

  const ServerLimits& limits() const override { return limits_; }
  int stop_fd() const override { return stop_fd_; }
  const Poco::Net::HTTPServerParams& params() const override { return *params_; }
  WorkerPool& workers() override { return workers_; }
  spdlog::logger& logger() override { return *logger_; }
  // Overload is worth an operator's attention, but not a log line per refused connection.
  void CountBusy() override {
    const std::uint64_t refused = ++refused_busy_;
    if (refused % 1000 == 1) {
      logger_->warn("event=http_busy refused_total={} workers={} queue={} max_connections={}",
                    refused, limits_.workers, limits_.queue, limits_.max_connections);
    }
  }
  void CountTimeout() override { ++timed_out_; }
  void CountFraming() override { ++refused_framing_; }

  void Handle(BufferedRequest& request, BufferedResponse& response) override {
    try {
      std::unique_ptr<Poco::Net::HTTPRequestHandler> handler(
          factory_->createRequestHandler(request));
      if (handler == nullptr) {
        response.Replace(HTTPResponse::HTTP_NOT_IMPLEMENTED, "application/json",
                         ErrorBody("not_found", "no handler for " + request.getMethod() + " " +
                                                    request.getURI()));
        return;
      }
      handler->handleRequest(request, response);
      if (!response.sent()) {
        response.Replace(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "application/json",
                         ErrorBody("internal", "the handler sent no answer"));
      }
    } catch (const Poco::Exception& e) {
      Failed(response, e.displayText());
    } catch (const std::exception& e) {
      Failed(response, e.what());
    } catch (...) {
      Failed(response, "unknown exception");
    }
  }

  void ConnectionClosed() override {
    std::lock_guard lock(mutex_);
    --open_;
    drained_.notify_all();
  }

 private:
  void Failed(BufferedResponse& response, const std::string& what) {
    logger_->error("event=http_handler_failed error={}", QuoteLogValue(what));
    response.Replace(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "application/json",
                     ErrorBody("internal", "the server failed to answer"));
  }

  void AcceptLoop();
  // Takes `socket` (left unconnected): from then on the connection's thread holds the only
  // reference to it, so that its last release never races with the acceptor's.
  void Admit(Poco::Net::StreamSocket& socket, Clock::time_point accepted);
  void Reject(const Poco::Net::StreamSocket& socket, Clock::time_point now);
  void DrainRejected(Clock::time_point now);

  Poco::Net::ServerSocket socket_;
  std::unique_ptr<Poco::Net::HTTPRequestHandlerFactory> factory_;
  const ServerLimits limits_;
  std::shared_ptr<spdlog::logger> logger_;
  Poco::Net::HTTPServerParams::Ptr params_;
  WorkerPool workers_;
  Poco::ThreadPool connections_;
  int stop_fd_ = -1;
  std::thread acceptor_;

  mutable std::mutex mutex_;
  std::condition_variable drained_;
  int open_ = 0;
  bool stopped_ = false;

  // Connections answered 503 on accept, drained until the client closes or kRejectedLinger
  // passes, so that closing them does not reset the answer away (acceptor thread only).
  struct Rejected {
    Poco::Net::StreamSocket socket;
    Clock::time_point until;
  };
  std::deque<Rejected> rejected_;

  std::atomic<std::uint64_t> refused_busy_{0};
  std::atomic<std::uint64_t> timed_out_{0};
  std::atomic<std::uint64_t> refused_framing_{0};
};

void Server::Impl::AcceptLoop() {
  pollfd fds[2] = {{socket_.impl()->sockfd(), POLLIN, 0}, {stop_fd_, POLLIN, 0}};
  for (;;) {
    const int n = ::poll(fds, 2, rejected_.empty() ? 1000 : 100);
    if (fds[1].revents != 0) return;
    const Clock::time_point now = Clock::now();
    DrainRejected(now);
    if (n <= 0 || (fds[0].revents & POLLIN) == 0) continue;
    try {
      Poco::Net::StreamSocket accepted = socket_.acceptConnection();
      Admit(accepted, now);
    } catch (const Poco::TimeoutException&) {
      // The connection went away between poll and accept (non-blocking accept: EAGAIN).
    } catch (const Poco::Exception& e) {
      // E.g. out of file descriptors: do not spin on a listening socket that stays readable.
      logger_->warn("event=http_accept_failed error={}", QuoteLogValue(e.displayText()));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
}

void Server::Impl::Admit(Poco::Net::StreamSocket& socket, Clock::time_point accepted) {
  socket.setBlocking(false);
  socket.setNoDelay(true);
  {
    std::lock_guard lock(mutex_);
    if (open_ >= limits_.max_connections) {
      Reject(socket, accepted);
      return;
    }
    ++open_;
  }
  Connection* connection = Connection::New(*this, socket, accepted);
  socket = Poco::Net::StreamSocket();  // no descriptor: the connection has the only reference
  try {
    connections_.start(*connection);
  } catch (const Poco::Exception&) {
    // No thread free right now (threads of connections just closed may not be back yet).
    Poco::Net::StreamSocket refused = connection->socket();
    delete connection;
    ConnectionClosed();
    Reject(refused, accepted);
  }
}

void Server::Impl::Reject(const Poco::Net::StreamSocket& socket, Clock::time_point now) {
  CountBusy();
  const std::string answer = RefusalAnswer(Busy(limits_.retry_after), limits_.retry_after);
  // A fresh socket's send buffer takes these few hundred bytes at once.
  if (::send(socket.impl()->sockfd(), answer.data(), answer.size(), MSG_DONTWAIT | MSG_NOSIGNAL) <
      0) {
    return;
  }
  ::shutdown(socket.impl()->sockfd(), SHUT_WR);
  if (rejected_.size() >= kMaxRejected) {
    rejected_.pop_front();  // the oldest has had the longest to read its answer
  }
  rejected_.push_back(Rejected{socket, now + kRejectedLinger});
}

void Server::Impl::DrainRejected(Clock::time_point now) {
  for (auto it = rejected_.begin(); it != rejected_.end();) {
    const int fd = it->socket.impl()->sockfd();
    bool done = now >= it->until;
    char sink[4096];
    for (int reads = 0; !done && reads < 4; ++reads) {
      const ssize_t n = ::recv(fd, sink, sizeof sink, MSG_DONTWAIT);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        done = true;
      }
      if (n < 0) break;
    }
    it = done ? rejected_.erase(it) : std::next(it);
  }
}

Server::Server(Poco::Net::ServerSocket socket,
               std::unique_ptr<Poco::Net::HTTPRequestHandlerFactory> factory, ServerLimits limits,
               std::shared_ptr<spdlog::logger> logger)
    : impl_(std::make_unique<Impl>(std::move(socket), std::move(factory), limits,
                                   std::move(logger))) {}

Server::~Server() { Stop(); }

void Server::Start() { impl_->Start(); }

void Server::Stop() { impl_->Stop(); }

ServerStats Server::Stats() const { return impl_->Stats(); }

}  // namespace pbem::daemon::http
