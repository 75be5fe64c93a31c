// The acceptance season of issue 8 THROUGH pbemd: the real pbemd (SQLite, file outbox) on
// loopback; 8 players join over HTTP; the organiser starts the season over HTTP; the game
// tokens come from the players' mails in the outbox; round 1 is decided by scripted
// resignations over HTTP (so its ratings are hand-computed), every later game is played to
// the end by engine::BotOrders submitting orders over HTTP while pbemd resolves the turns,
// records each result, rates each round and starts the next one by itself. Then standings and
// ratings are read over HTTP and checked. Bad input over HTTP gets its error and changes
// nothing.
#include <Poco/Base64Decoder.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/MailMessage.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/StreamCopier.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "daemon/turn/turn_job.h"
#include "engine/morne_plaine/bot.h"
#include "proto/codec/codec.h"
#include "tests/league/pbemd_process.h"
#include "tests/support/http_client.h"
#include "tests/support/temp_dir.h"
#include "tests/turn/turn_test_util.h"

namespace pbem {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

using namespace pbemd_process;  // NOLINT: Pbemd, kAdmin, the outbox readers

constexpr const char* kOrganiser = "organiser-secret-1";

// The game's stored result (GET /v1/games lists it; "" while it is played).
std::string GameResult(const Pbemd& pbemd, const std::string& id) {
  Reply r = pbemd.Send("GET", "/v1/games");
  REQUIRE(r.status == 200);
  Poco::JSON::Array::Ptr games = r.json()->getArray("games");
  for (std::size_t i = 0; i < games->size(); ++i) {
    Poco::JSON::Object::Ptr g = games->getObject(static_cast<unsigned>(i));
    if (g->getValue<std::string>("id") == id) return g->getValue<std::string>("result");
  }
  FAIL("no game " << id);
  return "";
}

Poco::JSON::Object::Ptr Standings(const Pbemd& pbemd) {
  Reply r = pbemd.Send("GET", "/v1/leagues/club/standings");
  REQUIRE(r.status == 200);
  return r.json();
}

std::map<std::string, Poco::JSON::Object::Ptr> RowsByPlayer(const Poco::JSON::Object::Ptr& s) {
  std::map<std::string, Poco::JSON::Object::Ptr> rows;
  Poco::JSON::Array::Ptr list = s->getArray("standings");
  for (std::size_t i = 0; i < list->size(); ++i) {
    Poco::JSON::Object::Ptr row = list->getObject(static_cast<unsigned>(i));
    rows[row->getValue<std::string>("player")] = row;
  }
  return rows;
}

// The default points table written out (daemon/league/README.md): a win by level, a draw 2,
// a loss played or resigned 1.
int HandPoints(const std::string& result, const std::string& winner, const std::string& level,
               const std::string& side) {
  if (result == "draw") return 2;
  if (winner != side) return 1;
  static const std::map<std::string, int> kWin = {
      {"total", 6}, {"major", 5}, {"tactical", 4}, {"minor", 3}};
  return kWin.at(level);
}

TEST_CASE("acceptance: an 8-player season through pbemd, the bot playing every game") {
  testing::TempDir dir("pbem-league-pbemd");
  Pbemd pbemd(dir.path());
  const testing::BundledGame& bois = testing::Bois();

  // --- the organiser creates the league (admin token) ---------------------------------------
  const std::string league_spec =
      R"({"id":"club","name":"Club de la Morne","organiserToken":")" + std::string(kOrganiser) +
      R"(","scenarios":["bois-de-la-morne"],"pairing":"round_robin","bothSides":false,)"
      R"("turnTimeoutSeconds":0,"language":"en"})";
  Reply refused = pbemd.Send("POST", "/v1/leagues", league_spec, "not-the-admin");
  CHECK(refused.status == 403);
  CHECK(refused.error_code() == "forbidden");
  CHECK(pbemd.Send("GET", "/v1/leagues/club").status == 404);
  Reply created = pbemd.Send("POST", "/v1/leagues", league_spec, kAdmin);
  REQUIRE(created.status == 201);
  CHECK(created.json()->getObject("settings")->getValue<int>("rankAfter") == 4);
  CHECK(pbemd.Send("POST", "/v1/leagues", league_spec, kAdmin).error_code() == "already_exists");
  Reply bad_scenario = pbemd.Send("POST", "/v1/leagues",
                                  R"({"id":"other","scenarios":["no-such-scenario"]})", kAdmin);
  CHECK(bad_scenario.status == 400);
  CHECK(bad_scenario.error_code() == "unknown_scenario");

  // --- 8 players join over HTTP (p3 and p6 in French) -----------------------------------------
  std::map<std::string, std::string> league_tokens;
  for (int i = 1; i <= 8; ++i) {
    const std::string name = "p" + std::to_string(i);
    const std::string language = (i == 3 || i == 6) ? "fr" : "en";
    Reply joined = pbemd.Send("POST", "/v1/leagues/club/players",
                              R"({"name":")" + name + R"(","email":")" + name +
                                  R"(@example.org","language":")" + language + R"("})");
    REQUIRE(joined.status == 201);
    league_tokens[name] = joined.json()->getValue<std::string>("token");
  }
  auto player_count = [&] {
    return pbemd.Send("GET", "/v1/leagues/club").json()->getArray("players")->size();
  };
  REQUIRE(player_count() == 8);

  SECTION("bad input over HTTP: a clear error, nothing changed") {
    Reply twice = pbemd.Send("POST", "/v1/leagues/club/players",
                             R"({"name":"p1","email":"other@example.org"})");
    CHECK(twice.status == 409);
    CHECK(twice.error_code() == "already_joined");
    CHECK(twice.error_message() == "player \"p1\" is in league \"club\" already");
    Reply same_address =
        pbemd.Send("POST", "/v1/leagues/club/players", R"({"name":"p9","email":"p1@example.org"})");
    CHECK(same_address.error_code() == "already_joined");
    // Addresses compare without case (mail intake lower-cases senders).
    Reply same_address_upper =
        pbemd.Send("POST", "/v1/leagues/club/players", R"({"name":"p9","email":"P1@Example.ORG"})");
    CHECK(same_address_upper.status == 409);
    CHECK(same_address_upper.error_code() == "already_joined");
    CHECK(same_address_upper.error_message() ==
          "the address p1@example.org is in league \"club\" already");
    Reply unknown =
        pbemd.Send("POST", "/v1/leagues/nope/players", R"({"name":"p9","email":"p9@example.org"})");
    CHECK(unknown.status == 404);
    CHECK(unknown.error_code() == "unknown_league");
    CHECK(unknown.error_message() == "there is no league \"nope\"");
    CHECK(pbemd.Send("GET", "/v1/leagues/nope/standings").error_code() == "unknown_league");
    CHECK(pbemd.Send("POST", "/v1/leagues/nope/start", "{}", kOrganiser).error_code() ==
          "unknown_league");
    Reply bad_language = pbemd.Send("POST", "/v1/leagues/club/players",
                                    R"({"name":"p9","email":"p9@example.org","language":"de"})");
    CHECK(bad_language.error_code() == "malformed");
    CHECK(player_count() == 8);

    // A player (with their league token) is not the organiser; nor is no token at all.
    Reply by_player = pbemd.Send("POST", "/v1/leagues/club/start", "{}", league_tokens["p1"]);
    CHECK(by_player.status == 403);
    CHECK(by_player.error_code() == "not_organiser");
    CHECK(by_player.error_message() == "only the organiser of league \"club\" may start a season");
    CHECK(pbemd.Send("POST", "/v1/leagues/club/start", "{}").status == 401);
    CHECK(Standings(pbemd)->getArray("games")->size() == 0);
    CHECK(pbemd.Send("GET", "/v1/games").json()->getArray("games")->size() == 0);
  }

  SECTION("the season, played to the end") {
    Reply started = pbemd.Send("POST", "/v1/leagues/club/start", R"({"season":1})", kOrganiser);
    REQUIRE(started.status == 201);
    REQUIRE(started.json()->getValue<int>("round") == 1);
    Poco::JSON::Array::Ptr round1 = started.json()->getArray("games");
    REQUIRE(round1->size() == 4);
    // A round starts once the previous one is over (round_unfinished), in order: nothing
    // created. Round 2 starts by itself when round 1 ends.
    for (const char* body : {R"({"round":2})", R"({"round":3})"}) {
      Reply early = pbemd.Send("POST", "/v1/leagues/club/start", body, kOrganiser);
      CHECK(early.status == 409);
      CHECK(early.error_code() == "round_unfinished");
      CHECK_THAT(early.error_message(),
                 Catch::Contains("round 1 of season 1 of league club is not finished"));
    }
    CHECK(Standings(pbemd)->getArray("games")->size() == 4);
    // Nor can a season end while its games are played.
    CHECK(pbemd.Send("POST", "/v1/leagues/club/end", "{}", kOrganiser).error_code() ==
          "round_unfinished");
    CHECK(pbemd.Send("POST", "/v1/leagues/club/start", R"({"round":1})", kOrganiser).error_code() ==
          "round_started");

    // The tokens come by mail (the file outbox), in each player's language.
    std::map<std::pair<std::string, std::string>, std::string> tokens;
    for (int i = 0; i < 200 && tokens.size() < 8; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      tokens = Tokens(pbemd.outbox());
    }
    REQUIRE(tokens.size() == 8);
    std::set<std::string> french_subjects;
    for (const Mail& m : ReadOutbox(pbemd.outbox())) {
      if (m.to != "p3@example.org") continue;
      // A long subject is folded between encoded words: read it with single spaces.
      std::string subject;
      for (const char c : m.subject) {
        if (c != ' ' || subject.empty() || subject.back() != ' ') subject += c;
      }
      french_subjects.insert(subject);
    }
    std::string listed;
    for (const std::string& s : french_subjects) listed += "[" + s + "]";
    INFO(listed);
    // One game a round each: "votre partie", singular.
    CHECK(french_subjects.count("Club de la Morne\u00a0: votre partie de la ronde 1, saison 1") ==
          1);

    // Round 1 by scripted resignations: in games 1 and 3 orange resigns, in 2 and 4 blue.
    std::map<std::string, std::string> winner_of;  // player -> "won" / "lost"
    for (unsigned i = 0; i < round1->size(); ++i) {
      Poco::JSON::Object::Ptr g = round1->getObject(i);
      const std::string game = g->getValue<std::string>("game");
      const std::string resigning = i % 2 == 0 ? "orange" : "blue";
      const std::string other = resigning == "blue" ? "orange" : "blue";
      if (i == 0) {
        // Someone else's game: a token of game 2 does not resign game 1.
        const std::string game2 = round1->getObject(1)->getValue<std::string>("game");
        Reply not_mine =
            pbemd.Send("POST", "/v1/games/" + game + "/resign", "", tokens.at({game2, "blue"}));
        CHECK(not_mine.status == 403);
        CHECK(not_mine.error_code() == "not_a_player");
        CHECK(GameResult(pbemd, game).empty());
        CHECK(GameResult(pbemd, game2).empty());
      }
      Reply resigned =
          pbemd.Send("POST", "/v1/games/" + game + "/resign", "", tokens.at({game, resigning}));
      REQUIRE(resigned.status == 200);
      CHECK(resigned.json()->getValue<std::string>("result") ==
            other + " wins: " + resigning + " resigned");
      CHECK(GameResult(pbemd, game) == other + " wins: " + resigning + " resigned");
      CHECK(pbemd.Send("POST", "/v1/games/" + game + "/resign", "", tokens.at({game, other}))
                .error_code() == "game_over");
      winner_of[g->getValue<std::string>(other)] = "won";
      winner_of[g->getValue<std::string>(resigning)] = "lost";
    }
    REQUIRE(winner_of.size() == 8);

    // Round 1 by hand (glicko2_test.cc has the arithmetic): each player met one 1500/350/0.06
    // opponent: the winner goes to 1662.31, the loser to 1337.69, both RD 290.32. Points: a
    // resignation gives the winner the total victory (6), the loser 1.
    {
      auto rows = RowsByPlayer(Standings(pbemd));
      REQUIRE(rows.size() == 8);
      for (const auto& [player, outcome] : winner_of) {
        INFO(player);
        Poco::JSON::Array::Ptr history = rows[player]->getArray("ratingHistory");
        REQUIRE(history->size() == 1);
        Poco::JSON::Object::Ptr r1 = history->getObject(0);
        CHECK(r1->getValue<int>("round") == 1);
        CHECK(r1->getValue<double>("rating") ==
              Approx(outcome == "won" ? 1662.31 : 1337.69).margin(0.01));
        CHECK(r1->getValue<double>("rd") == Approx(290.32).margin(0.01));
        CHECK(rows[player]->getValue<int>("points") == (outcome == "won" ? 6 : 1));
        CHECK(rows[player]->getValue<int>("played") == 1);
        CHECK(rows[player]->getValue<int>("pending") == 1);  // round 2
        CHECK(rows[player]->isNull("rank"));                 // ranked after 4 games
      }
    }

    // Rounds 2-7: the bot plays every game over HTTP; pbemd resolves, records, rates and
    // starts each next round itself.
    std::set<std::string> submitted;  // game/turnsCommitted already answered
    std::uint64_t seed = 7;
    const auto give_up = Clock::now() + std::chrono::seconds(400);
    int games_seen = 0;
    for (;;) {
      REQUIRE(Clock::now() < give_up);
      Poco::JSON::Object::Ptr standings = Standings(pbemd);
      Poco::JSON::Array::Ptr games = standings->getArray("games");
      games_seen = static_cast<int>(games->size());
      bool pending = false;
      bool acted = false;
      for (unsigned i = 0; i < games->size(); ++i) {
        Poco::JSON::Object::Ptr g = games->getObject(i);
        if (g->getValue<std::string>("result") != "pending") continue;
        pending = true;
        const std::string id = g->getValue<std::string>("game");
        Reply meta = pbemd.Send("GET", "/v1/games/" + id);
        REQUIRE(meta.status == 200);
        Reply raw = pbemd.Send("GET", "/v1/games/" + id, "", "", "", "application/x-protobuf");
        REQUIRE(raw.status == 200);
        pbem::v1::GameState proto;
        REQUIRE(proto.ParseFromString(raw.body));
        auto state = codec::StateFromProto(proto, bois.scenario.scenario);
        REQUIRE(state.ok());
        if (state.value().finished) continue;  // pbemd records it at its next pass
        const std::string key =
            id + "/" + std::to_string(meta.json()->getValue<int>("turnsCommitted"));
        if (submitted.count(key)) continue;
        const std::string side(engine::SideName(state.value().side_to_move));
        // The mails go out one by one: this side's may not be written yet.
        if (tokens.count({id, side}) == 0) tokens = Tokens(pbemd.outbox());
        if (tokens.count({id, side}) == 0) continue;
        const engine::Orders orders =
            engine::BotOrders(bois.ruleset.ruleset, bois.scenario.scenario, state.value(), seed++);
        Reply sent =
            pbemd.Send("POST", "/v1/games/" + id + "/orders",
                       codec::SerializeMessage(codec::OrdersToProto(orders, bois.scenario.scenario),
                                               codec::Format::kBinary),
                       tokens.at({id, side}), "application/x-protobuf");
        INFO(sent.body);
        REQUIRE(sent.status == 200);
        submitted.insert(key);
        acted = true;
      }
      if (!pending && games_seen == 28) break;
      if (!acted) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }

    // The final table: every player played 7 games; points as the hand table gives them from
    // each recorded result; 7 rated rounds, a rating history of 7 periods each.
    Poco::JSON::Object::Ptr final_standings = Standings(pbemd);
    CHECK(final_standings->getValue<int>("ratedRounds") == 7);
    std::map<std::string, int> hand_points;
    Poco::JSON::Array::Ptr games = final_standings->getArray("games");
    REQUIRE(games->size() == 28);
    std::set<std::pair<std::string, std::string>> pairings;
    for (unsigned i = 0; i < games->size(); ++i) {
      Poco::JSON::Object::Ptr g = games->getObject(i);
      const std::string result = g->getValue<std::string>("result");
      const std::string winner = g->optValue<std::string>("winner", "");
      const std::string level = g->optValue<std::string>("level", "");
      const std::string blue = g->getValue<std::string>("blue");
      const std::string orange = g->getValue<std::string>("orange");
      CHECK((g->getValue<int>("round") == 1 ? result == "resigned"
                                            : (result == "victory" || result == "draw")));
      hand_points[blue] += HandPoints(result, winner, level, "blue");
      hand_points[orange] += HandPoints(result, winner, level, "orange");
      pairings.insert(std::minmax(blue, orange));
    }
    CHECK(pairings.size() == 28);  // everyone met everyone once
    auto rows = RowsByPlayer(final_standings);
    int previous_points = 1000;
    Poco::JSON::Array::Ptr ordered = final_standings->getArray("standings");
    for (unsigned i = 0; i < ordered->size(); ++i) {
      Poco::JSON::Object::Ptr row = ordered->getObject(i);
      const std::string player = row->getValue<std::string>("player");
      INFO(player);
      CHECK(row->getValue<int>("played") == 7);
      CHECK(row->getValue<int>("pending") == 0);
      CHECK(row->getValue<int>("points") == hand_points[player]);
      CHECK(row->getValue<int>("rank") == static_cast<int>(i) + 1);
      CHECK(row->getValue<int>("points") <= previous_points);
      previous_points = row->getValue<int>("points");
      CHECK(row->getArray("ratingHistory")->size() == 7);
    }

    // The standings page in both languages, linking each game's archive page.
    Reply page = pbemd.Send("GET", "/v1/leagues/club/standings.html?lang=fr");
    CHECK(page.status == 200);
    CHECK_THAT(page.body, Catch::Contains("lang=\"fr\""));
    CHECK_THAT(page.body, Catch::Contains("href=\"/v1/games/club-s1-r7-g4/archive/index.html\""));
    // A round-1 game's archive page (resigned before any turn: cheap to build) is served there.
    const std::string first_game = round1->getObject(0)->getValue<std::string>("game");
    Reply archive = pbemd.Send("GET", "/v1/games/" + first_game + "/archive/index.html");
    CHECK(archive.status == 200);
    CHECK_THAT(archive.body, Catch::Contains(first_game));
    CHECK(pbemd.Send("GET", "/v1/leagues/club/standings.html?lang=de").error_code() == "malformed");
    // A standings mail per player and round (7 x 8), French for p3.
    int standings_mails = 0, french = 0;
    for (int i = 0; i < 100 && standings_mails < 56; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      standings_mails = french = 0;
      for (const Mail& m : ReadOutbox(pbemd.outbox())) {
        if (m.subject.find("standings after round") != std::string::npos ||
            m.subject.find("classement après la ronde") != std::string::npos) {
          ++standings_mails;
          if (m.to == "p3@example.org") {
            CHECK_THAT(m.subject, Catch::Contains("classement"));
            ++french;
          }
        }
      }
    }
    CHECK(standings_mails == 56);
    CHECK(french == 7);

    // After round 7 the season ended by itself: the table is final, and every player got the
    // champion mail in their language (p3 and p6 in French).
    // The season ends in the pass that rates round 7, maybe just after the standings above
    // were read: wait for it (bounded), then the table is final.
    bool finished = false;
    for (int i = 0; i < 600 && !finished; ++i) {
      finished = Standings(pbemd)->getValue<bool>("finished");
      if (!finished) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    CHECK(finished);
    const std::string champion = ordered->getObject(0)->getValue<std::string>("player");
    // Subjects as a reader sees them: blanks (a header folded between encoded words, the
    // French non-breaking space) read as one space.
    auto plain = [](const std::string& text) {
      std::string out;
      for (std::size_t i = 0; i < text.size(); ++i) {
        const bool nbsp = text.compare(i, 2, "\u00a0") == 0;
        if (nbsp || text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n') {
          if (!out.empty() && out.back() != ' ') out += ' ';
          if (nbsp) ++i;
        } else {
          out += text[i];
        }
      }
      return out;
    };
    int champion_mails = 0;
    std::string season_end_subjects;
    for (int i = 0; i < 120 && champion_mails < 8; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      champion_mails = 0;
      season_end_subjects.clear();
      for (const Mail& m : ReadOutbox(pbemd.outbox())) {
        const std::string subject = plain(m.subject);
        if (subject.find("season 1 is over") == std::string::npos &&
            subject.find("saison 1 termin") == std::string::npos) {
          continue;
        }
        season_end_subjects += "[" + m.to + ": " + subject + "]";
        const bool reads_french = m.to == "p3@example.org" || m.to == "p6@example.org";
        // plain() read the no-break space before ':' as a space.
        if (reads_french &&
            subject == "Club de la Morne : saison 1 terminée, " + champion + " remporte le titre") {
          ++champion_mails;
        }
        if (!reads_french &&
            subject == "Club de la Morne: season 1 is over: " + champion + " is the champion") {
          ++champion_mails;
        }
      }
    }
    INFO("champion " << champion << "; season-end mails: " << season_end_subjects);
    CHECK(champion_mails == 8);
    // Ended once: again is refused; a player may not end it.
    Reply again = pbemd.Send("POST", "/v1/leagues/club/end", R"({"season":1})", kOrganiser);
    CHECK(again.status == 409);
    CHECK(again.error_code() == "season_finished");
    CHECK(pbemd.Send("POST", "/v1/leagues/club/end", "{}", league_tokens["p1"]).status == 403);
  }
  INFO(pbemd.Log());
  CHECK(pbemd.Stop() == 0);
}

TEST_CASE("a forfeit after missed turns flows into the league through pbemd") {
  // Turns time out after 1 s and a player forfeits after 2 missed turns: nobody plays, so blue
  // misses turn 1, orange misses, blue misses again and forfeits.
  testing::TempDir dir("pbem-league-forfeit");
  Pbemd pbemd(dir.path(), {"-Dpbemd.turns.forfeit_after_missed=2"});
  REQUIRE(pbemd
              .Send("POST", "/v1/leagues",
                    R"({"id":"duel","organiserToken":")" + std::string(kOrganiser) +
                        R"(","turnTimeoutSeconds":1})",
                    kAdmin)
              .status == 201);
  for (const char* name : {"ann", "bob"}) {
    REQUIRE(pbemd
                .Send("POST", "/v1/leagues/duel/players",
                      std::string(R"({"name":")") + name + R"(","email":")" + name +
                          R"(@example.org"})")
                .status == 201);
  }
  Reply started = pbemd.Send("POST", "/v1/leagues/duel/start", "", kOrganiser);
  REQUIRE(started.status == 201);
  Poco::JSON::Object::Ptr game = started.json()->getArray("games")->getObject(0);
  const std::string blue = game->getValue<std::string>("blue");
  const std::string orange = game->getValue<std::string>("orange");
  const std::string id = game->getValue<std::string>("game");

  Poco::JSON::Object::Ptr standings;
  const auto give_up = Clock::now() + std::chrono::seconds(30);
  for (;;) {
    REQUIRE(Clock::now() < give_up);
    Reply r = pbemd.Send("GET", "/v1/leagues/duel/standings");
    REQUIRE(r.status == 200);
    standings = r.json();
    if (standings->getValue<int>("ratedRounds") == 1) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  Poco::JSON::Object::Ptr g = standings->getArray("games")->getObject(0);
  CHECK(g->getValue<std::string>("result") == "forfeit");
  CHECK(g->getValue<std::string>("winner") == "orange");
  CHECK(GameResult(pbemd, id) == "orange wins: blue forfeited after missing 2 turns");
  // By hand: a forfeit win scores 3, a forfeit loss 0; a forfeit is not rated, so both RDs
  // only grow for the idle period: sqrt(350^2 + (0.06 * 173.7178)^2) = 350.155.
  auto rows = RowsByPlayer(standings);
  CHECK(rows[orange]->getValue<int>("points") == 3);
  CHECK(rows[blue]->getValue<int>("points") == 0);
  for (const auto& name : {blue, orange}) {
    Poco::JSON::Array::Ptr history = rows[name]->getArray("ratingHistory");
    REQUIRE(history->size() == 1);
    CHECK(history->getObject(0)->getValue<double>("rating") == Approx(1500).margin(1e-9));
    CHECK(history->getObject(0)->getValue<double>("rd") == Approx(350.155).margin(0.001));
  }
  INFO(pbemd.Log());
  CHECK(pbemd.Stop() == 0);
}

}  // namespace
}  // namespace pbem
