// The daemon's HTTP API (documented in daemon/openapi.yaml):
//   GET  /healthz                      -> 200 {"status":"ok","database":"up"}, or 503
//                                         {"status":"unavailable","database":"down",
//                                         "message":...} while the database is unreachable
//   GET  /metrics                      -> 200 the Prometheus text exposition
//   GET  /v1/games                     -> 200 every game with its progress
//   POST /v1/games                     -> 201 creates a game and its players (admin token),
//                                         opens its first turn (the commitment is in the reply)
//   GET  /v1/games/{id}                -> 200 the game and its state, JSON or protobuf; ETag
//                                         (304 on If-None-Match), Cache-Control: no-cache
//   GET  /v1/games/{id}/history        -> 200 its committed player-turns
//   GET  /v1/games/{id}/turns/{n}      -> 200 player-turn n's report (pbem.v1.TurnResult JSON)
//   GET  /v1/games/{id}/turns/{n}/map.png -> 200 the map after player-turn n, its events drawn;
//                                         ETag (304 on If-None-Match)
//   POST /v1/games/{id}/pause|resume   -> 200 stops / restarts the game's clock (admin token)
//   GET  /v1/games/{id}/archive/[FILE] -> 200 the game's archive page (index.html, turn pages,
//                                         maps, style.css)
//   POST /v1/games/{id}/orders         -> 200 orders stored, with per-order verdicts
//   POST /v1/games/{id}/orders/check   -> 200 per-order verdicts and the cheapest path of each
//                                         destination order; nothing stored
//   POST /v1/games/{id}/resign         -> 200 the player (token) resigns; the other side wins
//   /v1/leagues...                     -> club leagues (daemon/league_api.h)
// Orders are sent as binary protobuf, text format or JSON (by Content-Type, else detected),
// with the player's token as "Authorization: Bearer <token>".
// Every error is JSON {"error":{"code":<stable code>,"message":<a sentence>}} with a 4xx (or
// 5xx for the server's own failures); every 503 carries Retry-After. No exception leaves a
// handler.
// This file decodes the requests and encodes the answers; the work is done by the services of
// daemon/api/ (game_reads.h, game_archive.h, order_submission.h, game_admin.h).
#ifndef PBEM_DAEMON_HTTP_API_H_
#define PBEM_DAEMON_HTTP_API_H_

#include <Poco/Net/HTTPRequestHandlerFactory.h>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "storage/game_repository.h"

namespace pbem::templates {
class MailTemplates;
}  // namespace pbem::templates

namespace spdlog {
class logger;
}  // namespace spdlog

namespace pbem::daemon {

class Metrics;
class GameCatalog;
struct LeagueServices;
class OrderDesk;
class ReadCache;
class TurnLoop;

// {"error":{"code":<code>,"message":<message>}}, JSON-escaped.
std::string ErrorBody(const std::string& code, const std::string& message);

// What the game routes need. Any part may be missing: the routes that need it answer 503.
struct ApiServices {
  std::shared_ptr<const Metrics> metrics;
  // Opens a repository (one is kept per concurrent request and reused).
  std::function<Result<std::unique_ptr<storage::GameRepository>>()> open_repository;
  GameCatalog* catalog = nullptr;  // must outlive the server
  OrderDesk* desk = nullptr;       // must outlive the server
  // Opens the first turn of a new game (its commitment is in the reply). May be null: then
  // the scheduler opens it at its next pass.
  TurnLoop* turns = nullptr;
  // The archive page (templates/archive.h) at /v1/games/{id}/archive/: built on first request
  // per game and number of turns into archive_cache_dir/<id>-<turns>/, then served from
  // there. Off (404) unless all three are set.
  const templates::MailTemplates* mail_templates = nullptr;
  std::filesystem::path archive_template_dir;
  std::filesystem::path archive_cache_dir;
  std::size_t max_body_bytes = 1 << 20;
  // The encoded answers of GET /v1/games/{id} and .../turns/{n}/map.png are kept in memory up
  // to this many bytes (least recently used dropped first; pbemd.http.read_cache_bytes), keyed
  // on the game's committed turns and end as the database has them (daemon/read_cache.h).
  // 0: nothing kept (ETag and 304 still work).
  std::size_t read_cache_bytes = std::size_t{32} << 20;
  // The Retry-After of every 503 (pbemd.http.retry_after_seconds).
  std::chrono::seconds retry_after{2};
  std::string admin_token;  // empty: POST /v1/games is refused (403)
  // The welcome mails of a new game (welcome_mail.h), enqueued with it: on when mail_templates
  // is set and mail_from (pbemd's own address, named in them) is not empty.
  std::string mail_from;
  std::filesystem::path rulesets_dir;  // where the rules the welcome mails attach are
  // The league routes and resignation (daemon/league_api.h); null: they answer 503. The
  // repositories must then also be storage::LeagueRepository (SqlRepository is).
  const LeagueServices* leagues = nullptr;  // must outlive the server
};

class ApiRequestHandlerFactory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  // REQUIRES: logger is not null; it is shared with the handler threads (spdlog loggers are
  // thread-safe). `metrics` may be null (then /metrics is 404).
  explicit ApiRequestHandlerFactory(std::shared_ptr<spdlog::logger> logger,
                                    std::shared_ptr<const Metrics> metrics = nullptr);
  ApiRequestHandlerFactory(std::shared_ptr<spdlog::logger> logger, ApiServices services);
  ~ApiRequestHandlerFactory() override;

  Poco::Net::HTTPRequestHandler* createRequestHandler(
      const Poco::Net::HTTPServerRequest& request) override;

  class RepositoryPool;

 private:
  std::shared_ptr<spdlog::logger> logger_;
  std::shared_ptr<const ApiServices> services_;
  std::shared_ptr<RepositoryPool> pool_;
  std::shared_ptr<ReadCache> cache_;  // shared by the handlers (read_cache.h)
};

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_HTTP_API_H_
