// A league template (templates/league) read and rendered with mustache: the one place the
// league's mails and pages (league_flow.cc, league_mails.cc, correction.cc, organiser.cc,
// player_page.cc) turn a file into text. Internal to pbem_league_flow and
// pbem_league_organiser (it names the mustache types). The files are read with
// ReadLeagueTemplate (league_mails.h).
#ifndef PBEM_DAEMON_LEAGUE_LEAGUE_TEMPLATE_H_
#define PBEM_DAEMON_LEAGUE_LEAGUE_TEMPLATE_H_

#include <filesystem>
#include <kainjow/mustache.hpp>
#include <string>

#include "daemon/league/league_mails.h"
#include "storage/game_repository.h"
#include "storage/status.h"

namespace pbem::league {

// The template at `path` rendered with `data`, HTML-escaped when `html` (pages) and not
// (mail text). NOT_FOUND / INVALID_ARGUMENT naming the file when it is missing or does not
// parse.
Result<std::string> RenderTemplate(const std::filesystem::path& path,
                                   const kainjow::mustache::data& data, bool html);

// The mail <template_dir>/<language>/<name>.{subject,txt} rendered with `data`: the subject
// on one line (line ends made spaces, trailing spaces dropped), the body's tables aligned
// (AlignColumns). INVALID_ARGUMENT for a language other than en/fr; errors of RenderTemplate.
Result<LeagueMail> RenderLeagueMail(const std::filesystem::path& template_dir,
                                    const std::string& language, const std::string& name,
                                    const kainjow::mustache::data& data);

// That mail to `recipient`, to be sent from `now` on.
Result<storage::NewMail> RenderLeagueNewMail(const std::filesystem::path& template_dir,
                                             const std::string& language, const std::string& name,
                                             const kainjow::mustache::data& data,
                                             const std::string& recipient, storage::Timestamp now);

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_LEAGUE_TEMPLATE_H_
