#include "daemon/league/correction.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "daemon/league/league_render.h"
#include "daemon/league/league_template.h"
#include "daemon/validate.h"

namespace pbem::league {
namespace mst = kainjow::mustache;

namespace {

using Period = std::pair<std::int64_t, std::int64_t>;  // (season, round)

Period PeriodOf(const storage::RatingRecord& r) { return {r.season, r.round}; }

Status Refused(ResultRefusal why, ResultRefusal* refusal, const std::string& message) {
  if (refusal != nullptr) *refusal = why;
  return Status::FailedPrecondition(message);
}

// One result in the words of `language` (templates/league/<lang>/result.txt), on one line.
Result<std::string> ResultPhrase(const std::filesystem::path& template_dir,
                                 const std::string& language, const LeagueGame& game) {
  Result<std::string> text =
      RenderLeagueTemplate(template_dir, language, "result.txt", GameData(game), false);
  if (!text.ok()) return text.status();
  std::string line = std::move(text).value();
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

bool SameResult(const storage::LeagueGameRecord& a, const storage::LeagueGameRecord& b) {
  return a.result == b.result && a.winner == b.winner && a.level == b.level;
}

// The game's state says the rules finished it. A state the system cannot read is not finished:
// the organiser's result then ends the game, as for any running game.
bool FinishedByPlay(const PositionReader& position, const storage::Game& game) {
  Result<GamePosition> read = position(game);
  return read.ok() && read->finished;
}

// Ends the running `game` with the organiser's `result`, one mail per player.
Result<int> EndRunningGame(storage::GameRepository& games, const storage::Game& game,
                           const storage::League& league, const LeagueGame& result,
                           const GameEnd& end, const std::filesystem::path& template_dir,
                           storage::Timestamp now, ResultRefusal* refusal) {
  Result<std::vector<storage::Player>> players = games.ListPlayers(game.id);
  if (!players.ok()) return players.status();
  std::vector<storage::NewMail> mails;
  for (const storage::Player& p : *players) {
    Result<std::string> phrase = ResultPhrase(template_dir, p.language, result);
    if (!phrase.ok()) return phrase.status();
    mst::data data;
    data.set("game", game.id);
    data.set("league", league.name);
    data.set("result", *phrase);
    Result<storage::NewMail> mail =
        RenderLeagueNewMail(template_dir, p.language, "ended", data, p.mail_address, now);
    if (!mail.ok()) return mail.status();
    mails.push_back(std::move(mail).value());
  }
  Result<bool> ended =
      games.EndGame(game.id, game.turns_committed, OrganiserEnding(end), now, mails);
  if (!ended.ok() && ended.status().code() == StatusCode::kFailedPrecondition) {
    return Refused(ResultRefusal::kMovedOn, refusal,
                   "game " + game.id + " moved on while its result was recorded: " +
                       ended.status().message() + "; record it again");
  }
  if (!ended.ok()) return ended.status();
  if (!*ended) {
    return Refused(ResultRefusal::kMovedOn, refusal,
                   "game " + game.id + " ended while its result was recorded; record it again");
  }
  return static_cast<int>(mails.size());
}

}  // namespace

std::vector<storage::RatingRecord> RerateFrom(const std::string& league_id,
                                              const std::vector<storage::RatingRecord>& history,
                                              const std::vector<storage::LeagueGameRecord>& games,
                                              std::int64_t from_season, std::int64_t from_round,
                                              const Glicko2Params& params) {
  const Period from{from_season, from_round};
  std::vector<storage::RatingRecord> sorted = history;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return PeriodOf(a) < PeriodOf(b); });
  std::map<std::string, Rating> latest;                // each player's rating so far
  std::map<Period, std::vector<std::string>> periods;  // the periods rated again: who they rated
  for (const storage::RatingRecord& r : sorted) {
    if (PeriodOf(r) < from) {
      latest[r.player] = Rating{r.rating, r.rd, r.volatility};
    } else {
      periods[PeriodOf(r)].push_back(r.player);
    }
  }
  std::vector<storage::RatingRecord> out;
  for (const auto& [period, players] : periods) {
    std::vector<LeagueGame> season_games;
    for (const storage::LeagueGameRecord& g : games) {
      if (g.season == period.first) season_games.push_back(FromRecord(g));
    }
    std::map<std::string, Rating> before;
    for (const std::string& p : players) {
      const auto found = latest.find(p);
      before[p] = found != latest.end() ? found->second : InitialRating(params);
    }
    const std::map<std::string, Rating> after = RatePeriod(
        before, RatedGamesOfRound(season_games, static_cast<int>(period.second)), params);
    for (const auto& [player, r] : after) {
      out.push_back({league_id, player, period.first, period.second, r.rating, r.rd, r.volatility});
      latest[player] = r;
    }
  }
  return out;
}

std::optional<GameEnd> ParseOrganiserEnd(const std::string& game_id,
                                         const std::optional<std::string>& winner,
                                         const std::string& level, const std::string& ending,
                                         ResultWord* wrong) {
  ResultWord ignored;
  ResultWord& why = wrong != nullptr ? *wrong : ignored;
  why = ResultWord::kNone;
  GameEnd end;
  end.game_id = game_id;
  if (ending.empty() || ending == "played") {
    end.kind = EndKind::kPlayed;
  } else if (ending == "resigned" && winner) {
    end.kind = EndKind::kResigned;
  } else if (ending == "forfeit" && winner) {
    end.kind = EndKind::kForfeit;
  } else {
    why = ResultWord::kEnding;
    return std::nullopt;
  }
  if (!winner) {
    if (!level.empty()) {
      why = ResultWord::kLevel;
      return std::nullopt;
    }
    return end;
  }
  end.outcome.winner = ParseSeat(*winner);
  if (!end.outcome.winner) {
    why = ResultWord::kWinner;
    return std::nullopt;
  }
  const std::optional<WinLevel> wanted = ParseWinLevel(level.empty() ? "total" : level);
  if (!wanted || *wanted == WinLevel::kDraw) {
    why = ResultWord::kLevel;
    return std::nullopt;
  }
  end.outcome.level = *wanted;
  return end;
}

Result<OrganiserRecord> RecordOrganiserResult(storage::GameRepository& games,
                                              storage::LeagueRepository& leagues,
                                              const PositionReader& position, const GameEnd& end,
                                              const std::string& reason,
                                              const std::filesystem::path& template_dir,
                                              storage::Timestamp now, ResultRefusal* refusal,
                                              const NextRound* next) {
  if (refusal != nullptr) *refusal = ResultRefusal::kNone;
  if (!reason.empty()) {
    if (std::optional<std::string> wrong = daemon::DisplayNameProblem(reason, kMaxReasonChars)) {
      return Status::InvalidArgument("the reason " + *wrong);
    }
  }
  Result<storage::LeagueGameRecord> record = leagues.GetLeagueGame(end.game_id);
  if (!record.ok()) return record.status();
  Result<StoredLeague> stored_league = LoadStoredLeague(leagues, record->league_id, false);
  if (!stored_league.ok()) return stored_league.status();
  const storage::League& league = stored_league->league;
  const LeagueSettings& settings = stored_league->settings;
  const LeagueGame stored = FromRecord(*record);
  const LeagueGame corrected = WithEnd(stored, end);
  OrganiserRecord out;

  if (stored.kind == ResultKind::kPending) {
    Result<storage::Game> game = games.GetGame(end.game_id);
    if (!game.ok()) return game.status();
    if (game->result.empty() && !FinishedByPlay(position, *game)) {
      Result<int> mailed =
          EndRunningGame(games, *game, league, corrected, end, template_dir, now, refusal);
      if (!mailed.ok()) return mailed.status();
      out.ended_game = true;
      out.mails_enqueued = *mailed;
    }
    if (next != nullptr && next->load != nullptr && next->entropy != nullptr) {
      Result<Advance> advanced = RecordAndAdvance(leagues, end, *next->load, *next->entropy,
                                                  template_dir, now, next->places);
      if (!advanced.ok()) return advanced.status();
      out.advance = *advanced;
      out.recorded = advanced->recorded;
      return out;
    }
    Result<RecordedEnd> recorded = RecordGameEnd(leagues, end, template_dir, now);
    if (!recorded.ok()) return recorded.status();
    out.recorded = *recorded;
    out.advance.recorded = *recorded;
    return out;
  }

  const storage::LeagueGameRecord after =
      ToRecord(corrected, record->league_id, static_cast<int>(record->season));
  Result<std::string> before_words = ResultPhrase(template_dir, "en", stored);
  if (!before_words.ok()) return before_words.status();
  if (reason.empty()) {
    return Refused(ResultRefusal::kReasonRequired, refusal,
                   "game " + end.game_id + " has a league result already (" + *before_words +
                       "): to correct it, give the reason for the correction");
  }
  if (SameResult(*record, after)) {
    return Refused(ResultRefusal::kUnchanged, refusal,
                   "game " + end.game_id + " has that result already (" + *before_words +
                       "): nothing to correct");
  }
  Result<std::vector<storage::LeagueGameRecord>> all = leagues.ListLeagueGames(league.id);
  if (!all.ok()) return all.status();
  for (storage::LeagueGameRecord& g : *all) {
    if (g.game_id == after.game_id) g = after;
  }
  Result<std::vector<storage::RatingRecord>> history = leagues.RatingHistory(league.id);
  if (!history.ok()) return history.status();
  const std::vector<storage::RatingRecord> rerated =
      RerateFrom(league.id, *history, *all, record->season, record->round, settings.glicko);
  std::set<Period> periods;
  for (const auto& r : rerated) periods.insert(PeriodOf(r));

  Result<std::vector<storage::LeaguePlayer>> players = leagues.ListLeaguePlayers(league.id);
  if (!players.ok()) return players.status();
  std::vector<storage::NewMail> mails;
  for (const storage::LeaguePlayer& p : *players) {
    Result<std::string> was = ResultPhrase(template_dir, p.language, stored);
    if (!was.ok()) return was.status();
    Result<std::string> now_is = ResultPhrase(template_dir, p.language, corrected);
    if (!now_is.ok()) return now_is.status();
    mst::data data = GameData(corrected);
    data.set("player", p.player);
    data.set("league", league.name);
    data.set("season", std::to_string(record->season));
    data.set("before", *was);
    data.set("after", *now_is);
    data.set("reason", reason);
    Result<storage::NewMail> mail =
        RenderLeagueNewMail(template_dir, p.language, "correction", data, p.mail_address, now);
    if (!mail.ok()) return mail.status();
    mails.push_back(std::move(mail).value());
  }
  const storage::LeagueCorrection correction{0, *record, after, reason, now};
  if (Status s = leagues.CorrectLeagueResult(correction, rerated, mails); !s.ok()) {
    if (s.code() == StatusCode::kFailedPrecondition) {
      return Refused(ResultRefusal::kMovedOn, refusal, s.message() + "; correct it again");
    }
    return s;
  }
  out.corrected = true;
  out.rerated_periods = static_cast<int>(periods.size());
  out.mails_enqueued = static_cast<int>(mails.size());
  return out;
}

}  // namespace pbem::league
