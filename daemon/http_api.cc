#include "daemon/http_api.h"

#include <Poco/Exception.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/String.h>
#include <Poco/URI.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <exception>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "daemon/config.h"
#include "daemon/game_catalog.h"
#include "daemon/json_input.h"
#include "daemon/league_api.h"
#include "daemon/mail/replies.h"
#include "daemon/mail/scan.h"
#include "daemon/metrics.h"
#include "daemon/order_desk.h"
#include "daemon/read_cache.h"
#include "daemon/text_body.h"
#include "daemon/turn/archive.h"
#include "daemon/turn_loop.h"
#include "daemon/validate.h"
#include "daemon/welcome_mail.h"
#include "engine/game_state.h"
#include "engine/ids.h"
#include "engine/reach.h"
#include "proto/codec/codec.h"
#include "templates/archive.h"
#include "templates/mail_render.h"
#include "templates/map_renderer.h"

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

std::string Stringify(const Poco::JSON::Object& object) {
  std::ostringstream out;
  object.stringify(out);
  return out.str();
}

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

// An answer in the making: status, body and any further header fields.
struct Answer {
  HTTPResponse::HTTPStatus status = HTTPResponse::HTTP_OK;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers{};
};

// The public reads of what a committed turn made (a game's state, a turn's map): the same for
// every client (they need no token and show nothing a side may not see: the game is one of
// full information, dice seeds appear only once revealed), and a client or cache keeps them
// but asks again each time, a cheap 304 while nothing changed.
constexpr const char* kReadCacheControl = "no-cache";

// `value`, length-prefixed: keys built of such fields are unambiguous whatever the bytes.
void AddKeyField(std::string& key, std::string_view value) {
  key += std::to_string(value.size());
  key += ':';
  key += value;
}

// What a game's reads depend on, as the database says now: its id, creation, turns committed
// and end (every field of it: an organiser's corrected result is another key).
std::string GameKey(std::string_view what, const std::string& id,
                    const storage::GameVersion& version) {
  std::string key;
  AddKeyField(key, what);
  AddKeyField(key, id);
  AddKeyField(key, std::to_string(version.created_at.time_since_epoch().count()));
  AddKeyField(key, std::to_string(version.turns_committed));
  if (const auto& e = version.ending) {
    AddKeyField(key, storage::GameEndKindName(e->kind));
    AddKeyField(key, e->winner);
    AddKeyField(key, e->level);
    AddKeyField(key, e->by_organiser ? "organiser" : "");
    AddKeyField(key, std::to_string(e->turn));
    AddKeyField(key, e->text);
  }
  return key;
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

Answer Error(HTTPResponse::HTTPStatus status, const std::string& code, const std::string& message) {
  return Answer{status, "application/json", ErrorBody(code, message)};
}

HTTPResponse::HTTPStatus StatusForCode(const std::string& code) {
  if (code == mail::kMalformed) return HTTPResponse::HTTP_BAD_REQUEST;
  if (code == mail::kOversized) return HTTPResponse::HTTP_REQUESTENTITYTOOLARGE;
  if (code == mail::kUnauthenticated) return HTTPResponse::HTTP_FORBIDDEN;
  if (code == mail::kWrongGame || code == mail::kStaleTurn || code == mail::kGameOver) {
    return HTTPResponse::HTTP_CONFLICT;
  }
  if (code == mail::kRejectedOrders) return HTTPResponse::HTTP_UNPROCESSABLE_ENTITY;
  return HTTPResponse::HTTP_SERVICE_UNAVAILABLE;
}

storage::Timestamp Now() {
  return std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
}

// `words` may be null (no templates loaded: tests only); "text" is then the verdict's codes.
// "text" is in `language`, units named from `scenario` (may be null: ids as sent).
Poco::JSON::Array::Ptr VerdictsJson(const std::vector<engine::OrderVerdict>& verdicts,
                                    int label_width, const templates::MailTemplates* words,
                                    templates::Language language,
                                    const engine::Scenario* scenario) {
  Poco::JSON::Array::Ptr array = new Poco::JSON::Array;
  for (const engine::OrderVerdict& v : verdicts) {
    Poco::JSON::Object::Ptr item = new Poco::JSON::Object;
    item->set("order", std::string(engine::OrderKindName(v.order_kind)));
    item->set("index", v.index);
    item->set("unit", v.unit);
    item->set("verdict", std::string(engine::VerdictKindName(v.verdict)));
    item->set("reason", std::string(engine::ReasonCode(v.reason)));
    Poco::JSON::Array::Ptr args = new Poco::JSON::Array;
    for (const engine::Arg& arg : v.args) {
      if (const auto* hex = std::get_if<engine::Hex>(&arg)) {
        args->add(engine::FormatLabel(*hex, label_width));
      } else {
        args->add(codec::FormatArg(arg));
      }
    }
    item->set("args", args);
    item->set("text", words != nullptr ? words->VerdictSentence(language, v, scenario, label_width)
                                       : mail::VerdictText(v, label_width));
    array->add(item);
  }
  return array;
}

std::optional<codec::Format> FormatFromContentType(const std::string& content_type) {
  const std::string type =
      Poco::toLower(Poco::trim(content_type.substr(0, content_type.find(';'))));
  if (type == "application/x-protobuf" || type == "application/protobuf" ||
      type == "application/octet-stream" || type == "application/vnd.google.protobuf") {
    return codec::Format::kBinary;
  }
  if (type == "application/json") return codec::Format::kJson;
  if (type == "text/plain") return codec::Format::kText;
  return std::nullopt;
}

class ApiHandler final : public Poco::Net::HTTPRequestHandler {
 public:
  ApiHandler(std::shared_ptr<spdlog::logger> logger, std::shared_ptr<const ApiServices> services,
             std::shared_ptr<Pool> pool, std::shared_ptr<ReadCache> cache)
      : logger_(std::move(logger)),
        services_(std::move(services)),
        pool_(std::move(pool)),
        cache_(std::move(cache)) {}

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
      if (get) return WithRepository([&](auto& r) { return ListGames(r); });
      if (post) return WithRepository([&](auto& r) { return CreateGame(request, r); });
    } else if (s.size() == 3 && get) {
      return WithRepository([&](auto& r) { return GetGame(request, r, s[2]); });
    } else if (s.size() == 4 && s[3] == "orders" && post) {
      return WithRepository([&](auto& r) { return Orders(request, r, s[2], true); });
    } else if (s.size() == 4 && s[3] == "history" && get) {
      return WithRepository([&](auto& r) { return History(r, s[2]); });
    } else if (s.size() == 5 && s[3] == "turns" && get) {
      return WithRepository([&](auto& r) { return TurnReport(r, s[2], s[4]); });
    } else if (s.size() == 6 && s[3] == "turns" && s[5] == "map.png" && get) {
      return WithRepository([&](auto& r) { return TurnMap(request, r, s[2], s[4]); });
    } else if ((s.size() == 4 || s.size() == 5) && s[3] == "archive" && get) {
      const std::string file = s.size() == 5 ? s[4] : "index.html";
      return WithRepository([&](auto& r) { return Archive(r, s[2], file); });
    } else if (s.size() == 4 && s[3] == "export" && get) {
      return WithRepository([&](auto& r) { return Export(r, s[2]); });
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

  // The validators and caching rules of a cached read (kReadCacheControl).
  static std::vector<std::pair<std::string, std::string>> ReadHeaders(const std::string& etag,
                                                                      bool vary_accept) {
    std::vector<std::pair<std::string, std::string>> headers{{"ETag", etag},
                                                             {"Cache-Control", kReadCacheControl}};
    if (vary_accept) headers.emplace_back("Vary", "Accept");
    return headers;
  }

  // A read whose answer is kept under `key` (its entity-tag `etag`): 304 when the request's
  // If-None-Match names it, else the kept answer; nullopt when it is not kept (then the caller
  // encodes it and passes it to Keep).
  std::optional<Answer> FromCache(const HTTPServerRequest& request, const std::string& key,
                                  const std::string& etag, bool vary_accept) {
    if (std::optional<std::string> condition = IfNoneMatch(request);
        condition && IfNoneMatchHits(*condition, etag)) {
      return Answer{HTTPResponse::HTTP_NOT_MODIFIED, "", "", ReadHeaders(etag, vary_accept)};
    }
    std::optional<ReadCache::Entry> kept = cache_->Get(key);
    if (!kept) return std::nullopt;
    return Answer{HTTPResponse::HTTP_OK, kept->content_type, *kept->body,
                  ReadHeaders(kept->etag, vary_accept)};
  }

  // Keeps a 200 `answer` under `key`; any other answer is passed on as it is.
  Answer Keep(const std::string& key, const std::string& etag, bool vary_accept, Answer answer) {
    if (answer.status != HTTPResponse::HTTP_OK) return answer;
    cache_->Put(key, ReadCache::Entry{etag, answer.content_type,
                                      std::make_shared<const std::string>(answer.body)});
    answer.headers = ReadHeaders(etag, vary_accept);
    return answer;
  }

  // GET /v1/games/{id}: the game's state after its last committed turn, JSON or protobuf (by
  // Accept). One small row read per request (the game's version: storage::GameVersion); the
  // encoded state comes from the cache while that version is unchanged, and If-None-Match
  // naming it gets 304.
  Answer GetGame(HTTPServerRequest& request, storage::GameRepository& repository,
                 const std::string& id) {
    const bool protobuf =
        request.get("Accept", "").find("application/x-protobuf") != std::string::npos;
    const std::string encoding = protobuf ? "pb" : "json";
    Result<storage::GameVersion> version = repository.GetGameVersion(id);
    if (!version.ok()) return StoreError(version.status(), "game \"" + id + "\"");
    const auto etag_of = [&](const storage::GameVersion& v) {
      return StrongEtag("state-" + encoding + "-" + std::to_string(v.turns_committed),
                        GameKey("state/" + encoding, id, v));
    };
    if (std::optional<Answer> kept = FromCache(request, GameKey("state/" + encoding, id, *version),
                                               etag_of(*version), true)) {
      return *kept;
    }
    Result<storage::Game> game = repository.GetGame(id);
    if (!game.ok()) return StoreError(game.status(), "game \"" + id + "\"");
    // Keyed on the game as read with its state: a turn committed since the version read is
    // the next key, never this one.
    const storage::GameVersion read = storage::VersionOf(*game);
    return Keep(GameKey("state/" + encoding, id, read), etag_of(read), true,
                EncodeState(repository, *game, protobuf));
  }

  Answer EncodeState(storage::GameRepository& repository, const storage::Game& game,
                     bool protobuf) {
    const std::string& id = game.id;
    if (protobuf) return Answer{HTTPResponse::HTTP_OK, "application/x-protobuf", game.state};
    Result<GameContext> context = services_->catalog->Load(game);
    if (!context.ok()) {
      return Error(HTTPResponse::HTTP_SERVICE_UNAVAILABLE, mail::kGameUnavailable,
                   context.status().message());
    }
    pbem::v1::GameState proto;
    proto.ParseFromString(game.state);
    Poco::JSON::Object body;
    body.set("id", game.id);
    body.set("scenario", game.scenario);
    body.set("ruleset", game.ruleset_name);
    body.set("rulesetVersion", game.ruleset_version);
    body.set("turnsCommitted", game.turns_committed);
    body.set("turn", context->state.turn);
    body.set("sideToMove", std::string(engine::SideName(context->state.side_to_move)));
    Result<std::vector<storage::Player>> players = repository.ListPlayers(id);
    if (!players.ok()) return StoreError(players.status(), "players");
    Poco::JSON::Array::Ptr sides = new Poco::JSON::Array;
    for (const storage::Player& p : *players) sides->add(p.side);
    body.set("sides", sides);
    body.set("state",
             Poco::JSON::Parser().parse(codec::SerializeMessage(proto, codec::Format::kJson)));
    return Answer{HTTPResponse::HTTP_OK, "application/json", Stringify(body)};
  }

  // Every committed player-turn of a game, in order: what `pbem history` shows.
  Answer History(storage::GameRepository& repository, const std::string& id) {
    Result<storage::Game> game = repository.GetGame(id);
    if (!game.ok()) return StoreError(game.status(), "game \"" + id + "\"");
    Result<std::vector<storage::Turn>> turns = repository.ListTurns(id);
    if (!turns.ok()) return StoreError(turns.status(), "turns");
    Poco::JSON::Array list;
    for (const storage::Turn& t : *turns) {
      pbem::v1::TurnResult result;
      result.ParseFromString(t.result);
      Poco::JSON::Object turn;
      turn.set("sequence", t.sequence);
      turn.set("turn", t.turn);
      turn.set("side", t.side);
      turn.set("committedAtMs",
               static_cast<std::int64_t>(t.committed_at.time_since_epoch().count()));
      turn.set("events", result.events_size());
      turn.set("commitment", result.dice().commitment());
      turn.set("revealedSeed", result.dice().revealed_seed());
      list.add(turn);
    }
    Poco::JSON::Object body;
    body.set("id", id);
    body.set("result", game->result);
    body.set("turns", list);
    return Answer{HTTPResponse::HTTP_OK, "application/json", Stringify(body)};
  }

  // Player-turn number `text` (1 = the first committed) of a game that has `committed`;
  // nullopt and `error` set when it is not a number or not committed yet.
  static std::optional<std::int64_t> Sequence(const std::string& id, const std::string& text,
                                              std::int64_t committed, Answer& error) {
    std::int64_t sequence = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), sequence);
    if (ec != std::errc() || end != text.data() + text.size() || sequence < 1) {
      error = Error(HTTPResponse::HTTP_BAD_REQUEST, "invalid_argument",
                    "turn \"" + text + "\" is not a player-turn number (1, 2, ...)");
      return std::nullopt;
    }
    if (sequence > committed) {
      error = Error(HTTPResponse::HTTP_NOT_FOUND, "not_found",
                    "game \"" + id + "\" has " + std::to_string(committed) +
                        " player-turns committed, not " + text);
      return std::nullopt;
    }
    return sequence;
  }

  // The report of player-turn number `sequence_text` (1 = the first committed) as JSON (the
  // stored pbem.v1.TurnResult).
  Answer TurnReport(storage::GameRepository& repository, const std::string& id,
                    const std::string& sequence_text) {
    Result<storage::Game> game = repository.GetGame(id);
    if (!game.ok()) return StoreError(game.status(), "game \"" + id + "\"");
    Result<std::vector<storage::Turn>> turns = repository.ListTurns(id);
    if (!turns.ok()) return StoreError(turns.status(), "turns");
    Answer error;
    const std::optional<std::int64_t> sequence =
        Sequence(id, sequence_text, static_cast<std::int64_t>(turns->size()), error);
    if (!sequence) return error;
    const storage::Turn& turn = (*turns)[static_cast<std::size_t>(*sequence - 1)];
    pbem::v1::TurnResult result;
    if (!result.ParseFromString(turn.result)) {
      return Error(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "internal",
                   "the stored result does not parse");
    }
    Poco::JSON::Object body;
    body.set("sequence", turn.sequence);
    body.set("turn", turn.turn);
    body.set("side", turn.side);
    body.set("result",
             Poco::JSON::Parser().parse(codec::SerializeMessage(result, codec::Format::kJson)));
    return Answer{HTTPResponse::HTTP_OK, "application/json", Stringify(body)};
  }

  // The map after player-turn `sequence_text`, its events drawn, as PNG: drawn once per game
  // and player-turn, then served from the cache (a committed turn never changes; the key
  // holds the game's creation too), with an ETag.
  Answer TurnMap(HTTPServerRequest& request, storage::GameRepository& repository,
                 const std::string& id, const std::string& sequence_text) {
    Result<storage::GameVersion> version = repository.GetGameVersion(id);
    if (!version.ok()) return StoreError(version.status(), "game \"" + id + "\"");
    Answer error;
    const std::optional<std::int64_t> sequence =
        Sequence(id, sequence_text, version->turns_committed, error);
    if (!sequence) return error;
    // Only what the map depends on: not the later turns, nor the game's end.
    storage::GameVersion made = *version;
    made.turns_committed = *sequence;
    made.ending.reset();
    const std::string key = GameKey("map", id, made);
    const std::string etag = StrongEtag("map-" + std::to_string(*sequence), key);
    if (std::optional<Answer> kept = FromCache(request, key, etag, false)) return *kept;
    return Keep(key, etag, false, DrawMap(repository, id, *sequence));
  }

  Answer DrawMap(storage::GameRepository& repository, const std::string& id,
                 std::int64_t sequence) {
    Result<storage::Game> game = repository.GetGame(id);
    if (!game.ok()) return StoreError(game.status(), "game \"" + id + "\"");
    Result<std::vector<storage::Turn>> turns = repository.ListTurns(id);
    if (!turns.ok()) return StoreError(turns.status(), "turns");
    if (sequence > static_cast<std::int64_t>(turns->size())) {
      return Error(HTTPResponse::HTTP_NOT_FOUND, "not_found", "no such player-turn");
    }
    const storage::Turn& turn = (*turns)[static_cast<std::size_t>(sequence - 1)];
    pbem::v1::TurnResult result;
    if (!result.ParseFromString(turn.result)) {
      return Error(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "internal",
                   "the stored result does not parse");
    }
    Result<std::shared_ptr<const ScenarioData>> data = services_->catalog->Scenario(game->scenario);
    if (!data.ok()) {
      return Error(HTTPResponse::HTTP_SERVICE_UNAVAILABLE, mail::kGameUnavailable,
                   data.status().message());
    }
    auto engine_result = codec::TurnResultFromProto(result, (*data)->scenario, "turn");
    pbem::v1::GameState state_proto;
    state_proto.ParseFromString(turn.next_state);
    auto state = codec::StateFromProto(state_proto, (*data)->scenario);
    if (!engine_result.ok() || !state.ok()) {
      return Error(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "internal",
                   "the stored turn does not fit scenario " + game->scenario);
    }
    templates::RenderOptions options;
    options.game_id = id;
    options.turn_played = static_cast<int>(turn.turn);
    options.side_played = turn.side == "blue" ? engine::Side::kBlue : engine::Side::kOrange;
    templates::MapImage image;
    std::vector<std::uint8_t> png;
    templates::Status drawn =
        templates::RenderMap((*data)->ruleset, (*data)->scenario, state.value(),
                             &engine_result.value().events, options, &image);
    if (drawn.ok) drawn = templates::EncodePng(image.surface(), {}, &png);
    if (!drawn.ok) {
      return Error(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "internal", drawn.message);
    }
    return Answer{HTTPResponse::HTTP_OK, "image/png", std::string(png.begin(), png.end())};
  }

  // The archive page of a game: written once per number of committed turns, then served.
  Answer Archive(storage::GameRepository& repository, const std::string& id,
                 const std::string& file) {
    if (services_->mail_templates == nullptr || services_->archive_cache_dir.empty()) {
      return Error(HTTPResponse::HTTP_NOT_FOUND, "not_found", "this server serves no archive");
    }
    if (file.empty() || file.find('/') != std::string::npos ||
        file.find("..") != std::string::npos || file[0] == '.') {
      return Error(HTTPResponse::HTTP_NOT_FOUND, "not_found", "no archive file \"" + file + "\"");
    }
    Result<storage::Game> game = repository.GetGame(id);
    if (!game.ok()) return StoreError(game.status(), "game \"" + id + "\"");
    const std::filesystem::path dir =
        services_->archive_cache_dir /
        (id + "-" + std::to_string(game->turns_committed) + (game->ending ? "-over" : ""));
    std::error_code ec;
    if (!std::filesystem::exists(dir / "index.html", ec)) {
      if (std::optional<Answer> failed = WriteArchiveDir(repository, *game, dir)) return *failed;
    }
    std::ifstream in(dir / file, std::ios::binary);
    if (!in) {
      return Error(HTTPResponse::HTTP_NOT_FOUND, "not_found", "no archive file \"" + file + "\"");
    }
    std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto ends = [&](const char* suffix) {
      const std::string_view f(file), x(suffix);
      return f.size() >= x.size() && f.substr(f.size() - x.size()) == x;
    };
    const std::string type = ends(".html")  ? "text/html; charset=utf-8"
                             : ends(".png") ? "image/png"
                             : ends(".css") ? "text/css; charset=utf-8"
                                            : "application/octet-stream";
    return Answer{HTTPResponse::HTTP_OK, type, std::move(body)};
  }

  // The game's verifiable archive file (pbem.v1.Archive, binary: what `pbem export` writes and
  // `pbem verify` checks), public like the archive page: committed turns only, whose seeds are
  // revealed already.
  Answer Export(storage::GameRepository& repository, const std::string& id) {
    Result<pbem::v1::Archive> archive = ExportArchive(repository, id);
    if (!archive.ok()) {
      if (archive.status().code() == StatusCode::kFailedPrecondition) {
        return Error(HTTPResponse::HTTP_NOT_FOUND, "not_found",
                     "game \"" + id +
                         "\" has no verifiable archive: it was created without "
                         "its ruleset and scenario");
      }
      return StoreError(archive.status(), "game \"" + id + "\"");
    }
    return Answer{HTTPResponse::HTTP_OK, "application/octet-stream",
                  codec::SerializeMessage(*archive, codec::Format::kBinary)};
  }

  // Builds the archive input from the store and writes it into `dir` (through a temporary
  // directory renamed into place, so a concurrent request never serves half of it).
  std::optional<Answer> WriteArchiveDir(storage::GameRepository& repository,
                                        const storage::Game& game,
                                        const std::filesystem::path& dir) {
    Result<std::shared_ptr<const ScenarioData>> data = services_->catalog->Scenario(game.scenario);
    if (!data.ok()) {
      return Error(HTTPResponse::HTTP_SERVICE_UNAVAILABLE, mail::kGameUnavailable,
                   data.status().message());
    }
    Result<std::vector<storage::Turn>> turns = repository.ListTurns(game.id);
    if (!turns.ok()) return StoreError(turns.status(), "turns");
    templates::ArchiveInput input;
    input.ruleset = &(*data)->ruleset;
    input.scenario = &(*data)->scenario;
    input.game_id = game.id;
    input.initial_state = engine::InitialState((*data)->scenario, game.id);
    if (const std::optional<storage::GameEnding>& e = game.ending) {
      input.ending = templates::ArchiveEnding{std::string(storage::GameEndKindName(e->kind)),
                                              e->winner, e->level, e->by_organiser};
    }
    for (const storage::Turn& t : *turns) {
      pbem::v1::TurnResult proto;
      proto.ParseFromString(t.result);
      auto result = codec::TurnResultFromProto(proto, (*data)->scenario, "turn");
      if (!result.ok()) {
        return Error(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "internal",
                     "player-turn " + std::to_string(t.sequence) + ": " + result.ErrorText());
      }
      templates::ArchiveTurn turn;
      turn.turn = static_cast<int>(t.turn);
      turn.side = engine::ParseSide(t.side).value_or(engine::Side::kBlue);
      turn.result = std::move(result).value();
      turn.revealed_seed = proto.dice().revealed_seed();
      turn.commitment = proto.dice().commitment();
      input.turns.push_back(std::move(turn));
    }
    const std::filesystem::path temp =
        dir.string() + ".tmp-" +
        std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id()));
    std::error_code ec;
    std::filesystem::remove_all(temp, ec);
    if (templates::Status written =
            templates::WriteArchive(*services_->mail_templates, templates::Language::kEnglish,
                                    services_->archive_template_dir, input, temp);
        !written.ok) {
      return Error(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "internal", written.message);
    }
    std::filesystem::rename(temp, dir, ec);
    if (ec) std::filesystem::remove_all(temp, ec);  // another request put it there first
    return std::nullopt;
  }

  Answer Orders(HTTPServerRequest& request, storage::GameRepository& repository,
                const std::string& id, bool record) {
    Answer error;
    std::optional<std::string> body = ReadBody(request, error);
    if (!body) return error;
    // The language of the verdicts' "text": ?lang=en|fr, else the player's.
    std::optional<templates::Language> language;
    try {
      for (const auto& [key, value] : Poco::URI(request.getURI()).getQueryParameters()) {
        if (key != "lang") continue;
        language = templates::ParseLanguage(value);
        if (!language) {
          return Error(HTTPResponse::HTTP_BAD_REQUEST, "invalid_argument",
                       "lang: \"" + mail::OneLine(std::string_view(value).substr(0, 32)) +
                           "\" is not a language (en or fr)");
        }
      }
    } catch (const Poco::Exception& e) {
      return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                   "the query does not parse: " + e.displayText());
    }
    const std::string token = BearerToken(request);
    if (token.empty()) {
      return Error(HTTPResponse::HTTP_UNAUTHORIZED, mail::kUnauthenticated,
                   "send the player's token as \"Authorization: Bearer <token>\"");
    }
    Result<storage::Game> game = repository.GetGame(id);
    if (!game.ok()) return StoreError(game.status(), "game \"" + id + "\"");
    Result<std::vector<storage::Player>> players = repository.ListPlayers(id);
    if (!players.ok()) return StoreError(players.status(), "players");
    const storage::Player* player = nullptr;
    for (const storage::Player& p : *players) {
      Result<bool> match = repository.VerifyToken(id, p.side, token);
      if (!match.ok()) return StoreError(match.status(), "token");
      if (*match) player = &p;
    }
    if (player == nullptr) {
      return Error(HTTPResponse::HTTP_UNAUTHORIZED, mail::kUnauthenticated,
                   "the token is not the token of a player of game \"" + id + "\"");
    }
    Envelope envelope;
    envelope.channel = storage::Channel::kHttp;
    envelope.sender = "http:" + player->side;
    envelope.raw = *body;  // stored as received; the turn is resolved with the orders validated
    envelope.received_at = Now();
    const std::optional<codec::Format> format = FormatFromContentType(request.getContentType());
    std::string refusal;
    pbem::v1::Orders orders;
    // A body declared as text is checked (and transcoded) first: daemon/text_body.h.
    Result<std::string> text = format == codec::Format::kText || format == codec::Format::kJson
                                   ? TextBody(*body, request.getContentType())
                                   : Result<std::string>(*body);
    if (!text.ok()) {
      refusal = "request body: " + text.status().message();
    } else if (auto parsed = codec::ParseOrders(*text, format, "request body"); !parsed.ok()) {
      refusal = parsed.ErrorText();
      while (!refusal.empty() && refusal.back() == '\n') refusal.pop_back();
    } else {
      orders = std::move(parsed).value();
    }
    if (!refusal.empty()) {
      if (record) {
        Result<DeskOutcome> refused =
            services_->desk->Refuse(repository, *game, mail::kMalformed, refusal, envelope);
        if (!refused.ok()) return StoreError(refused.status(), "submission");
      }
      return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed, refusal);
    }
    if (orders.token().empty()) orders.set_token(token);  // the bearer token authenticates
    Result<DeskOutcome> outcome =
        services_->desk->Submit(repository, *game, *player, orders, envelope, record);
    if (!outcome.ok()) return StoreError(outcome.status(), "submission");
    if (!outcome->accepted) {
      return Error(StatusForCode(outcome->code), outcome->code, outcome->detail);
    }
    Poco::JSON::Object reply;
    reply.set("accepted", true);
    reply.set("stored", record);
    reply.set("duplicate", outcome->duplicate);
    if (record) reply.set("submissionId", outcome->submission_id);
    reply.set("game", outcome->game_id);
    reply.set("turn", outcome->turn);
    reply.set("side", outcome->side);
    std::shared_ptr<const ScenarioData> data;
    if (auto found = services_->catalog->Scenario(game->scenario); found.ok()) data = *found;
    reply.set("verdicts",
              VerdictsJson(outcome->verdicts, outcome->label_width, services_->mail_templates,
                           language.value_or(templates::ParseLanguage(player->language)
                                                 .value_or(templates::Language::kEnglish)),
                           data ? &data->scenario : nullptr));
    if (!record) {
      if (Result<GameContext> context = services_->catalog->Load(*game); context.ok()) {
        reply.set("destinations", DestinationPaths(*context, codec::OrdersFromProto(orders)));
      }
    }
    return Answer{HTTPResponse::HTTP_OK, "application/json", Stringify(reply)};
  }

  // For "check": each move order given by destination, the cheapest path the unit has to it
  // this turn (engine::ReachableThisTurn), or reachable = false.
  static Poco::JSON::Array::Ptr DestinationPaths(const GameContext& context,
                                                 const engine::Orders& orders) {
    const engine::Scenario& scenario = context.data->scenario;
    const int width = codec::LabelWidth(scenario);
    Poco::JSON::Array::Ptr out = new Poco::JSON::Array;
    for (std::size_t i = 0; i < orders.moves.size(); ++i) {
      const engine::MoveOrder& move = orders.moves[i];
      if (!move.destination) continue;
      Poco::JSON::Object entry;
      entry.set("index", static_cast<int>(i));
      entry.set("unit", move.unit);
      entry.set("destination", engine::FormatLabel(*move.destination, width));
      bool found = false;
      if (std::optional<engine::UnitId> unit = scenario.FindUnit(move.unit)) {
        for (const engine::ReachableHex& hex :
             engine::ReachableThisTurn(context.data->ruleset, scenario, context.state, *unit)) {
          if (hex.hex != *move.destination) continue;
          Poco::JSON::Array path;
          for (const engine::Hex& h : hex.path) path.add(engine::FormatLabel(h, width));
          entry.set("cost", hex.cost);
          entry.set("path", path);
          entry.set("endsMove", hex.ends_move);
          found = true;
        }
      }
      entry.set("reachable", found);
      out->add(entry);
    }
    return out;
  }

  Answer ListGames(storage::GameRepository& repository) {
    Result<std::vector<std::string>> ids = repository.ListGames();
    if (!ids.ok()) return StoreError(ids.status(), "games");
    Poco::JSON::Array games;
    for (const std::string& id : *ids) {
      Result<storage::Game> game = repository.GetGame(id);
      if (!game.ok()) continue;  // deleted meanwhile
      Poco::JSON::Object g;
      g.set("id", id);
      g.set("scenario", game->scenario);
      g.set("turnsCommitted", game->turns_committed);
      g.set("paused", game->paused_at.has_value());
      g.set("result", game->result);
      games.add(g);
    }
    Poco::JSON::Object reply;
    reply.set("games", games);
    return Answer{HTTPResponse::HTTP_OK, "application/json", Stringify(reply)};
  }

  // Admin: pauses or resumes a game's clock (the scheduler leaves a paused game alone).
  Answer Pause(HTTPServerRequest& request, storage::GameRepository& repository,
               const std::string& game_id, bool pause) {
    if (std::optional<Answer> refused = RefuseUnlessAdmin(request, "pausing")) return *refused;
    if (Status changed = repository.SetPaused(game_id, pause, Now()); !changed.ok()) {
      return StoreError(changed, "game \"" + game_id + "\"");
    }
    Poco::JSON::Object reply;
    reply.set("id", game_id);
    reply.set("paused", pause);
    return Answer{HTTPResponse::HTTP_OK, "application/json", Stringify(reply)};
  }

  // A 403 unless the request carries the admin token; `what` names what is off without one.
  std::optional<Answer> RefuseUnlessAdmin(HTTPServerRequest& request, const std::string& what) {
    const std::string token = BearerToken(request);
    if (!services_->admin_token.empty() && token == services_->admin_token) return std::nullopt;
    return Error(HTTPResponse::HTTP_FORBIDDEN, "forbidden",
                 services_->admin_token.empty()
                     ? what + " is off (no pbemd.http.admin_token is configured)"
                     : "the admin token is missing or wrong");
  }

  Answer CreateGame(HTTPServerRequest& request, storage::GameRepository& repository) {
    if (std::optional<Answer> refused = RefuseUnlessAdmin(request, "game creation")) {
      return *refused;
    }
    Answer error;
    std::optional<std::string> body = ReadBody(request, error);
    if (!body) return error;
    const auto bad = [](const Status& status) {
      return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed, status.message());
    };
    Result<Poco::JSON::Object::Ptr> parsed = ParseJsonObject(*body);
    if (!parsed.ok()) return bad(parsed.status());
    const Poco::JSON::Object& spec = **parsed;
    Result<std::string> id = StringField(spec, "id");
    if (!id.ok()) return bad(id.status());
    Result<std::string> scenario = StringField(spec, "scenario");
    if (!scenario.ok()) return bad(scenario.status());
    Poco::JSON::Array::Ptr players =
        spec.isArray("players") ? spec.getArray("players") : Poco::JSON::Array::Ptr();
    if (id->empty() || scenario->empty() || !players || players->size() == 0) {
      return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                   "expected {\"id\", \"scenario\", \"players\": [{\"side\", \"address\", "
                   "\"token\"}, ...]}");
    }
    if (!IsGameId(*id)) {
      return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                   "\"id\" is 1 to 64 letters, digits, '-', '_' or '.' (it names files and "
                   "mail subjects)");
    }
    if (players->size() > 2) {
      return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                   "\"players\" has one entry per side: blue and orange");
    }
    Result<std::shared_ptr<const ScenarioData>> data = services_->catalog->Scenario(*scenario);
    if (!data.ok()) {
      return Error(HTTPResponse::HTTP_BAD_REQUEST, "unknown_scenario", data.status().message());
    }
    Result<std::int64_t> timeout_s =
        IntegerField(spec, "turnTimeoutSeconds", 0, 0, kMaxTurnTimeoutSeconds);
    if (!timeout_s.ok()) return bad(timeout_s.status());
    Result<std::int64_t> reminder_s =
        IntegerField(spec, "reminderBeforeSeconds", 0, 0, kMaxTurnTimeoutSeconds);
    if (!reminder_s.ok()) return bad(reminder_s.status());
    if (std::optional<std::string> wrong = DeadlinesProblem(*timeout_s, *reminder_s)) {
      return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed, *wrong);
    }
    storage::NewGame game =
        MakeNewGame((*data)->ruleset_proto, (*data)->scenario_proto, (*data)->scenario, *id, Now());
    game.scenario = *scenario;  // the catalogue's name, which finds the files again
    game.deadlines.turn_timeout = std::chrono::seconds(*timeout_s);
    game.deadlines.reminder_before = std::chrono::seconds(*reminder_s);
    std::vector<storage::NewPlayer> new_players;
    for (std::size_t i = 0; i < players->size(); ++i) {
      const std::string at = "players[" + std::to_string(i) + "]";
      Poco::JSON::Object::Ptr p = players->isObject(static_cast<unsigned>(i))
                                      ? players->getObject(static_cast<unsigned>(i))
                                      : Poco::JSON::Object::Ptr();
      if (!p)
        return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed, at + " is not an object");
      Result<std::string> side = StringField(*p, "side", "", at + ".side");
      Result<std::string> address = StringField(*p, "address", "", at + ".address");
      Result<std::string> token = StringField(*p, "token", "", at + ".token");
      Result<std::string> language_code = StringField(*p, "language", "en", at + ".language");
      // Optional; when given, a name as league names are (the mails greet the player by it).
      Result<std::string> name = StringField(*p, "name", "", at + ".name");
      for (const Status& s : {side.status(), address.status(), token.status(),
                              language_code.status(), name.status()}) {
        if (!s.ok()) return bad(s);
      }
      if (p->has("name")) {
        if (std::optional<std::string> wrong = DisplayNameProblem(*name)) {
          return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed, at + ".name " + *wrong);
        }
      }
      const std::optional<templates::Language> language = templates::ParseLanguage(*language_code);
      if (!language) {
        return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                     at + ".language must be en or fr");
      }
      if (*side != "blue" && *side != "orange") {
        return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                     at + ".side must be blue or orange");
      }
      if (std::optional<std::string> wrong = MailAddressProblem(*address)) {
        return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed, at + ".address " + *wrong);
      }
      if (token->size() < 8 || token->size() > 256 || !IsHeaderSafe(*token)) {
        return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                     at + ".token is 8 to 256 characters, with no control character");
      }
      for (const storage::NewPlayer& earlier : new_players) {
        if (earlier.side == *side) {
          return Error(HTTPResponse::HTTP_CONFLICT, "already_exists",
                       at + ".side: side " + *side + " is given twice");
        }
      }
      storage::NewPlayer player{*id, *side, *address, *token};
      player.language = std::string(templates::LanguageCode(*language));
      player.name = *name;
      new_players.push_back(std::move(player));
    }
    // The game, its players and their welcome mails in one transaction: a refusal (a side
    // given twice) leaves nothing, and the same request can be sent again once corrected.
    std::vector<storage::NewMail> welcome;
    if (services_->mail_templates != nullptr && !services_->mail_from.empty()) {
      WelcomeContext context;
      context.data = data->get();
      context.game_id = *id;
      context.reply_to = services_->mail_from;
      context.rulesets_dir = services_->rulesets_dir;
      if (game.deadlines.turn_timeout.count() > 0) {
        context.deadline =
            std::chrono::floor<std::chrono::seconds>(Now()) + game.deadlines.turn_timeout;
      }
      Result<std::vector<storage::NewMail>> mails =
          WelcomeMails(*services_->mail_templates, context, new_players, Now());
      if (!mails.ok()) return StoreError(mails.status(), "welcome mails of game \"" + *id + "\"");
      welcome = std::move(mails).value();
    }
    if (Status created = repository.CreateGameWithPlayers(game, new_players, welcome);
        !created.ok()) {
      return StoreError(created, "game \"" + *id + "\"");
    }
    Poco::JSON::Object reply;
    reply.set("id", *id);
    reply.set("scenario", *scenario);
    if (services_->turns != nullptr) {
      Result<OpenedTurn> opened = services_->turns->Open(repository, *id, Now());
      if (!opened.ok()) return StoreError(opened.status(), "first turn of game \"" + *id + "\"");
      Poco::JSON::Object turn;
      turn.set("turn", opened->stored.turn);
      turn.set("side", opened->stored.side);
      turn.set("commitment", opened->commitment.commitment());
      turn.set("derivation", opened->commitment.derivation());
      reply.set("openTurn", turn);
    }
    return Answer{HTTPResponse::HTTP_CREATED, "application/json", Stringify(reply)};
  }

  Answer StoreError(const Status& status, const std::string& what) {
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
        logger_->error("event=http_store_failed what={} error={}", QuoteLogValue(what),
                       QuoteLogValue(status.ToString()));
        return Error(HTTPResponse::HTTP_SERVICE_UNAVAILABLE, "unavailable",
                     "the game store failed; try again later");
    }
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
