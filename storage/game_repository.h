// GameRepository: the one interface through which the service stores games, turns and mail
// records, whatever the database (SQLite for a single host, PostgreSQL later).
//
// This is only the first slice: opening the store and its schema version. The full interface
// (games, turns, orders, mail bookkeeping, all in transactions keyed by (game, turn)) comes
// with a later issue.
#ifndef PBEM_STORAGE_GAME_REPOSITORY_H_
#define PBEM_STORAGE_GAME_REPOSITORY_H_

#include "storage/status.h"

namespace pbem::storage {

class GameRepository {
 public:
  virtual ~GameRepository() = default;

  // Opens the store, creating it if needed, and applies every migration this program knows
  // that the store lacks, each in its own transaction. Returns the schema version in force.
  // Fails (FAILED_PRECONDITION) without touching the store when its schema is newer than
  // this program knows: an older binary must never write to a newer schema.
  virtual Result<int> OpenOrMigrate() = 0;

  // The schema version recorded in the store.
  // REQUIRES: OpenOrMigrate() succeeded (otherwise returns FAILED_PRECONDITION).
  virtual Result<int> SchemaVersion() = 0;
};

}  // namespace pbem::storage

#endif  // PBEM_STORAGE_GAME_REPOSITORY_H_
