#include "daemon/league/season.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

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
  Result<storage::League> league = leagues.GetLeague(league_id);
  if (!league.ok()) return league.status();
  Result<LeagueSettings> settings = DecodeSettings(league->settings);
  if (!settings.ok()) return settings.status();
  Result<SeasonStandings> standings = LoadSeasonStandings(leagues, league_id, *settings, season);
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
  StandingsView view{league->name, out.season, CompletedRound(standings->games), out.table,
                     standings->games};
  view.rank_after = settings->limits.finished_to_rank;
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

Result<Advance> RecordAndAdvance(storage::LeagueRepository& leagues, const GameEnd& end,
                                 const MaterialLoader& load, daemon::EntropySource& entropy,
                                 const std::filesystem::path& template_dir,
                                 storage::Timestamp now, const MailPlaces& places) {
  Result<RecordedEnd> recorded = RecordGameEnd(leagues, end, template_dir, now, places);
  if (!recorded.ok()) return recorded.status();
  Advance out;
  out.recorded = *recorded;
  if (!recorded->round_complete) return out;
  Result<storage::LeagueGameRecord> record = leagues.GetLeagueGame(end.game_id);
  if (!record.ok()) return record.status();
  Result<storage::League> league = leagues.GetLeague(record->league_id);
  if (!league.ok()) return league.status();
  Result<LeagueSettings> settings = DecodeSettings(league->settings);
  if (!settings.ok()) return settings.status();
  const bool swiss = settings->pairing == PairingSystem::kSwiss;
  // Swiss without a number of rounds: the organiser starts each round and ends the season.
  if (swiss && settings->swiss_rounds == 0) return out;
  bool last_round = swiss && recorded->round >= settings->swiss_rounds;
  if (!last_round) {
    Result<StartedRound> next =
        StartRound(leagues, record->league_id, recorded->season, recorded->round + 1, load, entropy,
                   template_dir, now, &out.next_refusal, places);
    if (next.ok()) {
      out.next = *next;
      return out;
    }
    // Round robin: no round after the schedule's last; the season is over.
    last_round = !swiss && out.next_refusal == StartRefusal::kNotInSchedule;
    if (!last_round) {
      out.next_status = next.status();
      return out;
    }
    out.next_refusal = StartRefusal::kNone;
  }
  StartRefusal refusal = StartRefusal::kNone;
  Result<FinishedSeason> finished =
      FinishSeason(leagues, record->league_id, recorded->season, template_dir, now, &refusal, places);
  if (finished.ok()) {
    out.finished = *finished;
  } else if (refusal != StartRefusal::kSeasonFinished) {
    out.next_refusal = refusal;
    out.next_status = finished.status();
  }
  return out;
}

}  // namespace pbem::league
