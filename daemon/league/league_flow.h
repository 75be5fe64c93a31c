// Results flow into a league: what the daemon calls when a game ends, the league settings as
// stored text, and the standings mail and page (EN/FR mustache templates, templates/league/).
//
// Uses the stores only through storage::LeagueRepository (the league's records) and
// storage::GameRepository (the outbox). Errors are Status values.
#ifndef PBEM_DAEMON_LEAGUE_LEAGUE_FLOW_H_
#define PBEM_DAEMON_LEAGUE_LEAGUE_FLOW_H_

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daemon/league/glicko2.h"
#include "daemon/league/league_mails.h"
#include "daemon/league/pairing.h"
#include "daemon/league/standings.h"
#include "daemon/turn/dice.h"
#include "engine/morne_plaine/scenario.h"
#include "pbem/v1/ruleset.pb.h"
#include "pbem/v1/scenario.pb.h"
#include "storage/game_repository.h"
#include "storage/league_repository.h"
#include "storage/status.h"

namespace pbem::league {

// Everything an organiser chooses for a league (stored in leagues.settings as text).
enum class PairingSystem { kRoundRobin, kSwiss };

struct LeagueSettings {
  PairingSystem pairing = PairingSystem::kRoundRobin;  // Swiss for large leagues
  // Swiss: the rounds of a season. When a round completes, pbemd's league pass starts the
  // next one up to this many, and StartRound refuses a round beyond it (kNotInSchedule).
  // 0: no limit and no automatic rounds (the organiser starts each round).
  int swiss_rounds = 0;
  PointsTable points;
  PlayerLimits limits;
  Glicko2Params glicko;
  SideRule sides = SideRule::kBalanced;
  std::string language = "en";  // "en" or "fr": the standings page (mails: each player's own)
  // The scenarios the league plays, by name (pbemd.scenarios_dir/<name>.textproto): round r
  // plays scenarios[(r - 1) % size].
  std::vector<std::string> scenarios = {"bois-de-la-morne"};
  // Pinned in each new game (storage::DeadlineSettings); 0: no timeout / no reminder.
  std::chrono::seconds turn_timeout{0};
  std::chrono::seconds reminder_before{0};
  // Closed by the organiser: joining (over HTTP or by mail) is refused with registration_closed.
  bool registration_open = true;
};

// One "key values..." line per setting:
//   points <total> <major> <tactical> <minor> <draw> <loss> <forfeit_loss> <forfeit_win>
//   limits <finished>:<max_active>...     rank_after <n>
//   glicko <initial rating> <initial RD> <initial volatility> <tau>
//   sides balanced|both                   language en|fr
//   pairing round_robin|swiss             swiss_rounds <n>
//   scenarios <name>...                   deadlines <turn timeout s> <reminder before s>
//   registration open|closed
std::string EncodeSettings(const LeagueSettings& settings);
// INVALID_ARGUMENT naming the line for an unknown key or a bad value; missing keys keep
// their defaults.
Result<LeagueSettings> DecodeSettings(const std::string& text);

// A stored league with its settings decoded and, when asked, its players (name order) and
// games ((season, round, game id) order): what most league operations read first.
struct StoredLeague {
  storage::League league;
  LeagueSettings settings;
  std::vector<storage::LeaguePlayer> players;    // empty unless with_players_and_games
  std::vector<storage::LeagueGameRecord> games;  // empty unless with_players_and_games
};
// NOT_FOUND for an unknown league; INVALID_ARGUMENT for settings that do not decode; the
// store's Statuses.
Result<StoredLeague> LoadStoredLeague(storage::LeagueRepository& leagues,
                                      const std::string& league_id,
                                      bool with_players_and_games = true);

// A stored league game as a standings value, and back (result, winner, level as text).
LeagueGame FromRecord(const storage::LeagueGameRecord& record);
storage::LeagueGameRecord ToRecord(const LeagueGame& game, const std::string& league_id,
                                   int season);

// How a game ended.
enum class EndKind {
  kPlayed,    // played to the end: `outcome` is the game system's, in the league's words
  kResigned,  // outcome.winner's opponent resigned (outcome.level: the level awarded)
  kForfeit,   // outcome.winner's opponent missed too many turns
};
struct GameEnd {
  std::string game_id;
  EndKind kind = EndKind::kPlayed;
  LeagueOutcome outcome;
};

// `game` with the result of `end` (winner and level from its outcome; resigned or forfeit by
// its kind).
LeagueGame WithEnd(LeagueGame game, const GameEnd& end);

struct RecordedEnd {
  bool league_game = false;     // false: the game is in no league; nothing was done
  bool round_complete = false;  // this result completed its round: ratings were updated
  int season = 0;
  int round = 0;
  int mails_enqueued = 0;
  std::vector<StandingRow> standings;  // the season's table after this result
};

// What the daemon calls when a game ends. Records the result (a game already finished keeps
// its first result: idempotent); when the game's round is then complete and its ratings are
// not stored yet, rates the round (one Glicko-2 period over the league's players) and, in ONE
// transaction (LeagueRepository::AppendRatings), stores every player's new rating and
// enqueues one standings mail per league player rendered from `template_dir`
// (templates/league) in that player's language, with the result that completed the round in
// that same transaction: a call interrupted anywhere leaves the game pending and calling
// again finishes the job; from several threads or processes, the round is rated and mailed
// exactly once.
// A game in no league: OK with league_game = false. Other failures are the stores' Statuses.
// `places`: the standings link of the mail (none when empty).
Result<RecordedEnd> RecordGameEnd(storage::LeagueRepository& leagues, const GameEnd& end,
                                  const std::filesystem::path& template_dir, storage::Timestamp now,
                                  const MailPlaces& places = {});

// A stored game's end as a GameEnd, read from values only: the ending the service stored
// (storage::Game::ending: a resignation, a forfeit, an organiser's ruling) or, without one, the
// outcome of a game its rules finished (`played`, as the game system states it: GameContext).
// nullopt while the game is played, and for a finished game whose system's terms map to no
// seat or level (FromSystemOutcome; the organiser then records the result).
std::optional<GameEnd> EndOfGame(const std::string& game_id,
                                 const std::optional<storage::GameEnding>& ending,
                                 const game_system::Outcome& played);
// The ending of a resignation by `resigning`: the other side wins (level total); its text
// "<winner> wins: <loser> resigned".
storage::GameEnding ResignationEnding(Seat resigning);
// `end` as the stored ending of a game stopped by the league organiser (by_organiser set), with
// the sentence players read.
storage::GameEnding OrganiserEnding(const GameEnd& end);

// A fresh secret: 16 bytes of `entropy` as 32 lower-case hex digits (league, organiser and
// game tokens).
Result<std::string> NewToken(daemon::EntropySource& entropy);

// What a league game is created from (daemon::ScenarioData or the CLI's bundled files).
struct GameMaterial {
  pbem::v1::Ruleset ruleset_proto;
  pbem::v1::Scenario scenario_proto;
  engine::Scenario scenario;
};
using MaterialLoader = std::function<Result<GameMaterial>(const std::string& scenario_name)>;

// One player's new game, as mailed to them.
struct Ticket {
  std::string player;
  std::string game_id;
  std::string side;  // "blue" / "orange"
  std::string opponent;
  std::string token;  // the game token, in clear (only mailed; stored hashed)
};
struct StartedRound {
  int season = 0;
  int round = 0;
  std::vector<storage::LeagueGameRecord> games;
  std::optional<std::string> bye;
  std::vector<Ticket> tickets;
  int mails_enqueued = 0;
};

// Why StartRound refused (its FAILED_PRECONDITION cases), for callers that answer with a code.
enum class StartRefusal {
  kNone,
  kTooFewPlayers,
  kStartedAlready,
  kNotInSchedule,
  kGameLimit,
  // An earlier round of the season is not started or not finished (a round starts once the
  // previous one is over), or Swiss found no pairing without a rematch.
  kUnfinishedRound,
  kSeasonFinished,  // the season is over (FinishSeason): its history stays as it is
};

// Starts `round` of `season` (nullopt: the season's first round not started yet): pairs the
// league's players (round robin: the schedule fixed at the season's start, see below; Swiss:
// from the season so far), checks every
// player's game limit, creates the games (game id <league>-s<season>-r<round>-g<n>) of the
// round's scenario with the league's deadlines and a fresh token per game and side, stores
// them as the league's games, and enqueues one mail per player listing their games and tokens,
// blue's first deadline, where orders go and the standings link (`places`; RenderGamesMail,
// templates/league/<player's language>/games.{subject,txt}).
// Round robin: the season's first round pins the seats (the league's players in name order,
// LeagueRepository::StartLeagueSeason) and every round of the season is computed from them;
// a replacement takes its predecessor's seat, and a seat whose player left the league without
// a replacement gives its opponent a round off.
// Errors, with nothing written: NOT_FOUND (no such league); FAILED_PRECONDITION (fewer than
// two players, the round started already, a round beyond the schedule, a player over the
// game limit, an earlier round not started or not finished, the season finished; `refusal`,
// when given, says which);
// the loader's and the store's Statuses. The games, their players, their league records and
// the mails are stored in ONE transaction (LeagueRepository::AddLeagueRound): all or nothing.
Result<StartedRound> StartRound(storage::LeagueRepository& leagues, const std::string& league_id,
                                int season, std::optional<int> round, const MaterialLoader& load,
                                daemon::EntropySource& entropy,
                                const std::filesystem::path& template_dir, storage::Timestamp now,
                                StartRefusal* refusal = nullptr, const MailPlaces& places = {});

// Each player's rating after the latest stored period (initial rating for players with none).
std::map<std::string, Rating> LatestRatings(const std::vector<storage::RatingRecord>& history,
                                            const std::vector<std::string>& players,
                                            const Glicko2Params& params);

// A league season as stored: its games, the standings with each player's latest rating, and
// the rating history (what `pbem league standings` and GET .../standings show).
struct SeasonStandings {
  int season = 1;
  bool finished = false;  // the season is over (FinishSeason): its table is final
  std::vector<LeagueGame> games;
  std::vector<StandingRow> rows;
  std::vector<storage::RatingRecord> history;
};
// `season` 0: the latest season with games (1 when there are none). The table's players are
// TablePlayers (season.h) and its ratings those of the season's end (HistoryUpTo), so a
// finished season's table is history. The stores' Statuses.
Result<SeasonStandings> LoadSeasonStandings(storage::LeagueRepository& leagues,
                                            const std::string& league_id,
                                            const LeagueSettings& settings, int season);

// Swiss pairing of `round` from the season so far (`games`: the season's games; every game of
// earlier rounds must be finished): score = league points, rating = latest rating, side
// history and opponents from the games, a bye for a player with no game in an earlier round.
// With SideRule::kBothSides each pairing is also played with sides swapped.
// FAILED_PRECONDITION when an earlier round is unfinished or no pairing avoids a rematch.
Result<Round> PairSwissRound(const std::vector<std::string>& players,
                             const std::vector<LeagueGame>& games,
                             const std::map<std::string, Rating>& ratings,
                             const LeagueSettings& settings, int round);

// What the standings mail and page show.
struct StandingsView {
  std::string league_name;
  int season = 0;
  int round = 0;  // the last completed round (CompletedRound); 0: none yet
  std::vector<StandingRow> rows;
  std::vector<LeagueGame> games;  // the season's games, each linked to its archive page
  // The link of a game's archive page, "{game}" standing for its id: the static layout of
  // `pbem league standings --html` by default (which writes those pages); pbemd serves
  // /v1/games/{game}/archive/. Empty: the games are not linked.
  std::string archive_link = "{game}/index.html";
  int rank_after = PlayerLimits{}.finished_to_rank;  // finished games before a player is ranked
  std::string league_id{};                           // for the standings link of the mail
  MailPlaces places{};                               // its public_url: the standings link
};
struct RenderedStandings {
  std::string subject;
  std::string text;  // the mail body
  std::string html;  // the static standings page
};
// The season's end mail: <template_dir>/<language>/season_end.{subject,txt} with the final
// table (view.rows), the champion (nullopt: nobody is ranked) and the addressee's name.
struct RenderedMail {
  std::string subject;
  std::string text;
};
Result<RenderedMail> RenderSeasonEnd(const std::filesystem::path& template_dir,
                                     const std::string& language, const StandingsView& view,
                                     const std::optional<std::string>& champion,
                                     const std::string& player);

// Renders <template_dir>/<language>/standings.{subject,txt,html} (the text's tables aligned,
// AlignColumns; the page with <template_dir>/style.css inlined). NOT_FOUND / INVALID_ARGUMENT
// naming the file when one is missing or does not parse.
Result<RenderedStandings> RenderStandings(const std::filesystem::path& template_dir,
                                          const std::string& language, const StandingsView& view);

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_LEAGUE_FLOW_H_
