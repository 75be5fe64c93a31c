#include "daemon/http_api.h"

#include <Poco/Exception.h>
#include <Poco/JSON/Object.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/String.h>
#include <Poco/URI.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <exception>
#include <mutex>
#include <sstream>
#include <utility>
#include <vector>

#include "daemon/api/answer.h"
#include "daemon/api/game_admin.h"
#include "daemon/api/game_archive.h"
#include "daemon/api/game_reads.h"
#include "daemon/api/order_submission.h"
#include "daemon/config.h"
#include "daemon/league_api.h"
#include "daemon/mail/replies.h"
#include "daemon/mail/scan.h"
#include "daemon/metrics.h"
#include "daemon/read_cache.h"
#include "templates/mail_render.h"

namespace pbem::daemon {

// Keeps opened repositories for reuse: a repository serves one request at a time.
class ApiRequestHandlerFactory::RepositoryPool {
 public:
  using Opener = std::function<Result<std::unique_ptr<storage::GameRepository>>()>;
  explicit RepositoryPool(Opener opener) : opener_(std::move(opener)) {}

  Result<std::unique_ptr<storage::GameRepository>> Take() {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        auto repository = std::move(free_.back());
        free_.pop_back();
        return repository;
      }
    }
    if (!opener_) return Status::FailedPrecondition("no game store is configured");
    return opener_();
  }
  void Give(std::unique_ptr<storage::GameRepository> repository) {
    std::lock_guard lock(mutex_);
    free_.push_back(std::move(repository));
  }

 private:
  Opener opener_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<storage::GameRepository>> free_;
};

namespace {

using Poco::Net::HTTPResponse;
using Poco::Net::HTTPServerRequest;
using Poco::Net::HTTPServerResponse;
using Pool = ApiRequestHandlerFactory::RepositoryPool;
using api::Answer;
using api::Error;
using api::Now;
using api::Stringify;

// Every 503 says when to try again: `retry_after` (pbemd.http.retry_after_seconds), about
// when a database that went away is tried again. A 304 has neither body nor Content-Type nor
// Content-Length (RFC 9110 8.6, 15.4.5).
void Send(HTTPServerResponse& response, HTTPResponse::HTTPStatus status,
          const std::string& content_type, const std::string& body,
          std::chrono::seconds retry_after) {
  response.setStatusAndReason(status);
  if (status == HTTPResponse::HTTP_SERVICE_UNAVAILABLE) {
    response.set("Retry-After", std::to_string(retry_after.count()));
  }
  if (status == HTTPResponse::HTTP_NOT_MODIFIED) {
    response.send();
    return;
  }
  response.setContentType(content_type);
  response.setContentLength(static_cast<std::streamsize>(body.size()));
  response.send() << body;
}

void SendJson(HTTPServerResponse& response, HTTPResponse::HTTPStatus status,
              const std::string& body, std::chrono::seconds retry_after) {
  Send(response, status, "application/json", body, retry_after);
}

// The If-None-Match fields of `request`, joined as one list (RFC 9110 5.3); nullopt when none.
std::optional<std::string> IfNoneMatch(const HTTPServerRequest& request) {
  std::optional<std::string> joined;
  for (auto it = request.find("If-None-Match");
       it != request.end() && Poco::icompare(it->first, "If-None-Match") == 0; ++it) {
    joined = joined ? *joined + ", " + it->second : it->second;
  }
  return joined;
}

class ApiHandler final : public Poco::Net::HTTPRequestHandler {
 public:
  ApiHandler(std::shared_ptr<spdlog::logger> logger, std::shared_ptr<const ApiServices> services,
             std::shared_ptr<Pool> pool, std::shared_ptr<ReadCache> cache)
      : logger_(std::move(logger)),
        services_(std::move(services)),
        pool_(std::move(pool)),
        cache_(std::move(cache)),
        admin_{services_->admin_token, services_->turns, services_->mail_templates,
               services_->mail_from, services_->rulesets_dir} {}

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
    const std::string& method = request.getMethod();
    const bool get = method == Poco::Net::HTTPRequest::HTTP_GET;
    const bool post = method == Poco::Net::HTTPRequest::HTTP_POST;
    std::vector<std::string> segments;
    {
      std::istringstream in(path);
      std::string segment;
      while (std::getline(in, segment, '/')) {
        if (!segment.empty()) segments.push_back(segment);
      }
    }
    Answer answer;
    if (get && path == "/healthz") {
      // The database as the last operation of any thread found it (a cheap check: no query
      // here, so /healthz answers at once even while the database hangs).
      Poco::JSON::Object body;
      const std::optional<std::string> down =
          services_->metrics ? services_->metrics->database_down() : std::nullopt;
      body.set("status", down ? "unavailable" : "ok");
      body.set("database", down ? "down" : "up");
      if (down) {
        body.set("message", *down);
        answer.status = HTTPResponse::HTTP_SERVICE_UNAVAILABLE;
      }
      answer.body = Stringify(body);
    } else if (get && path == "/metrics" && services_->metrics != nullptr) {
      answer.content_type = "text/plain; version=0.0.4; charset=utf-8";
      answer.body = services_->metrics->RenderPrometheus();
    } else if (segments.size() >= 2 && segments[0] == "v1" && segments[1] == "games" &&
               path.rfind("/v1/", 0) == 0) {
      answer = Games(request, segments, get, post);
    } else if (segments.size() >= 2 && segments[0] == "v1" && segments[1] == "leagues" &&
               path.rfind("/v1/", 0) == 0) {
      answer = Leagues(request, segments);
    } else {
      answer =
          Error(HTTPResponse::HTTP_NOT_FOUND, "not_found", "no route for " + method + " " + path);
    }
    for (const auto& [name, value] : answer.headers) response.set(name, value);
    Send(response, answer.status, answer.content_type, answer.body, services_->retry_after);
    logger_->debug("event=http_request method={} path={} status={}", method, QuoteLogValue(path),
                   static_cast<int>(answer.status));
  }

  Answer Games(HTTPServerRequest& request, const std::vector<std::string>& s, bool get, bool post) {
    const std::string route_error =
        "no route for " + request.getMethod() + " " + PathOf(request.getURI());
    if (s.size() == 2) {
      if (get) return WithRepository([&](auto& r) { return Reads().List(r); });
      if (post) return WithRepository([&](auto& r) { return CreateGame(request, r); });
    } else if (s.size() == 3 && get) {
      return WithRepository([&](auto& r) {
        return Reads().State(r, s[2], AcceptsProtobuf(request), IfNoneMatch(request));
      });
    } else if (s.size() == 4 && s[3] == "orders" && post) {
      return WithRepository([&](auto& r) { return Orders(request, r, s[2], true); });
    } else if (s.size() == 4 && s[3] == "history" && get) {
      return WithRepository([&](auto& r) { return Reads().History(r, s[2]); });
    } else if (s.size() == 5 && s[3] == "turns" && get) {
      return WithRepository([&](auto& r) { return Reads().TurnReport(r, s[2], s[4]); });
    } else if (s.size() == 6 && s[3] == "turns" && s[5] == "map.png" && get) {
      return WithRepository(
          [&](auto& r) { return Reads().TurnMap(r, s[2], s[4], IfNoneMatch(request)); });
    } else if ((s.size() == 4 || s.size() == 5) && s[3] == "archive" && get) {
      const std::string file = s.size() == 5 ? s[4] : "index.html";
      return WithRepository([&](auto& r) { return Archives().Page(r, s[2], file); });
    } else if (s.size() == 4 && s[3] == "export" && get) {
      return WithRepository([&](auto& r) { return Archives().Export(r, s[2]); });
    } else if (s.size() == 4 && (s[3] == "pause" || s[3] == "resume") && post) {
      return WithRepository([&](auto& r) { return Pause(request, r, s[2], s[3] == "pause"); });
    } else if (s.size() == 5 && s[3] == "orders" && s[4] == "check" && post) {
      return WithRepository([&](auto& r) { return Orders(request, r, s[2], false); });
    } else if (s.size() == 4 && s[3] == "resign" && post) {
      return WithLeagues([&](auto& games, auto& leagues) {
        return ResignGame(*services_->leagues, s[2], BearerToken(request), games, leagues, Now());
      });
    }
    return Error(HTTPResponse::HTTP_NOT_FOUND, "not_found", route_error);
  }

  Answer Leagues(HTTPServerRequest& request, const std::vector<std::string>& segments) {
    LeagueRequest league_request;
    league_request.method = request.getMethod();
    league_request.segments.assign(segments.begin() + 1, segments.end());
    league_request.bearer_token = BearerToken(request);
    try {
      for (const auto& [key, value] : Poco::URI(request.getURI()).getQueryParameters()) {
        if (key == "lang") league_request.language = value;
        if (key == "season") league_request.season = value;
        if (key == "player") league_request.player = value;
      }
    } catch (const Poco::Exception& e) {
      return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                   "the query does not parse: " + e.displayText());
    }
    if (league_request.method == Poco::Net::HTTPRequest::HTTP_POST) {
      Answer error;
      std::optional<std::string> body = ReadBody(request, error);
      if (!body) return error;
      league_request.body = std::move(*body);
    }
    return WithLeagues([&](auto& games, auto& leagues) {
      return HandleLeagueRequest(*services_->leagues, league_request, games, leagues, Now());
    });
  }

  // Runs `f(games, leagues)` on a pooled repository that is also the league store.
  template <typename F>
  Answer WithLeagues(F&& f) {
    if (services_->leagues == nullptr) {
      return Error(HTTPResponse::HTTP_SERVICE_UNAVAILABLE, "unavailable",
                   "this server runs no leagues");
    }
    return WithRepository([&](storage::GameRepository& games) {
      auto* leagues = dynamic_cast<storage::LeagueRepository*>(&games);
      if (leagues == nullptr) {
        return Error(HTTPResponse::HTTP_SERVICE_UNAVAILABLE, "unavailable",
                     "this server's store keeps no leagues");
      }
      LeagueAnswer answer = f(games, *leagues);
      return Answer{static_cast<HTTPResponse::HTTPStatus>(answer.status), answer.content_type,
                    std::move(answer.body)};
    });
  }

  template <typename F>
  Answer WithRepository(F&& f) {
    if (services_->catalog == nullptr || services_->desk == nullptr) {
      return Error(HTTPResponse::HTTP_SERVICE_UNAVAILABLE, "unavailable",
                   "this server has no game store");
    }
    Result<std::unique_ptr<storage::GameRepository>> repository = pool_->Take();
    if (!repository.ok()) {
      if (repository.status().code() != StatusCode::kUnavailable) {  // else logged once
        logger_->error("event=http_store_failed error={}",
                       QuoteLogValue(repository.status().ToString()));
      }
      return Error(HTTPResponse::HTTP_SERVICE_UNAVAILABLE, "unavailable",
                   "the game store is not available");
    }
    Answer answer = f(**repository);
    pool_->Give(std::move(repository).value());
    return answer;
  }

  // Reads the body; nullopt (and `error` set) when it is larger than the limit.
  std::optional<std::string> ReadBody(HTTPServerRequest& request, Answer& error) {
    const std::size_t max = services_->max_body_bytes;
    if (request.hasContentLength() &&
        request.getContentLength64() > static_cast<Poco::Int64>(max)) {
      // Read (and drop) a bounded amount first, so that a client still sending its body
      // gets the answer rather than a reset connection.
      std::istream& in = request.stream();
      char sink[8192];
      std::size_t dropped = 0;
      while (dropped < 4 * max && (in.read(sink, sizeof sink) || in.gcount() > 0)) {
        dropped += static_cast<std::size_t>(in.gcount());
      }
      error = Error(HTTPResponse::HTTP_REQUESTENTITYTOOLARGE, mail::kOversized,
                    "the request body is larger than " + std::to_string(max) + " bytes");
      return std::nullopt;
    }
    std::string body;
    std::istream& in = request.stream();
    char buffer[8192];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
      body.append(buffer, static_cast<std::size_t>(in.gcount()));
      if (body.size() > max) {
        error = Error(HTTPResponse::HTTP_REQUESTENTITYTOOLARGE, mail::kOversized,
                      "the request body is larger than " + std::to_string(max) + " bytes");
        return std::nullopt;
      }
    }
    return body;
  }

  static std::string BearerToken(const HTTPServerRequest& request) {
    const std::string header = request.get("Authorization", "");
    if (header.size() > 7 && Poco::icompare(header.substr(0, 7), "Bearer ") == 0) {
      return Poco::trim(header.substr(7));
    }
    return "";
  }

  // The services behind the routes (daemon/api/). REQUIRES: services_->catalog and
  // services_->desk set (WithRepository checks).
  api::GameReads Reads() { return api::GameReads(*services_->catalog, *cache_, *logger_); }
  api::GameArchive Archives() {
    return api::GameArchive(*services_->catalog, services_->mail_templates,
                            services_->archive_template_dir, services_->archive_cache_dir,
                            *logger_);
  }
  api::GameAdmin Admin() { return api::GameAdmin(*services_->catalog, admin_, *logger_); }

  static bool AcceptsProtobuf(const HTTPServerRequest& request) {
    return request.get("Accept", "").find("application/x-protobuf") != std::string::npos;
  }

  Answer CreateGame(HTTPServerRequest& request, storage::GameRepository& repository) {
    api::GameAdmin admin = Admin();
    if (std::optional<Answer> refused =
            admin.RefuseUnlessAdmin(BearerToken(request), "game creation")) {
      return *refused;
    }
    Answer error;
    std::optional<std::string> body = ReadBody(request, error);
    if (!body) return error;
    return admin.CreateGame(repository, *body);
  }

  Answer Pause(HTTPServerRequest& request, storage::GameRepository& repository,
               const std::string& game_id, bool pause) {
    api::GameAdmin admin = Admin();
    if (std::optional<Answer> refused = admin.RefuseUnlessAdmin(BearerToken(request), "pausing")) {
      return *refused;
    }
    return admin.Pause(repository, game_id, pause);
  }

  // POST .../orders (record) and .../orders/check: the body, the verdicts' language (?lang=)
  // and the token, read in that order, for the order desk.
  Answer Orders(HTTPServerRequest& request, storage::GameRepository& repository,
                const std::string& id, bool record) {
    api::OrdersRequest orders;
    orders.record = record;
    Answer error;
    std::optional<std::string> body = ReadBody(request, error);
    if (!body) return error;
    orders.body = std::move(*body);
    // The language of the verdicts' "text": ?lang=en|fr, else the player's.
    try {
      for (const auto& [key, value] : Poco::URI(request.getURI()).getQueryParameters()) {
        if (key != "lang") continue;
        orders.language = templates::ParseLanguage(value);
        if (!orders.language) {
          return Error(HTTPResponse::HTTP_BAD_REQUEST, "invalid_argument",
                       "lang: \"" + mail::OneLine(std::string_view(value).substr(0, 32)) +
                           "\" is not a language (en or fr)");
        }
      }
    } catch (const Poco::Exception& e) {
      return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                   "the query does not parse: " + e.displayText());
    }
    orders.token = BearerToken(request);
    orders.content_type = request.getContentType();
    return api::OrderSubmission(*services_->catalog, *services_->desk, services_->mail_templates,
                                *logger_)
        .Submit(repository, id, orders);
  }

  void Fail(HTTPServerRequest& request, HTTPServerResponse& response, const std::string& what) {
    logger_->error("event=http_handler_failed method={} uri={} error={}", request.getMethod(),
                   QuoteLogValue(request.getURI()), QuoteLogValue(what));
    if (!response.sent()) {
      SendJson(response, HTTPResponse::HTTP_INTERNAL_SERVER_ERROR,
               ErrorBody("internal", "internal error"), services_->retry_after);
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
  std::shared_ptr<const ApiServices> services_;
  std::shared_ptr<Pool> pool_;
  std::shared_ptr<ReadCache> cache_;
  const api::GameAdminSettings admin_;
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
    : ApiRequestHandlerFactory(std::move(logger), [&metrics] {
        ApiServices services;
        services.metrics = std::move(metrics);
        return services;
      }()) {}

ApiRequestHandlerFactory::ApiRequestHandlerFactory(std::shared_ptr<spdlog::logger> logger,
                                                   ApiServices services)
    : logger_(std::move(logger)),
      services_(std::make_shared<const ApiServices>(services)),
      pool_(std::make_shared<RepositoryPool>(std::move(services.open_repository))),
      cache_(std::make_shared<ReadCache>(services.read_cache_bytes)) {}

ApiRequestHandlerFactory::~ApiRequestHandlerFactory() = default;

Poco::Net::HTTPRequestHandler* ApiRequestHandlerFactory::createRequestHandler(
    const Poco::Net::HTTPServerRequest& /*request*/) {
  return new ApiHandler(logger_, services_, pool_, cache_);
}

}  // namespace pbem::daemon
