// Results recorded by the organiser (issue 20, point 3): recording ends the game; recording
// again is a correction with a reason, and the standings and ratings after it are those of the
// corrected history computed from scratch.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "daemon/game_catalog.h"
#include "daemon/league/correction.h"
#include "daemon/league/league_flow.h"
#include "daemon/league/organiser.h"
#include "daemon/turn/turn_job.h"
#include "storage/sqlite_repository.h"
#include "tests/support/temp_dir.h"
#include "tests/turn/turn_test_util.h"

namespace pbem::league {
namespace {

namespace fs = std::filesystem;
using storage::Timestamp;

Timestamp At(std::int64_t ms) { return Timestamp(std::chrono::milliseconds(ms)); }

const fs::path kTemplates = fs::path(PBEM_SOURCE_DIR) / "templates/league";

// The games' positions from the ruleset and scenario pinned in them, as `pbem league` reads
// them.
struct Store {
  pbem::testing::TempDir dir{"pbem-correction"};
  storage::SqliteRepository repo{dir.path()};
  daemon::GameCatalog catalog{fs::path(PBEM_SOURCE_DIR) / "engine/scenarios",
                              fs::path(PBEM_SOURCE_DIR) / "engine/rulesets"};
  PositionReader positions = CatalogPositions(catalog, /*pinned=*/true);
  Store() { REQUIRE(repo.OpenOrMigrate().ok()); }
};

const std::vector<std::string> kPlayers = {"ann", "bob", "cid", "dan"};

// A league of four (cid reads French) whose games exist as real games with their players.
void SetUp(Store& s) {
  REQUIRE(s.repo.CreateLeague({"club", "Club", "org", EncodeSettings({}), At(1)}).ok());
  for (const auto& n : kPlayers) {
    REQUIRE(s.repo
                .AddLeaguePlayer(
                    {"club", n, n + "@example.org", "token-" + n, At(10), n == "cid" ? "fr" : "en"})
                .ok());
  }
}

// Creates round `round` of the round robin: its games running, with their players, stored as
// the league's games (as StartRound does). Returns their records.
std::vector<storage::LeagueGameRecord> CreateRound(Store& s, int round) {
  const testing::BundledGame& b = testing::Bois();
  auto rounds = RoundRobin(kPlayers, SideRule::kBalanced);
  REQUIRE(rounds.ok());
  const Round& r = (*rounds)[static_cast<std::size_t>(round - 1)];
  std::vector<storage::NewGameWithPlayers> games;
  std::vector<storage::LeagueGameRecord> records;
  for (std::size_t i = 0; i < r.games.size(); ++i) {
    const Pairing& p = r.games[i];
    const std::string id = "r" + std::to_string(round) + "-g" + std::to_string(i + 1);
    storage::NewGameWithPlayers game{
        daemon::MakeNewGame(b.ruleset.proto, b.scenario.proto, b.scenario.scenario, id, At(100)),
        {}};
    for (const auto& [side, player] : {std::pair{"blue", p.blue}, std::pair{"orange", p.orange}}) {
      game.players.push_back(
          {id, side, player + "@example.org", "t-" + id + side, player == "cid" ? "fr" : "en"});
    }
    games.push_back(std::move(game));
    LeagueGame g;
    g.game_id = id;
    g.round = round;
    g.blue = p.blue;
    g.orange = p.orange;
    records.push_back(ToRecord(g, "club", 1));
  }
  REQUIRE(s.repo.AddLeagueRound(games, records, {}).ok());
  return records;
}

GameEnd Win(const std::string& game, Seat winner, WinLevel level) {
  return GameEnd{game, EndKind::kPlayed, {winner, level}};
}
GameEnd Draw(const std::string& game) { return GameEnd{game, EndKind::kPlayed, {}}; }

// The season's results by game id; `ends` maps a game id to how the organiser records it.
using Script = std::map<std::string, GameEnd>;

Script SeasonScript() {
  using Side = Seat;
  using VictoryLevel = WinLevel;
  return {{"r1-g1", Win("r1-g1", Side::kBlue, VictoryLevel::kMajor)},
          {"r1-g2", Draw("r1-g2")},
          {"r2-g1", Win("r2-g1", Side::kOrange, VictoryLevel::kMinor)},
          {"r2-g2", Win("r2-g2", Side::kBlue, VictoryLevel::kTotal)},
          {"r3-g1", Draw("r3-g1")},
          {"r3-g2", Win("r3-g2", Side::kOrange, VictoryLevel::kTactical)}};
}

// Plays the whole season (3 rounds) with the organiser recording every result.
void PlaySeason(Store& s, const Script& script) {
  for (int round = 1; round <= 3; ++round) {
    for (const auto& record : CreateRound(s, round)) {
      Result<OrganiserRecord> done = RecordOrganiserResult(
          s.repo, s.repo, s.positions, script.at(record.game_id), "", kTemplates, At(1000 * round));
      INFO(record.game_id << ": " << done.status().ToString());
      REQUIRE(done.ok());
      CHECK(done->ended_game);
      CHECK_FALSE(done->corrected);
    }
  }
}

// Each stored rating as (player, round, rating), to compare histories.
std::vector<std::tuple<std::string, std::int64_t, double>> Ratings(
    const std::vector<storage::RatingRecord>& history) {
  std::vector<std::tuple<std::string, std::int64_t, double>> out;
  for (const auto& r : history) out.emplace_back(r.player, r.round, r.rating);
  return out;
}

std::vector<storage::NewMail> Outbox(Store& s) {
  std::vector<storage::NewMail> out;
  const auto due = s.repo.DueMail(Timestamp::max(), 1000);  // kept: *temporary would dangle
  REQUIRE(due.ok());
  for (const auto& m : due.value()) {
    out.push_back({m.recipient, m.subject, m.body, {}, m.next_try});
  }
  return out;
}

TEST_CASE("an organiser's result for a game the rules ended is recorded, the game left as it is") {
  Store s;
  SetUp(s);
  const auto round = CreateRound(s, 1);
  // Where the game stands comes from its system (the PositionReader), not from decoding the
  // stored state here: a reader saying the rules ended it ...
  const PositionReader finished = [](const storage::Game&) -> Result<GamePosition> {
    return GamePosition{{9, "orange"}, true};
  };
  Result<OrganiserRecord> done = RecordOrganiserResult(
      s.repo, s.repo, finished, Draw(round[0].game_id), "", kTemplates, At(500));
  REQUIRE(done.ok());
  CHECK_FALSE(done->ended_game);
  CHECK(done->mails_enqueued == 0);
  Result<storage::Game> game = s.repo.GetGame(round[0].game_id);
  REQUIRE(game.ok());
  CHECK_FALSE(game->ending.has_value());
  CHECK(game->result.empty());
  // ... and one that cannot read the state: the game counts as running, the result ends it.
  const PositionReader broken = [](const storage::Game&) -> Result<GamePosition> {
    return Status::Internal("the stored state is not a pbem.v1.GameState");
  };
  Result<OrganiserRecord> ended = RecordOrganiserResult(
      s.repo, s.repo, broken, Draw(round[1].game_id), "", kTemplates, At(600));
  REQUIRE(ended.ok());
  CHECK(ended->ended_game);
  CHECK(s.repo.GetGame(round[1].game_id)->ending.has_value());
}

TEST_CASE("an organiser's result ends the game: its ending, the players told, no more orders") {
  Store s;
  SetUp(s);
  const auto round = CreateRound(s, 1);
  const std::string id = round[0].game_id;
  Result<OrganiserRecord> done =
      RecordOrganiserResult(s.repo, s.repo, s.positions, Draw(id), "", kTemplates, At(500));
  REQUIRE(done.ok());
  CHECK(done->ended_game);
  CHECK(done->mails_enqueued == 2);
  Result<storage::Game> game = s.repo.GetGame(id);
  REQUIRE(game->ending.has_value());
  CHECK(game->ending->kind == storage::GameEndKind::kDraw);
  CHECK(game->ending->by_organiser);
  CHECK_FALSE(game->result.empty());
  CHECK(s.repo.GetLeagueGame(id)->result == "draw");
  // A submission for it is now refused as stale by the store (the order desk says "game over").
  storage::NewSubmission late;
  late.game_id = id;
  late.turn = game->turns_committed;
  late.side = "blue";
  late.accepted = true;
  late.orders = "x";
  late.received_at = At(600);
  CHECK(s.repo.RecordSubmission(late)->stale);
  // Each player of the game is told, in their language.
  std::map<std::string, storage::NewMail> by_recipient;
  for (const auto& m : Outbox(s)) by_recipient[m.recipient] = m;
  REQUIRE(by_recipient.size() == 2);
  const std::string blue = round[0].blue, orange = round[0].orange;
  for (const auto& player : {blue, orange}) {
    const storage::NewMail& m = by_recipient.at(player + "@example.org");
    INFO(m.subject << "\n" << m.body);
    if (player == "cid") {
      CHECK(m.subject == "Club\u00a0: la partie " + id + " est terminée");
      CHECK_THAT(m.body, Catch::Contains("Résultat\u00a0: partie nulle."));
    } else {
      CHECK(m.subject == "Club: game " + id + " is over");
      CHECK_THAT(m.body, Catch::Contains("Result: a draw."));
    }
  }
  // A game the service ended already keeps its ending: the organiser's result only counts in
  // the league (here: recorded there already, so a second one is a correction).
  ResultRefusal why = ResultRefusal::kNone;
  Result<OrganiserRecord> again =
      RecordOrganiserResult(s.repo, s.repo, s.positions, Win(id, Seat::kBlue, WinLevel::kMajor), "",
                            kTemplates, At(700), &why);
  CHECK(again.status().code() == StatusCode::kFailedPrecondition);
  CHECK(why == ResultRefusal::kReasonRequired);
  CHECK_THAT(again.status().message(), Catch::Contains("has a league result already (a draw)"));
  CHECK(s.repo.GetLeagueGame(id)->result == "draw");
}

TEST_CASE(
    "acceptance: a corrected result gives the standings and ratings of the corrected "
    "history computed from scratch") {
  Script corrected_script = SeasonScript();
  // Round 1's draw was in fact a total victory of orange (rated round 1, then 2 and 3 again).
  corrected_script["r1-g2"] = Win("r1-g2", Seat::kOrange, WinLevel::kTotal);

  Store played;  // the season as first recorded, then corrected
  SetUp(played);
  PlaySeason(played, SeasonScript());
  Store scratch;  // the corrected history, recorded so from the start
  SetUp(scratch);
  PlaySeason(scratch, corrected_script);
  const auto mails_before = Outbox(played).size();
  const auto before_ratings = *played.repo.RatingHistory("club");
  REQUIRE(before_ratings.size() == 3 * kPlayers.size());

  // Refusals change nothing: no reason, the same result, a reason that is not one line.
  ResultRefusal why = ResultRefusal::kNone;
  CHECK(RecordOrganiserResult(played.repo, played.repo, played.positions,
                              corrected_script.at("r1-g2"), "", kTemplates, At(9000), &why)
            .status()
            .code() == StatusCode::kFailedPrecondition);
  CHECK(why == ResultRefusal::kReasonRequired);
  CHECK(RecordOrganiserResult(played.repo, played.repo, played.positions, Draw("r1-g2"), "typo",
                              kTemplates, At(9000), &why)
            .status()
            .code() == StatusCode::kFailedPrecondition);
  CHECK(why == ResultRefusal::kUnchanged);
  CHECK(RecordOrganiserResult(played.repo, played.repo, played.positions,
                              corrected_script.at("r1-g2"), "two\nlines", kTemplates, At(9000))
            .status()
            .code() == StatusCode::kInvalidArgument);
  CHECK(Ratings(*played.repo.RatingHistory("club")) == Ratings(before_ratings));
  CHECK(played.repo.ListLeagueCorrections("club")->empty());
  CHECK(Outbox(played).size() == mails_before);

  const std::string reason = "the umpire's report: blue's last move was illegal";
  Result<OrganiserRecord> fixed =
      RecordOrganiserResult(played.repo, played.repo, played.positions,
                            corrected_script.at("r1-g2"), reason, kTemplates, At(9000));
  INFO(fixed.status().ToString());
  REQUIRE(fixed.ok());
  CHECK(fixed->corrected);
  CHECK_FALSE(fixed->ended_game);
  CHECK(fixed->rerated_periods == 3);
  CHECK(fixed->mails_enqueued == static_cast<int>(kPlayers.size()));

  // The league games, the ratings and the table: those of the corrected history.
  const auto games = *played.repo.ListLeagueGames("club");
  const auto scratch_games = *scratch.repo.ListLeagueGames("club");
  REQUIRE(games.size() == scratch_games.size());
  for (std::size_t i = 0; i < games.size(); ++i) {
    INFO(games[i].game_id);
    CHECK(games[i].result == scratch_games[i].result);
    CHECK(games[i].winner == scratch_games[i].winner);
    CHECK(games[i].level == scratch_games[i].level);
  }
  const auto ratings = *played.repo.RatingHistory("club");
  const auto scratch_ratings = *scratch.repo.RatingHistory("club");
  REQUIRE(ratings.size() == scratch_ratings.size());
  bool any_changed = false;
  for (std::size_t i = 0; i < ratings.size(); ++i) {
    INFO(ratings[i].player << " season " << ratings[i].season << " round " << ratings[i].round);
    CHECK(ratings[i].player == scratch_ratings[i].player);
    CHECK(ratings[i].round == scratch_ratings[i].round);
    CHECK(ratings[i].rating == Approx(scratch_ratings[i].rating).epsilon(1e-12));
    CHECK(ratings[i].rd == Approx(scratch_ratings[i].rd).epsilon(1e-12));
    CHECK(ratings[i].volatility == Approx(scratch_ratings[i].volatility).epsilon(1e-12));
    if (std::abs(ratings[i].rating - before_ratings[i].rating) > 1) any_changed = true;
  }
  CHECK(any_changed);  // the correction did change ratings (the test could fail)
  LeagueSettings settings;
  const auto table = LoadSeasonStandings(played.repo, "club", settings, 1);
  const auto scratch_table = LoadSeasonStandings(scratch.repo, "club", settings, 1);
  REQUIRE(table.ok());
  REQUIRE(scratch_table.ok());
  REQUIRE(table->rows.size() == scratch_table->rows.size());
  for (std::size_t i = 0; i < table->rows.size(); ++i) {
    const StandingRow& a = table->rows[i];
    const StandingRow& b = scratch_table->rows[i];
    INFO(a.player);
    CHECK(a.player == b.player);
    CHECK(a.rank == b.rank);
    CHECK(a.points == b.points);
    CHECK(a.wins == b.wins);
    CHECK(a.draws == b.draws);
    CHECK(a.sonneborn_berger == b.sonneborn_berger);
    CHECK(a.rating == Approx(b.rating).epsilon(1e-12));
  }

  // Logged: the correction history says what, from what, why and when.
  const auto log = *played.repo.ListLeagueCorrections("club");
  REQUIRE(log.size() == 1);
  CHECK(log[0].before.result == "draw");
  CHECK(log[0].after.result == "victory");
  CHECK(log[0].after.winner == "orange");
  CHECK(log[0].reason == reason);
  CHECK(log[0].at == At(9000));

  // Every league player told, in their language, with the reason.
  const auto mails = Outbox(played);
  REQUIRE(mails.size() == mails_before + kPlayers.size());
  const std::string orange_player = games[1].orange;  // r1-g2
  for (std::size_t i = mails_before; i < mails.size(); ++i) {
    const storage::NewMail& m = mails[i];
    INFO(m.recipient << "\n" << m.subject << "\n" << m.body);
    CHECK_THAT(m.body, Catch::Contains(reason));
    if (m.recipient == "cid@example.org") {
      CHECK(m.subject == "Club\u00a0: le résultat de la partie r1-g2 a été corrigé");
      CHECK_THAT(m.body, Catch::Contains("Résultat enregistré auparavant\u00a0: partie nulle"));
      CHECK_THAT(m.body, Catch::Contains(orange_player + " gagne, victoire totale"));
    } else {
      CHECK(m.subject == "Club: the result of game r1-g2 has been corrected");
      CHECK_THAT(m.body, Catch::Contains("Recorded before: a draw"));
      CHECK_THAT(m.body, Catch::Contains(orange_player + " wins, total victory"));
    }
  }
  // The corrected result cannot be "corrected" to itself, and the old one is history.
  CHECK(RecordOrganiserResult(played.repo, played.repo, played.positions,
                              corrected_script.at("r1-g2"), reason, kTemplates, At(9500), &why)
            .status()
            .code() == StatusCode::kFailedPrecondition);
  CHECK(why == ResultRefusal::kUnchanged);
}

TEST_CASE("RerateFrom keeps the periods before and rates the later ones again in order") {
  Glicko2Params params;
  // Two periods: ann beat bob in round 1, drew in round 2.
  std::vector<storage::LeagueGameRecord> games(2);
  games[0] = {"club", 1, 1, "g1", "ann", "bob", "victory", "blue", "major"};
  games[1] = {"club", 1, 2, "g2", "bob", "ann", "draw", "", "draw"};
  const auto r1 = RatePeriod({{"ann", InitialRating(params)}, {"bob", InitialRating(params)}},
                             {{"ann", "bob", 1}}, params);
  const auto r2 = RatePeriod(r1, {{"bob", "ann", 0.5}}, params);
  std::vector<storage::RatingRecord> history;
  for (const auto& [round, ratings] : {std::pair{1, r1}, std::pair{2, r2}}) {
    for (const auto& [player, r] : ratings) {
      history.push_back({"club", player, 1, round, r.rating, r.rd, r.volatility});
    }
  }
  // Unchanged games: the same ratings come back.
  const auto same = RerateFrom("club", history, games, 1, 2, params);
  REQUIRE(same.size() == 2);
  CHECK(same[0].round == 2);
  CHECK(same[0].rating == Approx(r2.at(same[0].player).rating).epsilon(1e-12));
  // Round 1 corrected to a draw: both periods again, from the initial ratings.
  games[0].result = "draw";
  games[0].winner = "";
  games[0].level = "draw";
  const auto again = RerateFrom("club", history, games, 1, 1, params);
  REQUIRE(again.size() == 4);
  CHECK(again[0].round == 1);
  CHECK(again[0].rating == Approx(1500).margin(1e-9));
  CHECK(again[3].round == 2);
}

}  // namespace
}  // namespace pbem::league
