// SqliteRepository: GameRepository on one SQLite file, <data_dir>/pbem.sqlite, in WAL mode
// with foreign keys on. Write transactions are BEGIN IMMEDIATE, so writers queue on the
// database lock (busy timeout 5 s) instead of failing on an upgrade from reader to writer.
//
// The schema is versioned by the table schema_migrations(version, description, applied_at);
// the version in force is its largest version. Migrations are a fixed, ordered list compiled
// into the program (kLatestSchemaVersion is the last one), shared with PostgresRepository.
//
// Not thread-safe: one instance per thread (SQLite itself serialises writers across them).
//
// TryLock takes an open-file-description lock (fcntl F_OFD_SETLK) on one byte, at the lock's
// key, of <data_dir>/pbem.sqlite.locks, opened by each instance on its first TryLock: it
// excludes other instances of this process and other processes alike, and is freed when the
// instance is destroyed or its process dies.
//
// GetGameVersion, run by every state read, keeps its statement prepared on the connection
// (SQLite's own API: Poco::Data prepares again on each run, which cost more than the read).
#ifndef PBEM_STORAGE_SQLITE_REPOSITORY_H_
#define PBEM_STORAGE_SQLITE_REPOSITORY_H_

#include <filesystem>
#include <memory>

#include "storage/sql_repository.h"
#include "storage/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace pbem::storage {

class SqliteRepository final : public SqlRepository {
 public:
  static constexpr const char* kFileName = "pbem.sqlite";

  // Does no I/O; OpenOrMigrate() creates data_dir (and the database) when missing.
  explicit SqliteRepository(std::filesystem::path data_dir);
  ~SqliteRepository() override;

  // <data_dir>/pbem.sqlite
  const std::filesystem::path& database_path() const { return database_path_; }

 protected:
  Status PrepareStore() override;
  std::unique_ptr<Poco::Data::Session> Connect() override;
  Status ConfigureSession(Poco::Data::Session& session) override;
  Result<bool> AcquireLock(std::int64_t key) override;
  Status ReleaseLock(std::int64_t key) override;
  bool ReadGameVersionRow(const std::string& game_id, GameVersionRow& row) override;
  void DropPrepared() override;

 private:
  std::filesystem::path data_dir_;
  std::filesystem::path database_path_;
  int lock_fd_ = -1;  // <data_dir>/pbem.sqlite.locks, opened by the first AcquireLock
  // kGameVersionQuery prepared on the session's connection `version_db_` by its first run;
  // null until then and after DropPrepared.
  sqlite3* version_db_ = nullptr;
  sqlite3_stmt* version_statement_ = nullptr;
};

}  // namespace pbem::storage

#endif  // PBEM_STORAGE_SQLITE_REPOSITORY_H_
