// A league's own words for a game's result, whatever game system is played: the two seats of
// a pairing and the levels of victory its points table scores. A league pairs two players a
// game; the schedule seats one first and one second, stored under the names "blue" and
// "orange" (the columns and values of league_games since schema 6). A game system's side ids
// map onto the seats (Morne Plaine's sides are these very names), and its victory levels onto
// the points table's (Morne Plaine's are these very codes: digest 8.3). Pure, no I/O.
#ifndef PBEM_DAEMON_LEAGUE_SEATS_H_
#define PBEM_DAEMON_LEAGUE_SEATS_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/system/game_system.h"

namespace pbem::league {

enum class Seat : std::uint8_t { kBlue, kOrange };

constexpr Seat OtherSeat(Seat s) { return s == Seat::kBlue ? Seat::kOrange : Seat::kBlue; }
// "blue", "orange": as stored, and the side ids of the game played in that seat.
std::string_view SeatName(Seat seat);
std::optional<Seat> ParseSeat(std::string_view name);

// The levels of victory the points table scores, best first; kDraw when nobody won.
enum class WinLevel : std::uint8_t { kTotal, kMajor, kTactical, kMinor, kDraw };

// "total", "major", "tactical", "minor", "draw": as stored and as the settings name them.
std::string_view WinLevelName(WinLevel level);
std::optional<WinLevel> ParseWinLevel(std::string_view name);

// How a game ended for the league: the winner's seat (none: a draw) and the level won.
struct LeagueOutcome {
  std::optional<Seat> winner;
  WinLevel level = WinLevel::kDraw;  // kDraw exactly when there is no winner
  friend bool operator==(const LeagueOutcome&, const LeagueOutcome&) = default;
};

// A finished game's outcome as its game system states it (side ids, level code), in the
// league's words; nullopt when the game is not finished, or its winner is no seat or its level
// not one the points table scores (a system whose terms no league maps yet).
std::optional<LeagueOutcome> FromSystemOutcome(const game_system::Outcome& outcome);

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_SEATS_H_
