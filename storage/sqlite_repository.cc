#include "storage/sqlite_repository.h"

#include <Poco/Data/DataException.h>
#include <Poco/Data/SQLite/Connector.h>
#include <Poco/Data/SQLite/Utility.h>
#include <Poco/Data/Session.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <string>
#include <system_error>
#include <utility>

namespace pbem::storage {
namespace {

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

SqlDialect SqliteDialect() {
  SqlDialect dialect;
  dialect.name = "sqlite";
  dialect.dollar_placeholders = false;
  dialect.blob_type = "BLOB";
  dialect.int64_type = "INTEGER";
  dialect.id_primary_key = "INTEGER PRIMARY KEY";  // the rowid: assigned on insert
  dialect.empty_blob = "X''";
  dialect.begin_write = "BEGIN IMMEDIATE";
  dialect.lock_row_suffix = "";  // BEGIN IMMEDIATE already holds the database write lock
  dialect.skip_locked_suffix = "";
  dialect.has_migrations_table_query =
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'";
  dialect.lock_migrations = "";
  return dialect;
}

void RegisterConnectorOnce() {
  static std::once_flag once;
  std::call_once(once, [] { Poco::Data::SQLite::Connector::registerConnector(); });
}

}  // namespace

SqliteRepository::SqliteRepository(std::filesystem::path data_dir)
    : SqlRepository(SqliteDialect(), "database " + (data_dir / kFileName).string()),
      data_dir_(std::move(data_dir)),
      database_path_(data_dir_ / kFileName) {}

SqliteRepository::~SqliteRepository() {
  DropPrepared();                        // before the base class closes the connection
  if (lock_fd_ >= 0) ::close(lock_fd_);  // frees every lock this instance holds
}

namespace {

// One byte at `key`, for F_OFD_SETLK (l_pid must be 0 for open-file-description locks).
struct flock LockByte(std::int64_t key, short type) {
  struct flock byte {};
  byte.l_type = type;
  byte.l_whence = SEEK_SET;
  byte.l_start = static_cast<off_t>(key >> 8);  // < 2^55: far below off_t's limit
  byte.l_len = 1;
  return byte;
}

}  // namespace

Result<bool> SqliteRepository::AcquireLock(std::int64_t key) {
  const std::filesystem::path path = data_dir_ / "pbem.sqlite.locks";
  if (lock_fd_ < 0) {
    lock_fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock_fd_ < 0)
      return Status::IoError("opening " + path.string() + ": " + std::strerror(errno));
  }
  struct flock byte = LockByte(key, F_WRLCK);
  if (::fcntl(lock_fd_, F_OFD_SETLK, &byte) == 0) return true;
  if (errno == EAGAIN || errno == EACCES) return false;
  return Status::IoError("locking a byte of " + path.string() + ": " + std::strerror(errno));
}

Status SqliteRepository::ReleaseLock(std::int64_t key) {
  if (lock_fd_ < 0) return Status::Ok();
  struct flock byte = LockByte(key, F_UNLCK);
  if (::fcntl(lock_fd_, F_OFD_SETLK, &byte) != 0) {
    return Status::IoError("unlocking a byte of " + (data_dir_ / "pbem.sqlite.locks").string() +
                           ": " + std::strerror(errno));
  }
  return Status::Ok();
}

Status SqliteRepository::PrepareStore() {
  std::error_code error;
  std::filesystem::create_directories(data_dir_, error);
  if (error) {
    return Status::IoError("creating data directory " + data_dir_.string() + ": " +
                           error.message());
  }
  return Status::Ok();
}

std::unique_ptr<Poco::Data::Session> SqliteRepository::Connect() {
  RegisterConnectorOnce();
  return std::make_unique<Poco::Data::Session>("SQLite", database_path_.string());
}

Status SqliteRepository::ConfigureSession(Poco::Data::Session& session) {
  std::string journal_mode;
  session << "PRAGMA journal_mode = WAL", into(journal_mode), now;
  if (journal_mode != "wal") {
    return Status::IoError("database " + database_path_.string() +
                           ": cannot switch to WAL mode (journal_mode is " + journal_mode + ")");
  }
  int busy_timeout_ms = 0;
  session << "PRAGMA busy_timeout = 5000", into(busy_timeout_ms), now;
  session << "PRAGMA foreign_keys = ON", now;
  return Status::Ok();
}

void SqliteRepository::DropPrepared() {
  sqlite3_finalize(version_statement_);  // a no-op on null
  version_statement_ = nullptr;
  version_db_ = nullptr;
}

namespace {

// A column of the current row as text; "" for NULL.
std::string TextColumn(sqlite3_stmt* statement, int column) {
  const unsigned char* text = sqlite3_column_text(statement, column);
  if (text == nullptr) return "";
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<std::size_t>(sqlite3_column_bytes(statement, column)));
}

}  // namespace

bool SqliteRepository::ReadGameVersionRow(const std::string& game_id, GameVersionRow& row) {
  if (version_statement_ == nullptr) {
    sqlite3* db = Poco::Data::SQLite::Utility::dbHandle(session());
    sqlite3_stmt* prepared = nullptr;
    if (sqlite3_prepare_v3(db, kGameVersionQuery.data(), static_cast<int>(kGameVersionQuery.size()),
                           SQLITE_PREPARE_PERSISTENT, &prepared, nullptr) != SQLITE_OK) {
      sqlite3_finalize(prepared);
      throw Poco::Data::DataException(std::string("preparing the game version query: ") +
                                      sqlite3_errmsg(db));
    }
    version_db_ = db;
    version_statement_ = prepared;
  }
  sqlite3_stmt* statement = version_statement_;
  // Reset on every way out: a statement left on its row keeps its read transaction open, and
  // with it a snapshot that would not see the commits made after it (by this process or
  // another sharing the database).
  struct ResetAfter {
    sqlite3_stmt* statement;
    ~ResetAfter() {
      sqlite3_reset(statement);
      sqlite3_clear_bindings(statement);
    }
  } reset_after{statement};
  if (sqlite3_bind_text(statement, 1, game_id.data(), static_cast<int>(game_id.size()),
                        SQLITE_STATIC) != SQLITE_OK) {
    throw Poco::Data::DataException(std::string("binding the game id: ") +
                                    sqlite3_errmsg(version_db_));
  }
  const int step = sqlite3_step(statement);
  if (step == SQLITE_DONE) return false;
  if (step != SQLITE_ROW) {
    throw Poco::Data::DataException(std::string("reading the game version: ") +
                                    sqlite3_errmsg(version_db_));
  }
  row.created_at_ms = sqlite3_column_int64(statement, 0);
  row.turns_committed = sqlite3_column_int64(statement, 1);
  row.result = TextColumn(statement, 2);
  row.end_kind = TextColumn(statement, 3);
  row.end_winner = TextColumn(statement, 4);
  row.end_level = TextColumn(statement, 5);
  row.end_by_organiser = sqlite3_column_int64(statement, 6);
  row.end_turn = sqlite3_column_int64(statement, 7);
  return true;
}

}  // namespace pbem::storage
