#include "storage/sqlite_repository.h"

#include <Poco/Data/SQLite/Connector.h>
#include <Poco/Data/Session.h>
#include <Poco/Exception.h>

#include <mutex>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace pbem::storage {
namespace {

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;
using Poco::Data::Keywords::use;

struct Migration {
  int version;
  std::string description;
  std::vector<std::string> statements;
};

// Append-only: never edit a migration that has shipped; add the next one instead.
const std::vector<Migration>& Migrations() {
  static const std::vector<Migration> kMigrations = {
      {1,
       "games placeholder",
       {"CREATE TABLE games ("
        "  id TEXT PRIMARY KEY,"
        "  scenario TEXT NOT NULL,"
        "  created_at TEXT NOT NULL)"}},
  };
  return kMigrations;
}

void RegisterConnectorOnce() {
  static std::once_flag once;
  std::call_once(once, [] { Poco::Data::SQLite::Connector::registerConnector(); });
}

bool HasMigrationsTable(Poco::Data::Session& session) {
  int count = 0;
  session << "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = "
             "'schema_migrations'",
      into(count), now;
  return count > 0;
}

// REQUIRES: the schema_migrations table exists.
int MaxVersion(Poco::Data::Session& session) {
  int version = 0;
  session << "SELECT COALESCE(MAX(version), 0) FROM schema_migrations", into(version), now;
  return version;
}

Status TooNew(const std::filesystem::path& path, int version) {
  return Status::FailedPrecondition("database " + path.string() + " has schema version " +
                                    std::to_string(version) +
                                    ", but this program knows only up to version " +
                                    std::to_string(SqliteRepository::kLatestSchemaVersion) +
                                    "; run a newer pbem or use another data directory");
}

// Applies `migration` in one IMMEDIATE transaction unless another process got there first.
void Apply(Poco::Data::Session& session, const Migration& migration) {
  session << "BEGIN IMMEDIATE", now;
  try {
    if (MaxVersion(session) < migration.version) {
      for (const std::string& statement : migration.statements) {
        session << statement, now;
      }
      int version = migration.version;
      std::string description = migration.description;
      session << "INSERT INTO schema_migrations (version, description, applied_at) "
                 "VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
          use(version), use(description), now;
    }
    session << "COMMIT", now;
  } catch (...) {
    session << "ROLLBACK", now;
    throw;
  }
}

}  // namespace

SqliteRepository::SqliteRepository(std::filesystem::path data_dir)
    : data_dir_(std::move(data_dir)), database_path_(data_dir_ / kFileName) {}

SqliteRepository::~SqliteRepository() = default;

Result<int> SqliteRepository::OpenOrMigrate() {
  std::error_code error;
  std::filesystem::create_directories(data_dir_, error);
  if (error) {
    return Status::IoError("creating data directory " + data_dir_.string() + ": " +
                           error.message());
  }
  RegisterConnectorOnce();
  session_.reset();
  try {
    auto session = std::make_unique<Poco::Data::Session>("SQLite", database_path_.string());
    // Refuse a newer schema before changing anything in the file (even the journal mode).
    if (HasMigrationsTable(*session)) {
      int version = MaxVersion(*session);
      if (version > kLatestSchemaVersion) return TooNew(database_path_, version);
    }
    std::string journal_mode;
    *session << "PRAGMA journal_mode = WAL", into(journal_mode), now;
    if (journal_mode != "wal") {
      return Status::IoError("database " + database_path_.string() +
                             ": cannot switch to WAL mode (journal_mode is " + journal_mode + ")");
    }
    int busy_timeout_ms = 0;
    *session << "PRAGMA busy_timeout = 5000", into(busy_timeout_ms), now;
    *session << "PRAGMA foreign_keys = ON", now;
    *session << "CREATE TABLE IF NOT EXISTS schema_migrations ("
                "  version INTEGER PRIMARY KEY,"
                "  description TEXT NOT NULL,"
                "  applied_at TEXT NOT NULL)",
        now;
    const int found_version = MaxVersion(*session);
    for (const Migration& migration : Migrations()) {
      if (migration.version > found_version) Apply(*session, migration);
    }
    // Another process may have migrated further in the meantime.
    int version = MaxVersion(*session);
    if (version > kLatestSchemaVersion) return TooNew(database_path_, version);
    session_ = std::move(session);
    return version;
  } catch (const Poco::Exception& e) {
    return Status::IoError("opening database " + database_path_.string() + ": " + e.displayText());
  }
}

Result<int> SqliteRepository::SchemaVersion() {
  if (session_ == nullptr) {
    return Status::FailedPrecondition("database " + database_path_.string() +
                                      " is not open: call OpenOrMigrate() first");
  }
  return ReadSchemaVersion();
}

Result<int> SqliteRepository::ReadSchemaVersion() {
  try {
    return MaxVersion(*session_);
  } catch (const Poco::Exception& e) {
    return Status::IoError("reading the schema version of " + database_path_.string() + ": " +
                           e.displayText());
  }
}

}  // namespace pbem::storage
