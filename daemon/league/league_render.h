// Internal to pbem_league_flow: the mustache templates of templates/league/<lang>/ and the
// template data of a league game, shared by the standings, the results and the corrections.
#ifndef PBEM_DAEMON_LEAGUE_LEAGUE_RENDER_H_
#define PBEM_DAEMON_LEAGUE_LEAGUE_RENDER_H_

#include <filesystem>
#include <kainjow/mustache.hpp>
#include <string>

#include "daemon/league/standings.h"
#include "storage/status.h"

namespace pbem::league {

// <template_dir>/<language>/<name> rendered with `data` (HTML-escaped when `html`).
// INVALID_ARGUMENT for a language other than en/fr or a template that does not parse;
// NOT_FOUND naming the file when it is missing.
Result<std::string> RenderLeagueTemplate(const std::filesystem::path& template_dir,
                                         const std::string& language, const std::string& name,
                                         const kainjow::mustache::data& data, bool html);

// A league game as template data: game, round, blue, orange, the flags pending, draw,
// forfeit, resigned, winner (the winning player's name) with the flag has_winner, level and the
// flag level_<level>.
kainjow::mustache::data GameData(const LeagueGame& game);

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_LEAGUE_RENDER_H_
