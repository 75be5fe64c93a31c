// Glicko-2 ratings, as published by Mark E. Glickman, "Example of the Glicko-2 system"
// (Boston University, 2013 revision; http://www.glicko.net/glicko/glicko2.pdf), steps 1-8.
//
// Parameters (Glicko2Params): a new player starts at rating 1500, RD 350, volatility 0.06
// (the paper's suggested defaults); tau = 0.5 (the paper suggests 0.3..1.2; 0.5 is a middle
// value for a game with few, long games per period); convergence tolerance epsilon = 1e-6
// (the paper's value). One rating period = one league round: every result of the round is
// rated together against the opponents' ratings from before the round. A player with no game
// in the round keeps rating and volatility; only the RD grows (step 6 alone).
//
// Scores: a win counts 1, a draw 0.5, a loss 0, whatever the victory level (the rating
// measures who wins; league points reward the level). Forfeits are not rated (see
// standings.h); resignations are losses.
//
// Floating point here is fine: ratings are published numbers, never part of a game's state.
#ifndef PBEM_DAEMON_LEAGUE_GLICKO2_H_
#define PBEM_DAEMON_LEAGUE_GLICKO2_H_

#include <map>
#include <string>
#include <vector>

namespace pbem::league {

struct Glicko2Params {
  double initial_rating = 1500;
  double initial_rd = 350;
  double initial_volatility = 0.06;
  double tau = 0.5;
  double epsilon = 1e-6;
};

struct Rating {
  double rating = 1500;
  double rd = 350;
  double volatility = 0.06;
};

Rating InitialRating(const Glicko2Params& params);

// One game of the period seen from the rated player.
struct RatedResult {
  Rating opponent;   // the opponent's rating before the period
  double score = 0;  // 1 win, 0.5 draw, 0 loss
};

// Steps 2-8 of the paper for one player and one period. `results` empty: only the RD grows.
Rating UpdateRating(const Rating& player, const std::vector<RatedResult>& results,
                    const Glicko2Params& params);

// One rated game of a round, between two players.
struct RatedGame {
  std::string blue;
  std::string orange;
  double blue_score = 0;  // 1, 0.5 or 0; orange scores 1 - blue_score
};

// One rating period (a round) for everyone in `before` (players missing from `before` but
// named in `games` start at InitialRating). Returns everyone's rating after the period.
std::map<std::string, Rating> RatePeriod(const std::map<std::string, Rating>& before,
                                         const std::vector<RatedGame>& games,
                                         const Glicko2Params& params);

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_GLICKO2_H_
