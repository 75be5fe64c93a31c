#include "storage/sql_repository.h"

#include <Poco/Data/DataException.h>
#include <Poco/Data/LOB.h>
#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>
#include <Poco/Exception.h>
#include <Poco/SHA2Engine.h>

#include <algorithm>
#include <exception>
#include <set>
#include <utility>
#include <vector>

namespace pbem::storage {
namespace {

using Poco::Data::BLOB;
using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;
using Poco::Data::Keywords::use;

struct Migration {
  int version;
  std::string description;
  std::vector<std::string> statements;
};

// Append-only: never edit a migration that has shipped; add the next one instead.
// Blob columns are nullable on purpose: SQLite binds an empty blob as NULL. Reads turn NULL
// back into an empty blob (SqlDialect::empty_blob).
const std::vector<Migration>& Migrations() {
  static const std::vector<Migration> kMigrations = {
      {1,
       "games placeholder",
       {"CREATE TABLE games ("
        "  id TEXT PRIMARY KEY,"
        "  scenario TEXT NOT NULL,"
        "  created_at TEXT NOT NULL)"}},
      {2,
       "games, players, submissions, turns, outbox",
       {
           // The placeholder of migration 1 never held a game: replace it.
           "DROP TABLE games",
           "CREATE TABLE games ("
           "  id TEXT PRIMARY KEY,"
           "  scenario TEXT NOT NULL,"
           "  ruleset_name TEXT NOT NULL,"
           "  ruleset_version TEXT NOT NULL,"
           "  engine_version TEXT NOT NULL,"
           "  turn_timeout_s {int64} NOT NULL,"
           "  reminder_before_s {int64} NOT NULL,"
           "  state {blob},"
           "  created_at_ms {int64} NOT NULL,"
           "  turns_committed {int64} NOT NULL DEFAULT 0)",
           "CREATE TABLE players ("
           "  game_id TEXT NOT NULL REFERENCES games (id),"
           "  side TEXT NOT NULL,"
           "  mail_address TEXT NOT NULL,"
           "  token_sha256 TEXT NOT NULL,"
           "  PRIMARY KEY (game_id, side))",
           "CREATE TABLE submissions ("
           "  id {id_pk},"
           "  game_id TEXT NOT NULL REFERENCES games (id),"
           "  turn {int64} NOT NULL,"
           "  channel TEXT NOT NULL,"
           "  sender TEXT NOT NULL,"
           "  message_id TEXT,"  // NULL when there is none
           "  raw {blob},"
           "  content_sha256 TEXT NOT NULL,"
           "  received_at_ms {int64} NOT NULL,"
           "  verdicts {blob},"
           "  accepted INTEGER NOT NULL,"
           "  reason TEXT NOT NULL)",
           // The duplicate rules of RecordSubmission, enforced by the database itself.
           "CREATE UNIQUE INDEX submissions_by_message_id ON submissions (game_id, message_id)"
           "  WHERE message_id IS NOT NULL",
           "CREATE UNIQUE INDEX submissions_by_content ON submissions"
           "  (game_id, turn, content_sha256)",
           "CREATE TABLE turns ("
           "  game_id TEXT NOT NULL REFERENCES games (id),"
           "  turn {int64} NOT NULL,"
           "  side TEXT NOT NULL,"
           "  sequence {int64} NOT NULL,"
           "  orders {blob},"
           "  dice_seed {blob},"
           "  dice_commitment {blob},"
           "  result {blob},"
           "  next_state {blob},"
           "  committed_at_ms {int64} NOT NULL,"
           "  PRIMARY KEY (game_id, turn, side),"
           "  UNIQUE (game_id, sequence))",
           "CREATE TABLE outbox ("
           "  id {id_pk},"
           "  recipient TEXT NOT NULL,"
           "  subject TEXT NOT NULL,"
           "  body TEXT NOT NULL,"
           "  attempts {int64} NOT NULL DEFAULT 0,"
           "  next_try_ms {int64} NOT NULL,"
           "  sent_at_ms {int64},"  // NULL until sent
           "  last_error TEXT NOT NULL DEFAULT '')",
           "CREATE INDEX outbox_due ON outbox (next_try_ms, id) WHERE sent_at_ms IS NULL",
           "CREATE TABLE outbox_attachments ("
           "  mail_id {int64} NOT NULL REFERENCES outbox (id),"
           "  ordinal INTEGER NOT NULL,"
           "  filename TEXT NOT NULL,"
           "  content_type TEXT NOT NULL,"
           "  data {blob},"
           "  PRIMARY KEY (mail_id, ordinal))",
       }},
      {3,
       "verifiable dice: open turns; ruleset, scenario and initial state pinned per game",
       {
           "ALTER TABLE games ADD COLUMN initial_state {blob}",
           "ALTER TABLE games ADD COLUMN ruleset_proto {blob}",
           "ALTER TABLE games ADD COLUMN scenario_proto {blob}",
           // Games created before: their initial state is unknown (NULL reads back empty).
           "CREATE TABLE open_turns ("
           "  game_id TEXT NOT NULL REFERENCES games (id),"
           "  turn {int64} NOT NULL,"
           "  side TEXT NOT NULL,"
           "  based_on {int64} NOT NULL,"
           "  dice_seed {blob} NOT NULL,"
           "  dice_commitment {blob},"
           "  opened_at_ms {int64} NOT NULL,"
           "  PRIMARY KEY (game_id, turn, side))",
       }},
      {4,
       "leagues: leagues, league players, league games and results, rating history",
       {
           "CREATE TABLE leagues ("
           "  id TEXT PRIMARY KEY,"
           "  name TEXT NOT NULL,"
           "  organiser_token_sha256 TEXT NOT NULL,"
           "  settings TEXT NOT NULL,"
           "  created_at_ms {int64} NOT NULL)",
           "CREATE TABLE league_players ("
           "  league_id TEXT NOT NULL REFERENCES leagues (id),"
           "  player TEXT NOT NULL,"
           "  mail_address TEXT NOT NULL,"
           "  token_sha256 TEXT NOT NULL,"
           "  joined_at_ms {int64} NOT NULL,"
           "  PRIMARY KEY (league_id, player))",
           // game_id names a game of the games table once the daemon created it.
           "CREATE TABLE league_games ("
           "  game_id TEXT PRIMARY KEY,"
           "  league_id TEXT NOT NULL REFERENCES leagues (id),"
           "  season {int64} NOT NULL,"
           "  round {int64} NOT NULL,"
           "  blue TEXT NOT NULL,"
           "  orange TEXT NOT NULL,"
           "  result TEXT NOT NULL,"
           "  winner TEXT NOT NULL,"
           "  level TEXT NOT NULL)",
           "CREATE INDEX league_games_by_league ON league_games (league_id, season, round)",
           "CREATE TABLE league_ratings ("
           "  league_id TEXT NOT NULL REFERENCES leagues (id),"
           "  player TEXT NOT NULL,"
           "  season {int64} NOT NULL,"
           "  round {int64} NOT NULL,"
           "  rating DOUBLE PRECISION NOT NULL,"
           "  rd DOUBLE PRECISION NOT NULL,"
           "  volatility DOUBLE PRECISION NOT NULL,"
           "  PRIMARY KEY (league_id, player, season, round))",
       }},
      {5,
       "the scheduler: a language and missed turns per player, pauses, reminders, results",
       {
           "ALTER TABLE players ADD COLUMN language TEXT NOT NULL DEFAULT 'en'",
           "ALTER TABLE players ADD COLUMN missed_turns {int64} NOT NULL DEFAULT 0",
           "ALTER TABLE games ADD COLUMN paused_at_ms {int64}",  // NULL while running
           "ALTER TABLE games ADD COLUMN result TEXT",           // NULL while played
           "ALTER TABLE games ADD COLUMN ended_at_ms {int64}",
           "ALTER TABLE open_turns ADD COLUMN paused_ms {int64} NOT NULL DEFAULT 0",
           "ALTER TABLE open_turns ADD COLUMN reminded_at_ms {int64}",  // NULL until reminded
       }},
      {6,
       "several instances on one store: outbox claims",
       {
           "ALTER TABLE outbox ADD COLUMN claimed_by TEXT",           // NULL: never claimed
           "ALTER TABLE outbox ADD COLUMN claimed_until_ms {int64}",  // NULL: no claim runs
       }},
      {7,
       "leagues in pbemd: a language per league player",
       {
           "ALTER TABLE league_players ADD COLUMN language TEXT NOT NULL DEFAULT 'en'",
       }},
      {8,
       "acknowledged means played: submissions keep their side and the orders as validated; "
       "duplicates are of accepted submissions of the same side only",
       {
           // Duplicates are decided in RecordSubmission under the game's row lock: the same
           // bytes may be sent again as a new revision, and refused submissions are no
           // originals. A Message-ID stays unique among a side's accepted submissions.
           "ALTER TABLE submissions ADD COLUMN side TEXT",      // NULL: stored before, or unknown
           "ALTER TABLE submissions ADD COLUMN orders {blob}",  // NULL: refused, or before
           "DROP INDEX submissions_by_content",
           "DROP INDEX submissions_by_message_id",
           "CREATE UNIQUE INDEX submissions_by_message_id ON submissions"
           "  (game_id, side, message_id) WHERE message_id IS NOT NULL AND accepted = 1",
           "CREATE INDEX submissions_by_turn ON submissions (game_id, turn, side, accepted, id)",
       }},
      {9,
       "one league player per mail address and league, enforced by the database",
       {
           // Addresses compare without case (the daemon stores them lower-cased); lower() is
           // ASCII in SQLite, and addresses are ASCII (daemon/validate.h).
           "CREATE UNIQUE INDEX league_players_by_address ON league_players"
           "  (league_id, lower(mail_address))",
       }},
      {10,
       "league seasons: the round robin's seats pinned at the season's start, the season's end",
       {
           "CREATE TABLE league_seasons ("
           "  league_id TEXT NOT NULL REFERENCES leagues (id),"
           "  season {int64} NOT NULL,"
           "  started_at_ms {int64} NOT NULL,"
           "  finished_at_ms {int64},"  // NULL while the season is played
           "  PRIMARY KEY (league_id, season))",
           // A replacement takes over its predecessor's seat (ReplaceLeaguePlayer).
           "CREATE TABLE league_seats ("
           "  league_id TEXT NOT NULL,"
           "  season {int64} NOT NULL,"
           "  seat {int64} NOT NULL,"
           "  player TEXT NOT NULL,"
           "  PRIMARY KEY (league_id, season, seat),"
           "  FOREIGN KEY (league_id, season) REFERENCES league_seasons (league_id, season))",
       }},
      {11,
       "a game's end as a value (kind, winner, level, organiser, turn); league result corrections",
       {
           // NULL end_kind: the game is played. Games ended before were ended by two sentences
           // only (league ResignationResult and the turn loop's forfeit): they get their value
           // here, once, so no reader ever parses a sentence again. Any other text (none was
           // written by pbemd) reads as a draw, as the league read it before.
           "ALTER TABLE games ADD COLUMN end_kind TEXT",
           "ALTER TABLE games ADD COLUMN end_winner TEXT NOT NULL DEFAULT ''",
           "ALTER TABLE games ADD COLUMN end_level TEXT NOT NULL DEFAULT ''",
           "ALTER TABLE games ADD COLUMN end_by_organiser {int64} NOT NULL DEFAULT 0",
           "ALTER TABLE games ADD COLUMN end_turn {int64} NOT NULL DEFAULT 0",
           "UPDATE games SET end_kind = 'resigned', end_winner = 'blue', end_level = 'total' "
           "WHERE result LIKE 'blue wins: orange resigned%'",
           "UPDATE games SET end_kind = 'resigned', end_winner = 'orange', end_level = 'total' "
           "WHERE result LIKE 'orange wins: blue resigned%'",
           "UPDATE games SET end_kind = 'forfeit', end_winner = 'blue', end_level = 'total' "
           "WHERE result LIKE 'blue wins: orange forfeited%'",
           "UPDATE games SET end_kind = 'forfeit', end_winner = 'orange', end_level = 'total' "
           "WHERE result LIKE 'orange wins: blue forfeited%'",
           "UPDATE games SET end_kind = 'forfeit', end_level = 'draw' "
           "WHERE result LIKE 'no winner: % forfeited%'",
           "UPDATE games SET end_kind = 'draw', end_level = 'draw' "
           "WHERE result IS NOT NULL AND result <> '' AND end_kind IS NULL",
           "UPDATE games SET end_turn = turns_committed WHERE end_kind IS NOT NULL",
           // One row per correction of a league result: the history an organiser answers for.
           "CREATE TABLE league_corrections ("
           "  id {id_pk},"
           "  league_id TEXT NOT NULL REFERENCES leagues (id),"
           "  game_id TEXT NOT NULL,"
           "  season {int64} NOT NULL,"
           "  round {int64} NOT NULL,"
           "  old_result TEXT NOT NULL,"
           "  old_winner TEXT NOT NULL,"
           "  old_level TEXT NOT NULL,"
           "  new_result TEXT NOT NULL,"
           "  new_winner TEXT NOT NULL,"
           "  new_level TEXT NOT NULL,"
           "  reason TEXT NOT NULL,"
           "  corrected_at_ms {int64} NOT NULL)",
           "CREATE INDEX league_corrections_by_league ON league_corrections (league_id, id)",
       }},
      {12,
       "a display name per player, for the greeting of their mails",
       {
           // Empty: no name (the mails greet nobody, never the address). A league game's
           // players are named in its league: their names are copied once.
           "ALTER TABLE players ADD COLUMN name TEXT NOT NULL DEFAULT ''",
           "UPDATE players SET name = (SELECT blue FROM league_games "
           "WHERE league_games.game_id = players.game_id) "
           "WHERE side = 'blue' AND game_id IN (SELECT game_id FROM league_games)",
           "UPDATE players SET name = (SELECT orange FROM league_games "
           "WHERE league_games.game_id = players.game_id) "
           "WHERE side = 'orange' AND game_id IN (SELECT game_id FROM league_games)",
       }},
      {13,
       "outbox dead letters: a mail the relay refuses for good, or that failed too often",
       {
           // NULL: not dead-lettered. A dead letter is never due, never deleted, and goes back
           // into the outbox only by RequeueMail (pbem outbox requeue).
           "ALTER TABLE outbox ADD COLUMN failed_at_ms {int64}",
           "DROP INDEX outbox_due",
           "CREATE INDEX outbox_due ON outbox (next_try_ms, id) "
           "WHERE sent_at_ms IS NULL AND failed_at_ms IS NULL",
           "CREATE INDEX outbox_dead ON outbox (id) WHERE failed_at_ms IS NOT NULL",
       }},
      {14,
       "failing turn jobs: a count, a backoff, and stuck games an operator retries",
       {
           // turn_failures: failures in a row of the game's turn job (not a database outage);
           // turn_retry_at_ms: not scheduled before (NULL: at once); turn_failed_at_ms: stuck
           // since (NULL: not stuck; the scheduler leaves it until pbem turns retry);
           // turn_error: the last failure, for the operator.
           "ALTER TABLE games ADD COLUMN turn_failures {int64} NOT NULL DEFAULT 0",
           "ALTER TABLE games ADD COLUMN turn_retry_at_ms {int64}",
           "ALTER TABLE games ADD COLUMN turn_failed_at_ms {int64}",
           "ALTER TABLE games ADD COLUMN turn_error TEXT NOT NULL DEFAULT ''",
           "CREATE INDEX games_stuck ON games (id) WHERE turn_failed_at_ms IS NOT NULL",
       }},
      {15,
       "sent mails are pruned after pbemd.outbox.keep_sent_days: an index of the sent ones",
       {
           // PruneSentMail's query, earliest sent first, without reading the mails: without it
           // a pass with nothing to prune scans the whole outbox (bodies included).
           "CREATE INDEX outbox_sent ON outbox (sent_at_ms, id) "
           "WHERE sent_at_ms IS NOT NULL AND failed_at_ms IS NULL",
       }},
  };
  return kMigrations;
}

void ReplaceAll(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

BLOB ToBlob(const Bytes& bytes) {
  return BLOB(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

Bytes FromBlob(const BLOB& blob) {
  if (blob.size() == 0) return Bytes();
  return Bytes(reinterpret_cast<const char*>(blob.rawContent()), blob.size());
}

Timestamp FromMillis(Poco::Int64 ms) { return Timestamp(std::chrono::milliseconds(ms)); }
Poco::Int64 ToMillis(Timestamp t) { return t.time_since_epoch().count(); }

std::string ChannelName(Channel channel) {
  switch (channel) {
    case Channel::kMail:
      return "mail";
    case Channel::kHttp:
      return "http";
  }
  return "mail";
}

Channel ChannelFromName(const std::string& name) {
  return name == "http" ? Channel::kHttp : Channel::kMail;
}

// Comparing hex digests of a secret: no early exit on the first difference.
bool SameDigest(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  }
  return diff == 0;
}

}  // namespace

std::string_view GameEndKindName(GameEndKind kind) {
  switch (kind) {
    case GameEndKind::kVictory:
      return "victory";
    case GameEndKind::kDraw:
      return "draw";
    case GameEndKind::kResigned:
      return "resigned";
    case GameEndKind::kForfeit:
      return "forfeit";
  }
  return "draw";
}

std::optional<GameEndKind> ParseGameEndKind(std::string_view name) {
  for (GameEndKind kind :
       {GameEndKind::kVictory, GameEndKind::kDraw, GameEndKind::kResigned, GameEndKind::kForfeit}) {
    if (GameEndKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

std::string Sha256Hex(const std::string& bytes) {
  Poco::SHA2Engine engine(Poco::SHA2Engine::SHA_256);
  engine.update(bytes.data(), static_cast<unsigned>(bytes.size()));
  return Poco::DigestEngine::digestToHex(engine.digest());
}

// A write transaction: begun on construction, rolled back on destruction unless committed.
class SqlRepository::Transaction {
 public:
  Transaction(Poco::Data::Session& session, const SqlDialect& dialect) : session_(session) {
    if (dialect.begin_write.empty()) {
      session_.begin();
      uses_session_api_ = true;
    } else {
      session_ << dialect.begin_write, now;
    }
  }
  ~Transaction() {
    if (done_) return;
    try {
      if (uses_session_api_) {
        session_.rollback();
      } else {
        session_ << "ROLLBACK", now;
      }
    } catch (...) {  // never throw from a destructor
      // The connection is broken; the database rolls back on its own.
    }
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  void Commit() {
    if (uses_session_api_) {
      session_.commit();
    } else {
      session_ << "COMMIT", now;
    }
    done_ = true;
  }

 private:
  Poco::Data::Session& session_;
  bool uses_session_api_ = false;
  bool done_ = false;
};

template <typename Body>
auto SqlRepository::Guarded(const std::string& what, Body body, LostLocks lost)
    -> decltype(body()) {
  if (Status ready = Ready(what, lost); !ready.ok()) return ready;
  try {
    return body();
  } catch (const Poco::Exception& e) {
    return Failed(what, e.displayText());
  } catch (const std::exception& e) {
    return Status::Internal(what + ": " + e.what());
  }
}

Status SqlRepository::Ready(const std::string& what, LostLocks lost) {
  if (session_ == nullptr) return NotOpen();
  if (broken_) {
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(
        next_attempt_ - std::chrono::steady_clock::now());
    if (wait.count() > 0) {
      return Status::Unavailable(what + ": " + store_name_ + " cannot be reached (" +
                                 broken_error_ + "); next attempt in " +
                                 std::to_string(wait.count()) + " ms");
    }
    if (!Reconnect()) {
      return Status::Unavailable(what + ": " + store_name_ + " cannot be reached (" +
                                 broken_error_ + ")");
    }
  }
  if (lost == LostLocks::kRefuse && !locks_lost_.empty()) {
    std::string names;
    for (const std::string& name : locks_lost_) {
      names += (names.empty() ? "\"" : ", \"") + name + "\"";
    }
    return Status::FailedPrecondition(what + ": the connection to " + store_name_ +
                                      " broke and this repository lost the lock(s) " + names +
                                      " with it; release them or take them again first");
  }
  return Status::Ok();
}

Status SqlRepository::Failed(const std::string& what, const std::string& error) {
  if (session_ == nullptr || broken_ || session_->isConnected()) {
    return Status::IoError(what + ": " + error);
  }
  // The connection is gone: its locks went with it (the server freed them).
  broken_ = true;
  broken_error_ = error;
  locks_lost_.insert(locks_held_.begin(), locks_held_.end());
  locks_held_.clear();
  backoff_ = policy_.first_delay;
  next_attempt_ = std::chrono::steady_clock::now();
  if (!Reconnect() && observer_ != nullptr) observer_->ConnectionLost(store_name_, error);
  return Status::Unavailable(what + ": the connection to " + store_name_ + " broke: " + error);
}

bool SqlRepository::Reconnect() {
  std::string error;
  try {
    Result<std::unique_ptr<Poco::Data::Session>> session = NewSession();
    if (session.ok()) {
      DropPrepared();
      session_ = std::move(session).value();
      broken_ = false;
      broken_error_.clear();
      if (observer_ != nullptr) observer_->ConnectionRestored(store_name_);
      return true;
    }
    error = session.status().message();
  } catch (const Poco::Exception& e) {
    error = e.displayText();
  } catch (const std::exception& e) {
    error = e.what();
  }
  broken_error_ = error;
  next_attempt_ = std::chrono::steady_clock::now() + backoff_;
  backoff_ = std::min(backoff_ * 2, policy_.max_delay);
  return false;
}

SqlRepository::SqlRepository(SqlDialect dialect, std::string store_name)
    : dialect_(std::move(dialect)), store_name_(std::move(store_name)) {}

SqlRepository::~SqlRepository() = default;

std::string SqlRepository::Sql(std::string_view text) const {
  std::string sql(text);
  ReplaceAll(sql, "{blob}", dialect_.blob_type);
  ReplaceAll(sql, "{int64}", dialect_.int64_type);
  ReplaceAll(sql, "{id_pk}", dialect_.id_primary_key);
  ReplaceAll(sql, "{empty_blob}", dialect_.empty_blob);
  if (dialect_.dollar_placeholders) {
    std::string out;
    int n = 0;
    for (char c : sql) {
      if (c == '?') {
        out += '$' + std::to_string(++n);
      } else {
        out += c;
      }
    }
    sql = std::move(out);
  }
  return sql;
}

Status SqlRepository::NotOpen() const {
  return Status::FailedPrecondition(store_name_ + " is not open: call OpenOrMigrate() first");
}

bool SqlRepository::HasMigrationsTable(Poco::Data::Session& session) {
  int count = 0;
  session << dialect_.has_migrations_table_query, into(count), now;
  return count > 0;
}

int SqlRepository::MaxVersion(Poco::Data::Session& session) {
  int version = 0;
  session << "SELECT COALESCE(MAX(version), 0) FROM schema_migrations", into(version), now;
  return version;
}

Status SqlRepository::TooNew(int version) const {
  return Status::FailedPrecondition(store_name_ + " has schema version " + std::to_string(version) +
                                    ", but this program knows only up to version " +
                                    std::to_string(kLatestSchemaVersion) +
                                    "; run a newer pbem or use another store");
}

void SqlRepository::ApplyMigration(Poco::Data::Session& session, int version,
                                   const std::string& description,
                                   const std::vector<std::string>& statements) {
  Transaction transaction(session, dialect_);
  if (!dialect_.lock_migrations.empty()) session << dialect_.lock_migrations, now;
  // Another process may have applied it since we looked.
  if (MaxVersion(session) >= version) {
    transaction.Commit();
    return;
  }
  for (const std::string& statement : statements) {
    session << Sql(statement), now;
  }
  // applied_at is the database's clock: an audit note, never read by the program.
  std::string text = description;
  session << Sql(
      "INSERT INTO schema_migrations (version, description, applied_at) "
      "VALUES (?, ?, CAST(CURRENT_TIMESTAMP AS TEXT))"),
      bind(version), use(text), now;
  transaction.Commit();
}

Result<std::unique_ptr<Poco::Data::Session>> SqlRepository::NewSession() {
  std::unique_ptr<Poco::Data::Session> session = Connect();
  // Refuse a newer schema before changing anything in the store.
  if (HasMigrationsTable(*session)) {
    int version = MaxVersion(*session);
    if (version > kLatestSchemaVersion) return TooNew(version);
  }
  if (Status configured = ConfigureSession(*session); !configured.ok()) return configured;
  return session;
}

Result<int> SqlRepository::OpenOrMigrate() {
  // Reopening drops the locks this instance held (PostgreSQL: they go with the old session).
  for (const std::string& name : locks_held_) {
    try {
      if (session_ != nullptr) (void)ReleaseLock(LockKey(name));
    } catch (...) {  // the old connection is broken: the server freed them already
    }
  }
  locks_held_.clear();
  locks_lost_.clear();
  broken_ = false;
  DropPrepared();
  session_.reset();
  if (Status prepared = PrepareStore(); !prepared.ok()) return prepared;
  const std::string what = "opening " + store_name_;
  try {
    Result<std::unique_ptr<Poco::Data::Session>> opened = NewSession();
    if (!opened.ok()) return opened.status();
    std::unique_ptr<Poco::Data::Session> session = std::move(opened).value();
    *session << "CREATE TABLE IF NOT EXISTS schema_migrations ("
                "  version INTEGER PRIMARY KEY,"
                "  description TEXT NOT NULL,"
                "  applied_at TEXT NOT NULL)",
        now;
    const int found_version = MaxVersion(*session);
    for (const Migration& migration : Migrations()) {
      if (migration.version > found_version) {
        ApplyMigration(*session, migration.version, migration.description, migration.statements);
      }
    }
    // Another process may have migrated further in the meantime.
    int version = MaxVersion(*session);
    if (version > kLatestSchemaVersion) return TooNew(version);
    session_ = std::move(session);
    return version;
  } catch (const Poco::Data::ConnectionFailedException& e) {
    return Status::Unavailable(what + ": " + e.displayText());
  } catch (const Poco::Exception& e) {
    return Status::IoError(what + ": " + e.displayText());
  } catch (const std::exception& e) {
    return Status::Internal(what + ": " + e.what());
  }
}

Result<int> SqlRepository::SchemaVersion() {
  if (session_ == nullptr) return NotOpen();
  return Guarded("reading the schema version of " + store_name_,
                 [&]() -> Result<int> { return MaxVersion(*session_); });
}

bool SqlRepository::GameExists(const std::string& game_id, bool lock) {
  std::vector<std::string> ids;
  std::string id = game_id;
  *session_ << Sql("SELECT id FROM games WHERE id = ?" +
                   (lock ? dialect_.lock_row_suffix : std::string())),
      use(id), into(ids), now;
  return !ids.empty();
}

// --- games and players ------------------------------------------------------------------------

void SqlRepository::InsertGame(const NewGame& game) {
  std::string id = game.id, scenario = game.scenario, ruleset_name = game.ruleset_name,
              ruleset_version = game.ruleset_version, engine_version = game.engine_version;
  Poco::Int64 timeout = game.deadlines.turn_timeout.count();
  Poco::Int64 reminder = game.deadlines.reminder_before.count();
  BLOB state = ToBlob(game.initial_state), initial = ToBlob(game.initial_state),
       ruleset = ToBlob(game.ruleset_proto), scenario_proto = ToBlob(game.scenario_proto);
  Poco::Int64 created = ToMillis(game.created_at);
  *session_ << Sql(
      "INSERT INTO games (id, scenario, ruleset_name, ruleset_version, "
      "engine_version, turn_timeout_s, reminder_before_s, state, created_at_ms, "
      "turns_committed, initial_state, ruleset_proto, scenario_proto) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)"),
      use(id), use(scenario), use(ruleset_name), use(ruleset_version), use(engine_version),
      use(timeout), use(reminder), use(state), use(created), use(initial), use(ruleset),
      use(scenario_proto), now;
}

Status SqlRepository::CreateGame(const NewGame& game) {
  return CreateGameWithPlayers(game, {}, {});
}

Status SqlRepository::InsertGameWithPlayers(const NewGame& game,
                                            const std::vector<NewPlayer>& players,
                                            const std::string& what) {
  if (game.id.empty()) return Status::InvalidArgument(what + ": the game id is empty");
  if (GameExists(game.id, /*lock=*/false)) {
    return Status::AlreadyExists(what + ": a game with that id exists");
  }
  std::set<std::string> sides;
  for (const NewPlayer& player : players) {
    if (player.game_id != game.id) {
      return Status::InvalidArgument(what + ": the player of side " + player.side + " names game " +
                                     player.game_id);
    }
    if (player.token.empty()) {
      return Status::InvalidArgument(what + ": the token of side " + player.side + " is empty");
    }
    if (!sides.insert(player.side).second) {
      return Status::AlreadyExists(what + ": side " + player.side + " is given twice");
    }
  }
  InsertGame(game);
  for (const NewPlayer& player : players) InsertPlayer(player);
  return Status::Ok();
}

Status SqlRepository::CreateGameWithPlayers(const NewGame& game,
                                            const std::vector<NewPlayer>& players,
                                            const std::vector<NewMail>& mails) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "creating game " + game.id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (Status inserted = InsertGameWithPlayers(game, players, what); !inserted.ok()) {
      return inserted;
    }
    for (const NewMail& mail : mails) InsertMail(mail);
    transaction.Commit();
    return Status::Ok();
  });
}

Result<Game> SqlRepository::GetGame(const std::string& game_id) {
  if (session_ == nullptr) return NotOpen();
  return Guarded("reading game " + game_id + " from " + store_name_, [&]() -> Result<Game> {
    std::string id = game_id;
    std::vector<std::string> scenario, ruleset_name, ruleset_version, engine_version;
    std::vector<Poco::Int64> timeout, reminder, created, turns, paused_at;
    std::vector<BLOB> state, initial, ruleset, scenario_proto;
    std::vector<std::string> result, end_kind, end_winner, end_level;
    std::vector<Poco::Int64> end_by_organiser, end_turn;
    *session_ << Sql(
        "SELECT scenario, ruleset_name, ruleset_version, engine_version, "
        "turn_timeout_s, reminder_before_s, COALESCE(state, {empty_blob}), "
        "created_at_ms, turns_committed, COALESCE(initial_state, {empty_blob}), "
        "COALESCE(ruleset_proto, {empty_blob}), COALESCE(scenario_proto, {empty_blob}), "
        "COALESCE(paused_at_ms, -1), COALESCE(result, ''), COALESCE(end_kind, ''), end_winner, "
        "end_level, end_by_organiser, end_turn "
        "FROM games WHERE id = ?"),
        use(id), into(scenario), into(ruleset_name), into(ruleset_version), into(engine_version),
        into(timeout), into(reminder), into(state), into(created), into(turns), into(initial),
        into(ruleset), into(scenario_proto), into(paused_at), into(result), into(end_kind),
        into(end_winner), into(end_level), into(end_by_organiser), into(end_turn), now;
    if (scenario.empty()) {
      return Status::NotFound("game " + game_id + " is not in " + store_name_);
    }
    Game game;
    game.id = game_id;
    game.scenario = scenario[0];
    game.ruleset_name = ruleset_name[0];
    game.ruleset_version = ruleset_version[0];
    game.engine_version = engine_version[0];
    game.deadlines.turn_timeout = std::chrono::seconds(timeout[0]);
    game.deadlines.reminder_before = std::chrono::seconds(reminder[0]);
    game.state = FromBlob(state[0]);
    game.initial_state = FromBlob(initial[0]);
    game.ruleset_proto = FromBlob(ruleset[0]);
    game.scenario_proto = FromBlob(scenario_proto[0]);
    game.created_at = FromMillis(created[0]);
    game.turns_committed = turns[0];
    if (paused_at[0] >= 0) game.paused_at = FromMillis(paused_at[0]);
    game.result = result[0];
    if (std::optional<GameEndKind> kind = ParseGameEndKind(end_kind[0])) {
      game.ending = GameEnding{*kind,       end_winner[0], end_level[0], end_by_organiser[0] != 0,
                               end_turn[0], result[0]};
    }
    return game;
  });
}

Result<GameVersion> GameRepository::GetGameVersion(const std::string& game_id) {
  Result<Game> game = GetGame(game_id);
  if (!game.ok()) return game.status();
  return VersionOf(*game);
}

bool SqlRepository::ReadGameVersionRow(const std::string& game_id, GameVersionRow& row) {
  std::string id = game_id;
  std::vector<Poco::Int64> created, turns, end_by_organiser, end_turn;
  std::vector<std::string> result, end_kind, end_winner, end_level;
  *session_ << Sql(kGameVersionQuery), use(id), into(created), into(turns), into(result),
      into(end_kind), into(end_winner), into(end_level), into(end_by_organiser), into(end_turn),
      now;
  if (created.empty()) return false;
  row = GameVersionRow{created[0],    turns[0],     result[0],           end_kind[0],
                       end_winner[0], end_level[0], end_by_organiser[0], end_turn[0]};
  return true;
}

Result<GameVersion> SqlRepository::GetGameVersion(const std::string& game_id) {
  if (session_ == nullptr) return NotOpen();
  return Guarded("reading game " + game_id + " from " + store_name_, [&]() -> Result<GameVersion> {
    GameVersionRow row;
    if (!ReadGameVersionRow(game_id, row)) {
      return Status::NotFound("game " + game_id + " is not in " + store_name_);
    }
    GameVersion version;
    version.created_at = FromMillis(row.created_at_ms);
    version.turns_committed = row.turns_committed;
    if (std::optional<GameEndKind> kind = ParseGameEndKind(row.end_kind)) {
      version.ending =
          GameEnding{*kind,        row.end_winner, row.end_level, row.end_by_organiser != 0,
                     row.end_turn, row.result};
    }
    return version;
  });
}

Result<std::vector<std::string>> SqlRepository::ListGames() {
  if (session_ == nullptr) return NotOpen();
  return Guarded("listing the games in " + store_name_, [&]() -> Result<std::vector<std::string>> {
    std::vector<std::string> ids;
    *session_ << Sql("SELECT id FROM games ORDER BY id"), into(ids), now;
    return ids;
  });
}

Status SqlRepository::AddPlayer(const NewPlayer& player) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "adding side " + player.side + " to game " + player.game_id + " in " + store_name_;
  if (player.token.empty()) return Status::InvalidArgument(what + ": the token is empty");
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (!GameExists(player.game_id, /*lock=*/true)) {
      return Status::NotFound(what + ": no such game");
    }
    std::string game_id = player.game_id, side = player.side;
    int count = 0;
    *session_ << Sql("SELECT count(*) FROM players WHERE game_id = ? AND side = ?"), use(game_id),
        use(side), into(count), now;
    if (count > 0) return Status::AlreadyExists(what + ": the side already has a player");
    InsertPlayer(player);
    transaction.Commit();
    return Status::Ok();
  });
}

void SqlRepository::InsertPlayer(const NewPlayer& player) {
  std::string game_id = player.game_id, side = player.side, mail = player.mail_address;
  std::string language = player.language.empty() ? "en" : player.language;
  std::string hash = Sha256Hex(player.token), name = player.name;
  *session_ << Sql(
      "INSERT INTO players (game_id, side, mail_address, token_sha256, language, name) "
      "VALUES (?, ?, ?, ?, ?, ?)"),
      use(game_id), use(side), use(mail), use(hash), use(language), use(name), now;
}

Result<std::vector<Player>> SqlRepository::ListPlayers(const std::string& game_id) {
  if (session_ == nullptr) return NotOpen();
  return Guarded(
      "listing the players of game " + game_id + " in " + store_name_,
      [&]() -> Result<std::vector<Player>> {
        std::string id = game_id;
        std::vector<std::string> side, mail, hash, language, name;
        std::vector<Poco::Int64> missed;
        *session_ << Sql(
            "SELECT side, mail_address, token_sha256, language, missed_turns, name FROM players "
            "WHERE game_id = ? ORDER BY side"),
            use(id), into(side), into(mail), into(hash), into(language), into(missed), into(name),
            now;
        std::vector<Player> players;
        for (std::size_t i = 0; i < side.size(); ++i) {
          players.push_back(
              Player{game_id, side[i], mail[i], hash[i], language[i], missed[i], name[i]});
        }
        return players;
      });
}

Result<bool> SqlRepository::VerifyToken(const std::string& game_id, const std::string& side,
                                        const std::string& token) {
  if (session_ == nullptr) return NotOpen();
  return Guarded(
      "verifying a token of side " + side + " of game " + game_id + " in " + store_name_,
      [&]() -> Result<bool> {
        std::string id = game_id, side_name = side;
        std::vector<std::string> hash;
        *session_ << Sql("SELECT token_sha256 FROM players WHERE game_id = ? AND side = ?"),
            use(id), use(side_name), into(hash), now;
        if (hash.empty()) {
          return Status::NotFound("game " + game_id + " in " + store_name_ + " has no side " +
                                  side);
        }
        return SameDigest(hash[0], Sha256Hex(token));
      });
}

// --- order submissions ------------------------------------------------------------------------

std::int64_t SqlRepository::LatestAccepted(const std::string& game_id, std::int64_t turn,
                                           const std::string& side, const NewSubmission* same) {
  std::string id = game_id, side_name = side;
  Poco::Int64 position = turn;
  std::vector<Poco::Int64> ids;
  std::vector<std::string> hashes;
  std::vector<BLOB> orders;
  *session_ << Sql(
      "SELECT id, content_sha256, COALESCE(orders, {empty_blob}) FROM submissions "
      "WHERE game_id = ? AND turn = ? AND side = ? AND accepted = 1 ORDER BY id DESC LIMIT 1"),
      use(id), use(position), use(side_name), into(ids), into(hashes), into(orders), now;
  if (ids.empty()) return 0;
  if (same != nullptr &&
      (hashes[0] != Sha256Hex(same->raw) || FromBlob(orders[0]) != same->orders)) {
    return 0;
  }
  return ids[0];
}

Result<RecordedSubmission> SqlRepository::RecordSubmission(const NewSubmission& submission) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "recording a submission to game " + submission.game_id + " in " + store_name_;
  if (submission.accepted && (submission.side.empty() || submission.orders.empty())) {
    return Status::InvalidArgument(what + ": an accepted submission needs its side and orders");
  }
  return Guarded(what, [&]() -> Result<RecordedSubmission> {
    Transaction transaction(*session_, dialect_);
    std::string game_id = submission.game_id, channel = ChannelName(submission.channel),
                sender = submission.sender, message_id = submission.message_id,
                side = submission.side, hash = Sha256Hex(submission.raw),
                reason = submission.reason;
    // The game's row, held until the end: CommitTurn takes it too, so a submission is stored
    // either before a turn is committed (and that commit sees it) or after (and is stale).
    std::vector<Poco::Int64> turns_committed;
    std::vector<std::string> result;
    *session_ << Sql("SELECT turns_committed, COALESCE(result, '') FROM games WHERE id = ?" +
                     dialect_.lock_row_suffix),
        use(game_id), into(turns_committed), into(result), now;
    if (turns_committed.empty()) return Status::NotFound(what + ": no such game");
    RecordedSubmission recorded;
    if (!message_id.empty() && !side.empty()) {
      std::vector<Poco::Int64> original;
      *session_ << Sql(
          "SELECT id FROM submissions WHERE game_id = ? AND side = ? AND message_id = ? "
          "AND accepted = 1 ORDER BY id LIMIT 1"),
          use(game_id), use(side), use(message_id), into(original), now;
      if (!original.empty()) {
        recorded.id = original[0];
        recorded.duplicate = true;
        transaction.Commit();
        return recorded;
      }
    }
    if (submission.accepted) {
      if (turns_committed[0] != submission.turn || !result[0].empty()) {
        recorded.stale = true;
        return recorded;  // rolled back: nothing stored
      }
      // The same bytes read the same way (a Content-Type may change what bytes mean).
      if (const std::int64_t latest = LatestAccepted(game_id, submission.turn, side, &submission);
          latest != 0) {
        recorded.id = latest;
        recorded.duplicate = true;
        transaction.Commit();
        return recorded;
      }
    }
    Poco::Int64 turn = submission.turn, received = ToMillis(submission.received_at);
    BLOB raw = ToBlob(submission.raw), verdicts = ToBlob(submission.verdicts),
         orders = ToBlob(submission.orders);
    int accepted = submission.accepted ? 1 : 0;
    std::vector<Poco::Int64> inserted;
    *session_ << Sql(
        "INSERT INTO submissions (game_id, turn, side, channel, sender, message_id, raw, "
        "orders, content_sha256, received_at_ms, verdicts, accepted, reason) "
        "VALUES (?, ?, NULLIF(?, ''), ?, ?, NULLIF(?, ''), ?, ?, ?, ?, ?, ?, ?) RETURNING id"),
        use(game_id), use(turn), use(side), use(channel), use(sender), use(message_id), use(raw),
        use(orders), use(hash), use(received), use(verdicts), use(accepted), use(reason),
        into(inserted), now;
    if (inserted.empty()) return Status::Internal(what + ": the insert returned no id");
    recorded.id = inserted[0];
    transaction.Commit();
    return recorded;
  });
}

Result<std::vector<Submission>> SqlRepository::ListSubmissions(const std::string& game_id) {
  if (session_ == nullptr) return NotOpen();
  return Guarded(
      "listing the submissions to game " + game_id + " in " + store_name_,
      [&]() -> Result<std::vector<Submission>> {
        std::string id = game_id;
        std::vector<Poco::Int64> ids, turn, received;
        std::vector<std::string> side, channel, sender, message_id, hash, reason;
        std::vector<BLOB> raw, orders, verdicts;
        std::vector<int> accepted;
        *session_ << Sql(
            "SELECT id, turn, COALESCE(side, ''), channel, sender, COALESCE(message_id, ''), "
            "COALESCE(raw, {empty_blob}), COALESCE(orders, {empty_blob}), content_sha256, "
            "received_at_ms, COALESCE(verdicts, {empty_blob}), accepted, reason "
            "FROM submissions WHERE game_id = ? ORDER BY id"),
            use(id), into(ids), into(turn), into(side), into(channel), into(sender),
            into(message_id), into(raw), into(orders), into(hash), into(received), into(verdicts),
            into(accepted), into(reason), now;
        std::vector<Submission> submissions;
        for (std::size_t i = 0; i < ids.size(); ++i) {
          Submission s;
          s.id = ids[i];
          s.game_id = game_id;
          s.turn = turn[i];
          s.side = side[i];
          s.channel = ChannelFromName(channel[i]);
          s.sender = sender[i];
          s.message_id = message_id[i];
          s.raw = FromBlob(raw[i]);
          s.orders = FromBlob(orders[i]);
          s.content_sha256 = hash[i];
          s.received_at = FromMillis(received[i]);
          s.verdicts = FromBlob(verdicts[i]);
          s.accepted = accepted[i] != 0;
          s.reason = reason[i];
          submissions.push_back(std::move(s));
        }
        return submissions;
      });
}

// --- turns ------------------------------------------------------------------------------------

// Stores the turn as the game's turn number `sequence` and moves the game to its next state.
void SqlRepository::InsertTurn(const TurnCommit& commit, std::int64_t turn_sequence) {
  std::string game_id = commit.game_id, side = commit.side;
  Poco::Int64 turn = commit.turn, sequence = turn_sequence;
  Poco::Int64 committed_at = ToMillis(commit.committed_at);
  BLOB orders = ToBlob(commit.orders), seed = ToBlob(commit.dice_seed),
       commitment = ToBlob(commit.dice_commitment), result = ToBlob(commit.result),
       next_state = ToBlob(commit.next_state);
  *session_ << Sql(
      "INSERT INTO turns (game_id, turn, side, sequence, orders, dice_seed, "
      "dice_commitment, result, next_state, committed_at_ms) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
      use(game_id), use(turn), use(side), use(sequence), use(orders), use(seed), use(commitment),
      use(result), use(next_state), use(committed_at), now;
  *session_ << Sql("UPDATE games SET state = ?, turns_committed = ? WHERE id = ?"), use(next_state),
      use(sequence), use(game_id), now;
}

Result<CommittedTurn> SqlRepository::CommitTurn(const TurnCommit& commit) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "committing turn " + std::to_string(commit.turn) + " of side " +
                           commit.side + " of game " + commit.game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Result<CommittedTurn> {
    Transaction transaction(*session_, dialect_);
    std::string game_id = commit.game_id, side = commit.side;
    Poco::Int64 turn = commit.turn;
    // Lock the game row first: a concurrent commit of the same turn waits here, then sees
    // the stored turn below.
    std::vector<Poco::Int64> turns_committed, paused_at;
    std::vector<std::string> ended;
    *session_ << Sql(
        "SELECT turns_committed, COALESCE(result, ''), COALESCE(paused_at_ms, -1) FROM games "
        "WHERE id = ?" +
        dialect_.lock_row_suffix),
        use(game_id), into(turns_committed), into(ended), into(paused_at), now;
    if (turns_committed.empty()) return Status::NotFound(what + ": no such game");

    int stored = 0;
    *session_ << Sql("SELECT count(*) FROM turns WHERE game_id = ? AND turn = ? AND side = ?"),
        use(game_id), use(turn), use(side), into(stored), now;
    if (stored == 0) {
      if (commit.based_on != turns_committed[0]) {
        return Status::FailedPrecondition(
            what + ": resolved from the state after " + std::to_string(commit.based_on) +
            " turns, but the game has " + std::to_string(turns_committed[0]) + " committed");
      }
      if (!ended[0].empty()) return Status::FailedPrecondition(what + ": the game has ended");
      // A pause acknowledged before the commit stops the clock: no turn is missed while paused.
      if (commit.missed && paused_at[0] >= 0) {
        return Status::FailedPrecondition(what + ": the game was paused; no turn is missed");
      }
      // Under the game's row lock, as RecordSubmission: no order can be accepted for this
      // position between this check and the commit.
      // (A submission stored before schema 8 has no side: it is played if it is the latest,
      // and only submissions with a side can be newer than it.)
      if (const std::int64_t latest = LatestAccepted(commit.game_id, commit.based_on, side);
          latest > commit.played_submission) {
        return Status::FailedPrecondition(what + ": the side's latest accepted submission is " +
                                          std::to_string(latest) + ", not the one played (" +
                                          (commit.played_submission == 0
                                               ? std::string("none")
                                               : std::to_string(commit.played_submission)) +
                                          "): resolve again");
      }
      if (std::optional<OpenTurn> open = ReadOpenTurn(commit.game_id, commit.turn, commit.side);
          open.has_value() && open->dice_seed != commit.dice_seed) {
        return Status::FailedPrecondition(
            what + ": the turn was opened with another dice seed than the one resolved with");
      }
      Poco::Int64 sequence = turns_committed[0] + 1;
      if (const std::optional<OpenTurn>& next = commit.next_open;
          next && (next->game_id != commit.game_id || next->based_on != sequence ||
                   next->dice_seed.empty())) {
        return Status::InvalidArgument(
            what + ": the next turn to open must be of the same game, based on " +
            std::to_string(sequence) + " turns, with a dice seed");
      }
      InsertTurn(commit, sequence);
      for (const NewMail& mail : commit.mails) InsertMail(mail);
      if (commit.missed) {
        *session_ << Sql(
            "UPDATE players SET missed_turns = missed_turns + 1 WHERE game_id = ? AND side = ?"),
            use(game_id), use(side), now;
      }
      if (commit.end) StoreEnding(game_id, *commit.end, sequence, commit.committed_at);
      if (const std::optional<OpenTurn>& next = commit.next_open) {
        if (!ReadOpenTurn(next->game_id, next->turn, next->side)) {
          std::string next_side = next->side;
          Poco::Int64 next_turn = next->turn, next_based_on = next->based_on,
                      opened_at = ToMillis(next->opened_at);
          BLOB next_seed = ToBlob(next->dice_seed), next_commitment = ToBlob(next->dice_commitment);
          *session_ << Sql(
              "INSERT INTO open_turns (game_id, turn, side, based_on, dice_seed, "
              "dice_commitment, opened_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)"),
              use(game_id), use(next_turn), use(next_side), use(next_based_on), use(next_seed),
              use(next_commitment), use(opened_at), now;
        }
      }
    }

    std::vector<Poco::Int64> sequence, committed_at;
    std::vector<BLOB> orders, seed, commitment, result, next_state;
    *session_ << Sql(
        "SELECT sequence, COALESCE(orders, {empty_blob}), "
        "COALESCE(dice_seed, {empty_blob}), COALESCE(dice_commitment, {empty_blob}), "
        "COALESCE(result, {empty_blob}), COALESCE(next_state, {empty_blob}), "
        "committed_at_ms FROM turns WHERE game_id = ? AND turn = ? AND side = ?"),
        use(game_id), use(turn), use(side), into(sequence), into(orders), into(seed),
        into(commitment), into(result), into(next_state), into(committed_at), now;
    if (sequence.empty()) return Status::Internal(what + ": the turn is not there after storing");
    transaction.Commit();
    CommittedTurn out;
    out.replayed = stored > 0;
    out.turn = Turn{commit.game_id,
                    commit.turn,
                    commit.side,
                    sequence[0],
                    FromBlob(orders[0]),
                    FromBlob(seed[0]),
                    FromBlob(commitment[0]),
                    FromBlob(result[0]),
                    FromBlob(next_state[0]),
                    FromMillis(committed_at[0])};
    return out;
  });
}

Result<std::vector<Turn>> SqlRepository::ListTurns(const std::string& game_id) {
  if (session_ == nullptr) return NotOpen();
  return Guarded(
      "listing the turns of game " + game_id + " in " + store_name_,
      [&]() -> Result<std::vector<Turn>> {
        std::string id = game_id;
        std::vector<Poco::Int64> turn, sequence, committed_at;
        std::vector<std::string> side;
        std::vector<BLOB> orders, seed, commitment, result, next_state;
        *session_ << Sql(
            "SELECT turn, side, sequence, COALESCE(orders, {empty_blob}), "
            "COALESCE(dice_seed, {empty_blob}), COALESCE(dice_commitment, {empty_blob}), "
            "COALESCE(result, {empty_blob}), COALESCE(next_state, {empty_blob}), "
            "committed_at_ms FROM turns WHERE game_id = ? ORDER BY sequence"),
            use(id), into(turn), into(side), into(sequence), into(orders), into(seed),
            into(commitment), into(result), into(next_state), into(committed_at), now;
        std::vector<Turn> turns;
        for (std::size_t i = 0; i < turn.size(); ++i) {
          turns.push_back(Turn{game_id, turn[i], side[i], sequence[i], FromBlob(orders[i]),
                               FromBlob(seed[i]), FromBlob(commitment[i]), FromBlob(result[i]),
                               FromBlob(next_state[i]), FromMillis(committed_at[i])});
        }
        return turns;
      });
}

// --- open turns -------------------------------------------------------------------------------

std::optional<OpenTurn> SqlRepository::ReadOpenTurn(const std::string& game_id, std::int64_t turn,
                                                    const std::string& side) {
  std::string id = game_id, side_name = side;
  Poco::Int64 turn_number = turn;
  std::vector<Poco::Int64> based_on, opened_at, paused, reminded_at;
  std::vector<BLOB> seed, commitment;
  *session_ << Sql(
      "SELECT based_on, COALESCE(dice_seed, {empty_blob}), "
      "COALESCE(dice_commitment, {empty_blob}), opened_at_ms, paused_ms, "
      "COALESCE(reminded_at_ms, -1) FROM open_turns "
      "WHERE game_id = ? AND turn = ? AND side = ?"),
      use(id), use(turn_number), use(side_name), into(based_on), into(seed), into(commitment),
      into(opened_at), into(paused), into(reminded_at), now;
  if (based_on.empty()) return std::nullopt;
  OpenTurn open{game_id,
                turn,
                side,
                based_on[0],
                FromBlob(seed[0]),
                FromBlob(commitment[0]),
                FromMillis(opened_at[0])};
  open.paused = std::chrono::milliseconds(paused[0]);
  if (reminded_at[0] >= 0) open.reminded_at = FromMillis(reminded_at[0]);
  return open;
}

void SqlRepository::InsertOpenTurn(const OpenTurn& open) {
  std::string game_id = open.game_id;
  std::string side = open.side;
  Poco::Int64 turn = open.turn, based_on = open.based_on, opened_at = ToMillis(open.opened_at);
  BLOB seed = ToBlob(open.dice_seed), commitment = ToBlob(open.dice_commitment);
  *session_ << Sql(
      "INSERT INTO open_turns (game_id, turn, side, based_on, dice_seed, dice_commitment, "
      "opened_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)"),
      use(game_id), use(turn), use(side), use(based_on), use(seed), use(commitment), use(opened_at),
      now;
}

Result<OpenTurn> SqlRepository::RecordOpenTurn(const OpenTurn& open) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "opening turn " + std::to_string(open.turn) + " of side " + open.side +
                           " of game " + open.game_id + " in " + store_name_;
  if (open.dice_seed.empty()) return Status::InvalidArgument(what + ": the dice seed is empty");
  return Guarded(what, [&]() -> Result<OpenTurn> {
    Transaction transaction(*session_, dialect_);
    std::string game_id = open.game_id;
    std::vector<Poco::Int64> turns_committed;
    *session_ << Sql("SELECT turns_committed FROM games WHERE id = ?" + dialect_.lock_row_suffix),
        use(game_id), into(turns_committed), now;
    if (turns_committed.empty()) return Status::NotFound(what + ": no such game");
    if (std::optional<OpenTurn> stored = ReadOpenTurn(open.game_id, open.turn, open.side)) {
      transaction.Commit();
      return *stored;
    }
    if (open.based_on != turns_committed[0]) {
      return Status::FailedPrecondition(
          what + ": opened at the state after " + std::to_string(open.based_on) +
          " turns, but the game has " + std::to_string(turns_committed[0]) + " committed");
    }
    InsertOpenTurn(open);
    std::optional<OpenTurn> stored = ReadOpenTurn(open.game_id, open.turn, open.side);
    if (!stored) return Status::Internal(what + ": the open turn is not there after storing");
    transaction.Commit();
    return *stored;
  });
}

Status SqlRepository::ImportGame(const NewGame& game, const std::vector<TurnCommit>& turns) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "importing game " + game.id + " into " + store_name_;
  if (game.id.empty()) return Status::InvalidArgument(what + ": the game id is empty");
  for (std::size_t i = 0; i < turns.size(); ++i) {
    if (turns[i].game_id != game.id || turns[i].based_on != static_cast<std::int64_t>(i) ||
        turns[i].dice_seed.empty()) {
      return Status::InvalidArgument(what + ": turn " + std::to_string(i + 1) +
                                     " names another game, is not based on turn " +
                                     std::to_string(i) + ", or has no dice seed");
    }
  }
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (GameExists(game.id, /*lock=*/false)) {
      return Status::AlreadyExists(what + ": a game with that id exists");
    }
    InsertGame(game);
    for (std::size_t i = 0; i < turns.size(); ++i) {
      const TurnCommit& commit = turns[i];
      InsertOpenTurn(OpenTurn{game.id, commit.turn, commit.side, commit.based_on, commit.dice_seed,
                              commit.dice_commitment, commit.committed_at});
      InsertTurn(commit, static_cast<std::int64_t>(i) + 1);
    }
    transaction.Commit();
    return Status::Ok();
  });
}

Result<OpenTurn> SqlRepository::GetOpenTurn(const std::string& game_id, std::int64_t turn,
                                            const std::string& side) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "reading open turn " + std::to_string(turn) + " of side " + side +
                           " of game " + game_id + " from " + store_name_;
  return Guarded(what, [&]() -> Result<OpenTurn> {
    std::optional<OpenTurn> stored = ReadOpenTurn(game_id, turn, side);
    if (!stored) return Status::NotFound(what + ": the turn was never opened");
    return *stored;
  });
}

// --- the scheduler ----------------------------------------------------------------------------

Status SqlRepository::SetPaused(const std::string& game_id, bool paused, Timestamp when) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      std::string(paused ? "pausing" : "resuming") + " game " + game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    std::string id = game_id;
    std::vector<Poco::Int64> paused_at, turns_committed;
    *session_ << Sql("SELECT COALESCE(paused_at_ms, -1), turns_committed FROM games WHERE id = ?" +
                     dialect_.lock_row_suffix),
        use(id), into(paused_at), into(turns_committed), now;
    if (paused_at.empty()) return Status::NotFound(what + ": no such game");
    Poco::Int64 at = ToMillis(when);
    if (paused && paused_at[0] < 0) {
      *session_ << Sql("UPDATE games SET paused_at_ms = ? WHERE id = ?"), use(at), use(id), now;
    } else if (!paused && paused_at[0] >= 0) {
      Poco::Int64 stood = std::max<Poco::Int64>(0, at - paused_at[0]);
      Poco::Int64 based_on = turns_committed[0];
      *session_ << Sql(
          "UPDATE open_turns SET paused_ms = paused_ms + ? WHERE game_id = ? AND based_on = ?"),
          use(stood), use(id), use(based_on), now;
      *session_ << Sql("UPDATE games SET paused_at_ms = NULL WHERE id = ?"), use(id), now;
    }
    transaction.Commit();
    return Status::Ok();
  });
}

Result<bool> SqlRepository::ExtendDeadline(const std::string& game_id, std::int64_t based_on,
                                           std::chrono::milliseconds extension,
                                           const std::vector<NewMail>& mails) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "extending the deadline of game " + game_id + " in " + store_name_;
  if (extension.count() <= 0)
    return Status::InvalidArgument(what + ": the extension is not positive");
  return Guarded(what, [&]() -> Result<bool> {
    Transaction transaction(*session_, dialect_);
    std::string id = game_id;
    std::vector<Poco::Int64> turns_committed;
    std::vector<std::string> result;
    *session_ << Sql("SELECT turns_committed, COALESCE(result, '') FROM games WHERE id = ?" +
                     dialect_.lock_row_suffix),
        use(id), into(turns_committed), into(result), now;
    if (turns_committed.empty()) return Status::NotFound(what + ": no such game");
    if (turns_committed[0] != based_on || !result[0].empty()) return false;
    Poco::Int64 added = extension.count();
    Poco::Int64 turn = based_on;
    *session_ << Sql(
        "UPDATE open_turns SET paused_ms = paused_ms + ?, reminded_at_ms = NULL "
        "WHERE game_id = ? AND based_on = ?"),
        use(added), use(id), use(turn), now;
    std::vector<Poco::Int64> opened;
    *session_ << Sql("SELECT based_on FROM open_turns WHERE game_id = ? AND based_on = ?"), use(id),
        use(turn), into(opened), now;
    if (opened.empty()) return false;
    for (const NewMail& mail : mails) InsertMail(mail);
    transaction.Commit();
    return true;
  });
}

Result<bool> SqlRepository::RecordReminder(const std::string& game_id, std::int64_t turn,
                                           const std::string& side, Timestamp at,
                                           const NewMail& mail) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "reminding side " + side + " of turn " + std::to_string(turn) +
                           " of game " + game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Result<bool> {
    Transaction transaction(*session_, dialect_);
    std::string id = game_id;
    std::vector<Poco::Int64> exists;
    *session_ << Sql("SELECT turns_committed FROM games WHERE id = ?" + dialect_.lock_row_suffix),
        use(id), into(exists), now;
    std::optional<OpenTurn> open = ReadOpenTurn(game_id, turn, side);
    if (exists.empty() || !open) return Status::NotFound(what + ": the turn was never opened");
    if (open->reminded_at) {
      transaction.Commit();
      return false;
    }
    std::string side_name = side;
    Poco::Int64 turn_number = turn, when = ToMillis(at);
    *session_ << Sql(
        "UPDATE open_turns SET reminded_at_ms = ? WHERE game_id = ? AND turn = ? AND side = ?"),
        use(when), use(id), use(turn_number), use(side_name), now;
    InsertMail(mail);
    transaction.Commit();
    return true;
  });
}

void SqlRepository::StoreEnding(const std::string& game_id, const GameEnding& ending,
                                std::int64_t turn, Timestamp at) {
  std::string id = game_id, text = ending.text, kind(GameEndKindName(ending.kind)),
              winner = ending.winner, level = ending.level;
  Poco::Int64 when = ToMillis(at), by_organiser = ending.by_organiser ? 1 : 0, end_turn = turn;
  *session_ << Sql(
      "UPDATE games SET result = ?, ended_at_ms = ?, end_kind = ?, end_winner = ?, "
      "end_level = ?, end_by_organiser = ?, end_turn = ? WHERE id = ?"),
      use(text), use(when), use(kind), use(winner), use(level), use(by_organiser), use(end_turn),
      use(id), now;
}

Result<bool> SqlRepository::EndGame(const std::string& game_id, std::int64_t expected_turns,
                                    const GameEnding& ending, Timestamp at,
                                    const std::vector<NewMail>& mails) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "ending game " + game_id + " in " + store_name_;
  if (ending.text.empty()) return Status::InvalidArgument(what + ": the result text is empty");
  return Guarded(what, [&]() -> Result<bool> {
    Transaction transaction(*session_, dialect_);
    std::string id = game_id;
    std::vector<std::string> stored;
    std::vector<Poco::Int64> turns;
    *session_ << Sql("SELECT COALESCE(result, ''), turns_committed FROM games WHERE id = ?" +
                     dialect_.lock_row_suffix),
        use(id), into(stored), into(turns), now;
    if (stored.empty()) return Status::NotFound(what + ": no such game");
    if (!stored[0].empty()) {
      transaction.Commit();
      return false;
    }
    if (turns[0] != expected_turns) {
      return Status::FailedPrecondition(
          what + ": the game has moved on (" + std::to_string(turns[0]) +
          " turns committed, the caller read it at " + std::to_string(expected_turns) + ")");
    }
    StoreEnding(game_id, ending, turns[0], at);
    for (const NewMail& mail : mails) InsertMail(mail);
    transaction.Commit();
    return true;
  });
}

// --- failing turn jobs (migration 14) ---------------------------------------------------------

Result<std::vector<SchedulableGame>> SqlRepository::ListSchedulableGames(Timestamp now_time) {
  if (session_ == nullptr) return NotOpen();
  return Guarded("listing the games to schedule in " + store_name_,
                 [&]() -> Result<std::vector<SchedulableGame>> {
                   std::vector<std::string> ids;
                   std::vector<Poco::Int64> failures;
                   Poco::Int64 at = ToMillis(now_time);
                   *session_ << Sql(
                       "SELECT id, turn_failures FROM games WHERE turn_failed_at_ms IS NULL "
                       "AND (turn_retry_at_ms IS NULL OR turn_retry_at_ms <= ?) ORDER BY id"),
                       use(at), into(ids), into(failures), now;
                   std::vector<SchedulableGame> games;
                   for (std::size_t i = 0; i < ids.size(); ++i) {
                     games.push_back(SchedulableGame{ids[i], failures[i]});
                   }
                   return games;
                 });
}

Result<std::int64_t> SqlRepository::RecordTurnFailure(const TurnFailure& failure) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "recording a failed turn of game " + failure.game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Result<std::int64_t> {
    Transaction transaction(*session_, dialect_);
    std::string id = failure.game_id;
    std::vector<Poco::Int64> failures, stuck;
    *session_ << Sql(
        "SELECT turn_failures, CASE WHEN turn_failed_at_ms IS NULL THEN 0 ELSE 1 END "
        "FROM games WHERE id = ?" +
        dialect_.lock_row_suffix),
        use(id), into(failures), into(stuck), now;
    if (failures.empty()) return Status::NotFound(what + ": no such game");
    if (stuck[0] != 0) return Status::FailedPrecondition(what + ": the game is stuck already");
    if (failures[0] != failure.failures_before) {
      return Status::FailedPrecondition(what + ": " + std::to_string(failures[0]) +
                                        " failures are counted, not " +
                                        std::to_string(failure.failures_before));
    }
    Poco::Int64 count = failures[0] + 1, retry = ToMillis(failure.retry_at);
    std::string error = failure.error;
    *session_ << Sql(
        "UPDATE games SET turn_failures = ?, turn_retry_at_ms = ?, turn_error = ? WHERE id = ?"),
        use(count), use(retry), use(error), use(id), now;
    if (failure.stuck) {
      Poco::Int64 at = ToMillis(failure.at);
      *session_ << Sql("UPDATE games SET turn_failed_at_ms = ? WHERE id = ?"), use(at), use(id),
          now;
      for (const NewMail& mail : failure.mails) InsertMail(mail);
    }
    transaction.Commit();
    return std::int64_t{count};
  });
}

Status SqlRepository::ClearTurnFailures(const std::string& game_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "clearing the failed turns of game " + game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    if (!GameExists(game_id, /*lock=*/false)) return Status::NotFound(what + ": no such game");
    std::string id = game_id;
    *session_ << Sql(
        "UPDATE games SET turn_failures = 0, turn_retry_at_ms = NULL, turn_error = '' "
        "WHERE id = ? AND turn_failed_at_ms IS NULL"),
        use(id), now;
    return Status::Ok();
  });
}

Result<std::vector<StuckGame>> SqlRepository::ListStuckGames() {
  if (session_ == nullptr) return NotOpen();
  return Guarded(
      "listing the stuck games in " + store_name_, [&]() -> Result<std::vector<StuckGame>> {
        std::vector<std::string> ids, errors;
        std::vector<Poco::Int64> turns, failures, failed_at;
        *session_ << Sql(
            "SELECT id, turns_committed, turn_failures, turn_failed_at_ms, "
            "turn_error FROM games WHERE turn_failed_at_ms IS NOT NULL ORDER BY id"),
            into(ids), into(turns), into(failures), into(failed_at), into(errors), now;
        std::vector<StuckGame> games;
        for (std::size_t i = 0; i < ids.size(); ++i) {
          games.push_back(
              StuckGame{ids[i], turns[i], failures[i], FromMillis(failed_at[i]), errors[i]});
        }
        return games;
      });
}

Status SqlRepository::RetryStuckGame(const std::string& game_id, Timestamp now_time) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "retrying stuck game " + game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    std::string id = game_id;
    std::vector<Poco::Int64> failed_at, turns_committed;
    *session_ << Sql(
        "SELECT COALESCE(turn_failed_at_ms, -1), turns_committed FROM games WHERE id = ?" +
        dialect_.lock_row_suffix),
        use(id), into(failed_at), into(turns_committed), now;
    if (failed_at.empty()) return Status::NotFound(what + ": no such game");
    if (failed_at[0] < 0) return Status::FailedPrecondition(what + ": the game is not stuck");
    // The time it stood stuck is added to the open turn's deadline, as a pause would.
    Poco::Int64 stood = std::max<Poco::Int64>(0, ToMillis(now_time) - failed_at[0]);
    Poco::Int64 based_on = turns_committed[0];
    *session_ << Sql(
        "UPDATE open_turns SET paused_ms = paused_ms + ? WHERE game_id = ? AND based_on = ?"),
        use(stood), use(id), use(based_on), now;
    *session_ << Sql(
        "UPDATE games SET turn_failures = 0, turn_retry_at_ms = NULL, turn_failed_at_ms = NULL, "
        "turn_error = '' WHERE id = ?"),
        use(id), now;
    transaction.Commit();
    return Status::Ok();
  });
}

// --- outbox -----------------------------------------------------------------------------------

std::int64_t SqlRepository::InsertMail(const NewMail& mail) {
  std::string recipient = mail.recipient, subject = mail.subject, body = mail.body;
  Poco::Int64 next_try = ToMillis(mail.next_try);
  std::vector<Poco::Int64> id;
  *session_ << Sql(
      "INSERT INTO outbox (recipient, subject, body, attempts, next_try_ms, "
      "last_error) VALUES (?, ?, ?, 0, ?, '') RETURNING id"),
      use(recipient), use(subject), use(body), use(next_try), into(id), now;
  if (id.empty()) throw Poco::Data::DataException("INSERT INTO outbox returned no id");
  Poco::Int64 mail_id = id[0];
  for (std::size_t i = 0; i < mail.attachments.size(); ++i) {
    int ordinal = static_cast<int>(i);
    std::string filename = mail.attachments[i].filename;
    std::string content_type = mail.attachments[i].content_type;
    BLOB data = ToBlob(mail.attachments[i].data);
    *session_ << Sql(
        "INSERT INTO outbox_attachments (mail_id, ordinal, filename, content_type, "
        "data) VALUES (?, ?, ?, ?, ?)"),
        use(mail_id), use(ordinal), use(filename), use(content_type), use(data), now;
  }
  return mail_id;
}

Result<std::int64_t> SqlRepository::EnqueueMail(const NewMail& mail) {
  if (session_ == nullptr) return NotOpen();
  return Guarded("enqueueing a mail to " + mail.recipient + " in " + store_name_,
                 [&]() -> Result<std::int64_t> {
                   Transaction transaction(*session_, dialect_);
                   std::int64_t id = InsertMail(mail);
                   transaction.Commit();
                   return id;
                 });
}

std::vector<Attachment> SqlRepository::ReadAttachments(std::int64_t mail_id) {
  Poco::Int64 id = mail_id;
  std::vector<std::string> filename, content_type;
  std::vector<BLOB> data;
  *session_ << Sql(
      "SELECT filename, content_type, COALESCE(data, {empty_blob}) "
      "FROM outbox_attachments WHERE mail_id = ? ORDER BY ordinal"),
      use(id), into(filename), into(content_type), into(data), now;
  std::vector<Attachment> attachments;
  for (std::size_t i = 0; i < filename.size(); ++i) {
    attachments.push_back(Attachment{filename[i], content_type[i], FromBlob(data[i])});
  }
  return attachments;
}

// `where` (the WHERE and ORDER BY clauses) takes params.size() Int64 parameters, 1 or 2.
std::vector<OutboxMail> SqlRepository::ReadMails(const std::string& where,
                                                 const std::vector<std::int64_t>& params) {
  std::vector<Poco::Int64> bound(params.begin(), params.end());
  std::vector<Poco::Int64> id, attempts, next_try, sent_at, claimed_until, failed_at;
  std::vector<int> sent;
  std::vector<std::string> recipient, subject, body, last_error, claimed_by;
  Poco::Data::Statement select(*session_);
  select << Sql(
      "SELECT id, recipient, subject, body, attempts, next_try_ms, "
      "CASE WHEN sent_at_ms IS NULL THEN 0 ELSE 1 END, COALESCE(sent_at_ms, 0), "
      "last_error, COALESCE(claimed_by, ''), COALESCE(claimed_until_ms, -1), "
      "COALESCE(failed_at_ms, -1) FROM outbox " +
      where);
  for (Poco::Int64& param : bound) select, use(param);
  select, into(id), into(recipient), into(subject), into(body), into(attempts), into(next_try),
      into(sent), into(sent_at), into(last_error), into(claimed_by), into(claimed_until),
      into(failed_at);
  select.execute();
  std::vector<OutboxMail> mails;
  for (std::size_t i = 0; i < id.size(); ++i) {
    OutboxMail mail;
    mail.id = id[i];
    mail.recipient = recipient[i];
    mail.subject = subject[i];
    mail.body = body[i];
    mail.attachments = ReadAttachments(id[i]);
    mail.attempts = attempts[i];
    mail.next_try = FromMillis(next_try[i]);
    if (sent[i] != 0) mail.sent_at = FromMillis(sent_at[i]);
    mail.last_error = last_error[i];
    mail.claimed_by = claimed_by[i];
    if (claimed_until[i] >= 0) mail.claimed_until = FromMillis(claimed_until[i]);
    if (failed_at[i] >= 0) mail.failed_at = FromMillis(failed_at[i]);
    mails.push_back(std::move(mail));
  }
  return mails;
}

Result<std::vector<OutboxMail>> SqlRepository::DueMail(Timestamp now_time, int limit) {
  if (session_ == nullptr) return NotOpen();
  if (limit <= 0) return std::vector<OutboxMail>();
  return Guarded("reading due mail from " + store_name_, [&]() -> Result<std::vector<OutboxMail>> {
    return ReadMails(
        "WHERE sent_at_ms IS NULL AND failed_at_ms IS NULL AND next_try_ms <= ? "
        "ORDER BY next_try_ms, id LIMIT ?",
        {ToMillis(now_time), limit});
  });
}

Result<std::vector<OutboxMail>> SqlRepository::ClaimDueMail(Timestamp now_time, int limit,
                                                            const std::string& claimant,
                                                            std::chrono::milliseconds lease) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "claiming due mail for " + claimant + " in " + store_name_;
  if (claimant.empty()) return Status::InvalidArgument(what + ": the claimant is empty");
  if (lease.count() <= 0) return Status::InvalidArgument(what + ": the lease is not positive");
  if (limit <= 0) return std::vector<OutboxMail>();
  return Guarded(what, [&]() -> Result<std::vector<OutboxMail>> {
    std::vector<Poco::Int64> ids;
    {
      Transaction transaction(*session_, dialect_);
      Poco::Int64 at = ToMillis(now_time), until = ToMillis(now_time + lease), count = limit;
      std::string name = claimant;
      *session_ << Sql(
          "SELECT id FROM outbox WHERE sent_at_ms IS NULL AND failed_at_ms IS NULL "
          "AND next_try_ms <= ? AND (claimed_until_ms IS NULL OR claimed_until_ms <= ?) "
          "ORDER BY next_try_ms, id LIMIT ?" +
          dialect_.skip_locked_suffix),
          use(at), use(at), use(count), into(ids), now;
      for (Poco::Int64& id : ids) {
        *session_ << Sql("UPDATE outbox SET claimed_by = ?, claimed_until_ms = ? WHERE id = ?"),
            use(name), use(until), use(id), now;
      }
      transaction.Commit();
    }
    std::vector<OutboxMail> mails;
    for (Poco::Int64 id : ids) {
      std::vector<OutboxMail> one = ReadMails("WHERE id = ?", {id});
      if (!one.empty()) mails.push_back(std::move(one[0]));
    }
    return mails;
  });
}

Result<OutboxMail> SqlRepository::GetMail(std::int64_t mail_id) {
  if (session_ == nullptr) return NotOpen();
  return Guarded("reading mail " + std::to_string(mail_id) + " from " + store_name_,
                 [&]() -> Result<OutboxMail> {
                   std::vector<OutboxMail> mails = ReadMails("WHERE id = ?", {mail_id});
                   if (mails.empty()) {
                     return Status::NotFound("mail " + std::to_string(mail_id) +
                                             " is not in the outbox of " + store_name_);
                   }
                   return std::move(mails[0]);
                 });
}

Status SqlRepository::MarkMailSent(std::int64_t mail_id, Timestamp sent_at) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "marking mail " + std::to_string(mail_id) + " sent in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    Poco::Int64 id = mail_id, sent = ToMillis(sent_at);
    int count = 0;
    *session_ << Sql("SELECT count(*) FROM outbox WHERE id = ?"), use(id), into(count), now;
    if (count == 0) return Status::NotFound(what + ": no such mail");
    *session_ << Sql(
        "UPDATE outbox SET sent_at_ms = ?, claimed_until_ms = NULL "
        "WHERE id = ? AND sent_at_ms IS NULL"),
        use(sent), use(id), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Status SqlRepository::RequireUnsent(std::int64_t mail_id, const std::string& what) {
  Poco::Int64 id = mail_id;
  std::vector<int> sent;
  *session_ << Sql(
      "SELECT CASE WHEN sent_at_ms IS NULL THEN 0 ELSE 1 END FROM outbox "
      "WHERE id = ?"),
      use(id), into(sent), now;
  if (sent.empty()) return Status::NotFound(what + ": no such mail");
  if (sent[0] != 0) return Status::FailedPrecondition(what + ": it was sent already");
  return Status::Ok();
}

Status SqlRepository::MarkMailFailed(std::int64_t mail_id, Timestamp next_try,
                                     const std::string& error) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "recording a failed attempt of mail " + std::to_string(mail_id) + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    Poco::Int64 id = mail_id, next = ToMillis(next_try);
    std::string message = error;
    if (Status unsent = RequireUnsent(id, what); !unsent.ok()) return unsent;
    *session_ << Sql(
        "UPDATE outbox SET attempts = attempts + 1, next_try_ms = ?, "
        "last_error = ?, claimed_until_ms = NULL WHERE id = ?"),
        use(next), use(message), use(id), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Status SqlRepository::MarkMailDead(std::int64_t mail_id, Timestamp failed_at,
                                   const std::string& error) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "dead-lettering mail " + std::to_string(mail_id) + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    Poco::Int64 id = mail_id, at = ToMillis(failed_at);
    std::string message = error;
    if (Status unsent = RequireUnsent(id, what); !unsent.ok()) return unsent;
    *session_ << Sql(
        "UPDATE outbox SET attempts = attempts + 1, failed_at_ms = COALESCE(failed_at_ms, ?), "
        "last_error = ?, claimed_until_ms = NULL WHERE id = ?"),
        use(at), use(message), use(id), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Result<std::vector<OutboxMail>> SqlRepository::DeadMail(int limit) {
  if (session_ == nullptr) return NotOpen();
  if (limit <= 0) return std::vector<OutboxMail>();
  return Guarded("reading the dead letters of " + store_name_,
                 [&]() -> Result<std::vector<OutboxMail>> {
                   return ReadMails("WHERE failed_at_ms IS NOT NULL ORDER BY id LIMIT ?", {limit});
                 });
}

Status SqlRepository::RequeueMail(std::int64_t mail_id, Timestamp next_try) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "requeueing mail " + std::to_string(mail_id) + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    Poco::Int64 id = mail_id, next = ToMillis(next_try);
    std::vector<int> dead;
    *session_ << Sql(
        "SELECT CASE WHEN failed_at_ms IS NULL THEN 0 ELSE 1 END FROM outbox WHERE id = ?"),
        use(id), into(dead), now;
    if (dead.empty()) return Status::NotFound(what + ": no such mail");
    if (dead[0] == 0) {
      return Status::FailedPrecondition(what + ": it is not a dead letter (sent, or queued)");
    }
    *session_ << Sql(
        "UPDATE outbox SET failed_at_ms = NULL, attempts = 0, next_try_ms = ?, "
        "claimed_until_ms = NULL WHERE id = ?"),
        use(next), use(id), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Result<int> SqlRepository::PruneSentMail(Timestamp sent_before, int limit) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "pruning sent mail from " + store_name_;
  if (limit <= 0) return Status::InvalidArgument(what + ": the limit is not positive");
  return Guarded(what, [&]() -> Result<int> {
    Transaction transaction(*session_, dialect_);
    // The newest mail stays, whatever its age: SQLite numbers a new row after the largest id,
    // and a mail's id is its Message-ID (<pbemd-outbox-ID@domain>), never to be used twice.
    Poco::Int64 newest = 0;
    *session_ << Sql("SELECT COALESCE(MAX(id), 0) FROM outbox"), into(newest), now;
    Poco::Int64 before = ToMillis(sent_before), count = limit;
    std::vector<Poco::Int64> ids, sent_at;
    // Earliest sent first, on the index outbox_sent; dead letters and unsent mails never.
    // Another instance pruning at once takes other rows (PostgreSQL: SKIP LOCKED).
    *session_ << Sql(
        "SELECT id, sent_at_ms FROM outbox WHERE sent_at_ms IS NOT NULL AND failed_at_ms IS NULL "
        "AND sent_at_ms < ? AND id < ? ORDER BY sent_at_ms, id LIMIT ?" +
        dialect_.skip_locked_suffix),
        use(before), use(newest), use(count), into(ids), into(sent_at), now;
    if (ids.empty()) return 0;
    // The batch: the sent mails up to its last (sent_at_ms, id), one statement per table.
    Poco::Int64 last_sent = sent_at.back(), last_id = ids.back();
    const std::string batch =
        "sent_at_ms IS NOT NULL AND failed_at_ms IS NULL AND sent_at_ms <= ? "
        "AND (sent_at_ms < ? OR id <= ?) AND id < ?";
    *session_ << Sql(
        "DELETE FROM outbox_attachments WHERE mail_id IN (SELECT id FROM outbox WHERE " + batch +
        ")"),
        use(last_sent), use(last_sent), use(last_id), use(newest), now;
    std::vector<Poco::Int64> deleted;
    *session_ << Sql("DELETE FROM outbox WHERE " + batch + " RETURNING id"), use(last_sent),
        use(last_sent), use(last_id), use(newest), into(deleted), now;
    transaction.Commit();
    return static_cast<int>(deleted.size());
  });
}

// --- cooperative locks ------------------------------------------------------------------------

std::int64_t SqlRepository::LockKey(const std::string& name) {
  Poco::SHA2Engine engine(Poco::SHA2Engine::SHA_256);
  engine.update(name.data(), static_cast<unsigned>(name.size()));
  const Poco::DigestEngine::Digest& digest = engine.digest();
  std::uint64_t key = 0;
  for (int i = 0; i < 8; ++i) key = (key << 8) | digest[static_cast<std::size_t>(i)];
  return static_cast<std::int64_t>(key >> 1);
}

Result<bool> SqlRepository::TryLock(const std::string& name) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "taking the lock \"" + name + "\" in " + store_name_;
  if (name.empty()) return Status::InvalidArgument(what + ": the lock name is empty");
  if (locks_held_.count(name) > 0) return true;
  // Lost with a broken connection: the caller takes it again, on the new connection.
  locks_lost_.erase(name);
  return Guarded(
      what,
      [&]() -> Result<bool> {
        Result<bool> taken = AcquireLock(LockKey(name));
        if (!taken.ok()) return Status::IoError(what + ": " + taken.status().message());
        if (*taken) locks_held_.insert(name);
        return *taken;
      },
      LostLocks::kAllow);
}

Status SqlRepository::Unlock(const std::string& name) {
  if (session_ == nullptr) return NotOpen();
  // Lost with a broken connection: the server freed it already.
  if (locks_lost_.erase(name) > 0) return Status::Ok();
  if (locks_held_.erase(name) == 0) return Status::Ok();
  const std::string what = "releasing the lock \"" + name + "\" in " + store_name_;
  return Guarded(
      what,
      [&]() -> Status {
        Status released = ReleaseLock(LockKey(name));
        if (!released.ok()) return Status::IoError(what + ": " + released.message());
        return Status::Ok();
      },
      LostLocks::kAllow);
}

// --- leagues ----------------------------------------------------------------------------------

bool SqlRepository::LeagueExists(const std::string& league_id) {
  std::string id = league_id;
  int count = 0;
  *session_ << Sql("SELECT count(*) FROM leagues WHERE id = ?"), use(id), into(count), now;
  return count > 0;
}

bool SqlRepository::LeaguePlayerExists(const std::string& league_id, const std::string& player) {
  std::string id = league_id, name = player;
  int count = 0;
  *session_ << Sql("SELECT count(*) FROM league_players WHERE league_id = ? AND player = ?"),
      use(id), use(name), into(count), now;
  return count > 0;
}

void SqlRepository::InsertLeaguePlayer(const NewLeaguePlayer& player) {
  std::string id = player.league_id, name = player.player, mail = player.mail_address,
              hash = Sha256Hex(player.token), language = player.language;
  Poco::Int64 joined = ToMillis(player.joined_at);
  *session_ << Sql(
      "INSERT INTO league_players (league_id, player, mail_address, token_sha256, joined_at_ms, "
      "language) VALUES (?, ?, ?, ?, ?, ?)"),
      use(id), use(name), use(mail), use(hash), use(joined), use(language), now;
}

Status SqlRepository::CreateLeague(const NewLeague& league) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "creating league " + league.id + " in " + store_name_;
  if (league.id.empty()) return Status::InvalidArgument(what + ": the league id is empty");
  if (league.organiser_token.empty()) {
    return Status::InvalidArgument(what + ": the organiser token is empty");
  }
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (LeagueExists(league.id)) return Status::AlreadyExists(what + ": the id is taken");
    std::string id = league.id, name = league.name, hash = Sha256Hex(league.organiser_token),
                settings = league.settings;
    Poco::Int64 created = ToMillis(league.created_at);
    *session_ << Sql(
        "INSERT INTO leagues (id, name, organiser_token_sha256, settings, created_at_ms) "
        "VALUES (?, ?, ?, ?, ?)"),
        use(id), use(name), use(hash), use(settings), use(created), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Result<League> SqlRepository::GetLeague(const std::string& league_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "reading league " + league_id + " from " + store_name_;
  return Guarded(what, [&]() -> Result<League> {
    std::string id = league_id;
    std::vector<std::string> name, hash, settings;
    std::vector<Poco::Int64> created;
    *session_ << Sql(
        "SELECT name, organiser_token_sha256, settings, created_at_ms FROM leagues WHERE id = ?"),
        use(id), into(name), into(hash), into(settings), into(created), now;
    if (name.empty()) return Status::NotFound("league " + league_id + " is not in " + store_name_);
    return League{league_id, name[0], hash[0], settings[0], FromMillis(created[0])};
  });
}

Result<std::vector<std::string>> SqlRepository::ListLeagueIds() {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "listing the leagues in " + store_name_;
  return Guarded(what, [&]() -> Result<std::vector<std::string>> {
    std::vector<std::string> ids;
    *session_ << Sql("SELECT id FROM leagues"), into(ids), now;
    std::sort(ids.begin(), ids.end());  // byte order, whatever the database's collation
    return ids;
  });
}

Result<bool> SqlRepository::VerifyOrganiserToken(const std::string& league_id,
                                                 const std::string& token) {
  Result<League> league = GetLeague(league_id);
  if (!league.ok()) return league.status();
  return SameDigest(league.value().organiser_token_sha256, Sha256Hex(token));
}

Status SqlRepository::AddLeaguePlayer(const NewLeaguePlayer& player) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "adding player " + player.player + " to league " + player.league_id + " in " + store_name_;
  if (player.player.empty()) return Status::InvalidArgument(what + ": the player name is empty");
  if (player.token.empty()) return Status::InvalidArgument(what + ": the token is empty");
  Status added = Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (!LeagueExists(player.league_id)) return Status::NotFound(what + ": no such league");
    if (LeaguePlayerExists(player.league_id, player.player)) {
      return Status::AlreadyExists(what + ": the player is in the league already");
    }
    if (LeagueAddressTaken(player.league_id, player.mail_address, "")) {
      return Status::AlreadyExists(what + ": the address " + player.mail_address +
                                   " is in the league already");
    }
    InsertLeaguePlayer(player);
    transaction.Commit();
    return Status::Ok();
  });
  return AddressRaceLost(added, player, "", what);
}

Status SqlRepository::AddressRaceLost(const Status& status, const NewLeaguePlayer& player,
                                      const std::string& except_player, const std::string& what) {
  if (status.ok() || status.code() != StatusCode::kIoError) return status;
  // A join that raced another with the same address: the unique index refused the insert.
  try {
    if (LeagueAddressTaken(player.league_id, player.mail_address, except_player)) {
      return Status::AlreadyExists(what + ": the address " + player.mail_address +
                                   " is in the league already");
    }
  } catch (const std::exception&) {  // the store is down: the first error says it
  }
  return status;
}

bool SqlRepository::LeagueAddressTaken(const std::string& league_id, const std::string& address,
                                       const std::string& except_player) {
  std::string id = league_id, mail = address, except = except_player;
  int count = 0;
  *session_ << Sql(
      "SELECT count(*) FROM league_players WHERE league_id = ? AND "
      "lower(mail_address) = lower(?) AND player <> ?"),
      use(id), use(mail), use(except), into(count), now;
  return count > 0;
}

Status SqlRepository::RemoveLeaguePlayer(const std::string& league_id, const std::string& player) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "removing player " + player + " from league " + league_id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (!LeaguePlayerExists(league_id, player)) {
      return Status::NotFound(what + ": the league has no such player");
    }
    std::string id = league_id, name = player;
    *session_ << Sql("DELETE FROM league_players WHERE league_id = ? AND player = ?"), use(id),
        use(name), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Result<std::vector<LeaguePlayer>> SqlRepository::ListLeaguePlayers(const std::string& league_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "listing the players of league " + league_id + " in " + store_name_;
  return Guarded(what, [&]() -> Result<std::vector<LeaguePlayer>> {
    if (!LeagueExists(league_id)) return Status::NotFound(what + ": no such league");
    std::string id = league_id;
    std::vector<std::string> name, mail, hash, language;
    std::vector<Poco::Int64> joined;
    *session_ << Sql(
        "SELECT player, mail_address, token_sha256, joined_at_ms, language FROM league_players "
        "WHERE league_id = ? ORDER BY player"),
        use(id), into(name), into(mail), into(hash), into(joined), into(language), now;
    std::vector<LeaguePlayer> players;
    for (std::size_t i = 0; i < name.size(); ++i) {
      players.push_back(
          LeaguePlayer{league_id, name[i], mail[i], hash[i], FromMillis(joined[i]), language[i]});
    }
    return players;
  });
}

Status SqlRepository::ReplaceLeaguePlayer(const std::string& old_player,
                                          const NewLeaguePlayer& replacement) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "replacing player " + old_player + " by " + replacement.player +
                           " in league " + replacement.league_id + " in " + store_name_;
  if (replacement.token.empty()) return Status::InvalidArgument(what + ": the token is empty");
  Status replaced = Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (!LeaguePlayerExists(replacement.league_id, old_player)) {
      return Status::NotFound(what + ": the league has no player " + old_player);
    }
    if (LeaguePlayerExists(replacement.league_id, replacement.player)) {
      return Status::AlreadyExists(what + ": " + replacement.player + " is in the league already");
    }
    if (LeagueAddressTaken(replacement.league_id, replacement.mail_address, old_player)) {
      return Status::AlreadyExists(what + ": the address " + replacement.mail_address +
                                   " is in the league already");
    }
    std::string id = replacement.league_id, old_name = old_player, new_name = replacement.player;
    *session_ << Sql("DELETE FROM league_players WHERE league_id = ? AND player = ?"), use(id),
        use(old_name), now;
    InsertLeaguePlayer(replacement);
    std::string mail = replacement.mail_address, hash = Sha256Hex(replacement.token),
                language = replacement.language;
    for (std::string column : {"blue", "orange"}) {
      // The old player's side in the pending games: the new player's address, token,
      // language and name (the game's mails to that side are in the newcomer's language).
      *session_ << Sql(
          "UPDATE players SET mail_address = ?, token_sha256 = ?, language = ?, name = ? "
          "WHERE side = ? AND game_id IN (SELECT game_id FROM league_games WHERE league_id = ? "
          "AND " +
          column + " = ? AND result = 'pending')"),
          use(mail), use(hash), use(language), use(new_name), use(column), use(id), use(old_name),
          now;
      *session_ << Sql("UPDATE league_games SET " + column + " = ? WHERE league_id = ? AND " +
                       column + " = ? AND result = 'pending'"),
          use(new_name), use(id), use(old_name), now;
    }
    // The newcomer takes the vanished player's seat in the seasons still played.
    std::string season_league = id;
    *session_ << Sql(
        "UPDATE league_seats SET player = ? WHERE league_id = ? AND player = ? AND season IN "
        "(SELECT season FROM league_seasons WHERE league_id = ? AND finished_at_ms IS NULL)"),
        use(new_name), use(id), use(old_name), use(season_league), now;
    transaction.Commit();
    return Status::Ok();
  });
  return AddressRaceLost(replaced, replacement, old_player, what);
}

Status SqlRepository::InsertLeagueGames(const std::vector<LeagueGameRecord>& games,
                                        const std::string& what) {
  for (const LeagueGameRecord& g : games) {
    if (!LeagueExists(g.league_id)) return Status::NotFound(what + ": no league " + g.league_id);
    std::string game_id = g.game_id;
    int count = 0;
    *session_ << Sql("SELECT count(*) FROM league_games WHERE game_id = ?"), use(game_id),
        into(count), now;
    if (count > 0) {
      return Status::AlreadyExists(what + ": game " + g.game_id + " is in a league already");
    }
    std::string league = g.league_id, blue = g.blue, orange = g.orange, result = g.result,
                winner = g.winner, level = g.level;
    Poco::Int64 season = g.season, round = g.round;
    *session_ << Sql(
        "INSERT INTO league_games (game_id, league_id, season, round, blue, orange, result, "
        "winner, level) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        use(game_id), use(league), use(season), use(round), use(blue), use(orange), use(result),
        use(winner), use(level), now;
  }
  return Status::Ok();
}

Status SqlRepository::AddLeagueGames(const std::vector<LeagueGameRecord>& games) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "adding " + std::to_string(games.size()) + " league games to " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (Status inserted = InsertLeagueGames(games, what); !inserted.ok()) return inserted;
    transaction.Commit();
    return Status::Ok();
  });
}

Status SqlRepository::AddLeagueRound(const std::vector<NewGameWithPlayers>& games,
                                     const std::vector<LeagueGameRecord>& records,
                                     const std::vector<NewMail>& mails) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "adding a league round of " + std::to_string(games.size()) + " games to " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    for (const NewGameWithPlayers& g : games) {
      if (Status inserted = InsertGameWithPlayers(g.game, g.players, what); !inserted.ok()) {
        return inserted;
      }
    }
    if (Status inserted = InsertLeagueGames(records, what); !inserted.ok()) return inserted;
    for (const NewMail& mail : mails) InsertMail(mail);
    transaction.Commit();
    return Status::Ok();
  });
}

bool SqlRepository::UpdateLeagueResult(const LeagueGameRecord& result) {
  std::string game_id = result.game_id, outcome = result.result, winner = result.winner,
              level = result.level;
  int count = 0;
  *session_ << Sql("SELECT count(*) FROM league_games WHERE game_id = ?"), use(game_id),
      into(count), now;
  if (count == 0) return false;
  *session_ << Sql("UPDATE league_games SET result = ?, winner = ?, level = ? WHERE game_id = ?"),
      use(outcome), use(winner), use(level), use(game_id), now;
  return true;
}

Status SqlRepository::SetLeagueSettings(const std::string& league_id, const std::string& settings) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "changing the settings of league " + league_id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    std::string id = league_id, text = settings;
    std::vector<std::string> found;
    *session_ << Sql("SELECT id FROM leagues WHERE id = ?" + dialect_.lock_row_suffix), use(id),
        into(found), now;
    if (found.empty()) return Status::NotFound(what + ": no such league");
    *session_ << Sql("UPDATE leagues SET settings = ? WHERE id = ?"), use(text), use(id), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Status SqlRepository::RecordLeagueResult(const LeagueGameRecord& result) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "recording the result of league game " + result.game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (!UpdateLeagueResult(result)) return Status::NotFound(what + ": no league has that game");
    transaction.Commit();
    return Status::Ok();
  });
}

std::vector<LeagueGameRecord> SqlRepository::ReadLeagueGames(const std::string& column,
                                                             const std::string& key) {
  std::string value = key;
  std::vector<std::string> game_id, league, blue, orange, result, winner, level;
  std::vector<Poco::Int64> season, round;
  *session_ << Sql(
      "SELECT game_id, league_id, season, round, blue, orange, result, winner, level "
      "FROM league_games WHERE " +
      column + " = ? ORDER BY season, round, game_id"),
      use(value), into(game_id), into(league), into(season), into(round), into(blue), into(orange),
      into(result), into(winner), into(level), now;
  std::vector<LeagueGameRecord> games;
  for (std::size_t i = 0; i < game_id.size(); ++i) {
    games.push_back(LeagueGameRecord{league[i], season[i], round[i], game_id[i], blue[i], orange[i],
                                     result[i], winner[i], level[i]});
  }
  return games;
}

Result<LeagueGameRecord> SqlRepository::GetLeagueGame(const std::string& game_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "reading league game " + game_id + " from " + store_name_;
  return Guarded(what, [&]() -> Result<LeagueGameRecord> {
    auto games = ReadLeagueGames("game_id", game_id);
    if (games.empty()) return Status::NotFound(what + ": no league has that game");
    return games[0];
  });
}

Result<std::vector<LeagueGameRecord>> SqlRepository::ListLeagueGames(const std::string& league_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "listing the games of league " + league_id + " in " + store_name_;
  return Guarded(what, [&]() -> Result<std::vector<LeagueGameRecord>> {
    return ReadLeagueGames("league_id", league_id);
  });
}

Result<std::vector<LeagueGameRecord>> SqlRepository::ListPendingLeagueGames() {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "listing the pending league games in " + store_name_;
  return Guarded(what, [&]() -> Result<std::vector<LeagueGameRecord>> {
    std::vector<LeagueGameRecord> games = ReadLeagueGames("result", "pending");
    std::sort(games.begin(), games.end(), [](const LeagueGameRecord& a, const LeagueGameRecord& b) {
      return a.game_id < b.game_id;
    });
    return games;
  });
}

Status SqlRepository::AppendRatings(const std::vector<RatingRecord>& ratings,
                                    const std::vector<NewMail>& mails,
                                    const std::optional<LeagueGameRecord>& result) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "storing " + std::to_string(ratings.size()) + " ratings in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    for (const RatingRecord& r : ratings) {
      std::string league = r.league_id, player = r.player;
      Poco::Int64 season = r.season, round = r.round;
      int count = 0;
      *session_ << Sql(
          "SELECT count(*) FROM league_ratings WHERE league_id = ? AND player = ? AND season = ? "
          "AND round = ?"),
          use(league), use(player), use(season), use(round), into(count), now;
      if (count > 0) {
        return Status::AlreadyExists(what + ": " + r.player + " has a rating for season " +
                                     std::to_string(r.season) + " round " +
                                     std::to_string(r.round));
      }
      double rating = r.rating, rd = r.rd, volatility = r.volatility;
      *session_ << Sql(
          "INSERT INTO league_ratings (league_id, player, season, round, rating, rd, volatility) "
          "VALUES (?, ?, ?, ?, ?, ?, ?)"),
          use(league), use(player), use(season), use(round), use(rating), use(rd), use(volatility),
          now;
    }
    if (result) {
      if (!UpdateLeagueResult(*result)) {
        return Status::NotFound(what + ": no league has game " + result->game_id);
      }
    }
    for (const NewMail& mail : mails) InsertMail(mail);
    transaction.Commit();
    return Status::Ok();
  });
}

Result<std::vector<RatingRecord>> SqlRepository::RatingHistory(const std::string& league_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "reading the ratings of league " + league_id + " from " + store_name_;
  return Guarded(what, [&]() -> Result<std::vector<RatingRecord>> {
    std::string id = league_id;
    std::vector<std::string> player;
    std::vector<Poco::Int64> season, round;
    std::vector<double> rating, rd, volatility;
    *session_ << Sql(
        "SELECT player, season, round, rating, rd, volatility FROM league_ratings "
        "WHERE league_id = ? ORDER BY player, season, round"),
        use(id), into(player), into(season), into(round), into(rating), into(rd), into(volatility),
        now;
    std::vector<RatingRecord> out;
    for (std::size_t i = 0; i < player.size(); ++i) {
      out.push_back(
          RatingRecord{league_id, player[i], season[i], round[i], rating[i], rd[i], volatility[i]});
    }
    return out;
  });
}

Status SqlRepository::StartLeagueSeason(const LeagueSeason& season) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "starting season " + std::to_string(season.season) + " of league " +
                           season.league_id + " in " + store_name_;
  if (season.season < 1) return Status::InvalidArgument(what + ": a season is a number from 1");
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (!LeagueExists(season.league_id)) return Status::NotFound(what + ": no such league");
    std::string id = season.league_id;
    Poco::Int64 number = season.season, started = ToMillis(season.started_at);
    int count = 0;
    *session_ << Sql("SELECT count(*) FROM league_seasons WHERE league_id = ? AND season = ?"),
        use(id), use(number), into(count), now;
    if (count > 0) return Status::AlreadyExists(what + ": the season is stored already");
    *session_ << Sql(
        "INSERT INTO league_seasons (league_id, season, started_at_ms) VALUES (?, ?, ?)"),
        use(id), use(number), use(started), now;
    for (std::size_t i = 0; i < season.seats.size(); ++i) {
      std::string player = season.seats[i];
      Poco::Int64 seat = static_cast<Poco::Int64>(i);
      *session_ << Sql(
          "INSERT INTO league_seats (league_id, season, seat, player) VALUES (?, ?, ?, ?)"),
          use(id), use(number), use(seat), use(player), now;
    }
    transaction.Commit();
    return Status::Ok();
  });
}

Result<std::vector<LeagueSeason>> SqlRepository::ListLeagueSeasons(const std::string& league_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "listing the seasons of league " + league_id + " in " + store_name_;
  return Guarded(what, [&]() -> Result<std::vector<LeagueSeason>> {
    if (!LeagueExists(league_id)) return Status::NotFound(what + ": no such league");
    std::string id = league_id;
    std::vector<Poco::Int64> season, started, finished;
    *session_ << Sql(
        "SELECT season, started_at_ms, COALESCE(finished_at_ms, -1) FROM league_seasons "
        "WHERE league_id = ? ORDER BY season"),
        use(id), into(season), into(started), into(finished), now;
    std::vector<LeagueSeason> out;
    for (std::size_t i = 0; i < season.size(); ++i) {
      LeagueSeason s{league_id, season[i], {}, FromMillis(started[i]), std::nullopt};
      if (finished[i] >= 0) s.finished_at = FromMillis(finished[i]);
      std::string seat_league = league_id;
      Poco::Int64 number = season[i];
      std::vector<std::string> players;
      *session_ << Sql(
          "SELECT player FROM league_seats WHERE league_id = ? AND season = ? ORDER BY seat"),
          use(seat_league), use(number), into(players), now;
      s.seats = std::move(players);
      out.push_back(std::move(s));
    }
    return out;
  });
}

Status SqlRepository::FinishLeagueSeason(const std::string& league_id, std::int64_t season,
                                         Timestamp finished_at, const std::vector<NewMail>& mails) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "finishing season " + std::to_string(season) + " of league " +
                           league_id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (!LeagueExists(league_id)) return Status::NotFound(what + ": no such league");
    std::string id = league_id;
    Poco::Int64 number = season, at = ToMillis(finished_at);
    std::vector<Poco::Int64> finished;
    *session_ << Sql(
        "SELECT COALESCE(finished_at_ms, -1) FROM league_seasons WHERE league_id = ? AND "
        "season = ?" +
        dialect_.lock_row_suffix),
        use(id), use(number), into(finished), now;
    if (!finished.empty() && finished[0] >= 0) {
      return Status::AlreadyExists(what + ": the season is finished already");
    }
    if (finished.empty()) {
      *session_ << Sql(
          "INSERT INTO league_seasons (league_id, season, started_at_ms, finished_at_ms) "
          "VALUES (?, ?, ?, ?)"),
          use(id), use(number), use(at), use(at), now;
    } else {
      *session_ << Sql(
          "UPDATE league_seasons SET finished_at_ms = ? WHERE league_id = ? AND season = ?"),
          use(at), use(id), use(number), now;
    }
    for (const NewMail& mail : mails) InsertMail(mail);
    transaction.Commit();
    return Status::Ok();
  });
}

Status SqlRepository::CorrectLeagueResult(const LeagueCorrection& correction,
                                          const std::vector<RatingRecord>& rerated,
                                          const std::vector<NewMail>& mails) {
  if (session_ == nullptr) return NotOpen();
  const LeagueGameRecord& before = correction.before;
  const LeagueGameRecord& after = correction.after;
  const std::string what =
      "correcting the result of league game " + before.game_id + " in " + store_name_;
  if (correction.reason.empty()) return Status::InvalidArgument(what + ": the reason is empty");
  if (after.game_id != before.game_id || after.result == "pending") {
    return Status::InvalidArgument(what + ": the corrected result must be a result of that game");
  }
  const auto from = std::pair(before.season, before.round);
  for (const RatingRecord& r : rerated) {
    if (r.league_id != before.league_id || std::pair(r.season, r.round) < from) {
      return Status::InvalidArgument(what + ": a rerated period before the corrected one");
    }
  }
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    std::string game_id = before.game_id;
    std::vector<std::string> result, winner, level;
    *session_ << Sql("SELECT result, winner, level FROM league_games WHERE game_id = ?" +
                     dialect_.lock_row_suffix),
        use(game_id), into(result), into(winner), into(level), now;
    if (result.empty()) return Status::NotFound(what + ": no league has that game");
    if (result[0] != before.result || winner[0] != before.winner || level[0] != before.level) {
      return Status::FailedPrecondition(what + ": its result changed since it was read (now " +
                                        result[0] + " " + winner[0] + " " + level[0] + ")");
    }
    std::string league = before.league_id;
    Poco::Int64 season = before.season, round = before.round;
    // The periods rated from the corrected one on must be those rated again: a round rated
    // since the caller read the history would otherwise lose its ratings.
    std::vector<Poco::Int64> rated_season, rated_round;
    *session_ << Sql(
        "SELECT DISTINCT season, round FROM league_ratings WHERE league_id = ? AND (season > ? "
        "OR (season = ? AND round >= ?))"),
        use(league), use(season), use(season), use(round), into(rated_season), into(rated_round),
        now;
    std::set<std::pair<std::int64_t, std::int64_t>> stored_periods, given_periods;
    for (std::size_t i = 0; i < rated_season.size(); ++i) {
      stored_periods.emplace(rated_season[i], rated_round[i]);
    }
    for (const RatingRecord& r : rerated) given_periods.emplace(r.season, r.round);
    if (stored_periods != given_periods) {
      return Status::FailedPrecondition(what + ": the rated rounds changed since they were read");
    }
    UpdateLeagueResult(after);
    *session_ << Sql(
        "DELETE FROM league_ratings WHERE league_id = ? AND (season > ? OR (season = ? AND "
        "round >= ?))"),
        use(league), use(season), use(season), use(round), now;
    for (const RatingRecord& r : rerated) {
      std::string player = r.player;
      Poco::Int64 s = r.season, n = r.round;
      double rating = r.rating, rd = r.rd, volatility = r.volatility;
      *session_ << Sql(
          "INSERT INTO league_ratings (league_id, player, season, round, rating, rd, volatility) "
          "VALUES (?, ?, ?, ?, ?, ?, ?)"),
          use(league), use(player), use(s), use(n), use(rating), use(rd), use(volatility), now;
    }
    std::string old_result = before.result, old_winner = before.winner, old_level = before.level,
                new_result = after.result, new_winner = after.winner, new_level = after.level,
                reason = correction.reason;
    Poco::Int64 at = ToMillis(correction.at);
    *session_ << Sql(
        "INSERT INTO league_corrections (league_id, game_id, season, round, old_result, "
        "old_winner, old_level, new_result, new_winner, new_level, reason, corrected_at_ms) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        use(league), use(game_id), use(season), use(round), use(old_result), use(old_winner),
        use(old_level), use(new_result), use(new_winner), use(new_level), use(reason), use(at), now;
    for (const NewMail& mail : mails) InsertMail(mail);
    transaction.Commit();
    return Status::Ok();
  });
}

Result<std::vector<LeagueCorrection>> SqlRepository::ListLeagueCorrections(
    const std::string& league_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "reading the corrections of league " + league_id + " from " + store_name_;
  return Guarded(what, [&]() -> Result<std::vector<LeagueCorrection>> {
    if (!LeagueExists(league_id)) return Status::NotFound(what + ": no such league");
    std::string id = league_id;
    std::vector<Poco::Int64> key, season, round, at;
    std::vector<std::string> game, old_result, old_winner, old_level, new_result, new_winner,
        new_level, reason;
    *session_ << Sql(
        "SELECT id, game_id, season, round, old_result, old_winner, old_level, new_result, "
        "new_winner, new_level, reason, corrected_at_ms FROM league_corrections "
        "WHERE league_id = ? ORDER BY id"),
        use(id), into(key), into(game), into(season), into(round), into(old_result),
        into(old_winner), into(old_level), into(new_result), into(new_winner), into(new_level),
        into(reason), into(at), now;
    std::vector<LeagueCorrection> out;
    for (std::size_t i = 0; i < key.size(); ++i) {
      LeagueCorrection c;
      c.id = key[i];
      c.before.league_id = league_id;
      c.before.season = season[i];
      c.before.round = round[i];
      c.before.game_id = game[i];
      c.after = c.before;
      c.before.result = old_result[i];
      c.before.winner = old_winner[i];
      c.before.level = old_level[i];
      c.after.result = new_result[i];
      c.after.winner = new_winner[i];
      c.after.level = new_level[i];
      c.reason = reason[i];
      c.at = FromMillis(at[i]);
      out.push_back(std::move(c));
    }
    return out;
  });
}

}  // namespace pbem::storage
