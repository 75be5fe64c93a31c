#include "daemon/http_api.h"

#include <Poco/Exception.h>
#include <Poco/JSON/Object.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/URI.h>
#include <spdlog/spdlog.h>

#include <exception>
#include <sstream>
#include <utility>

#include "daemon/config.h"
#include "daemon/metrics.h"

namespace pbem::daemon {
namespace {

using Poco::Net::HTTPResponse;
using Poco::Net::HTTPServerRequest;
using Poco::Net::HTTPServerResponse;

std::string Stringify(const Poco::JSON::Object& object) {
  std::ostringstream out;
  object.stringify(out);
  return out.str();
}

void SendJson(HTTPServerResponse& response, HTTPResponse::HTTPStatus status,
              const std::string& body) {
  response.setStatusAndReason(status);
  response.setContentType("application/json");
  response.setContentLength(static_cast<std::streamsize>(body.size()));
  response.send() << body;
}

// Routes one request; the route table lives in Route().
class ApiHandler final : public Poco::Net::HTTPRequestHandler {
 public:
  ApiHandler(std::shared_ptr<spdlog::logger> logger, std::shared_ptr<const Metrics> metrics)
      : logger_(std::move(logger)), metrics_(std::move(metrics)) {}

  void handleRequest(HTTPServerRequest& request, HTTPServerResponse& response) override {
    try {
      Route(request, response);
    } catch (const Poco::Exception& e) {
      Fail(request, response, e.displayText());
    } catch (const std::exception& e) {
      Fail(request, response, e.what());
    }
  }

 private:
  void Route(HTTPServerRequest& request, HTTPServerResponse& response) {
    const std::string path = PathOf(request.getURI());
    HTTPResponse::HTTPStatus status;
    if (request.getMethod() == Poco::Net::HTTPRequest::HTTP_GET && path == "/healthz") {
      status = HTTPResponse::HTTP_OK;
      Poco::JSON::Object body;
      body.set("status", "ok");
      SendJson(response, status, Stringify(body));
    } else if (request.getMethod() == Poco::Net::HTTPRequest::HTTP_GET && path == "/metrics" &&
               metrics_ != nullptr) {
      status = HTTPResponse::HTTP_OK;
      const std::string body = metrics_->RenderPrometheus();
      response.setStatusAndReason(status);
      response.setContentType("text/plain; version=0.0.4; charset=utf-8");
      response.setContentLength(static_cast<std::streamsize>(body.size()));
      response.send() << body;
    } else {
      status = HTTPResponse::HTTP_NOT_FOUND;
      SendJson(response, status,
               ErrorBody("not_found", "no route for " + request.getMethod() + " " + path));
    }
    logger_->debug("event=http_request method={} path={} status={}", request.getMethod(),
                   QuoteLogValue(path), static_cast<int>(status));
  }

  void Fail(HTTPServerRequest& request, HTTPServerResponse& response, const std::string& what) {
    logger_->error("event=http_handler_failed method={} uri={} error={}", request.getMethod(),
                   QuoteLogValue(request.getURI()), QuoteLogValue(what));
    if (!response.sent()) {
      SendJson(response, HTTPResponse::HTTP_INTERNAL_SERVER_ERROR,
               ErrorBody("internal", "internal error"));
    }
  }

  // The path without query or fragment; the raw URI when it does not parse.
  static std::string PathOf(const std::string& uri) {
    try {
      return Poco::URI(uri).getPath();
    } catch (const Poco::SyntaxException&) {
      return uri;
    }
  }

  std::shared_ptr<spdlog::logger> logger_;
  std::shared_ptr<const Metrics> metrics_;
};

}  // namespace

std::string ErrorBody(const std::string& code, const std::string& message) {
  Poco::JSON::Object::Ptr error = new Poco::JSON::Object;
  error->set("code", code);
  error->set("message", message);
  Poco::JSON::Object body;
  body.set("error", error);
  return Stringify(body);
}

ApiRequestHandlerFactory::ApiRequestHandlerFactory(std::shared_ptr<spdlog::logger> logger,
                                                   std::shared_ptr<const Metrics> metrics)
    : logger_(std::move(logger)), metrics_(std::move(metrics)) {}

Poco::Net::HTTPRequestHandler* ApiRequestHandlerFactory::createRequestHandler(
    const Poco::Net::HTTPServerRequest& /*request*/) {
  return new ApiHandler(logger_, metrics_);
}

}  // namespace pbem::daemon
