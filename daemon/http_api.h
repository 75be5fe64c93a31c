// The daemon's HTTP API: routes requests to handlers. Today it answers only
//   GET /healthz  -> 200 {"status":"ok"}
//   GET /metrics  -> 200 the Prometheus text exposition (when a Metrics is given)
// and everything else with 404 {"error":{"code":"not_found","message":"..."}}.
// Every response body is JSON. No exception leaves a handler: an unexpected one is logged and
// answered with 500 {"error":{"code":"internal",...}} when the response is not yet sent.
#ifndef PBEM_DAEMON_HTTP_API_H_
#define PBEM_DAEMON_HTTP_API_H_

#include <Poco/Net/HTTPRequestHandlerFactory.h>

#include <memory>
#include <string>

namespace spdlog {
class logger;
}  // namespace spdlog

namespace pbem::daemon {

class Metrics;

// {"error":{"code":<code>,"message":<message>}}, JSON-escaped.
std::string ErrorBody(const std::string& code, const std::string& message);

class ApiRequestHandlerFactory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  // REQUIRES: logger is not null; it is shared with the handler threads (spdlog loggers are
  // thread-safe).
  // `metrics` may be null (then /metrics is 404).
  explicit ApiRequestHandlerFactory(std::shared_ptr<spdlog::logger> logger,
                                    std::shared_ptr<const Metrics> metrics = nullptr);

  Poco::Net::HTTPRequestHandler* createRequestHandler(
      const Poco::Net::HTTPServerRequest& request) override;

 private:
  std::shared_ptr<spdlog::logger> logger_;
  std::shared_ptr<const Metrics> metrics_;
};

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_HTTP_API_H_
