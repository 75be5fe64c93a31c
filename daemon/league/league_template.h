// A league template (templates/league) read and rendered with mustache: the one place the
// organiser's mails and pages (organiser.cc, player_page.cc) turn a file into text.
// Internal to pbem_league_organiser (it names the mustache types).
#ifndef PBEM_DAEMON_LEAGUE_LEAGUE_TEMPLATE_H_
#define PBEM_DAEMON_LEAGUE_LEAGUE_TEMPLATE_H_

#include <filesystem>
#include <kainjow/mustache.hpp>
#include <string>

#include "storage/status.h"

namespace pbem::league {

// The file's text. NOT_FOUND naming the file when it cannot be read.
Result<std::string> ReadTemplate(const std::filesystem::path& path);

// The template at `path` rendered with `data`, HTML-escaped when `html` (pages) and not
// (mail text). NOT_FOUND / INVALID_ARGUMENT naming the file when it is missing or does not
// parse.
Result<std::string> RenderTemplate(const std::filesystem::path& path,
                                   const kainjow::mustache::data& data, bool html);

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_LEAGUE_TEMPLATE_H_
