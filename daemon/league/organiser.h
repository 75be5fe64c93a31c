// The organiser's tools over a league (issue 20 point 5), shared by pbemd's routes
// (daemon/league_organiser_api.cc) and `pbem league` (daemon/cli/league_command.cc):
//   - the status of every game of the league (side to move, deadline, last orders, missed
//     turns, paused, result);
//   - extending the deadline of one game, bounded, with a mail to its players in their
//     language (templates/league/<language>/extension.{subject,txt});
//   - closing and reopening registration (LeagueSettings::registration_open).
// The organiser's token is checked by the callers. Errors are Status values; a refusal the
// organiser caused carries an OrganiserRefusal for callers that answer with a code.
#ifndef PBEM_DAEMON_LEAGUE_ORGANISER_H_
#define PBEM_DAEMON_LEAGUE_ORGANISER_H_

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "daemon/league/position.h"
#include "storage/game_repository.h"
#include "storage/league_repository.h"
#include "storage/status.h"

namespace pbem::templates {
class MailTemplates;
}  // namespace pbem::templates
namespace pbem::daemon {
class GameCatalog;
}  // namespace pbem::daemon

namespace pbem::league {

// One game of a league as its organiser sees it.
struct GameStatus {
  storage::LeagueGameRecord record;  // season, round, players, the league's result
  bool over = false;                 // ended: a stored result, or the engine finished it
  std::string result;                // the game's result sentence (storage::Game::result)
  int turn = 0;                      // the game turn (1-based) being played or last played
  std::string side_to_move;          // "blue" / "orange"; "" when over
  std::string player_to_move;        // the league player of that side; "" when over
  // When the side to move's orders are due (daemon/turn TurnDeadline); nullopt when the game
  // has no timeout, is over, or its turn is not open yet. While paused, the deadline moves on
  // by the time the pause lasts.
  std::optional<storage::Timestamp> deadline;
  bool paused = false;
  std::optional<storage::Timestamp> last_orders_at;  // the latest accepted orders, any side
  std::string last_orders_side;
  std::int64_t missed_blue = 0;  // turns resolved without orders, by side
  std::int64_t missed_orange = 0;
};

// The position as `catalog` loads the game (which must outlive the reader); with `pinned`, from
// the ruleset and scenario pinned in the game (GameCatalog::LoadPinned: `pbem league status`).
PositionReader CatalogPositions(daemon::GameCatalog& catalog, bool pinned = false);

// Every game of the league, in (season, round, game) order, each placed by `position`.
// NOT_FOUND for an unknown league; the stores' and `position`'s Statuses.
Result<std::vector<GameStatus>> LeagueStatus(storage::LeagueRepository& leagues,
                                             storage::GameRepository& games,
                                             const std::string& league_id,
                                             const PositionReader& position);

// The bounds of an extension: a minute to 30 days (a season's round is rarely longer).
inline constexpr std::int64_t kMinExtensionSeconds = 60;
inline constexpr std::int64_t kMaxExtensionSeconds = 30LL * 24 * 3600;

// Why ExtendDeadline refused (its FAILED_PRECONDITION / NOT_FOUND cases).
enum class OrganiserRefusal {
  kNone,
  kNotInLeague,  // the game is no game of this league (NOT_FOUND)
  kGameOver,     // the game has ended
  kNoDeadline,   // the game has no turn timeout: there is no deadline to move
  kTurnMoved,    // the turn was resolved meanwhile: look again
};

struct Extension {
  std::string game_id;
  int turn = 0;
  std::string side;                 // the side whose deadline moved
  storage::Timestamp new_deadline;  // as TurnDeadline computes it now
  int mails_enqueued = 0;
};

// Moves the deadline of the turn `game_id` waits for `by` later (REQUIRES: by within
// [kMinExtensionSeconds, kMaxExtensionSeconds], checked by the callers with their own field
// names) and, in the same transaction (GameRepository::ExtendDeadline), enqueues one mail per
// player of the game in that player's language with the new deadline (`mail` words the date).
// Errors: NOT_FOUND (unknown league, or the game is not one of its games);
// FAILED_PRECONDITION (game over, no deadline, the turn moved on); `refusal` says which.
// `position` places the game as for LeagueStatus.
Result<Extension> ExtendDeadline(storage::LeagueRepository& leagues, storage::GameRepository& games,
                                 const PositionReader& position, const std::string& league_id,
                                 const std::string& game_id, std::chrono::seconds by,
                                 const templates::MailTemplates& mail,
                                 const std::filesystem::path& template_dir, storage::Timestamp now,
                                 OrganiserRefusal* refusal = nullptr);

// Opens or closes the league's registration. NOT_FOUND for an unknown league.
Status SetRegistration(storage::LeagueRepository& leagues, const std::string& league_id, bool open);

// A deadline extension's duration in words, worded by <template_dir>/<language>/duration.txt
// (templates/league): "2 days 3 hours", "45 minutes"; French "2 jours 3 heures" (`language`
// "fr"). NOT_FOUND / INVALID_ARGUMENT naming the file when it is missing or does not parse.
Result<std::string> DurationWords(const std::filesystem::path& template_dir,
                                  std::chrono::seconds duration, const std::string& language);

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_ORGANISER_H_
