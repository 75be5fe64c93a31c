#include <Poco/JSON/Array.h>

#include <algorithm>
#include <stdexcept>
#include <variant>

#include "daemon/league/season.h"
#include "daemon/league_api.h"
#include "daemon/league_api_parts.h"
#include "daemon/league_routes.h"

// A league's standings: GET /v1/leagues/{id}/standings (JSON) and .../standings.html.
namespace pbem::daemon::league_http {
namespace {

using league::LeagueSettings;

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

}  // namespace

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
    if (g.winner) game.set("winner", std::string(league::SeatName(*g.winner)));
    if (g.kind != league::ResultKind::kPending) {
      game.set("level", std::string(league::WinLevelName(g.level)));
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

}  // namespace pbem::daemon::league_http
