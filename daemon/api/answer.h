// The answers of the game routes (daemon/http_api.h) in the making, shared by the router and
// the services behind it (game_reads.h, game_archive.h, order_submission.h, game_admin.h):
// a status, a body and any further header fields, the API's one error shape, and the
// mapping of a store failure to its answer.
#ifndef PBEM_DAEMON_API_ANSWER_H_
#define PBEM_DAEMON_API_ANSWER_H_

#include <Poco/JSON/Object.h>
#include <Poco/Net/HTTPResponse.h>

#include <string>
#include <utility>
#include <vector>

#include "storage/game_repository.h"
#include "storage/status.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace pbem::daemon::api {

using Poco::Net::HTTPResponse;

// An answer in the making: status, body and any further header fields.
struct Answer {
  HTTPResponse::HTTPStatus status = HTTPResponse::HTTP_OK;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers{};
};

std::string Stringify(const Poco::JSON::Object& object);

// {"error":{"code","message"}} with `status`.
Answer Error(HTTPResponse::HTTPStatus status, const std::string& code, const std::string& message);

// The answer to a store failure about `what` ("game \"x\"", "turns"): 404, 409, 400 or 503;
// a failure the client cannot cause is logged on `logger`.
Answer StoreError(spdlog::logger& logger, const Status& status, const std::string& what);

storage::Timestamp Now();

}  // namespace pbem::daemon::api

#endif  // PBEM_DAEMON_API_ANSWER_H_
