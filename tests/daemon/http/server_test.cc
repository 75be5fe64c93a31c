// The HTTP front (daemon/http/server.h) on loopback, driven by raw sockets: slow and idle
// clients, saturation (503 + Retry-After), timeouts, and the framing of request bodies.
#include "daemon/http/server.h"

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <iostream>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "daemon/http_api.h"
#include "tests/daemon/http/raw_client.h"
#include "tests/daemon/test_support.h"

namespace pbem::daemon::http {
namespace {

using std::chrono::milliseconds;
using testing::RawClient;
using testing::RawResponse;

// Holds the requests to /block until Open(): a fault point making "every worker busy" certain.
class Gate {
 public:
  void Enter() {
    std::unique_lock lock(mutex_);
    ++entered_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return open_; });
  }
  void Open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  // Waits (at most 10 s) until `n` requests are held; false if they never are.
  bool AwaitEntered(int n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return entered_ >= n; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int entered_ = 0;
  bool open_ = false;
};

class FnHandler final : public Poco::Net::HTTPRequestHandler {
 public:
  using Fn = std::function<void(Poco::Net::HTTPServerRequest&, Poco::Net::HTTPServerResponse&)>;
  explicit FnHandler(Fn fn) : fn_(std::move(fn)) {}
  void handleRequest(Poco::Net::HTTPServerRequest& request,
                     Poco::Net::HTTPServerResponse& response) override {
    fn_(request, response);
  }

 private:
  Fn fn_;
};

// /block waits at the gate; /echo answers "<bytes>:<body>"; anything else is pbemd's own API
// (GET /healthz).
class TestFactory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit TestFactory(Gate& gate) : gate_(gate), api_(daemon::testing::NullLogger()) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(
      const Poco::Net::HTTPServerRequest& request) override {
    if (request.getURI() == "/block") {
      return new FnHandler([this](auto&, auto& response) {
        gate_.Enter();
        response.setContentType("text/plain");
        response.send() << "released";
      });
    }
    if (request.getURI() == "/echo") {
      return new FnHandler([](auto& echoed, auto& response) {
        const std::string body(std::istreambuf_iterator<char>(echoed.stream()), {});
        response.setContentType("text/plain");
        response.send() << body.size() << ":" << body;
      });
    }
    return api_.createRequestHandler(request);
  }

 private:
  Gate& gate_;
  ApiRequestHandlerFactory api_;
};

class TestServer {
 public:
  explicit TestServer(ServerLimits limits) {
    Poco::Net::ServerSocket socket;
    socket.bind(Poco::Net::SocketAddress("127.0.0.1", 0), true, false);
    socket.listen(1024);
    port_ = socket.address().port();
    server_ = std::make_unique<Server>(std::move(socket), std::make_unique<TestFactory>(gate_),
                                       limits, daemon::testing::NullLogger());
    server_->Start();
  }
  ~TestServer() {
    gate_.Open();
    server_->Stop();
  }

  std::uint16_t port() const { return port_; }
  Gate& gate() { return gate_; }
  Server& server() { return *server_; }

  // Waits (at most 10 s) until the server's counters satisfy `condition`.
  bool AwaitStats(const std::function<bool(const ServerStats&)>& condition) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!condition(server_->Stats())) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::yield();
    }
    return true;
  }

 private:
  Gate gate_;
  std::uint16_t port_ = 0;
  std::unique_ptr<Server> server_;
};

constexpr const char* kHealthz = "GET /healthz HTTP/1.1\r\nHost: pbem\r\n\r\n";

// Sends `request` on a new connection and reads the answer.
RawResponse Ask(std::uint16_t port, const std::string& request) {
  RawClient client(port);
  REQUIRE(client.connected());
  REQUIRE(client.Send(request));
  return client.Read();
}

TEST_CASE("fifty slow and idle clients do not hold up /healthz", "[daemon][http]") {
  ServerLimits limits;
  limits.workers = 2;
  limits.queue = 4;
  limits.max_connections = 128;
  limits.header_timeout = std::chrono::seconds(60);  // the slow ones stay for the whole test
  limits.idle_timeout = std::chrono::seconds(60);
  TestServer server(limits);

  std::vector<std::unique_ptr<RawClient>> slow;
  for (int i = 0; i < 25; ++i) {  // slowloris: a head that never ends
    auto client = std::make_unique<RawClient>(server.port());
    REQUIRE(client->connected());
    REQUIRE(client->Send("GET /healthz HTTP/1.1\r\nHost: pbem\r\nX-Slow-1: a\r\n"));
    slow.push_back(std::move(client));
  }
  for (int i = 0; i < 25; ++i) {  // kept alive after one request, then silent
    auto client = std::make_unique<RawClient>(server.port());
    REQUIRE(client->Send(kHealthz));
    REQUIRE(client->Read().status == 200);
    slow.push_back(std::move(client));
  }
  REQUIRE(server.AwaitStats([](const ServerStats& s) { return s.open_connections == 50; }));
  for (auto& client : slow) REQUIRE(client->Send("X-Slow-2: b\r\n"));

  milliseconds worst{0};
  for (int i = 0; i < 20; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const RawResponse answer = Ask(server.port(), kHealthz);
    worst = std::max(
        worst, std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - start));
    REQUIRE(answer.status == 200);
    CHECK(answer.body == R"({"database":"up","status":"ok"})");
  }
  // The figure for the report; the bound is only there to fail instead of hanging.
  std::cout << "healthz with 50 slow connections open: worst of 20 = " << worst.count() << " ms\n";
  CHECK(worst < std::chrono::seconds(5));
  CHECK(server.server().Stats().open_connections >= 50);  // none was cut off meanwhile
}

TEST_CASE("a head that keeps trickling in is cut off at the header timeout", "[daemon][http]") {
  ServerLimits limits;
  limits.header_timeout = milliseconds(300);
  limits.idle_timeout = milliseconds(300);
  limits.body_timeout = milliseconds(300);
  TestServer server(limits);

  SECTION("slowloris gets 408 although it sends a line every 50 ms") {
    RawClient client(server.port());
    REQUIRE(client.Send("GET /healthz HTTP/1.1\r\n"));
    RawResponse answer;
    // Per-read timeouts never trip here; only a deadline on the whole head does.
    for (int line = 0; line < 400 && answer.status == 0; ++line) {
      if (!client.Send("X-Line: " + std::to_string(line) + "\r\n")) break;
      answer = client.Read(milliseconds(50));
    }
    if (answer.status == 0) answer = client.Read();
    REQUIRE(answer.status == 408);
    CHECK(answer.HeaderIs("connection", "close"));
    CHECK_THAT(answer.body, Catch::Contains(R"("code":"timeout")"));
    CHECK(client.ClosedWithin(std::chrono::seconds(10)));
    CHECK(server.server().Stats().timed_out == 1);
  }
  SECTION("a body that trickles in is cut off at the body timeout with 408") {
    RawClient client(server.port());
    REQUIRE(client.Send("POST /echo HTTP/1.1\r\nHost: pbem\r\nContent-Length: 1000\r\n\r\nab"));
    RawResponse answer;
    for (int byte = 0; byte < 400 && answer.status == 0; ++byte) {
      if (!client.Send("c")) break;
      answer = client.Read(milliseconds(50));
    }
    if (answer.status == 0) answer = client.Read();
    REQUIRE(answer.status == 408);
    CHECK_THAT(answer.body, Catch::Contains("body"));
  }
  SECTION("an idle kept-alive connection is closed without a word") {
    RawClient client(server.port());
    REQUIRE(client.Send(kHealthz));
    REQUIRE(client.Read().status == 200);
    CHECK(client.ClosedWithin(std::chrono::seconds(10)));
  }
}

TEST_CASE("beyond the queue and the connection limit: 503 with Retry-After", "[daemon][http]") {
  ServerLimits limits;
  limits.workers = 1;
  limits.queue = 1;
  limits.max_connections = 8;
  limits.retry_after = std::chrono::seconds(7);
  limits.header_timeout = std::chrono::seconds(60);
  TestServer server(limits);

  SECTION("every worker busy and the queue full") {
    RawClient running(server.port());
    REQUIRE(running.Send("GET /block HTTP/1.1\r\nHost: pbem\r\n\r\n"));
    REQUIRE(server.gate().AwaitEntered(1));
    RawClient queued(server.port());
    REQUIRE(queued.Send("GET /block HTTP/1.1\r\nHost: pbem\r\n\r\n"));
    REQUIRE(server.AwaitStats([](const ServerStats& s) { return s.waiting_requests == 1; }));

    const RawResponse refused = Ask(server.port(), kHealthz);
    REQUIRE(refused.status == 503);
    CHECK(refused.Header("retry-after") == "7");
    CHECK(refused.HeaderIs("connection", "close"));
    CHECK_THAT(refused.body, Catch::Contains(R"("code":"busy")"));

    server.gate().Open();
    CHECK(running.Read().status == 200);
    CHECK(queued.Read().status == 200);
    CHECK(Ask(server.port(), kHealthz).status == 200);
  }
  SECTION("more connections than max_connections, all at once") {
    std::vector<std::unique_ptr<RawClient>> held;
    for (int i = 0; i < 8; ++i) {
      held.push_back(std::make_unique<RawClient>(server.port()));
      REQUIRE(held.back()->Send("GET /healthz HTTP/1.1\r\n"));  // a head left open
    }
    REQUIRE(server.AwaitStats([](const ServerStats& s) { return s.open_connections == 8; }));
    std::vector<std::unique_ptr<RawClient>> extra;
    for (int i = 0; i < 200; ++i) extra.push_back(std::make_unique<RawClient>(server.port()));
    int answered = 0;
    for (auto& client : extra) {
      client->Send(kHealthz);  // may fail: the server has answered and closed already
      const RawResponse answer = client->Read();
      CHECK(answer.status == 503);
      CHECK(answer.Header("retry-after") == "7");
      if (answer.status == 503) ++answered;
    }
    CHECK(answered == 200);  // none closed without an answer
    held.clear();
    REQUIRE(server.AwaitStats([](const ServerStats& s) { return s.open_connections == 0; }));
    CHECK(Ask(server.port(), kHealthz).status == 200);
  }
}

// The answer to `request` (sent whole) on a server whose body limit is 1024 bytes.
struct FramingCase {
  std::string name;
  std::string request;
  int status;
  std::string names;  // a word the error message must contain
};

TEST_CASE("bad framing is refused from the head, before the body", "[daemon][http]") {
  ServerLimits limits;
  limits.max_body_bytes = 1024;
  limits.max_header_bytes = 2048;
  limits.max_header_fields = 10;
  TestServer server(limits);
  const std::string post = "POST /echo HTTP/1.1\r\nHost: pbem\r\n";
  const std::vector<FramingCase> cases = {
      {"Content-Length not a number", post + "Content-Length: abc\r\n\r\n", 400, "Content-Length"},
      {"negative Content-Length", post + "Content-Length: -1\r\n\r\n", 400, "Content-Length"},
      {"signed Content-Length", post + "Content-Length: +5\r\n\r\nhello", 400, "Content-Length"},
      {"list Content-Length", post + "Content-Length: 5, 5\r\n\r\nhello", 400, "Content-Length"},
      {"two Content-Length", post + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", 400,
       "Content-Length"},
      {"enormous Content-Length", post + "Content-Length: 99999999999999999999999999\r\n\r\n", 413,
       "Content-Length"},
      {"Content-Length over the limit", post + "Content-Length: 1025\r\n\r\n", 413,
       "Content-Length"},
      {"both Content-Length and Transfer-Encoding",
       post + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400,
       "Transfer-Encoding"},
      {"Transfer-Encoding gzip", post + "Transfer-Encoding: gzip\r\n\r\n", 501,
       "Transfer-Encoding"},
      {"Transfer-Encoding gzip, chunked", post + "Transfer-Encoding: gzip, chunked\r\n\r\n", 501,
       "Transfer-Encoding"},
      {"Transfer-Encoding in HTTP/1.0",
       "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400,
       "Transfer-Encoding"},
      {"Expect other than 100-continue", post + "Expect: 200-ok\r\nContent-Length: 1\r\n\r\n", 417,
       "Expect"},
      {"chunked over the limit", post + "Transfer-Encoding: chunked\r\n\r\n401\r\n", 413,
       "chunked"},
      {"chunked pieces over the limit",
       post + "Transfer-Encoding: chunked\r\n\r\n200\r\n" + std::string(512, 'a') + "\r\n200\r\n" +
           std::string(512, 'b') + "\r\n1\r\n",
       413, "chunked"},
      {"chunk size not hexadecimal", post + "Transfer-Encoding: chunked\r\n\r\nzz\r\n", 400,
       "chunk"},
      {"chunk without its CRLF", post + "Transfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", 400,
       "CRLF"},
      {"too many header fields",
       post +
           "A: 1\r\nB: 1\r\nC: 1\r\nD: 1\r\nE: 1\r\nF: 1\r\nG: 1\r\nH: 1\r\nI: 1\r\nJ: 1\r\n\r\n",
       400, "header fields"},
      {"head too large", post + "X-Big: " + std::string(3000, 'x') + "\r\n\r\n", 431,
       "header fields"},
      {"request line too long", "GET /" + std::string(3000, 'x') + " HTTP/1.1\r\n\r\n", 414,
       "request line"},
      {"not HTTP/1.x", "GET / HTTP/2.0\r\n\r\n", 505, "HTTP/1.1"},
  };
  for (const FramingCase& c : cases) {
    DYNAMIC_SECTION(c.name) {
      RawClient client(server.port());
      client.Send(c.request);
      const RawResponse answer = client.Read();
      CHECK(answer.status == c.status);
      CHECK(answer.Header("content-type") == "application/json");
      CHECK(answer.HeaderIs("connection", "close"));
      CHECK_THAT(answer.body, Catch::Contains(R"({"error":{"code":)"));
      CHECK_THAT(answer.body, Catch::Contains(c.names));
      CHECK(client.ClosedWithin(std::chrono::seconds(10)));
    }
  }
}

TEST_CASE("Expect: 100-continue is answered before the body, never for a refused one",
          "[daemon][http]") {
  ServerLimits limits;
  limits.max_body_bytes = 1024;
  TestServer server(limits);
  const std::string head =
      "POST /echo HTTP/1.1\r\nHost: pbem\r\nExpect: 100-continue\r\nContent-Length: ";

  SECTION("1 GB declared: 413 at once, no 100 Continue") {
    RawClient client(server.port());
    REQUIRE(client.Send(head + "1073741824\r\n\r\n"));
    const RawResponse answer = client.Read();
    CHECK(answer.status == 413);  // the first thing received, so no 100 before it
    CHECK_THAT(answer.body, Catch::Contains("Content-Length"));
    CHECK(client.ClosedWithin(std::chrono::seconds(10)));
  }
  SECTION("a body within the limit: 100 Continue, then the answer") {
    RawClient client(server.port());
    REQUIRE(client.Send(head + "5\r\n\r\n"));
    const RawResponse interim = client.Read();
    REQUIRE(interim.status == 100);
    REQUIRE(client.Send("hello"));
    const RawResponse answer = client.Read();
    CHECK(answer.status == 200);
    CHECK(answer.body == "5:hello");
  }
  SECTION("all workers busy: 503 instead of 100 Continue") {
    ServerLimits busy_limits;
    busy_limits.workers = 1;
    busy_limits.queue = 0;
    TestServer busy(busy_limits);
    RawClient running(busy.port());
    REQUIRE(running.Send("GET /block HTTP/1.1\r\nHost: pbem\r\n\r\n"));
    REQUIRE(busy.gate().AwaitEntered(1));
    RawClient client(busy.port());
    REQUIRE(client.Send(head + "5\r\n\r\n"));
    const RawResponse answer = client.Read();
    CHECK(answer.status == 503);
    CHECK(answer.headers.count("retry-after") == 1);
  }
}

TEST_CASE("well-framed requests still work", "[daemon][http]") {
  ServerLimits limits;
  limits.max_body_bytes = 1024;
  TestServer server(limits);
  const std::string post = "POST /echo HTTP/1.1\r\nHost: pbem\r\n";

  SECTION("chunked body with extensions and trailers") {
    const RawResponse answer = Ask(server.port(), post +
                                                      "Transfer-Encoding: Chunked\r\n\r\n"
                                                      "5;name=x\r\nhello\r\n"
                                                      "6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n");
    CHECK(answer.status == 200);
    CHECK(answer.body == "11:hello world");
  }
  SECTION("a body of exactly the limit") {
    const RawResponse answer =
        Ask(server.port(), post + "Content-Length: 1024\r\n\r\n" + std::string(1024, 'z'));
    CHECK(answer.status == 200);
    CHECK(answer.body == "1024:" + std::string(1024, 'z'));
  }
  SECTION("POST without Content-Length has an empty body (no read until close)") {
    RawClient client(server.port());
    REQUIRE(client.Send(post + "\r\n"));
    const RawResponse answer = client.Read();
    CHECK(answer.status == 200);
    CHECK(answer.body == "0:");
  }
  SECTION("pipelined requests on one connection, each answered in order") {
    RawClient client(server.port());
    REQUIRE(client.Send(post + "Content-Length: 3\r\n\r\nabc" + kHealthz + post +
                        "Content-Length: 2\r\n\r\nde"));
    CHECK(client.Read().body == "3:abc");
    CHECK(client.Read().body == R"({"database":"up","status":"ok"})");
    CHECK(client.Read().body == "2:de");
  }
  SECTION("HTTP/1.0 without keep-alive is answered and closed") {
    RawClient client(server.port());
    REQUIRE(client.Send("GET /healthz HTTP/1.0\r\n\r\n"));
    const RawResponse answer = client.Read();
    CHECK(answer.status == 200);
    CHECK(answer.head.rfind("HTTP/1.0 200", 0) == 0);
    CHECK(client.ClosedWithin(std::chrono::seconds(10)));
  }
  SECTION("an unknown route is the API's JSON 404") {
    const RawResponse answer = Ask(server.port(), "GET /nope HTTP/1.1\r\nHost: pbem\r\n\r\n");
    CHECK(answer.status == 404);
    CHECK_THAT(answer.body, Catch::Contains(R"("code":"not_found")"));
  }
}

}  // namespace
}  // namespace pbem::daemon::http
