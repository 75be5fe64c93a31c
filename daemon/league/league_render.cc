#include "daemon/league/league_render.h"

#include <cmath>
#include <kainjow/mustache.hpp>
#include <sstream>

#include "daemon/league/league_flow.h"
#include "daemon/league/league_template.h"

// The standings mail and page and the season's end mail, from templates/league/<lang>/.
namespace pbem::league {
namespace mst = kainjow::mustache;

namespace {

std::string Fixed(double value, int decimals) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(decimals);
  out << value;
  return out.str();
}

mst::data ViewData(const StandingsView& view, const std::string& language) {
  mst::data d;
  d.set("league", view.league_name);
  d.set("season", std::to_string(view.season));
  d.set("round", std::to_string(view.round));
  d.set("has_round", view.round > 0);
  d.set("rank_after", std::to_string(view.rank_after));
  d.set("rank_after_one", view.rank_after == 1);
  d.set("rank_after_none", view.rank_after == 0);
  d.set("has_url", !view.places.public_url.empty());
  d.set("standings_link", view.places.public_url + "/v1/leagues/" + view.league_id +
                              "/standings.html?lang=" + language);
  d.set("round_done", view.round > 0);  // "after round N" only once a round is over
  mst::list rows;
  for (const auto& r : view.rows) {
    mst::data row;
    row.set("rank", r.rank ? std::to_string(*r.rank) : std::string("-"));
    row.set("ranked", r.rank.has_value());
    row.set("first", r.rank == 1);
    row.set("player", r.player);
    row.set("points", std::to_string(r.points));
    row.set("played", std::to_string(r.played));
    row.set("pending", std::to_string(r.pending));
    row.set("wins", std::to_string(r.wins));
    row.set("draws", std::to_string(r.draws));
    row.set("losses", std::to_string(r.losses));
    row.set("sb", Fixed(r.sonneborn_berger, 1));
    std::string sb_fr = Fixed(r.sonneborn_berger, 1);  // French writes a decimal comma
    sb_fr.replace(sb_fr.find('.'), 1, ",");
    row.set("sb_fr", sb_fr);
    row.set("rating", Fixed(r.rating, 0));
    rows.push_back(row);
  }
  d.set("rows", rows);
  mst::list games;
  for (const auto& g : view.games) {
    mst::data game = GameData(g);
    std::string link = view.archive_link;
    for (std::size_t at = link.find("{game}"); at != std::string::npos;
         at = link.find("{game}", at + g.game_id.size())) {
      link.replace(at, 6, g.game_id);
    }
    game.set("link", link);
    game.set("has_link", !view.archive_link.empty());
    games.push_back(game);
  }
  d.set("games", games);
  d.set("has_games", !view.games.empty());
  return d;
}

void TrimLineEnd(std::string& subject) {
  while (!subject.empty() && (subject.back() == '\n' || subject.back() == '\r')) {
    subject.pop_back();
  }
}

}  // namespace

mst::data GameData(const LeagueGame& g) {
  mst::data game;
  game.set("game", g.game_id);
  game.set("round", std::to_string(g.round));
  game.set("blue", g.blue);
  game.set("orange", g.orange);
  game.set("pending", g.kind == ResultKind::kPending);
  game.set("draw", g.kind == ResultKind::kDraw);
  game.set("forfeit", g.kind == ResultKind::kForfeit);
  game.set("resigned", g.kind == ResultKind::kResigned);
  game.set("winner", g.winner ? (*g.winner == Seat::kBlue ? g.blue : g.orange) : std::string());
  game.set("has_winner", g.winner.has_value());
  game.set("level", std::string(WinLevelName(g.level)));
  // The level as a flag too, for languages whose word is not the code ("victoire majeure").
  game.set("level_" + std::string(WinLevelName(g.level)), true);
  return game;
}

Result<std::string> RenderLeagueTemplate(const std::filesystem::path& template_dir,
                                         const std::string& language, const std::string& name,
                                         const mst::data& data, bool html) {
  if (language != "en" && language != "fr") {
    return Status::InvalidArgument("no league templates for language '" + language + "'");
  }
  return RenderTemplate(template_dir / language / name, data, html);
}

Result<RenderedStandings> RenderStandings(const std::filesystem::path& template_dir,
                                          const std::string& language, const StandingsView& view) {
  if (language != "en" && language != "fr") {
    return Status::InvalidArgument("no league templates for language '" + language + "'");
  }
  mst::data data = ViewData(view, language);
  Result<std::string> style = ReadLeagueTemplate(template_dir / "style.css");
  if (!style.ok()) return style.status();
  data.set("style", *style);
  RenderedStandings out;
  for (auto [name, target, html] : {std::tuple{"standings.subject", &out.subject, false},
                                    std::tuple{"standings.txt", &out.text, false},
                                    std::tuple{"standings.html", &out.html, true}}) {
    Result<std::string> rendered = RenderTemplate(template_dir / language / name, data, html);
    if (!rendered.ok()) return rendered.status();
    *target = std::move(*rendered);
  }
  TrimLineEnd(out.subject);
  out.text = AlignColumns(out.text);
  return out;
}

Result<RenderedMail> RenderSeasonEnd(const std::filesystem::path& template_dir,
                                     const std::string& language, const StandingsView& view,
                                     const std::optional<std::string>& champion,
                                     const std::string& player) {
  if (language != "en" && language != "fr") {
    return Status::InvalidArgument("no league templates for language '" + language + "'");
  }
  mst::data data = ViewData(view, language);
  data.set("player", player);
  if (champion) data.set("champion", *champion);
  RenderedMail out;
  for (auto [name, target] :
       {std::pair{"season_end.subject", &out.subject}, std::pair{"season_end.txt", &out.text}}) {
    Result<std::string> rendered = RenderTemplate(template_dir / language / name, data, false);
    if (!rendered.ok()) return rendered.status();
    *target = std::move(*rendered);
  }
  TrimLineEnd(out.subject);
  out.text = AlignColumns(out.text);
  return out;
}

}  // namespace pbem::league
