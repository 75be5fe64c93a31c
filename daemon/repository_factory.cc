#include "daemon/repository_factory.h"

#include "storage/postgres_repository.h"
#include "storage/sqlite_repository.h"

namespace pbem::daemon {

Result<std::unique_ptr<storage::GameRepository>> OpenRepository(
    const DaemonConfig& config, storage::ConnectionObserver* observer) {
  std::unique_ptr<storage::SqlRepository> repository;
  if (config.db_backend == DbBackend::kPostgresql) {
    repository = std::make_unique<storage::PostgresRepository>(config.db_postgresql);
  } else {
    repository = std::make_unique<storage::SqliteRepository>(config.data_dir);
  }
  repository->SetReconnectPolicy(config.db_reconnect);
  repository->SetConnectionObserver(observer);
  Result<int> schema = repository->OpenOrMigrate();
  if (!schema.ok()) return schema.status();
  return std::unique_ptr<storage::GameRepository>(std::move(repository));
}

std::string DescribeStore(const DaemonConfig& config) {
  if (config.db_backend == DbBackend::kPostgresql) {
    return storage::PostgresRepository::DescribeConnection(config.db_postgresql);
  }
  return "SQLite database " + (config.data_dir / storage::SqliteRepository::kFileName).string();
}

}  // namespace pbem::daemon
