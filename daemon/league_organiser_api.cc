#include "daemon/league_organiser_api.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <ctime>
#include <mutex>
#include <variant>

#include "daemon/config.h"
#include "daemon/json_input.h"
#include "daemon/league/correction.h"
#include "daemon/league/export.h"
#include "daemon/league/league_flow.h"
#include "daemon/league/organiser.h"
#include "daemon/league/player_page.h"
#include "daemon/league_api_parts.h"
#include "daemon/league_routes.h"
#include "daemon/validate.h"

namespace pbem::daemon {
namespace {

using namespace league_http;  // NOLINT: the answers shared with daemon/league_api.cc

// "2026-11-26T14:05:09Z": the API's moments, in UTC.
std::string IsoTime(storage::Timestamp t) {
  const std::time_t seconds =
      std::chrono::system_clock::to_time_t(std::chrono::floor<std::chrono::seconds>(t));
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

Poco::Dynamic::Var TimeOrNull(const std::optional<storage::Timestamp>& t) {
  return t ? Poco::Dynamic::Var(IsoTime(*t)) : Poco::Dynamic::Var();
}

LeagueAnswer StatusView(const LeagueServices& services, const std::string& id,
                        storage::GameRepository& games, storage::LeagueRepository& leagues) {
  Result<std::vector<league::GameStatus>> status =
      league::LeagueStatus(leagues, games, id, league::CatalogPositions(*services.catalog));
  if (!status.ok()) {
    return status.status().code() == StatusCode::kNotFound ? UnknownLeague(id)
                                                           : StoreFailure(status.status());
  }
  Poco::JSON::Array list;
  for (const league::GameStatus& g : *status) {
    Poco::JSON::Object game;
    game.set("game", g.record.game_id);
    game.set("season", static_cast<long>(g.record.season));
    game.set("round", static_cast<long>(g.record.round));
    game.set("blue", g.record.blue);
    game.set("orange", g.record.orange);
    game.set("over", g.over);
    game.set("turn", g.turn);
    game.set("sideToMove", g.over ? Poco::Dynamic::Var() : Poco::Dynamic::Var(g.side_to_move));
    game.set("playerToMove", g.over ? Poco::Dynamic::Var() : Poco::Dynamic::Var(g.player_to_move));
    game.set("deadline", TimeOrNull(g.deadline));
    game.set("paused", g.paused);
    game.set("lastOrdersAt", TimeOrNull(g.last_orders_at));
    game.set("lastOrdersSide",
             g.last_orders_at ? Poco::Dynamic::Var(g.last_orders_side) : Poco::Dynamic::Var());
    Poco::JSON::Object missed;
    missed.set("blue", static_cast<long>(g.missed_blue));
    missed.set("orange", static_cast<long>(g.missed_orange));
    game.set("missedTurns", missed);
    game.set("leagueResult", g.record.result);
    game.set("winner",
             g.record.winner.empty() ? Poco::Dynamic::Var() : Poco::Dynamic::Var(g.record.winner));
    game.set("result", g.result.empty() ? Poco::Dynamic::Var() : Poco::Dynamic::Var(g.result));
    list.add(game);
  }
  Poco::JSON::Object reply;
  reply.set("league", id);
  reply.set("games", list);
  return Json(200, reply);
}

std::string RefusalCode(league::OrganiserRefusal refusal) {
  switch (refusal) {
    case league::OrganiserRefusal::kNotInLeague:
      return "not_in_league";
    case league::OrganiserRefusal::kGameOver:
      return "game_over";
    case league::OrganiserRefusal::kNoDeadline:
      return "no_deadline";
    case league::OrganiserRefusal::kTurnMoved:
      return "turn_moved";
    case league::OrganiserRefusal::kNone:
      break;
  }
  return "";
}

LeagueAnswer Extend(const LeagueServices& services, const std::string& id,
                    const std::string& game_id, const Poco::JSON::Object& spec,
                    storage::GameRepository& games, storage::LeagueRepository& leagues,
                    storage::Timestamp now) {
  if (!spec.has("seconds")) {
    return Error(400, "malformed",
                 "\"seconds\" is required: how much later the deadline falls, in seconds");
  }
  Result<std::int64_t> seconds =
      IntegerField(spec, "seconds", 0, league::kMinExtensionSeconds, league::kMaxExtensionSeconds);
  if (!seconds.ok()) {
    return Error(400, "malformed",
                 seconds.status().message() + " (a deadline moves by a minute to 30 days)");
  }
  if (services.mail == nullptr) {
    return Error(503, "unavailable", "this server cannot word the players' mails");
  }
  league::OrganiserRefusal refusal = league::OrganiserRefusal::kNone;
  Result<league::Extension> extended = league::ExtendDeadline(
      leagues, games, league::CatalogPositions(*services.catalog), id, game_id,
      std::chrono::seconds(*seconds), *services.mail, services.template_dir, now, &refusal);
  if (!extended.ok()) {
    if (refusal == league::OrganiserRefusal::kNotInLeague) {
      return Error(404, "not_in_league", extended.status().message());
    }
    if (refusal != league::OrganiserRefusal::kNone) {
      return Error(409, RefusalCode(refusal), extended.status().message());
    }
    return StoreFailure(extended.status());
  }
  if (services.logger != nullptr) {
    services.logger->info(
        "event=deadline_extended league={} game={} turn={} side={} seconds={} "
        "deadline={} mails={}",
        id, game_id, extended->turn, extended->side, *seconds, IsoTime(extended->new_deadline),
        extended->mails_enqueued);
  }
  Poco::JSON::Object reply;
  reply.set("league", id);
  reply.set("game", game_id);
  reply.set("turn", extended->turn);
  reply.set("sideToMove", extended->side);
  reply.set("extendedBySeconds", static_cast<long>(*seconds));
  reply.set("deadline", IsoTime(extended->new_deadline));
  reply.set("mailsQueued", extended->mails_enqueued);
  return Json(200, reply);
}

// POST /v1/leagues/{id}/games/{game}/result: the organiser's result (league::RecordOrganiserResult,
// what `pbem league result` does): {"winner": "blue"|"orange", "level": ..., "ending":
// "played"|"resigned"|"forfeit"} or {"draw": true}, with "reason" for a correction.
LeagueAnswer OrganiserResult(const LeagueServices& services, const std::string& id,
                             const std::string& game_id, const Poco::JSON::Object& spec,
                             storage::GameRepository& games, storage::LeagueRepository& leagues,
                             storage::Timestamp now) {
  const bool has_winner = spec.has("winner") && !spec.isNull("winner");
  const bool has_draw = spec.has("draw") && !spec.isNull("draw");
  if (has_draw && (!spec.get("draw").isBoolean() || !spec.getValue<bool>("draw"))) {
    return Error(400, "malformed", "\"draw\" is true (a draw), or absent when \"winner\" is given");
  }
  if (has_winner == has_draw) {
    return Error(400, "malformed",
                 "give \"winner\" (blue or orange) or \"draw\": true, one of the two");
  }
  Result<std::string> winner = StringField(spec, "winner");
  if (!winner.ok()) return Malformed(winner.status());
  Result<std::string> level = StringField(spec, "level");
  if (!level.ok()) return Malformed(level.status());
  Result<std::string> ending = StringField(spec, "ending");
  if (!ending.ok()) return Malformed(ending.status());
  Result<std::string> reason = StringField(spec, "reason");
  if (!reason.ok()) return Malformed(reason.status());
  if (!reason->empty()) {
    if (auto wrong = DisplayNameProblem(*reason, league::kMaxReasonChars)) {
      return Error(400, "malformed", "\"reason\" " + *wrong);
    }
  }
  league::ResultWord wrong = league::ResultWord::kNone;
  const std::optional<league::GameEnd> end = league::ParseOrganiserEnd(
      game_id, has_winner ? std::optional(*winner) : std::nullopt, *level, *ending, &wrong);
  switch (wrong) {
    case league::ResultWord::kWinner:
      return Error(400, "malformed", "\"winner\" is blue or orange");
    case league::ResultWord::kLevel:
      return Error(400, "malformed",
                   has_winner ? "\"level\" is minor, tactical, major or total"
                              : "\"level\" goes with \"winner\": a draw has no level");
    case league::ResultWord::kEnding:
      return Error(400, "malformed",
                   "\"ending\" is played, resigned or forfeit (the last two with \"winner\": "
                   "the winner's opponent resigned or forfeited)");
    case league::ResultWord::kNone:
      break;
  }
  Result<storage::LeagueGameRecord> record = leagues.GetLeagueGame(game_id);
  if (!record.ok() && record.status().code() != StatusCode::kNotFound) {
    return StoreFailure(record.status());
  }
  if (!record.ok() || record->league_id != id) {
    return Error(404, "not_in_league", "league " + id + " has no game " + game_id);
  }
  const league::MaterialLoader load = Loader(*services.catalog);
  const league::NextRound next{&load, services.entropy, services.places};
  league::ResultRefusal refusal = league::ResultRefusal::kNone;
  std::unique_lock<std::mutex> held = HoldLeagueAdvance("game=" + game_id);
  Result<league::OrganiserRecord> recorded =
      league::RecordOrganiserResult(games, leagues, league::CatalogPositions(*services.catalog),
                                    *end, *reason, services.template_dir, now, &refusal, &next);
  held.unlock();
  if (!recorded.ok()) {
    switch (refusal) {
      case league::ResultRefusal::kReasonRequired:
        return Error(409, "reason_required",
                     recorded.status().message() + " (\"reason\"); nothing was changed");
      case league::ResultRefusal::kUnchanged:
        return Error(409, "unchanged", recorded.status().message());
      case league::ResultRefusal::kMovedOn:
        return Error(409, "moved_on", recorded.status().message());
      case league::ResultRefusal::kNone:
        break;
    }
    if (recorded.status().code() == StatusCode::kNotFound) {
      return Error(404, "not_in_league", recorded.status().message());
    }
    return StoreFailure(recorded.status());
  }
  const league::Advance& advanced = recorded->advance;
  if (services.logger != nullptr) {
    services.logger->info(
        "event=organiser_result league={} game={} corrected={} ended_game={} round_complete={} "
        "next_round={} season_finished={} mails={}",
        id, game_id, recorded->corrected, recorded->ended_game, recorded->recorded.round_complete,
        advanced.next ? advanced.next->round : 0, advanced.finished.has_value(),
        recorded->mails_enqueued);
    if (!advanced.next_status.ok()) {
      services.logger->warn("event=league_round_not_started league={} game={} error={}", id,
                            game_id, QuoteLogValue(advanced.next_status.ToString()));
    }
  }
  Poco::JSON::Object reply;
  reply.set("league", id);
  reply.set("game", game_id);
  reply.set("corrected", recorded->corrected);
  reply.set("endedGame", recorded->ended_game);
  reply.set("roundComplete", !recorded->corrected && recorded->recorded.round_complete);
  Poco::Dynamic::Var next_round;
  if (advanced.next) {
    Poco::JSON::Object started;
    started.set("season", advanced.next->season);
    started.set("round", advanced.next->round);
    Poco::JSON::Array ids;
    for (const auto& g : advanced.next->games) ids.add(g.game_id);
    started.set("games", ids);
    next_round = started;
  }
  reply.set("nextRound", next_round);
  Poco::Dynamic::Var finished;
  if (advanced.finished) {
    Poco::JSON::Object season;
    season.set("season", advanced.finished->season);
    season.set("champion", advanced.finished->champion
                               ? Poco::Dynamic::Var(*advanced.finished->champion)
                               : Poco::Dynamic::Var());
    finished = season;
  }
  reply.set("seasonFinished", finished);
  reply.set("nextRoundError", advanced.next_status.ok()
                                  ? Poco::Dynamic::Var()
                                  : Poco::Dynamic::Var(advanced.next_status.message()));
  reply.set("reratedPeriods", recorded->rerated_periods);
  reply.set("mailsQueued", recorded->mails_enqueued);
  return Json(200, reply);
}

LeagueAnswer Registration(const LeagueServices& services, const std::string& id,
                          const Poco::JSON::Object& spec, storage::LeagueRepository& leagues) {
  if (!spec.has("open") || !spec.get("open").isBoolean()) {
    return Error(400, "malformed", "\"open\" is true (joining allowed) or false (closed)");
  }
  const bool open = spec.getValue<bool>("open");
  if (Status set = league::SetRegistration(leagues, id, open); !set.ok()) {
    return set.code() == StatusCode::kNotFound ? UnknownLeague(id) : StoreFailure(set);
  }
  if (services.logger != nullptr) {
    services.logger->info("event=league_registration league={} open={}", id, open);
  }
  Poco::JSON::Object reply;
  reply.set("league", id);
  reply.set("registrationOpen", open);
  return Json(200, reply);
}

LeagueAnswer Csv(std::string body) {
  return LeagueAnswer{200, "text/csv; charset=utf-8; header=present", std::move(body)};
}

// A season of the league (?season=, default the latest) with its league and settings.
struct Season : LoadedLeague {
  league::SeasonStandings standings;
};
std::variant<Season, LeagueAnswer> LoadSeason(const std::string& id, const LeagueRequest& request,
                                              storage::LeagueRepository& leagues) {
  std::variant<LoadedLeague, LeagueAnswer> loaded = LoadLeague(id, leagues);
  if (auto* refused = std::get_if<LeagueAnswer>(&loaded)) return *refused;
  Season out;
  static_cast<LoadedLeague&>(out) = std::get<LoadedLeague>(loaded);
  int season = 0;  // the latest
  if (!request.season.empty()) {
    if (request.season.size() > 5 ||
        request.season.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(request.season) < 1) {
      return Error(400, "malformed", "?season= is a number from 1 to 99999");
    }
    season = std::stoi(request.season);
  }
  Result<league::SeasonStandings> standings =
      league::LoadSeasonStandings(leagues, id, out.settings, season);
  if (!standings.ok()) return StoreFailure(standings.status());
  out.standings = std::move(*standings);
  return out;
}

LeagueAnswer StandingsCsv(const std::string& id, const LeagueRequest& request,
                          storage::LeagueRepository& leagues) {
  std::variant<Season, LeagueAnswer> loaded = LoadSeason(id, request, leagues);
  if (auto* error = std::get_if<LeagueAnswer>(&loaded)) return *error;
  const Season& season = std::get<Season>(loaded);
  return Csv(league::StandingsCsv(season.standings.season, season.standings.rows));
}

LeagueAnswer SeasonTrf(const std::string& id, const LeagueRequest& request,
                       storage::LeagueRepository& leagues) {
  std::variant<Season, LeagueAnswer> loaded = LoadSeason(id, request, leagues);
  if (auto* error = std::get_if<LeagueAnswer>(&loaded)) return *error;
  const Season& season = std::get<Season>(loaded);
  const bool swiss = season.settings.pairing == league::PairingSystem::kSwiss;
  return LeagueAnswer{200, "text/plain; charset=utf-8",
                      league::SeasonTrf({season.league.name, season.standings.season, swiss,
                                         swiss ? season.settings.swiss_rounds : 0,
                                         season.standings.rows, season.standings.games})};
}

LeagueAnswer GamesCsv(const std::string& id, storage::LeagueRepository& leagues) {
  Result<storage::League> league = leagues.GetLeague(id);
  if (!league.ok()) {
    return league.status().code() == StatusCode::kNotFound ? UnknownLeague(id)
                                                           : StoreFailure(league.status());
  }
  Result<std::vector<storage::LeagueGameRecord>> records = leagues.ListLeagueGames(id);
  if (!records.ok()) return StoreFailure(records.status());
  return Csv(league::GamesCsv(*records));
}

LeagueAnswer RatingsPage(const LeagueServices& services, const std::string& id,
                         const LeagueRequest& request, storage::GameRepository& games,
                         storage::LeagueRepository& leagues) {
  if (request.player.empty()) {
    return Error(400, "malformed", "?player= names the league player whose page it is");
  }
  if (std::optional<std::string> wrong = DisplayNameProblem(request.player)) {
    return Error(400, "malformed", "?player= " + *wrong);
  }
  std::string language = request.language;
  if (language.empty()) {
    std::variant<LoadedLeague, LeagueAnswer> loaded = LoadLeague(id, leagues);
    if (auto* refused = std::get_if<LeagueAnswer>(&loaded)) return *refused;
    language = std::get<LoadedLeague>(loaded).settings.language;
  }
  if (language != "en" && language != "fr") return Error(400, "malformed", "?lang= is en or fr");
  Result<std::string> page =
      league::RenderPlayerPage(leagues, games, id, request.player, language, services.template_dir,
                               "/v1/games/{game}/archive/index.html");
  if (!page.ok()) {
    if (page.status().code() == StatusCode::kNotFound) {
      return page.status().message().rfind("league template", 0) == 0
                 ? Error(500, "internal", page.status().message())
                 : Error(404, "unknown_player", page.status().message());
    }
    return StoreFailure(page.status());
  }
  return LeagueAnswer{200, "text/html; charset=utf-8", std::move(*page)};
}

}  // namespace

std::optional<LeagueAnswer> HandleOrganiserRequest(const LeagueServices& services,
                                                   const LeagueRequest& request,
                                                   storage::GameRepository& games,
                                                   storage::LeagueRepository& leagues,
                                                   storage::Timestamp now) {
  const auto& s = request.segments;
  const bool get = request.method == "GET";
  const bool post = request.method == "POST";
  if (s.size() < 3) return std::nullopt;
  const std::string& id = s[1];
  const std::string& what = s[2];
  if (s.size() == 3 && what == "ratings.html" && get) {
    return RatingsPage(services, id, request, games, leagues);
  }
  const bool status = s.size() == 3 && what == "status" && get;
  const bool extend = s.size() == 5 && what == "games" && s[4] == "extend" && post;
  const bool result = s.size() == 5 && what == "games" && s[4] == "result" && post;
  const bool registration = s.size() == 3 && what == "registration" && post;
  const bool standings_csv = s.size() == 3 && what == "standings.csv" && get;
  const bool games_csv = s.size() == 3 && what == "games.csv" && get;
  const bool trf = s.size() == 3 && what == "season.trf" && get;
  if (!status && !extend && !result && !registration && !standings_csv && !games_csv && !trf) {
    return std::nullopt;
  }
  const std::string action = status         ? "see the status of its games"
                             : extend       ? "extend a deadline of its games"
                             : result       ? "record a result of its games"
                             : registration ? "open or close its registration"
                                            : "export its results";
  if (auto refused = RefuseUnlessOrganiser(services, id, request.bearer_token, leagues, action)) {
    return *refused;
  }
  if (status) return StatusView(services, id, games, leagues);
  if (standings_csv) return StandingsCsv(id, request, leagues);
  if (trf) return SeasonTrf(id, request, leagues);
  if (games_csv) return GamesCsv(id, leagues);
  // The POST routes (extend, result, registration): their body is a JSON object, parsed here
  // once the organiser is known.
  std::variant<Poco::JSON::Object::Ptr, LeagueAnswer> parsed = ParseObject(request.body);
  if (auto* refused = std::get_if<LeagueAnswer>(&parsed)) return *refused;
  const Poco::JSON::Object& spec = *std::get<Poco::JSON::Object::Ptr>(parsed);
  if (extend) return Extend(services, id, s[3], spec, games, leagues, now);
  if (result) return OrganiserResult(services, id, s[3], spec, games, leagues, now);
  return Registration(services, id, spec, leagues);
}

}  // namespace pbem::daemon
