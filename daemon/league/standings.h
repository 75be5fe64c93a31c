// League standings and the player limits of the game's own site. Pure: no I/O.
#ifndef PBEM_DAEMON_LEAGUE_STANDINGS_H_
#define PBEM_DAEMON_LEAGUE_STANDINGS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daemon/league/glicko2.h"
#include "daemon/league/seats.h"
#include "storage/status.h"

namespace pbem::league {

// League points. The winner of a game scores by the level of victory (WinLevel: Morne
// Plaine's victory levels, digest 8.3); a draw gives both `draw`; the loser of a played game scores
// `loss`, the loser by forfeit `forfeit_loss` and the winner by forfeit `forfeit_win`. Defaults:
// 6/5/4/3 for total/major/tactical/minor, 2 each for a draw, 1 for a loss played to the end (or
// resigned), 0 for a forfeit, and a forfeit win counts like a minor victory (the game was not
// decided on the map).
struct PointsTable {
  int total = 6;
  int major = 5;
  int tactical = 4;
  int minor = 3;
  int draw = 2;
  int loss = 1;
  int forfeit_loss = 0;
  int forfeit_win = 3;
};

// The limits of the game's own site, as league parameters.
struct PlayerLimits {
  // Games a player may have at once, by games already finished: the entry with the largest
  // `finished` <= the player's finished games applies. Default: 2 at first, 5 after the first
  // finished game, 8 after the second.
  struct Step {
    int finished = 0;
    int max_active = 0;
  };
  std::vector<Step> steps = {{0, 2}, {1, 5}, {2, 8}};
  // A player is ranked (gets a place in the table) after this many finished games.
  int finished_to_rank = 4;
};

int MaxActiveGames(const PlayerLimits& limits, int finished_games);

// OK when a player with `finished` and `active` games may take `extra` more; otherwise
// FAILED_PRECONDITION naming the player and the numbers.
Status CheckGameLimit(const PlayerLimits& limits, const std::string& player, int finished,
                      int active, int extra);

enum class ResultKind {
  kPending,   // not finished yet
  kVictory,   // played to the end: winner and level from the game's outcome
  kDraw,      // played to the end, drawn
  kResigned,  // `winner`'s opponent resigned: a played loss, a victory of level `level`
  kForfeit,   // `winner`'s opponent missed turns: forfeit (not rated)
};

struct LeagueGame {
  std::string game_id;
  int round = 0;
  std::string blue;
  std::string orange;
  ResultKind kind = ResultKind::kPending;
  std::optional<Seat> winner;  // kVictory, kResigned, kForfeit
  WinLevel level = WinLevel::kDraw;
};

// The result of a finished game from its outcome (winner and level; no winner is a draw).
LeagueGame WithOutcome(LeagueGame game, const LeagueOutcome& outcome);

// Points each side scores: {blue, orange}. {0, 0} for a pending game.
std::pair<int, int> GamePoints(const PointsTable& table, const LeagueGame& game);

// Rating score of blue (1, 0.5, 0), or nullopt when the game is not rated (pending, forfeit).
std::optional<double> RatedBlueScore(const LeagueGame& game);

struct StandingRow {
  std::string player;
  std::optional<int> rank;  // nullopt: not ranked yet (fewer than finished_to_rank games)
  int points = 0;
  int played = 0;   // finished games (forfeits included)
  int pending = 0;  // games not finished
  int wins = 0;
  int draws = 0;
  int losses = 0;
  int head_to_head = 0;  // points against the players tied with this one on points
  double sonneborn_berger = 0;
  double rating = 0;
};

// The table. Order (the tie-breaks, in this order):
//  1. points;
//  2. head-to-head: points scored in the games among the players level on points (the whole
//     tied group at once, not recursively);
//  3. Sonneborn-Berger: for each finished game, the opponent's points times 1 for a win,
//     1/2 for a draw, 0 for a loss;
//  4. wins;
//  5. rating (from `ratings`; players missing from it have the initial rating);
//  6. player name (so the order is total and deterministic).
// Ranked players (finished >= limits.finished_to_rank) come first, numbered 1, 2, ... (a tie
// on every criterion but the name still gets distinct numbers); unranked players follow in the
// same order with no rank. Every player of `players` appears, with or without games.
std::vector<StandingRow> ComputeStandings(const std::vector<std::string>& players,
                                          const std::vector<LeagueGame>& games,
                                          const PointsTable& table, const PlayerLimits& limits,
                                          const std::map<std::string, Rating>& ratings,
                                          const Glicko2Params& params = {});

// The rated games of one round, for RatePeriod.
std::vector<RatedGame> RatedGamesOfRound(const std::vector<LeagueGame>& games, int round);

// True when every game of `round` is finished (and the round has games).
bool RoundComplete(const std::vector<LeagueGame>& games, int round);

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_STANDINGS_H_
