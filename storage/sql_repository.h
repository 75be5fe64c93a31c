// SqlRepository: the GameRepository written once in SQL on a Poco::Data session. The two
// backends (SqliteRepository, PostgresRepository) only say how to connect and how their SQL
// dialect differs (SqlDialect); schema, migrations and queries live here, so both backends
// store exactly the same things the same way.
//
// SQL text is written with '?' placeholders and type tokens ({blob}, {int64}, {id_pk}) and
// rewritten for the dialect ('$1, $2, ...' for PostgreSQL). No literal in our SQL contains '?'.
//
// Internal to storage/: the daemon uses SqliteRepository / PostgresRepository.
#ifndef PBEM_STORAGE_SQL_REPOSITORY_H_
#define PBEM_STORAGE_SQL_REPOSITORY_H_

#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "storage/connection.h"
#include "storage/game_repository.h"
#include "storage/league_repository.h"
#include "storage/status.h"

namespace Poco::Data {
class Session;
}  // namespace Poco::Data

namespace pbem::storage {

struct SqlDialect {
  // "sqlite" or "postgres": a migration statement tagged "{sqlite}" or "{postgres}" runs on
  // that database only.
  std::string name;
  bool dollar_placeholders = false;  // PostgreSQL: $1, $2, ... instead of ?
  std::string blob_type;             // {blob}
  std::string int64_type;            // {int64}
  std::string id_primary_key;        // {id_pk}: an integer key the database assigns
  std::string empty_blob;            // a literal empty blob (NULL blobs read back as empty)
  // Statement that starts a write transaction; empty: use Session::begin().
  std::string begin_write;
  std::string lock_row_suffix;  // appended to a SELECT that must lock the game row
  // Appended to a SELECT of rows to claim: lock them, skipping rows another transaction locked.
  std::string skip_locked_suffix;
  std::string has_migrations_table_query;  // SELECT count(*) ... naming schema_migrations
  std::string lock_migrations;             // run first in a migration transaction, if not empty
};

class SqlRepository : public GameRepository, public LeagueRepository {
 public:
  // The newest schema version this program knows.
  static constexpr int kLatestSchemaVersion = 17;

  ~SqlRepository() override;
  SqlRepository(const SqlRepository&) = delete;
  SqlRepository& operator=(const SqlRepository&) = delete;

  // How a broken connection is made again, and who hears of it (storage/connection.h). Set
  // before OpenOrMigrate(); `observer` (may be null) must outlive the repository.
  void SetReconnectPolicy(ReconnectPolicy policy) { policy_ = policy; }
  void SetConnectionObserver(ConnectionObserver* observer) { observer_ = observer; }

  Result<int> OpenOrMigrate() override;
  Result<int> SchemaVersion() override;

  Status CreateGame(const NewGame& game) override;
  Status CreateGameWithPlayers(const NewGame& game, const std::vector<NewPlayer>& players,
                               const std::vector<NewMail>& mails) override;
  Result<Game> GetGame(const std::string& game_id) override;
  Result<GameVersion> GetGameVersion(const std::string& game_id) override;
  Result<std::vector<std::string>> ListGames() override;
  Status AddPlayer(const NewPlayer& player) override;
  Result<std::vector<Player>> ListPlayers(const std::string& game_id) override;
  Result<bool> VerifyToken(const std::string& game_id, const std::string& side,
                           const std::string& token) override;
  Result<RecordedSubmission> RecordSubmission(const NewSubmission& submission) override;
  Result<std::vector<Submission>> ListSubmissions(const std::string& game_id) override;
  Result<std::vector<Submission>> ListTurnSubmissions(const std::string& game_id,
                                                      std::int64_t turn) override;
  Result<CommittedTurn> CommitTurn(const TurnCommit& commit) override;
  Result<std::vector<Turn>> ListTurns(const std::string& game_id) override;
  Result<OpenTurn> RecordOpenTurn(const OpenTurn& open) override;
  Status SetPaused(const std::string& game_id, bool paused, Timestamp now) override;
  Result<bool> ExtendDeadline(const std::string& game_id, std::int64_t based_on,
                              std::chrono::milliseconds extension,
                              const std::vector<NewMail>& mails) override;
  Result<bool> RecordReminder(const std::string& game_id, std::int64_t turn,
                              const std::string& side, Timestamp at, const NewMail& mail) override;
  Result<bool> EndGame(const std::string& game_id, std::int64_t expected_turns,
                       const GameEnding& ending, Timestamp at,
                       const std::vector<NewMail>& mails) override;
  Result<OpenTurn> GetOpenTurn(const std::string& game_id, std::int64_t turn,
                               const std::string& side) override;
  Status ImportGame(const NewGame& game, const std::vector<TurnCommit>& turns) override;
  // Failing turn jobs (sql_turn_failures.cc).
  Result<std::vector<SchedulableGame>> ListSchedulableGames(Timestamp now) override;
  Result<std::int64_t> RecordTurnFailure(const TurnFailure& failure) override;
  Result<GameWake> GetWake(const std::string& game_id) override;
  Result<bool> SetWake(const std::string& game_id, std::int64_t sequence,
                       std::optional<Timestamp> due) override;
  Status MarkAllGamesDue() override;
  Status ClearTurnFailures(const std::string& game_id) override;
  Result<std::vector<StuckGame>> ListStuckGames() override;
  Status RetryStuckGame(const std::string& game_id, Timestamp now) override;
  Result<std::int64_t> EnqueueMail(const NewMail& mail) override;
  Result<std::vector<OutboxMail>> DueMail(Timestamp now, int limit) override;
  Result<std::vector<OutboxMail>> ClaimDueMail(Timestamp now, int limit,
                                               const std::string& claimant,
                                               std::chrono::milliseconds lease) override;
  Status MarkMailSent(std::int64_t mail_id, Timestamp sent_at) override;
  Status MarkMailFailed(std::int64_t mail_id, Timestamp next_try,
                        const std::string& error) override;
  Status MarkMailDead(std::int64_t mail_id, Timestamp failed_at, const std::string& error) override;
  Result<std::vector<OutboxMail>> DeadMail(int limit) override;
  Status RequeueMail(std::int64_t mail_id, Timestamp next_try) override;
  Result<OutboxMail> GetMail(std::int64_t mail_id) override;
  Result<int> PruneSentMail(Timestamp sent_before, int limit) override;
  Result<bool> TryLock(const std::string& name) override;
  Status Unlock(const std::string& name) override;

  // LeagueRepository (league_repository.h).
  Status CreateLeague(const NewLeague& league) override;
  Result<League> GetLeague(const std::string& league_id) override;
  Result<std::vector<std::string>> ListLeagueIds() override;
  Status SetLeagueSettings(const std::string& league_id, const std::string& settings) override;
  Result<bool> VerifyOrganiserToken(const std::string& league_id,
                                    const std::string& token) override;
  Status AddLeaguePlayer(const NewLeaguePlayer& player) override;
  Status RemoveLeaguePlayer(const std::string& league_id, const std::string& player) override;
  Result<std::vector<LeaguePlayer>> ListLeaguePlayers(const std::string& league_id) override;
  Status ReplaceLeaguePlayer(const std::string& old_player,
                             const NewLeaguePlayer& replacement) override;
  Status AddLeagueGames(const std::vector<LeagueGameRecord>& games) override;
  Status AddLeagueRound(const std::vector<NewGameWithPlayers>& games,
                        const std::vector<LeagueGameRecord>& records,
                        const std::vector<NewMail>& mails) override;
  Status RecordLeagueResult(const LeagueGameRecord& result) override;
  Result<LeagueGameRecord> GetLeagueGame(const std::string& game_id) override;
  Result<std::vector<LeagueGameRecord>> ListLeagueGames(const std::string& league_id) override;
  Result<std::vector<LeagueGameRecord>> ListPendingLeagueGames() override;
  Status AppendRatings(const std::vector<RatingRecord>& ratings, const std::vector<NewMail>& mails,
                       const std::optional<LeagueGameRecord>& result) override;
  Result<std::vector<RatingRecord>> RatingHistory(const std::string& league_id) override;
  Status StartLeagueSeason(const LeagueSeason& season) override;
  Result<std::vector<LeagueSeason>> ListLeagueSeasons(const std::string& league_id) override;
  Status FinishLeagueSeason(const std::string& league_id, std::int64_t season,
                            Timestamp finished_at, const std::vector<NewMail>& mails) override;
  Status CorrectLeagueResult(const LeagueCorrection& correction,
                             const std::vector<RatingRecord>& rerated,
                             const std::vector<NewMail>& mails) override;
  Result<std::vector<LeagueCorrection>> ListLeagueCorrections(
      const std::string& league_id) override;

 protected:
  // `store_name` names the store in every error message ("database /data/pbem.sqlite").
  SqlRepository(SqlDialect dialect, std::string store_name);

  // Creates what must exist before connecting (a directory); OK by default.
  virtual Status PrepareStore() { return Status::Ok(); }
  // A new session on the store. May throw Poco::Exception.
  virtual std::unique_ptr<Poco::Data::Session> Connect() = 0;
  // Per-connection settings, run after the schema version check and before any migration.
  // May throw Poco::Exception; a non-OK Status refuses the store.
  virtual Status ConfigureSession(Poco::Data::Session& session) = 0;

  const std::string& store_name() const { return store_name_; }
  // The open session; REQUIRES: OpenOrMigrate() succeeded.
  Poco::Data::Session& session() { return *session_; }

  // The backend's lock on `key` (a lock name's hash, LockKey). Take it without waiting: true
  // when taken, false when another holder has it. Release it. Both may throw Poco::Exception
  // or return a non-OK Status (as a Result's status).
  virtual Result<bool> AcquireLock(std::int64_t key) = 0;
  virtual Status ReleaseLock(std::int64_t key) = 0;

  // A lock name's 63-bit key: the first 8 bytes of SHA-256(name), big-endian, top bit clear.
  static std::int64_t LockKey(const std::string& name);

  // The query of GetGameVersion, which every state read runs (issue 19): one '?', the game id;
  // the same text in every dialect. Its row, NULLs read as 0 and "".
  static constexpr std::string_view kGameVersionQuery =
      "SELECT created_at_ms, turns_committed, COALESCE(result, ''), COALESCE(end_kind, ''), "
      "end_winner, end_level, end_by_organiser, end_turn FROM games WHERE id = ?";
  struct GameVersionRow {
    std::int64_t created_at_ms = 0;
    std::int64_t turns_committed = 0;
    std::string result, end_kind, end_winner, end_level;
    std::int64_t end_by_organiser = 0;
    std::int64_t end_turn = 0;
  };
  // Runs kGameVersionQuery for `game_id` on session(): false when there is no such game. May
  // throw Poco::Exception. This one goes through Poco::Data, which prepares the statement
  // again on each run; a backend may keep it prepared instead (SqliteRepository).
  virtual bool ReadGameVersionRow(const std::string& game_id, GameVersionRow& row);
  // Called before the session is closed or replaced: drop what was prepared on it.
  virtual void DropPrepared() {}

 private:
  // ListSubmissions (every turn) and ListTurnSubmissions (`only_turn`).
  Result<std::vector<Submission>> ListSubmissionsOf(const std::string& game_id,
                                                    std::optional<std::int64_t> only_turn);

  class Transaction;

  // Whether Guarded lets a call through while locks lost with a connection are not yet
  // released or taken again (storage/connection.h): only TryLock and Unlock may.
  enum class LostLocks { kRefuse, kAllow };
  // Runs `body` (which uses session_) once the connection is usable, turning exceptions into
  // Status values that say `what` failed: UNAVAILABLE when the connection broke.
  template <typename Body>
  auto Guarded(const std::string& what, Body body, LostLocks lost = LostLocks::kRefuse)
      -> decltype(body());
  // OK when session_ can be used: reconnects first when it broke and the backoff allows.
  Status Ready(const std::string& what, LostLocks lost);
  // After a call failed with `error`: when the connection is gone, notes the break (locks
  // lost, one attempt to reconnect at once) and returns UNAVAILABLE; else IO_ERROR.
  Status Failed(const std::string& what, const std::string& error);
  // Opens a new session (schema checked, session configured); false and the backoff
  // advanced when it fails.
  bool Reconnect();
  // A new session on the store, checked and configured (the part of OpenOrMigrate that
  // reconnecting repeats). Throws Poco::Exception; a non-OK Status refuses the store.
  Result<std::unique_ptr<Poco::Data::Session>> NewSession();

  std::string Sql(std::string_view text) const;
  Status NotOpen() const;
  bool HasMigrationsTable(Poco::Data::Session& session);
  int MaxVersion(Poco::Data::Session& session);
  Status TooNew(int version) const;
  void ApplyMigration(Poco::Data::Session& session, int version, const std::string& description,
                      const std::vector<std::string>& statements);
  bool GameExists(const std::string& game_id, bool lock);
  void InsertGame(const NewGame& game);
  void InsertPlayer(const NewPlayer& player);
  // Within a transaction: the game and its players, or why not (`what` starts the message).
  Status InsertGameWithPlayers(const NewGame& game, const std::vector<NewPlayer>& players,
                               const std::string& what);
  Status InsertLeagueGames(const std::vector<LeagueGameRecord>& games, const std::string& what);
  void InsertOpenTurn(const OpenTurn& open);
  void InsertTurn(const TurnCommit& commit, std::int64_t turn_sequence);
  // The id of the side's latest accepted submission for position `turn` (0 when none); with
  // `same`, 0 also when that one's raw bytes or validated orders are not those of `same`.
  // Inside a transaction that holds the game's row.
  std::int64_t LatestAccepted(const std::string& game_id, std::int64_t turn,
                              const std::string& side, const NewSubmission* same = nullptr);
  bool LeagueExists(const std::string& league_id);
  bool LeaguePlayerExists(const std::string& league_id, const std::string& player);
  void InsertLeaguePlayer(const NewLeaguePlayer& player);
  // True when another player than `except_player` of the league has `address` (ASCII case
  // ignored). Within a transaction or not.
  bool LeagueAddressTaken(const std::string& league_id, const std::string& address,
                          const std::string& except_player);
  // `status` of a failed insert of `player`, made ALREADY_EXISTS when its address is taken now
  // (the unique index refused a racing join).
  Status AddressRaceLost(const Status& status, const NewLeaguePlayer& player,
                         const std::string& except_player, const std::string& what);
  // Sets the result of a league game; false when no league has it. Within a transaction.
  bool UpdateLeagueResult(const LeagueGameRecord& result);
  // Within a transaction that holds the game's row: stores `ending` as the game's end at
  // turns_committed `turn`, at `at`.
  void StoreEnding(const std::string& game_id, const GameEnding& ending, std::int64_t turn,
                   Timestamp at);
  std::vector<LeagueGameRecord> ReadLeagueGames(const std::string& column, const std::string& key);
  std::optional<OpenTurn> ReadOpenTurn(const std::string& game_id, std::int64_t turn,
                                       const std::string& side);
  std::int64_t InsertMail(const NewMail& mail);
  // Within a transaction: NOT_FOUND when there is no mail `mail_id`, FAILED_PRECONDITION when
  // it was sent; `what` names the operation in the message.
  Status RequireUnsent(std::int64_t mail_id, const std::string& what);
  std::vector<Attachment> ReadAttachments(std::int64_t mail_id);
  std::vector<OutboxMail> ReadMails(const std::string& where,
                                    const std::vector<std::int64_t>& params);

  SqlDialect dialect_;
  std::string store_name_;
  std::unique_ptr<Poco::Data::Session> session_;  // null until OpenOrMigrate() succeeds
  std::set<std::string> locks_held_;              // TryLock names taken and not released
  // Locks held when the connection broke, not yet released or taken again by their holder.
  std::set<std::string> locks_lost_;
  ReconnectPolicy policy_;
  ConnectionObserver* observer_ = nullptr;
  bool broken_ = false;       // session_ lost its connection; Ready() reconnects
  std::string broken_error_;  // why, for the UNAVAILABLE messages
  std::chrono::milliseconds backoff_{0};
  std::chrono::steady_clock::time_point next_attempt_;  // no reconnection attempt before
};

}  // namespace pbem::storage

#endif  // PBEM_STORAGE_SQL_REPOSITORY_H_
