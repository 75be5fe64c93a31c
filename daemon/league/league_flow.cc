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

namespace pbem::league {
namespace mst = kainjow::mustache;

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

WinLevel LevelFromName(const std::string& name) {
  return ParseWinLevel(name).value_or(WinLevel::kDraw);
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
  g.winner = ParseSeat(r.winner);
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
  r.winner = g.winner ? std::string(SeatName(*g.winner)) : std::string();
  r.level = g.kind == ResultKind::kPending ? std::string() : std::string(WinLevelName(g.level));
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

storage::GameEnding ResignationEnding(Seat resigning) {
  storage::GameEnding ending;
  ending.kind = storage::GameEndKind::kResigned;
  ending.winner = std::string(SeatName(OtherSeat(resigning)));
  ending.level = std::string(WinLevelName(WinLevel::kTotal));
  ending.text = ending.winner + " wins: " + std::string(SeatName(resigning)) + " resigned";
  return ending;
}

storage::GameEnding OrganiserEnding(const GameEnd& end) {
  storage::GameEnding ending;
  ending.by_organiser = true;
  const std::optional<Seat> winner = end.outcome.winner;
  ending.winner = winner ? std::string(SeatName(*winner)) : std::string();
  ending.level = std::string(WinLevelName(winner ? end.outcome.level : WinLevel::kDraw));
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
  const std::string loser = winner ? std::string(SeatName(OtherSeat(*winner))) : "";
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
                                 const game_system::Outcome& played) {
  GameEnd end;
  end.game_id = game_id;
  if (!ending) {
    const std::optional<LeagueOutcome> outcome = FromSystemOutcome(played);
    if (!outcome) return std::nullopt;
    end.kind = EndKind::kPlayed;
    end.outcome = *outcome;
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
    end.outcome.winner = ParseSeat(ending->winner);
  }
  end.outcome.level = end.outcome.winner ? LevelFromName(ending->level) : WinLevel::kDraw;
  // A winner stored with no level it names (never written so): the whole game, as a resignation.
  if (end.outcome.winner && end.outcome.level == WinLevel::kDraw) {
    end.outcome.level = WinLevel::kTotal;
  }
  return end;
}

}  // namespace pbem::league
