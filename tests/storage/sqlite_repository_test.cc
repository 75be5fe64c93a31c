#include "storage/sqlite_repository.h"

#include <Poco/Data/SQLite/Connector.h>
#include <Poco/Data/Session.h>
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "tests/storage/repository_contract.h"
#include "tests/support/temp_dir.h"

namespace pbem::storage {
namespace {

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

// A fresh directory (pbem-storage-XXXXXX), removed with everything in it.
class TempDir : public pbem::testing::TempDir {
 public:
  TempDir() : pbem::testing::TempDir("pbem-storage") {}
};

// A direct session on the database, to look behind the repository's back.
Poco::Data::Session RawSession(const std::filesystem::path& database) {
  Poco::Data::SQLite::Connector::registerConnector();
  return Poco::Data::Session("SQLite", database.string());
}

TEST_CASE("a fresh data directory is created and migrated to the latest version", "[storage]") {
  TempDir temp;
  const auto data_dir = temp.path() / "data";
  SqliteRepository repository(data_dir);

  Result<int> opened = repository.OpenOrMigrate();
  REQUIRE(opened.ok());
  CHECK(*opened == 17);
  CHECK(SqliteRepository::kLatestSchemaVersion == 17);
  CHECK(repository.database_path() == data_dir / "pbem.sqlite");
  CHECK(std::filesystem::exists(data_dir / "pbem.sqlite"));

  Result<int> version = repository.SchemaVersion();
  REQUIRE(version.ok());
  CHECK(*version == 17);

  auto session = RawSession(repository.database_path());
  std::string journal_mode;
  session << "PRAGMA journal_mode", into(journal_mode), now;
  CHECK(journal_mode == "wal");
  int games_tables = 0;
  session << "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'games'",
      into(games_tables), now;
  CHECK(games_tables == 1);
}

TEST_CASE("reopening keeps the schema version and applies nothing twice", "[storage]") {
  TempDir temp;
  {
    SqliteRepository first(temp.path());
    REQUIRE(first.OpenOrMigrate().ok());
  }
  SqliteRepository second(temp.path());
  Result<int> reopened = second.OpenOrMigrate();
  REQUIRE(reopened.ok());
  CHECK(*reopened == 17);

  auto session = RawSession(second.database_path());
  int rows = 0;
  session << "SELECT count(*) FROM schema_migrations", into(rows), now;
  CHECK(rows == 17);  // 1 to 17
}

TEST_CASE("the database itself keeps one league player per address (migration 9)", "[storage]") {
  TempDir temp;
  SqliteRepository repository(temp.path());
  REQUIRE(repository.OpenOrMigrate().ok());
  REQUIRE(repository.CreateLeague({"spring", "Spring", "organiser", "", Timestamp{}}).ok());
  REQUIRE(
      repository.AddLeaguePlayer({"spring", "ann", "ann@example.org", "t-ann", Timestamp{}}).ok());
  // Behind the repository's back, as a racing join whose check ran first would insert.
  auto session = RawSession(repository.database_path());
  CHECK_THROWS(session << "INSERT INTO league_players (league_id, player, mail_address, "
                          "token_sha256, joined_at_ms) VALUES ('spring', 'anna', "
                          "'Ann@Example.ORG', 'x', 0)",
               now);
  session << "INSERT INTO league_players (league_id, player, mail_address, token_sha256, "
             "joined_at_ms) VALUES ('spring', 'bob', 'bob@example.org', 'x', 0)",
      now;
  CHECK(repository.ListLeaguePlayers("spring")->size() == 2);
}

TEST_CASE("a database with a newer schema is refused, naming both versions", "[storage]") {
  TempDir temp;
  {
    SqliteRepository repository(temp.path());
    REQUIRE(repository.OpenOrMigrate().ok());
  }
  {
    auto session = RawSession(temp.path() / SqliteRepository::kFileName);
    session << "INSERT INTO schema_migrations (version, description, applied_at) "
               "VALUES (99, 'from the future', '2099-01-01T00:00:00Z')",
        now;
  }
  SqliteRepository repository(temp.path());
  Result<int> opened = repository.OpenOrMigrate();
  REQUIRE_FALSE(opened.ok());
  CHECK(opened.status().code() == StatusCode::kFailedPrecondition);
  CHECK_THAT(opened.status().message(), Catch::Contains("schema version 99"));
  CHECK_THAT(opened.status().message(), Catch::Contains("up to version 17"));
  CHECK_THAT(opened.status().message(), Catch::Contains("pbem.sqlite"));

  // Refused means not open, either.
  CHECK(repository.SchemaVersion().status().code() == StatusCode::kFailedPrecondition);
}

TEST_CASE("SchemaVersion before OpenOrMigrate is a failed precondition", "[storage]") {
  TempDir temp;
  SqliteRepository repository(temp.path());
  Result<int> version = repository.SchemaVersion();
  REQUIRE_FALSE(version.ok());
  CHECK(version.status().code() == StatusCode::kFailedPrecondition);
  CHECK_THAT(version.status().message(), Catch::Contains("OpenOrMigrate"));
}

TEST_CASE("a data directory that cannot be created is an I/O error naming it", "[storage]") {
  TempDir temp;
  const auto blocker = temp.path() / "not-a-dir";
  std::ofstream(blocker) << "a file where the data directory should go\n";
  SqliteRepository repository(blocker / "data");
  Result<int> opened = repository.OpenOrMigrate();
  REQUIRE_FALSE(opened.ok());
  CHECK(opened.status().code() == StatusCode::kIoError);
  CHECK_THAT(opened.status().message(), Catch::Contains((blocker / "data").string()));
}

class SqliteHarness final : public RepositoryHarness {
 public:
  std::unique_ptr<GameRepository> NewRepository() override {
    return std::make_unique<SqliteRepository>(temp_.path());
  }
  std::string Name() const override { return "sqlite"; }
  void ExecuteSql(const std::string& sql) override {
    auto session = RawSession(temp_.path() / SqliteRepository::kFileName);
    session << sql, now;
  }

 private:
  TempDir temp_;
};

TEST_CASE("SqliteRepository passes the GameRepository contract", "[storage][sqlite]") {
  RunGameRepositoryContract([] { return std::make_unique<SqliteHarness>(); });
}

TEST_CASE("SqliteRepository passes the LeagueRepository contract", "[storage][sqlite]") {
  RunLeagueRepositoryContract([] { return std::make_unique<SqliteHarness>(); });
}

TEST_CASE("Status and Result carry codes, messages and values", "[storage][status]") {
  CHECK(Status::Ok().ok());
  CHECK(Status::Ok().ToString() == "OK");
  const Status bad = Status::InvalidArgument("pbemd.http.port: not a number");
  CHECK_FALSE(bad.ok());
  CHECK(bad.ToString() == "INVALID_ARGUMENT: pbemd.http.port: not a number");

  Result<std::string> good = std::string("value");
  REQUIRE(good.ok());
  CHECK(good->size() == 5);
  CHECK(good.status().ok());
  Result<std::string> failed = Status::NotFound("no such game");
  CHECK_FALSE(failed.ok());
  CHECK(failed.status().code() == StatusCode::kNotFound);
}

}  // namespace
}  // namespace pbem::storage
