// Leagues in pbemd (issue 8): the HTTP routes under /v1/leagues (documented in
// daemon/openapi.yaml), resigning a game, and the league pass that records ended games.
//
//   POST /v1/leagues                          admin token: creates a league (scenarios,
//                                             deadlines, points, limits, pairing, sides)
//   GET  /v1/leagues/{id}                     the league, its settings and players (no tokens)
//   POST /v1/leagues/{id}/players             joins a player {name, email, language}: 201 with
//                                             the player's league token, also mailed to them
//                                             (the confirmation, as joining by mail replies)
//   POST /v1/leagues/{id}/start               organiser token: starts a round of a season
//                                             (pairs, creates the games, mails the tokens)
//   POST /v1/leagues/{id}/end                 organiser token: ends a season (final table,
//                                             champion mails; league::FinishSeason)
//   GET  /v1/leagues/{id}/standings           the table (JSON) with each player's ratings
//   GET  /v1/leagues/{id}/standings.html      the standings page (?lang=en|fr, ?season=N)
//   (the organiser's tools, daemon/league_organiser_api.h: status, deadline extension,
//   registration, CSV exports, a player's rating history page)
//   POST /v1/games/{id}/resign                a player's token: the game ends, the other side
//                                             wins; a league game's result is recorded at once
//                                             (by mail too: HandleResignationMail)
//
// The league pass (RecordLeagueResults) runs after each scheduler pass: every league game
// still "pending" whose game has ended (the victory rules, a forfeit, a resignation) is
// recorded with league::RecordGameEnd, which is idempotent; so a crash anywhere leaves the
// result for the next pass, and a round is rated and mailed exactly once. What follows a
// result is league::RecordAndAdvance (the CLI's path too): when a result completes a round of
// a round-robin season, the season's next round starts, or after the last the season ends; of
// a Swiss season with swissRounds set, the next round (paired from the standings at that
// moment) up to the last, then the season's end. Then every league whose last round is
// complete but not followed up (a crash between rating it and starting the next round or
// ending the season) gets what it missed (league::CompleteStalledRound: idempotent).
#ifndef PBEM_DAEMON_LEAGUE_API_H_
#define PBEM_DAEMON_LEAGUE_API_H_

#include <deque>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "daemon/league/league_flow.h"
#include "daemon/mail/inbound.h"
#include "daemon/mail/intake.h"
#include "daemon/turn/dice.h"
#include "storage/game_repository.h"
#include "storage/league_repository.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace pbem::templates {
class MailTemplates;
}  // namespace pbem::templates

namespace pbem::daemon {

class GameCatalog;

struct LeagueServices {
  GameCatalog* catalog = nullptr;      // the league's scenarios; must outlive the users
  EntropySource* entropy = nullptr;    // game tokens; thread-safe (SystemEntropy is)
  std::filesystem::path template_dir;  // templates/league
  std::string admin_token;             // empty: POST /v1/leagues is refused
  // Where the league mails send players: the game address (pbemd.mail.from) and pbemd's
  // public URL (pbemd.http.public_url) for the standings and game links.
  league::MailPlaces places;
  // The dates of the deadline extension mails (FormatDate); null: extensions are refused.
  const templates::MailTemplates* mail = nullptr;
  spdlog::logger* logger = nullptr;  // the organiser's actions; may be null
};

struct LeagueRequest {
  std::string method;                 // "GET" / "POST"
  std::vector<std::string> segments;  // the path's segments after "v1"
  std::string bearer_token;           // "" when none
  std::string body;
  std::string language;     // the ?lang= of the standings page ("" when absent)
  std::string season;       // ?season= ("" when absent)
  std::string player = "";  // ?player= of the rating history page ("" when absent)
};

struct LeagueAnswer {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;  // errors: {"error":{"code","message"}} like every other route
};

// The /v1/leagues routes. REQUIRES: services.catalog and services.entropy set. `games` is the
// same store as `leagues` (a round's games are written with it, in one transaction:
// LeagueRepository::AddLeagueRound).
LeagueAnswer HandleLeagueRequest(const LeagueServices& services, const LeagueRequest& request,
                                 storage::GameRepository& games, storage::LeagueRepository& leagues,
                                 storage::Timestamp now);

// POST /v1/games/{id}/resign with `token`: ends the game (storage EndGame, a mail to each
// player naming both players and sides, in their language: league::RenderResignedMail) with
// league::ResignationResult and, for a league game, records it (RecordGameEnd).
LeagueAnswer ResignGame(const LeagueServices& services, const std::string& game_id,
                        const std::string& token, storage::GameRepository& games,
                        storage::LeagueRepository& leagues, storage::Timestamp now);

// A resignation by mail (MailIntake's command hook): a mail whose text (body or attachment)
// has a line "resign <game id> <token>", sent from the registered address of the player of
// that game whose token it is. nullopt when the mail has no such line (the intake then reads
// it as orders). Otherwise: kAnswered with a reply queued (the new result, or the error:
// game_over, not_a_player when the token is not the sender's), kDropped when the sender is
// no player of that game (no reply: no backscatter), kRetryLater when the store failed.
std::optional<mail::Disposition> HandleResignationMail(const LeagueServices& services,
                                                       const mail::InboundMail& mail,
                                                       storage::GameRepository& games,
                                                       storage::LeagueRepository& leagues,
                                                       storage::Timestamp now);

// The Message-IDs of the join mails this process answered (the last kCapacity): a join mail
// delivered twice is answered once. In memory: after a restart a redelivered join is answered
// again, with already_joined (nothing changes). Thread-safe.
class HandledMessages {
 public:
  static constexpr std::size_t kCapacity = 4096;
  // False when `message_id` was handled already; an empty id is never a duplicate.
  bool Add(const std::string& message_id);
  void Forget(const std::string& message_id);  // its handling failed: it may come back

 private:
  std::mutex mutex_;
  std::deque<std::string> order_;
  std::set<std::string> ids_;
};

// Joining a league by mail (MailIntake's command hook, like resignations): a mail whose text
// has a line "join <league id> <name> [en|fr]" (the name may have several words, "Hélène
// Dupré"; a last word of two lower-case letters is the language: en when absent) joins its sender's
// address to the league through the same path as POST /v1/leagues/{id}/players. nullopt when
// the mail has no such line. Otherwise exactly one reply, to the sender, in the requested
// language (en when that is bad): the player's league token, or the refusal with the HTTP
// route's stable code (unknown_league, already_joined, malformed for a bad name or language)
// and nothing changed. kDropped for a Message-ID already answered (no second reply),
// kRetryLater when the store failed (the join undone when its reply could not be queued).
std::optional<mail::Disposition> HandleJoinMail(const LeagueServices& services,
                                                const mail::InboundMail& mail,
                                                storage::GameRepository& games,
                                                storage::LeagueRepository& leagues,
                                                HandledMessages& handled, storage::Timestamp now);

struct LeaguePass {
  int recorded = 0;        // league games whose end was recorded in this pass
  int rounds_started = 0;  // next rounds started by the pass
  int failures = 0;        // games whose recording failed (logged; retried next pass)
  // Leagues whose complete round had not been followed up (a crash between rating it and
  // starting the next round or ending the season): the round started or the season ended now.
  int rounds_recovered = 0;
};

// The follow-up pass over every pending league game (see above). `logger` may be null.
Result<LeaguePass> RecordLeagueResults(const LeagueServices& services,
                                       storage::GameRepository& games,
                                       storage::LeagueRepository& leagues, storage::Timestamp now,
                                       spdlog::logger* logger);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_LEAGUE_API_H_
