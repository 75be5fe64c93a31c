// The organiser's tools THROUGH pbemd (issue 20 point 5): the real pbemd (SQLite, file outbox)
// on loopback, two leagues with their own organisers, players whose names have accents,
// commas and quotes. Over HTTP with the organiser's token: the status of every game, a
// deadline extension (bounded, mailed to the game's players in their language), closing and
// reopening registration, the CSV exports, the rating history page; the admin-only routes
// refuse the organiser's token, and the organiser of one league cannot act on the other.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <time.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "daemon/turn/turn_job.h"
#include "engine/morne_plaine/bot.h"
#include "pbem/v1/game.pb.h"
#include "proto/codec/codec.h"
#include "tests/league/organiser_leagues.h"
#include "tests/league/pbemd_process.h"
#include "tests/support/temp_dir.h"
#include "tests/turn/turn_test_util.h"

namespace pbem {
namespace {

using namespace pbemd_process;  // NOLINT: Pbemd, kAdmin, the outbox readers

// A CSV document as RFC 4180 reads it: records of fields, quotes undone. The test's own
// reader, so that the export is checked against the standard rather than against itself.
std::vector<std::vector<std::string>> ReadCsv(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      record.push_back(field);
      field.clear();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      record.push_back(field);
      field.clear();
      records.push_back(record);
      record.clear();
      ++i;
    } else {
      field += c;  // a bare LF or CR would be a violation: kept, and the test sees it
    }
  }
  if (!field.empty() || !record.empty()) {
    record.push_back(field);
    records.push_back(record);
  }
  return records;
}

TEST_CASE("organiser: the status of every game of the league over HTTP") {
  Leagues l;
  Reply status = l.StatusWithDeadlines();
  INFO(status.body);
  CHECK(status.json()->getValue<std::string>("league") == "alpha");
  REQUIRE(status.json()->getArray("games")->size() == 2);
  const std::int64_t now = NowSeconds();
  for (const std::string& id : l.alpha_games) {
    Poco::JSON::Object::Ptr g = GameOf(status, id);
    CHECK(g->getValue<long>("season") == 1);
    CHECK(g->getValue<long>("round") == 1);
    CHECK_FALSE(g->getValue<bool>("over"));
    CHECK(g->getValue<int>("turn") == 1);
    CHECK(g->getValue<std::string>("sideToMove") == "blue");
    CHECK(g->getValue<std::string>("playerToMove") == g->getValue<std::string>("blue"));
    CHECK_FALSE(g->getValue<bool>("paused"));
    CHECK(g->isNull("lastOrdersAt"));
    CHECK(g->getObject("missedTurns")->getValue<long>("blue") == 0);
    CHECK(g->getObject("missedTurns")->getValue<long>("orange") == 0);
    CHECK(g->getValue<std::string>("leagueResult") == "pending");
    // The turn opened within the test's minute: its deadline is a turn timeout later.
    const std::int64_t deadline = EpochSeconds(g->getValue<std::string>("deadline"));
    CHECK(deadline > now + kTimeout - 120);
    CHECK(deadline <= now + kTimeout + 1);
  }

  SECTION("orders received show, with their side and time; the turn passes to orange") {
    const std::string id = l.alpha_games[0];
    const testing::BundledGame& bois = testing::Bois();
    Reply raw = l.pbemd.Send("GET", "/v1/games/" + id, "", "", "", "application/x-protobuf");
    REQUIRE(raw.status == 200);
    pbem::v1::GameState proto;
    REQUIRE(proto.ParseFromString(raw.body));
    auto state = codec::StateFromProto(proto, bois.scenario.scenario);
    REQUIRE(state.ok());
    const engine::Orders orders =
        engine::BotOrders(bois.ruleset.ruleset, bois.scenario.scenario, state.value(), 7);
    const std::int64_t sent_at = NowSeconds();
    Reply sent =
        l.pbemd.Send("POST", "/v1/games/" + id + "/orders",
                     codec::SerializeMessage(codec::OrdersToProto(orders, bois.scenario.scenario),
                                             codec::Format::kBinary),
                     l.GameToken(id, "blue"), "application/x-protobuf");
    INFO(sent.body);
    REQUIRE(sent.status == 200);
    const auto give_up = Clock::now() + std::chrono::seconds(30);
    Poco::JSON::Object::Ptr g;
    for (;;) {
      g = GameOf(l.Status(), id);
      if (g->getValue<std::string>("sideToMove") == "orange" && !g->isNull("deadline")) break;
      REQUIRE(Clock::now() < give_up);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(g->getValue<std::string>("lastOrdersSide") == "blue");
    const std::int64_t received = EpochSeconds(g->getValue<std::string>("lastOrdersAt"));
    CHECK(received >= sent_at - 1);
    CHECK(received <= NowSeconds());
    CHECK(g->getValue<std::string>("playerToMove") == g->getValue<std::string>("orange"));
    // The other game is untouched.
    CHECK(GameOf(l.Status(), l.alpha_games[1])->isNull("lastOrdersAt"));
  }

  SECTION("a resigned game shows over, with its result and no side to move") {
    const std::string id = l.alpha_games[1];
    Reply resigned =
        l.pbemd.Send("POST", "/v1/games/" + id + "/resign", "", l.GameToken(id, "orange"));
    REQUIRE(resigned.status == 200);
    Poco::JSON::Object::Ptr g = GameOf(l.Status(), id);
    CHECK(g->getValue<bool>("over"));
    CHECK(g->isNull("sideToMove"));
    CHECK(g->isNull("deadline"));
    CHECK(g->getValue<std::string>("result") == "blue wins: orange resigned");
    CHECK(g->getValue<std::string>("leagueResult") == "resigned");
    CHECK(g->getValue<std::string>("winner") == "blue");
    // Nothing to extend in a game that is over.
    Reply late = l.Extend("alpha", id, R"({"seconds":3600})");
    CHECK(late.status == 409);
    CHECK(late.error_code() == "game_over");
  }
}

TEST_CASE("organiser: the league's token, and only it, opens the organiser's routes") {
  Leagues l;
  const std::string alpha_game = l.alpha_games[0];
  const std::string beta_game = l.beta_games[0];
  for (const std::string route : {"status", "standings.csv", "games.csv", "season.trf"}) {
    INFO(route);
    Reply none = l.pbemd.Send("GET", "/v1/leagues/alpha/" + route);
    CHECK(none.status == 401);
    CHECK(none.error_code() == "unauthenticated");
    // The organiser of beta cannot look into alpha, nor alpha's into beta.
    Reply other = l.pbemd.Send("GET", "/v1/leagues/alpha/" + route, "", kBetaOrganiser);
    CHECK(other.status == 403);
    CHECK(other.error_code() == "not_organiser");
    CHECK(l.pbemd.Send("GET", "/v1/leagues/beta/" + route, "", kAlphaOrganiser).status == 403);
    CHECK(l.pbemd.Send("GET", "/v1/leagues/beta/" + route, "", kBetaOrganiser).status == 200);
    // The admin may do what an organiser may.
    CHECK(l.pbemd.Send("GET", "/v1/leagues/alpha/" + route, "", kAdmin).status == 200);
  }
  // A player's league token is no organiser's.
  const std::string player_token =
      l.Join("alpha", "Dee", "dee@example.org", "en").json()->getValue<std::string>("token");
  CHECK(l.Status("alpha", player_token).status == 403);

  // Extending a game of beta: through alpha's route it is no game of alpha; through beta's,
  // alpha's organiser is refused. Neither changes beta's deadline.
  const auto beta_deadline = [&] {
    const auto give_up = Clock::now() + std::chrono::seconds(30);
    for (;;) {
      Poco::JSON::Object::Ptr g = GameOf(l.Status("beta", kBetaOrganiser), beta_game);
      if (!g->isNull("deadline")) return g->getValue<std::string>("deadline");
      REQUIRE(Clock::now() < give_up);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  };
  const std::string before = beta_deadline();
  Reply through_alpha = l.Extend("alpha", beta_game, R"({"seconds":3600})");
  CHECK(through_alpha.status == 404);
  CHECK(through_alpha.error_code() == "not_in_league");
  Reply into_beta = l.Extend("beta", beta_game, R"({"seconds":3600})");
  CHECK(into_beta.status == 403);
  CHECK(into_beta.error_code() == "not_organiser");
  CHECK(l.pbemd.Send("POST", "/v1/leagues/beta/registration", R"({"open":false})", kAlphaOrganiser)
            .status == 403);
  CHECK(beta_deadline() == before);
  l.Join("beta", "Dan", "dan@example.org", "en");  // beta's registration is still open

  // The admin-only routes refuse an organiser's token.
  Reply create = l.pbemd.Send("POST", "/v1/leagues", R"({"id":"gamma"})", kAlphaOrganiser);
  CHECK(create.status == 403);
  CHECK(create.error_code() == "forbidden");
  for (const std::string action : {"pause", "resume"}) {
    Reply r = l.pbemd.Send("POST", "/v1/games/" + alpha_game + "/" + action, "", kAlphaOrganiser);
    CHECK(r.status == 403);
    CHECK(r.error_code() == "forbidden");
  }
  CHECK_FALSE(GameOf(l.Status(), alpha_game)->getValue<bool>("paused"));
}

// The organiser's POST routes read their JSON body in one place (daemon/league_organiser_api.cc,
// once the organiser is known): the token is checked first, whatever the body, then a body
// that is no JSON object is refused with the same 400 on every route.
TEST_CASE("organiser: the POST routes check the token before the body, then its JSON") {
  Leagues l;
  const std::string game = l.alpha_games[0];
  const std::vector<std::string> routes = {"games/" + game + "/extend", "games/" + game + "/result",
                                           "registration"};
  for (const std::string& route : routes) {
    for (const std::string body : {"not json", "[1,2]", R"({"open":)"}) {
      INFO(route << " " << body);
      const std::string uri = "/v1/leagues/alpha/" + route;
      Reply none = l.pbemd.Send("POST", uri, body);
      CHECK(none.status == 401);
      CHECK(none.error_code() == "unauthenticated");
      Reply other = l.pbemd.Send("POST", uri, body, kBetaOrganiser);
      CHECK(other.status == 403);
      CHECK(other.error_code() == "not_organiser");
      Reply mine = l.pbemd.Send("POST", uri, body, kAlphaOrganiser);
      CHECK(mine.status == 400);
      CHECK(mine.error_code() == "malformed");
    }
  }
  // Nothing changed: registration is still open, the game still pending.
  CHECK(l.Join("alpha", "Dee", "dee@example.org", "en").status == 201);
  CHECK(GameOf(l.Status(), game)->getValue<std::string>("leagueResult") == "pending");
}

TEST_CASE("organiser: a deadline extension is bounded, moves the deadline and is mailed") {
  Leagues l;
  Reply status = l.StatusWithDeadlines();
  const std::string game = l.HeleneGame();
  const std::int64_t before = EpochSeconds(GameOf(status, game)->getValue<std::string>("deadline"));

  SECTION("absurd values are refused with a sentence naming the field; nothing changes") {
    for (const std::string body :
         {R"({})", R"({"seconds":0})", R"({"seconds":59})", R"({"seconds":2592001})",
          R"({"seconds":-3600})", R"({"seconds":"2 days"})", R"({"seconds":1e300})"}) {
      INFO(body);
      Reply r = l.Extend("alpha", game, body);
      CHECK(r.status == 400);
      CHECK(r.error_code() == "malformed");
      CHECK(r.error_message().find("\"seconds\"") != std::string::npos);
    }
    // Beyond 64 bits the JSON parser refuses the body before any field is read.
    CHECK(l.Extend("alpha", game, R"({"seconds":99999999999999999999})").status == 400);
    CHECK(EpochSeconds(GameOf(l.Status(), game)->getValue<std::string>("deadline")) == before);
    CHECK(l.Extend("alpha", "no-such-game", R"({"seconds":3600})").error_code() == "not_in_league");
  }

  SECTION("two days and three hours later; each player told in their language") {
    Reply r = l.Extend("alpha", game, R"({"seconds":183600})");
    INFO(r.body);
    REQUIRE(r.status == 200);
    CHECK(r.json()->getValue<long>("extendedBySeconds") == 183600);
    CHECK(r.json()->getValue<int>("mailsQueued") == 2);
    CHECK(EpochSeconds(r.json()->getValue<std::string>("deadline")) == before + 183600);
    // The deadline stored moved: the status says so.
    CHECK(EpochSeconds(GameOf(l.Status(), game)->getValue<std::string>("deadline")) ==
          before + 183600);
    // The other game's deadline did not.
    for (const std::string& other : l.alpha_games) {
      if (other == game) continue;
      CHECK(EpochSeconds(GameOf(l.Status(), other)->getValue<std::string>("deadline")) <
            before + 3600);
    }
    // The mails, as the outbox worker writes them to the file outbox (the round's mails may
    // still be going out too).
    int french = 0, english = 0;
    const auto give_up = Clock::now() + std::chrono::seconds(30);
    while (french + english < 2) {
      REQUIRE(Clock::now() < give_up);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      french = english = 0;
      for (const Mail& m : ReadOutbox(l.pbemd.outbox())) {
        if (m.subject.find(game) == std::string::npos) continue;
        if (m.subject.find("délai prolongé") != std::string::npos) {
          ++french;
          CHECK(m.to == "helene@example.org");
          // (The mailer's RFC 2047 encoding may leave a double space where an encoded word
          // meets plain text: compared without it.)
          std::string subject = m.subject;
          for (std::size_t at; (at = subject.find("  ")) != std::string::npos;) {
            subject.erase(at, 1);
          }
          CHECK(subject == "Partie " + game + "\u00a0: délai prolongé de 2 jours 3 heures");
          CHECK(m.text.find("a prolongé de 2 jours 3 heures le délai de la partie " + game) !=
                std::string::npos);
          CHECK(m.text.find("au plus tard le ") != std::string::npos);
          CHECK(m.text.find(" UTC") != std::string::npos);
        } else if (m.subject.find("deadline is extended") != std::string::npos) {
          ++english;
          CHECK(m.to != "helene@example.org");
          CHECK(m.subject == "Game " + game + ": the deadline is extended by 2 days 3 hours");
          CHECK(m.text.find("orders are now due by ") != std::string::npos);
        }
      }
    }
    CHECK(french == 1);
    CHECK(english == 1);
    CHECK(l.pbemd.Log().find("event=deadline_extended league=alpha game=" + game) !=
          std::string::npos);
  }
}

TEST_CASE("organiser: closing registration refuses joins with a sentence; reopening allows") {
  Leagues l;
  Reply bad =
      l.pbemd.Send("POST", "/v1/leagues/alpha/registration", R"({"open":"no"})", kAlphaOrganiser);
  CHECK(bad.status == 400);
  CHECK(bad.error_message().find("\"open\"") != std::string::npos);
  Reply closed =
      l.pbemd.Send("POST", "/v1/leagues/alpha/registration", R"({"open":false})", kAlphaOrganiser);
  REQUIRE(closed.status == 200);
  CHECK_FALSE(closed.json()->getValue<bool>("registrationOpen"));
  Reply refused = l.Join("alpha", "Eve", "eve@example.org", "en", 409);
  CHECK(refused.error_code() == "registration_closed");
  CHECK(refused.error_message() ==
        "registration to league \"alpha\" is closed: its organiser is not taking new players");
  CHECK(l.pbemd.Send("GET", "/v1/leagues/alpha").json()->getArray("players")->size() == 4);
  // beta is another league: still open.
  l.Join("beta", "Eve", "eve@example.org", "en");
  REQUIRE(
      l.pbemd.Send("POST", "/v1/leagues/alpha/registration", R"({"open":true})", kAlphaOrganiser)
          .status == 200);
  l.Join("alpha", "Eve", "eve@example.org", "en");
  CHECK(l.pbemd.Send("GET", "/v1/leagues/alpha").json()->getArray("players")->size() == 5);
}

TEST_CASE("organiser: CSV exports keep names with accents, commas and quotes") {
  Leagues l;
  // One game decided, so the export has a result in it.
  const std::string decided = l.alpha_games[0];
  REQUIRE(l.pbemd.Send("POST", "/v1/games/" + decided + "/resign", "", l.GameToken(decided, "blue"))
              .status == 200);

  Reply standings = l.pbemd.Send("GET", "/v1/leagues/alpha/standings.csv", "", kAlphaOrganiser);
  REQUIRE(standings.status == 200);
  CHECK(standings.content_type.rfind("text/csv", 0) == 0);
  // RFC 4180: every line ends with CRLF.
  for (std::size_t at = standings.body.find('\n'); at != std::string::npos;
       at = standings.body.find('\n', at + 1)) {
    REQUIRE(at > 0);
    CHECK(standings.body[at - 1] == '\r');
  }
  const auto rows = ReadCsv(standings.body);
  REQUIRE(rows.size() == 5);
  CHECK(rows[0] == std::vector<std::string>{"season", "rank", "player", "points", "played",
                                            "pending", "wins", "draws", "losses", "head_to_head",
                                            "sonneborn_berger", "rating"});
  std::set<std::string> players;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    REQUIRE(rows[i].size() == 12);
    CHECK(rows[i][0] == "1");
    players.insert(rows[i][2]);
  }
  // The names as joined; the formula is defused with an apostrophe.
  CHECK(players == std::set<std::string>{l.helene, l.smith, "'" + l.formula, l.ana});
  CHECK(standings.body.find("\"Smith, \"\"Jo\"\"\"") != std::string::npos);

  Reply games = l.pbemd.Send("GET", "/v1/leagues/alpha/games.csv", "", kAlphaOrganiser);
  REQUIRE(games.status == 200);
  const auto game_rows = ReadCsv(games.body);
  REQUIRE(game_rows.size() == 3);
  CHECK(game_rows[0] == std::vector<std::string>{"season", "round", "game", "blue", "orange",
                                                 "result", "winner", "level", "winner_player"});
  Poco::JSON::Object::Ptr status = GameOf(l.Status(), decided);
  for (std::size_t i = 1; i < game_rows.size(); ++i) {
    const auto& row = game_rows[i];
    REQUIRE(row.size() == 9);
    const std::string id = row[2];
    Poco::JSON::Object::Ptr g = GameOf(l.Status(), id);
    auto unformula = [](const std::string& name) {
      return name.rfind("'=", 0) == 0 ? name.substr(1) : name;
    };
    CHECK(unformula(row[3]) == g->getValue<std::string>("blue"));
    CHECK(unformula(row[4]) == g->getValue<std::string>("orange"));
    if (id == decided) {
      CHECK(row[5] == "resigned");
      CHECK(row[6] == "orange");
      CHECK(unformula(row[8]) == status->getValue<std::string>("orange"));
    } else {
      CHECK(row[5] == "pending");
      CHECK(row[6].empty());
      CHECK(row[8].empty());
    }
  }
}

TEST_CASE("organiser: the season as TRF-16 over HTTP") {
  Leagues l;
  for (const std::string& id : l.alpha_games) {
    REQUIRE(
        l.pbemd.Send("POST", "/v1/games/" + id + "/resign", "", l.GameToken(id, "orange")).status ==
        200);
  }
  Reply trf = l.pbemd.Send("GET", "/v1/leagues/alpha/season.trf", "", kAlphaOrganiser);
  INFO(trf.body);
  REQUIRE(trf.status == 200);
  CHECK(trf.body.rfind("012 alpha, season 1\r\n062 4\r\n092 Round robin\r\nXXR 1\r\n", 0) == 0);
  int lines = 0;
  for (std::size_t at = trf.body.find("\r\n001 "); at != std::string::npos;
       at = trf.body.find("\r\n001 ", at + 1)) {
    ++lines;
    const std::string line = trf.body.substr(at + 2, trf.body.find("\r\n", at + 2) - at - 2);
    // Round 1 from column 92: an opponent, the colour, the result (blue won every game).
    REQUIRE(line.size() == 99);
    CHECK(((line[96] == 'w' && line[98] == '1') || (line[96] == 'b' && line[98] == '0')));
    // The Glicko-2 rating after the round, in the FIDE rating's columns 49-52.
    CHECK(line.substr(48, 4).find_first_not_of("0123456789") == std::string::npos);
    CHECK(line.substr(48, 4) != "1500");
  }
  CHECK(lines == 4);
  CHECK(trf.body.find("Hélène Dupré") != std::string::npos);
}

TEST_CASE("organiser: a player's rating history page, EN and FR") {
  Leagues l;
  const std::string game = l.HeleneGame();
  const std::string side =
      GameOf(l.Status(), game)->getValue<std::string>("blue") == l.helene ? "blue" : "orange";
  REQUIRE(
      l.pbemd.Send("POST", "/v1/games/" + game + "/resign", "", l.GameToken(game, side)).status ==
      200);
  // Hélène Dupré, percent-encoded as a browser sends it.
  const std::string query = "?player=H%C3%A9l%C3%A8ne%20Dupr%C3%A9";
  Reply fr = l.pbemd.Send("GET", "/v1/leagues/alpha/ratings.html" + query + "&lang=fr");
  INFO(fr.body);
  REQUIRE(fr.status == 200);
  CHECK(fr.content_type.rfind("text/html", 0) == 0);
  CHECK(fr.body.find("<html lang=\"fr\">") != std::string::npos);
  CHECK(fr.body.find("<h1 id=\"player\">Hélène Dupré</h1>") != std::string::npos);
  CHECK(fr.body.find("provisoire") != std::string::npos);  // RD 350 at first
  CHECK(fr.body.find("href=\"/v1/games/" + game + "/archive/index.html\"") != std::string::npos);
  CHECK(fr.body.find("perdue (abandon)") != std::string::npos);
  CHECK(fr.body.find("0 tours manqués") != std::string::npos);
  Reply en = l.pbemd.Send("GET", "/v1/leagues/alpha/ratings.html" + query + "&lang=en");
  REQUIRE(en.status == 200);
  CHECK(en.body.find("lost (resigned)") != std::string::npos);
  CHECK(en.body.find("(provisional: RD above 110)") != std::string::npos);
  // The page escapes what a stranger chose as a name.
  Reply smith = l.pbemd.Send("GET", "/v1/leagues/alpha/ratings.html?player=Smith%2C%20%22Jo%22");
  REQUIRE(smith.status == 200);
  CHECK(smith.body.find("Smith, &quot;Jo&quot;") != std::string::npos);
  CHECK(smith.body.find("Smith, \"Jo\"") == std::string::npos);

  Reply unknown = l.pbemd.Send("GET", "/v1/leagues/alpha/ratings.html?player=Nobody");
  CHECK(unknown.status == 404);
  CHECK(unknown.error_code() == "unknown_player");
  CHECK(l.pbemd.Send("GET", "/v1/leagues/alpha/ratings.html").status == 400);
  CHECK(l.pbemd.Send("GET", "/v1/leagues/alpha/ratings.html" + query + "&lang=de").status == 400);
}

}  // namespace
}  // namespace pbem
