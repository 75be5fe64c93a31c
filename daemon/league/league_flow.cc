#include "daemon/league/league_flow.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <kainjow/mustache.hpp>
#include <set>
#include <sstream>

#include "daemon/league/league_render.h"
#include "daemon/league/league_template.h"
#include "daemon/league/season.h"
#include "daemon/turn/turn_job.h"
#include "engine/victory.h"

namespace pbem::league {
namespace mst = kainjow::mustache;

// --- settings ----------------------------------------------------------------------------------

std::string EncodeSettings(const LeagueSettings& s) {
  std::ostringstream out;
  const PointsTable& p = s.points;
  out << "points " << p.total << ' ' << p.major << ' ' << p.tactical << ' ' << p.minor << ' '
      << p.draw << ' ' << p.loss << ' ' << p.forfeit_loss << ' ' << p.forfeit_win << '\n';
  out << "limits";
  for (const auto& step : s.limits.steps) out << ' ' << step.finished << ':' << step.max_active;
  out << '\n' << "rank_after " << s.limits.finished_to_rank << '\n';
  out.precision(17);
  out << "glicko " << s.glicko.initial_rating << ' ' << s.glicko.initial_rd << ' '
      << s.glicko.initial_volatility << ' ' << s.glicko.tau << '\n';
  out << "sides " << (s.sides == SideRule::kBothSides ? "both" : "balanced") << '\n';
  out << "language " << s.language << '\n';
  out << "pairing " << (s.pairing == PairingSystem::kSwiss ? "swiss" : "round_robin") << '\n';
  out << "swiss_rounds " << s.swiss_rounds << '\n';
  out << "scenarios";
  for (const auto& name : s.scenarios) out << ' ' << name;
  out << '\n' << "deadlines " << s.turn_timeout.count() << ' ' << s.reminder_before.count() << '\n';
  out << "registration " << (s.registration_open ? "open" : "closed") << '\n';
  return out.str();
}

Result<LeagueSettings> DecodeSettings(const std::string& text) {
  LeagueSettings s;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream words(line);
    std::string key;
    if (!(words >> key)) continue;
    auto bad = [&](const std::string& why) {
      return Status::InvalidArgument("league settings line " + std::to_string(number) + " (" +
                                     line + "): " + why);
    };
    bool ok = true;
    if (key == "points") {
      PointsTable& p = s.points;
      ok = static_cast<bool>(words >> p.total >> p.major >> p.tactical >> p.minor >> p.draw >>
                             p.loss >> p.forfeit_loss >> p.forfeit_win);
    } else if (key == "limits") {
      s.limits.steps.clear();
      std::string step;
      while (words >> step) {
        const auto colon = step.find(':');
        if (colon == std::string::npos) return bad("a limit is <finished>:<max games>");
        try {
          s.limits.steps.push_back(
              {std::stoi(step.substr(0, colon)), std::stoi(step.substr(colon + 1))});
        } catch (const std::exception&) {
          return bad("a limit is <finished>:<max games>");
        }
      }
      ok = !s.limits.steps.empty();
    } else if (key == "rank_after") {
      ok = static_cast<bool>(words >> s.limits.finished_to_rank) && s.limits.finished_to_rank >= 0;
    } else if (key == "glicko") {
      Glicko2Params& g = s.glicko;
      ok = static_cast<bool>(words >> g.initial_rating >> g.initial_rd >> g.initial_volatility >>
                             g.tau) &&
           g.initial_rd > 0 && g.initial_volatility > 0 && g.tau > 0;
    } else if (key == "sides") {
      std::string v;
      words >> v;
      if (v != "balanced" && v != "both") return bad("sides is balanced or both");
      s.sides = v == "both" ? SideRule::kBothSides : SideRule::kBalanced;
    } else if (key == "pairing") {
      std::string v;
      words >> v;
      if (v != "round_robin" && v != "swiss") return bad("pairing is round_robin or swiss");
      s.pairing = v == "swiss" ? PairingSystem::kSwiss : PairingSystem::kRoundRobin;
    } else if (key == "swiss_rounds") {
      if (!(words >> s.swiss_rounds) || s.swiss_rounds < 0) {
        return bad("swiss_rounds is a number from 0");
      }
    } else if (key == "scenarios") {
      s.scenarios.clear();
      std::string name;
      while (words >> name) {
        if (name.find_first_of("/\\") != std::string::npos || name.front() == '.') {
          return bad("a scenario is a name, not a path");
        }
        s.scenarios.push_back(name);
      }
      ok = !s.scenarios.empty();
    } else if (key == "deadlines") {
      long long timeout = 0, reminder = 0;
      ok = static_cast<bool>(words >> timeout >> reminder) && timeout >= 0 && reminder >= 0 &&
           (timeout == 0 || reminder < timeout);
      s.turn_timeout = std::chrono::seconds(timeout);
      s.reminder_before = std::chrono::seconds(reminder);
    } else if (key == "registration") {
      std::string v;
      words >> v;
      if (v != "open" && v != "closed") return bad("registration is open or closed");
      s.registration_open = v == "open";
    } else if (key == "language") {
      words >> s.language;
      if (s.language != "en" && s.language != "fr") return bad("language is en or fr");
    } else {
      return bad("unknown setting " + key);
    }
    if (!ok) return bad("bad value");
  }
  return s;
}

// --- records -----------------------------------------------------------------------------------

namespace {

std::string KindName(ResultKind kind) {
  switch (kind) {
    case ResultKind::kPending:
      return "pending";
    case ResultKind::kVictory:
      return "victory";
    case ResultKind::kDraw:
      return "draw";
    case ResultKind::kResigned:
      return "resigned";
    case ResultKind::kForfeit:
      return "forfeit";
  }
  return "pending";
}

ResultKind KindFromName(const std::string& name) {
  if (name == "victory") return ResultKind::kVictory;
  if (name == "draw") return ResultKind::kDraw;
  if (name == "resigned") return ResultKind::kResigned;
  if (name == "forfeit") return ResultKind::kForfeit;
  return ResultKind::kPending;
}

engine::VictoryLevel LevelFromName(const std::string& name) {
  for (auto level : {engine::VictoryLevel::kMinor, engine::VictoryLevel::kTactical,
                     engine::VictoryLevel::kMajor, engine::VictoryLevel::kTotal}) {
    if (engine::VictoryLevelName(level) == name) return level;
  }
  return engine::VictoryLevel::kDraw;
}

}  // namespace

Result<StoredLeague> LoadStoredLeague(storage::LeagueRepository& leagues,
                                      const std::string& league_id, bool with_players_and_games) {
  Result<storage::League> league = leagues.GetLeague(league_id);
  if (!league.ok()) return league.status();
  Result<LeagueSettings> settings = DecodeSettings(league->settings);
  if (!settings.ok()) return settings.status();
  StoredLeague out{std::move(league).value(), std::move(settings).value(), {}, {}};
  if (!with_players_and_games) return out;
  Result<std::vector<storage::LeaguePlayer>> players = leagues.ListLeaguePlayers(league_id);
  if (!players.ok()) return players.status();
  Result<std::vector<storage::LeagueGameRecord>> games = leagues.ListLeagueGames(league_id);
  if (!games.ok()) return games.status();
  out.players = std::move(players).value();
  out.games = std::move(games).value();
  return out;
}

LeagueGame FromRecord(const storage::LeagueGameRecord& r) {
  LeagueGame g;
  g.game_id = r.game_id;
  g.round = static_cast<int>(r.round);
  g.blue = r.blue;
  g.orange = r.orange;
  g.kind = KindFromName(r.result);
  g.winner = engine::ParseSide(r.winner);
  g.level = LevelFromName(r.level);
  return g;
}

storage::LeagueGameRecord ToRecord(const LeagueGame& g, const std::string& league_id, int season) {
  storage::LeagueGameRecord r;
  r.league_id = league_id;
  r.season = season;
  r.round = g.round;
  r.game_id = g.game_id;
  r.blue = g.blue;
  r.orange = g.orange;
  r.result = KindName(g.kind);
  r.winner = g.winner ? std::string(engine::SideName(*g.winner)) : std::string();
  r.level = g.kind == ResultKind::kPending ? std::string()
                                           : std::string(engine::VictoryLevelName(g.level));
  return r;
}

Result<SeasonStandings> LoadSeasonStandings(storage::LeagueRepository& leagues,
                                            const std::string& league_id,
                                            const LeagueSettings& settings, int season) {
  Result<std::vector<storage::LeaguePlayer>> players = leagues.ListLeaguePlayers(league_id);
  if (!players.ok()) return players.status();
  Result<std::vector<storage::LeagueGameRecord>> games = leagues.ListLeagueGames(league_id);
  if (!games.ok()) return games.status();
  Result<std::vector<storage::RatingRecord>> history = leagues.RatingHistory(league_id);
  if (!history.ok()) return history.status();
  Result<std::vector<storage::LeagueSeason>> seasons = leagues.ListLeagueSeasons(league_id);
  if (!seasons.ok()) return seasons.status();
  SeasonStandings out;
  out.history = *history;
  out.season = season;
  if (season == 0) {
    out.season = 1;
    for (const auto& g : *games) out.season = std::max(out.season, static_cast<int>(g.season));
  }
  for (const auto& g : *games) {
    if (g.season == out.season) out.games.push_back(FromRecord(g));
  }
  const std::optional<storage::LeagueSeason> stored = FindSeason(*seasons, out.season);
  out.finished = stored && stored->finished_at;
  const std::vector<std::string> names = TablePlayers(stored, *players, out.games);
  out.rows = ComputeStandings(
      names, out.games, settings.points, settings.limits,
      LatestRatings(HistoryUpTo(out.history, out.season), names, settings.glicko), settings.glicko);
  return out;
}

std::map<std::string, Rating> LatestRatings(const std::vector<storage::RatingRecord>& history,
                                            const std::vector<std::string>& players,
                                            const Glicko2Params& params) {
  std::map<std::string, Rating> out;
  for (const auto& p : players) out[p] = InitialRating(params);
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> latest;
  for (const auto& r : history) {
    auto period = std::pair{r.season, r.round};
    auto it = latest.find(r.player);
    if (it != latest.end() && it->second >= period) continue;
    latest[r.player] = period;
    out[r.player] = Rating{r.rating, r.rd, r.volatility};
  }
  return out;
}

Result<Round> PairSwissRound(const std::vector<std::string>& players,
                             const std::vector<LeagueGame>& games,
                             const std::map<std::string, Rating>& ratings,
                             const LeagueSettings& settings, int round) {
  std::map<std::string, SwissPlayer> by_name;
  for (const auto& p : players) {
    SwissPlayer sp;
    sp.id = p;
    auto it = ratings.find(p);
    sp.rating = it == ratings.end() ? settings.glicko.initial_rating : it->second.rating;
    by_name[p] = sp;
  }
  std::vector<LeagueGame> earlier;
  std::map<int, std::set<std::string>> playing;  // round -> players with a game
  for (const auto& g : games) {
    if (g.round >= round) continue;
    if (g.kind == ResultKind::kPending) {
      return Status::FailedPrecondition("round " + std::to_string(g.round) +
                                        " is not finished (game " + g.game_id +
                                        "): Swiss pairs on finished rounds only");
    }
    earlier.push_back(g);
    playing[g.round].insert(g.blue);
    playing[g.round].insert(g.orange);
  }
  std::stable_sort(earlier.begin(), earlier.end(),
                   [](const LeagueGame& a, const LeagueGame& b) { return a.round < b.round; });
  for (const auto& g : earlier) {
    auto b = by_name.find(g.blue);
    auto o = by_name.find(g.orange);
    if (b != by_name.end()) {
      ++b->second.blue_games;
      b->second.last_was_blue = true;
      b->second.opponents.insert(g.orange);
    }
    if (o != by_name.end()) {
      ++o->second.orange_games;
      o->second.last_was_blue = false;
      o->second.opponents.insert(g.blue);
    }
  }
  PlayerLimits no_rank = settings.limits;
  no_rank.finished_to_rank = 0;
  for (const auto& row :
       ComputeStandings(players, earlier, settings.points, no_rank, ratings, settings.glicko)) {
    by_name[row.player].score = row.points;
  }
  for (const auto& [r, who] : playing) {
    for (auto& [name, sp] : by_name) {
      if (!who.count(name)) sp.had_bye = true;
    }
  }
  std::vector<SwissPlayer> list;
  for (auto& [name, sp] : by_name) list.push_back(sp);
  Result<Round> paired = SwissRound(list, round);
  if (!paired.ok() || settings.sides != SideRule::kBothSides) return paired;
  Round both = paired.value();
  both.games.clear();
  for (const auto& g : paired.value().games) {
    both.games.push_back(g);
    both.games.push_back(Pairing{g.orange, g.blue});
  }
  return both;
}

// --- rendering ---------------------------------------------------------------------------------

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
  game.set("winner",
           g.winner ? (*g.winner == engine::Side::kBlue ? g.blue : g.orange) : std::string());
  game.set("has_winner", g.winner.has_value());
  game.set("level", std::string(engine::VictoryLevelName(g.level)));
  // The level as a flag too, for languages whose word is not the code ("victoire majeure").
  game.set("level_" + std::string(engine::VictoryLevelName(g.level)), true);
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

// --- the flow ------------------------------------------------------------------------------------

namespace {

// The season's games as stored, with `game` (its result perhaps not stored yet) in place.
Result<std::vector<LeagueGame>> SeasonGames(storage::LeagueRepository& leagues,
                                            const std::string& league_id, std::int64_t season,
                                            const LeagueGame& game) {
  Result<std::vector<storage::LeagueGameRecord>> all = leagues.ListLeagueGames(league_id);
  if (!all.ok()) return all.status();
  std::vector<LeagueGame> games;
  for (const auto& r : *all) {
    if (r.season != season) continue;
    games.push_back(r.game_id == game.game_id ? game : FromRecord(r));
  }
  return games;
}

// Fills out.standings from `season_games`; when out.round is complete there and not rated
// yet, rates it and stores the ratings with one standings mail per player (in their
// language) in one transaction, setting out.round_complete and out.mails_enqueued.
// `completing`: the new result that completes the round, stored with the ratings; `stored` is
// set when it was.
Status RateIfComplete(storage::LeagueRepository& leagues, const storage::League& league,
                      const LeagueSettings& settings, const std::vector<LeagueGame>& season_games,
                      const std::optional<storage::LeagueGameRecord>& completing,
                      const std::filesystem::path& template_dir, storage::Timestamp now,
                      const MailPlaces& places, RecordedEnd& out, bool& stored_result) {
  stored_result = false;
  Result<std::vector<storage::LeaguePlayer>> players = leagues.ListLeaguePlayers(league.id);
  if (!players.ok()) return players.status();
  std::vector<std::string> names;
  for (const auto& p : *players) names.push_back(p.player);
  Result<std::vector<storage::RatingRecord>> history = leagues.RatingHistory(league.id);
  if (!history.ok()) return history.status();
  const bool rated_already =
      std::any_of(history->begin(), history->end(), [&](const storage::RatingRecord& r) {
        return r.season == out.season && r.round == out.round;
      });
  // The period rates the league's players and whoever played in the round: a player who left
  // is not rated for the rounds after (a removal changes only the future).
  std::map<std::string, Rating> ratings = LatestRatings(*history, names, settings.glicko);
  std::set<std::string> in_period(names.begin(), names.end());
  for (const auto& g : season_games) {
    if (g.round != out.round) continue;
    in_period.insert(g.blue);
    in_period.insert(g.orange);
  }
  std::erase_if(ratings, [&](const auto& entry) { return !in_period.count(entry.first); });
  const bool rate_now = RoundComplete(season_games, out.round) && !rated_already;
  std::vector<storage::RatingRecord> stored;
  if (rate_now) {
    ratings = RatePeriod(ratings, RatedGamesOfRound(season_games, out.round), settings.glicko);
    for (const auto& [player, r] : ratings) {
      stored.push_back({league.id, player, out.season, out.round, r.rating, r.rd, r.volatility});
    }
  }
  // The table: the season's players (TablePlayers), with the ratings just computed.
  Result<std::vector<storage::LeagueSeason>> seasons = leagues.ListLeagueSeasons(league.id);
  if (!seasons.ok()) return seasons.status();
  const std::vector<std::string> table_names =
      TablePlayers(FindSeason(*seasons, out.season), *players, season_games);
  std::map<std::string, Rating> table_ratings =
      LatestRatings(HistoryUpTo(*history, out.season), table_names, settings.glicko);
  for (const auto& [player, r] : ratings) table_ratings[player] = r;
  out.standings = ComputeStandings(table_names, season_games, settings.points, settings.limits,
                                   table_ratings, settings.glicko);
  if (!rate_now) return Status::Ok();
  StandingsView view{league.name, out.season, CompletedRound(season_games), out.standings,
                     season_games};
  view.rank_after = settings.limits.finished_to_rank;
  view.league_id = league.id;
  view.places = places;
  std::map<std::string, RenderedStandings> by_language;
  std::vector<storage::NewMail> mails;
  for (const auto& p : *players) {
    auto rendered = by_language.find(p.language);
    if (rendered == by_language.end()) {
      Result<RenderedStandings> r = RenderStandings(template_dir, p.language, view);
      if (!r.ok()) return r.status();
      rendered = by_language.emplace(p.language, *r).first;
    }
    storage::NewMail mail;
    mail.recipient = p.mail_address;
    mail.subject = rendered->second.subject;
    mail.body = rendered->second.text;
    mail.next_try = now;
    mails.push_back(std::move(mail));
  }
  if (Status s = leagues.AppendRatings(stored, mails, completing); !s.ok()) {
    // Another caller (thread or process) rated and mailed this round first: nothing to do.
    return s.code() == StatusCode::kAlreadyExists ? Status::Ok() : s;
  }
  stored_result = completing.has_value();
  out.round_complete = true;
  out.mails_enqueued = static_cast<int>(mails.size());
  return Status::Ok();
}

}  // namespace

LeagueGame WithEnd(LeagueGame game, const GameEnd& end) {
  game = WithOutcome(game, end.outcome);
  if (end.kind == EndKind::kResigned) game.kind = ResultKind::kResigned;
  if (end.kind == EndKind::kForfeit) game.kind = ResultKind::kForfeit;
  return game;
}

Result<RecordedEnd> RecordGameEnd(storage::LeagueRepository& leagues, const GameEnd& end,
                                  const std::filesystem::path& template_dir, storage::Timestamp now,
                                  const MailPlaces& places) {
  RecordedEnd out;
  Result<storage::LeagueGameRecord> record = leagues.GetLeagueGame(end.game_id);
  if (!record.ok()) {
    if (record.status().code() == StatusCode::kNotFound) return out;
    return record.status();
  }
  out.league_game = true;
  const std::string league_id = record->league_id;
  out.season = static_cast<int>(record->season);
  out.round = static_cast<int>(record->round);
  Result<StoredLeague> stored = LoadStoredLeague(leagues, league_id, false);
  if (!stored.ok()) return stored.status();
  const storage::League& league = stored->league;
  const LeagueSettings& settings = stored->settings;

  LeagueGame game = FromRecord(*record);
  const bool newly_ended = game.kind == ResultKind::kPending;
  if (newly_ended) game = WithEnd(game, end);
  Result<std::vector<LeagueGame>> season_games =
      SeasonGames(leagues, league_id, record->season, game);
  if (!season_games.ok()) return season_games.status();
  // A new result that completes the round is stored in the transaction that rates and mails
  // the round: a crash leaves either all of it or the game pending for the next call.
  const bool completes = RoundComplete(*season_games, out.round);
  const storage::LeagueGameRecord result = ToRecord(game, league_id, out.season);
  bool stored_result = false;
  if (completes || !newly_ended) {
    if (Status s = RateIfComplete(leagues, league, settings, *season_games,
                                  newly_ended ? std::optional(result) : std::nullopt, template_dir,
                                  now, places, out, stored_result);
        !s.ok()) {
      return s;
    }
  }
  if (!newly_ended || stored_result) return out;
  // Not rated with it (the round is not complete, or was rated already): store it alone.
  if (Status s = leagues.RecordLeagueResult(result); !s.ok()) return s;
  if (completes) return out;
  // Another caller may have stored the round's last other result meanwhile, seeing this game
  // still pending: read again, so that the round is rated by one of us.
  season_games = SeasonGames(leagues, league_id, record->season, game);
  if (!season_games.ok()) return season_games.status();
  if (Status s = RateIfComplete(leagues, league, settings, *season_games, std::nullopt,
                                template_dir, now, places, out, stored_result);
      !s.ok()) {
    return s;
  }
  return out;
}

// --- game ends ---------------------------------------------------------------------------------

storage::GameEnding ResignationEnding(engine::Side resigning) {
  storage::GameEnding ending;
  ending.kind = storage::GameEndKind::kResigned;
  ending.winner = std::string(engine::SideName(engine::Opponent(resigning)));
  ending.level = std::string(engine::VictoryLevelName(engine::VictoryLevel::kTotal));
  ending.text = ending.winner + " wins: " + std::string(engine::SideName(resigning)) + " resigned";
  return ending;
}

storage::GameEnding OrganiserEnding(const GameEnd& end) {
  storage::GameEnding ending;
  ending.by_organiser = true;
  const std::optional<engine::Side> winner = end.outcome.winner;
  ending.winner = winner ? std::string(engine::SideName(*winner)) : std::string();
  ending.level = std::string(
      engine::VictoryLevelName(winner ? end.outcome.level : engine::VictoryLevel::kDraw));
  switch (end.kind) {
    case EndKind::kPlayed:
      ending.kind = winner ? storage::GameEndKind::kVictory : storage::GameEndKind::kDraw;
      break;
    case EndKind::kResigned:
      ending.kind = storage::GameEndKind::kResigned;
      break;
    case EndKind::kForfeit:
      ending.kind = storage::GameEndKind::kForfeit;
      break;
  }
  const std::string loser = winner ? std::string(engine::SideName(engine::Opponent(*winner))) : "";
  switch (ending.kind) {
    case storage::GameEndKind::kVictory:
      ending.text = ending.winner + " wins (" + ending.level + "), recorded by the organiser";
      break;
    case storage::GameEndKind::kDraw:
      ending.text = "a draw, recorded by the organiser";
      break;
    case storage::GameEndKind::kResigned:
      ending.text = ending.winner + " wins: " + loser + " resigned, recorded by the organiser";
      break;
    case storage::GameEndKind::kForfeit:
      ending.text =
          winner ? ending.winner + " wins: " + loser + " forfeited, recorded by the organiser"
                 : "no winner: both forfeited, recorded by the organiser";
      break;
  }
  return ending;
}

std::optional<GameEnd> EndOfGame(const std::string& game_id,
                                 const std::optional<storage::GameEnding>& ending,
                                 const engine::GameState& state) {
  GameEnd end;
  end.game_id = game_id;
  if (!ending) {
    if (!state.finished) return std::nullopt;
    end.kind = EndKind::kPlayed;
    end.outcome = state.outcome;
    return end;
  }
  switch (ending->kind) {
    case storage::GameEndKind::kVictory:
    case storage::GameEndKind::kDraw:
      end.kind = EndKind::kPlayed;
      break;
    case storage::GameEndKind::kResigned:
      end.kind = EndKind::kResigned;
      break;
    case storage::GameEndKind::kForfeit:
      end.kind = EndKind::kForfeit;
      break;
  }
  if (ending->kind != storage::GameEndKind::kDraw) {
    end.outcome.winner = engine::ParseSide(ending->winner);
  }
  end.outcome.level =
      end.outcome.winner ? LevelFromName(ending->level) : engine::VictoryLevel::kDraw;
  // A winner stored with no level it names (never written so): the whole game, as a resignation.
  if (end.outcome.winner && end.outcome.level == engine::VictoryLevel::kDraw) {
    end.outcome.level = engine::VictoryLevel::kTotal;
  }
  return end;
}

// --- starting a round --------------------------------------------------------------------------

Result<std::string> NewToken(daemon::EntropySource& entropy) {
  Result<daemon::Bytes> bytes = entropy.Draw(16);
  if (!bytes.ok()) return bytes.status();
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : *bytes) {
    hex += kHex[c >> 4];
    hex += kHex[c & 15];
  }
  return hex;
}

namespace {

// `seats`: the round robin's seats (the whole schedule is computed from them); a pairing
// with a seat whose player is no longer in `names` is left out (its opponent sits out).
Result<Round> PairRound(storage::LeagueRepository& leagues, const std::string& league_id,
                        const LeagueSettings& settings, const std::vector<std::string>& names,
                        const std::vector<std::string>& seats,
                        const std::vector<storage::LeagueGameRecord>& games, int season,
                        int round_number) {
  if (settings.pairing == PairingSystem::kSwiss) {
    Result<std::vector<storage::RatingRecord>> history = leagues.RatingHistory(league_id);
    if (!history.ok()) return history.status();
    std::vector<LeagueGame> season_games;
    for (const auto& g : games) {
      if (g.season == season) season_games.push_back(FromRecord(g));
    }
    return PairSwissRound(names, season_games, LatestRatings(*history, names, settings.glicko),
                          settings, round_number);
  }
  Result<std::vector<Round>> rounds = RoundRobin(seats, settings.sides);
  if (!rounds.ok()) return rounds.status();
  if (round_number < 1 || round_number > static_cast<int>(rounds->size())) {
    return Status::FailedPrecondition("round " + std::to_string(round_number) +
                                      " is not in the schedule of league " + league_id + " (1.." +
                                      std::to_string(rounds->size()) + ")");
  }
  Round round = (*rounds)[static_cast<std::size_t>(round_number - 1)];
  const std::set<std::string> present(names.begin(), names.end());
  std::erase_if(round.games, [&](const Pairing& p) {
    return !present.count(p.blue) || !present.count(p.orange);
  });
  if (round.bye && !present.count(*round.bye)) round.bye.reset();
  return round;
}

// Why `round_number` of `season` may not start: an earlier round not started or not finished.
std::optional<std::string> EarlierRoundOpen(const std::vector<storage::LeagueGameRecord>& games,
                                            const std::string& league_id, int season,
                                            int round_number) {
  std::set<std::int64_t> started;
  for (const auto& g : games) {
    if (g.season != season || g.round >= round_number) continue;
    started.insert(g.round);
    if (g.result == "pending") {
      return "round " + std::to_string(g.round) + " of season " + std::to_string(season) +
             " of league " + league_id + " is not finished (game " + g.game_id +
             " is still played): round " + std::to_string(round_number) + " starts once it is over";
    }
  }
  for (int r = 1; r < round_number; ++r) {
    if (!started.count(r)) {
      return "round " + std::to_string(r) + " of season " + std::to_string(season) + " of league " +
             league_id + " has not started: rounds start in order";
    }
  }
  return std::nullopt;
}

}  // namespace

Result<StartedRound> StartRound(storage::LeagueRepository& leagues, const std::string& league_id,
                                int season, std::optional<int> round, const MaterialLoader& load,
                                daemon::EntropySource& entropy,
                                const std::filesystem::path& template_dir, storage::Timestamp now,
                                StartRefusal* refusal, const MailPlaces& places) {
  StartRefusal ignored;
  StartRefusal& why = refusal != nullptr ? *refusal : ignored;
  why = StartRefusal::kNone;
  Result<StoredLeague> loaded = LoadStoredLeague(leagues, league_id);
  if (!loaded.ok()) return loaded.status();
  const storage::League& league = loaded->league;
  const LeagueSettings& settings = loaded->settings;
  const std::vector<storage::LeaguePlayer>& players = loaded->players;
  const std::vector<storage::LeagueGameRecord>& games = loaded->games;
  if (players.size() < 2) {
    why = StartRefusal::kTooFewPlayers;
    return Status::FailedPrecondition("league " + league_id + " has " +
                                      std::to_string(players.size()) +
                                      " player(s): a round needs at least two");
  }
  if (season < 1) return Status::InvalidArgument("the season is a number from 1");
  int round_number = 1;
  if (round) {
    round_number = *round;
  } else {
    for (const auto& g : games) {
      if (g.season == season) round_number = std::max(round_number, static_cast<int>(g.round) + 1);
    }
  }
  if (settings.pairing == PairingSystem::kSwiss && settings.swiss_rounds > 0 &&
      round_number > settings.swiss_rounds) {
    why = StartRefusal::kNotInSchedule;
    return Status::FailedPrecondition(
        "a season of league " + league_id + " has " + std::to_string(settings.swiss_rounds) +
        " Swiss rounds: there is no round " + std::to_string(round_number));
  }
  Result<std::vector<storage::LeagueSeason>> seasons = leagues.ListLeagueSeasons(league_id);
  if (!seasons.ok()) return seasons.status();
  const std::optional<storage::LeagueSeason> stored_season = FindSeason(*seasons, season);
  if (stored_season && stored_season->finished_at) {
    why = StartRefusal::kSeasonFinished;
    return Status::FailedPrecondition("season " + std::to_string(season) + " of league " +
                                      league_id + " is finished: its rounds are history");
  }
  std::vector<std::string> names;
  std::map<std::string, const storage::LeaguePlayer*> by_name;
  for (const auto& p : players) {
    names.push_back(p.player);
    by_name[p.player] = &p;
  }
  // Limits: active (pending) and finished games per player, before writing anything.
  std::map<std::string, int> active, finished, extra;
  for (const auto& g : games) {
    if (g.season == season && g.round == round_number) {
      why = StartRefusal::kStartedAlready;
      return Status::FailedPrecondition("season " + std::to_string(season) + " round " +
                                        std::to_string(round_number) + " of league " + league_id +
                                        " has started already");
    }
    for (const auto& p : {g.blue, g.orange}) ++(g.result == "pending" ? active : finished)[p];
  }
  if (std::optional<std::string> open = EarlierRoundOpen(games, league_id, season, round_number)) {
    why = StartRefusal::kUnfinishedRound;
    return Status::FailedPrecondition(*open);
  }
  // Round robin: the seats pinned at the season's start (stored below with the first round
  // started since), so that every round comes from one schedule.
  const bool round_robin = settings.pairing == PairingSystem::kRoundRobin;
  const bool new_season = !stored_season.has_value();
  const std::vector<std::string> seats = !round_robin ? std::vector<std::string>{}
                                         : new_season ? names
                                                      : stored_season->seats;
  Result<Round> paired =
      PairRound(leagues, league_id, settings, names, seats, games, season, round_number);
  if (!paired.ok()) {
    if (paired.status().code() == StatusCode::kFailedPrecondition) {
      why = settings.pairing == PairingSystem::kSwiss ? StartRefusal::kUnfinishedRound
                                                      : StartRefusal::kNotInSchedule;
    }
    return paired.status();
  }
  for (const auto& p : paired->games) {
    ++extra[p.blue];
    ++extra[p.orange];
  }
  for (const auto& [player, n] : extra) {
    if (Status s = CheckGameLimit(settings.limits, player, finished[player], active[player], n);
        !s.ok()) {
      why = StartRefusal::kGameLimit;
      return s;
    }
  }
  const std::string& scenario_name =
      settings.scenarios[static_cast<std::size_t>(round_number - 1) % settings.scenarios.size()];
  Result<GameMaterial> material = load(scenario_name);
  if (!material.ok()) return material.status();

  StartedRound out;
  out.season = season;
  out.round = round_number;
  out.bye = paired->bye;
  // Games, players, their league records and the mails are written in one transaction at the
  // end (AddLeagueRound): a crash or a refusal leaves no game outside its round.
  std::vector<storage::NewGameWithPlayers> new_games;
  std::vector<storage::NewMail> mails;
  for (std::size_t i = 0; i < paired->games.size(); ++i) {
    const Pairing& p = paired->games[i];
    const std::string game_id = league_id + "-s" + std::to_string(season) + "-r" +
                                std::to_string(round_number) + "-g" + std::to_string(i + 1);
    storage::NewGame game = daemon::MakeNewGame(material->ruleset_proto, material->scenario_proto,
                                                material->scenario, game_id, now);
    game.scenario = scenario_name;  // the catalogue's name, which finds the files again
    game.deadlines.turn_timeout = settings.turn_timeout;
    game.deadlines.reminder_before = settings.reminder_before;
    storage::NewGameWithPlayers with_players{std::move(game), {}};
    for (const auto& [side, player] : {std::pair{"blue", p.blue}, std::pair{"orange", p.orange}}) {
      Result<std::string> token = NewToken(entropy);
      if (!token.ok()) return token.status();
      const storage::LeaguePlayer& lp = *by_name.at(player);
      with_players.players.push_back({game_id, side, lp.mail_address, *token, lp.language, player});
      out.tickets.push_back({player, game_id, side, player == p.blue ? p.orange : p.blue, *token});
    }
    LeagueGame g;
    g.game_id = game_id;
    g.round = round_number;
    g.blue = p.blue;
    g.orange = p.orange;
    out.games.push_back(ToRecord(g, league_id, season));
    new_games.push_back(std::move(with_players));
  }
  // Blue moves first in every game: its first orders are due one turn after the games open.
  std::optional<std::chrono::sys_seconds> first_deadline;
  if (settings.turn_timeout.count() > 0) {
    first_deadline = std::chrono::floor<std::chrono::seconds>(now) + settings.turn_timeout;
  }
  for (const auto& lp : players) {
    GamesMailInput input{league_id, league.name, season, round_number, lp.player};
    for (const Ticket& t : out.tickets) {
      if (t.player == lp.player) input.games.push_back({t.game_id, t.side, t.opponent, t.token});
    }
    if (input.games.empty()) continue;
    input.turn_timeout = settings.turn_timeout;
    input.first_deadline = first_deadline;
    input.places = places;
    Result<LeagueMail> rendered = RenderGamesMail(template_dir, lp.language, input);
    if (!rendered.ok()) return rendered.status();
    storage::NewMail mail;
    mail.recipient = lp.mail_address;
    mail.subject = rendered->subject;
    mail.body = rendered->body;
    mail.next_try = now;
    mails.push_back(std::move(mail));
  }
  if (new_season) {
    Status stored = leagues.StartLeagueSeason({league_id, season, seats, now, std::nullopt});
    // Stored meanwhile by another caller: fine when it pinned the same seats.
    if (stored.code() == StatusCode::kAlreadyExists) {
      Result<std::vector<storage::LeagueSeason>> again = leagues.ListLeagueSeasons(league_id);
      if (!again.ok()) return again.status();
      const std::optional<storage::LeagueSeason> other = FindSeason(*again, season);
      if (other && other->seats == seats) stored = Status::Ok();
    }
    if (!stored.ok()) return stored;
  }
  if (Status s = leagues.AddLeagueRound(new_games, out.games, mails); !s.ok()) return s;
  out.mails_enqueued = static_cast<int>(mails.size());
  return out;
}

}  // namespace pbem::league
