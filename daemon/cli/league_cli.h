// What the `pbem league` subcommands share (daemon/cli/league_command.cc and the organiser's
// tools in daemon/cli/league_organiser_command.cc): parsed options, the organiser check and
// the error exit.
#ifndef PBEM_DAEMON_CLI_LEAGUE_CLI_H_
#define PBEM_DAEMON_CLI_LEAGUE_CLI_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daemon/league/league_flow.h"
#include "storage/league_repository.h"
#include "storage/sql_repository.h"
#include "storage/status.h"

namespace pbem::cli::league_cli {

struct Options {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;
  std::map<std::string, bool> flags;
};

// A season or round number from 1 to 10000; nullopt for anything else ("1x", "-2", "").
std::optional<int> Count(const std::string& text);
// "pbem: league: <message>" on stderr; returns kExitProblems.
int Fail(const Status& s);
int Fail(const std::string& message);
// The organiser check: NOT_FOUND league or a wrong token is an error message.
std::optional<std::string> CheckOrganiser(storage::LeagueRepository& repo,
                                          const std::string& league_id, const Options& o);
Result<league::LeagueSettings> SettingsOf(storage::LeagueRepository& repo,
                                          const std::string& league_id);
storage::Timestamp Now();

// The organiser's tools (league_organiser_command.cc).
int OrganiserStatus(storage::SqlRepository& repo, const Options& o);
int ExtendDeadline(storage::SqlRepository& repo, const Options& o);
int Registration(storage::SqlRepository& repo, const Options& o);
int Export(storage::SqlRepository& repo, const Options& o);
int RatingsPage(storage::SqlRepository& repo, const Options& o);

}  // namespace pbem::cli::league_cli

#endif  // PBEM_DAEMON_CLI_LEAGUE_CLI_H_
