// Results recorded by a league's organiser, and their corrections (issue 20, point 3).
//
// A result the organiser records ENDS the game (storage EndGame, the ending marked
// by_organiser): the game takes no more orders and its archive says how it ended. Recording
// again is a correction: it needs a reason, is kept in the league's correction history, and
// the ratings are rated again from the corrected period on, so that standings and ratings are
// those of the corrected history computed from scratch; every league player is told by mail
// in their language (templates/league/<lang>/correction.{subject,txt}).
#ifndef PBEM_DAEMON_LEAGUE_CORRECTION_H_
#define PBEM_DAEMON_LEAGUE_CORRECTION_H_

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "daemon/league/glicko2.h"
#include "daemon/league/league_flow.h"
#include "daemon/league/position.h"
#include "daemon/league/season.h"
#include "storage/game_repository.h"
#include "storage/league_repository.h"
#include "storage/status.h"

namespace pbem::league {

// The ratings of `league_id` rated again from period (from_season, from_round) on, from the
// corrected `games` (all the league's games): every period at or after it that `history` has
// is rated again in (season, round) order, for the players that period rated, starting from
// their ratings before it (as stored for earlier periods, as rated again for later ones).
// Periods before are kept as they are (not returned). Pure.
std::vector<storage::RatingRecord> RerateFrom(const std::string& league_id,
                                              const std::vector<storage::RatingRecord>& history,
                                              const std::vector<storage::LeagueGameRecord>& games,
                                              std::int64_t from_season, std::int64_t from_round,
                                              const Glicko2Params& params);

// A correction's reason: one line of printable UTF-8 (as a display name), at most this long.
inline constexpr std::size_t kMaxReasonChars = 500;

// What RecordOrganiserResult needs to go on after a result that completes its round (the
// next round's games, or the season's end), as pbemd's league pass does.
struct NextRound {
  const MaterialLoader* load = nullptr;
  daemon::EntropySource* entropy = nullptr;
  MailPlaces places{};
};

// What an organiser's result did.
struct OrganiserRecord {
  bool ended_game = false;  // the game was running: this result ended it
  bool corrected = false;   // the league had a result: it was corrected (the others: recorded)
  RecordedEnd recorded;     // the recording (RecordGameEnd) when not a correction
  // With `next` given: what the recording led to (the next round, the season's end), as
  // RecordAndAdvance; `advance.recorded` is `recorded`.
  Advance advance;
  int rerated_periods = 0;  // a correction: the rating periods rated again
  int mails_enqueued = 0;   // game-over mails, or correction mails
};

// Why RecordOrganiserResult refused (its FAILED_PRECONDITION cases), for callers that answer
// with a code.
enum class ResultRefusal {
  kNone,
  kReasonRequired,  // the game has a league result already: a correction needs a reason
  kUnchanged,       // the result given is the one stored: nothing to correct
  kMovedOn,         // the game or its result changed while recording: read again
};

// A word of the organiser's result that is wrong (ParseOrganiserEnd).
enum class ResultWord { kNone, kWinner, kLevel, kEnding };

// The organiser's result for `game_id` from its words, as the CLI's flags and the HTTP route's
// fields give them: `winner` "blue" or "orange" (nullopt: a draw); `level` "minor",
// "tactical", "major" or "total" (empty: total; a draw has none); `ending` "played",
// "resigned" (the winner's opponent resigned) or "forfeit" (the winner's opponent missed too
// many turns) (empty: played; a draw is played). nullopt with `wrong` saying which word is
// wrong (the caller names the field as its users write it).
std::optional<GameEnd> ParseOrganiserEnd(const std::string& game_id,
                                         const std::optional<std::string>& winner,
                                         const std::string& level, const std::string& ending,
                                         ResultWord* wrong);

// The organiser's result `end` for a league game (pbem league result; any result route):
//   - the game still running: ends it (storage EndGame with OrganiserEnding(end), conditional
//     on the game not having moved on since it was read; one game-over mail per player, in
//     their language: templates/league/<lang>/ended.{subject,txt}), then records it in the
//     league (RecordGameEnd: the round is rated when complete; with `next`, RecordAndAdvance:
//     the round's last result also starts the next round or ends the season);
//   - the game over, its league result pending: records it (the game keeps its own ending);
//     `position` says whether the rules ended it (a state it cannot read counts as running,
//     so an organiser can still end a game whose stored state is broken);
//   - the league result recorded already: a correction, refused without a `reason`
//     (kReasonRequired) or when it is the stored result (kUnchanged); otherwise stored with
//     the corrected ratings and the correction mails in ONE transaction
//     (LeagueRepository::CorrectLeagueResult). The game's own ending (what the archive
//     shows) stays the record of how play stopped.
// Errors: INVALID_ARGUMENT naming the reason when it is not one printable line of at most
// kMaxReasonChars characters; NOT_FOUND when no league has the game; FAILED_PRECONDITION with
// `refusal` set for the refusals above and kMovedOn for a lost race (nothing changed); the stores'
// Statuses.
Result<OrganiserRecord> RecordOrganiserResult(
    storage::GameRepository& games, storage::LeagueRepository& leagues,
    const PositionReader& position, const GameEnd& end, const std::string& reason,
    const std::filesystem::path& template_dir, storage::Timestamp now,
    ResultRefusal* refusal = nullptr, const NextRound* next = nullptr);

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_CORRECTION_H_
