// Opens the configured store: SQLite under data_dir, or PostgreSQL with the connection string.
// One repository per thread (repositories are not thread-safe). A repository whose connection
// breaks connects again by itself (storage/connection.h, pbemd.db.reconnect_*_ms).
#ifndef PBEM_DAEMON_REPOSITORY_FACTORY_H_
#define PBEM_DAEMON_REPOSITORY_FACTORY_H_

#include <memory>
#include <string>

#include "daemon/config.h"
#include "storage/connection.h"
#include "storage/game_repository.h"

namespace pbem::daemon {

// A repository on the configured backend, opened and migrated (OpenOrMigrate). `observer`
// (may be null; must outlive the repository) hears when its connection breaks and comes back.
// UNAVAILABLE when the store cannot be reached.
Result<std::unique_ptr<storage::GameRepository>> OpenRepository(
    const DaemonConfig& config, storage::ConnectionObserver* observer = nullptr);

// "SQLite database <path>" or "PostgreSQL database <db> at <host>:<port>" (no password).
std::string DescribeStore(const DaemonConfig& config);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_REPOSITORY_FACTORY_H_
