// The GameRepository contract on a real PostgreSQL server. Runs only when PBEM_TEST_PG holds a
// connection string (with_postgres.sh starts a throwaway server and sets it); otherwise the
// case says so and passes. Each run of the contract starts from an empty "public" schema: the
// database named there is wiped.
#include "storage/postgres_repository.h"

#include <Poco/Data/PostgreSQL/Connector.h>
#include <Poco/Data/Session.h>
#include <Poco/Exception.h>
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/storage/repository_contract.h"

namespace pbem::storage {
namespace {

using Poco::Data::Keywords::now;

const char* TestConnectionString() { return getenv("PBEM_TEST_PG"); }

class PostgresHarness final : public RepositoryHarness {
 public:
  explicit PostgresHarness(std::string connection_string)
      : connection_string_(std::move(connection_string)) {
    Poco::Data::PostgreSQL::Connector::registerConnector();
    Poco::Data::Session session("PostgreSQL", connection_string_);
    session << "SET client_min_messages TO warning", now;
    session << "DROP SCHEMA IF EXISTS public CASCADE", now;
    session << "CREATE SCHEMA public", now;
  }
  std::unique_ptr<GameRepository> NewRepository() override {
    return std::make_unique<PostgresRepository>(connection_string_);
  }
  std::string Name() const override { return "postgres"; }
  void ExecuteSql(const std::string& sql) override {
    Poco::Data::PostgreSQL::Connector::registerConnector();
    Poco::Data::Session session("PostgreSQL", connection_string_);
    try {
      session << sql, now;
    } catch (const Poco::Exception& e) {
      FAIL("executing " << sql << ": " << e.displayText());
    }
  }

 private:
  std::string connection_string_;
};

TEST_CASE("PostgresRepository passes the GameRepository contract", "[storage][postgres]") {
  const char* connection = TestConnectionString();
  if (connection == nullptr || *connection == '\0') {
    WARN("PBEM_TEST_PG is not set: skipped (ctest runs this case via with_postgres.sh)");
    return;
  }
  RunGameRepositoryContract([connection] { return std::make_unique<PostgresHarness>(connection); });
}

TEST_CASE("PostgresRepository passes the LeagueRepository contract", "[storage][postgres]") {
  const char* connection = TestConnectionString();
  if (connection == nullptr || *connection == '\0') {
    WARN("PBEM_TEST_PG is not set: skipped (ctest runs this case via with_postgres.sh)");
    return;
  }
  RunLeagueRepositoryContract(
      [connection] { return std::make_unique<PostgresHarness>(connection); });
}

TEST_CASE("a PostgreSQL server that cannot be reached is UNAVAILABLE, without the password",
          "[storage][postgres]") {
  // Port 1 on loopback: nothing listens there, the connection is refused at once.
  PostgresRepository repository(
      "host=127.0.0.1 port=1 user=u password=sekrit dbname=nowhere connect_timeout=2");
  Result<int> opened = repository.OpenOrMigrate();
  REQUIRE_FALSE(opened.ok());
  CHECK(opened.status().code() == StatusCode::kUnavailable);
  CHECK_THAT(opened.status().message(), Catch::Contains("nowhere at 127.0.0.1:1"));
  CHECK_THAT(opened.status().message(), !Catch::Contains("sekrit"));
}

// Counts what a repository tells about its connection.
struct CountingObserver final : ConnectionObserver {
  void ConnectionLost(const std::string&, const std::string&) override { ++lost; }
  void ConnectionRestored(const std::string&) override { ++restored; }
  int lost = 0;
  int restored = 0;
};

// How many server processes serve connections named `application_name`.
int Backends(const std::string& connection, const std::string& application_name) {
  Poco::Data::Session session("PostgreSQL", connection);
  int count = 0;
  std::string name = application_name;
  session << "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1",
      Poco::Data::Keywords::use(name), Poco::Data::Keywords::into(count), now;
  return count;
}

// Ends the connections named `application_name` from the server's side, as a restart does,
// and waits (boundedly) until they are gone.
void CutConnections(RepositoryHarness& harness, const std::string& connection,
                    const std::string& application_name) {
  harness.ExecuteSql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
      "WHERE application_name = '" +
      application_name + "'");
  for (int i = 0; i < 1200 && Backends(connection, application_name) > 0; ++i) {  // 60 s
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(Backends(connection, application_name) == 0);
}

TEST_CASE("a cut PostgreSQL connection is made again, and its locks are not silently kept",
          "[storage][postgres]") {
  const char* connection = TestConnectionString();
  if (connection == nullptr || *connection == '\0') {
    WARN("PBEM_TEST_PG is not set: skipped (ctest runs this case via with_postgres.sh)");
    return;
  }
  PostgresHarness harness(connection);
  CountingObserver observer;
  PostgresRepository a(std::string(connection) + " application_name=pbem-cut-a");
  a.SetConnectionObserver(&observer);
  REQUIRE(a.OpenOrMigrate().ok());
  PostgresRepository b(connection);
  REQUIRE(b.OpenOrMigrate().ok());
  REQUIRE(*a.TryLock("game:g1"));
  REQUIRE_FALSE(*b.TryLock("game:g1"));

  // The server ends a's connection, as a restart does.
  CutConnections(harness, connection, "pbem-cut-a");

  // The call that finds the connection broken fails as UNAVAILABLE (it may or may not have
  // run) and connects again at once: the server is up, so no loss is reported.
  Result<std::vector<std::string>> cut = a.ListGames();
  REQUIRE_FALSE(cut.ok());
  CHECK(cut.status().code() == StatusCode::kUnavailable);
  CHECK(observer.restored == 1);
  CHECK(observer.lost == 0);
  CHECK(Backends(connection, "pbem-cut-a") == 1);

  // The lock went with the old connection: another instance takes it.
  REQUIRE(*b.TryLock("game:g1"));
  // a does not act as if it still held it: every call is refused, naming the lock...
  Result<std::vector<std::string>> refused = a.ListGames();
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == StatusCode::kFailedPrecondition);
  CHECK_THAT(refused.status().message(), Catch::Contains("\"game:g1\""));
  // ...until it takes the lock again (here: b has it) or releases it.
  CHECK_FALSE(*a.TryLock("game:g1"));
  CHECK(a.ListGames().ok());
  REQUIRE(b.Unlock("game:g1").ok());
  CHECK(*a.TryLock("game:g1"));

  // Released instead of taken again: the same.
  CutConnections(harness, connection, "pbem-cut-a");
  CHECK(a.ListGames().status().code() == StatusCode::kUnavailable);
  CHECK(observer.restored == 2);
  CHECK(a.ListGames().status().code() == StatusCode::kFailedPrecondition);
  CHECK(a.Unlock("game:g1").ok());
  CHECK(a.ListGames().ok());
}

}  // namespace
}  // namespace pbem::storage
