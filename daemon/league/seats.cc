#include "daemon/league/seats.h"

#include <array>

namespace pbem::league {
namespace {

constexpr std::array<std::string_view, 2> kSeatNames = {"blue", "orange"};
constexpr std::array<std::string_view, 5> kLevelNames = {"total", "major", "tactical", "minor",
                                                         "draw"};

}  // namespace

std::string_view SeatName(Seat seat) { return kSeatNames[static_cast<std::size_t>(seat)]; }

std::optional<Seat> ParseSeat(std::string_view name) {
  for (std::size_t i = 0; i < kSeatNames.size(); ++i) {
    if (kSeatNames[i] == name) return static_cast<Seat>(i);
  }
  return std::nullopt;
}

std::string_view WinLevelName(WinLevel level) {
  return kLevelNames[static_cast<std::size_t>(level)];
}

std::optional<WinLevel> ParseWinLevel(std::string_view name) {
  for (std::size_t i = 0; i < kLevelNames.size(); ++i) {
    if (kLevelNames[i] == name) return static_cast<WinLevel>(i);
  }
  return std::nullopt;
}

std::optional<LeagueOutcome> FromSystemOutcome(const game_system::Outcome& outcome) {
  if (!outcome.finished) return std::nullopt;
  LeagueOutcome out;
  if (!outcome.winner) return out;
  out.winner = ParseSeat(*outcome.winner);
  const std::optional<WinLevel> level = ParseWinLevel(outcome.level);
  if (!out.winner || !level || *level == WinLevel::kDraw) return std::nullopt;
  out.level = *level;
  return out;
}

}  // namespace pbem::league
