#include "daemon/league_api.h"

#include <Poco/Exception.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <variant>

#include "daemon/config.h"
#include "daemon/game_catalog.h"
#include "daemon/http_api.h"
#include "daemon/json_input.h"
#include "daemon/league/season.h"
#include "daemon/league_api_parts.h"
#include "daemon/league_organiser_api.h"
#include "daemon/league_routes.h"
#include "daemon/mail/scan.h"
#include "daemon/validate.h"

namespace pbem::daemon {
namespace {

using league::LeagueSettings;
using namespace league_http;  // NOLINT: the answers shared by the league routes

// A name safe in game ids, file names and mail subjects (league ids, scenario names).
bool IsName(const std::string& text) { return IsIdentifier(text, 40); }

// An integer field of a league body, bounded (json_input.h); the error names the field.
std::variant<std::int64_t, std::string> Bounded(const Poco::JSON::Object& object,
                                                const std::string& key, std::int64_t fallback,
                                                std::int64_t min, std::int64_t max,
                                                const std::string& name) {
  Result<std::int64_t> value = IntegerField(object, key, fallback, min, max, name);
  if (!value.ok()) return value.status().message();
  return *value;
}

Poco::JSON::Object SettingsJson(const LeagueSettings& s) {
  Poco::JSON::Object out;
  Poco::JSON::Array scenarios;
  for (const auto& name : s.scenarios) scenarios.add(name);
  out.set("scenarios", scenarios);
  out.set("turnTimeoutSeconds", static_cast<long>(s.turn_timeout.count()));
  out.set("reminderBeforeSeconds", static_cast<long>(s.reminder_before.count()));
  out.set("pairing", s.pairing == league::PairingSystem::kSwiss ? "swiss" : "round_robin");
  out.set("swissRounds", s.swiss_rounds);
  out.set("bothSides", s.sides == league::SideRule::kBothSides);
  out.set("language", s.language);
  Poco::JSON::Object points;
  points.set("total", s.points.total);
  points.set("major", s.points.major);
  points.set("tactical", s.points.tactical);
  points.set("minor", s.points.minor);
  points.set("draw", s.points.draw);
  points.set("loss", s.points.loss);
  points.set("forfeitLoss", s.points.forfeit_loss);
  points.set("forfeitWin", s.points.forfeit_win);
  out.set("points", points);
  Poco::JSON::Array limits;
  for (const auto& step : s.limits.steps) {
    Poco::JSON::Object l;
    l.set("finished", step.finished);
    l.set("maxGames", step.max_active);
    limits.add(l);
  }
  out.set("limits", limits);
  out.set("rankAfter", s.limits.finished_to_rank);
  Poco::JSON::Object glicko;
  glicko.set("initialRating", s.glicko.initial_rating);
  glicko.set("initialRd", s.glicko.initial_rd);
  glicko.set("initialVolatility", s.glicko.initial_volatility);
  glicko.set("tau", s.glicko.tau);
  out.set("glicko2", glicko);
  return out;
}

// The settings of POST /v1/leagues from its JSON body; an error sentence when one is bad.
std::variant<LeagueSettings, std::string> SettingsFromJson(const Poco::JSON::Object& spec,
                                                           GameCatalog& catalog) {
  LeagueSettings s;
  if (spec.has("scenarios") && !spec.isArray("scenarios")) {
    return std::string("scenarios is a list of scenario names");
  }
  if (Poco::JSON::Array::Ptr scenarios = spec.getArray("scenarios")) {
    s.scenarios.clear();
    if (scenarios->size() > 100) return std::string("scenarios names at most 100 scenarios");
    for (std::size_t i = 0; i < scenarios->size(); ++i) {
      const Poco::Dynamic::Var element = scenarios->get(static_cast<unsigned>(i));
      const std::string name = element.isString() ? element.convert<std::string>() : "";
      if (!IsName(name)) return "scenarios[" + std::to_string(i) + "] is not a scenario name";
      s.scenarios.push_back(name);
    }
    if (s.scenarios.empty()) return std::string("scenarios must name at least one scenario");
  }
  for (const auto& name : s.scenarios) {
    if (Result<std::shared_ptr<const ScenarioData>> data = catalog.Scenario(name); !data.ok()) {
      return "unknown_scenario:" + data.status().message();
    }
  }
  std::int64_t timeout = 0, reminder = 0;
  for (auto [key, field] :
       {std::pair{"turnTimeoutSeconds", &timeout}, std::pair{"reminderBeforeSeconds", &reminder}}) {
    auto value = Bounded(spec, key, 0, 0, kMaxTurnTimeoutSeconds, key);
    if (auto* bad = std::get_if<std::string>(&value)) return *bad;
    *field = std::get<std::int64_t>(value);
  }
  if (std::optional<std::string> wrong = DeadlinesProblem(timeout, reminder)) return *wrong;
  s.turn_timeout = std::chrono::seconds(timeout);
  s.reminder_before = std::chrono::seconds(reminder);
  Result<std::string> pairing_field = StringField(spec, "pairing", "round_robin");
  if (!pairing_field.ok()) return pairing_field.status().message();
  const std::string pairing = *pairing_field;
  if (pairing != "round_robin" && pairing != "swiss") {
    return std::string("pairing is round_robin or swiss");
  }
  s.pairing =
      pairing == "swiss" ? league::PairingSystem::kSwiss : league::PairingSystem::kRoundRobin;
  {
    auto rounds = Bounded(spec, "swissRounds", 0, 0, 1000, "swissRounds");
    if (auto* bad = std::get_if<std::string>(&rounds)) return *bad;
    s.swiss_rounds = static_cast<int>(std::get<std::int64_t>(rounds));
  }
  if (spec.has("bothSides") && !spec.get("bothSides").isBoolean()) {
    return std::string("bothSides is true or false");
  }
  s.sides = spec.optValue<bool>("bothSides", false) ? league::SideRule::kBothSides
                                                    : league::SideRule::kBalanced;
  Result<std::string> language = StringField(spec, "language", "en");
  if (!language.ok()) return language.status().message();
  s.language = *language;
  if (s.language != "en" && s.language != "fr") return std::string("language is en or fr");
  if (spec.has("points") && !spec.isObject("points")) return std::string("points is an object");
  if (Poco::JSON::Object::Ptr points = spec.getObject("points")) {
    league::PointsTable& p = s.points;
    for (auto [key, field] :
         {std::pair{"total", &p.total}, std::pair{"major", &p.major},
          std::pair{"tactical", &p.tactical}, std::pair{"minor", &p.minor},
          std::pair{"draw", &p.draw}, std::pair{"loss", &p.loss},
          std::pair{"forfeitLoss", &p.forfeit_loss}, std::pair{"forfeitWin", &p.forfeit_win}}) {
      // Bounded so that a season's sum of points cannot overflow an int.
      auto value = Bounded(*points, key, *field, 0, 1000, "points." + std::string(key));
      if (auto* bad = std::get_if<std::string>(&value)) return *bad;
      *field = static_cast<int>(std::get<std::int64_t>(value));
    }
  }
  if (spec.has("limits") && !spec.isArray("limits")) return std::string("limits is a list");
  if (Poco::JSON::Array::Ptr limits = spec.getArray("limits")) {
    s.limits.steps.clear();
    if (limits->size() > 100) return std::string("limits has at most 100 steps");
    for (std::size_t i = 0; i < limits->size(); ++i) {
      const std::string at = "limits[" + std::to_string(i) + "]";
      Poco::JSON::Object::Ptr step = limits->isObject(static_cast<unsigned>(i))
                                         ? limits->getObject(static_cast<unsigned>(i))
                                         : Poco::JSON::Object::Ptr();
      if (!step || !step->has("finished") || !step->has("maxGames")) {
        return at + " is {\"finished\": n, \"maxGames\": m}";
      }
      auto finished = Bounded(*step, "finished", 0, 0, 1000000, at + ".finished");
      if (auto* bad = std::get_if<std::string>(&finished)) return *bad;
      auto max_games = Bounded(*step, "maxGames", 1, 1, 10000, at + ".maxGames");
      if (auto* bad = std::get_if<std::string>(&max_games)) return *bad;
      s.limits.steps.push_back({static_cast<int>(std::get<std::int64_t>(finished)),
                                static_cast<int>(std::get<std::int64_t>(max_games))});
    }
    if (s.limits.steps.empty()) return std::string("limits must have at least one step");
  }
  auto rank_after = Bounded(spec, "rankAfter", s.limits.finished_to_rank, 0, 1000000, "rankAfter");
  if (auto* bad = std::get_if<std::string>(&rank_after)) return *bad;
  s.limits.finished_to_rank = static_cast<int>(std::get<std::int64_t>(rank_after));
  return s;
}

LeagueAnswer CreateLeague(const LeagueServices& services, const LeagueRequest& request,
                          storage::LeagueRepository& leagues, storage::Timestamp now) {
  if (services.admin_token.empty() || request.bearer_token != services.admin_token) {
    return Error(403, "forbidden",
                 services.admin_token.empty()
                     ? "league creation is off (no pbemd.http.admin_token is configured)"
                     : "creating a league takes the admin token");
  }
  std::variant<Poco::JSON::Object::Ptr, LeagueAnswer> parsed = ParseObject(request.body);
  if (auto* refused = std::get_if<LeagueAnswer>(&parsed)) return *refused;
  const Poco::JSON::Object::Ptr* spec = &std::get<Poco::JSON::Object::Ptr>(parsed);
  Result<std::string> id_field = StringField(**spec, "id");
  if (!id_field.ok()) return Malformed(id_field.status());
  const std::string id = *id_field;
  if (!IsName(id)) {
    return Error(400, "malformed",
                 "\"id\" is 1 to 40 letters, digits, '-', '_' or '.' (it names the games)");
  }
  Result<std::string> token_field = StringField(**spec, "organiserToken");
  if (!token_field.ok()) return Malformed(token_field.status());
  std::string token = *token_field;
  Result<std::string> name = StringField(**spec, "name", id);
  if (!name.ok()) return Malformed(name.status());
  if (std::optional<std::string> wrong = DisplayNameProblem(*name)) {
    return Error(400, "malformed", "\"name\" " + *wrong);
  }
  if (token.empty()) {
    Result<std::string> fresh = league::NewToken(*services.entropy);
    if (!fresh.ok()) return StoreFailure(fresh.status());
    token = *fresh;
  } else if (token.size() < 8 || token.size() > 256 || !IsHeaderSafe(token)) {
    return Error(400, "malformed",
                 "\"organiserToken\" is 8 to 256 characters, with no control character");
  }
  std::variant<LeagueSettings, std::string> settings = SettingsFromJson(**spec, *services.catalog);
  if (auto* bad = std::get_if<std::string>(&settings)) {
    if (bad->rfind("unknown_scenario:", 0) == 0) {
      return Error(400, "unknown_scenario", bad->substr(17));
    }
    return Error(400, "malformed", *bad);
  }
  const LeagueSettings& s = std::get<LeagueSettings>(settings);
  storage::NewLeague league{id, *name, token, league::EncodeSettings(s), now};
  if (Status created = leagues.CreateLeague(league); !created.ok()) {
    if (created.code() == StatusCode::kAlreadyExists) {
      return Error(409, "already_exists", "league \"" + id + "\" exists already");
    }
    return StoreFailure(created);
  }
  Poco::JSON::Object reply;
  reply.set("id", id);
  reply.set("name", league.name);
  reply.set("organiserToken", token);
  reply.set("settings", SettingsJson(s));
  return Json(201, reply);
}

LeagueAnswer GetLeague(const std::string& id, storage::LeagueRepository& leagues) {
  Result<storage::League> league = leagues.GetLeague(id);
  if (!league.ok()) {
    return league.status().code() == StatusCode::kNotFound ? UnknownLeague(id)
                                                           : StoreFailure(league.status());
  }
  Result<LeagueSettings> settings = league::DecodeSettings(league->settings);
  if (!settings.ok()) return StoreFailure(settings.status());
  Result<std::vector<storage::LeaguePlayer>> players = leagues.ListLeaguePlayers(id);
  if (!players.ok()) return StoreFailure(players.status());
  Poco::JSON::Object reply;
  reply.set("id", id);
  reply.set("name", league->name);
  reply.set("settings", SettingsJson(*settings));
  Poco::JSON::Array list;
  for (const auto& p : *players) {
    Poco::JSON::Object player;
    player.set("name", p.player);
    player.set("language", p.language);
    list.add(player);
  }
  reply.set("players", list);
  return Json(200, reply);
}

}  // namespace

LeagueAnswer HandleLeagueRequest(const LeagueServices& services, const LeagueRequest& request,
                                 storage::GameRepository& games, storage::LeagueRepository& leagues,
                                 storage::Timestamp now) {
  const auto& s = request.segments;
  const bool get = request.method == "GET";
  const bool post = request.method == "POST";
  if (s.size() == 1 && post) return CreateLeague(services, request, leagues, now);
  if (s.size() == 2 && get) return GetLeague(s[1], leagues);
  if (s.size() == 3 && s[2] == "players" && post) {
    return Join(services, s[1], request, games, leagues, now);
  }
  if (s.size() == 3 && s[2] == "start" && post) {
    return Start(services, s[1], request, leagues, now);
  }
  if (s.size() == 3 && s[2] == "end" && post)
    return EndSeason(services, s[1], request, leagues, now);
  if (s.size() == 3 && s[2] == "standings" && get) return Standings(s[1], request, leagues);
  if (s.size() == 3 && s[2] == "standings.html" && get) {
    return StandingsPage(services, s[1], request, leagues);
  }
  if (std::optional<LeagueAnswer> organiser =
          HandleOrganiserRequest(services, request, games, leagues, now)) {
    return *organiser;
  }
  std::string path = "/v1";
  for (const auto& segment : s) path += "/" + segment;
  return Error(404, "not_found", "no route for " + request.method + " " + path);
}

}  // namespace pbem::daemon
