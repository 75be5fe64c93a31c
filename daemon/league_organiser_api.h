// The organiser's routes of a league (issue 20 point 5), under /v1/leagues/{id}; every one
// takes the league's organiser token (or the admin token) as "Authorization: Bearer", except
// the rating history page, public like the standings page:
//
//   GET  /v1/leagues/{id}/status                every game: side to move, deadline, last orders,
//                                               missed turns, paused, result (JSON)
//   POST /v1/leagues/{id}/games/{game}/extend   {"seconds": n}: the game's deadline moves n
//                                               seconds later (60 to 30 days); its players are
//                                               told by mail in their language
//   POST /v1/leagues/{id}/games/{game}/result   {"winner": "blue"|"orange", "level", "ending"} or
//                                               {"draw": true}, "reason" to correct: what
//                                               `pbem league result` does (the game ends, the
//                                               round's last result starts the next round or
//                                               ends the season; a correction rates again)
//   POST /v1/leagues/{id}/registration          {"open": false}: joins (HTTP and mail) are
//                                               refused with registration_closed; true reopens
//   GET  /v1/leagues/{id}/standings.csv         ?season=N (default the latest), RFC 4180
//   GET  /v1/leagues/{id}/games.csv             every game of every season, RFC 4180
//   GET  /v1/leagues/{id}/season.trf            ?season=N: FIDE's TRF-16 (league/export.h)
//   GET  /v1/leagues/{id}/ratings.html          ?player=NAME&lang=en|fr: the player's rating
//                                               history page (daemon/league/player_page.h)
#ifndef PBEM_DAEMON_LEAGUE_ORGANISER_API_H_
#define PBEM_DAEMON_LEAGUE_ORGANISER_API_H_

#include <optional>

#include "daemon/league_api.h"

namespace pbem::daemon {

// The answer of one of the routes above; nullopt when `request` is for none of them.
std::optional<LeagueAnswer> HandleOrganiserRequest(const LeagueServices& services,
                                                   const LeagueRequest& request,
                                                   storage::GameRepository& games,
                                                   storage::LeagueRepository& leagues,
                                                   storage::Timestamp now);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_LEAGUE_ORGANISER_API_H_
