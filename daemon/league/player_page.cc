#include "daemon/league/player_page.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "daemon/league/league_flow.h"
#include "daemon/league/league_template.h"

namespace pbem::league {
namespace mst = kainjow::mustache;

namespace {

std::string Rounded(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.0f", std::round(value));
  return buffer;
}

// The chart: rating (a line) and rating ± RD (a band) over the rated rounds, as SVG
// coordinates in a kChartWidth x kChartHeight box with a margin for the axis labels.
constexpr double kChartWidth = 640, kChartHeight = 220, kMargin = 40;

struct Chart {
  std::string line, band, low_label, high_label;
};

Chart ChartOf(const std::vector<storage::RatingRecord>& history, const Rating& initial) {
  std::vector<std::pair<double, double>> points;  // rating, rd: the initial one first
  points.emplace_back(initial.rating, initial.rd);
  for (const auto& r : history) points.emplace_back(r.rating, r.rd);
  double low = points.front().first - points.front().second;
  double high = points.front().first + points.front().second;
  for (const auto& [rating, rd] : points) {
    low = std::min(low, rating - rd);
    high = std::max(high, rating + rd);
  }
  if (high - low < 1) high = low + 1;
  const double step = points.size() > 1 ? (kChartWidth - 2 * kMargin) / (points.size() - 1) : 0;
  auto x = [&](std::size_t i) { return kMargin + step * static_cast<double>(i); };
  auto y = [&](double v) {
    return kMargin / 2 + (kChartHeight - kMargin) * (high - v) / (high - low);
  };
  auto at = [](double px, double py) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.1f,%.1f ", px, py);
    return std::string(buffer);
  };
  Chart chart;
  for (std::size_t i = 0; i < points.size(); ++i) chart.line += at(x(i), y(points[i].first));
  for (std::size_t i = 0; i < points.size(); ++i) {
    chart.band += at(x(i), y(points[i].first + points[i].second));
  }
  for (std::size_t i = points.size(); i-- > 0;) {
    chart.band += at(x(i), y(points[i].first - points[i].second));
  }
  chart.low_label = Rounded(low);
  chart.high_label = Rounded(high);
  return chart;
}

}  // namespace

Result<std::string> RenderPlayerPage(storage::LeagueRepository& leagues,
                                     storage::GameRepository& games, const std::string& league_id,
                                     const std::string& player, const std::string& language,
                                     const std::filesystem::path& template_dir,
                                     const std::string& archive_link) {
  if (language != "en" && language != "fr") {
    return Status::InvalidArgument("no league templates for language '" + language + "'");
  }
  const bool fr = language == "fr";
  Result<StoredLeague> stored = LoadStoredLeague(leagues, league_id);
  if (!stored.ok()) return stored.status();
  const storage::League& league = stored->league;
  const LeagueSettings& settings = stored->settings;
  const std::vector<storage::LeaguePlayer>& players = stored->players;
  const std::vector<storage::LeagueGameRecord>& records = stored->games;
  Result<std::vector<storage::RatingRecord>> all_ratings = leagues.RatingHistory(league_id);
  if (!all_ratings.ok()) return all_ratings.status();

  bool known = std::any_of(players.begin(), players.end(),
                           [&](const storage::LeaguePlayer& p) { return p.player == player; });
  std::vector<storage::RatingRecord> history;
  for (const auto& r : *all_ratings) {
    if (r.player == player) history.push_back(r);
  }
  std::sort(history.begin(), history.end(), [](const auto& a, const auto& b) {
    return std::pair{a.season, a.round} < std::pair{b.season, b.round};
  });
  mst::list game_list;
  std::int64_t missed_total = 0;
  int finished = 0;
  for (const storage::LeagueGameRecord& g : records) {
    if (g.blue != player && g.orange != player) continue;
    known = true;
    const bool blue = g.blue == player;
    const std::string side = blue ? "blue" : "orange";
    std::int64_t missed = 0;
    Result<std::vector<storage::Player>> sides = games.ListPlayers(g.game_id);
    if (!sides.ok()) return sides.status();
    for (const storage::Player& p : *sides) {
      if (p.side == side) missed = p.missed_turns;
    }
    missed_total += missed;
    mst::data game;
    game.set("season", std::to_string(g.season));
    game.set("round", std::to_string(g.round));
    game.set("game", g.game_id);
    std::string link = archive_link;
    for (std::size_t at = link.find("{game}"); at != std::string::npos;
         at = link.find("{game}", at + g.game_id.size())) {
      link.replace(at, 6, g.game_id);
    }
    game.set("link", link);
    game.set("side", fr ? (blue ? "bleu" : "orange") : side);
    game.set("opponent", blue ? g.orange : g.blue);
    const bool pending = g.result == "pending";
    const bool won = !pending && g.winner == side;
    const bool lost = !pending && !g.winner.empty() && g.winner != side;
    if (!pending) ++finished;
    game.set("pending", pending);
    game.set("draw", !pending && g.winner.empty());
    game.set("won", won);
    game.set("lost", lost);
    game.set("forfeit", g.result == "forfeit");
    game.set("resigned", g.result == "resigned");
    game.set("missed", std::to_string(missed));
    game.set("has_missed", missed > 0);
    game_list.push_back(game);
  }
  if (!known && !history.empty()) known = true;
  if (!known) {
    return Status::NotFound("league \"" + league_id + "\" has no player \"" + player + "\"");
  }

  const Rating initial = InitialRating(settings.glicko);
  const Rating current =
      history.empty() ? initial
                      : Rating{history.back().rating, history.back().rd, history.back().volatility};
  mst::list rows;
  for (const auto& r : history) {
    mst::data row;
    row.set("season", std::to_string(r.season));
    row.set("round", std::to_string(r.round));
    row.set("rating", Rounded(r.rating));
    row.set("rd", Rounded(r.rd));
    row.set("provisional", r.rd > kProvisionalRd);
    rows.push_back(row);
  }
  const Chart chart = ChartOf(history, initial);
  mst::data d;
  d.set("league", league.name);
  d.set("league_id", league_id);
  d.set("player", player);
  d.set("rating", Rounded(current.rating));
  d.set("rd", Rounded(current.rd));
  d.set("provisional", current.rd > kProvisionalRd);
  d.set("provisional_rd", Rounded(kProvisionalRd));
  d.set("initial_rating", Rounded(initial.rating));
  d.set("initial_rd", Rounded(initial.rd));
  d.set("has_history", !history.empty());
  d.set("history", rows);
  d.set("chart_line", chart.line);
  d.set("chart_band", chart.band);
  d.set("chart_low", chart.low_label);
  d.set("chart_high", chart.high_label);
  d.set("has_games", !game_list.empty());
  d.set("games", game_list);
  d.set("games_count", std::to_string(game_list.size()));
  d.set("finished", std::to_string(finished));
  d.set("missed_total", std::to_string(missed_total));

  // One style sheet for both languages, inlined: the page is served alone.
  Result<std::string> style = ReadLeagueTemplate(template_dir / "player.css");
  if (!style.ok()) return style.status();
  d.set("style", *style);
  return RenderTemplate(template_dir / language / "player.html", d, true);
}

}  // namespace pbem::league
