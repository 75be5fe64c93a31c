#include "daemon/cli/league_cli.h"

#include <chrono>
#include <iostream>

#include "daemon/cli/cli.h"

namespace pbem::cli::league_cli {

using league::LeagueSettings;

// A season or round number from 1 to 10000; nullopt for anything else ("1x", "-2", "").
std::optional<int> Count(const std::string& text) {
  if (text.empty() || text.size() > 5) return std::nullopt;
  int n = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  if (n < 1 || n > 10000) return std::nullopt;
  return n;
}

int Fail(const Status& s) {
  std::cerr << "pbem: league: " << s.message() << '\n';
  return kExitProblems;
}
int Fail(const std::string& message) {
  std::cerr << "pbem: league: " << message << '\n';
  return kExitProblems;
}

// The organiser check: NOT_FOUND league or a wrong token is an error message.
std::optional<std::string> CheckOrganiser(storage::LeagueRepository& repo,
                                          const std::string& league_id, const Options& o) {
  if (!o.values.count("--token")) return "the organiser's --token is required";
  Result<bool> ok = repo.VerifyOrganiserToken(league_id, o.values.at("--token"));
  if (!ok.ok()) return ok.status().message();
  if (!*ok) return "the token is not the organiser's token of league " + league_id;
  return std::nullopt;
}

Result<LeagueSettings> SettingsOf(storage::LeagueRepository& repo, const std::string& league_id) {
  Result<storage::League> l = repo.GetLeague(league_id);
  if (!l.ok()) return l.status();
  return league::DecodeSettings(l->settings);
}

storage::Timestamp Now() {
  return storage::Timestamp(std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::system_clock::now().time_since_epoch()));
}

}  // namespace pbem::cli::league_cli
