#include "daemon/http_api.h"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "daemon/metrics.h"
#include "tests/support/http_client.h"

namespace pbem::daemon {
namespace {

using Reply = pbem::testing::HttpReply;

// The real API on an ephemeral loopback port, for the duration of one test.
class TestServer {
 public:
  explicit TestServer(std::shared_ptr<const Metrics> metrics = nullptr)
      : TestServer([&metrics] {
          ApiServices services;
          services.metrics = std::move(metrics);
          return services;
        }()) {}
  explicit TestServer(ApiServices services)
      : socket_(Poco::Net::SocketAddress("127.0.0.1", 0)),
        server_(new ApiRequestHandlerFactory(
                    std::make_shared<spdlog::logger>(
                        "http_api_test", std::make_shared<spdlog::sinks::null_sink_mt>()),
                    std::move(services)),
                socket_, new Poco::Net::HTTPServerParams) {
    server_.start();
  }
  ~TestServer() { server_.stopAll(true); }
  TestServer(const TestServer&) = delete;
  TestServer& operator=(const TestServer&) = delete;

  Reply Send(const std::string& method, const std::string& uri) {
    return pbem::testing::SendHttp(socket_.address().port(), method, uri);
  }

 private:
  Poco::Net::ServerSocket socket_;
  Poco::Net::HTTPServer server_;
};

Poco::JSON::Object::Ptr ParseObject(const std::string& text) {
  return Poco::JSON::Parser().parse(text).extract<Poco::JSON::Object::Ptr>();
}

TEST_CASE("GET /healthz answers 200 with status ok", "[daemon][http]") {
  TestServer server;
  Reply reply = server.Send("GET", "/healthz");
  CHECK(reply.status == 200);
  CHECK(reply.content_type == "application/json");
  CHECK(reply.body == R"({"database":"up","status":"ok"})");

  CHECK(server.Send("GET", "/healthz?probe=1").status == 200);
}

TEST_CASE("GET /healthz answers 503 naming the database while it cannot be reached",
          "[daemon][http]") {
  auto metrics = std::make_shared<Metrics>();
  TestServer server(metrics);
  CHECK(server.Send("GET", "/healthz").status == 200);

  // As DatabaseHealth reports it when a repository's connection breaks for good.
  metrics->DatabaseDown(
      "the database (PostgreSQL database pbem at 127.0.0.1:5432) cannot be reached: refused");
  Reply down = server.Send("GET", "/healthz");
  CHECK(down.status == 503);
  CHECK(down.retry_after == "2");
  CHECK(down.json()->getValue<std::string>("status") == "unavailable");
  CHECK(down.json()->getValue<std::string>("database") == "down");
  CHECK_THAT(down.json()->getValue<std::string>("message"),
             Catch::Contains("PostgreSQL database pbem at 127.0.0.1:5432"));
  CHECK_THAT(metrics->RenderPrometheus(), Catch::Contains("\npbemd_database_up 0\n"));

  metrics->DatabaseReconnected();
  metrics->DatabaseUp();
  CHECK(server.Send("GET", "/healthz").status == 200);
  CHECK_THAT(metrics->RenderPrometheus(), Catch::Contains("\npbemd_database_up 1\n"));
  CHECK_THAT(metrics->RenderPrometheus(), Catch::Contains("\npbemd_database_reconnects_total 1\n"));
}

TEST_CASE("a 503's Retry-After is pbemd.http.retry_after_seconds", "[daemon][http]") {
  auto metrics = std::make_shared<Metrics>();
  ApiServices services;
  services.metrics = metrics;
  services.retry_after = std::chrono::seconds(7);
  TestServer server(std::move(services));
  metrics->DatabaseDown("the database cannot be reached: refused");
  Reply down = server.Send("GET", "/healthz");
  CHECK(down.status == 503);
  CHECK(down.retry_after == "7");
}

TEST_CASE("anything else is a JSON 404", "[daemon][http]") {
  TestServer server;
  for (const auto& [method, uri] : {std::pair<std::string, std::string>{"GET", "/"},
                                    {"GET", "/nope"},
                                    {"POST", "/healthz"},
                                    {"GET", "/healthz/extra"}}) {
    INFO(method << " " << uri);
    Reply reply = server.Send(method, uri);
    CHECK(reply.status == 404);
    CHECK(reply.content_type == "application/json");
    Poco::JSON::Object::Ptr error = ParseObject(reply.body)->getObject("error");
    REQUIRE(error);
    CHECK(error->getValue<std::string>("code") == "not_found");
    CHECK(error->getValue<std::string>("message") == "no route for " + method + " " + uri);
  }
}

TEST_CASE("error bodies are escaped JSON", "[daemon][http]") {
  const std::string body = ErrorBody("not_found", "no route for GET /a\"b");
  Poco::JSON::Object::Ptr error = ParseObject(body)->getObject("error");
  REQUIRE(error);
  CHECK(error->getValue<std::string>("message") == "no route for GET /a\"b");
}

}  // namespace
}  // namespace pbem::daemon
