#include "daemon/league/season.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "daemon/fault_point.h"

namespace pbem::league {

std::optional<storage::LeagueSeason> FindSeason(const std::vector<storage::LeagueSeason>& seasons,
                                                std::int64_t season) {
  for (const auto& s : seasons) {
    if (s.season == season) return s;
  }
  return std::nullopt;
}

std::vector<std::string> TablePlayers(const std::optional<storage::LeagueSeason>& season,
                                      const std::vector<storage::LeaguePlayer>& current,
                                      const std::vector<LeagueGame>& season_games) {
  std::set<std::string> names;
  for (const auto& g : season_games) {
    names.insert(g.blue);
    names.insert(g.orange);
  }
  std::set<std::string> in_league;
  for (const auto& p : current) in_league.insert(p.player);
  const bool seated = season && !season->seats.empty();
  if (seated) {
    for (const auto& p : season->seats) {
      if (in_league.count(p)) names.insert(p);
    }
  } else if (!season || !season->finished_at) {
    names.insert(in_league.begin(), in_league.end());
  }
  return {names.begin(), names.end()};
}

std::vector<storage::RatingRecord> HistoryUpTo(const std::vector<storage::RatingRecord>& history,
                                               std::int64_t season) {
  std::vector<storage::RatingRecord> out;
  std::copy_if(history.begin(), history.end(), std::back_inserter(out),
               [season](const storage::RatingRecord& r) { return r.season <= season; });
  return out;
}

int CompletedRound(const std::vector<LeagueGame>& games) {
  int last = 0;
  for (const auto& g : games) last = std::max(last, g.round);
  for (int r = 1; r <= last; ++r) {
    if (!RoundComplete(games, r)) return r - 1;
  }
  return last;
}

Result<FinishedSeason> FinishSeason(storage::LeagueRepository& leagues,
                                    const std::string& league_id, int season,
                                    const std::filesystem::path& template_dir,
                                    storage::Timestamp now, StartRefusal* refusal,
                                    const MailPlaces& places) {
  StartRefusal ignored;
  StartRefusal& why = refusal != nullptr ? *refusal : ignored;
  why = StartRefusal::kNone;
  Result<StoredLeague> loaded = LoadStoredLeague(leagues, league_id, false);
  if (!loaded.ok()) return loaded.status();
  const storage::League& league = loaded->league;
  const LeagueSettings& settings = loaded->settings;
  Result<SeasonStandings> standings = LoadSeasonStandings(leagues, league_id, settings, season);
  if (!standings.ok()) return standings.status();
  const std::string which =
      "season " + std::to_string(standings->season) + " of league " + league_id;
  Result<std::vector<storage::LeagueSeason>> seasons = leagues.ListLeagueSeasons(league_id);
  if (!seasons.ok()) return seasons.status();
  if (auto stored = FindSeason(*seasons, standings->season); stored && stored->finished_at) {
    why = StartRefusal::kSeasonFinished;
    return Status::FailedPrecondition(which + " is finished already");
  }
  if (standings->games.empty()) {
    why = StartRefusal::kUnfinishedRound;
    return Status::FailedPrecondition(which + " has no game: there is nothing to end");
  }
  for (const auto& g : standings->games) {
    if (g.kind == ResultKind::kPending) {
      why = StartRefusal::kUnfinishedRound;
      return Status::FailedPrecondition(which + " cannot end while game " + g.game_id +
                                        " is still played");
    }
  }
  FinishedSeason out;
  out.season = standings->season;
  out.table = standings->rows;
  if (!out.table.empty() && out.table.front().rank == 1) out.champion = out.table.front().player;
  Result<std::vector<storage::LeaguePlayer>> players = leagues.ListLeaguePlayers(league_id);
  if (!players.ok()) return players.status();
  StandingsView view{league.name, out.season, CompletedRound(standings->games), out.table,
                     standings->games};
  view.rank_after = settings.limits.finished_to_rank;
  view.league_id = league_id;
  view.places = places;
  std::vector<storage::NewMail> mails;
  for (const auto& p : *players) {
    Result<RenderedMail> rendered =
        RenderSeasonEnd(template_dir, p.language, view, out.champion, p.player);
    if (!rendered.ok()) return rendered.status();
    storage::NewMail mail;
    mail.recipient = p.mail_address;
    mail.subject = rendered->subject;
    mail.body = rendered->text;
    mail.next_try = now;
    mails.push_back(std::move(mail));
  }
  if (Status s = leagues.FinishLeagueSeason(league_id, out.season, now, mails); !s.ok()) {
    if (s.code() == StatusCode::kAlreadyExists) {
      why = StartRefusal::kSeasonFinished;
      return Status::FailedPrecondition(which + " is finished already");
    }
    return s;
  }
  out.mails_enqueued = static_cast<int>(mails.size());
  return out;
}

namespace {

// What a complete round `round` of `season` leads to: a round robin starts the season's next
// round, or ends the season after its last round; a Swiss season with swiss_rounds set starts
// the next round up to that many, then ends the season. Into `out`: the round started, the
// season finished, or why neither happened. A round or an end that another caller did first
// is not a failure (nothing is done twice: AddLeagueRound and FinishLeagueSeason are single
// transactions refusing a second time).
void AdvanceAfterRound(storage::LeagueRepository& leagues, const std::string& league_id,
                       const LeagueSettings& settings, int season, int round,
                       const MaterialLoader& load, daemon::EntropySource& entropy,
                       const std::filesystem::path& template_dir, storage::Timestamp now,
                       const MailPlaces& places, Advance& out) {
  const bool swiss = settings.pairing == PairingSystem::kSwiss;
  // Swiss without a number of rounds: the organiser starts each round and ends the season.
  if (swiss && settings.swiss_rounds == 0) return;
  bool last_round = swiss && round >= settings.swiss_rounds;
  if (!last_round) {
    Result<StartedRound> next = StartRound(leagues, league_id, season, round + 1, load, entropy,
                                           template_dir, now, &out.next_refusal, places);
    if (next.ok()) {
      out.next = *next;
      return;
    }
    if (out.next_refusal == StartRefusal::kStartedAlready ||
        next.status().code() == StatusCode::kAlreadyExists) {
      out.next_refusal = StartRefusal::kNone;  // another caller started it
      return;
    }
    // Round robin: no round after the schedule's last; the season is over.
    last_round = !swiss && out.next_refusal == StartRefusal::kNotInSchedule;
    if (!last_round) {
      out.next_status = next.status();
      return;
    }
    out.next_refusal = StartRefusal::kNone;
  }
  StartRefusal refusal = StartRefusal::kNone;
  Result<FinishedSeason> finished =
      FinishSeason(leagues, league_id, season, template_dir, now, &refusal, places);
  if (finished.ok()) {
    out.finished = *finished;
  } else if (refusal != StartRefusal::kSeasonFinished) {
    out.next_refusal = refusal;
    out.next_status = finished.status();
  }
}

}  // namespace

Result<Advance> RecordAndAdvance(storage::LeagueRepository& leagues, const GameEnd& end,
                                 const MaterialLoader& load, daemon::EntropySource& entropy,
                                 const std::filesystem::path& template_dir, storage::Timestamp now,
                                 const MailPlaces& places) {
  Result<RecordedEnd> recorded = RecordGameEnd(leagues, end, template_dir, now, places);
  if (!recorded.ok()) return recorded.status();
  Advance out;
  out.recorded = *recorded;
  if (!recorded->round_complete) return out;
  // TEST-ONLY: the round is rated and its standings mailed; the next round is not started.
  daemon::FaultPoint(daemon::kFaultLeagueAfterRating,
                     "game=" + end.game_id + " round=" + std::to_string(recorded->round));
  Result<storage::LeagueGameRecord> record = leagues.GetLeagueGame(end.game_id);
  if (!record.ok()) return record.status();
  Result<StoredLeague> stored = LoadStoredLeague(leagues, record->league_id, false);
  if (!stored.ok()) return stored.status();
  AdvanceAfterRound(leagues, record->league_id, stored->settings, recorded->season, recorded->round,
                    load, entropy, template_dir, now, places, out);
  return out;
}

Result<std::optional<Advance>> CompleteStalledRound(
    storage::LeagueRepository& leagues, const std::string& league_id, const MaterialLoader& load,
    daemon::EntropySource& entropy, const std::filesystem::path& template_dir,
    storage::Timestamp now, const MailPlaces& places) {
  Result<std::vector<storage::LeagueGameRecord>> records = leagues.ListLeagueGames(league_id);
  if (!records.ok()) return records.status();
  if (records->empty()) return std::optional<Advance>();
  const std::int64_t season = records->back().season;  // (season, round, game id) order
  std::vector<LeagueGame> season_games;
  int round = 0;
  for (const storage::LeagueGameRecord& r : *records) {
    if (r.season != season) continue;
    season_games.push_back(FromRecord(r));
    round = std::max(round, static_cast<int>(r.round));
  }
  // Most passes end here: the season's last round is still played.
  if (CompletedRound(season_games) != round) return std::optional<Advance>();
  Result<std::vector<storage::LeagueSeason>> seasons = leagues.ListLeagueSeasons(league_id);
  if (!seasons.ok()) return seasons.status();
  if (auto stored = FindSeason(*seasons, season); stored && stored->finished_at) {
    return std::optional<Advance>();
  }
  Result<StoredLeague> stored = LoadStoredLeague(leagues, league_id, false);
  if (!stored.ok()) return stored.status();
  const LeagueSettings& settings = stored->settings;
  if (settings.pairing == PairingSystem::kSwiss && settings.swiss_rounds == 0) {
    return std::optional<Advance>();  // the organiser starts its rounds and ends its season
  }
  // The round is rated when it is not yet (RecordGameEnd keeps a recorded result and rates a
  // complete round that has no ratings: the gap of two results stored at once).
  GameEnd end;
  for (const LeagueGame& g : season_games) {
    if (g.round == round) end.game_id = g.game_id;
  }
  Result<RecordedEnd> recorded = RecordGameEnd(leagues, end, template_dir, now, places);
  if (!recorded.ok()) return recorded.status();
  Advance out;
  out.recorded = *recorded;
  AdvanceAfterRound(leagues, league_id, settings, static_cast<int>(season), round, load, entropy,
                    template_dir, now, places, out);
  if (!out.next && !out.finished && out.next_status.ok()) return std::optional<Advance>();
  return std::optional<Advance>(std::move(out));
}

}  // namespace pbem::league
