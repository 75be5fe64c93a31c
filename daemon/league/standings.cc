#include "daemon/league/standings.h"

#include <algorithm>
#include <set>

namespace pbem::league {

int MaxActiveGames(const PlayerLimits& limits, int finished_games) {
  int best_finished = -1;
  int max_active = 0;
  for (const auto& step : limits.steps) {
    if (step.finished <= finished_games && step.finished > best_finished) {
      best_finished = step.finished;
      max_active = step.max_active;
    }
  }
  return max_active;
}

Status CheckGameLimit(const PlayerLimits& limits, const std::string& player, int finished,
                      int active, int extra) {
  const int max = MaxActiveGames(limits, finished);
  if (active + extra > max) {
    return Status::FailedPrecondition(
        "player " + player + " would have " + std::to_string(active + extra) +
        " games at once; the limit after " + std::to_string(finished) + " finished games is " +
        std::to_string(max));
  }
  return Status::Ok();
}

LeagueGame WithOutcome(LeagueGame game, const LeagueOutcome& outcome) {
  game.winner = outcome.winner;
  game.level = outcome.level;
  game.kind = outcome.winner ? ResultKind::kVictory : ResultKind::kDraw;
  if (!outcome.winner) game.level = WinLevel::kDraw;
  return game;
}

namespace {

int WinPoints(const PointsTable& t, WinLevel level) {
  switch (level) {
    case WinLevel::kTotal:
      return t.total;
    case WinLevel::kMajor:
      return t.major;
    case WinLevel::kTactical:
      return t.tactical;
    case WinLevel::kMinor:
      return t.minor;
    case WinLevel::kDraw:
      return t.draw;
  }
  return 0;
}

bool Finished(const LeagueGame& g) { return g.kind != ResultKind::kPending; }

}  // namespace

std::pair<int, int> GamePoints(const PointsTable& table, const LeagueGame& game) {
  int winner_points = 0;
  int loser_points = 0;
  switch (game.kind) {
    case ResultKind::kPending:
      return {0, 0};
    case ResultKind::kDraw:
      return {table.draw, table.draw};
    case ResultKind::kVictory:
    case ResultKind::kResigned:
      if (!game.winner) return {table.draw, table.draw};
      winner_points = WinPoints(table, game.level);
      loser_points = table.loss;
      break;
    case ResultKind::kForfeit:
      if (!game.winner) return {table.forfeit_loss, table.forfeit_loss};
      winner_points = table.forfeit_win;
      loser_points = table.forfeit_loss;
      break;
  }
  return *game.winner == Seat::kBlue ? std::pair{winner_points, loser_points}
                                     : std::pair{loser_points, winner_points};
}

std::optional<double> RatedBlueScore(const LeagueGame& game) {
  switch (game.kind) {
    case ResultKind::kPending:
    case ResultKind::kForfeit:
      return std::nullopt;
    case ResultKind::kDraw:
      return 0.5;
    case ResultKind::kVictory:
    case ResultKind::kResigned:
      if (!game.winner) return 0.5;
      return *game.winner == Seat::kBlue ? 1.0 : 0.0;
  }
  return std::nullopt;
}

std::vector<StandingRow> ComputeStandings(const std::vector<std::string>& players,
                                          const std::vector<LeagueGame>& games,
                                          const PointsTable& table, const PlayerLimits& limits,
                                          const std::map<std::string, Rating>& ratings,
                                          const Glicko2Params& params) {
  std::map<std::string, StandingRow> rows;
  for (const auto& p : players) {
    StandingRow row;
    row.player = p;
    auto it = ratings.find(p);
    row.rating = it == ratings.end() ? params.initial_rating : it->second.rating;
    rows[p] = row;
  }
  auto row_of = [&](const std::string& p) -> StandingRow* {
    auto it = rows.find(p);
    return it == rows.end() ? nullptr : &it->second;
  };
  for (const auto& g : games) {
    StandingRow* b = row_of(g.blue);
    StandingRow* o = row_of(g.orange);
    if (!Finished(g)) {
      if (b) ++b->pending;
      if (o) ++o->pending;
      continue;
    }
    auto [bp, op] = GamePoints(table, g);
    const bool draw = !g.winner;
    for (auto [row, pts, side] :
         {std::tuple{b, bp, Seat::kBlue}, std::tuple{o, op, Seat::kOrange}}) {
      if (!row) continue;
      row->points += pts;
      ++row->played;
      if (draw) {
        ++row->draws;
      } else if (*g.winner == side) {
        ++row->wins;
      } else {
        ++row->losses;
      }
    }
  }
  // Head-to-head and Sonneborn-Berger need everyone's points first.
  for (const auto& g : games) {
    if (!Finished(g)) continue;
    StandingRow* b = row_of(g.blue);
    StandingRow* o = row_of(g.orange);
    if (!b || !o) continue;
    auto [bp, op] = GamePoints(table, g);
    if (b->points == o->points) {
      b->head_to_head += bp;
      o->head_to_head += op;
    }
    const double blue_fraction = !g.winner ? 0.5 : (*g.winner == Seat::kBlue ? 1.0 : 0.0);
    b->sonneborn_berger += blue_fraction * o->points;
    o->sonneborn_berger += (1.0 - blue_fraction) * b->points;
  }
  std::vector<StandingRow> out;
  for (auto& [id, row] : rows) out.push_back(row);
  auto better = [](const StandingRow& a, const StandingRow& b) {
    if (a.points != b.points) return a.points > b.points;
    if (a.head_to_head != b.head_to_head) return a.head_to_head > b.head_to_head;
    if (a.sonneborn_berger != b.sonneborn_berger) return a.sonneborn_berger > b.sonneborn_berger;
    if (a.wins != b.wins) return a.wins > b.wins;
    if (a.rating != b.rating) return a.rating > b.rating;
    return a.player < b.player;
  };
  std::stable_sort(out.begin(), out.end(), [&](const StandingRow& a, const StandingRow& b) {
    const bool ra = a.played >= limits.finished_to_rank;
    const bool rb = b.played >= limits.finished_to_rank;
    if (ra != rb) return ra;
    return better(a, b);
  });
  int rank = 0;
  for (auto& row : out) {
    if (row.played >= limits.finished_to_rank) row.rank = ++rank;
  }
  return out;
}

std::vector<RatedGame> RatedGamesOfRound(const std::vector<LeagueGame>& games, int round) {
  std::vector<RatedGame> out;
  for (const auto& g : games) {
    if (g.round != round) continue;
    auto s = RatedBlueScore(g);
    if (s) out.push_back(RatedGame{g.blue, g.orange, *s});
  }
  return out;
}

bool RoundComplete(const std::vector<LeagueGame>& games, int round) {
  bool any = false;
  for (const auto& g : games) {
    if (g.round != round) continue;
    any = true;
    if (!Finished(g)) return false;
  }
  return any;
}

}  // namespace pbem::league
