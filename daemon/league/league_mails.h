// The words of a league's mails to players, from templates/league/<language>/ (mustache):
// the round-start mail (games.*), a replaced-in player's welcome (welcome.*), the
// confirmation of joining (joined.*), the game-over mail of a resignation (resigned.*), and
// the column alignment of the plain-text tables (standings).
//
// Pure rendering: the files are read, nothing is stored. Errors are Status values naming the
// template file.
#ifndef PBEM_DAEMON_LEAGUE_LEAGUE_MAILS_H_
#define PBEM_DAEMON_LEAGUE_LEAGUE_MAILS_H_

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/league/seats.h"
#include "storage/game_repository.h"
#include "storage/status.h"

namespace pbem::league {

// Where a league's mails send players, from pbemd's configuration; empty: not said (the CLI
// knows neither).
struct MailPlaces {
  std::string game_address;  // the address orders are mailed to (pbemd.mail.from)
  std::string public_url;    // pbemd as players reach it (pbemd.http.public_url), no final '/'
};

// The text of a league template file; NOT_FOUND naming it when it is missing.
Result<std::string> ReadLeagueTemplate(const std::filesystem::path& path);

struct LeagueMail {
  std::string subject;  // one line
  std::string body;
};

// `mail` as an outbox mail to `recipient`, due at `now`.
storage::NewMail ToNewMail(LeagueMail mail, const std::string& recipient, storage::Timestamp now);

// One player's game in a games or welcome mail.
struct MailedGame {
  std::string game_id;
  std::string side;  // "blue" / "orange"
  std::string opponent;
  std::string token;  // in clear: only mailed
};

// A round-start mail (games.*) or, with `replaces` set, the welcome of a player who takes a
// vanished player's place (welcome.*).
struct GamesMailInput {
  std::string league_id;
  std::string league_name;
  int season = 0;
  int round = 0;
  std::string player;
  std::string replaces{};  // welcome: the name of the player replaced
  std::vector<MailedGame> games{};
  std::chrono::seconds turn_timeout{0};  // 0: no deadline
  // Blue's first orders are due then (the games' creation + turn_timeout); nullopt: none.
  std::optional<std::chrono::sys_seconds> first_deadline{};
  MailPlaces places{};
};
Result<LeagueMail> RenderGamesMail(const std::filesystem::path& template_dir,
                                   const std::string& language, const GamesMailInput& input);

// The confirmation of joining (HTTP and mail alike): the league token and what comes next.
Result<LeagueMail> RenderJoinedMail(const std::filesystem::path& template_dir,
                                    const std::string& language, const std::string& league_id,
                                    const std::string& player, const std::string& token,
                                    const MailPlaces& places);

// The game-over mail when a side resigns, to the player of `recipient`: both players named
// with their sides (`blue_player` / `orange_player`: the league's names, empty when the game
// is in no league).
struct ResignedMailInput {
  std::string game_id;
  Seat resigning = Seat::kBlue;
  Seat recipient = Seat::kBlue;
  std::string blue_player;
  std::string orange_player;
  std::string league_name;  // empty: no league
  MailPlaces places;
  std::string league_id;
  // The reply to the resigning player's own mail (resign by mail): the same mail, opened by
  // "your resignation is recorded".
  bool acknowledged = false;
};
Result<LeagueMail> RenderResignedMail(const std::filesystem::path& template_dir,
                                      const std::string& language, const ResignedMailInput& input);

// Why a mail command was refused, worded by the templates (never the HTTP route's English
// message): a reason among those the template knows (`reason` is one of its section names),
// or "other" with an English `detail` for a failure no player can fix (shown in English
// only).
struct MailRefusal {
  std::string reason;
  std::string detail;
};
// The reply to a refused "resign <game> <token>" (resign_refused.*): reasons not_a_player,
// game_over, stale_turn, other.
Result<LeagueMail> RenderResignRefusedMail(const std::filesystem::path& template_dir,
                                           const std::string& language, const std::string& game_id,
                                           const MailRefusal& refusal);
// The reply to a refused "join <league> <name> [en|fr]" (join_refused.*): reasons
// unknown_league, registration_closed, name_taken, address_taken, bad_language, bad_name (the
// English `detail` says what is wrong with it), other.
Result<LeagueMail> RenderJoinRefusedMail(const std::filesystem::path& template_dir,
                                         const std::string& language, const std::string& league_id,
                                         const std::string& player, const std::string& address,
                                         const MailRefusal& refusal);

// A moment as players read it, in UTC, in `language`: "le jeudi 26 novembre 2026 à 19 h 41
// UTC", "Thursday 26 November 2026 at 19:41 UTC" (the mail templates' words, beside
// template_dir: ../mail).
Result<std::string> FormatDate(const std::filesystem::path& template_dir,
                               const std::string& language, std::chrono::sys_seconds moment);

// How wide `text` shows in a fixed-width font: one column per character, none for a
// combining mark, two for an East Asian wide character (so "Hélène" is 6, "李小龍" is 6).
std::size_t DisplayWidth(std::string_view text);
// `cell` followed by spaces up to `width` display columns.
std::string PadRight(std::string_view cell, std::size_t width);

// Aligns the tables of a plain-text mail: each run of consecutive lines holding a TAB is a
// table whose cells (the TAB-separated parts) are padded to their column's widest cell
// (DisplayWidth), two spaces apart; other lines are kept as they are.
std::string AlignColumns(std::string_view text);

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_LEAGUE_MAILS_H_
