// League pairings: round robin (circle method) and Swiss. Pure: no I/O, no clock, no random.
//
// Seats: in a pairing, `blue` takes Seat::kBlue (seats.h) and `orange` Seat::kOrange.
#ifndef PBEM_DAEMON_LEAGUE_PAIRING_H_
#define PBEM_DAEMON_LEAGUE_PAIRING_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "storage/status.h"

namespace pbem::league {

struct Pairing {
  std::string blue;
  std::string orange;
  friend bool operator==(const Pairing&, const Pairing&) = default;
};

struct Round {
  int number = 0;                  // 1-based
  std::vector<Pairing> games;      // in board order
  std::optional<std::string> bye;  // the player who sits out (odd player counts)
};

enum class SideRule {
  // Each pairing is played once; sides alternate so that every player's blue and orange
  // counts over the season differ by at most one.
  kBalanced,
  // Each pairing is played twice IN THE SAME ROUND, once with each side (two games at once:
  // within the new player's two-game limit, and a rating period sees both games).
  kBothSides,
};

// Round robin by the circle method (Berger). Players keep the order given; with an odd count
// a "bye" seat is added and whoever meets it sits out that round. n players (n+1 when odd)
// give n-1 (n) rounds. The first player is the fixed seat; in round r (0-based) the fixed
// seat's pairing is (seat0, seat[n-1]) and the others (seat[i], seat[n-1-i]), then seats
// 1..n-1 rotate one step (the last seat moves to position 1).
// Sides (kBalanced): seat[i] (top row) plays blue for i > 0; the fixed seat plays blue in
// even rounds and orange in odd ones. Each player's |blue - orange| <= 1 over the season.
// INVALID_ARGUMENT for fewer than 2 players or a duplicate name.
Result<std::vector<Round>> RoundRobin(const std::vector<std::string>& players, SideRule rule);

// What Swiss pairing needs to know of a player.
struct SwissPlayer {
  std::string id;
  double score = 0;    // league points (or game points) so far
  double rating = 0;   // tie-break in the ranking order
  int blue_games = 0;  // side history
  int orange_games = 0;
  std::optional<bool> last_was_blue;
  bool had_bye = false;
  std::set<std::string> opponents;  // everyone already met: never again
};

// Swiss pairing for one round (a simplified Dutch system, deterministic):
//  1. Ranking order: score (desc), rating (desc), id (asc).
//  2. Odd count: the lowest-ranked player who has not had a bye sits out (if all have, the
//     lowest-ranked player).
//  3. Take the highest-ranked unpaired player P. Candidates, in order of preference: the other
//     unpaired players of P's score group, starting with the one half the group below P (top
//     half meets bottom half), then those below it, then those above it; then players of lower
//     score groups in ranking order (P floats down). A candidate P has already met is never
//     taken. Depth-first search with backtracking: when the rest cannot be paired, the next
//     candidate is tried. The first complete pairing in this order is the answer.
//  4. Sides: the player with more orange than blue games so far plays blue; when equal, the
//     one whose last game was orange; when still equal, the higher-ranked one.
// FAILED_PRECONDITION when no pairing without a rematch exists.
Result<Round> SwissRound(std::vector<SwissPlayer> players, int round_number);

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_PAIRING_H_
