// SqlRepository: connections, reconnection and the schema migrations. Its other methods are in
// storage/sql_games.cc, sql_turns.cc, sql_outbox.cc and sql_leagues.cc (sql_internal.h).
#include "storage/sql_repository.h"

#include <Poco/SHA2Engine.h>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "storage/sql_internal.h"

namespace pbem::storage {

using namespace sql_internal;  // NOLINT: the implementation's own helpers (sql_internal.h)

namespace {

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
      {16,
       "the scheduler reads only the games that are due: a wake-up per game, kept by triggers",
       {
           // due_at_ms: when the game next needs the scheduler (NULL: it waits on nothing but a
           // write, and every write makes it due). Every game stored before is due once: the
           // scheduler's visit stores its real wake-up. wake_seq: bumped by every write to the
           // game, so the scheduler stores a wake-up only if nothing changed since it read the
           // game (GameRepository::SetWake, a compare-and-set).
           "ALTER TABLE games ADD COLUMN due_at_ms {int64} DEFAULT 0",
           "ALTER TABLE games ADD COLUMN wake_seq {int64} NOT NULL DEFAULT 0",
           "CREATE INDEX games_due ON games (due_at_ms) WHERE turn_failed_at_ms IS NULL",
           // Any write to a game, its open turns, its submissions or its players makes it due
           // now, whichever code path wrote it: no writer can forget. The scheduler's own
           // SetWake bumps wake_seq itself, which is how the games trigger tells it apart.
           "{sqlite}CREATE TRIGGER games_due AFTER UPDATE ON games FOR EACH ROW "
           "WHEN NEW.wake_seq = OLD.wake_seq BEGIN "
           "UPDATE games SET due_at_ms = 0, wake_seq = wake_seq + 1 WHERE id = NEW.id; END",
           "{sqlite}CREATE TRIGGER submissions_due AFTER INSERT ON submissions BEGIN "
           "UPDATE games SET due_at_ms = 0, wake_seq = wake_seq + 1 WHERE id = NEW.game_id; END",
           "{sqlite}CREATE TRIGGER submissions_changed_due AFTER UPDATE ON submissions BEGIN "
           "UPDATE games SET due_at_ms = 0, wake_seq = wake_seq + 1 WHERE id = NEW.game_id; END",
           "{sqlite}CREATE TRIGGER open_turns_due AFTER INSERT ON open_turns BEGIN "
           "UPDATE games SET due_at_ms = 0, wake_seq = wake_seq + 1 WHERE id = NEW.game_id; END",
           "{sqlite}CREATE TRIGGER open_turns_changed_due AFTER UPDATE ON open_turns BEGIN "
           "UPDATE games SET due_at_ms = 0, wake_seq = wake_seq + 1 WHERE id = NEW.game_id; END",
           "{sqlite}CREATE TRIGGER players_due AFTER INSERT ON players BEGIN "
           "UPDATE games SET due_at_ms = 0, wake_seq = wake_seq + 1 WHERE id = NEW.game_id; END",
           "{sqlite}CREATE TRIGGER players_changed_due AFTER UPDATE ON players BEGIN "
           "UPDATE games SET due_at_ms = 0, wake_seq = wake_seq + 1 WHERE id = NEW.game_id; END",
           // PostgreSQL: the function bodies are plain quoted strings (no dollar quoting, so
           // nothing in them reads as a placeholder).
           "{postgres}CREATE FUNCTION pbem_game_written() RETURNS trigger LANGUAGE plpgsql AS "
           "'BEGIN NEW.due_at_ms := 0; NEW.wake_seq := OLD.wake_seq + 1; RETURN NEW; END'",
           "{postgres}CREATE TRIGGER games_due BEFORE UPDATE ON games FOR EACH ROW "
           "WHEN (NEW.wake_seq = OLD.wake_seq) EXECUTE FUNCTION pbem_game_written()",
           "{postgres}CREATE FUNCTION pbem_game_row_written() RETURNS trigger LANGUAGE plpgsql "
           "AS 'BEGIN UPDATE games SET due_at_ms = 0, wake_seq = wake_seq + 1 "
           "WHERE id = NEW.game_id; RETURN NULL; END'",
           "{postgres}CREATE TRIGGER submissions_due AFTER INSERT OR UPDATE ON submissions "
           "FOR EACH ROW EXECUTE FUNCTION pbem_game_row_written()",
           "{postgres}CREATE TRIGGER open_turns_due AFTER INSERT OR UPDATE ON open_turns "
           "FOR EACH ROW EXECUTE FUNCTION pbem_game_row_written()",
           "{postgres}CREATE TRIGGER players_due AFTER INSERT OR UPDATE ON players "
           "FOR EACH ROW EXECUTE FUNCTION pbem_game_row_written()",
       }},
      {17,
       "games name their game system: the rules that read their states and play their turns",
       {
           // The registry key (engine/system/registry.h). Every game stored before was Morne
           // Plaine's (kFirstGameSystem), the one system there was. Named game_system: SYSTEM
           // is an SQL keyword.
           "ALTER TABLE games ADD COLUMN game_system TEXT NOT NULL DEFAULT 'morne-plaine'",
       }},
  };
  return kMigrations;
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
    // "{sqlite}..." and "{postgres}..." run on that database only (triggers differ).
    std::string_view text = statement;
    if (text.starts_with("{sqlite}") || text.starts_with("{postgres}")) {
      const std::string_view tag = text.substr(0, text.find('}') + 1);
      if (tag != "{" + dialect_.name + "}") continue;
      text.remove_prefix(tag.size());
    }
    session << Sql(text), now;
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

}  // namespace pbem::storage
