// The league routes per resource, as HandleLeagueRequest (daemon/league_api.cc) dispatches
// them; internal to pbemd's league API (daemon/league_api.h documents the routes):
//   players and joining (HTTP and mail)   daemon/league_players_api.cc
//   rounds, seasons and the league pass   daemon/league_rounds_api.cc
//   standings (JSON and the HTML page)    daemon/league_standings_api.cc
//   resignation (HTTP and mail)           daemon/league_resign_api.cc
//   the organiser's tools                 daemon/league_organiser_api.cc
#ifndef PBEM_DAEMON_LEAGUE_ROUTES_H_
#define PBEM_DAEMON_LEAGUE_ROUTES_H_

#include <Poco/JSON/Object.h>

#include <mutex>
#include <string>
#include <string_view>

#include "daemon/league/league_flow.h"
#include "daemon/league/standings.h"
#include "daemon/league_api.h"
#include "storage/game_repository.h"
#include "storage/league_repository.h"

namespace pbem::daemon::league_http {

// Joins `player` (name, address, language; league id set) to its league: HTTP and mail alike.
LeagueAnswer JoinLeague(const LeagueServices& services, storage::NewLeaguePlayer player,
                        storage::LeagueRepository& leagues, storage::Timestamp now);

// POST /v1/leagues/{id}/players: joins, then mails the player the confirmation with their
// token (as joining by mail replies). The join stands whatever happens to the mail (the reply
// carries the token too); "confirmationQueued" says whether the mail is in the outbox.
LeagueAnswer Join(const LeagueServices& services, const std::string& id,
                  const LeagueRequest& request, storage::GameRepository& games,
                  storage::LeagueRepository& leagues, storage::Timestamp now);

// POST /v1/leagues/{id}/start {"season", "round"}: the organiser starts a round.
LeagueAnswer Start(const LeagueServices& services, const std::string& id,
                   const LeagueRequest& request, storage::LeagueRepository& leagues,
                   storage::Timestamp now);

// POST /v1/leagues/{id}/end {"season": N}: the organiser ends a season (league::FinishSeason).
LeagueAnswer EndSeason(const LeagueServices& services, const std::string& id,
                       const LeagueRequest& request, storage::LeagueRepository& leagues,
                       storage::Timestamp now);

// GET /v1/leagues/{id}/standings (?season=).
LeagueAnswer Standings(const std::string& id, const LeagueRequest& request,
                       storage::LeagueRepository& leagues);

// GET /v1/leagues/{id}/standings.html (?lang=, ?season=).
LeagueAnswer StandingsPage(const LeagueServices& services, const std::string& id,
                           const LeagueRequest& request, storage::LeagueRepository& leagues);

// A row of a table as JSON (rank null while the player is not ranked).
Poco::JSON::Object RowJson(const league::StandingRow& r);

// Held, within this process, by everything that records league results or starts and ends
// rounds and seasons: the league pass (turns thread), a resignation (HTTP and mail threads)
// and the organiser's routes. So a caller whose result completes a round answers once the next
// round is started or the season ended, by itself or by the caller it waited for (before, a
// resignation recorded while the pass was between rating the round and starting the next one
// answered before the round existed). Several pbemd on one database: the pass runs on one at
// a time (the "league-pass" lock), and a round another instance is completing is there at
// that instance's next step or pass. A caller that finds it held reaches the fault point
// league.advance_wait (context: `context`) before it waits.
std::unique_lock<std::mutex> HoldLeagueAdvance(std::string_view context);

// Records a league game's end and what follows (league::RecordAndAdvance: the next round, or
// the season's end), logging what happened on `logger` (may be null).
struct Recorded {
  bool league_game = false;
  bool round_complete = false;
  bool next_started = false;
};
Result<Recorded> RecordAndAdvance(const LeagueServices& services,
                                  storage::LeagueRepository& leagues, const league::GameEnd& end,
                                  storage::Timestamp now, spdlog::logger* logger);

}  // namespace pbem::daemon::league_http

#endif  // PBEM_DAEMON_LEAGUE_ROUTES_H_
