#include <Poco/JSON/Array.h>
#include <spdlog/spdlog.h>

#include <map>
#include <mutex>
#include <optional>
#include <variant>

#include "daemon/config.h"
#include "daemon/fault_point.h"
#include "daemon/game_catalog.h"
#include "daemon/json_input.h"
#include "daemon/league/season.h"
#include "daemon/league_api.h"
#include "daemon/league_api_parts.h"
#include "daemon/league_routes.h"

// A league's rounds and seasons: the organiser starts a round or ends a season, and the league
// pass records ended games and starts what follows.
namespace pbem::daemon {
namespace league_http {
namespace {

std::string RefusalCode(league::StartRefusal refusal) {
  switch (refusal) {
    case league::StartRefusal::kTooFewPlayers:
      return "too_few_players";
    case league::StartRefusal::kStartedAlready:
      return "round_started";
    case league::StartRefusal::kNotInSchedule:
      return "not_in_schedule";
    case league::StartRefusal::kGameLimit:
      return "game_limit";
    case league::StartRefusal::kUnfinishedRound:
      return "round_unfinished";
    case league::StartRefusal::kSeasonFinished:
      return "season_finished";
    case league::StartRefusal::kNone:
      break;
  }
  return "";
}

}  // namespace

std::unique_lock<std::mutex> HoldLeagueAdvance(std::string_view context) {
  static std::mutex advance;
  std::unique_lock<std::mutex> held(advance, std::try_to_lock);
  if (held.owns_lock()) return held;
  // TEST-ONLY: another caller records or starts; this one is about to wait for it.
  FaultPoint(kFaultLeagueAdvanceWait, context);
  held.lock();
  return held;
}

LeagueAnswer Start(const LeagueServices& services, const std::string& id,
                   const LeagueRequest& request, storage::LeagueRepository& leagues,
                   storage::Timestamp now) {
  if (auto refused =
          RefuseUnlessOrganiser(services, id, request.bearer_token, leagues, "start a season")) {
    return *refused;
  }
  int season = 1;
  std::optional<int> round;
  if (!request.body.empty()) {
    std::variant<Poco::JSON::Object::Ptr, LeagueAnswer> parsed = ParseObject(request.body);
    if (auto* refused = std::get_if<LeagueAnswer>(&parsed)) return *refused;
    const Poco::JSON::Object& spec = *std::get<Poco::JSON::Object::Ptr>(parsed);
    Result<std::int64_t> season_field = IntegerField(spec, "season", 1, 1, 10000);
    if (!season_field.ok()) return Malformed(season_field.status());
    season = static_cast<int>(*season_field);
    if (spec.has("round")) {
      Result<std::int64_t> round_field = IntegerField(spec, "round", 1, 1, 10000);
      if (!round_field.ok()) return Malformed(round_field.status());
      round = static_cast<int>(*round_field);
    }
  }
  league::StartRefusal refusal = league::StartRefusal::kNone;
  const std::unique_lock<std::mutex> held = HoldLeagueAdvance("league=" + id);
  Result<league::StartedRound> started =
      league::StartRound(leagues, id, season, round, Loader(*services.catalog), *services.entropy,
                         services.template_dir, now, &refusal, services.places);
  if (!started.ok()) {
    if (refusal != league::StartRefusal::kNone) {
      return Error(409, RefusalCode(refusal), started.status().message());
    }
    if (started.status().code() == StatusCode::kNotFound) {
      return Error(503, "unknown_scenario", started.status().message());
    }
    return StoreFailure(started.status());
  }
  Poco::JSON::Object reply;
  reply.set("league", id);
  reply.set("season", started->season);
  reply.set("round", started->round);
  Poco::JSON::Array list;
  for (const auto& g : started->games) {
    Poco::JSON::Object game;
    game.set("game", g.game_id);
    game.set("blue", g.blue);
    game.set("orange", g.orange);
    list.add(game);
  }
  reply.set("games", list);
  if (started->bye) reply.set("bye", *started->bye);
  reply.set("mailsQueued", started->mails_enqueued);
  return Json(201, reply);
}

// POST /v1/leagues/{id}/end {"season": N}: the organiser ends a season (league::FinishSeason).
LeagueAnswer EndSeason(const LeagueServices& services, const std::string& id,
                       const LeagueRequest& request, storage::LeagueRepository& leagues,
                       storage::Timestamp now) {
  if (auto refused =
          RefuseUnlessOrganiser(services, id, request.bearer_token, leagues, "end a season")) {
    return *refused;
  }
  int season = 0;  // the latest
  if (!request.body.empty()) {
    std::variant<Poco::JSON::Object::Ptr, LeagueAnswer> parsed = ParseObject(request.body);
    if (auto* refused = std::get_if<LeagueAnswer>(&parsed)) return *refused;
    const Poco::JSON::Object& spec = *std::get<Poco::JSON::Object::Ptr>(parsed);
    if (spec.has("season")) {
      Result<std::int64_t> season_field = IntegerField(spec, "season", 1, 1, 10000);
      if (!season_field.ok()) return Malformed(season_field.status());
      season = static_cast<int>(*season_field);
    }
  }
  league::StartRefusal refusal = league::StartRefusal::kNone;
  const std::unique_lock<std::mutex> held = HoldLeagueAdvance("league=" + id);
  Result<league::FinishedSeason> finished = league::FinishSeason(
      leagues, id, season, services.template_dir, now, &refusal, services.places);
  if (!finished.ok()) {
    if (refusal != league::StartRefusal::kNone) {
      return Error(409, RefusalCode(refusal), finished.status().message());
    }
    return StoreFailure(finished.status());
  }
  Poco::JSON::Object reply;
  reply.set("league", id);
  reply.set("season", finished->season);
  if (finished->champion) reply.set("champion", *finished->champion);
  Poco::JSON::Array table;
  for (const auto& r : finished->table) table.add(RowJson(r));
  reply.set("standings", table);
  reply.set("mailsQueued", finished->mails_enqueued);
  return Json(200, reply);
}

Result<Recorded> RecordAndAdvance(const LeagueServices& services,
                                  storage::LeagueRepository& leagues, const league::GameEnd& end,
                                  storage::Timestamp now, spdlog::logger* logger) {
  std::unique_lock<std::mutex> held = HoldLeagueAdvance("game=" + end.game_id);
  Result<league::Advance> advanced =
      league::RecordAndAdvance(leagues, end, Loader(*services.catalog), *services.entropy,
                               services.template_dir, now, services.places);
  held.unlock();
  if (!advanced.ok()) return advanced.status();
  const league::RecordedEnd& recorded = advanced->recorded;
  Recorded out;
  out.league_game = recorded.league_game;
  out.round_complete = recorded.round_complete;
  out.next_started = advanced->next.has_value();
  if (logger == nullptr || !recorded.round_complete) return out;
  if (advanced->next) {
    logger->info("event=league_round_started game={} season={} round={} games={}", end.game_id,
                 advanced->next->season, advanced->next->round, advanced->next->games.size());
  } else if (advanced->finished) {
    logger->info("event=league_season_finished game={} season={} champion={} mails={}", end.game_id,
                 advanced->finished->season,
                 QuoteLogValue(advanced->finished->champion.value_or("")),
                 advanced->finished->mails_enqueued);
  } else if (!advanced->next_status.ok()) {
    // Not an error of this game's result: the organiser starts the round by hand.
    logger->warn("event=league_round_not_started game={} season={} round={} error={}", end.game_id,
                 recorded.season, recorded.round + 1,
                 QuoteLogValue(advanced->next_status.ToString()));
  }
  return out;
}

}  // namespace league_http

using namespace league_http;  // NOLINT: the answers shared by the league routes

namespace {

// The last refusal logged per league by CompleteStalledRounds: a next round that cannot start
// (too few players, a game limit) is tried again every pass, and said once until it changes.
class StalledWarnings {
 public:
  bool IsNew(const std::string& league_id, const std::string& why) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string& last = last_[league_id];
    if (last == why) return false;
    last = why;
    return true;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> last_;
};

// Every league whose last round is complete but not followed up (a crash between rating it
// and starting the next round or ending the season, or a start that failed): done now
// (league::CompleteStalledRound; idempotent).
void CompleteStalledRounds(const LeagueServices& services, storage::LeagueRepository& leagues,
                           storage::Timestamp now, spdlog::logger* logger, LeaguePass& pass) {
  static StalledWarnings warnings;
  Result<std::vector<std::string>> ids = leagues.ListLeagueIds();
  if (!ids.ok()) {
    ++pass.failures;
    if (logger != nullptr) {
      logger->error("event=league_stalled_check_failed error={}",
                    QuoteLogValue(ids.status().ToString()));
    }
    return;
  }
  for (const std::string& id : *ids) {
    std::unique_lock<std::mutex> held = HoldLeagueAdvance("league=" + id);
    Result<std::optional<league::Advance>> done =
        league::CompleteStalledRound(leagues, id, Loader(*services.catalog), *services.entropy,
                                     services.template_dir, now, services.places);
    held.unlock();
    if (!done.ok()) {
      ++pass.failures;
      if (logger != nullptr && warnings.IsNew(id, done.status().ToString())) {
        logger->error("event=league_stalled_check_failed league={} error={}", id,
                      QuoteLogValue(done.status().ToString()));
      }
      continue;
    }
    if (!done->has_value()) continue;
    const league::Advance& advanced = **done;
    if (advanced.next) {
      ++pass.rounds_recovered;
      warnings.IsNew(id, "");
      if (logger != nullptr) {
        logger->info("event=league_round_recovered league={} season={} round={} games={}", id,
                     advanced.next->season, advanced.next->round, advanced.next->games.size());
      }
    } else if (advanced.finished) {
      ++pass.rounds_recovered;
      warnings.IsNew(id, "");
      if (logger != nullptr) {
        logger->info("event=league_season_recovered league={} season={} champion={} mails={}", id,
                     advanced.finished->season,
                     QuoteLogValue(advanced.finished->champion.value_or("")),
                     advanced.finished->mails_enqueued);
      }
    } else if (logger != nullptr && warnings.IsNew(id, advanced.next_status.ToString())) {
      // Not this pass's failure: the organiser starts the round by hand, or fixes its cause.
      logger->warn("event=league_round_not_started league={} season={} round={} error={}", id,
                   advanced.recorded.season, advanced.recorded.round + 1,
                   QuoteLogValue(advanced.next_status.ToString()));
    }
  }
}

}  // namespace

Result<LeaguePass> RecordLeagueResults(const LeagueServices& services,
                                       storage::GameRepository& games,
                                       storage::LeagueRepository& leagues, storage::Timestamp now,
                                       spdlog::logger* logger) {
  Result<std::vector<storage::LeagueGameRecord>> pending = leagues.ListPendingLeagueGames();
  if (!pending.ok()) return pending.status();
  LeaguePass pass;
  // A game whose result could not be recorded this pass: counted and logged; the next pass
  // tries again.
  const auto failed = [&](const std::string& game_id, const Status& status) {
    ++pass.failures;
    if (logger != nullptr) {
      logger->error("event=league_record_failed game={} error={}", game_id,
                    QuoteLogValue(status.ToString()));
    }
  };
  for (const storage::LeagueGameRecord& record : *pending) {
    Result<storage::Game> game = games.GetGame(record.game_id);
    if (!game.ok()) {
      if (game.status().code() == StatusCode::kNotFound) continue;  // not created (yet)
      failed(record.game_id, game.status());
      continue;
    }
    std::optional<league::GameEnd> end;
    if (game->ending) {
      end = league::EndOfGame(record.game_id, game->ending, game_system::Outcome{});
    } else {
      Result<GameContext> context = services.catalog->Load(*game);
      if (!context.ok()) {
        failed(record.game_id, context.status());
        continue;
      }
      end = league::EndOfGame(record.game_id, std::nullopt, context->outcome);
    }
    if (!end) continue;
    Result<Recorded> recorded = RecordAndAdvance(services, leagues, *end, now, logger);
    if (!recorded.ok()) {
      failed(record.game_id, recorded.status());
      continue;
    }
    ++pass.recorded;
    if (recorded->next_started) ++pass.rounds_started;
    if (logger != nullptr) {
      logger->info("event=league_result_recorded league={} game={} round_complete={}",
                   record.league_id, record.game_id, recorded->round_complete);
    }
  }
  CompleteStalledRounds(services, leagues, now, logger, pass);
  return pass;
}

}  // namespace pbem::daemon
