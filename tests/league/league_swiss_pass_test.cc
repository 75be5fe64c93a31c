// A Swiss season run by pbemd's league pass (RecordLeagueResults) on a real SQLite store:
// 6 players, swiss_rounds 3. The organiser starts round 1; every later round is started by
// the pass when the round before completes, paired from the standings at that moment; no
// pair meets twice; after round 3 the season stops (no round 4, and starting one is refused).
// Results are scripted resignations: in every game the player whose name sorts first wins.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "daemon/league_api.h"
#include "tests/daemon/game_fixture.h"
#include "tests/daemon/test_support.h"

namespace pbem::daemon {
namespace {

using testing::At;

struct Season {
  testing::GameFixture fixture;
  LeagueServices services;
  SystemEntropy entropy;
  league::LeagueSettings settings;
  std::vector<std::string> names = {"ana", "ben", "cy", "dora", "eli", "fay"};

  Season() {
    services.catalog = &fixture.catalog;
    services.entropy = &entropy;
    services.template_dir = testing::SourceDir() / "templates" / "league";
    settings.pairing = league::PairingSystem::kSwiss;
    settings.swiss_rounds = 3;
    REQUIRE(fixture.repository
                .CreateLeague({"swiss", "Swiss", "org", league::EncodeSettings(settings), At(1)})
                .ok());
    for (const std::string& name : names) {
      REQUIRE(fixture.repository
                  .AddLeaguePlayer({"swiss", name, name + "@test.local", "tok-" + name, At(2)})
                  .ok());
    }
  }
  LeagueAnswer Start() {
    LeagueRequest request{"POST", {"leagues", "swiss", "start"}, "org", "", "", ""};
    return HandleLeagueRequest(services, request, fixture.repository, fixture.repository, At(3));
  }
  std::vector<storage::LeagueGameRecord> Games() {
    auto games = fixture.repository.ListLeagueGames("swiss");
    REQUIRE(games.ok());
    return *games;
  }
  std::vector<storage::LeagueGameRecord> Round(int round) {
    std::vector<storage::LeagueGameRecord> out;
    for (const auto& g : Games()) {
      if (g.round == round) out.push_back(g);
    }
    return out;
  }
  // The game ends: the player whose name sorts later resigns.
  void Resign(const storage::LeagueGameRecord& g, storage::Timestamp at) {
    const league::Seat loser = g.blue < g.orange ? league::Seat::kOrange : league::Seat::kBlue;
    Result<storage::Game> game = fixture.repository.GetGame(g.game_id);
    REQUIRE(game.ok());
    Result<bool> ended = fixture.repository.EndGame(g.game_id, game->turns_committed,
                                                    league::ResignationEnding(loser), at, {});
    REQUIRE(ended.ok());
    REQUIRE(*ended);
  }
  // Every game of `round` still pending ends so.
  void Resign(int round, storage::Timestamp at) {
    for (const auto& g : Round(round)) {
      if (g.result == "pending") Resign(g, at);
    }
  }
  LeaguePass Pass(storage::Timestamp at) {
    Result<LeaguePass> pass =
        RecordLeagueResults(services, fixture.repository, fixture.repository, at, nullptr);
    REQUIRE(pass.ok());
    return *pass;
  }
  // The pairing the standings give for `round` now (the season's games of earlier rounds).
  league::Round Expected(int round) {
    std::vector<league::LeagueGame> earlier;
    for (const auto& g : Games()) {
      if (g.round < round) earlier.push_back(league::FromRecord(g));
    }
    auto history = fixture.repository.RatingHistory("swiss");
    REQUIRE(history.ok());
    Result<league::Round> paired = league::PairSwissRound(
        names, earlier, league::LatestRatings(*history, names, settings.glicko), settings, round);
    REQUIRE(paired.ok());
    return *paired;
  }
};

std::map<std::string, int> Wins(const std::vector<storage::LeagueGameRecord>& games) {
  std::map<std::string, int> wins;
  for (const auto& g : games) {
    if (g.winner == "blue") ++wins[g.blue];
    if (g.winner == "orange") ++wins[g.orange];
  }
  return wins;
}

TEST_CASE("a Swiss season: the pass starts rounds 2 and 3 and stops after the last") {
  Season s;
  LeagueAnswer started = s.Start();
  REQUIRE(started.status == 201);
  REQUIRE(s.Round(1).size() == 3);

  // Round 1 half played: the pass records, starts nothing.
  s.Resign(s.Round(1)[0], At(10));
  LeaguePass pass = s.Pass(At(11));
  CHECK(pass.recorded == 1);
  CHECK(pass.rounds_started == 0);
  CHECK(s.Round(2).empty());

  for (int round = 1; round <= 3; ++round) {
    INFO("round " << round);
    s.Resign(round, At(100 * round));
    pass = s.Pass(At(100 * round + 1));
    CHECK(pass.failures == 0);
    CHECK(pass.recorded == (round == 1 ? 2 : 3));
    if (round < 3) {
      CHECK(pass.rounds_started == 1);
      const auto created = s.Round(round + 1);
      REQUIRE(created.size() == 3);
      // The pairing the standings give once this round is over (ratings of this round too).
      const league::Round next = s.Expected(round + 1);
      REQUIRE(next.games.size() == 3);
      for (std::size_t i = 0; i < created.size(); ++i) {
        CHECK(created[i].result == "pending");
        CHECK(created[i].blue == next.games[i].blue);
        CHECK(created[i].orange == next.games[i].orange);
      }
      if (round == 1) {
        // Paired by score: after round 1, 3 winners and 3 losers, so exactly one game of
        // round 2 pairs a winner with a loser.
        std::map<std::string, int> wins = Wins(s.Round(1));
        int crossing = 0;
        for (const auto& g : created) crossing += wins[g.blue] != wins[g.orange];
        CHECK(crossing == 1);
      }
    } else {
      CHECK(pass.rounds_started == 0);
    }
  }

  // The season: 9 games in 3 rounds, all recorded, no pair twice; no round 4.
  const auto games = s.Games();
  CHECK(games.size() == 9);
  std::set<std::pair<std::string, std::string>> pairs;
  for (const auto& g : games) {
    CHECK(g.result == "resigned");
    CHECK(g.round >= 1);
    CHECK(g.round <= 3);
    pairs.insert(std::minmax(g.blue, g.orange));
  }
  CHECK(pairs.size() == 9);
  CHECK(s.Pass(At(1000)).recorded == 0);
  CHECK(s.Round(4).empty());
  // Ana won every game, fay lost every game (the script: the first name wins).
  std::map<std::string, int> wins = Wins(games);
  CHECK(wins["ana"] == 3);
  CHECK(wins["fay"] == 0);
  // The organiser cannot start a round 4 either: the season has 3 Swiss rounds.
  LeagueAnswer fourth = s.Start();
  CHECK(fourth.status == 409);
  CHECK_THAT(fourth.body, Catch::Contains("not_in_schedule") && Catch::Contains("3 Swiss rounds"));
  CHECK(s.Round(4).empty());
}

}  // namespace
}  // namespace pbem::daemon
