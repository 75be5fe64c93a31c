// The organiser's result over HTTP (issue 20: POST /v1/leagues/{id}/games/{game}/result, what
// `pbem league result` does) against the real pbemd (SQLite, file outbox): who may record,
// the refusals naming the field (nothing changed), a result that ends the game, the round's
// last result starting the next round, a second result refused without a reason, and a
// correction whose ratings are those of the corrected history.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "tests/league/organiser_leagues.h"
#include "tests/league/pbemd_process.h"

namespace pbem {
namespace {

using namespace pbemd_process;  // NOLINT: Pbemd, Leagues, kAdmin, the organisers' tokens

Reply PostResult(Leagues& l, const std::string& league, const std::string& game,
                 const std::string& body, const std::string& token = kAlphaOrganiser) {
  return l.pbemd.Send("POST", "/v1/leagues/" + league + "/games/" + game + "/result", body, token);
}

// player -> their standings row, over HTTP.
std::map<std::string, Poco::JSON::Object::Ptr> Rows(Leagues& l) {
  Reply r = l.pbemd.Send("GET", "/v1/leagues/alpha/standings");
  REQUIRE(r.status == 200);
  std::map<std::string, Poco::JSON::Object::Ptr> rows;
  Poco::JSON::Array::Ptr list = r.json()->getArray("standings");
  for (unsigned i = 0; i < list->size(); ++i) {
    rows[list->getObject(i)->getValue<std::string>("player")] = list->getObject(i);
  }
  return rows;
}

// The player's rating after the last rated period.
double LastRating(const Poco::JSON::Object::Ptr& row) {
  Poco::JSON::Array::Ptr history = row->getArray("ratingHistory");
  REQUIRE(history->size() > 0);
  return history->getObject(history->size() - 1)->getValue<double>("rating");
}

TEST_CASE("organiser result over HTTP: only the league's organiser, valid fields, its own games") {
  Leagues l;
  const std::string game = l.alpha_games[0];
  const std::string draw = R"({"draw":true})";

  Reply none = PostResult(l, "alpha", game, draw, "");
  CHECK(none.status == 401);
  CHECK(none.error_code() == "unauthenticated");
  Reply other = PostResult(l, "alpha", game, draw, kBetaOrganiser);
  CHECK(other.status == 403);
  CHECK(other.error_code() == "not_organiser");
  const std::string player_token =
      l.Join("alpha", "Dee", "dee@example.org", "en").json()->getValue<std::string>("token");
  CHECK(PostResult(l, "alpha", game, draw, player_token).status == 403);

  // A game of beta is no game of alpha; an unknown game neither.
  Reply beta_game = PostResult(l, "alpha", l.beta_games[0], draw);
  CHECK(beta_game.status == 404);
  CHECK(beta_game.error_code() == "not_in_league");
  CHECK(PostResult(l, "alpha", "alpha-s9-r9-g9", draw).status == 404);

  const std::vector<std::pair<std::string, std::string>> malformed = {
      {"{}", "\"winner\""},
      {R"({"winner":"blue","draw":true})", "\"draw\""},
      {R"({"draw":false})", "\"draw\""},
      {R"({"draw":"yes"})", "\"draw\""},
      {R"({"winner":"green"})", "\"winner\""},
      {R"({"winner":7})", "\"winner\""},
      {R"({"winner":"blue","level":"crushing"})", "\"level\""},
      {R"({"draw":true,"level":"major"})", "\"level\""},
      {R"({"winner":"blue","ending":"abandoned"})", "\"ending\""},
      {R"({"draw":true,"ending":"resigned"})", "\"ending\""},
      {R"({"winner":"blue","reason":"two\nlines"})", "\"reason\""},
      {R"({"winner":"blue","reason":)" + std::string("\"") + std::string(501, 'x') + "\"}",
       "\"reason\""},
      {"not json", ""},
  };
  for (const auto& [body, field] : malformed) {
    INFO(body);
    Reply r = PostResult(l, "alpha", game, body);
    CHECK(r.status == 400);
    CHECK(r.error_code() == "malformed");
    CHECK(r.error_message().find(field) != std::string::npos);
  }
  // Nothing changed: the game runs, its league result is pending.
  Poco::JSON::Object::Ptr g = GameOf(l.Status(), game);
  CHECK_FALSE(g->getValue<bool>("over"));
  CHECK(g->getValue<std::string>("leagueResult") == "pending");
}

TEST_CASE("organiser result over HTTP: ends the game, the round's last starts the next round") {
  Leagues l;
  const std::string first = l.alpha_games[0];
  const std::string second = l.alpha_games[1];

  Reply drawn = PostResult(l, "alpha", first, R"({"draw":true})");
  INFO(drawn.body);
  REQUIRE(drawn.status == 200);
  CHECK(drawn.json()->getValue<bool>("endedGame"));
  CHECK_FALSE(drawn.json()->getValue<bool>("corrected"));
  CHECK_FALSE(drawn.json()->getValue<bool>("roundComplete"));
  CHECK(drawn.json()->isNull("nextRound"));
  Poco::JSON::Object::Ptr g = GameOf(l.Status(), first);
  CHECK(g->getValue<bool>("over"));
  CHECK(g->getValue<std::string>("leagueResult") == "draw");
  // Orders are refused: the game is over.
  Reply orders = l.pbemd.Send("POST", "/v1/games/" + first + "/orders/check",
                              R"({"gameId":")" + first + R"("})", l.GameToken(first, "blue"),
                              "application/json");
  INFO(orders.body);
  CHECK(orders.status != 200);
  CHECK(orders.body.find("game_over") != std::string::npos);

  // Again without a reason: refused, saying so, nothing changed.
  Reply again = PostResult(l, "alpha", first, R"({"winner":"orange"})");
  CHECK(again.status == 409);
  CHECK(again.error_code() == "reason_required");
  CHECK(again.error_message().find("reason") != std::string::npos);
  CHECK(GameOf(l.Status(), first)->getValue<std::string>("leagueResult") == "draw");
  CHECK(GameOf(l.Status(), first)->isNull("winner"));

  // The round's last result: round 2 starts (its two games), the round is rated.
  Reply won = PostResult(l, "alpha", second, R"({"winner":"blue","level":"major"})");
  INFO(won.body);
  REQUIRE(won.status == 200);
  // The game ended, pbemd's league pass may record it before this request does: the answer
  // says what this request did; round 2 starts once either way.
  if (!won.json()->isNull("nextRound")) {
    CHECK(won.json()->getValue<bool>("roundComplete"));
    Poco::JSON::Object::Ptr next = won.json()->getObject("nextRound");
    CHECK(next->getValue<int>("season") == 1);
    CHECK(next->getValue<int>("round") == 2);
    CHECK(next->getArray("games")->size() == 2);
  }
  const auto give_up = Clock::now() + std::chrono::seconds(30);
  while (l.Status().json()->getArray("games")->size() < 4 && Clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(l.Status().json()->getArray("games")->size() == 4);
  const std::string winner = GameOf(l.Status(), second)->getValue<std::string>("blue");
  const std::string loser = GameOf(l.Status(), second)->getValue<std::string>("orange");
  const std::string first_orange = GameOf(l.Status(), first)->getValue<std::string>("orange");
  const std::string first_blue = GameOf(l.Status(), first)->getValue<std::string>("blue");
  {
    auto rows = Rows(l);
    // Round 1 by hand (league_pbemd_test.cc): a win against a 1500 opponent gives 1662.31, a
    // loss 1337.69, a draw keeps 1500.
    CHECK(LastRating(rows[winner]) == Approx(1662.31).margin(0.01));
    CHECK(LastRating(rows[first_orange]) == Approx(1500).margin(0.01));
  }

  SECTION("the same result again with a reason: refused as unchanged") {
    Reply same = PostResult(l, "alpha", first, R"({"draw":true,"reason":"checking"})");
    CHECK(same.status == 409);
    CHECK(same.error_code() == "unchanged");
  }

  SECTION("a correction with a reason: ratings and standings of the corrected history") {
    Reply corrected = PostResult(
        l, "alpha", first, R"({"winner":"orange","reason":"Blue's player conceded by mail"})");
    INFO(corrected.body);
    REQUIRE(corrected.status == 200);
    CHECK(corrected.json()->getValue<bool>("corrected"));
    CHECK(corrected.json()->getValue<int>("reratedPeriods") == 1);
    CHECK(corrected.json()->getValue<int>("mailsQueued") == 4);  // every league player
    Poco::JSON::Object::Ptr g1 = GameOf(l.Status(), first);
    CHECK(g1->getValue<std::string>("leagueResult") == "victory");
    CHECK(g1->getValue<std::string>("winner") == "orange");
    // Ratings do not count points: the corrected game's winner and loser now rate as the
    // other game's, computed from scratch (round 1 by hand).
    auto rows = Rows(l);
    CHECK(LastRating(rows[first_orange]) == Approx(1662.31).margin(0.01));
    CHECK(LastRating(rows[first_blue]) == Approx(1337.69).margin(0.01));
    CHECK(LastRating(rows[first_orange]) == Approx(LastRating(rows[winner])).margin(1e-9));
    CHECK(LastRating(rows[first_blue]) == Approx(LastRating(rows[loser])).margin(1e-9));
    CHECK(rows[first_orange]->getValue<int>("wins") == 1);
    CHECK(rows[first_blue]->getValue<int>("losses") == 1);
  }
}

}  // namespace
}  // namespace pbem
