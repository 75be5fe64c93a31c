// Two leagues run by the real pbemd for the organiser's tests (league_organiser_test.cc,
// league_result_http_test.cc): "alpha" of four players (Hélène Dupré in French, names with
// a comma, quotes and a would-be formula) and "beta" of two, each with its own organiser
// token, their first round started over HTTP.
#ifndef PBEM_TESTS_LEAGUE_ORGANISER_LEAGUES_H_
#define PBEM_TESTS_LEAGUE_ORGANISER_LEAGUES_H_

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <time.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/league/pbemd_process.h"
#include "tests/support/temp_dir.h"

namespace pbem {
namespace pbemd_process {

inline constexpr const char* kAlphaOrganiser = "alpha-organiser-secret";
inline constexpr const char* kBetaOrganiser = "beta-organiser-secret";
inline constexpr int kTimeout = 86400;  // the leagues' turn timeout, seconds

// "2026-11-26T14:05:09Z" as seconds since the epoch.
inline std::int64_t EpochSeconds(const std::string& iso) {
  std::tm tm{};
  REQUIRE(strptime(iso.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm) != nullptr);
  return static_cast<std::int64_t>(timegm(&tm));
}

inline std::int64_t NowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

using Clock = std::chrono::steady_clock;

// The game `id` of a status reply.
inline Poco::JSON::Object::Ptr GameOf(const Reply& status, const std::string& id) {
  Poco::JSON::Array::Ptr games = status.json()->getArray("games");
  for (unsigned i = 0; i < games->size(); ++i) {
    if (games->getObject(i)->getValue<std::string>("game") == id) return games->getObject(i);
  }
  FAIL("no game " << id << " in " << status.body);
  return nullptr;
}

struct Leagues {
  testing::TempDir dir{"pbem-league-organiser"};
  Pbemd pbemd{dir.path()};
  // alpha's players: accents, a comma and quotes, a would-be spreadsheet formula.
  const std::string helene = "Hélène Dupré";
  const std::string smith = "Smith, \"Jo\"";
  const std::string formula = "=Bob";
  const std::string ana = "Ana";
  std::vector<std::string> alpha_games, beta_games;

  Leagues() {
    for (auto [id, token] : {std::pair{"alpha", kAlphaOrganiser}, {"beta", kBetaOrganiser}}) {
      const std::string spec = R"({"id":")" + std::string(id) + R"(","organiserToken":")" + token +
                               R"(","turnTimeoutSeconds":)" + std::to_string(kTimeout) + "}";
      REQUIRE(pbemd.Send("POST", "/v1/leagues", spec, kAdmin).status == 201);
    }
    Join("alpha", helene, "helene@example.org", "fr");
    Join("alpha", smith, "jo@example.org", "en");
    Join("alpha", formula, "bob@example.org", "en");
    Join("alpha", ana, "ana@example.org", "en");
    Join("beta", "Bea", "bea@example.org", "en");
    Join("beta", "Cal", "cal@example.org", "en");
    alpha_games = Start("alpha", kAlphaOrganiser);
    beta_games = Start("beta", kBetaOrganiser);
    REQUIRE(alpha_games.size() == 2);
    REQUIRE(beta_games.size() == 1);
  }

  Reply Join(const std::string& league, const std::string& name, const std::string& mail,
             const std::string& language, int expected = 201) {
    Poco::JSON::Object body;
    body.set("name", name);
    body.set("email", mail);
    body.set("language", language);
    std::ostringstream text;
    body.stringify(text);
    Reply r = pbemd.Send("POST", "/v1/leagues/" + league + "/players", text.str());
    INFO(r.body);
    REQUIRE(r.status == expected);
    return r;
  }

  std::vector<std::string> Start(const std::string& league, const std::string& token) {
    Reply r = pbemd.Send("POST", "/v1/leagues/" + league + "/start", "", token);
    INFO(r.body);
    REQUIRE(r.status == 201);
    std::vector<std::string> ids;
    Poco::JSON::Array::Ptr games = r.json()->getArray("games");
    for (unsigned i = 0; i < games->size(); ++i) {
      ids.push_back(games->getObject(i)->getValue<std::string>("game"));
    }
    return ids;
  }

  Reply Status(const std::string& league = "alpha", const std::string& token = kAlphaOrganiser) {
    return pbemd.Send("GET", "/v1/leagues/" + league + "/status", "", token);
  }

  // The status once pbemd's scheduler has opened the first turn of every game of alpha.
  Reply StatusWithDeadlines() {
    const auto give_up = Clock::now() + std::chrono::seconds(30);
    for (;;) {
      Reply r = Status();
      REQUIRE(r.status == 200);
      bool all = true;
      for (const std::string& id : alpha_games) all = all && !GameOf(r, id)->isNull("deadline");
      if (all) return r;
      REQUIRE(Clock::now() < give_up);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  // The alpha game Hélène plays in.
  std::string HeleneGame() {
    Reply r = Status();
    for (const std::string& id : alpha_games) {
      Poco::JSON::Object::Ptr g = GameOf(r, id);
      if (g->getValue<std::string>("blue") == helene ||
          g->getValue<std::string>("orange") == helene) {
        return id;
      }
    }
    FAIL("Hélène has no game");
    return "";
  }

  Reply Extend(const std::string& league, const std::string& game, const std::string& body,
               const std::string& token = kAlphaOrganiser) {
    return pbemd.Send("POST", "/v1/leagues/" + league + "/games/" + game + "/extend", body, token);
  }

  // The game token of (game, side), from the players' mails (they go out one by one).
  std::string GameToken(const std::string& game, const std::string& side) {
    const auto give_up = Clock::now() + std::chrono::seconds(30);
    for (;;) {
      auto tokens = Tokens(pbemd.outbox());
      if (tokens.count({game, side})) return tokens.at({game, side});
      REQUIRE(Clock::now() < give_up);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
};

}  // namespace pbemd_process
}  // namespace pbem

#endif  // PBEM_TESTS_LEAGUE_ORGANISER_LEAGUES_H_
