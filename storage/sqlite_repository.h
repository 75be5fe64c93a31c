// SqliteRepository: GameRepository on one SQLite file, <data_dir>/pbem.sqlite, in WAL mode.
//
// The schema is versioned by the table schema_migrations(version, description, applied_at);
// the version in force is its largest version. Migrations are a fixed, ordered list compiled
// into the program (kLatestSchemaVersion is the last one).
//
// Not thread-safe: one instance per thread (SQLite itself serialises writers across them).
#ifndef PBEM_STORAGE_SQLITE_REPOSITORY_H_
#define PBEM_STORAGE_SQLITE_REPOSITORY_H_

#include <filesystem>
#include <memory>

#include "storage/game_repository.h"
#include "storage/status.h"

namespace Poco::Data {
class Session;
}  // namespace Poco::Data

namespace pbem::storage {

class SqliteRepository final : public GameRepository {
 public:
  // The newest schema version this program knows.
  static constexpr int kLatestSchemaVersion = 1;
  static constexpr const char* kFileName = "pbem.sqlite";

  // Does no I/O; OpenOrMigrate() creates data_dir (and the database) when missing.
  explicit SqliteRepository(std::filesystem::path data_dir);
  ~SqliteRepository() override;
  SqliteRepository(const SqliteRepository&) = delete;
  SqliteRepository& operator=(const SqliteRepository&) = delete;

  Result<int> OpenOrMigrate() override;
  Result<int> SchemaVersion() override;

  // <data_dir>/pbem.sqlite
  const std::filesystem::path& database_path() const { return database_path_; }

 private:
  Result<int> ReadSchemaVersion();

  std::filesystem::path data_dir_;
  std::filesystem::path database_path_;
  std::unique_ptr<Poco::Data::Session> session_;  // null until OpenOrMigrate() succeeds
};

}  // namespace pbem::storage

#endif  // PBEM_STORAGE_SQLITE_REPOSITORY_H_
