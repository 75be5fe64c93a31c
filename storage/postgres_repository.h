// PostgresRepository: GameRepository on a PostgreSQL server (Poco::Data::PostgreSQL, libpq),
// with the same schema and migrations as SqliteRepository (see sql_repository.h), in the
// connection's current schema (normally "public").
//
// The connection string comes from the configuration, as libpq key=value pairs separated by
// single spaces, with no quoted values (Poco splits on spaces), e.g.
//   host=127.0.0.1 port=5432 user=pbem password=secret dbname=pbem connect_timeout=5
// The URI form (postgresql://...) is not accepted by Poco. Error messages name the store by
// host, port and dbname only: the password never appears in a Status.
//
// Write transactions run at READ COMMITTED and lock the game row (SELECT ... FOR UPDATE)
// before deciding anything about it, so concurrent commits of one game queue up.
//
// TryLock is a session advisory lock (pg_try_advisory_lock on the lock's 63-bit key) of this
// instance's connection: several pbemd processes on one database exclude each other with it,
// and the server frees it when the connection closes (the process stopped or died).
//
// Not thread-safe: one instance (one connection) per thread.
#ifndef PBEM_STORAGE_POSTGRES_REPOSITORY_H_
#define PBEM_STORAGE_POSTGRES_REPOSITORY_H_

#include <memory>
#include <string>

#include "storage/sql_repository.h"
#include "storage/status.h"

namespace pbem::storage {

class PostgresRepository final : public SqlRepository {
 public:
  // Does no I/O; OpenOrMigrate() connects.
  explicit PostgresRepository(std::string connection_string);
  ~PostgresRepository() override;

  // "PostgreSQL database <dbname> at <host>:<port>", from the connection string.
  static std::string DescribeConnection(const std::string& connection_string);

 protected:
  std::unique_ptr<Poco::Data::Session> Connect() override;
  Status ConfigureSession(Poco::Data::Session& session) override;
  Result<bool> AcquireLock(std::int64_t key) override;
  Status ReleaseLock(std::int64_t key) override;

 private:
  std::string connection_string_;
};

}  // namespace pbem::storage

#endif  // PBEM_STORAGE_POSTGRES_REPOSITORY_H_
