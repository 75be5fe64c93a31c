#include "daemon/repository_factory.h"

#include "storage/postgres_repository.h"
#include "storage/sqlite_repository.h"

namespace pbem::daemon {

Result<std::unique_ptr<storage::GameRepository>> OpenRepository(const DaemonConfig& config) {
  std::unique_ptr<storage::GameRepository> repository;
  if (config.db_backend == DbBackend::kPostgresql) {
    repository = std::make_unique<storage::PostgresRepository>(config.db_postgresql);
  } else {
    repository = std::make_unique<storage::SqliteRepository>(config.data_dir);
  }
  Result<int> schema = repository->OpenOrMigrate();
  if (!schema.ok()) return schema.status();
  return repository;
}

std::string DescribeStore(const DaemonConfig& config) {
  if (config.db_backend == DbBackend::kPostgresql) {
    return storage::PostgresRepository::DescribeConnection(config.db_postgresql);
  }
  return "SQLite database " + (config.data_dir / storage::SqliteRepository::kFileName).string();
}

}  // namespace pbem::daemon
