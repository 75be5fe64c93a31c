#include "daemon/league_api_parts.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "daemon/game_catalog.h"
#include "daemon/http_api.h"
#include "daemon/json_input.h"

namespace pbem::daemon::league_http {

std::string LowerAscii(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

LeagueAnswer Error(int status, const std::string& code, const std::string& message) {
  return LeagueAnswer{status, "application/json", ErrorBody(code, message)};
}

LeagueAnswer Json(int status, const Poco::JSON::Object& object) {
  std::ostringstream out;
  object.stringify(out);
  return LeagueAnswer{status, "application/json", out.str()};
}

LeagueAnswer StoreFailure(const Status& status) {
  return Error(503, "unavailable", "the league store failed: " + status.message());
}

LeagueAnswer UnknownLeague(const std::string& id) {
  return Error(404, "unknown_league", "there is no league \"" + id + "\"");
}

// The body's JSON object, its nesting bounded first (json_input.h), or the 400 saying why not.
std::variant<Poco::JSON::Object::Ptr, LeagueAnswer> ParseObject(const std::string& body) {
  Result<Poco::JSON::Object::Ptr> object = ParseJsonObject(body);
  if (!object.ok()) return Error(400, "malformed", object.status().message());
  return *object;
}

std::variant<LoadedLeague, LeagueAnswer> LoadLeague(const std::string& id,
                                                    storage::LeagueRepository& leagues) {
  Result<storage::League> league = leagues.GetLeague(id);
  if (!league.ok()) {
    return league.status().code() == StatusCode::kNotFound ? UnknownLeague(id)
                                                           : StoreFailure(league.status());
  }
  Result<league::LeagueSettings> settings = league::DecodeSettings(league->settings);
  if (!settings.ok()) return StoreFailure(settings.status());
  return LoadedLeague{*league, *settings};
}

LeagueAnswer Malformed(const Status& status) { return Error(400, "malformed", status.message()); }

// 404 / 401 / 403 unless `token` is the league's organiser's (or the admin token).
std::optional<LeagueAnswer> RefuseUnlessOrganiser(const LeagueServices& services,
                                                  const std::string& id, const std::string& token,
                                                  storage::LeagueRepository& leagues,
                                                  const std::string& what) {
  Result<bool> organiser = leagues.VerifyOrganiserToken(id, token);
  if (!organiser.ok()) {
    return organiser.status().code() == StatusCode::kNotFound ? UnknownLeague(id)
                                                              : StoreFailure(organiser.status());
  }
  if (token.empty()) {
    return Error(401, "unauthenticated",
                 what + " takes the organiser's token as \"Authorization: Bearer <token>\"");
  }
  if (!*organiser && !(token == services.admin_token && !services.admin_token.empty())) {
    return Error(403, "not_organiser", "only the organiser of league \"" + id + "\" may " + what);
  }
  return std::nullopt;
}

league::MaterialLoader Loader(GameCatalog& catalog) {
  return [&catalog](const std::string& name) -> Result<league::GameMaterial> {
    Result<std::shared_ptr<const ScenarioData>> data = catalog.Scenario(name);
    if (!data.ok()) return data.status();
    return league::GameMaterial{(*data)->ruleset_proto, (*data)->scenario_proto, (*data)->scenario};
  };
}

}  // namespace pbem::daemon::league_http
