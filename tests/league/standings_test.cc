// Standings of scripted mini-seasons computed by hand, and the player limits.
#include "daemon/league/standings.h"

#include <catch2/catch.hpp>

namespace pbem::league {
namespace {

using Side = Seat;
using VictoryLevel = WinLevel;

LeagueGame Won(int round, std::string blue, std::string orange, Side winner, VictoryLevel level,
               ResultKind kind = ResultKind::kVictory) {
  LeagueGame g;
  g.game_id = blue + "-" + orange;
  g.round = round;
  g.blue = std::move(blue);
  g.orange = std::move(orange);
  g.kind = kind;
  g.winner = winner;
  g.level = level;
  return g;
}
LeagueGame Pending(int round, std::string blue, std::string orange) {
  LeagueGame g;
  g.round = round;
  g.blue = std::move(blue);
  g.orange = std::move(orange);
  return g;
}

LeagueGame Drawn(int round, std::string blue, std::string orange) {
  LeagueGame g = Pending(round, std::move(blue), std::move(orange));
  g.kind = ResultKind::kDraw;
  return g;
}

const StandingRow& Row(const std::vector<StandingRow>& rows, const std::string& p) {
  for (const auto& r : rows) {
    if (r.player == p) return r;
  }
  FAIL("no row for " << p);
  return rows.front();
}

// The 4-player round robin of pairing_test (A-D, B-C / C-A, D-B / A-B, C-D), default points
// (total 6, major 5, tactical 4, minor 3, draw 2, loss 1, forfeit loss 0, forfeit win 3):
//   R1  A-D  A (blue) wins major          A 5  D 1
//       B-C  draw                         B 2  C 2
//   R2  C-A  C (blue) wins tactical       C 4  A 1
//       D-B  B (orange) wins total        B 6  D 1
//   R3  A-B  B forfeits (A wins)          A 3  B 0
//       C-D  C (blue) wins minor          C 3  D 1
//   R4  A-C  pending
// Points: A 5+1+3 = 9, C 2+4+3 = 9, B 2+6+0 = 8, D 1+1+1 = 3.
// A and C tie on 9; head-to-head (their games with each other): C 4, A 1 -> C first.
// Sonneborn-Berger: A = D(3) + 0 + B(8) = 11; C = B(8)/2 + A(9) + D(3) = 16;
//   B drew C (9 points): 4.5, beat D: 3, lost to A: 0 -> 7.5; D lost all: 0.
// W-D-L: A 2-0-1, C 2-1-0, B 1-1-1, D 0-0-3; played 3 each; pending A 1, C 1.
std::vector<LeagueGame> MiniSeason() {
  return {
      Won(1, "A", "D", Side::kBlue, VictoryLevel::kMajor),
      Drawn(1, "B", "C"),
      Won(2, "C", "A", Side::kBlue, VictoryLevel::kTactical),
      Won(2, "D", "B", Side::kOrange, VictoryLevel::kTotal),
      Won(3, "A", "B", Side::kBlue, VictoryLevel::kTotal, ResultKind::kForfeit),
      Won(3, "C", "D", Side::kBlue, VictoryLevel::kMinor),
      Pending(4, "A", "C"),
  };
}

TEST_CASE("Standings of a scripted mini-season, by hand") {
  PlayerLimits limits;
  limits.finished_to_rank = 3;
  auto rows = ComputeStandings({"A", "B", "C", "D"}, MiniSeason(), PointsTable{}, limits, {});
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].player == "C");
  CHECK(rows[1].player == "A");
  CHECK(rows[2].player == "B");
  CHECK(rows[3].player == "D");
  for (int i = 0; i < 4; ++i) CHECK(rows[static_cast<size_t>(i)].rank == i + 1);
  const auto& a = Row(rows, "A");
  const auto& b = Row(rows, "B");
  const auto& c = Row(rows, "C");
  const auto& d = Row(rows, "D");
  CHECK(a.points == 9);
  CHECK(c.points == 9);
  CHECK(b.points == 8);
  CHECK(d.points == 3);
  CHECK(c.head_to_head == 4);
  CHECK(a.head_to_head == 1);
  CHECK(a.sonneborn_berger == 11);
  CHECK(c.sonneborn_berger == 16);
  CHECK(b.sonneborn_berger == 7.5);
  CHECK(d.sonneborn_berger == 0);
  CHECK((a.wins == 2 && a.draws == 0 && a.losses == 1));
  CHECK((c.wins == 2 && c.draws == 1 && c.losses == 0));
  CHECK((b.wins == 1 && b.draws == 1 && b.losses == 1));
  CHECK((d.wins == 0 && d.draws == 0 && d.losses == 3));
  CHECK(a.played == 3);
  CHECK(a.pending == 1);
  CHECK(c.pending == 1);
  CHECK(b.pending == 0);
}

TEST_CASE("Standings: nobody is ranked before finished_to_rank games (default 4)") {
  auto rows =
      ComputeStandings({"A", "B", "C", "D"}, MiniSeason(), PointsTable{}, PlayerLimits{}, {});
  for (const auto& r : rows) CHECK_FALSE(r.rank.has_value());
  CHECK(rows[0].player == "C");  // still in table order
}

TEST_CASE("Standings: ranked players first, then the unranked") {
  // E has no game: 0 played, listed last with no rank; with finished_to_rank 3 the others rank.
  PlayerLimits limits;
  limits.finished_to_rank = 3;
  auto rows = ComputeStandings({"E", "A", "B", "C", "D"}, MiniSeason(), PointsTable{}, limits, {});
  REQUIRE(rows.size() == 5);
  CHECK(rows[4].player == "E");
  CHECK_FALSE(rows[4].rank.has_value());
  CHECK(rows[4].played == 0);
}

TEST_CASE("Standings: Sonneborn-Berger decides when head-to-head cannot") {
  // P beats R (minor): P 3, R 1. Q beats S (minor): Q 3, S 1. R beats S (tactical): R 4, S 1.
  // P 3, Q 3 (never met: head-to-head 0 each); R 5, S 2.
  // SB: P = R's 5, Q = S's 2 -> P above Q.
  std::vector<LeagueGame> games = {
      Won(1, "P", "R", Side::kBlue, VictoryLevel::kMinor),
      Won(1, "Q", "S", Side::kBlue, VictoryLevel::kMinor),
      Won(2, "R", "S", Side::kBlue, VictoryLevel::kTactical),
  };
  PlayerLimits limits;
  limits.finished_to_rank = 0;
  auto rows = ComputeStandings({"Q", "P", "R", "S"}, games, PointsTable{}, limits, {});
  CHECK(rows[0].player == "R");
  CHECK(rows[1].player == "P");
  CHECK(rows[2].player == "Q");
  CHECK(rows[3].player == "S");
  CHECK(Row(rows, "P").sonneborn_berger == 5);
  CHECK(Row(rows, "Q").sonneborn_berger == 2);
}

TEST_CASE("Standings: rating decides when points, head-to-head, SB and wins tie") {
  // X-Y draw (2 each); X beats Z minor (3), Y beats Z minor (3): X 5, Y 5, Z 2.
  // Head-to-head X 2, Y 2; SB X = 5/2 + 2 = 4.5 = Y; wins 1 each: the rating decides.
  std::vector<LeagueGame> games = {
      Drawn(1, "X", "Y"),
      Won(2, "X", "Z", Side::kBlue, VictoryLevel::kMinor),
      Won(3, "Z", "Y", Side::kOrange, VictoryLevel::kMinor),
  };
  PlayerLimits limits;
  limits.finished_to_rank = 1;
  std::map<std::string, Rating> ratings = {{"X", {1600, 100, 0.06}}, {"Y", {1550, 100, 0.06}}};
  auto rows = ComputeStandings({"X", "Y", "Z"}, games, PointsTable{}, limits, ratings);
  CHECK(rows[0].player == "X");
  CHECK(rows[1].player == "Y");
  CHECK(Row(rows, "X").sonneborn_berger == 4.5);
  CHECK(Row(rows, "Y").sonneborn_berger == 4.5);
  ratings["Y"].rating = 1700;
  rows = ComputeStandings({"X", "Y", "Z"}, games, PointsTable{}, limits, ratings);
  CHECK(rows[0].player == "Y");
}

TEST_CASE("Points follow the table; custom tables") {
  PointsTable t;
  t.total = 10;
  t.loss = 0;
  auto g = Won(1, "A", "B", Side::kOrange, VictoryLevel::kTotal);
  CHECK(GamePoints(t, g) == std::pair{0, 10});
  g.kind = ResultKind::kResigned;
  CHECK(GamePoints(t, g) == std::pair{0, 10});
  CHECK(RatedBlueScore(g) == 0.0);
  g.kind = ResultKind::kForfeit;
  CHECK(GamePoints(t, g) == std::pair{0, 3});
  CHECK_FALSE(RatedBlueScore(g).has_value());  // forfeits are not rated
  CHECK(GamePoints(t, Pending(1, "A", "B")) == std::pair{0, 0});
}

TEST_CASE("Results from the engine's outcome") {
  LeagueOutcome outcome;
  outcome.winner = Side::kOrange;
  outcome.level = VictoryLevel::kMajor;
  auto g = WithOutcome(Pending(1, "A", "B"), outcome);
  CHECK(g.kind == ResultKind::kVictory);
  CHECK(GamePoints(PointsTable{}, g) == std::pair{1, 5});
  LeagueOutcome draw;
  CHECK(WithOutcome(Pending(1, "A", "B"), draw).kind == ResultKind::kDraw);
}

TEST_CASE("Rated games and complete rounds") {
  auto games = MiniSeason();
  auto r3 = RatedGamesOfRound(games, 3);
  REQUIRE(r3.size() == 1);  // the forfeit is not rated
  CHECK(r3[0].blue == "C");
  CHECK(r3[0].blue_score == 1.0);
  CHECK(RoundComplete(games, 3));
  CHECK_FALSE(RoundComplete(games, 4));
  CHECK_FALSE(RoundComplete(games, 5));  // no games
}

TEST_CASE("Player limits from the game's own site") {
  PlayerLimits limits;
  CHECK(MaxActiveGames(limits, 0) == 2);
  CHECK(MaxActiveGames(limits, 1) == 5);
  CHECK(MaxActiveGames(limits, 2) == 8);
  CHECK(MaxActiveGames(limits, 40) == 8);
  CHECK(CheckGameLimit(limits, "ann", 0, 1, 1).ok());
  auto over = CheckGameLimit(limits, "ann", 0, 1, 2);
  CHECK(over.code() == StatusCode::kFailedPrecondition);
  CHECK(over.message() ==
        "player ann would have 3 games at once; the limit after 0 finished games is 2");
  CHECK(CheckGameLimit(limits, "ann", 1, 3, 2).ok());
  CHECK_FALSE(CheckGameLimit(limits, "ann", 1, 3, 3).ok());
}

}  // namespace
}  // namespace pbem::league
