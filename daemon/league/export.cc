#include "daemon/league/export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace pbem::league {
namespace {

std::string Decimal(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// One CSV record: the fields as given (already CsvField'ed), CRLF.
std::string Record(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    line += fields[i];
  }
  return line + "\r\n";
}

}  // namespace

std::string CsvField(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string CsvText(std::string_view text) {
  if (!text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos) {
    return CsvField("'" + std::string(text));
  }
  return CsvField(text);
}

std::string StandingsCsv(int season, const std::vector<StandingRow>& rows) {
  std::string out = Record({"season", "rank", "player", "points", "played", "pending", "wins",
                            "draws", "losses", "head_to_head", "sonneborn_berger", "rating"});
  for (const StandingRow& r : rows) {
    out += Record({std::to_string(season), r.rank ? std::to_string(*r.rank) : "", CsvText(r.player),
                   std::to_string(r.points), std::to_string(r.played), std::to_string(r.pending),
                   std::to_string(r.wins), std::to_string(r.draws), std::to_string(r.losses),
                   std::to_string(r.head_to_head), Decimal(r.sonneborn_berger, 1),
                   Decimal(std::round(r.rating), 0)});
  }
  return out;
}

std::string GamesCsv(const std::vector<storage::LeagueGameRecord>& games) {
  std::string out = Record(
      {"season", "round", "game", "blue", "orange", "result", "winner", "level", "winner_player"});
  for (const storage::LeagueGameRecord& g : games) {
    const std::string winner_player =
        g.winner == "blue" ? g.blue : (g.winner == "orange" ? g.orange : "");
    out += Record({std::to_string(g.season), std::to_string(g.round), CsvField(g.game_id),
                   CsvText(g.blue), CsvText(g.orange), CsvField(g.result), CsvField(g.winner),
                   CsvField(g.result == "pending" ? "" : g.level), CsvText(winner_player)});
  }
  return out;
}

namespace {

// `text` in at most `bytes` bytes, cut on a UTF-8 character boundary.
std::string CutUtf8(const std::string& text, std::size_t bytes) {
  if (text.size() <= bytes) return text;
  std::size_t end = bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

// Writes `value` into `line` at 1-based column `column` (the line grows with spaces).
void Put(std::string& line, std::size_t column, const std::string& value) {
  if (line.size() < column - 1 + value.size()) line.resize(column - 1 + value.size(), ' ');
  line.replace(column - 1, value.size(), value);
}

std::string RightAligned(const std::string& value, std::size_t width) {
  return value.size() >= width ? value : std::string(width - value.size(), ' ') + value;
}

}  // namespace

std::string SeasonTrf(const TrfSeason& season) {
  // Only complete rounds: a round with a pending game is left out, and so is every later one.
  std::map<int, bool> complete;
  for (const LeagueGame& g : season.games) {
    auto [it, added] = complete.emplace(g.round, true);
    if (g.kind == ResultKind::kPending) it->second = false;
  }
  int last = 0;
  for (const auto& [round, done] : complete) {
    if (!done || round != last + 1) break;
    last = round;
  }
  // Starting ranks: by rating, then name.
  std::vector<const StandingRow*> by_rating;
  for (const StandingRow& r : season.rows) by_rating.push_back(&r);
  std::stable_sort(by_rating.begin(), by_rating.end(), [](const auto* a, const auto* b) {
    if (a->rating != b->rating) return a->rating > b->rating;
    return a->player < b->player;
  });
  std::map<std::string, int> start;
  for (std::size_t i = 0; i < by_rating.size(); ++i) {
    start[by_rating[i]->player] = static_cast<int>(i + 1);
  }
  std::map<std::string, int> rank;
  for (std::size_t i = 0; i < season.rows.size(); ++i) {
    rank[season.rows[i].player] = static_cast<int>(i + 1);
  }
  // Each player's first game of each complete round, and their chess score.
  struct Cell {
    int opponent = 0;
    char colour = '-';
    char result = 'Z';
  };
  std::map<std::string, std::map<int, Cell>> cells;
  std::map<std::string, double> score;
  for (const LeagueGame& g : season.games) {
    if (g.round > last || !start.count(g.blue) || !start.count(g.orange)) continue;
    if (cells[g.blue].count(g.round) || cells[g.orange].count(g.round)) continue;
    const bool draw = g.kind == ResultKind::kDraw || !g.winner;
    const bool forfeit = g.kind == ResultKind::kForfeit;
    for (const bool blue : {true, false}) {
      const std::string& me = blue ? g.blue : g.orange;
      const std::string& them = blue ? g.orange : g.blue;
      Cell cell{start[them], blue ? 'w' : 'b', '='};
      if (!draw) {
        const bool won = (*g.winner == Seat::kBlue) == blue;
        cell.result = forfeit ? (won ? '+' : '-') : (won ? '1' : '0');
        score[me] += won ? 1.0 : 0.0;
      } else {
        score[me] += 0.5;
      }
      cells[me][g.round] = cell;
    }
  }
  std::string out;
  out += "012 " + CutUtf8(season.league_name + ", season " + std::to_string(season.season), 80) +
         "\r\n";
  out += "062 " + std::to_string(season.rows.size()) + "\r\n";
  out += std::string("092 ") + (season.swiss ? "Swiss system" : "Round robin") + "\r\n";
  out += "XXR " + std::to_string(std::max(season.rounds, last)) + "\r\n";
  for (const StandingRow* r : by_rating) {
    std::string line = "001";
    Put(line, 5, RightAligned(std::to_string(start[r->player]), 4));
    Put(line, 15, CutUtf8(r->player, 33));
    Put(line, 49, RightAligned(Decimal(std::clamp(std::round(r->rating), 0.0, 9999.0), 0), 4));
    Put(line, 81, RightAligned(Decimal(score[r->player], 1), 4));
    Put(line, 86, RightAligned(std::to_string(rank[r->player]), 4));
    for (int round = 1; round <= last; ++round) {
      const std::size_t at = 92 + 10 * static_cast<std::size_t>(round - 1);
      const auto found = cells[r->player].find(round);
      const Cell cell = found == cells[r->player].end() ? Cell{} : found->second;
      char opponent[8];
      std::snprintf(opponent, sizeof opponent, "%04d", cell.opponent);
      Put(line, at, opponent);
      Put(line, at + 5, std::string(1, cell.colour));
      Put(line, at + 7, std::string(1, cell.result));
    }
    out += line + "\r\n";
  }
  return out;
}

}  // namespace pbem::league
