// A league player's rating history page (issue 20 point 5): rating and RD after every rated
// round (a table and a chart), the provisional marker, the player's games with their results
// and missed turns. EN/FR: templates/league/<language>/player.html. Served by pbemd
// (GET /v1/leagues/{id}/ratings.html?player=NAME) and written by `pbem league ratings`.
#ifndef PBEM_DAEMON_LEAGUE_PLAYER_PAGE_H_
#define PBEM_DAEMON_LEAGUE_PLAYER_PAGE_H_

#include <filesystem>
#include <string>

#include "storage/game_repository.h"
#include "storage/league_repository.h"
#include "storage/status.h"

namespace pbem::league {

// A rating is provisional while its RD is above this (as lichess marks ratings with "?"): the
// player has not played enough rated games for it to say much yet.
inline constexpr double kProvisionalRd = 110;

// The page of `player` in `league_id` in `language` ("en" or "fr"); each game links to
// `archive_link` with "{game}" standing for its id. NOT_FOUND for an unknown league, or a
// player who is neither in the league nor in any of its games or ratings (a removed player
// keeps their page); INVALID_ARGUMENT for another language; the stores' Statuses.
Result<std::string> RenderPlayerPage(storage::LeagueRepository& leagues,
                                     storage::GameRepository& games, const std::string& league_id,
                                     const std::string& player, const std::string& language,
                                     const std::filesystem::path& template_dir,
                                     const std::string& archive_link);

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_PLAYER_PAGE_H_
