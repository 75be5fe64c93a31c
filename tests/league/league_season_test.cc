// Results flowing into a league through the stores, and the acceptance season of issue 8:
// 8 players, a round robin, every game played to the end by the bot through the turn job
// (OpenTurn + ResolveAndCommit, as pbemd's turn loop will), each result recorded by
// RecordGameEnd; standings and ratings checked against values computed by hand.
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>

#include "daemon/league/league_flow.h"
#include "daemon/turn/turn_job.h"
#include "engine/morne_plaine/bot.h"
#include "engine/morne_plaine/victory.h"
#include "storage/sqlite_repository.h"
#include "tests/support/temp_dir.h"
#include "tests/turn/turn_test_util.h"

namespace pbem::league {
namespace {

namespace fs = std::filesystem;
using storage::Timestamp;

Timestamp At(std::int64_t ms) { return Timestamp(std::chrono::milliseconds(ms)); }

const fs::path kTemplates = fs::path(PBEM_SOURCE_DIR) / "templates/league";

// A fresh directory (pbem-league-XXXXXX), removed with everything in it.
class TempDir : public pbem::testing::TempDir {
 public:
  TempDir() : pbem::testing::TempDir("pbem-league") {}
};

struct Store {
  TempDir dir;
  storage::SqliteRepository repo{dir.path()};
  Store() { REQUIRE(repo.OpenOrMigrate().ok()); }
};

// Hand values (glicko2_test.cc has the arithmetic): two 1500/350/0.06 players after one game.
constexpr double kWinner = 1662.31, kLoser = 1337.69, kAfterOneGameRd = 290.32;
// A period with no rated game: RD' = sqrt(350^2 + (0.06 * 173.7178)^2) = sqrt(122608.64).
constexpr double kIdleRd = 350.155;

void Join(Store& s, const std::string& league, const std::vector<std::string>& names) {
  for (const auto& n : names) {
    REQUIRE(s.repo.AddLeaguePlayer({league, n, n + "@example.org", "token-" + n, At(10)}).ok());
  }
}

LeagueGame NewPairing(std::string id, int round, std::string blue, std::string orange) {
  LeagueGame g;
  g.game_id = std::move(id);
  g.round = round;
  g.blue = std::move(blue);
  g.orange = std::move(orange);
  return g;
}

TEST_CASE("settings round-trip; bad settings are named") {
  LeagueSettings s;
  s.points.total = 9;
  s.limits.finished_to_rank = 2;
  s.sides = SideRule::kBothSides;
  s.language = "fr";
  s.swiss_rounds = 5;
  auto back = DecodeSettings(EncodeSettings(s));
  REQUIRE(back.ok());
  CHECK(back->points.total == 9);
  CHECK(back->limits.finished_to_rank == 2);
  CHECK(back->limits.steps.size() == 3);
  CHECK(back->limits.steps[2].max_active == 8);
  CHECK(back->sides == SideRule::kBothSides);
  CHECK(back->language == "fr");
  CHECK(back->glicko.tau == 0.5);
  CHECK(back->swiss_rounds == 5);
  CHECK(DecodeSettings("pairing swiss\n")->swiss_rounds == 0);  // stored before the setting
  CHECK(DecodeSettings("swiss_rounds -1").status().message() ==
        "league settings line 1 (swiss_rounds -1): swiss_rounds is a number from 0");
  auto bad = DecodeSettings("points 1 2\n");
  CHECK(bad.status().code() == StatusCode::kInvalidArgument);
  CHECK(bad.status().message() == "league settings line 1 (points 1 2): bad value");
  CHECK(DecodeSettings("colour red").status().message() ==
        "league settings line 1 (colour red): unknown setting colour");
}

TEST_CASE("Swiss round 2 from a finished round 1, by hand") {
  // Round 1: A (blue) beat D major (A 5, D 1), B (blue) drew C (2 each). Ranking A 5, B 2,
  // C 2 (equal ratings: by name), D 1. A is alone in its group and floats to B; C meets D.
  // Sides: A and B were both blue last: the higher-ranked A plays blue; C and D were both
  // orange: C (higher) plays blue.
  LeagueSettings settings;
  settings.pairing = PairingSystem::kSwiss;
  auto played = DecodeSettings(EncodeSettings(settings));
  REQUIRE(played.ok());
  CHECK(played->pairing == PairingSystem::kSwiss);
  LeagueGame ad = NewPairing("g1", 1, "A", "D");
  ad.kind = ResultKind::kVictory;
  ad.winner = Seat::kBlue;
  ad.level = WinLevel::kMajor;
  LeagueGame bc = NewPairing("g2", 1, "B", "C");
  bc.kind = ResultKind::kDraw;
  auto round = PairSwissRound({"A", "B", "C", "D"}, {ad, bc}, {}, settings, 2);
  REQUIRE(round.ok());
  CHECK(round->games == std::vector<Pairing>{{"A", "B"}, {"C", "D"}});
  settings.sides = SideRule::kBothSides;
  auto both = PairSwissRound({"A", "B", "C", "D"}, {ad, bc}, {}, settings, 2);
  REQUIRE(both.ok());
  CHECK(both->games == std::vector<Pairing>{{"A", "B"}, {"B", "A"}, {"C", "D"}, {"D", "C"}});
  bc.kind = ResultKind::kPending;
  CHECK(PairSwissRound({"A", "B", "C", "D"}, {ad, bc}, {}, settings, 2).status().code() ==
        StatusCode::kFailedPrecondition);
}

TEST_CASE("scripted results flow in: resignation, forfeit, standings mail at the round's end") {
  Store s;
  LeagueSettings settings;
  settings.limits.finished_to_rank = 1;
  REQUIRE(s.repo.CreateLeague({"club", "Club de la Morne", "org", EncodeSettings(settings), At(1)})
              .ok());
  Join(s, "club", {"A", "B", "C", "D"});
  REQUIRE(s.repo
              .AddLeagueGames({ToRecord(NewPairing("g1", 1, "A", "D"), "club", 1),
                               ToRecord(NewPairing("g2", 1, "B", "C"), "club", 1)})
              .ok());
  // A game in no league: nothing happens.
  auto stray = RecordGameEnd(s.repo, {"elsewhere", EndKind::kPlayed, {}}, kTemplates, At(5));
  REQUIRE(stray.ok());
  CHECK_FALSE(stray->league_game);

  // g1: D (orange) resigns, A wins; level total awarded. Round not complete yet: no ratings.
  LeagueOutcome a_wins{Seat::kBlue, WinLevel::kTotal};
  auto first = RecordGameEnd(s.repo, {"g1", EndKind::kResigned, a_wins}, kTemplates, At(20));
  REQUIRE(first.ok());
  CHECK(first->league_game);
  CHECK_FALSE(first->round_complete);
  CHECK(first->mails_enqueued == 0);
  CHECK(s.repo.RatingHistory("club")->empty());
  CHECK(s.repo.GetLeagueGame("g1")->result == "resigned");

  // g2: C (orange) forfeits: B wins by forfeit. Round 1 complete: rated and mailed.
  LeagueOutcome b_wins{Seat::kBlue, WinLevel::kTotal};
  auto second = RecordGameEnd(s.repo, {"g2", EndKind::kForfeit, b_wins}, kTemplates, At(30));
  REQUIRE(second.ok());
  CHECK(second->round_complete);
  CHECK(second->mails_enqueued == 4);
  // Points (defaults): A 6 (total, D resigned), D 1 (a played loss), B 3 (forfeit win),
  // C 0 (forfeit loss). Order A, B, D, C.
  const auto& rows = second->standings;
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].player == "A");
  CHECK(rows[0].points == 6);
  CHECK(rows[1].player == "B");
  CHECK(rows[1].points == 3);
  CHECK(rows[2].player == "D");
  CHECK(rows[2].points == 1);
  CHECK(rows[3].player == "C");
  CHECK(rows[3].points == 0);
  // Ratings by hand: the resignation is rated (A 1662.31, D 1337.69, RD 290.32); the forfeit
  // is not, so B and C only see their RD grow to 350.155.
  auto ratings = LatestRatings(*s.repo.RatingHistory("club"), {"A", "B", "C", "D"}, {});
  CHECK(ratings["A"].rating == Approx(kWinner).margin(0.01));
  CHECK(ratings["D"].rating == Approx(kLoser).margin(0.01));
  CHECK(ratings["A"].rd == Approx(kAfterOneGameRd).margin(0.01));
  CHECK(ratings["B"].rating == 1500);
  CHECK(ratings["C"].rd == Approx(kIdleRd).margin(0.001));

  // Idempotent: the same end again changes nothing and mails nobody.
  auto again = RecordGameEnd(s.repo, {"g2", EndKind::kForfeit, b_wins}, kTemplates, At(40));
  REQUIRE(again.ok());
  CHECK_FALSE(again->round_complete);
  CHECK(again->mails_enqueued == 0);
  CHECK(s.repo.RatingHistory("club")->size() == 4);

  // The mail: one per player, subject and table in English.
  auto due = s.repo.DueMail(At(100), 10);
  REQUIRE(due.ok());
  REQUIRE(due->size() == 4);
  CHECK(due->at(0).subject == "Club de la Morne: standings after round 1 of season 1");
  // A: rank 1, 6 points, 1 played, 0 pending, 1-0-0, SB = D's 1 point x 1, rating 1662.
  // The columns aligned under their heading (Rank, Player, Points, ...).
  CHECK_THAT(due->at(0).body, Catch::Contains("Rank  Player  Points  Played  Pending  W-D-L  SB   "
                                              "Rating\n1     A       6       1       0        "
                                              "1-0-0  1.0  1662\n"));
  CHECK_THAT(due->at(0).body, Catch::Contains("B wins by forfeit"));
  CHECK_THAT(due->at(0).body, Catch::Contains("A wins by resignation"));
  std::set<std::string> recipients;
  for (const auto& m : *due) recipients.insert(m.recipient);
  CHECK(recipients ==
        std::set<std::string>{"A@example.org", "B@example.org", "C@example.org", "D@example.org"});
}

TEST_CASE("a game's end as the daemon stores it: played, resigned, forfeited, still played") {
  game_system::Outcome state;
  CHECK_FALSE(EndOfGame("g", std::nullopt, state).has_value());
  state.finished = true;
  state.winner = "orange";
  state.level = "major";
  auto played = EndOfGame("g", std::nullopt, state);
  REQUIRE(played.has_value());
  CHECK(played->kind == EndKind::kPlayed);
  CHECK(played->outcome.winner == Seat::kOrange);
  CHECK(played->outcome.level == WinLevel::kMajor);
  // A finished game whose terms map to no seat or level is not recorded (the organiser does).
  game_system::Outcome unknown = state;
  unknown.winner = "red";
  CHECK_FALSE(EndOfGame("g", std::nullopt, unknown).has_value());
  unknown = state;
  unknown.level = "crushing";
  CHECK_FALSE(EndOfGame("g", std::nullopt, unknown).has_value());
  game_system::Outcome drawn_play;
  drawn_play.finished = true;
  drawn_play.level = "draw";
  auto drawn_played = EndOfGame("g", std::nullopt, drawn_play);
  REQUIRE(drawn_played.has_value());
  CHECK_FALSE(drawn_played->outcome.winner.has_value());
  CHECK(drawn_played->outcome.level == WinLevel::kDraw);
  const storage::GameEnding resignation = ResignationEnding(Seat::kBlue);
  CHECK(resignation.kind == storage::GameEndKind::kResigned);
  CHECK(resignation.text == "orange wins: blue resigned");
  auto resigned = EndOfGame("g", resignation, game_system::Outcome{});
  REQUIRE(resigned.has_value());
  CHECK(resigned->kind == EndKind::kResigned);
  CHECK(resigned->outcome.winner == Seat::kOrange);
  CHECK(resigned->outcome.level == WinLevel::kTotal);
  // The value decides, never the sentence: a text that reads otherwise changes nothing.
  storage::GameEnding forfeit_ending;
  forfeit_ending.kind = storage::GameEndKind::kForfeit;
  forfeit_ending.winner = "blue";
  forfeit_ending.level = "total";
  forfeit_ending.text = "orange wins: blue resigned";
  auto forfeit = EndOfGame("g", forfeit_ending, game_system::Outcome{});
  REQUIRE(forfeit.has_value());
  CHECK(forfeit->kind == EndKind::kForfeit);
  CHECK(forfeit->outcome.winner == Seat::kBlue);
  // An organiser's ruling: a major victory of blue, recorded as such.
  GameEnd ruling{"g", EndKind::kPlayed, {Seat::kBlue, WinLevel::kMajor}};
  const storage::GameEnding organiser = OrganiserEnding(ruling);
  CHECK(organiser.by_organiser);
  CHECK(organiser.kind == storage::GameEndKind::kVictory);
  auto ruled = EndOfGame("g", organiser, game_system::Outcome{});
  REQUIRE(ruled.has_value());
  CHECK(ruled->kind == EndKind::kPlayed);
  CHECK(ruled->outcome.winner == Seat::kBlue);
  CHECK(ruled->outcome.level == WinLevel::kMajor);
  GameEnd draw{"g", EndKind::kPlayed, {}};
  CHECK(OrganiserEnding(draw).kind == storage::GameEndKind::kDraw);
  auto drawn = EndOfGame("g", OrganiserEnding(draw), game_system::Outcome{});
  REQUIRE(drawn.has_value());
  CHECK_FALSE(drawn->outcome.winner.has_value());
}

TEST_CASE("a round rated by another process first: no second rating, no second mail") {
  Store s;
  REQUIRE(s.repo.CreateLeague({"club", "Club", "org", EncodeSettings({}), At(1)}).ok());
  Join(s, "club", {"A", "B"});
  REQUIRE(s.repo.AddLeagueGames({ToRecord(NewPairing("g1", 1, "A", "B"), "club", 1)}).ok());
  // Round 1's ratings (and mails) are stored but g1's result is not: what another process
  // that rated the round leaves for us. The call records the result, rates nothing again and
  // mails nobody.
  REQUIRE(s.repo.AppendRatings({{"club", "A", 1, 1, 1600, 300, 0.06}}, {}, std::nullopt).ok());
  LeagueOutcome a_wins{Seat::kBlue, WinLevel::kMinor};
  auto end = RecordGameEnd(s.repo, {"g1", EndKind::kPlayed, a_wins}, kTemplates, At(20));
  REQUIRE(end.ok());
  CHECK_FALSE(end->round_complete);
  CHECK(end->mails_enqueued == 0);
  CHECK(s.repo.GetLeagueGame("g1")->result == "victory");
  CHECK(s.repo.RatingHistory("club")->size() == 1);
  CHECK(s.repo.DueMail(At(100), 10)->empty());
}

TEST_CASE("standings mails in each player's language") {
  Store s;
  REQUIRE(s.repo.CreateLeague({"club", "Club", "org", EncodeSettings({}), At(1)}).ok());
  REQUIRE(s.repo.AddLeaguePlayer({"club", "A", "a@example.org", "token-A", At(2), "fr"}).ok());
  REQUIRE(s.repo.AddLeaguePlayer({"club", "B", "b@example.org", "token-B", At(2), "en"}).ok());
  REQUIRE(s.repo.AddLeagueGames({ToRecord(NewPairing("g1", 1, "A", "B"), "club", 1)}).ok());
  LeagueOutcome a_wins{Seat::kBlue, WinLevel::kMinor};
  auto end = RecordGameEnd(s.repo, {"g1", EndKind::kPlayed, a_wins}, kTemplates, At(20));
  REQUIRE(end.ok());
  CHECK(end->mails_enqueued == 2);
  auto due = s.repo.DueMail(At(100), 10);
  REQUIRE(due.ok());
  std::map<std::string, std::string> subjects;
  for (const auto& m : *due) subjects[m.recipient] = m.subject;
  CHECK(subjects["a@example.org"] == "Club\u00a0: classement après la ronde 1 de la saison 1");
  CHECK(subjects["b@example.org"] == "Club: standings after round 1 of season 1");
}

TEST_CASE("the standings page links each game's archive page, in English and French") {
  StandingsView view;
  view.league_name = "Club <Morne>";
  view.season = 2;
  view.round = 3;
  StandingRow row;
  row.player = "ann";
  row.rank = 1;
  row.points = 7;
  view.rows = {row};
  LeagueGame g{"s2-r3-g1", 3, "ann", "bob", ResultKind::kVictory, Seat::kOrange, WinLevel::kMajor};
  view.games = {g};
  auto en = RenderStandings(kTemplates, "en", view);
  REQUIRE(en.ok());
  CHECK_THAT(en->html, Catch::Contains("<a href=\"s2-r3-g1/index.html\">s2-r3-g1</a>"));
  CHECK_THAT(en->html, Catch::Contains("Club &lt;Morne&gt;"));  // escaped in HTML
  CHECK_THAT(en->html, Catch::Contains("bob wins, major victory"));
  CHECK_THAT(en->text, Catch::Contains("Club <Morne>, season 2"));  // not in text
  auto fr = RenderStandings(kTemplates, "fr", view);
  REQUIRE(fr.ok());
  CHECK_THAT(fr->html, Catch::Contains("lang=\"fr\""));
  CHECK_THAT(fr->html, Catch::Contains("bob gagne, victoire majeure"));
  CHECK(fr->subject == "Club <Morne>\u00a0: classement après la ronde 3 de la saison 2");
  CHECK(RenderStandings(kTemplates, "de", view).status().code() == StatusCode::kInvalidArgument);
  CHECK(RenderStandings("/nonexistent", "en", view).status().code() == StatusCode::kNotFound);
}

// Plays game `id` to the end with the bot, one OpenTurn + ResolveAndCommit per player-turn.
engine::GameOutcome PlayToTheEnd(storage::SqliteRepository& repo, const std::string& id,
                                 daemon::EntropySource& entropy, std::uint64_t seed) {
  const testing::BundledGame& b = testing::Bois();
  for (int step = 0; step < 200; ++step) {
    auto state = daemon::CurrentState(repo, b.scenario.scenario, id);
    REQUIRE(state.ok());
    if (state->finished) return state->outcome;
    REQUIRE(daemon::OpenTurn(repo, b.scenario.scenario, id, entropy, At(1000 + step)).ok());
    const engine::Orders bot = engine::BotOrders(b.ruleset.ruleset, b.scenario.scenario, *state,
                                                 seed + static_cast<std::uint64_t>(step));
    auto resolved =
        daemon::ResolveAndCommit(repo, b.ruleset.ruleset, b.scenario.scenario, id,
                                 codec::OrdersToProto(bot, b.scenario.scenario), At(2000 + step));
    REQUIRE(resolved.ok());
  }
  FAIL("game " << id << " did not end in 200 player-turns");
  return {};
}

// A finished Morne Plaine game's outcome in the league's words, as pbemd maps it
// (GameContext::outcome, then FromSystemOutcome).
LeagueOutcome OfEngine(const engine::GameOutcome& o) {
  game_system::Outcome played;
  played.finished = true;
  if (o.winner) played.winner = std::string(engine::SideName(*o.winner));
  played.level =
      std::string(engine::VictoryLevelName(o.winner ? o.level : engine::VictoryLevel::kDraw));
  const std::optional<LeagueOutcome> mapped = FromSystemOutcome(played);
  REQUIRE(mapped.has_value());
  return *mapped;
}

// The league's words are Morne Plaine's: every side id is a seat's name and every victory
// level a level of the points table, so a Morne Plaine outcome maps one to one.
TEST_CASE("Morne Plaine's sides and victory levels are the league's seats and levels") {
  for (const engine::Side side : {engine::Side::kBlue, engine::Side::kOrange}) {
    const std::optional<Seat> seat = ParseSeat(engine::SideName(side));
    REQUIRE(seat.has_value());
    CHECK(SeatName(*seat) == engine::SideName(side));
    CHECK(SeatName(OtherSeat(*seat)) == engine::SideName(engine::Opponent(side)));
  }
  for (const engine::VictoryLevel level :
       {engine::VictoryLevel::kTotal, engine::VictoryLevel::kMajor, engine::VictoryLevel::kTactical,
        engine::VictoryLevel::kMinor, engine::VictoryLevel::kDraw}) {
    const std::optional<WinLevel> mapped = ParseWinLevel(engine::VictoryLevelName(level));
    REQUIRE(mapped.has_value());
    CHECK(WinLevelName(*mapped) == engine::VictoryLevelName(level));
  }
  CHECK_FALSE(ParseSeat("red").has_value());
  CHECK_FALSE(ParseSeat("").has_value());
  CHECK_FALSE(ParseWinLevel("Total").has_value());
  // An outcome not finished, or a winner with the level "draw", is not a result.
  game_system::Outcome odd;
  CHECK_FALSE(FromSystemOutcome(odd).has_value());
  odd.finished = true;
  odd.winner = "blue";
  odd.level = "draw";
  CHECK_FALSE(FromSystemOutcome(odd).has_value());
}

int HandPoints(const LeagueOutcome& o, bool blue) {
  // The default table written out: total 6, major 5, tactical 4, minor 3, draw 2, loss 1.
  static const std::map<WinLevel, int> kWin = {{WinLevel::kTotal, 6},
                                               {WinLevel::kMajor, 5},
                                               {WinLevel::kTactical, 4},
                                               {WinLevel::kMinor, 3}};
  if (!o.winner) return 2;
  return (*o.winner == Seat::kBlue) == blue ? kWin.at(o.level) : 1;
}

TEST_CASE("acceptance: an 8-player season played to the end by the bot through the turn job") {
  Store s;
  const testing::BundledGame& b = testing::Bois();
  LeagueSettings settings;  // defaults: ranked after 4 games, 2 games at first
  REQUIRE(s.repo.CreateLeague({"club", "Club", "org", EncodeSettings(settings), At(1)}).ok());
  const std::vector<std::string> names = {"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"};
  Join(s, "club", names);
  auto rounds = RoundRobin(names, settings.sides);
  REQUIRE(rounds.ok());
  REQUIRE(rounds->size() == 7);
  daemon::FixedEntropy entropy("league-season");

  std::map<std::string, int> hand_points;
  std::map<std::string, int> finished;
  std::uint64_t seed = 1;
  int mails = 0;
  for (const Round& round : *rounds) {
    // The round's games are created when it starts, within every player's limit.
    std::vector<storage::LeagueGameRecord> records;
    for (size_t i = 0; i < round.games.size(); ++i) {
      const Pairing& p = round.games[i];
      for (const auto& player : {p.blue, p.orange}) {
        REQUIRE(CheckGameLimit(settings.limits, player, finished[player], 0, 1).ok());
      }
      const std::string id = "s1-r" + std::to_string(round.number) + "-g" + std::to_string(i + 1);
      REQUIRE(s.repo
                  .CreateGame(daemon::MakeNewGame(b.ruleset.proto, b.scenario.proto,
                                                  b.scenario.scenario, id, At(100)))
                  .ok());
      records.push_back(ToRecord(NewPairing(id, round.number, p.blue, p.orange), "club", 1));
    }
    REQUIRE(s.repo.AddLeagueGames(records).ok());

    std::map<std::string, Rating> before =
        LatestRatings(*s.repo.RatingHistory("club"), names, settings.glicko);
    std::map<std::string, double> score;  // this round's rating score per player
    for (const auto& r : records) {
      const LeagueOutcome outcome =
          OfEngine(PlayToTheEnd(s.repo, r.game_id, entropy, seed += 1000));
      auto end =
          RecordGameEnd(s.repo, {r.game_id, EndKind::kPlayed, outcome}, kTemplates, At(5000));
      REQUIRE(end.ok());
      mails += end->mails_enqueued;
      hand_points[r.blue] += HandPoints(outcome, true);
      hand_points[r.orange] += HandPoints(outcome, false);
      ++finished[r.blue];
      ++finished[r.orange];
      score[r.blue] = !outcome.winner ? 0.5 : (*outcome.winner == Seat::kBlue ? 1 : 0);
      score[r.orange] = 1 - score[r.blue];
      CHECK(s.repo.GetLeagueGame(r.game_id)->result != "pending");
    }
    auto after = LatestRatings(*s.repo.RatingHistory("club"), names, settings.glicko);
    if (round.number == 1) {
      // By hand: everyone started at 1500/350/0.06 and played one game.
      for (const auto& n : names) {
        INFO(n << " scored " << score[n]);
        const double expected = score[n] == 1 ? kWinner : score[n] == 0 ? kLoser : 1500.0;
        CHECK(after[n].rating == Approx(expected).margin(0.01));
        CHECK(after[n].rd == Approx(kAfterOneGameRd).margin(0.01));
      }
    }
    // Every round: a win never lowers a rating, a loss never raises it; the RD shrinks.
    for (const auto& n : names) {
      INFO(n << " round " << round.number);
      if (score[n] == 1) CHECK(after[n].rating > before[n].rating);
      if (score[n] == 0) CHECK(after[n].rating < before[n].rating);
      CHECK(after[n].rd < before[n].rd);
    }
  }
  CHECK(mails == 7 * 8);  // a standings mail per player per round
  CHECK(s.repo.RatingHistory("club")->size() == 7 * 8);

  // Final table: the points the test adds up from the engine's outcomes with the table written
  // out, 7 games each, everyone ranked, places 1..8 in order of points.
  auto games = s.repo.ListLeagueGames("club");
  REQUIRE(games.ok());
  REQUIRE(games->size() == 28);
  std::vector<LeagueGame> season;
  for (const auto& r : *games) season.push_back(FromRecord(r));
  auto rows =
      ComputeStandings(names, season, settings.points, settings.limits,
                       LatestRatings(*s.repo.RatingHistory("club"), names, settings.glicko));
  int previous = 1 << 30;
  for (size_t i = 0; i < rows.size(); ++i) {
    INFO(rows[i].player);
    CHECK(rows[i].points == hand_points[rows[i].player]);
    CHECK(rows[i].played == 7);
    CHECK(rows[i].pending == 0);
    CHECK(rows[i].rank == static_cast<int>(i) + 1);
    CHECK(rows[i].points <= previous);
    previous = rows[i].points;
  }
}

}  // namespace
}  // namespace pbem::league
