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
#include <memory>
#include <string>

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

TEST_CASE("a PostgreSQL connection failure is an I/O error without the password",
          "[storage][postgres]") {
  // Port 1 on loopback: nothing listens there, the connection is refused at once.
  PostgresRepository repository(
      "host=127.0.0.1 port=1 user=u password=sekrit dbname=nowhere connect_timeout=2");
  Result<int> opened = repository.OpenOrMigrate();
  REQUIRE_FALSE(opened.ok());
  CHECK(opened.status().code() == StatusCode::kIoError);
  CHECK_THAT(opened.status().message(), Catch::Contains("nowhere at 127.0.0.1:1"));
  CHECK_THAT(opened.status().message(), !Catch::Contains("sekrit"));
}

}  // namespace
}  // namespace pbem::storage
