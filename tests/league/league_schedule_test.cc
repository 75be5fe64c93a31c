// Issue 20: a round robin's schedule is fixed at the season's start, a replacement takes the
// vanished player's seat, finished seasons are history, rounds start in order and the season
// ends with a final table and champion mails. Through SQLite and league::RecordAndAdvance (the
// one path of every result: pbemd's pass and `pbem league result`).
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "daemon/league/league_flow.h"
#include "daemon/league/season.h"
#include "storage/sqlite_repository.h"
#include "tests/support/temp_dir.h"
#include "tests/turn/turn_test_util.h"

namespace pbem::league {
namespace {

namespace fs = std::filesystem;
using storage::Timestamp;

Timestamp At(std::int64_t ms) { return Timestamp(std::chrono::milliseconds(ms)); }

const fs::path kTemplates = fs::path(PBEM_SOURCE_DIR) / "templates/league";

struct Store {
  pbem::testing::TempDir dir{"pbem-league-schedule"};
  storage::SqliteRepository repo{dir.path()};
  daemon::FixedEntropy entropy{"league-schedule"};
  MaterialLoader load = [](const std::string&) -> Result<GameMaterial> {
    const testing::BundledGame& b = testing::Bois();
    return GameMaterial{b.ruleset.proto, b.scenario.proto, b.scenario.scenario};
  };
  Store() { REQUIRE(repo.OpenOrMigrate().ok()); }

  std::vector<storage::LeagueGameRecord> Games(int season, int round) {
    std::vector<storage::LeagueGameRecord> out;
    const auto all = repo.ListLeagueGames("club");
    REQUIRE(all.ok());
    for (const auto& g : *all) {
      if (g.season == season && g.round == round) out.push_back(g);
    }
    return out;
  }
  void AddPlayer(const std::string& name, const std::string& language,
                 const std::string& mail = "") {
    REQUIRE(repo.AddLeaguePlayer({"club", name, mail.empty() ? name + "@example.org" : mail,
                                  "token-" + name, At(10), language})
                .ok());
  }
};

// A scripted result per game, so that the table has wins, draws and losses: blue wins
// (tactical), a draw, orange wins (minor), in turn.
LeagueOutcome Scripted(int i) {
  switch (i % 3) {
    case 0:
      return {Seat::kBlue, WinLevel::kTactical};
    case 1:
      return {std::nullopt, WinLevel::kDraw};
    default:
      return {Seat::kOrange, WinLevel::kMinor};
  }
}

// Everything a table shows, tie-breaks included, as text.
std::string TableText(const std::vector<StandingRow>& rows) {
  std::ostringstream out;
  out.precision(17);
  for (const auto& r : rows) {
    out << (r.rank ? std::to_string(*r.rank) : "-") << ' ' << r.player << ' ' << r.points << ' '
        << r.played << ' ' << r.pending << ' ' << r.wins << '-' << r.draws << '-' << r.losses << ' '
        << r.head_to_head << ' ' << r.sonneborn_berger << ' ' << r.rating << '\n';
  }
  return out.str();
}

TEST_CASE("acceptance: 6-player round robin, a replacement in round 2, a removal after it") {
  Store s;
  LeagueSettings settings;  // round robin, balanced sides, ranked after 4 games
  REQUIRE(s.repo.CreateLeague({"club", "Club", "org", EncodeSettings(settings), At(1)}).ok());
  for (const char* name : {"ana", "bob", "cyd", "dmitri", "eve", "fay"}) s.AddPlayer(name, "en");
  // Hélène joins in French: her champion mail is in French.
  s.AddPlayer("Hélène Dupré", "fr", "helene@example.org");
  REQUIRE(s.repo.RemoveLeaguePlayer("club", "fay").ok());  // before the season: not seated

  auto first = StartRound(s.repo, "club", 1, std::nullopt, s.load, s.entropy, kTemplates, At(100));
  REQUIRE(first.ok());
  CHECK(first->round == 1);
  REQUIRE(first->games.size() == 3);
  // The whole schedule is pinned now: the seats in name order.
  auto seasons = s.repo.ListLeagueSeasons("club");
  REQUIRE(seasons.ok());
  REQUIRE(seasons->size() == 1);
  const std::vector<std::string> seats = {"Hélène Dupré", "ana", "bob", "cyd", "dmitri", "eve"};
  CHECK(seasons->front().seats == seats);

  // Round 2 cannot start while round 1 is played (round_unfinished), nor round 3 before 2.
  for (int round : {2, 3}) {
    StartRefusal refusal = StartRefusal::kNone;
    auto early =
        StartRound(s.repo, "club", 1, round, s.load, s.entropy, kTemplates, At(110), &refusal);
    CHECK(early.status().code() == StatusCode::kFailedPrecondition);
    CHECK(refusal == StartRefusal::kUnfinishedRound);
    CHECK_THAT(early.status().message(), Catch::Contains("round 1 of season 1 of league club is "
                                                         "not finished"));
  }
  CHECK(s.Games(1, 2).empty());

  int played = 0;
  std::optional<FinishedSeason> finished;
  std::map<std::string, Rating> before_round2;
  for (int round = 1; round <= 5; ++round) {
    INFO("round " << round);
    const auto games = s.Games(1, round);
    REQUIRE(games.size() == 3);
    if (round == 2) {
      // dmitri vanishes with his round-2 game unplayed: gustave (French) takes his seat.
      REQUIRE(s.repo
                  .ReplaceLeaguePlayer("dmitri", {"club", "gustave", "gustave@example.org",
                                                  "token-gustave", At(150), "fr"})
                  .ok());
      before_round2 = LatestRatings(*s.repo.RatingHistory("club"), seats, settings.glicko);
    }
    for (std::size_t i = 0; i < games.size(); ++i) {
      const bool last = i + 1 == games.size();
      auto advanced =
          RecordAndAdvance(s.repo, {games[i].game_id, EndKind::kPlayed, Scripted(played++)}, s.load,
                           s.entropy, kTemplates, At(200 * round + i));
      REQUIRE(advanced.ok());
      CHECK(advanced->recorded.round_complete == last);
      CHECK(advanced->next_status.ok());
      // The last result of a round starts the next one, and after round 5 ends the season.
      CHECK(advanced->next.has_value() == (last && round < 5));
      if (advanced->next) CHECK(advanced->next->round == round + 1);
      CHECK(advanced->finished.has_value() == (last && round == 5));
      if (advanced->finished) finished = advanced->finished;
    }
    const auto standings = LoadSeasonStandings(s.repo, "club", settings, 1);
    REQUIRE(standings.ok());
    // "after round N" names completed rounds only: round N+1 has started, is not finished.
    CHECK(CompletedRound(standings->games) == round);
  }
  REQUIRE(finished.has_value());
  CHECK(s.Games(1, 6).empty());

  // Every pair of seats met exactly once: gustave plays dmitri's seat from round 2 on.
  const auto all = s.repo.ListLeagueGames("club");
  REQUIRE(all.ok());
  REQUIRE(all->size() == 15);
  auto seat_of = [](const std::string& p) { return p == "gustave" ? std::string("dmitri") : p; };
  std::map<std::pair<std::string, std::string>, int> met;
  std::map<std::string, std::vector<int>> rounds_of;
  for (const auto& g : *all) {
    ++met[std::minmax(seat_of(g.blue), seat_of(g.orange))];
    rounds_of[g.blue].push_back(static_cast<int>(g.round));
    rounds_of[g.orange].push_back(static_cast<int>(g.round));
    CHECK(g.result != "pending");
  }
  CHECK(met.size() == 15);
  for (const auto& [pair, n] : met) {
    INFO(pair.first << " - " << pair.second);
    CHECK(n == 1);
  }
  // The newcomer's games are his own: rounds 2-5; dmitri keeps his round 1.
  CHECK(rounds_of["dmitri"] == std::vector<int>{1});
  CHECK(rounds_of["gustave"] == std::vector<int>{2, 3, 4, 5});

  // The newcomer's rating is his own: none before round 2, and round 2 rates him from the
  // initial rating against his opponent's rating after round 1 (not dmitri's).
  const auto history = s.repo.RatingHistory("club");
  REQUIRE(history.ok());
  std::vector<storage::RatingRecord> gustave, dmitri;
  for (const auto& r : *history) {
    if (r.player == "gustave") gustave.push_back(r);
    if (r.player == "dmitri") dmitri.push_back(r);
  }
  REQUIRE(gustave.size() == 4);
  CHECK(gustave.front().round == 2);
  REQUIRE(dmitri.size() == 1);
  CHECK(dmitri.front().round == 1);
  // dmitri played a rated game in round 1: inheriting his rating would start below RD 350.
  CHECK(dmitri.front().rd < settings.glicko.initial_rd - 1);
  {
    const auto round2 = s.Games(1, 2);
    std::vector<LeagueGame> games;
    for (const auto& g : round2) games.push_back(FromRecord(g));
    std::map<std::string, Rating> period = before_round2;
    period.erase("dmitri");
    period["gustave"] = InitialRating(settings.glicko);
    const auto expected = RatePeriod(period, RatedGamesOfRound(games, 2), settings.glicko);
    CHECK(gustave.front().rating == Approx(expected.at("gustave").rating).epsilon(1e-9));
    CHECK(gustave.front().rd == Approx(expected.at("gustave").rd).epsilon(1e-9));
  }

  // The final table: both dmitri (1 game) and gustave (4 games) with their own results; the
  // champion is the first ranked player; one mail per league player in their language.
  const auto final_table = LoadSeasonStandings(s.repo, "club", settings, 1);
  REQUIRE(final_table.ok());
  CHECK(final_table->finished);
  CHECK(TableText(final_table->rows) == TableText(finished->table));
  REQUIRE(finished->champion.has_value());
  CHECK(*finished->champion == final_table->rows.front().player);
  CHECK(final_table->rows.front().rank == 1);
  std::map<std::string, int> played_by;
  for (const auto& r : final_table->rows) played_by[r.player] = r.played;
  CHECK(played_by == std::map<std::string, int>{{"Hélène Dupré", 5},
                                                {"ana", 5},
                                                {"bob", 5},
                                                {"cyd", 5},
                                                {"dmitri", 1},
                                                {"eve", 5},
                                                {"gustave", 4}});
  CHECK(finished->mails_enqueued == 6);  // the league's players now (gustave, not dmitri)
  const auto mails = s.repo.DueMail(Timestamp::max(), 1000);
  REQUIRE(mails.ok());
  std::map<std::string, std::string> champion_mail;  // recipient -> subject
  for (const auto& m : *mails) {
    if (m.subject.find("season 1 is over") != std::string::npos ||
        m.subject.find("saison 1 terminée") != std::string::npos) {
      champion_mail[m.recipient] = m.subject;
      CHECK_THAT(m.body, Catch::Contains(*finished->champion));
    }
  }
  REQUIRE(champion_mail.size() == 6);
  CHECK(champion_mail["ana@example.org"] ==
        "Club: season 1 is over: " + *finished->champion + " is the champion");
  CHECK(champion_mail["gustave@example.org"] ==
        "Club\u00a0: saison 1 terminée, " + *finished->champion + " remporte le titre");
  CHECK(champion_mail["helene@example.org"] == champion_mail["gustave@example.org"]);
  CHECK(champion_mail.count("dmitri@example.org") == 0);

  // History: the season cannot end twice, nor get a round 6.
  StartRefusal refusal = StartRefusal::kNone;
  CHECK_FALSE(FinishSeason(s.repo, "club", 1, kTemplates, At(5000), &refusal).ok());
  CHECK(refusal == StartRefusal::kSeasonFinished);
  CHECK_FALSE(
      StartRound(s.repo, "club", 1, 6, s.load, s.entropy, kTemplates, At(5000), &refusal).ok());
  CHECK(refusal == StartRefusal::kSeasonFinished);

  // After the season: bob leaves, ivo joins, season 2 starts and its round 1 is rated. The
  // finished season's table (tie-breaks and ratings included) does not change.
  const std::string season1 = TableText(final_table->rows);
  REQUIRE(s.repo.RemoveLeaguePlayer("club", "bob").ok());
  s.AddPlayer("ivo", "en");
  auto season2 =
      StartRound(s.repo, "club", 2, std::nullopt, s.load, s.entropy, kTemplates, At(6000));
  REQUIRE(season2.ok());
  for (const auto& g : season2->games) {
    CHECK(g.blue != "bob");
    CHECK(g.orange != "bob");
    REQUIRE(RecordAndAdvance(s.repo, {g.game_id, EndKind::kPlayed, Scripted(played++)}, s.load,
                             s.entropy, kTemplates, At(6100))
                .ok());
  }
  CHECK(s.Games(2, 2).size() == 3);  // season 2 goes on
  const auto again = LoadSeasonStandings(s.repo, "club", settings, 1);
  REQUIRE(again.ok());
  CHECK(TableText(again->rows) == season1);
  const std::string table = TableText(again->rows);
  CHECK(table.find("ivo") == std::string::npos);
  CHECK(table.find(" bob ") != std::string::npos);
  // The standings of season 2 list its players, not bob.
  const auto current = LoadSeasonStandings(s.repo, "club", settings, 2);
  REQUIRE(current.ok());
  CHECK(TableText(current->rows).find(" bob ") == std::string::npos);
  CHECK(TableText(current->rows).find(" ivo ") != std::string::npos);
}

TEST_CASE("a seat whose player left without a replacement: the opponent sits the round out") {
  Store s;
  LeagueSettings settings;
  REQUIRE(s.repo.CreateLeague({"club", "Club", "org", EncodeSettings(settings), At(1)}).ok());
  for (const char* name : {"ana", "bob", "cyd", "dan"}) s.AddPlayer(name, "en");
  auto first = StartRound(s.repo, "club", 1, std::nullopt, s.load, s.entropy, kTemplates, At(100));
  REQUIRE(first.ok());
  REQUIRE(s.repo.RemoveLeaguePlayer("club", "dan").ok());
  const auto games = s.Games(1, 1);
  REQUIRE(games.size() == 2);
  std::optional<Advance> last;
  for (std::size_t i = 0; i < games.size(); ++i) {
    auto advanced = RecordAndAdvance(s.repo, {games[i].game_id, EndKind::kPlayed, Scripted(0)},
                                     s.load, s.entropy, kTemplates, At(200 + i));
    REQUIRE(advanced.ok());
    last = *advanced;
  }
  // Round 2 of seats ana, bob, cyd, dan: ana-cyd and dan-bob; dan is gone: one game.
  REQUIRE(last->next.has_value());
  const auto round2 = s.Games(1, 2);
  REQUIRE(round2.size() == 1);
  CHECK(std::minmax(round2[0].blue, round2[0].orange) ==
        std::minmax(std::string("ana"), std::string("cyd")));
}

}  // namespace
}  // namespace pbem::league
