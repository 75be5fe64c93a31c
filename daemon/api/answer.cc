#include "daemon/api/answer.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <sstream>

#include "daemon/config.h"
#include "daemon/http_api.h"

namespace pbem::daemon::api {

std::string Stringify(const Poco::JSON::Object& object) {
  std::ostringstream out;
  object.stringify(out);
  return out.str();
}

Answer Error(HTTPResponse::HTTPStatus status, const std::string& code, const std::string& message) {
  return Answer{status, "application/json", ErrorBody(code, message)};
}

Answer StoreError(spdlog::logger& logger, const Status& status, const std::string& what) {
  switch (status.code()) {
    case StatusCode::kNotFound:
      return Error(HTTPResponse::HTTP_NOT_FOUND, "not_found", "no " + what);
    case StatusCode::kAlreadyExists:
      return Error(HTTPResponse::HTTP_CONFLICT, "already_exists", what + " exists already");
    case StatusCode::kInvalidArgument:
      return Error(HTTPResponse::HTTP_BAD_REQUEST, "invalid_argument", status.message());
    case StatusCode::kUnavailable:  // logged once, by DatabaseHealth
      return Error(HTTPResponse::HTTP_SERVICE_UNAVAILABLE, "unavailable",
                   "the game store cannot be reached just now; try again later");
    default:
      logger.error("event=http_store_failed what={} error={}", QuoteLogValue(what),
                   QuoteLogValue(status.ToString()));
      return Error(HTTPResponse::HTTP_SERVICE_UNAVAILABLE, "unavailable",
                   "the game store failed; try again later");
  }
}

storage::Timestamp Now() {
  return std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
}

}  // namespace pbem::daemon::api
