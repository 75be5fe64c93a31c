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
#include "daemon/mail/scan.h"
#include "daemon/validate.h"
#include "engine/victory.h"

namespace pbem::daemon {
namespace {

// ASCII lower case: mail addresses compare without case (senders arrive lower-cased).
std::string LowerAscii(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

using league::LeagueSettings;
using namespace league_http;  // NOLINT: the answers shared with the organiser routes

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

// Joins `player` (name, address, language; league id set) to its league: HTTP and mail alike.
LeagueAnswer JoinLeague(const LeagueServices& services, storage::NewLeaguePlayer player,
                        storage::LeagueRepository& leagues, storage::Timestamp now) {
  const std::string id = player.league_id;
  player.joined_at = now;
  if (std::optional<std::string> wrong = DisplayNameProblem(player.player)) {
    return Error(400, "malformed", "\"name\" " + *wrong);
  }
  if (std::optional<std::string> wrong = MailAddressProblem(player.mail_address)) {
    return Error(400, "malformed", "\"email\" " + *wrong);
  }
  if (player.language != "en" && player.language != "fr") {
    return Error(400, "malformed", "\"language\" is en or fr");
  }
  std::variant<LoadedLeague, LeagueAnswer> loaded = LoadLeague(id, leagues);
  if (auto* refused = std::get_if<LeagueAnswer>(&loaded)) return *refused;
  if (!std::get<LoadedLeague>(loaded).settings.registration_open) {
    return Error(
        409, "registration_closed",
        "registration to league \"" + id + "\" is closed: its organiser is not taking new players");
  }
  Result<std::vector<storage::LeaguePlayer>> players = leagues.ListLeaguePlayers(id);
  if (!players.ok()) {
    return players.status().code() == StatusCode::kNotFound ? UnknownLeague(id)
                                                            : StoreFailure(players.status());
  }
  // Stored lower-cased, compared without case: Dave@X over HTTP and dave@x by mail are one
  // address (mail intake lower-cases senders).
  player.mail_address = LowerAscii(player.mail_address);
  for (const auto& p : *players) {
    if (p.player == player.player || LowerAscii(p.mail_address) == player.mail_address) {
      return Error(409, "already_joined",
                   (p.player == player.player ? "player \"" + player.player + "\""
                                              : "the address " + player.mail_address) +
                       " is in league \"" + id + "\" already");
    }
  }
  Result<std::string> token = league::NewToken(*services.entropy);
  if (!token.ok()) return StoreFailure(token.status());
  player.token = *token;
  if (Status added = leagues.AddLeaguePlayer(player); !added.ok()) {
    if (added.code() == StatusCode::kAlreadyExists) {
      return Error(409, "already_joined",
                   "player \"" + player.player + "\" is in league \"" + id + "\" already");
    }
    if (added.code() == StatusCode::kNotFound) return UnknownLeague(id);
    return StoreFailure(added);
  }
  Poco::JSON::Object reply;
  reply.set("league", id);
  reply.set("player", player.player);
  reply.set("language", player.language);
  reply.set("token", player.token);
  return Json(201, reply);
}

// POST /v1/leagues/{id}/players: joins, then mails the player the confirmation with their
// token (as joining by mail replies). The join stands whatever happens to the mail (the reply
// carries the token too); "confirmationQueued" says whether the mail is in the outbox.
LeagueAnswer Join(const LeagueServices& services, const std::string& id,
                  const LeagueRequest& request, storage::GameRepository& games,
                  storage::LeagueRepository& leagues, storage::Timestamp now) {
  std::variant<Poco::JSON::Object::Ptr, LeagueAnswer> parsed = ParseObject(request.body);
  if (auto* refused = std::get_if<LeagueAnswer>(&parsed)) return *refused;
  const Poco::JSON::Object& spec = *std::get<Poco::JSON::Object::Ptr>(parsed);
  Result<std::string> name = StringField(spec, "name");
  Result<std::string> email = StringField(spec, "email");
  Result<std::string> language = StringField(spec, "language", "en");
  for (const Status& s : {name.status(), email.status(), language.status()}) {
    if (!s.ok()) return Malformed(s);
  }
  storage::NewLeaguePlayer player;
  player.league_id = id;
  player.player = *name;
  player.mail_address = *email;
  player.language = *language;
  LeagueAnswer answer = JoinLeague(services, player, leagues, now);
  if (answer.status != 201) return answer;
  Poco::JSON::Object::Ptr reply =
      Poco::JSON::Parser().parse(answer.body).extract<Poco::JSON::Object::Ptr>();
  const std::string token = reply->getValue<std::string>("token");
  bool queued = false;
  Result<league::LeagueMail> mail = league::RenderJoinedMail(
      services.template_dir, player.language, id, player.player, token, services.places);
  if (mail.ok()) {
    storage::NewMail confirmation;
    confirmation.recipient = LowerAscii(player.mail_address);
    confirmation.subject = mail->subject;
    confirmation.body = mail->body;
    confirmation.next_try = now;
    queued = games.EnqueueMail(confirmation).ok();
  }
  reply->set("confirmationQueued", queued);
  return Json(201, *reply);
}

std::string RefusalCode(league::StartRefusal refusal) {
  switch (refusal) {
    case league::StartRefusal::kTooFewPlayers:
      return "too_few_players";
    case league::StartRefusal::kStartedAlready:
      return "round_started";
    case league::StartRefusal::kNotInSchedule:
      return "not_in_schedule";
    case league::StartRefusal::kGameLimit:
      return "game_limit";
    case league::StartRefusal::kUnfinishedRound:
      return "round_unfinished";
    case league::StartRefusal::kSeasonFinished:
      return "season_finished";
    case league::StartRefusal::kNone:
      break;
  }
  return "";
}

LeagueAnswer Start(const LeagueServices& services, const std::string& id,
                   const LeagueRequest& request, storage::LeagueRepository& leagues,
                   storage::Timestamp now) {
  if (auto refused =
          RefuseUnlessOrganiser(services, id, request.bearer_token, leagues, "start a season")) {
    return *refused;
  }
  int season = 1;
  std::optional<int> round;
  if (!request.body.empty()) {
    std::variant<Poco::JSON::Object::Ptr, LeagueAnswer> parsed = ParseObject(request.body);
    if (auto* refused = std::get_if<LeagueAnswer>(&parsed)) return *refused;
    const Poco::JSON::Object& spec = *std::get<Poco::JSON::Object::Ptr>(parsed);
    Result<std::int64_t> season_field = IntegerField(spec, "season", 1, 1, 10000);
    if (!season_field.ok()) return Malformed(season_field.status());
    season = static_cast<int>(*season_field);
    if (spec.has("round")) {
      Result<std::int64_t> round_field = IntegerField(spec, "round", 1, 1, 10000);
      if (!round_field.ok()) return Malformed(round_field.status());
      round = static_cast<int>(*round_field);
    }
  }
  league::StartRefusal refusal = league::StartRefusal::kNone;
  Result<league::StartedRound> started =
      league::StartRound(leagues, id, season, round, Loader(*services.catalog), *services.entropy,
                         services.template_dir, now, &refusal, services.places);
  if (!started.ok()) {
    if (refusal != league::StartRefusal::kNone) {
      return Error(409, RefusalCode(refusal), started.status().message());
    }
    if (started.status().code() == StatusCode::kNotFound) {
      return Error(503, "unknown_scenario", started.status().message());
    }
    return StoreFailure(started.status());
  }
  Poco::JSON::Object reply;
  reply.set("league", id);
  reply.set("season", started->season);
  reply.set("round", started->round);
  Poco::JSON::Array list;
  for (const auto& g : started->games) {
    Poco::JSON::Object game;
    game.set("game", g.game_id);
    game.set("blue", g.blue);
    game.set("orange", g.orange);
    list.add(game);
  }
  reply.set("games", list);
  if (started->bye) reply.set("bye", *started->bye);
  reply.set("mailsQueued", started->mails_enqueued);
  return Json(201, reply);
}

// A season's standings (league::LoadSeasonStandings) with the league they belong to.
struct SeasonView : league::SeasonStandings {
  storage::League league;
  LeagueSettings settings;
};

std::variant<SeasonView, LeagueAnswer> LoadSeason(const std::string& id,
                                                  const std::string& season_text,
                                                  storage::LeagueRepository& leagues) {
  SeasonView view;
  Result<storage::League> league = leagues.GetLeague(id);
  if (!league.ok()) {
    return league.status().code() == StatusCode::kNotFound ? UnknownLeague(id)
                                                           : StoreFailure(league.status());
  }
  view.league = *league;
  Result<LeagueSettings> settings = league::DecodeSettings(league->settings);
  if (!settings.ok()) return StoreFailure(settings.status());
  view.settings = *settings;
  int season = 0;  // the latest
  if (!season_text.empty()) {
    try {
      std::size_t used = 0;
      season = std::stoi(season_text, &used);
      if (used != season_text.size() || season < 1) throw std::invalid_argument("season");
    } catch (const std::exception&) {
      return Error(400, "malformed", "?season= is a number from 1");
    }
  }
  Result<league::SeasonStandings> standings =
      league::LoadSeasonStandings(leagues, id, view.settings, season);
  if (!standings.ok()) return StoreFailure(standings.status());
  static_cast<league::SeasonStandings&>(view) = std::move(*standings);
  return view;
}

std::string ResultText(const league::LeagueGame& g) {
  switch (g.kind) {
    case league::ResultKind::kPending:
      return "pending";
    case league::ResultKind::kVictory:
      return "victory";
    case league::ResultKind::kDraw:
      return "draw";
    case league::ResultKind::kResigned:
      return "resigned";
    case league::ResultKind::kForfeit:
      return "forfeit";
  }
  return "pending";
}

// A row of a table as JSON (rank null while the player is not ranked).
Poco::JSON::Object RowJson(const league::StandingRow& r) {
  Poco::JSON::Object row;
  if (r.rank) {
    row.set("rank", *r.rank);
  } else {
    row.set("rank", Poco::Dynamic::Var());
  }
  row.set("player", r.player);
  row.set("points", r.points);
  row.set("played", r.played);
  row.set("pending", r.pending);
  row.set("wins", r.wins);
  row.set("draws", r.draws);
  row.set("losses", r.losses);
  row.set("sonnebornBerger", r.sonneborn_berger);
  row.set("rating", r.rating);
  return row;
}

LeagueAnswer Standings(const std::string& id, const LeagueRequest& request,
                       storage::LeagueRepository& leagues) {
  std::variant<SeasonView, LeagueAnswer> loaded = LoadSeason(id, request.season, leagues);
  if (auto* error = std::get_if<LeagueAnswer>(&loaded)) return *error;
  const SeasonView& view = std::get<SeasonView>(loaded);
  Poco::JSON::Object reply;
  reply.set("league", id);
  reply.set("name", view.league.name);
  reply.set("season", view.season);
  reply.set("finished", view.finished);
  reply.set("completedRounds", league::CompletedRound(view.games));
  int rated = 0;
  for (const auto& r : view.history) {
    if (r.season == view.season) rated = std::max(rated, static_cast<int>(r.round));
  }
  reply.set("ratedRounds", rated);
  Poco::JSON::Array rows;
  for (const auto& r : view.rows) {
    Poco::JSON::Object row = RowJson(r);
    Poco::JSON::Array history;
    for (const auto& h : view.history) {
      if (h.player != r.player) continue;
      Poco::JSON::Object entry;
      entry.set("season", static_cast<long>(h.season));
      entry.set("round", static_cast<long>(h.round));
      entry.set("rating", h.rating);
      entry.set("rd", h.rd);
      entry.set("volatility", h.volatility);
      history.add(entry);
    }
    row.set("ratingHistory", history);
    rows.add(row);
  }
  reply.set("standings", rows);
  Poco::JSON::Array games;
  for (const auto& g : view.games) {
    Poco::JSON::Object game;
    game.set("game", g.game_id);
    game.set("round", g.round);
    game.set("blue", g.blue);
    game.set("orange", g.orange);
    game.set("result", ResultText(g));
    if (g.winner) game.set("winner", std::string(engine::SideName(*g.winner)));
    if (g.kind != league::ResultKind::kPending) {
      game.set("level", std::string(engine::VictoryLevelName(g.level)));
    }
    games.add(game);
  }
  reply.set("games", games);
  return Json(200, reply);
}

LeagueAnswer StandingsPage(const LeagueServices& services, const std::string& id,
                           const LeagueRequest& request, storage::LeagueRepository& leagues) {
  std::variant<SeasonView, LeagueAnswer> loaded = LoadSeason(id, request.season, leagues);
  if (auto* error = std::get_if<LeagueAnswer>(&loaded)) return *error;
  const SeasonView& view = std::get<SeasonView>(loaded);
  const std::string language = request.language.empty() ? view.settings.language : request.language;
  if (language != "en" && language != "fr") return Error(400, "malformed", "?lang= is en or fr");
  league::StandingsView standings{
      view.league.name, view.season, league::CompletedRound(view.games),
      view.rows,        view.games,  "/v1/games/{game}/archive/index.html"};
  standings.rank_after = view.settings.limits.finished_to_rank;
  standings.league_id = id;
  standings.places = services.places;
  Result<league::RenderedStandings> page =
      league::RenderStandings(services.template_dir, language, standings);
  if (!page.ok()) return Error(500, "internal", page.status().message());
  return LeagueAnswer{200, "text/html; charset=utf-8", page->html};
}

// Records a league game's end and what follows (league::RecordAndAdvance: the next round, or
// the season's end), logging what happened.
struct Recorded {
  bool league_game = false;
  bool round_complete = false;
  bool next_started = false;
};
Result<Recorded> RecordAndAdvance(const LeagueServices& services,
                                  storage::LeagueRepository& leagues, const league::GameEnd& end,
                                  storage::Timestamp now, spdlog::logger* logger) {
  Result<league::Advance> advanced =
      league::RecordAndAdvance(leagues, end, Loader(*services.catalog), *services.entropy,
                               services.template_dir, now, services.places);
  if (!advanced.ok()) return advanced.status();
  const league::RecordedEnd& recorded = advanced->recorded;
  Recorded out;
  out.league_game = recorded.league_game;
  out.round_complete = recorded.round_complete;
  out.next_started = advanced->next.has_value();
  if (logger == nullptr || !recorded.round_complete) return out;
  if (advanced->next) {
    logger->info("event=league_round_started game={} season={} round={} games={}", end.game_id,
                 advanced->next->season, advanced->next->round, advanced->next->games.size());
  } else if (advanced->finished) {
    logger->info("event=league_season_finished game={} season={} champion={} mails={}", end.game_id,
                 advanced->finished->season,
                 QuoteLogValue(advanced->finished->champion.value_or("")),
                 advanced->finished->mails_enqueued);
  } else if (!advanced->next_status.ok()) {
    // Not an error of this game's result: the organiser starts the round by hand.
    logger->warn("event=league_round_not_started game={} season={} round={} error={}", end.game_id,
                 recorded.season, recorded.round + 1,
                 QuoteLogValue(advanced->next_status.ToString()));
  }
  return out;
}

// POST /v1/leagues/{id}/end {"season": N}: the organiser ends a season (league::FinishSeason).
LeagueAnswer EndSeason(const LeagueServices& services, const std::string& id,
                       const LeagueRequest& request, storage::LeagueRepository& leagues,
                       storage::Timestamp now) {
  if (auto refused =
          RefuseUnlessOrganiser(services, id, request.bearer_token, leagues, "end a season")) {
    return *refused;
  }
  int season = 0;  // the latest
  if (!request.body.empty()) {
    std::variant<Poco::JSON::Object::Ptr, LeagueAnswer> parsed = ParseObject(request.body);
    if (auto* refused = std::get_if<LeagueAnswer>(&parsed)) return *refused;
    const Poco::JSON::Object& spec = *std::get<Poco::JSON::Object::Ptr>(parsed);
    if (spec.has("season")) {
      Result<std::int64_t> season_field = IntegerField(spec, "season", 1, 1, 10000);
      if (!season_field.ok()) return Malformed(season_field.status());
      season = static_cast<int>(*season_field);
    }
  }
  league::StartRefusal refusal = league::StartRefusal::kNone;
  Result<league::FinishedSeason> finished = league::FinishSeason(
      leagues, id, season, services.template_dir, now, &refusal, services.places);
  if (!finished.ok()) {
    if (refusal != league::StartRefusal::kNone) {
      return Error(409, RefusalCode(refusal), finished.status().message());
    }
    return StoreFailure(finished.status());
  }
  Poco::JSON::Object reply;
  reply.set("league", id);
  reply.set("season", finished->season);
  if (finished->champion) reply.set("champion", *finished->champion);
  Poco::JSON::Array table;
  for (const auto& r : finished->table) table.add(RowJson(r));
  reply.set("standings", table);
  reply.set("mailsQueued", finished->mails_enqueued);
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

namespace {

// The words of the game-over mail of a resignation: the players' names and their league, for a
// league game; sides alone otherwise.
Result<league::ResignedMailInput> ResignationWords(const LeagueServices& services,
                                                   storage::LeagueRepository& leagues,
                                                   const std::string& game_id,
                                                   engine::Side resigning) {
  league::ResignedMailInput words;
  words.game_id = game_id;
  words.resigning = resigning;
  words.places = services.places;
  if (Result<storage::LeagueGameRecord> record = leagues.GetLeagueGame(game_id); record.ok()) {
    words.blue_player = record->blue;
    words.orange_player = record->orange;
    words.league_id = record->league_id;
    Result<storage::League> league = leagues.GetLeague(record->league_id);
    words.league_name = league.ok() ? league->name : record->league_id;
  } else if (record.status().code() != StatusCode::kNotFound) {
    return record.status();
  }
  return words;
}

}  // namespace

LeagueAnswer ResignGame(const LeagueServices& services, const std::string& game_id,
                        const std::string& token, storage::GameRepository& games,
                        storage::LeagueRepository& leagues, storage::Timestamp now) {
  if (token.empty()) {
    return Error(401, "unauthenticated",
                 "send the player's token as \"Authorization: Bearer <token>\"");
  }
  Result<storage::Game> game = games.GetGame(game_id);
  if (!game.ok()) {
    return game.status().code() == StatusCode::kNotFound
               ? Error(404, "not_found", "no game \"" + game_id + "\"")
               : StoreFailure(game.status());
  }
  Result<std::vector<storage::Player>> players = games.ListPlayers(game_id);
  if (!players.ok()) return StoreFailure(players.status());
  std::optional<engine::Side> resigning;
  for (const storage::Player& p : *players) {
    Result<bool> match = games.VerifyToken(game_id, p.side, token);
    if (!match.ok()) return StoreFailure(match.status());
    if (*match) resigning = engine::ParseSide(p.side);
  }
  if (!resigning) {
    return Error(403, "not_a_player",
                 "the token is not the token of a player of game \"" + game_id +
                     "\": only a player may resign their own game");
  }
  Result<GameContext> context = services.catalog->Load(*game);
  if (!context.ok()) return StoreFailure(context.status());
  if (!game->result.empty() || context->state.finished) {
    return Error(409, "game_over", "game \"" + game_id + "\" is over already");
  }
  const storage::GameEnding ending = league::ResignationEnding(*resigning);
  const std::string& result = ending.text;
  Result<league::ResignedMailInput> named =
      ResignationWords(services, leagues, game_id, *resigning);
  if (!named.ok()) return StoreFailure(named.status());
  league::ResignedMailInput words = std::move(*named);
  std::vector<storage::NewMail> mails;
  for (const storage::Player& p : *players) {
    words.recipient = engine::ParseSide(p.side).value_or(engine::Side::kBlue);
    Result<league::LeagueMail> rendered =
        league::RenderResignedMail(services.template_dir, p.language == "fr" ? "fr" : "en", words);
    if (!rendered.ok()) return Error(500, "internal", rendered.status().message());
    storage::NewMail mail;
    mail.recipient = p.mail_address;
    mail.subject = rendered->subject;
    mail.body = rendered->body;
    mail.next_try = now;
    mails.push_back(std::move(mail));
  }
  Result<bool> ended = games.EndGame(game_id, game->turns_committed, ending, now, mails);
  if (!ended.ok() && ended.status().code() == StatusCode::kFailedPrecondition) {
    // A turn was committed since the game was read: it may have ended the game. Ask again.
    return Error(409, "stale_turn",
                 "game \"" + game_id + "\" moved on while resigning: send the resignation again");
  }
  if (!ended.ok()) return StoreFailure(ended.status());
  if (!*ended) return Error(409, "game_over", "game \"" + game_id + "\" is over already");
  Poco::JSON::Object reply;
  reply.set("game", game_id);
  reply.set("result", result);
  std::optional<league::GameEnd> end = league::EndOfGame(game_id, ending, context->state);
  // The game has ended whatever happens next: a failure to record is left to the league pass.
  if (end) {
    Result<Recorded> recorded = RecordAndAdvance(services, leagues, *end, now, nullptr);
    reply.set("leagueGame", recorded.ok() && recorded->league_game);
    reply.set("leagueRecorded", recorded.ok());
  }
  return Json(200, reply);
}

std::optional<mail::Disposition> HandleResignationMail(const LeagueServices& services,
                                                       const mail::InboundMail& mail,
                                                       storage::GameRepository& games,
                                                       storage::LeagueRepository& leagues,
                                                       storage::Timestamp now) {
  // "resign <game> <token>" alone on a line, the keyword in any case (mail::FindCommandLine).
  std::string game_id, token;
  for (const mail::OrdersCandidate& candidate : mail.candidates) {
    if (auto args = mail::FindCommandLine(candidate.bytes, "resign", 2, 2)) {
      game_id = (*args)[0];
      token = (*args)[1];
      break;
    }
  }
  if (game_id.empty() || mail.from.empty()) return std::nullopt;
  Result<std::vector<storage::Player>> players = games.ListPlayers(game_id);
  if (!players.ok()) return mail::Disposition::kRetryLater;
  const storage::Player* sender = nullptr;
  for (const storage::Player& p : *players) {
    if (LowerAscii(p.mail_address) == mail.from) sender = &p;
  }
  if (sender == nullptr) return mail::Disposition::kDropped;  // unknown game or stranger
  Result<bool> own = games.VerifyToken(game_id, sender->side, token);
  if (!own.ok()) return mail::Disposition::kRetryLater;
  LeagueAnswer answer =
      *own ? ResignGame(services, game_id, token, games, leagues, now)
           : Error(403, "not_a_player",
                   "the token is not yours: only a player may resign their own game, with "
                   "the token of their side");
  if (answer.status >= 500) return mail::Disposition::kRetryLater;
  // The reply in the sender's language, worded by the templates: the game-over mail of the
  // ending as stored (a value: the side that won), or why it was refused.
  const std::string language = sender->language == "fr" ? "fr" : "en";
  Result<league::LeagueMail> worded = Status::Internal("unset");
  if (answer.status == 200) {
    Result<storage::Game> ended = games.GetGame(game_id);
    if (!ended.ok()) return mail::Disposition::kRetryLater;
    engine::Side resigning = engine::ParseSide(sender->side).value_or(engine::Side::kBlue);
    if (ended->ending && !ended->ending->winner.empty()) {
      const std::optional<engine::Side> winner = engine::ParseSide(ended->ending->winner);
      if (winner) resigning = engine::Opponent(*winner);
    }
    Result<league::ResignedMailInput> words =
        ResignationWords(services, leagues, game_id, resigning);
    if (!words.ok()) return mail::Disposition::kRetryLater;
    words->recipient = engine::ParseSide(sender->side).value_or(resigning);
    words->acknowledged = true;
    worded = league::RenderResignedMail(services.template_dir, language, *words);
  } else {
    Poco::JSON::Object::Ptr error = Poco::JSON::Parser()
                                        .parse(answer.body)
                                        .extract<Poco::JSON::Object::Ptr>()
                                        ->getObject("error");
    worded = league::RenderResignRefusedMail(
        services.template_dir, language, game_id,
        {error->getValue<std::string>("code"), error->getValue<std::string>("message")});
  }
  if (!worded.ok()) return mail::Disposition::kRetryLater;
  storage::NewMail reply;
  reply.recipient = sender->mail_address;
  reply.subject = mail.subject.empty() ? worded->subject : "Re: " + mail.subject;
  reply.body = worded->body;
  reply.next_try = now;
  if (Result<std::int64_t> queued = games.EnqueueMail(reply); !queued.ok()) {
    return mail::Disposition::kRetryLater;
  }
  return mail::Disposition::kAnswered;
}

bool HandledMessages::Add(const std::string& message_id) {
  if (message_id.empty()) return true;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!ids_.insert(message_id).second) return false;
  order_.push_back(message_id);
  if (order_.size() > kCapacity) {
    ids_.erase(order_.front());
    order_.pop_front();
  }
  return true;
}

void HandledMessages::Forget(const std::string& message_id) {
  if (message_id.empty()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (ids_.erase(message_id) == 0) return;
  order_.erase(std::find(order_.begin(), order_.end(), message_id));
}

std::optional<mail::Disposition> HandleJoinMail(const LeagueServices& services,
                                                const mail::InboundMail& mail,
                                                storage::GameRepository& games,
                                                storage::LeagueRepository& leagues,
                                                HandledMessages& handled, storage::Timestamp now) {
  // "join <league> <name> [<language>]" alone on a line, the keyword in any case; the name
  // is every word after the league id ("Hélène Dupré"), but a last word of two lower-case
  // letters, or EN / FR, is the language ("de": refused, en or fr).
  // (mail::FindCommandLine: no regular expression on mail text.)
  std::optional<std::vector<std::string>> found;
  for (const mail::OrdersCandidate& candidate : mail.candidates) {
    if ((found = mail::FindCommandLine(candidate.bytes, "join", 2, 2 + kMaxNameChars / 2))) break;
  }
  // No reply to what is not an address (daemon/validate.h): nothing would deliver it.
  if (!found || !IsMailAddress(mail.from)) return std::nullopt;
  const std::string league_id = (*found)[0];
  storage::NewLeaguePlayer player;
  player.league_id = league_id;
  player.language = "en";
  std::size_t name_end = found->size();
  const std::string& last = found->back();
  const auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
  const bool lower_pair = last.size() == 2 && lower(last[0]) && lower(last[1]);
  if (found->size() > 2 && (lower_pair || last == "EN" || last == "FR")) {
    player.language = LowerAscii(last);
    --name_end;
  }
  for (std::size_t i = 1; i < name_end; ++i) {
    player.player += (i > 1 ? " " : "") + (*found)[i];
  }
  player.mail_address = mail.from;
  // The same message twice (a redelivery): answered the first time only.
  if (!handled.Add(mail.message_id)) return mail::Disposition::kDropped;
  LeagueAnswer answer = JoinLeague(services, player, leagues, now);
  if (answer.status >= 500) {
    handled.Forget(mail.message_id);
    return mail::Disposition::kRetryLater;
  }
  const bool fr = player.language == "fr";
  storage::NewMail reply;
  reply.recipient = mail.from;  // one reply, to the sender only
  reply.subject = !mail.subject.empty() ? "Re: " + mail.subject
                  : fr                  ? "Ligue " + league_id + " : inscription"
                                        : "League " + league_id + ": joining";
  Poco::JSON::Object::Ptr body =
      Poco::JSON::Parser().parse(answer.body).extract<Poco::JSON::Object::Ptr>();
  if (answer.status == 201) {
    Result<league::LeagueMail> joined =
        league::RenderJoinedMail(services.template_dir, player.language, league_id, player.player,
                                 body->getValue<std::string>("token"), services.places);
    if (!joined.ok()) {
      // No reply could carry the token: undo the join, and the mail comes back.
      if (Status undone = leagues.RemoveLeaguePlayer(league_id, player.player); !undone.ok()) {
        return mail::Disposition::kDropped;
      }
      handled.Forget(mail.message_id);
      return mail::Disposition::kRetryLater;
    }
    if (mail.subject.empty()) reply.subject = joined->subject;
    reply.body = joined->body;
  } else {
    // Worded by the templates in the sender's language, from the refusal's code.
    Poco::JSON::Object::Ptr error = body->getObject("error");
    const std::string code = error->getValue<std::string>("code");
    std::string message = error->getValue<std::string>("message");
    league::MailRefusal refusal{code, message};
    if (code == "already_joined") {
      refusal.reason = message.rfind("player \"", 0) == 0 ? "name_taken" : "address_taken";
    } else if (code == "malformed" && player.language != "en" && player.language != "fr") {
      refusal.reason = "bad_language";
    } else if (code == "malformed") {
      refusal.reason = "bad_name";
      refusal.detail = DisplayNameProblem(player.player).value_or(message);
    }
    Result<league::LeagueMail> refused = league::RenderJoinRefusedMail(
        services.template_dir, fr ? "fr" : "en", league_id, player.player, mail.from, refusal);
    if (!refused.ok()) {
      handled.Forget(mail.message_id);
      return mail::Disposition::kRetryLater;
    }
    if (mail.subject.empty()) reply.subject = refused->subject;
    reply.body = refused->body;
  }
  reply.next_try = now;
  if (Result<std::int64_t> queued = games.EnqueueMail(reply); !queued.ok()) {
    // The reply carries the only copy of the token: undo the join, and the mail comes back.
    if (answer.status == 201) {
      if (Status undone = leagues.RemoveLeaguePlayer(league_id, player.player); !undone.ok()) {
        return mail::Disposition::kDropped;  // joined, token lost: the organiser replaces
      }
    }
    handled.Forget(mail.message_id);
    return mail::Disposition::kRetryLater;
  }
  return mail::Disposition::kAnswered;
}

namespace {

// The last refusal logged per league by CompleteStalledRounds: a next round that cannot start
// (too few players, a game limit) is tried again every pass, and said once until it changes.
class StalledWarnings {
 public:
  bool IsNew(const std::string& league_id, const std::string& why) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string& last = last_[league_id];
    if (last == why) return false;
    last = why;
    return true;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> last_;
};

// Every league whose last round is complete but not followed up (a crash between rating it
// and starting the next round or ending the season, or a start that failed): done now
// (league::CompleteStalledRound; idempotent).
void CompleteStalledRounds(const LeagueServices& services, storage::LeagueRepository& leagues,
                           storage::Timestamp now, spdlog::logger* logger, LeaguePass& pass) {
  static StalledWarnings warnings;
  Result<std::vector<std::string>> ids = leagues.ListLeagueIds();
  if (!ids.ok()) {
    ++pass.failures;
    if (logger != nullptr) {
      logger->error("event=league_stalled_check_failed error={}",
                    QuoteLogValue(ids.status().ToString()));
    }
    return;
  }
  for (const std::string& id : *ids) {
    Result<std::optional<league::Advance>> done =
        league::CompleteStalledRound(leagues, id, Loader(*services.catalog), *services.entropy,
                                     services.template_dir, now, services.places);
    if (!done.ok()) {
      ++pass.failures;
      if (logger != nullptr && warnings.IsNew(id, done.status().ToString())) {
        logger->error("event=league_stalled_check_failed league={} error={}", id,
                      QuoteLogValue(done.status().ToString()));
      }
      continue;
    }
    if (!done->has_value()) continue;
    const league::Advance& advanced = **done;
    if (advanced.next) {
      ++pass.rounds_recovered;
      warnings.IsNew(id, "");
      if (logger != nullptr) {
        logger->info("event=league_round_recovered league={} season={} round={} games={}", id,
                     advanced.next->season, advanced.next->round, advanced.next->games.size());
      }
    } else if (advanced.finished) {
      ++pass.rounds_recovered;
      warnings.IsNew(id, "");
      if (logger != nullptr) {
        logger->info("event=league_season_recovered league={} season={} champion={} mails={}", id,
                     advanced.finished->season,
                     QuoteLogValue(advanced.finished->champion.value_or("")),
                     advanced.finished->mails_enqueued);
      }
    } else if (logger != nullptr && warnings.IsNew(id, advanced.next_status.ToString())) {
      // Not this pass's failure: the organiser starts the round by hand, or fixes its cause.
      logger->warn("event=league_round_not_started league={} season={} round={} error={}", id,
                   advanced.recorded.season, advanced.recorded.round + 1,
                   QuoteLogValue(advanced.next_status.ToString()));
    }
  }
}

}  // namespace

Result<LeaguePass> RecordLeagueResults(const LeagueServices& services,
                                       storage::GameRepository& games,
                                       storage::LeagueRepository& leagues, storage::Timestamp now,
                                       spdlog::logger* logger) {
  Result<std::vector<storage::LeagueGameRecord>> pending = leagues.ListPendingLeagueGames();
  if (!pending.ok()) return pending.status();
  LeaguePass pass;
  for (const storage::LeagueGameRecord& record : *pending) {
    Result<storage::Game> game = games.GetGame(record.game_id);
    if (!game.ok()) {
      if (game.status().code() == StatusCode::kNotFound) continue;  // not created (yet)
      ++pass.failures;
      continue;
    }
    std::optional<league::GameEnd> end;
    if (game->ending) {
      end = league::EndOfGame(record.game_id, game->ending, engine::GameState{});
    } else {
      Result<GameContext> context = services.catalog->Load(*game);
      if (!context.ok()) {
        ++pass.failures;
        if (logger != nullptr) {
          logger->error("event=league_record_failed game={} error={}", record.game_id,
                        QuoteLogValue(context.status().ToString()));
        }
        continue;
      }
      end = league::EndOfGame(record.game_id, std::nullopt, context->state);
    }
    if (!end) continue;
    Result<Recorded> recorded = RecordAndAdvance(services, leagues, *end, now, logger);
    if (!recorded.ok()) {
      ++pass.failures;
      if (logger != nullptr) {
        logger->error("event=league_record_failed game={} error={}", record.game_id,
                      QuoteLogValue(recorded.status().ToString()));
      }
      continue;
    }
    ++pass.recorded;
    if (recorded->next_started) ++pass.rounds_started;
    if (logger != nullptr) {
      logger->info("event=league_result_recorded league={} game={} round_complete={}",
                   record.league_id, record.game_id, recorded->round_complete);
    }
  }
  CompleteStalledRounds(services, leagues, now, logger, pass);
  return pass;
}

}  // namespace pbem::daemon
