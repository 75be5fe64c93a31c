// LeagueRepository: what the service stores about club leagues (daemon/league has the logic):
// leagues with their organiser's token hash, league players (token hashes as for game
// players), the league's games with their pairing and result, and each player's rating
// history. The conventions of game_repository.h hold: Status values, caller-given times,
// REQUIRES OpenOrMigrate() succeeded. SqlRepository implements it on both backends.
#ifndef PBEM_STORAGE_LEAGUE_REPOSITORY_H_
#define PBEM_STORAGE_LEAGUE_REPOSITORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/game_repository.h"
#include "storage/status.h"

namespace pbem::storage {

struct NewLeague {
  std::string id;  // unique
  std::string name;
  std::string organiser_token;  // in clear; only its SHA-256 is stored
  std::string settings;         // the league's parameters as text (the daemon's format)
  Timestamp created_at;
};

struct League {
  std::string id;
  std::string name;
  std::string organiser_token_sha256;
  std::string settings;
  Timestamp created_at;
};

struct NewLeaguePlayer {
  std::string league_id;
  std::string player;  // unique within the league
  std::string mail_address;
  std::string token;  // in clear; only its SHA-256 is stored
  Timestamp joined_at;
  std::string language = "en";  // the language of the player's league mails ("en", "fr")
};

struct LeaguePlayer {
  std::string league_id;
  std::string player;
  std::string mail_address;
  std::string token_sha256;
  Timestamp joined_at;
  std::string language = "en";  // "en" for players stored before languages were
};

// One game of a league: its pairing and result (result text: "pending", "victory", "draw",
// "resigned", "forfeit"; winner "blue"/"orange" or empty; level as VictoryLevelName).
struct LeagueGameRecord {
  std::string league_id;
  std::int64_t season = 0;
  std::int64_t round = 0;
  std::string game_id;  // unique across leagues
  std::string blue;
  std::string orange;
  std::string result = "pending";
  std::string winner;
  std::string level;
};

// A player's rating after a rating period (a round) of a season.
struct RatingRecord {
  std::string league_id;
  std::string player;
  std::int64_t season = 0;
  std::int64_t round = 0;
  double rating = 0;
  double rd = 0;
  double volatility = 0;
};

// A season of a league as started: the seats of its round robin (the players in the order the
// whole schedule was computed from at the season's start, each slot keeping its place when its
// player is replaced; empty for Swiss) and, once the season is over, when it finished.
struct LeagueSeason {
  std::string league_id;
  std::int64_t season = 0;
  std::vector<std::string> seats;
  Timestamp started_at;
  std::optional<Timestamp> finished_at;  // nullopt while the season is played
};

// A correction of a league game's result by the organiser: the result as it was stored, the
// corrected one, and why (required). Stored in the league's correction history.
struct LeagueCorrection {
  std::int64_t id = 0;      // assigned by the store (read back only), increasing
  LeagueGameRecord before;  // the stored result being corrected (league, season, round, game)
  LeagueGameRecord after;   // the corrected result of the same game (not "pending")
  std::string reason;       // the organiser's reason; not empty
  Timestamp at;
};

class LeagueRepository {
 public:
  virtual ~LeagueRepository() = default;

  // ALREADY_EXISTS for a taken id; INVALID_ARGUMENT for an empty id or token.
  virtual Status CreateLeague(const NewLeague& league) = 0;
  // NOT_FOUND for an unknown league.
  virtual Result<League> GetLeague(const std::string& league_id) = 0;
  // The ids of every league, in id order (pbemd's league pass looks for a stalled round).
  virtual Result<std::vector<std::string>> ListLeagueIds() = 0;
  // NOT_FOUND for an unknown league; false for a wrong token.
  virtual Result<bool> VerifyOrganiserToken(const std::string& league_id,
                                            const std::string& token) = 0;

  // Replaces the league's settings text (e.g. registration closed). NOT_FOUND for an unknown
  // league.
  virtual Status SetLeagueSettings(const std::string& league_id, const std::string& settings) = 0;

  // In one transaction. NOT_FOUND for an unknown league; ALREADY_EXISTS when the name, or the
  // mail address (without regard to ASCII case), is taken in the league: the database holds a
  // unique index on (league, lower(address)), so two joins racing cannot both succeed.
  virtual Status AddLeaguePlayer(const NewLeaguePlayer& player) = 0;
  // NOT_FOUND when the league has no such player. The player's games stay (results stand).
  virtual Status RemoveLeaguePlayer(const std::string& league_id, const std::string& player) = 0;
  // In name order. NOT_FOUND for an unknown league.
  virtual Result<std::vector<LeaguePlayer>> ListLeaguePlayers(const std::string& league_id) = 0;
  // Replaces `old_player` by `replacement` in one transaction: the old player (and so the old
  // token) is gone, the new one is added, and the league's pending games of the old player
  // name the new one; in those games the old player's side (players table) gets the new
  // player's address and token, so the old game tokens stop working too. In the seats of the
  // league's unfinished seasons the new player takes the old one's slot. Finished games,
  // ratings and finished seasons keep the old name.
  // NOT_FOUND / ALREADY_EXISTS as above.
  virtual Status ReplaceLeaguePlayer(const std::string& old_player,
                                     const NewLeaguePlayer& replacement) = 0;

  // All in one transaction. NOT_FOUND for an unknown league; ALREADY_EXISTS for a game id
  // already in a league.
  virtual Status AddLeagueGames(const std::vector<LeagueGameRecord>& games) = 0;
  // A league round in ONE transaction: creates each game with its players (as
  // CreateGameWithPlayers), adds the league's records of them (as AddLeagueGames) and enqueues
  // the mails announcing them; all of it or nothing, so a crash or a refusal leaves no game
  // outside its round. Errors as those two methods.
  virtual Status AddLeagueRound(const std::vector<NewGameWithPlayers>& games,
                                const std::vector<LeagueGameRecord>& records,
                                const std::vector<NewMail>& mails) = 0;
  // Sets result, winner and level of a league game. NOT_FOUND when no league has the game.
  virtual Status RecordLeagueResult(const LeagueGameRecord& result) = 0;
  // NOT_FOUND when no league has the game.
  virtual Result<LeagueGameRecord> GetLeagueGame(const std::string& game_id) = 0;
  // In (season, round, game id) order.
  virtual Result<std::vector<LeagueGameRecord>> ListLeagueGames(const std::string& league_id) = 0;

  // The league games of every league whose result is still "pending", in game id order.
  virtual Result<std::vector<LeagueGameRecord>> ListPendingLeagueGames() = 0;

  // Stores the ratings, enqueues `mails` (the round's standings mails) and, when given, sets
  // `result` (as RecordLeagueResult: the result that completed the round) in ONE transaction,
  // so a round is rated, mailed and shown complete together or not at all. ALREADY_EXISTS
  // (and nothing stored) when a (player, season, round) is stored already; NOT_FOUND when no
  // league has the result's game.
  virtual Status AppendRatings(const std::vector<RatingRecord>& ratings,
                               const std::vector<NewMail>& mails,
                               const std::optional<LeagueGameRecord>& result) = 0;
  // In (player, season, round) order.
  virtual Result<std::vector<RatingRecord>> RatingHistory(const std::string& league_id) = 0;

  // Stores a season's start (its seats; finished_at is ignored). ALREADY_EXISTS (nothing
  // stored) when the season is stored already; NOT_FOUND for an unknown league;
  // INVALID_ARGUMENT for a season below 1.
  virtual Status StartLeagueSeason(const LeagueSeason& season) = 0;
  // In season order. NOT_FOUND for an unknown league.
  virtual Result<std::vector<LeagueSeason>> ListLeagueSeasons(const std::string& league_id) = 0;
  // Marks the season finished at `finished_at` and enqueues `mails` (the season's final
  // mails) in ONE transaction, so a season ends and is announced once. A season never started
  // through StartLeagueSeason (stored before seasons were) is stored with no seats.
  // ALREADY_EXISTS (nothing stored) when the season is finished already; NOT_FOUND for an
  // unknown league.
  virtual Status FinishLeagueSeason(const std::string& league_id, std::int64_t season,
                                    Timestamp finished_at, const std::vector<NewMail>& mails) = 0;

  // Corrects a league result in ONE transaction, as a compare-and-set: provided the game's
  // stored result, winner and level are still those of `correction.before`, stores
  // `correction.after` as its result, replaces every rating of the league from the corrected
  // period on (season, round >= the game's) by `rerated` (the periods rated again from the
  // corrected history; each must be of such a period), appends the correction to the
  // league's history and enqueues `mails`. FAILED_PRECONDITION (nothing stored) when the
  // stored result is no longer `before` (someone recorded or corrected it meanwhile: read
  // again) or when the periods rated from the corrected one on are not those of `rerated` (a
  // round was rated meanwhile); INVALID_ARGUMENT for an empty reason, a pending `after`, games that
  // differ, or a rerated period before the corrected one; NOT_FOUND when no league has the game.
  virtual Status CorrectLeagueResult(const LeagueCorrection& correction,
                                     const std::vector<RatingRecord>& rerated,
                                     const std::vector<NewMail>& mails) = 0;
  // The league's corrections, oldest first. NOT_FOUND for an unknown league.
  virtual Result<std::vector<LeagueCorrection>> ListLeagueCorrections(
      const std::string& league_id) = 0;
};

}  // namespace pbem::storage

#endif  // PBEM_STORAGE_LEAGUE_REPOSITORY_H_
