// The answers the league routes share (daemon/league_api.cc, daemon/league_organiser_api.cc):
// errors in the API's one shape ({"error":{"code","message"}}), JSON bodies, and the
// organiser check.
#ifndef PBEM_DAEMON_LEAGUE_API_PARTS_H_
#define PBEM_DAEMON_LEAGUE_API_PARTS_H_

#include <Poco/JSON/Object.h>

#include <optional>
#include <string>
#include <variant>

#include "daemon/league/league_flow.h"
#include "daemon/league_api.h"
#include "storage/league_repository.h"
#include "storage/status.h"

namespace pbem::daemon::league_http {

// ASCII lower case: mail addresses compare without case (senders arrive lower-cased).
std::string LowerAscii(std::string s);

LeagueAnswer Error(int status, const std::string& code, const std::string& message);
LeagueAnswer Json(int status, const Poco::JSON::Object& object);
// 503 unavailable: the league store failed.
LeagueAnswer StoreFailure(const Status& status);
// 404 unknown_league.
LeagueAnswer UnknownLeague(const std::string& id);
// The body's JSON object, its nesting bounded first (json_input.h), or the 400 saying why not.
std::variant<Poco::JSON::Object::Ptr, LeagueAnswer> ParseObject(const std::string& body);
// A league with its decoded settings, or the answer saying why not (404 unknown_league, 503).
struct LoadedLeague {
  storage::League league;
  league::LeagueSettings settings;
};
std::variant<LoadedLeague, LeagueAnswer> LoadLeague(const std::string& id,
                                                    storage::LeagueRepository& leagues);
// 400 malformed with the status's sentence.
LeagueAnswer Malformed(const Status& status);
// 404 / 401 / 403 unless `token` is the league's organiser's (or the admin token); `what`
// completes "only the organiser of league X may ...".
std::optional<LeagueAnswer> RefuseUnlessOrganiser(const LeagueServices& services,
                                                  const std::string& id, const std::string& token,
                                                  storage::LeagueRepository& leagues,
                                                  const std::string& what);

// The league's scenarios as the league flow reads them, from pbemd's catalog (which must
// outlive the loader).
league::MaterialLoader Loader(GameCatalog& catalog);

}  // namespace pbem::daemon::league_http

#endif  // PBEM_DAEMON_LEAGUE_API_PARTS_H_
