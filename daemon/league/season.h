// A league season from start to end: who is in a season's table (history stays history), what
// a result that completes a round does next (the next round, or the season's end: one shared
// path for pbemd's league pass, its HTTP routes and `pbem league result`), and the season's
// end with its final table and champion mails (templates/league/<lang>/season_end.*).
#ifndef PBEM_DAEMON_LEAGUE_SEASON_H_
#define PBEM_DAEMON_LEAGUE_SEASON_H_

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "daemon/league/league_flow.h"
#include "daemon/turn/dice.h"
#include "storage/league_repository.h"
#include "storage/status.h"

namespace pbem::league {

// The stored season `season` of `seasons`, or nullopt (not started, or started before seasons
// were stored).
std::optional<storage::LeagueSeason> FindSeason(const std::vector<storage::LeagueSeason>& seasons,
                                                std::int64_t season);

// The players of a season's table: everyone with a game in the season, the seated players
// still in the league, and, while a season without seats (Swiss, or stored before seasons
// were) is played, every league player. So a finished season's table never changes when a
// player leaves or joins later, and a player who left keeps their results.
std::vector<std::string> TablePlayers(const std::optional<storage::LeagueSeason>& season,
                                      const std::vector<storage::LeaguePlayer>& current,
                                      const std::vector<LeagueGame>& season_games);

// The rating history up to the end of `season` (later seasons left out): a finished season's
// table keeps the ratings its tie-breaks used.
std::vector<storage::RatingRecord> HistoryUpTo(const std::vector<storage::RatingRecord>& history,
                                               std::int64_t season);

// The last round of `games` whose games are all finished, every earlier round too (0: none).
// What "standings after round N" names.
int CompletedRound(const std::vector<LeagueGame>& games);

// A finished season: its final table and champion (the first ranked player; nullopt when
// nobody has enough finished games to be ranked).
struct FinishedSeason {
  int season = 0;
  std::vector<StandingRow> table;
  std::optional<std::string> champion;
  int mails_enqueued = 0;
};

// Ends `season` (0: the latest season with games): the final table, and one mail per league
// player in their language (templates/league/<lang>/season_end.{subject,txt}) naming the
// champion, stored with the season's end in ONE transaction (FinishLeagueSeason), so a season
// ends and is announced once. Refusals (FAILED_PRECONDITION, `refusal` says which, nothing
// written): kUnfinishedRound (a game of the season is still played, or the season has no
// game), kSeasonFinished. NOT_FOUND for an unknown league; the stores' Statuses.
Result<FinishedSeason> FinishSeason(storage::LeagueRepository& leagues,
                                    const std::string& league_id, int season,
                                    const std::filesystem::path& template_dir,
                                    storage::Timestamp now, StartRefusal* refusal = nullptr,
                                    const MailPlaces& places = {});

// What recording a game's end led to.
struct Advance {
  RecordedEnd recorded;
  std::optional<StartedRound> next;  // the round this result started
  // Why the next round did not start when it should have (kNone: it started, or none was
  // due, or another caller started it), with the Status that says so: pbemd's league pass
  // tries again (CompleteStalledRound), or the organiser starts it by hand.
  StartRefusal next_refusal = StartRefusal::kNone;
  Status next_status;
  std::optional<FinishedSeason> finished;  // this result ended the season
};

// RecordGameEnd, then, when the result completed its round: a round robin starts the
// season's next round, or ends the season after its last round; a Swiss season with
// swiss_rounds set starts the next round up to that many, then ends the season (with
// swiss_rounds 0 the organiser starts rounds and ends the season). The one path of every
// result: pbemd's league pass, its resignations and `pbem league result`. Errors: those of
// RecordGameEnd (a failure to start the next round is in next_status, not an error of the
// result).
Result<Advance> RecordAndAdvance(storage::LeagueRepository& leagues, const GameEnd& end,
                                 const MaterialLoader& load, daemon::EntropySource& entropy,
                                 const std::filesystem::path& template_dir, storage::Timestamp now,
                                 const MailPlaces& places = {});

// The repair of a crash (or a failed start) between rating a round and what follows it: when
// the latest season of `league_id` is not finished and its last round is complete (every game
// of it, and of every earlier round, has its result) yet no next round exists, rates that
// round if it has no ratings yet, then does what its last result should have done (as
// RecordAndAdvance: the next round, or the season's end; nothing for a Swiss season without
// swiss_rounds). Idempotent: a round started or a season finished by another caller meanwhile
// is not done twice (one transaction each, mails included). nullopt when there was nothing to
// do; otherwise what was done, or why it could not be (next_refusal, next_status). Errors:
// the stores' Statuses.
Result<std::optional<Advance>> CompleteStalledRound(
    storage::LeagueRepository& leagues, const std::string& league_id, const MaterialLoader& load,
    daemon::EntropySource& entropy, const std::filesystem::path& template_dir,
    storage::Timestamp now, const MailPlaces& places = {});

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_SEASON_H_
