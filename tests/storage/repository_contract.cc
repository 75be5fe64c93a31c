#include "tests/storage/repository_contract.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "storage/league_repository.h"

namespace pbem::storage {
namespace {

using namespace std::chrono_literals;

Timestamp At(std::int64_t ms) { return Timestamp(std::chrono::milliseconds(ms)); }

// Bytes no text column would survive: NUL, high bytes, a lone quote.
const Bytes kBinary = Bytes("\x00\x01\xff\xfe'\x00z", 7);

NewGame SampleGame(const std::string& id) {
  NewGame game;
  game.id = id;
  game.scenario = "Borodino 1812";
  game.ruleset_name = "napoleonic-brigade";
  game.ruleset_version = "1.2.0";
  game.engine_version = "0.1.0+abc123";
  game.deadlines.turn_timeout = 14 * 24h;
  game.deadlines.reminder_before = 3 * 24h;
  game.initial_state = Bytes("state-0\x00\xff", 9);
  game.created_at = At(1'700'000'000'123);
  return game;
}

NewSubmission SampleSubmission(const std::string& game_id, const std::string& message_id,
                               const Bytes& raw) {
  NewSubmission s;
  s.game_id = game_id;
  s.turn = 0;
  s.channel = Channel::kMail;
  s.sender = "anna@example.org";
  s.side = "italy";  // a side no sample turn commits (see "the played submission" below)
  s.message_id = message_id;
  s.raw = raw;
  s.orders = "validated " + raw;
  s.received_at = At(1'700'000'100'000);
  s.verdicts = kBinary;
  s.accepted = true;
  return s;
}

TurnCommit SampleTurn(const std::string& game_id, std::int64_t turn, const std::string& side,
                      std::int64_t based_on) {
  TurnCommit c;
  c.game_id = game_id;
  c.turn = turn;
  c.side = side;
  c.based_on = based_on;
  c.orders = "orders " + side + std::to_string(turn);
  c.dice_seed = kBinary;
  c.dice_commitment = "commitment " + std::to_string(turn);
  c.result = "result " + side + std::to_string(turn);
  c.next_state = "state after " + side + std::to_string(turn);
  c.committed_at = At(1'700'000'200'000 + turn);
  return c;
}

NewMail SampleMail(const std::string& recipient, std::int64_t next_try_ms) {
  NewMail mail;
  mail.recipient = recipient;
  mail.subject = "Turn 3: your move";
  mail.body = "Orders are due.\n";
  mail.next_try = At(next_try_ms);
  return mail;
}

// A failure of game_id's turn job at `at_ms`, retried then (stuck when `stuck`).
TurnFailure FailureAt(const std::string& game_id, std::int64_t at_ms, bool stuck) {
  TurnFailure failure;
  failure.game_id = game_id;
  failure.error = "INTERNAL: broken";
  failure.at = At(at_ms);
  failure.retry_at = At(at_ms);
  failure.stuck = stuck;
  return failure;
}

// Takes a store back to schema version 7 (what migration 8 added: submissions' side and
// validated orders, the duplicate indexes of schema 2), to test it.
void DropMigration8(RepositoryHarness& harness) {
  for (const char* sql :
       {"DROP INDEX submissions_by_turn", "DROP INDEX submissions_by_message_id",
        "ALTER TABLE submissions DROP COLUMN side", "ALTER TABLE submissions DROP COLUMN orders",
        "CREATE UNIQUE INDEX submissions_by_message_id ON submissions "
        "(game_id, message_id) WHERE message_id IS NOT NULL",
        "CREATE UNIQUE INDEX submissions_by_content ON submissions "
        "(game_id, turn, content_sha256)",
        "DELETE FROM schema_migrations WHERE version = 8"}) {
    harness.ExecuteSql(sql);
  }
}

// Takes a store back to schema version 5 (what migration 6 added), to test it.
void DropMigration6(RepositoryHarness& harness) {
  harness.ExecuteSql("ALTER TABLE outbox DROP COLUMN claimed_by");
  harness.ExecuteSql("ALTER TABLE outbox DROP COLUMN claimed_until_ms");
  harness.ExecuteSql("DELETE FROM schema_migrations WHERE version = 6");
}

// Takes a store back from schema version 10 (league seasons and their seats). Migrations apply
// above the highest version recorded: drop 10 before 9.
void DropMigration10(RepositoryHarness& harness) {
  harness.ExecuteSql("DROP TABLE league_seats");
  harness.ExecuteSql("DROP TABLE league_seasons");
  harness.ExecuteSql("DELETE FROM schema_migrations WHERE version = 10");
}

// Takes a store back from schema version 11 (what migration 11 added: the game's ending as a
// value, the league's corrections). Migrations apply above the highest version recorded: drop
// 11 before 10.
void DropMigration11(RepositoryHarness& harness) {
  harness.ExecuteSql("DROP TABLE league_corrections");
  for (const char* column :
       {"end_kind", "end_winner", "end_level", "end_by_organiser", "end_turn"}) {
    harness.ExecuteSql(std::string("ALTER TABLE games DROP COLUMN ") + column);
  }
  harness.ExecuteSql("DELETE FROM schema_migrations WHERE version = 11");
}

// Takes a store back from schema version 17 (games name their system). Migrations apply above
// the highest version recorded: drop 17 before 16.
void DropMigration17(RepositoryHarness& harness) {
  harness.ExecuteSql("ALTER TABLE games DROP COLUMN game_system");
  harness.ExecuteSql("DELETE FROM schema_migrations WHERE version = 17");
}

// Takes a store back from schema version 16 (the scheduler's wake-ups and their triggers).
void DropMigration16(RepositoryHarness& harness) {
  if (harness.Name() == "postgres") {
    harness.ExecuteSql("DROP TRIGGER games_due ON games");
    for (const char* table : {"submissions", "open_turns", "players"}) {
      harness.ExecuteSql(std::string("DROP TRIGGER ") + table + "_due ON " + table);
    }
    harness.ExecuteSql("DROP FUNCTION pbem_game_written()");
    harness.ExecuteSql("DROP FUNCTION pbem_game_row_written()");
  } else {
    for (const char* trigger :
         {"games_due", "submissions_due", "submissions_changed_due", "open_turns_due",
          "open_turns_changed_due", "players_due", "players_changed_due"}) {
      harness.ExecuteSql(std::string("DROP TRIGGER ") + trigger);
    }
  }
  harness.ExecuteSql("DROP INDEX games_due");
  harness.ExecuteSql("ALTER TABLE games DROP COLUMN due_at_ms");
  harness.ExecuteSql("ALTER TABLE games DROP COLUMN wake_seq");
  harness.ExecuteSql("DELETE FROM schema_migrations WHERE version = 16");
}

// Takes a store back from schema version 15 (the index of sent mails). Migrations apply above
// the highest version recorded: drop 15 before 14.
void DropMigration15(RepositoryHarness& harness) {
  harness.ExecuteSql("DROP INDEX outbox_sent");
  harness.ExecuteSql("DELETE FROM schema_migrations WHERE version = 15");
}

// Takes a store back from schema version 14 (failing turn jobs: counts, backoff, stuck games).
// Migrations apply above the highest version recorded: drop 14 before 13.
void DropMigration14(RepositoryHarness& harness) {
  harness.ExecuteSql("DROP INDEX games_stuck");
  for (const char* column :
       {"turn_failures", "turn_retry_at_ms", "turn_failed_at_ms", "turn_error"}) {
    harness.ExecuteSql(std::string("ALTER TABLE games DROP COLUMN ") + column);
  }
  harness.ExecuteSql("DELETE FROM schema_migrations WHERE version = 14");
}

// Takes a store back from schema version 13 (the outbox's dead letters). Migrations apply
// above the highest version recorded: drop 13 before 12.
void DropMigration13(RepositoryHarness& harness) {
  harness.ExecuteSql("DROP INDEX outbox_dead");
  harness.ExecuteSql("DROP INDEX outbox_due");
  harness.ExecuteSql("ALTER TABLE outbox DROP COLUMN failed_at_ms");
  harness.ExecuteSql(
      "CREATE INDEX outbox_due ON outbox (next_try_ms, id) WHERE sent_at_ms IS NULL");
  harness.ExecuteSql("DELETE FROM schema_migrations WHERE version = 13");
}

// Takes a store back from schema version 12 (the players' names). Migrations apply above the
// highest version recorded: drop 12 before 11.
void DropMigration12(RepositoryHarness& harness) {
  harness.ExecuteSql("ALTER TABLE players DROP COLUMN name");
  harness.ExecuteSql("DELETE FROM schema_migrations WHERE version = 12");
}

// A game's ending with `text`: a victory of france, as tests need one.
GameEnding Ending(const std::string& text) {
  GameEnding ending;
  ending.kind = GameEndKind::kVictory;
  ending.winner = "france";
  ending.level = "major";
  ending.text = text;
  return ending;
}

// Takes a store back from schema version 9 (the unique index on league player addresses).
// Migrations apply above the highest version recorded: drop 9 before 8.
void DropMigration9(RepositoryHarness& harness) {
  harness.ExecuteSql("DROP INDEX league_players_by_address");
  harness.ExecuteSql("DELETE FROM schema_migrations WHERE version = 9");
}

// Takes a store back to schema version 6 (what migration 7 added: the league players'
// language), to test it.
void DropMigration7(RepositoryHarness& harness) {
  harness.ExecuteSql("ALTER TABLE league_players DROP COLUMN language");
  harness.ExecuteSql("DELETE FROM schema_migrations WHERE version = 7");
}

// Takes a store back to schema version 4's columns (what migration 5 added), to test it.
void DropMigration5(RepositoryHarness& harness) {
  for (const char* sql :
       {"ALTER TABLE players DROP COLUMN language", "ALTER TABLE players DROP COLUMN missed_turns",
        "ALTER TABLE games DROP COLUMN paused_at_ms", "ALTER TABLE games DROP COLUMN result",
        "ALTER TABLE games DROP COLUMN ended_at_ms", "ALTER TABLE open_turns DROP COLUMN paused_ms",
        "ALTER TABLE open_turns DROP COLUMN reminded_at_ms"}) {
    harness.ExecuteSql(sql);
  }
}

std::unique_ptr<GameRepository> Open(RepositoryHarness& harness) {
  std::unique_ptr<GameRepository> repository = harness.NewRepository();
  Result<int> opened = repository->OpenOrMigrate();
  INFO(opened.status().ToString());
  REQUIRE(opened.ok());
  return repository;
}

}  // namespace

void RunGameRepositoryContract(const HarnessFactory& make_harness) {
  std::unique_ptr<RepositoryHarness> harness = make_harness();
  REQUIRE(harness != nullptr);

  SECTION("schema: a fresh store migrates to the latest version, a reopen applies nothing") {
    auto repository = Open(*harness);
    CHECK(*repository->SchemaVersion() == 17);
    auto again = harness->NewRepository();
    Result<int> reopened = again->OpenOrMigrate();
    REQUIRE(reopened.ok());
    CHECK(*reopened == 17);
  }

  SECTION("schema: a store newer than the program is refused and left alone") {
    { auto repository = Open(*harness); }
    harness->ExecuteSql(
        "INSERT INTO schema_migrations (version, description, applied_at) "
        "VALUES (99, 'from the future', '2099-01-01')");
    auto repository = harness->NewRepository();
    Result<int> opened = repository->OpenOrMigrate();
    REQUIRE_FALSE(opened.ok());
    CHECK(opened.status().code() == StatusCode::kFailedPrecondition);
    CHECK_THAT(opened.status().message(), Catch::Contains("schema version 99"));
    CHECK_THAT(opened.status().message(), Catch::Contains("up to version 17"));
    CHECK(repository->GetGame("g").status().code() == StatusCode::kFailedPrecondition);
  }

  SECTION("schema: a version 1 store (the placeholder games table) migrates to the latest") {
    harness->ExecuteSql(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
        "description TEXT NOT NULL, applied_at TEXT NOT NULL)");
    harness->ExecuteSql(
        "INSERT INTO schema_migrations VALUES (1, 'games placeholder', '2026-01-01T00:00:00Z')");
    harness->ExecuteSql(
        "CREATE TABLE games (id TEXT PRIMARY KEY, scenario TEXT NOT NULL, "
        "created_at TEXT NOT NULL)");
    auto repository = Open(*harness);
    CHECK(*repository->SchemaVersion() == 17);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    CHECK(repository->GetGame("g")->ruleset_version == "1.2.0");
  }

  SECTION("schema: games name their system; those stored before are Morne Plaine's (17)") {
    {
      auto repository = Open(*harness);
      REQUIRE(repository->CreateGame(SampleGame("old")).ok());
    }
    DropMigration17(*harness);
    auto repository = Open(*harness);
    CHECK(*repository->SchemaVersion() == 17);
    CHECK(repository->GetGame("old")->system == kFirstGameSystem);
    NewGame m42 = SampleGame("m42-game");
    m42.system = "m42";
    REQUIRE(repository->CreateGame(m42).ok());
    CHECK(repository->GetGame("m42-game")->system == "m42");
    CHECK(repository->GetGame("old")->system == "morne-plaine");
    NewGame nameless = SampleGame("nameless");
    nameless.system.clear();
    Status refused = repository->CreateGame(nameless);
    CHECK(refused.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(refused.message(), Catch::Contains("game system"));
    CHECK(repository->GetGame("nameless").status().code() == StatusCode::kNotFound);
  }

  SECTION("schema: a version 2 store keeps its games and gains open turns (migration 3)") {
    // Build a version 2 store by hand, as the program of that version left it.
    {
      auto repository = Open(*harness);
      REQUIRE(repository->CreateGame(SampleGame("old")).ok());
    }
    DropMigration17(*harness);
    DropMigration16(*harness);
    DropMigration15(*harness);
    DropMigration14(*harness);
    DropMigration13(*harness);
    DropMigration12(*harness);
    DropMigration11(*harness);
    DropMigration10(*harness);
    DropMigration9(*harness);
    DropMigration8(*harness);
    DropMigration7(*harness);
    DropMigration6(*harness);
    DropMigration5(*harness);
    harness->ExecuteSql("DELETE FROM schema_migrations WHERE version = 5");
    for (const char* table : {"league_ratings", "league_games", "league_players", "leagues"}) {
      harness->ExecuteSql(std::string("DROP TABLE ") + table);  // migration 4
    }
    harness->ExecuteSql("DELETE FROM schema_migrations WHERE version = 4");
    harness->ExecuteSql("DROP TABLE open_turns");
    harness->ExecuteSql("ALTER TABLE games DROP COLUMN initial_state");
    harness->ExecuteSql("ALTER TABLE games DROP COLUMN ruleset_proto");
    harness->ExecuteSql("ALTER TABLE games DROP COLUMN scenario_proto");
    harness->ExecuteSql("DELETE FROM schema_migrations WHERE version >= 3");
    auto repository = Open(*harness);
    CHECK(*repository->SchemaVersion() == 17);
    Result<Game> old = repository->GetGame("old");
    REQUIRE(old.ok());
    CHECK(old->state == Bytes("state-0\x00\xff", 9));
    CHECK(old->initial_state.empty());  // unknown before migration 3
    CHECK(old->ruleset_proto.empty());
    OpenTurn open{"old", 1, "france", 0, kBinary, "c", At(5)};
    CHECK(repository->RecordOpenTurn(open).ok());
  }

  SECTION("submissions: a version 7 store keeps its submissions (migration 8)") {
    {
      auto repository = Open(*harness);
      REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    }
    DropMigration17(*harness);
    DropMigration16(*harness);
    DropMigration15(*harness);
    DropMigration14(*harness);
    DropMigration13(*harness);
    DropMigration12(*harness);
    DropMigration11(*harness);
    DropMigration10(*harness);
    DropMigration9(*harness);
    DropMigration8(*harness);
    harness->ExecuteSql(
        "INSERT INTO submissions (game_id, turn, channel, sender, message_id, raw, "
        "content_sha256, received_at_ms, accepted, reason) "
        "VALUES ('g', 0, 'mail', 'a@example.org', '<old@x>', 'old', 'h', 5, 1, '')");
    auto repository = Open(*harness);
    CHECK(*repository->SchemaVersion() == 17);
    auto stored = repository->ListSubmissions("g");
    REQUIRE(stored->size() == 1);
    CHECK(stored->front().side.empty());
    CHECK(stored->front().orders.empty());
    CHECK(stored->front().message_id == "<old@x>");
    // Played if it is the side's latest (a submission of schema 7 knows no side).
    TurnCommit commit = SampleTurn("g", 1, "italy", 0);
    commit.played_submission = stored->front().id;
    CHECK(repository->CommitTurn(commit).ok());
  }

  SECTION("every method before OpenOrMigrate is a failed precondition") {
    auto repository = harness->NewRepository();
    CHECK(repository->SchemaVersion().status().code() == StatusCode::kFailedPrecondition);
    CHECK(repository->CreateGame(SampleGame("g")).code() == StatusCode::kFailedPrecondition);
    CHECK(repository->ListTurns("g").status().code() == StatusCode::kFailedPrecondition);
    CHECK(repository->DueMail(At(0), 10).status().code() == StatusCode::kFailedPrecondition);
  }

  SECTION("games: what is created reads back byte for byte, from another instance too") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g1")).ok());
    auto other = Open(*harness);
    Result<Game> game = other->GetGame("g1");
    REQUIRE(game.ok());
    CHECK(game->id == "g1");
    CHECK(game->scenario == "Borodino 1812");
    CHECK(game->ruleset_name == "napoleonic-brigade");
    CHECK(game->ruleset_version == "1.2.0");
    CHECK(game->engine_version == "0.1.0+abc123");
    CHECK(game->deadlines.turn_timeout == 14 * 24h);
    CHECK(game->deadlines.reminder_before == 3 * 24h);
    CHECK(game->state == Bytes("state-0\x00\xff", 9));
    CHECK(game->created_at == At(1'700'000'000'123));
    CHECK(game->turns_committed == 0);
  }

  SECTION(
      "games: GetGameVersion reads what GetGame says of turns and end, from another "
      "instance") {
    // Issue 19: the HTTP API keys its cache of encoded states on it, so it must follow a
    // commit and an end made through another connection.
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    auto other = Open(*harness);
    Result<GameVersion> created = other->GetGameVersion("g");
    REQUIRE(created.ok());
    CHECK(created->created_at == At(1'700'000'000'123));
    CHECK(created->turns_committed == 0);
    CHECK_FALSE(created->ending);
    REQUIRE(repository->CommitTurn(SampleTurn("g", 1, "france", 0)).ok());
    CHECK(other->GetGameVersion("g")->turns_committed == 1);
    REQUIRE(*repository->EndGame("g", 1, Ending("france wins"), At(1'700'000'300'000), {}));
    Result<GameVersion> ended = other->GetGameVersion("g");
    REQUIRE(ended.ok());
    REQUIRE(ended->ending);
    const Result<Game> game = other->GetGame("g");
    REQUIRE(game->ending);
    CHECK(ended->ending->text == "france wins");
    CHECK(ended->ending->kind == game->ending->kind);
    CHECK(ended->ending->winner == game->ending->winner);
    CHECK(ended->ending->level == game->ending->level);
    CHECK(ended->ending->turn == game->ending->turn);
    CHECK(ended->ending->by_organiser == game->ending->by_organiser);
    CHECK(ended->turns_committed == 1);
    CHECK(other->GetGameVersion("nope").status().code() == StatusCode::kNotFound);
  }

  SECTION("games: an empty state, a taken id, an empty id and an unknown id") {
    auto repository = Open(*harness);
    NewGame empty = SampleGame("empty");
    empty.initial_state.clear();
    REQUIRE(repository->CreateGame(empty).ok());
    CHECK(repository->GetGame("empty")->state.empty());
    Status taken = repository->CreateGame(SampleGame("empty"));
    CHECK(taken.code() == StatusCode::kAlreadyExists);
    CHECK_THAT(taken.message(), Catch::Contains("empty"));
    CHECK(repository->CreateGame(SampleGame("")).code() == StatusCode::kInvalidArgument);
    CHECK(repository->GetGame("nope").status().code() == StatusCode::kNotFound);
  }

  SECTION("games: a game and its players in one transaction; a refusal stores nothing") {
    // Issue 13, finding 8: two "blue" players gave 409 but left a half-made game behind that
    // blocked the retry.
    auto repository = Open(*harness);
    const NewPlayer blue{"g", "blue", "ann@example.org", "token-ann"};
    NewPlayer blue_again{"g", "blue", "ben@example.org", "token-ben"};
    Status twice = repository->CreateGameWithPlayers(SampleGame("g"), {blue, blue_again}, {});
    CHECK(twice.code() == StatusCode::kAlreadyExists);
    CHECK_THAT(twice.message(), Catch::Contains("side blue is given twice"));
    CHECK(repository->GetGame("g").status().code() == StatusCode::kNotFound);
    CHECK(repository->ListPlayers("g")->empty());
    NewPlayer no_token{"g", "orange", "ben@example.org", ""};
    CHECK(repository->CreateGameWithPlayers(SampleGame("g"), {blue, no_token}, {}).code() ==
          StatusCode::kInvalidArgument);
    NewPlayer elsewhere{"h", "orange", "ben@example.org", "token-ben"};
    CHECK(repository->CreateGameWithPlayers(SampleGame("g"), {blue, elsewhere}, {}).code() ==
          StatusCode::kInvalidArgument);
    CHECK(repository->GetGame("g").status().code() == StatusCode::kNotFound);
    // The retry, corrected, is stored whole.
    blue_again.side = "orange";
    REQUIRE(repository->CreateGameWithPlayers(SampleGame("g"), {blue, blue_again}, {}).ok());
    auto players = repository->ListPlayers("g");
    REQUIRE(players->size() == 2);
    CHECK((*players)[0].side == "blue");
    CHECK((*players)[1].side == "orange");
    CHECK(*repository->VerifyToken("g", "orange", "token-ben"));
    CHECK(repository->CreateGameWithPlayers(SampleGame("g"), {}, {}).code() ==
          StatusCode::kAlreadyExists);
    CHECK(repository->ListPlayers("g")->size() == 2);
  }

  SECTION("games: the welcome mails are enqueued with the game, and only with it") {
    // Issue 14: a game is never stored without its players' welcome mails.
    auto repository = Open(*harness);
    const NewPlayer blue{"g", "blue", "ann@example.org", "token-ann"};
    const NewPlayer blue_again{"g", "blue", "ben@example.org", "token-ben"};
    NewMail welcome;
    welcome.recipient = "ann@example.org";
    welcome.subject = "Game g: you play blue";
    welcome.body = "Welcome";
    welcome.next_try = At(0);
    CHECK(
        repository->CreateGameWithPlayers(SampleGame("g"), {blue, blue_again}, {welcome}).code() ==
        StatusCode::kAlreadyExists);
    CHECK(repository->DueMail(At(1), 10)->empty());
    REQUIRE(repository->CreateGameWithPlayers(SampleGame("g"), {blue}, {welcome}).ok());
    Result<std::vector<OutboxMail>> due = repository->DueMail(At(1), 10);
    REQUIRE(due.ok());
    REQUIRE(due->size() == 1);
    CHECK((*due)[0].recipient == "ann@example.org");
    CHECK((*due)[0].subject == "Game g: you play blue");
    CHECK(repository->CreateGameWithPlayers(SampleGame("g"), {}, {welcome}).code() ==
          StatusCode::kAlreadyExists);
    CHECK(repository->DueMail(At(1), 10)->size() == 1);
  }

  SECTION("players: tokens are stored only as SHA-256 and verified by hashing") {
    CHECK(Sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    REQUIRE(repository->AddPlayer({"g", "russia", "kutuzov@example.org", "secret-r"}).ok());
    REQUIRE(repository->AddPlayer({"g", "france", "nap@example.org", "secret-f"}).ok());

    Result<std::vector<Player>> players = repository->ListPlayers("g");
    REQUIRE(players.ok());
    REQUIRE(players->size() == 2);
    CHECK((*players)[0].side == "france");
    CHECK((*players)[0].mail_address == "nap@example.org");
    CHECK((*players)[0].token_sha256 == Sha256Hex("secret-f"));
    CHECK((*players)[1].side == "russia");

    CHECK(*repository->VerifyToken("g", "france", "secret-f"));
    CHECK_FALSE(*repository->VerifyToken("g", "france", "secret-r"));
    CHECK_FALSE(*repository->VerifyToken("g", "france", ""));
    CHECK(repository->VerifyToken("g", "prussia", "x").status().code() == StatusCode::kNotFound);
    CHECK(repository->AddPlayer({"g", "france", "other@example.org", "t"}).code() ==
          StatusCode::kAlreadyExists);
    CHECK(repository->AddPlayer({"nope", "france", "a@example.org", "t"}).code() ==
          StatusCode::kNotFound);
    CHECK(repository->AddPlayer({"g", "austria", "a@example.org", ""}).code() ==
          StatusCode::kInvalidArgument);
  }

  SECTION("players: a language each, English unless given; a version 4 store gains it") {
    {
      auto repository = Open(*harness);
      REQUIRE(repository->CreateGame(SampleGame("g")).ok());
      REQUIRE(repository->AddPlayer({"g", "russia", "kutuzov@example.org", "secret-r"}).ok());
      REQUIRE(repository->AddPlayer({"g", "france", "nap@example.org", "secret-f", "fr"}).ok());
      Result<std::vector<Player>> players = repository->ListPlayers("g");
      REQUIRE(players.ok());
      REQUIRE(players->size() == 2);
      CHECK((*players)[0].language == "fr");
      CHECK((*players)[1].language == "en");
    }
    // Back to version 4 with a player stored then: migration 5 gives it English.
    DropMigration17(*harness);
    DropMigration16(*harness);
    DropMigration15(*harness);
    DropMigration14(*harness);
    DropMigration13(*harness);
    DropMigration12(*harness);
    DropMigration11(*harness);
    DropMigration10(*harness);
    DropMigration9(*harness);
    DropMigration8(*harness);
    DropMigration7(*harness);
    DropMigration6(*harness);
    DropMigration5(*harness);
    harness->ExecuteSql("DELETE FROM schema_migrations WHERE version = 5");
    harness->ExecuteSql(
        "INSERT INTO players (game_id, side, mail_address, token_sha256) "
        "VALUES ('g', 'prussia', 'b@example.org', 'x')");
    auto repository = Open(*harness);
    CHECK(*repository->SchemaVersion() == 17);
    Result<std::vector<Player>> players = repository->ListPlayers("g");
    REQUIRE(players.ok());
    REQUIRE(players->size() == 3);
    CHECK((*players)[1].side == "prussia");
    CHECK((*players)[1].language == "en");
    CHECK((*players)[0].language == "en");  // france's "fr" went with the dropped column
  }

  SECTION("players: a name each, empty unless given; a version 11 store gains it (migration 12)") {
    {
      auto repository = Open(*harness);
      REQUIRE(repository->CreateGame(SampleGame("g")).ok());
      NewPlayer named{"g", "france", "nap@example.org", "secret-f", "fr"};
      named.name = "Bruno \u00c9lo\u00efse";  // UTF-8, as the HTTP API checks it
      REQUIRE(repository->AddPlayer(named).ok());
      REQUIRE(repository->AddPlayer({"g", "russia", "kutuzov@example.org", "secret-r"}).ok());
      Result<std::vector<Player>> players = repository->ListPlayers("g");
      REQUIRE(players.ok());
      REQUIRE(players->size() == 2);
      CHECK((*players)[0].name == "Bruno \u00c9lo\u00efse");
      CHECK((*players)[1].name.empty());
      // A league game, its players stored without a name (as before version 12).
      auto* leagues = dynamic_cast<LeagueRepository*>(repository.get());
      REQUIRE(leagues != nullptr);
      REQUIRE(leagues->CreateLeague({"club", "Club", "org-secret", "", At(1000)}).ok());
      for (const char* who : {"ann", "bob", "dan"}) {
        REQUIRE(leagues
                    ->AddLeaguePlayer({"club", who, std::string(who) + "@example.org",
                                       std::string("token-") + who, At(2000)})
                    .ok());
      }
      LeagueGameRecord record;
      record.league_id = "club";
      record.season = 1;
      record.round = 1;
      record.game_id = "lg";
      record.blue = "ann";
      record.orange = "bob";
      REQUIRE(leagues->AddLeagueGames({record}).ok());
      REQUIRE(repository->CreateGame(SampleGame("lg")).ok());
      REQUIRE(repository->AddPlayer({"lg", "blue", "ann@example.org", "t-ann"}).ok());
      REQUIRE(repository->AddPlayer({"lg", "orange", "bob@example.org", "t-bob"}).ok());
    }
    DropMigration17(*harness);
    DropMigration16(*harness);
    DropMigration15(*harness);
    DropMigration14(*harness);
    DropMigration13(*harness);
    DropMigration12(*harness);
    {
      auto repository = Open(*harness);
      CHECK(*repository->SchemaVersion() == 17);
      Result<std::vector<Player>> players = repository->ListPlayers("g");
      REQUIRE(players.ok());
      CHECK((*players)[0].name.empty());  // the name went with the dropped column
      // The league game's players are named as in their league.
      players = repository->ListPlayers("lg");
      REQUIRE(players.ok());
      REQUIRE(players->size() == 2);
      CHECK((*players)[0].name == "ann");
      CHECK((*players)[1].name == "bob");
      // A replacement takes the pending game's side with its name.
      auto* leagues = dynamic_cast<LeagueRepository*>(repository.get());
      REQUIRE(leagues != nullptr);
      REQUIRE(leagues
                  ->ReplaceLeaguePlayer(
                      "bob", {"club", "cyd", "cyd@example.org", "token-cyd", At(3000), "fr"})
                  .ok());
      players = repository->ListPlayers("lg");
      REQUIRE(players.ok());
      CHECK((*players)[1].name == "cyd");
      CHECK((*players)[1].mail_address == "cyd@example.org");
    }
  }

  SECTION("outbox: a version 5 store gains claims (migration 6); its unsent mail stays due") {
    std::int64_t queued = 0;
    {
      auto repository = Open(*harness);
      Result<std::int64_t> id = repository->EnqueueMail(SampleMail("old@example.org", 1000));
      REQUIRE(id.ok());
      queued = *id;
    }
    DropMigration17(*harness);
    DropMigration16(*harness);
    DropMigration15(*harness);
    DropMigration14(*harness);
    DropMigration13(*harness);
    DropMigration12(*harness);
    DropMigration11(*harness);
    DropMigration10(*harness);
    DropMigration9(*harness);
    DropMigration8(*harness);
    DropMigration7(*harness);
    DropMigration6(*harness);
    auto repository = Open(*harness);
    CHECK(*repository->SchemaVersion() == 17);
    Result<OutboxMail> old = repository->GetMail(queued);
    REQUIRE(old.ok());
    CHECK(old->claimed_by.empty());
    CHECK_FALSE(old->claimed_until.has_value());
    Result<std::vector<OutboxMail>> claimed = repository->ClaimDueMail(At(1000), 10, "new", 1s);
    REQUIRE(claimed.ok());
    REQUIRE(claimed->size() == 1);
    CHECK(claimed->front().id == queued);
  }

  SECTION("games: ListGames names every game in id order, from another instance too") {
    auto repository = Open(*harness);
    CHECK(repository->ListGames()->empty());
    REQUIRE(repository->CreateGame(SampleGame("b")).ok());
    REQUIRE(repository->CreateGame(SampleGame("a")).ok());
    REQUIRE(repository->CreateGame(SampleGame("c")).ok());
    auto other = Open(*harness);
    Result<std::vector<std::string>> ids = other->ListGames();
    REQUIRE(ids.ok());
    CHECK(*ids == std::vector<std::string>{"a", "b", "c"});
  }

  SECTION("players: the clear token is nowhere in the store's answers") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    REQUIRE(repository->AddPlayer({"g", "france", "nap@example.org", "hunter2"}).ok());
    Result<std::vector<Player>> players = repository->ListPlayers("g");
    REQUIRE(players.ok());
    REQUIRE(players->size() == 1);
    for (const Player& p : *players) {
      CHECK(p.token_sha256.find("hunter2") == std::string::npos);
      CHECK(p.token_sha256.size() == 64);
    }
  }

  SECTION("submissions: stored as received, in order, byte for byte") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    NewSubmission first = SampleSubmission("g", "<1@example.org>", Bytes("raw\x00mail", 8));
    NewSubmission second = SampleSubmission("g", "", "POST body");
    second.channel = Channel::kHttp;
    second.sender = "token:france";
    second.accepted = false;
    second.reason = "unit 7 cannot reach 0412";
    second.verdicts.clear();
    second.received_at = At(1'700'000'100'500);
    Result<RecordedSubmission> a = repository->RecordSubmission(first);
    Result<RecordedSubmission> b = repository->RecordSubmission(second);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK_FALSE(a->duplicate);
    CHECK_FALSE(b->duplicate);
    CHECK(a->id < b->id);

    Result<std::vector<Submission>> stored = Open(*harness)->ListSubmissions("g");
    REQUIRE(stored.ok());
    REQUIRE(stored->size() == 2);
    const Submission& s0 = (*stored)[0];
    CHECK(s0.id == a->id);
    CHECK(s0.game_id == "g");
    CHECK(s0.channel == Channel::kMail);
    CHECK(s0.sender == "anna@example.org");
    CHECK(s0.message_id == "<1@example.org>");
    CHECK(s0.raw == Bytes("raw\x00mail", 8));
    CHECK(s0.content_sha256 == Sha256Hex(Bytes("raw\x00mail", 8)));
    CHECK(s0.received_at == At(1'700'000'100'000));
    CHECK(s0.verdicts == kBinary);
    CHECK(s0.accepted);
    CHECK(s0.reason.empty());
    const Submission& s1 = (*stored)[1];
    CHECK(s1.channel == Channel::kHttp);
    CHECK(s1.message_id.empty());
    CHECK_FALSE(s1.accepted);
    CHECK(s1.reason == "unit 7 cannot reach 0412");
    CHECK(s1.verdicts.empty());
    CHECK(s1.received_at == At(1'700'000'100'500));
  }

  SECTION("submissions: those of one position, without the game's history") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    REQUIRE(repository->RecordSubmission(SampleSubmission("g", "<a@x>", "turn 0, a")).ok());
    REQUIRE(repository->RecordSubmission(SampleSubmission("g", "<b@x>", "turn 0, b")).ok());
    REQUIRE(repository->CommitTurn(SampleTurn("g", 1, "france", 0)).ok());
    NewSubmission later = SampleSubmission("g", "<c@x>", "turn 1");
    later.turn = 1;
    REQUIRE(repository->RecordSubmission(later).ok());

    Result<std::vector<Submission>> zero = repository->ListTurnSubmissions("g", 0);
    REQUIRE(zero.ok());
    REQUIRE(zero->size() == 2);
    CHECK((*zero)[0].raw == "turn 0, a");
    CHECK((*zero)[1].raw == "turn 0, b");
    Result<std::vector<Submission>> one = repository->ListTurnSubmissions("g", 1);
    REQUIRE(one.ok());
    REQUIRE(one->size() == 1);
    const std::vector<Submission> all = *repository->ListSubmissions("g");
    REQUIRE(all.size() == 3);
    const Submission& all_last = all.back();
    CHECK((*one)[0].id == all_last.id);
    CHECK((*one)[0].turn == 1);
    CHECK((*one)[0].orders == all_last.orders);
    CHECK((*one)[0].message_id == "<c@x>");
    CHECK(repository->ListTurnSubmissions("g", 2)->empty());
    CHECK(repository->ListTurnSubmissions("nope", 0)->empty());
  }

  SECTION("submissions: a repeated Message-ID is stored once, even with other bytes") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    auto original = repository->RecordSubmission(SampleSubmission("g", "<m@x>", "one"));
    REQUIRE(original.ok());
    NewSubmission again = SampleSubmission("g", "<m@x>", "one, re-wrapped by a relay");
    again.turn = 1;
    auto repeated = Open(*harness)->RecordSubmission(again);
    REQUIRE(repeated.ok());
    CHECK(repeated->duplicate);
    CHECK(repeated->id == original->id);
    REQUIRE(repository->ListSubmissions("g")->size() == 1);
    CHECK(repository->ListSubmissions("g")->front().raw == "one");
  }

  SECTION("submissions: the same bytes in the same turn are stored once") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    NewSubmission http = SampleSubmission("g", "", "move 7 to 0412");
    http.channel = Channel::kHttp;
    auto original = repository->RecordSubmission(http);
    http.received_at = At(1'700'000'999'000);  // a client retry, later
    auto retry = repository->RecordSubmission(http);
    REQUIRE(original.ok());
    REQUIRE(retry.ok());
    CHECK_FALSE(original->duplicate);
    CHECK(retry->duplicate);
    CHECK(retry->id == original->id);
    // A new Message-ID does not make the same bytes new either.
    auto relabelled =
        repository->RecordSubmission(SampleSubmission("g", "<new@x>", "move 7 to 0412"));
    REQUIRE(relabelled.ok());
    CHECK(relabelled->duplicate);
    CHECK(repository->ListSubmissions("g")->size() == 1);
  }

  SECTION("submissions: the same bytes in another turn, or another game, are new") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    REQUIRE(repository->CreateGame(SampleGame("h")).ok());
    NewSubmission s = SampleSubmission("g", "<m@x>", "pass");
    REQUIRE_FALSE(repository->RecordSubmission(s)->duplicate);
    REQUIRE(repository->CommitTurn(SampleTurn("g", 1, "france", 0)).ok());
    NewSubmission next_turn = SampleSubmission("g", "", "pass");
    next_turn.turn = 1;
    CHECK_FALSE(repository->RecordSubmission(next_turn)->duplicate);
    // One mail sent to two games' addresses carries one Message-ID: it counts for both.
    CHECK_FALSE(repository->RecordSubmission(SampleSubmission("h", "<m@x>", "pass"))->duplicate);
    CHECK(repository->ListSubmissions("g")->size() == 2);
    CHECK(repository->ListSubmissions("h")->size() == 1);
    CHECK(repository->RecordSubmission(SampleSubmission("nope", "", "x")).status().code() ==
          StatusCode::kNotFound);
  }

  SECTION("submissions: a refused one is never the original of a duplicate") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    NewSubmission refused = SampleSubmission("g", "<m@x>", "orders");
    refused.accepted = false;
    refused.orders.clear();
    refused.reason = "malformed: sent as text/plain";
    auto first = repository->RecordSubmission(refused);
    REQUIRE(first.ok());
    // The same bytes, the same Message-ID, now accepted: new, stored, and the latest.
    auto second = repository->RecordSubmission(SampleSubmission("g", "<m@x>", "orders"));
    REQUIRE(second.ok());
    CHECK_FALSE(second->duplicate);
    CHECK(second->id != first->id);
    auto stored = repository->ListSubmissions("g");
    REQUIRE(stored->size() == 2);
    CHECK(stored->back().accepted);
    CHECK(stored->back().side == "italy");
    CHECK(stored->back().orders == "validated orders");
  }

  SECTION("submissions: another side's bytes or Message-ID never make a duplicate") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    REQUIRE(repository->RecordSubmission(SampleSubmission("g", "<m@x>", "orders")).ok());
    NewSubmission other = SampleSubmission("g", "<m@x>", "orders");
    other.side = "spain";
    auto recorded = repository->RecordSubmission(other);
    REQUIRE(recorded.ok());
    CHECK_FALSE(recorded->duplicate);
    CHECK(repository->ListSubmissions("g")->size() == 2);
  }

  SECTION("submissions: bytes sent again after another revision are a new revision") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    auto a = repository->RecordSubmission(SampleSubmission("g", "", "revision A"));
    auto b = repository->RecordSubmission(SampleSubmission("g", "", "revision B"));
    auto a_again = repository->RecordSubmission(SampleSubmission("g", "", "revision A"));
    REQUIRE(a_again.ok());
    CHECK_FALSE(a_again->duplicate);
    CHECK(a_again->id > b->id);
    auto a_third = repository->RecordSubmission(SampleSubmission("g", "", "revision A"));
    CHECK(a_third->duplicate);  // now the latest: a retry
    CHECK(a_third->id == a_again->id);
    CHECK(a->id < b->id);
  }

  SECTION("submissions: an accepted one is stored only while its turn is open") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    REQUIRE(repository->CommitTurn(SampleTurn("g", 1, "france", 0)).ok());
    auto late = repository->RecordSubmission(SampleSubmission("g", "", "for position 0"));
    REQUIRE(late.ok());
    CHECK(late->stale);
    CHECK_FALSE(late->duplicate);
    CHECK(repository->ListSubmissions("g")->empty());
    // A refused one is stored whatever the position (it is the record of an answer).
    NewSubmission refused = SampleSubmission("g", "", "for position 0");
    refused.accepted = false;
    refused.orders.clear();
    CHECK_FALSE(repository->RecordSubmission(refused)->stale);
    // An ended game takes no accepted submission either.
    REQUIRE(*repository->EndGame("g", 1, Ending("france wins"), At(1'700'000'300'000), {}));
    NewSubmission current = SampleSubmission("g", "", "for position 1");
    current.turn = 1;
    CHECK(repository->RecordSubmission(current)->stale);
    // An accepted submission must say whose it is and what was validated.
    NewSubmission bare = SampleSubmission("g", "", "x");
    bare.side.clear();
    CHECK(repository->RecordSubmission(bare).status().code() == StatusCode::kInvalidArgument);
  }

  SECTION("turns: a turn commits only with the side's latest accepted submission") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    NewSubmission first = SampleSubmission("g", "", "revision 1");
    first.side = "france";
    auto one = repository->RecordSubmission(first);
    // Resolved as missed, or with no submission: an accepted one is waiting.
    Result<CommittedTurn> missed = repository->CommitTurn(SampleTurn("g", 1, "france", 0));
    CHECK(missed.status().code() == StatusCode::kFailedPrecondition);
    first.raw = "revision 2";
    auto two = repository->RecordSubmission(first);
    TurnCommit with_one = SampleTurn("g", 1, "france", 0);
    with_one.played_submission = one->id;
    CHECK(repository->CommitTurn(with_one).status().code() == StatusCode::kFailedPrecondition);
    TurnCommit with_two = with_one;
    with_two.played_submission = two->id;
    with_two.end = Ending("france wins");
    REQUIRE(repository->CommitTurn(with_two).ok());
    CHECK(repository->GetGame("g")->turns_committed == 1);
    CHECK(repository->GetGame("g")->result == "france wins");
    REQUIRE(repository->GetGame("g")->ending.has_value());
    CHECK(repository->GetGame("g")->ending->turn == 1);
    // Ended in the same transaction: no turn after it.
    REQUIRE(repository->CreateGame(SampleGame("p")).ok());
    REQUIRE(repository->SetPaused("p", true, At(1'700'000'250'000)).ok());
    TurnCommit missed_while_paused = SampleTurn("p", 1, "france", 0);
    missed_while_paused.missed = true;
    CHECK(repository->CommitTurn(missed_while_paused).status().code() ==
          StatusCode::kFailedPrecondition);
    CHECK(repository->CommitTurn(SampleTurn("g", 1, "russia", 1)).status().code() ==
          StatusCode::kFailedPrecondition);
  }

  SECTION("games: the pinned ruleset, scenario and initial state read back byte for byte") {
    auto repository = Open(*harness);
    NewGame game = SampleGame("g");
    game.ruleset_proto = kBinary + "ruleset";
    game.scenario_proto = "scenario" + kBinary;
    REQUIRE(repository->CreateGame(game).ok());
    REQUIRE(repository->CommitTurn(SampleTurn("g", 1, "france", 0)).ok());
    Result<Game> stored = Open(*harness)->GetGame("g");
    REQUIRE(stored.ok());
    CHECK(stored->ruleset_proto == kBinary + "ruleset");
    CHECK(stored->scenario_proto == "scenario" + kBinary);
    CHECK(stored->initial_state == Bytes("state-0\x00\xff", 9));
    CHECK(stored->state == "state after france1");
  }

  SECTION("open turns: the seed is stored before any order and the first one wins") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    CHECK(repository->GetOpenTurn("g", 1, "france").status().code() == StatusCode::kNotFound);
    OpenTurn open{"g", 1, "france", 0, kBinary, "commitment 1", At(1'700'000'000'500)};
    Result<OpenTurn> recorded = repository->RecordOpenTurn(open);
    INFO(recorded.status().ToString());
    REQUIRE(recorded.ok());
    CHECK(recorded->dice_seed == kBinary);
    CHECK(recorded->dice_commitment == "commitment 1");

    // A second opening (a restart drawing a new seed) gets the published one back.
    OpenTurn again = open;
    again.dice_seed = "another seed";
    again.dice_commitment = "commitment 2";
    Result<OpenTurn> second = Open(*harness)->RecordOpenTurn(again);
    REQUIRE(second.ok());
    CHECK(second->dice_seed == kBinary);
    CHECK(second->dice_commitment == "commitment 1");
    CHECK(second->opened_at == At(1'700'000'000'500));
    Result<OpenTurn> read = Open(*harness)->GetOpenTurn("g", 1, "france");
    REQUIRE(read.ok());
    CHECK(read->dice_seed == kBinary);
    CHECK(read->based_on == 0);

    // Committing the turn with dice other than those committed to is refused.
    TurnCommit wrong = SampleTurn("g", 1, "france", 0);
    wrong.dice_seed = "another seed";
    Result<CommittedTurn> refused = repository->CommitTurn(wrong);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.status().code() == StatusCode::kFailedPrecondition);
    CHECK_THAT(refused.status().message(), Catch::Contains("another dice seed"));
    CHECK(repository->GetGame("g")->turns_committed == 0);
    REQUIRE(repository->CommitTurn(SampleTurn("g", 1, "france", 0)).ok());
    CHECK(repository->GetGame("g")->turns_committed == 1);
  }

  SECTION("open turns: bad openings are refused and store nothing") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    OpenTurn open{"g", 1, "france", 0, kBinary, "c", At(1)};
    OpenTurn no_game = open;
    no_game.game_id = "nope";
    CHECK(repository->RecordOpenTurn(no_game).status().code() == StatusCode::kNotFound);
    OpenTurn empty_seed = open;
    empty_seed.dice_seed.clear();
    CHECK(repository->RecordOpenTurn(empty_seed).status().code() == StatusCode::kInvalidArgument);
    OpenTurn stale = open;
    stale.based_on = 4;
    Result<OpenTurn> refused = repository->RecordOpenTurn(stale);
    CHECK(refused.status().code() == StatusCode::kFailedPrecondition);
    CHECK_THAT(refused.status().message(), Catch::Contains("game g"));
    CHECK(repository->GetOpenTurn("g", 1, "france").status().code() == StatusCode::kNotFound);
    CHECK(repository->GetOpenTurn("nope", 1, "france").status().code() == StatusCode::kNotFound);
  }

  SECTION("import: a whole game in one transaction, all of it or nothing") {
    auto repository = Open(*harness);
    std::vector<TurnCommit> turns = {SampleTurn("g", 1, "france", 0),
                                     SampleTurn("g", 1, "russia", 1),
                                     SampleTurn("g", 2, "france", 2)};
    turns[0].mails.push_back(SampleMail("nap@example.org", 0));  // ignored by an import
    REQUIRE(repository->ImportGame(SampleGame("g"), turns).ok());
    auto other = Open(*harness);
    Result<Game> game = other->GetGame("g");
    REQUIRE(game.ok());
    CHECK(game->turns_committed == 3);
    CHECK(game->state == "state after france2");
    CHECK(game->initial_state == Bytes("state-0\x00\xff", 9));
    Result<std::vector<Turn>> stored = other->ListTurns("g");
    REQUIRE(stored.ok());
    REQUIRE(stored->size() == 3);
    CHECK((*stored)[1].side == "russia");
    CHECK((*stored)[2].sequence == 3);
    CHECK((*stored)[2].dice_seed == kBinary);
    Result<OpenTurn> open = other->GetOpenTurn("g", 1, "russia");
    REQUIRE(open.ok());
    CHECK(open->dice_commitment == "commitment 1");
    CHECK(open->based_on == 1);
    CHECK(other->DueMail(At(1), 10)->empty());
    CHECK(repository->ImportGame(SampleGame("g"), turns).code() == StatusCode::kAlreadyExists);

    // A turn that fails in the database (the same turn twice) leaves no game behind.
    std::vector<TurnCommit> broken = {SampleTurn("h", 1, "france", 0),
                                      SampleTurn("h", 1, "france", 1)};
    Status failed = repository->ImportGame(SampleGame("h"), broken);
    CHECK(failed.code() == StatusCode::kIoError);
    CHECK(repository->GetGame("h").status().code() == StatusCode::kNotFound);
    CHECK(repository->ListTurns("h")->empty());
    // Turns out of order are refused before anything is stored.
    std::vector<TurnCommit> gap = {SampleTurn("k", 1, "france", 0),
                                   SampleTurn("k", 2, "france", 5)};
    CHECK(repository->ImportGame(SampleGame("k"), gap).code() == StatusCode::kInvalidArgument);
    CHECK(repository->GetGame("k").status().code() == StatusCode::kNotFound);
    // The failed imports did not break the store: the game ids are still free.
    REQUIRE(repository->ImportGame(SampleGame("h"), {SampleTurn("h", 1, "france", 0)}).ok());
    CHECK(repository->GetGame("h")->turns_committed == 1);
  }

  SECTION("turns: a commit stores the turn and moves the game to its next state") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    TurnCommit commit = SampleTurn("g", 1, "france", 0);
    commit.mails.push_back(SampleMail("nap@example.org", 1'700'000'200'000));
    commit.mails.push_back(SampleMail("kutuzov@example.org", 1'700'000'200'000));
    Result<CommittedTurn> committed = repository->CommitTurn(commit);
    INFO(committed.status().ToString());
    REQUIRE(committed.ok());
    CHECK_FALSE(committed->replayed);
    CHECK(committed->turn.sequence == 1);
    CHECK(committed->turn.orders == "orders france1");
    CHECK(committed->turn.dice_seed == kBinary);
    CHECK(committed->turn.dice_commitment == "commitment 1");
    CHECK(committed->turn.result == "result france1");
    CHECK(committed->turn.next_state == "state after france1");
    CHECK(committed->turn.committed_at == At(1'700'000'200'001));

    auto other = Open(*harness);
    Result<Game> game = other->GetGame("g");
    REQUIRE(game.ok());
    CHECK(game->state == "state after france1");
    CHECK(game->turns_committed == 1);
    CHECK(other->DueMail(At(1'700'000'200'000), 10)->size() == 2);

    REQUIRE(repository->CommitTurn(SampleTurn("g", 1, "russia", 1)).ok());
    REQUIRE(repository->CommitTurn(SampleTurn("g", 2, "france", 2)).ok());
    Result<std::vector<Turn>> turns = other->ListTurns("g");
    REQUIRE(turns.ok());
    REQUIRE(turns->size() == 3);
    CHECK((*turns)[0].side == "france");
    CHECK((*turns)[1].side == "russia");
    CHECK((*turns)[1].turn == 1);
    CHECK((*turns)[2].turn == 2);
    CHECK((*turns)[2].sequence == 3);
    CHECK((*turns)[2].dice_seed == kBinary);
    CHECK(other->GetGame("g")->state == "state after france2");
    CHECK(other->GetGame("g")->turns_committed == 3);
  }

  SECTION("turns: a commit opens the next turn in the same transaction, or nothing") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    TurnCommit commit = SampleTurn("g", 1, "france", 0);
    commit.next_open = OpenTurn{"g", 1, "russia", 1, "next-seed", "next-commitment", At(7)};
    // A next turn based on the wrong count is refused and the turn is not stored either.
    TurnCommit wrong = commit;
    wrong.next_open->based_on = 0;
    CHECK(repository->CommitTurn(wrong).status().code() == StatusCode::kInvalidArgument);
    CHECK(repository->GetGame("g")->turns_committed == 0);
    CHECK(repository->ListTurns("g")->empty());
    CHECK(repository->GetOpenTurn("g", 1, "russia").status().code() == StatusCode::kNotFound);

    REQUIRE(repository->CommitTurn(commit).ok());
    auto other = Open(*harness);
    Result<OpenTurn> next = other->GetOpenTurn("g", 1, "russia");
    REQUIRE(next.ok());
    CHECK(next->dice_seed == "next-seed");
    CHECK(next->dice_commitment == "next-commitment");
    CHECK(next->based_on == 1);
    // A replayed commit with another next seed changes nothing: the first seed stays.
    commit.next_open->dice_seed = "other-seed";
    Result<CommittedTurn> again = repository->CommitTurn(commit);
    REQUIRE(again.ok());
    CHECK(again->replayed);
    CHECK(other->GetOpenTurn("g", 1, "russia")->dice_seed == "next-seed");
    // The next turn resolves with that seed only.
    TurnCommit next_commit = SampleTurn("g", 1, "russia", 1);
    next_commit.dice_seed = "other-seed";
    CHECK(repository->CommitTurn(next_commit).status().code() == StatusCode::kFailedPrecondition);
    next_commit.dice_seed = "next-seed";
    CHECK(repository->CommitTurn(next_commit).ok());
  }

  SECTION("scheduler: a game is listed only once due; a stored wake-up is a compare-and-set") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    auto listed = [&](std::int64_t at) {
      Result<std::vector<SchedulableGame>> games = repository->ListSchedulableGames(At(at));
      REQUIRE(games.ok());
      return games->size() == 1 && games->front().id == "g";
    };
    // A new game is due at once: its turn is to be opened.
    Result<GameWake> wake = repository->GetWake("g");
    REQUIRE(wake.ok());
    CHECK(wake->due == At(0));
    CHECK(listed(0));
    Result<bool> stored = repository->SetWake("g", wake->sequence, At(5'000));
    REQUIRE(stored.ok());
    CHECK(*stored);
    CHECK_FALSE(listed(4'999));
    CHECK(listed(5'000));
    CHECK(repository->GetWake("g")->due == At(5'000));
    // The sequence read before has moved: a second store with it is refused, nothing changed.
    CHECK_FALSE(*repository->SetWake("g", wake->sequence, std::nullopt));
    CHECK(repository->GetWake("g")->due == At(5'000));
    // No wake-up: only a write makes it due.
    REQUIRE(*repository->SetWake("g", repository->GetWake("g")->sequence, std::nullopt));
    CHECK_FALSE(repository->GetWake("g")->due.has_value());
    CHECK_FALSE(listed(1LL << 50));
    CHECK(repository->GetWake("nope").status().code() == StatusCode::kNotFound);
    CHECK(repository->SetWake("nope", 0, std::nullopt).status().code() == StatusCode::kNotFound);
    // A process starts: every game with no result is due (its settings may have changed).
    REQUIRE(repository->CreateGame(SampleGame("ended")).ok());
    REQUIRE(*repository->EndGame("ended", 0, Ending("france wins"), At(1'000), {}));
    REQUIRE(*repository->SetWake("ended", repository->GetWake("ended")->sequence, std::nullopt));
    REQUIRE(repository->MarkAllGamesDue().ok());
    CHECK(listed(0));  // `g` alone: the ended game stays asleep
    CHECK_FALSE(repository->GetWake("ended")->due.has_value());
  }

  SECTION("scheduler: every kind of write to a game makes it due, whoever writes it") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    REQUIRE(repository->CreateGame(SampleGame("other")).ok());
    NewPlayer player{"g", "france", "anna@example.org", "secret"};
    // Puts both games to sleep, runs `write`, then `g` alone must be due, with a new sequence.
    auto check_write = [&](const std::string& what, const std::function<void()>& write) {
      INFO(what);
      for (const char* id : {"g", "other"}) {
        REQUIRE(*repository->SetWake(id, repository->GetWake(id)->sequence, std::nullopt));
      }
      const std::int64_t before = repository->GetWake("g")->sequence;
      REQUIRE(repository->ListSchedulableGames(At(1LL << 50))->empty());
      write();
      Result<std::vector<SchedulableGame>> due = repository->ListSchedulableGames(At(1LL << 50));
      REQUIRE(due.ok());
      REQUIRE(due->size() == 1);
      CHECK(due->front().id == "g");
      CHECK(repository->GetWake("g")->sequence != before);
      CHECK(repository->GetWake("g")->due == At(0));
    };
    check_write("a player joins", [&] { REQUIRE(repository->AddPlayer(player).ok()); });
    check_write("a turn is opened", [&] {
      REQUIRE(repository->RecordOpenTurn({"g", 1, "france", 0, kBinary, "c1", At(1'000)}).ok());
    });
    check_write("an order is accepted", [&] {
      // For a side the commit below does not play (a later order of the side it plays would
      // refuse that commit).
      REQUIRE(repository->RecordSubmission(SampleSubmission("g", "<a@x>", "orders")).ok());
    });
    check_write("an order is refused", [&] {
      NewSubmission refused = SampleSubmission("g", "<b@x>", "nonsense");
      refused.accepted = false;
      refused.side = "";
      refused.orders = "";
      refused.reason = "not understood";
      REQUIRE(repository->RecordSubmission(refused).ok());
    });
    check_write("the side is reminded", [&] {
      REQUIRE(*repository->RecordReminder("g", 1, "france", At(2'000), SampleMail("a@x", 0)));
    });
    check_write("the organiser extends the deadline",
                [&] { REQUIRE(*repository->ExtendDeadline("g", 0, std::chrono::hours(24), {})); });
    check_write("the game is paused",
                [&] { REQUIRE(repository->SetPaused("g", true, At(3'000)).ok()); });
    check_write("the game is resumed",
                [&] { REQUIRE(repository->SetPaused("g", false, At(4'000)).ok()); });
    check_write("a turn is committed", [&] {
      TurnCommit commit = SampleTurn("g", 1, "france", 0);
      commit.missed = true;
      REQUIRE(repository->CommitTurn(commit).ok());
    });
    check_write("the turn job fails",
                [&] { REQUIRE(repository->RecordTurnFailure(FailureAt("g", 5'000, false)).ok()); });
    check_write("its failures are cleared",
                [&] { REQUIRE(repository->ClearTurnFailures("g").ok()); });
    check_write("the game is stuck, then retried", [&] {
      REQUIRE(repository->RecordTurnFailure(FailureAt("g", 6'000, true)).ok());
      CHECK(repository->ListSchedulableGames(At(1LL << 50))->empty());  // stuck: never listed
      REQUIRE(repository->RetryStuckGame("g", At(7'000)).ok());
    });
    // Behind the repository's back (a league command, a future writer, an operator's SQL): the
    // store itself keeps the rule.
    check_write("the game's row is changed by SQL", [&] {
      harness->ExecuteSql("UPDATE games SET turn_timeout_s = 60 WHERE id = 'g'");
    });
    check_write("a player's row is changed by SQL", [&] {
      harness->ExecuteSql("UPDATE players SET mail_address = 'b@x' WHERE game_id = 'g'");
    });
    check_write("the game ends", [&] {
      REQUIRE(*repository->EndGame("g", 1, Ending("france wins"), At(8'000), {}));
    });
  }

  SECTION("scheduler: a version 15 store's games are due once (migration 16)") {
    {
      auto repository = Open(*harness);
      REQUIRE(repository->CreateGame(SampleGame("old")).ok());
    }
    DropMigration17(*harness);
    DropMigration16(*harness);
    auto repository = Open(*harness);
    CHECK(*repository->SchemaVersion() == 17);
    Result<std::vector<SchedulableGame>> due = repository->ListSchedulableGames(At(0));
    REQUIRE(due.ok());
    REQUIRE(due->size() == 1);
    CHECK(due->front().id == "old");
    // The triggers came with it: a write after the scheduler put it to sleep wakes it.
    REQUIRE(*repository->SetWake("old", repository->GetWake("old")->sequence, std::nullopt));
    CHECK(repository->ListSchedulableGames(At(0))->empty());
    REQUIRE(repository->SetPaused("old", true, At(1'000)).ok());
    CHECK(repository->ListSchedulableGames(At(0))->size() == 1);
  }

  SECTION("scheduler: failed turns back off, then the game is stuck once, mails in the commit") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("a")).ok());
    REQUIRE(repository->CreateGame(SampleGame("b")).ok());
    auto ids = [](const std::vector<SchedulableGame>& games) {
      std::vector<std::string> out;
      for (const SchedulableGame& g : games) out.push_back(g.id);
      return out;
    };
    Result<std::vector<SchedulableGame>> all = repository->ListSchedulableGames(At(1'000));
    REQUIRE(all.ok());
    CHECK(ids(*all) == std::vector<std::string>{"a", "b"});
    CHECK(all->front().turn_failures == 0);

    TurnFailure failure;
    failure.game_id = "a";
    failure.error = "INTERNAL: the state does not parse";
    failure.at = At(1'000);
    failure.retry_at = At(1'500);
    Result<std::int64_t> counted = repository->RecordTurnFailure(failure);
    REQUIRE(counted.ok());
    CHECK(*counted == 1);
    // Backing off: not schedulable before retry_at, by the query itself.
    CHECK(ids(*repository->ListSchedulableGames(At(1'499))) == std::vector<std::string>{"b"});
    Result<std::vector<SchedulableGame>> later = repository->ListSchedulableGames(At(1'500));
    REQUIRE(later->size() == 2);
    CHECK(later->front().turn_failures == 1);
    // A compare-and-set: a count read before this failure is refused, nothing changed.
    CHECK(repository->RecordTurnFailure(failure).status().code() ==
          StatusCode::kFailedPrecondition);
    failure.game_id = "nope";
    CHECK(repository->RecordTurnFailure(failure).status().code() == StatusCode::kNotFound);

    // A success clears the count.
    REQUIRE(repository->ClearTurnFailures("a").ok());
    CHECK(repository->ListSchedulableGames(At(1'000))->front().turn_failures == 0);
    CHECK(repository->ClearTurnFailures("nope").code() == StatusCode::kNotFound);

    // The failure that makes it stuck: stuck from `at`, its mails enqueued with it.
    failure.game_id = "a";
    failure.failures_before = 0;
    failure.stuck = true;
    failure.at = At(2'000);
    failure.retry_at = At(2'500);
    failure.error = "INTERNAL: still broken";
    failure.mails = {SampleMail("anna@example.org", 2'000), SampleMail("ben@example.org", 2'000)};
    REQUIRE(repository->RecordTurnFailure(failure).ok());
    CHECK(repository->DueMail(At(3'000), 10)->size() == 2);
    auto other = Open(*harness);  // what every process sharing the store sees
    CHECK(ids(*other->ListSchedulableGames(At(1'000'000))) == std::vector<std::string>{"b"});
    Result<std::vector<StuckGame>> stuck = other->ListStuckGames();
    REQUIRE(stuck.ok());
    REQUIRE(stuck->size() == 1);
    CHECK(stuck->front().game_id == "a");
    CHECK(stuck->front().turn_failures == 1);
    CHECK(stuck->front().failed_at == At(2'000));
    CHECK(stuck->front().error == "INTERNAL: still broken");
    CHECK(stuck->front().turns_committed == 0);
    // Stuck once: no second failure, no second set of mails; a success does not free it.
    failure.failures_before = 1;
    CHECK(repository->RecordTurnFailure(failure).status().code() ==
          StatusCode::kFailedPrecondition);
    CHECK(repository->DueMail(At(3'000), 10)->size() == 2);
    REQUIRE(repository->ClearTurnFailures("a").ok());
    CHECK(other->ListStuckGames()->size() == 1);
  }

  SECTION("scheduler: a retried stuck game is scheduled again, its deadline moved by the wait") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    REQUIRE(repository->RecordOpenTurn({"g", 1, "france", 0, "seed", "c", At(100)}).ok());
    CHECK(repository->RetryStuckGame("g", At(500)).code() == StatusCode::kFailedPrecondition);
    CHECK(repository->RetryStuckGame("nope", At(500)).code() == StatusCode::kNotFound);
    TurnFailure failure = FailureAt("g", 1'000, true);
    failure.retry_at = At(60'000);
    REQUIRE(repository->RecordTurnFailure(failure).ok());
    REQUIRE(repository->RetryStuckGame("g", At(8'000)).ok());
    CHECK(repository->ListStuckGames()->empty());
    Result<std::vector<SchedulableGame>> games = repository->ListSchedulableGames(At(8'000));
    REQUIRE(games->size() == 1);
    CHECK(games->front().turn_failures == 0);
    // Stuck from 1 s to 8 s: the turn's deadline moves 7 s, as a pause would.
    CHECK(repository->GetOpenTurn("g", 1, "france")->paused == std::chrono::milliseconds(7'000));
    CHECK(repository->RetryStuckGame("g", At(9'000)).code() == StatusCode::kFailedPrecondition);
  }

  SECTION("scheduler: a version 13 store gains the failure columns (migration 14)") {
    {
      auto repository = Open(*harness);
      REQUIRE(repository->CreateGame(SampleGame("old")).ok());
    }
    DropMigration17(*harness);
    DropMigration16(*harness);
    DropMigration15(*harness);
    DropMigration14(*harness);
    auto repository = Open(*harness);
    CHECK(*repository->SchemaVersion() == 17);
    Result<std::vector<SchedulableGame>> games = repository->ListSchedulableGames(At(0));
    REQUIRE(games.ok());
    REQUIRE(games->size() == 1);
    CHECK(games->front().id == "old");
    CHECK(games->front().turn_failures == 0);
    CHECK(repository->ListStuckGames()->empty());
  }

  SECTION("scheduler: a pause moves the open turn's deadline by the time it stood still") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    REQUIRE(repository->RecordOpenTurn({"g", 1, "france", 0, "seed", "c", At(100)}).ok());
    CHECK_FALSE(repository->GetGame("g")->paused_at.has_value());
    REQUIRE(repository->SetPaused("g", true, At(1'000)).ok());
    REQUIRE(repository->SetPaused("g", true, At(2'000)).ok());  // already paused: the first stays
    auto other = Open(*harness);
    REQUIRE(other->GetGame("g")->paused_at.has_value());
    CHECK(*other->GetGame("g")->paused_at == At(1'000));
    REQUIRE(repository->SetPaused("g", false, At(4'000)).ok());
    CHECK_FALSE(other->GetGame("g")->paused_at.has_value());
    CHECK(other->GetOpenTurn("g", 1, "france")->paused == std::chrono::milliseconds(3'000));
    REQUIRE(repository->SetPaused("g", false, At(9'000)).ok());  // running: nothing changes
    CHECK(other->GetOpenTurn("g", 1, "france")->paused == std::chrono::milliseconds(3'000));
    CHECK(repository->SetPaused("nope", true, At(1)).code() == StatusCode::kNotFound);
  }

  SECTION("scheduler: an extension moves the open turn's deadline, re-arms its reminder, mails") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    REQUIRE(repository->RecordOpenTurn({"g", 1, "france", 0, "seed", "c", At(100)}).ok());
    REQUIRE(
        *repository->RecordReminder("g", 1, "france", At(200), SampleMail("nap@example.org", 5)));
    const std::vector<NewMail> mails = {SampleMail("nap@example.org", 6),
                                        SampleMail("alex@example.org", 6)};
    Result<bool> extended =
        repository->ExtendDeadline("g", 0, std::chrono::milliseconds(7'200'000), mails);
    REQUIRE(extended.ok());
    CHECK(*extended);
    auto other = Open(*harness);
    Result<OpenTurn> open = other->GetOpenTurn("g", 1, "france");
    REQUIRE(open.ok());
    CHECK(open->paused == std::chrono::milliseconds(7'200'000));
    CHECK_FALSE(open->reminded_at.has_value());  // reminded again before the new deadline
    CHECK(other->DueMail(At(1'000'000'000'000), 10)->size() == 3);
    // A stale turn (the game moved on), an unopened turn, a bad extension: nothing changes.
    Result<bool> stale = repository->ExtendDeadline("g", 1, std::chrono::milliseconds(1), mails);
    REQUIRE(stale.ok());
    CHECK_FALSE(*stale);
    REQUIRE(repository->CreateGame(SampleGame("h")).ok());
    Result<bool> unopened = repository->ExtendDeadline("h", 0, std::chrono::milliseconds(1), mails);
    REQUIRE(unopened.ok());
    CHECK_FALSE(*unopened);
    CHECK(repository->ExtendDeadline("g", 0, std::chrono::milliseconds(0), mails).status().code() ==
          StatusCode::kInvalidArgument);
    CHECK(repository->ExtendDeadline("nope", 0, std::chrono::milliseconds(1), mails)
              .status()
              .code() == StatusCode::kNotFound);
    CHECK(other->GetOpenTurn("g", 1, "france")->paused == std::chrono::milliseconds(7'200'000));
    CHECK(other->DueMail(At(1'000'000'000'000), 10)->size() == 3);
    // An ended game has no deadline to move.
    REQUIRE(*repository->EndGame("g", repository->GetGame("g")->turns_committed,
                                 Ending("france wins"), At(300), {}));
    Result<bool> ended = repository->ExtendDeadline("g", 0, std::chrono::milliseconds(1), mails);
    REQUIRE(ended.ok());
    CHECK_FALSE(*ended);
  }

  SECTION("scheduler: a reminder is recorded and its mail queued once") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    REQUIRE(repository->RecordOpenTurn({"g", 1, "france", 0, "seed", "c", At(100)}).ok());
    CHECK_FALSE(repository->GetOpenTurn("g", 1, "france")->reminded_at.has_value());
    Result<bool> first =
        repository->RecordReminder("g", 1, "france", At(200), SampleMail("nap@example.org", 5));
    REQUIRE(first.ok());
    CHECK(*first);
    Result<bool> second =
        repository->RecordReminder("g", 1, "france", At(300), SampleMail("nap@example.org", 5));
    REQUIRE(second.ok());
    CHECK_FALSE(*second);
    auto other = Open(*harness);
    CHECK(other->DueMail(At(1'000'000'000'000), 10)->size() == 1);
    CHECK(*other->GetOpenTurn("g", 1, "france")->reminded_at == At(200));
    CHECK(
        repository->RecordReminder("g", 1, "russia", At(1), SampleMail("a@b", 5)).status().code() ==
        StatusCode::kNotFound);
  }

  SECTION("scheduler: missed turns are counted per player with the commit") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    REQUIRE(repository->AddPlayer({"g", "france", "nap@example.org", "secret-f"}).ok());
    REQUIRE(repository->AddPlayer({"g", "russia", "kutuzov@example.org", "secret-r"}).ok());
    TurnCommit missed = SampleTurn("g", 1, "france", 0);
    missed.missed = true;
    REQUIRE(repository->CommitTurn(missed).ok());
    REQUIRE(repository->CommitTurn(missed).ok());  // a replay counts nothing
    REQUIRE(repository->CommitTurn(SampleTurn("g", 1, "russia", 1)).ok());
    TurnCommit again = SampleTurn("g", 2, "france", 2);
    again.missed = true;
    REQUIRE(repository->CommitTurn(again).ok());
    auto players = Open(*harness)->ListPlayers("g");
    REQUIRE(players->size() == 2);
    CHECK((*players)[0].missed_turns == 2);
    CHECK((*players)[1].missed_turns == 0);
  }

  SECTION("scheduler: a game ends once, with its result and mails") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    CHECK(repository->GetGame("g")->result.empty());
    CHECK_FALSE(repository->GetGame("g")->ending.has_value());
    GameEnding forfeit = Ending("russia wins: france forfeited");
    forfeit.kind = GameEndKind::kForfeit;
    forfeit.winner = "russia";
    forfeit.level = "total";
    forfeit.by_organiser = true;
    forfeit.turn = 42;  // ignored: the store sets it
    Result<bool> ended =
        repository->EndGame("g", 0, forfeit, At(50), {SampleMail("nap@example.org", 5)});
    REQUIRE(ended.ok());
    CHECK(*ended);
    CHECK_FALSE(
        *repository->EndGame("g", 0, Ending("france wins"), At(60), {SampleMail("x@y", 5)}));
    auto other = Open(*harness);
    Result<Game> game = other->GetGame("g");
    CHECK(game->result == "russia wins: france forfeited");
    REQUIRE(game->ending.has_value());
    CHECK(game->ending->kind == GameEndKind::kForfeit);
    CHECK(game->ending->winner == "russia");
    CHECK(game->ending->level == "total");
    CHECK(game->ending->by_organiser);
    CHECK(game->ending->turn == 0);
    CHECK(game->ending->text == game->result);
    CHECK(other->DueMail(At(1'000'000'000'000), 10)->size() == 1);
    CHECK(repository->EndGame("g", 0, Ending(""), At(1), {}).status().code() ==
          StatusCode::kInvalidArgument);
    CHECK(repository->EndGame("nope", 0, Ending("x"), At(1), {}).status().code() ==
          StatusCode::kNotFound);
  }

  SECTION("scheduler: EndGame is a compare-and-set on the turns the caller read") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    REQUIRE(repository->CommitTurn(SampleTurn("g", 1, "france", 0)).ok());
    // Read at 0 turns, a turn committed since: refused, nothing stored, no mail.
    Result<bool> stale =
        repository->EndGame("g", 0, Ending("late"), At(50), {SampleMail("nap@example.org", 5)});
    CHECK(stale.status().code() == StatusCode::kFailedPrecondition);
    CHECK_THAT(stale.status().message(), Catch::Contains("moved on"));
    CHECK(repository->GetGame("g")->result.empty());
    CHECK_FALSE(repository->GetGame("g")->ending.has_value());
    CHECK(repository->DueMail(At(1'000'000'000'000), 10)->empty());
    CHECK(repository->EndGame("g", 2, Ending("ahead"), At(50), {}).status().code() ==
          StatusCode::kFailedPrecondition);
    // Read where it is: ended, at that turn.
    REQUIRE(*repository->EndGame("g", 1, Ending("in time"), At(60), {}));
    CHECK(repository->GetGame("g")->ending->turn == 1);
    // Ended: a stale caller is told it is over (false), not that it moved on.
    CHECK_FALSE(*repository->EndGame("g", 0, Ending("late"), At(70), {}));
  }

  SECTION("schema: games ended before version 11 get their ending as a value (migration 11)") {
    {
      auto repository = Open(*harness);
      for (const char* id : {"resigned", "forfeit", "nowinner", "other", "running"}) {
        REQUIRE(repository->CreateGame(SampleGame(id)).ok());
      }
    }
    DropMigration17(*harness);
    DropMigration16(*harness);
    DropMigration15(*harness);
    DropMigration14(*harness);
    DropMigration13(*harness);
    DropMigration12(*harness);
    DropMigration11(*harness);
    // The only sentences pbemd wrote before (league ResignationResult, the forfeit).
    harness->ExecuteSql(
        "UPDATE games SET result = 'orange wins: blue resigned' WHERE id = 'resigned'");
    harness->ExecuteSql(
        "UPDATE games SET result = 'blue wins: orange forfeited after missing 3 turns', "
        "turns_committed = 7 WHERE id = 'forfeit'");
    harness->ExecuteSql(
        "UPDATE games SET result = 'no winner: blue forfeited after missing 3 turns' "
        "WHERE id = 'nowinner'");
    harness->ExecuteSql("UPDATE games SET result = 'orange resigned' WHERE id = 'other'");
    auto repository = Open(*harness);
    CHECK(*repository->SchemaVersion() == 17);
    const auto ending = [&](const char* id) { return repository->GetGame(id)->ending; };
    REQUIRE(ending("resigned").has_value());
    CHECK(ending("resigned")->kind == GameEndKind::kResigned);
    CHECK(ending("resigned")->winner == "orange");
    CHECK(ending("resigned")->level == "total");
    CHECK(ending("resigned")->text == "orange wins: blue resigned");
    REQUIRE(ending("forfeit").has_value());
    CHECK(ending("forfeit")->kind == GameEndKind::kForfeit);
    CHECK(ending("forfeit")->winner == "blue");
    CHECK(ending("forfeit")->turn == 7);
    REQUIRE(ending("nowinner").has_value());
    CHECK(ending("nowinner")->kind == GameEndKind::kForfeit);
    CHECK(ending("nowinner")->winner.empty());
    REQUIRE(ending("other").has_value());
    CHECK(ending("other")->kind == GameEndKind::kDraw);
    CHECK_FALSE(ending("other")->by_organiser);
    CHECK_FALSE(ending("running").has_value());
  }

  SECTION("scheduler: concurrent reminders and endings (several instances) act once") {
    {
      auto repository = Open(*harness);
      REQUIRE(repository->CreateGame(SampleGame("g")).ok());
      REQUIRE(repository->RecordOpenTurn({"g", 1, "france", 0, "seed", "c", At(100)}).ok());
    }
    constexpr int kInstances = 4;
    std::vector<std::unique_ptr<GameRepository>> instances;
    for (int i = 0; i < kInstances; ++i) instances.push_back(Open(*harness));
    std::vector<Result<bool>> reminded(kInstances, Status::Internal("not run"));
    std::vector<Result<bool>> ended(kInstances, Status::Internal("not run"));
    std::vector<std::thread> threads;
    for (int i = 0; i < kInstances; ++i) {
      threads.emplace_back([&, i] {
        reminded[i] = instances[i]->RecordReminder("g", 1, "france", At(200 + i),
                                                   SampleMail("remind@example.org", 5));
        ended[i] = instances[i]->EndGame("g", 0, Ending("ended by " + std::to_string(i)),
                                         At(300 + i), {SampleMail("end@example.org", 5)});
      });
    }
    for (std::thread& t : threads) t.join();
    int reminders = 0, endings = 0, winner = -1;
    for (int i = 0; i < kInstances; ++i) {
      INFO("instance " << i << ": " << reminded[i].status().ToString() << " / "
                       << ended[i].status().ToString());
      REQUIRE(reminded[i].ok());
      REQUIRE(ended[i].ok());
      if (*reminded[i]) ++reminders;
      if (*ended[i]) {
        ++endings;
        winner = i;
      }
    }
    CHECK(reminders == 1);
    CHECK(endings == 1);
    auto reader = Open(*harness);
    CHECK(reader->GetGame("g")->result == "ended by " + std::to_string(winner));
    std::vector<OutboxMail> mails = *reader->DueMail(At(1'000'000'000'000), 100);
    REQUIRE(mails.size() == 2);  // one reminder, one end-of-game mail
    CHECK(mails[0].recipient != mails[1].recipient);
  }

  SECTION("turns: committing the same (game, turn, side) twice stores it once") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    TurnCommit commit = SampleTurn("g", 1, "france", 0);
    commit.mails.push_back(SampleMail("nap@example.org", 0));
    REQUIRE(repository->CommitTurn(commit).ok());

    // A retry from another process, with different bytes: the first commit wins.
    TurnCommit retry = commit;
    retry.result = "a different result";
    retry.next_state = "a different state";
    retry.committed_at = At(1'800'000'000'000);
    Result<CommittedTurn> again = Open(*harness)->CommitTurn(retry);
    REQUIRE(again.ok());
    CHECK(again->replayed);
    CHECK(again->turn.result == "result france1");
    CHECK(again->turn.next_state == "state after france1");
    CHECK(again->turn.sequence == 1);
    CHECK(again->turn.committed_at == At(1'700'000'200'001));

    CHECK(repository->ListTurns("g")->size() == 1);
    CHECK(repository->GetGame("g")->state == "state after france1");
    CHECK(repository->GetGame("g")->turns_committed == 1);
    CHECK(repository->DueMail(At(1), 10)->size() == 1);  // the mails were not enqueued twice

    // A replay is recognised even after the game has moved on.
    REQUIRE(repository->CommitTurn(SampleTurn("g", 1, "russia", 1)).ok());
    Result<CommittedTurn> late = repository->CommitTurn(commit);
    REQUIRE(late.ok());
    CHECK(late->replayed);
    CHECK(repository->GetGame("g")->state == "state after russia1");
  }

  SECTION("turns: a turn resolved from a stale state is refused and changes nothing") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    REQUIRE(repository->CommitTurn(SampleTurn("g", 1, "france", 0)).ok());
    TurnCommit stale = SampleTurn("g", 1, "russia", 0);
    stale.mails.push_back(SampleMail("kutuzov@example.org", 0));
    Result<CommittedTurn> refused = repository->CommitTurn(stale);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.status().code() == StatusCode::kFailedPrecondition);
    CHECK_THAT(refused.status().message(), Catch::Contains("game g"));
    CHECK(repository->ListTurns("g")->size() == 1);
    CHECK(repository->GetGame("g")->state == "state after france1");
    CHECK(repository->DueMail(At(1), 10)->empty());
    CHECK(repository->CommitTurn(SampleTurn("nope", 1, "france", 0)).status().code() ==
          StatusCode::kNotFound);
  }

  SECTION("turns: a commit that fails midway leaves nothing behind") {
    auto repository = Open(*harness);
    REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    // Break the last write of the transaction: the attachment rows of the turn's mail.
    harness->ExecuteSql("DROP TABLE outbox_attachments");
    TurnCommit commit = SampleTurn("g", 1, "france", 0);
    NewMail mail = SampleMail("nap@example.org", 0);
    mail.attachments.push_back({"map.png", "image/png", kBinary});
    commit.mails.push_back(mail);
    Result<CommittedTurn> failed = repository->CommitTurn(commit);
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.status().code() == StatusCode::kIoError);
    CHECK_THAT(failed.status().message(), Catch::Contains("turn 1 of side france of game g"));
    // The same instance is still usable, and sees the game exactly as before.
    Result<Game> game = repository->GetGame("g");
    REQUIRE(game.ok());
    CHECK(game->turns_committed == 0);
    CHECK(game->state == Bytes("state-0\x00\xff", 9));
    CHECK(repository->ListTurns("g")->empty());
    CHECK(Open(*harness)->ListTurns("g")->empty());
    // Without the attachment the same turn now commits, as new.
    commit.mails.clear();
    Result<CommittedTurn> retried = repository->CommitTurn(commit);
    REQUIRE(retried.ok());
    CHECK_FALSE(retried->replayed);
  }

  SECTION("turns and submissions: concurrent writers on one store store things once") {
    {
      auto repository = Open(*harness);
      REQUIRE(repository->CreateGame(SampleGame("g")).ok());
    }
    constexpr int kWriters = 4;
    std::vector<std::unique_ptr<GameRepository>> writers;
    for (int i = 0; i < kWriters; ++i) writers.push_back(Open(*harness));
    std::vector<Result<CommittedTurn>> commits(kWriters, Status::Internal("not run"));
    std::vector<Result<RecordedSubmission>> records(kWriters, Status::Internal("not run"));
    std::vector<std::thread> threads;
    for (int i = 0; i < kWriters; ++i) {
      threads.emplace_back([&, i] {
        records[i] = writers[i]->RecordSubmission(SampleSubmission("g", "<same@x>", "orders"));
        TurnCommit commit = SampleTurn("g", 1, "france", 0);
        commit.result = "from writer " + std::to_string(i);
        commits[i] = writers[i]->CommitTurn(commit);
      });
    }
    for (std::thread& t : threads) t.join();
    int new_turns = 0, new_submissions = 0;
    for (int i = 0; i < kWriters; ++i) {
      INFO("writer " << i << ": " << commits[i].status().ToString() << " / "
                     << records[i].status().ToString());
      REQUIRE(commits[i].ok());
      REQUIRE(records[i].ok());
      if (!commits[i]->replayed) ++new_turns;
      if (!records[i]->duplicate) ++new_submissions;
      CHECK(commits[i]->turn.result == commits[0]->turn.result);
      CHECK(records[i]->id == records[0]->id);
    }
    CHECK(new_turns == 1);
    CHECK(new_submissions == 1);
    auto reader = Open(*harness);
    CHECK(reader->ListTurns("g")->size() == 1);
    CHECK(reader->ListSubmissions("g")->size() == 1);
    CHECK(reader->GetGame("g")->turns_committed == 1);
  }

  SECTION("outbox: mails come due by next_try, with their attachments, until sent") {
    auto repository = Open(*harness);
    NewMail map = SampleMail("nap@example.org", 2000);
    map.attachments.push_back({"map.png", "image/png", kBinary});
    map.attachments.push_back({"empty.txt", "text/plain", ""});
    Result<std::int64_t> later = repository->EnqueueMail(map);
    Result<std::int64_t> sooner = repository->EnqueueMail(SampleMail("kutuzov@example.org", 1000));
    Result<std::int64_t> same_time = repository->EnqueueMail(SampleMail("third@example.org", 1000));
    REQUIRE(later.ok());
    REQUIRE(sooner.ok());
    REQUIRE(same_time.ok());

    CHECK(repository->DueMail(At(999), 10)->empty());
    Result<std::vector<OutboxMail>> due = repository->DueMail(At(2000), 10);
    REQUIRE(due.ok());
    REQUIRE(due->size() == 3);
    CHECK((*due)[0].id == *sooner);
    CHECK((*due)[1].id == *same_time);
    CHECK((*due)[2].id == *later);
    const OutboxMail& with_map = (*due)[2];
    CHECK(with_map.recipient == "nap@example.org");
    CHECK(with_map.subject == "Turn 3: your move");
    CHECK(with_map.body == "Orders are due.\n");
    REQUIRE(with_map.attachments.size() == 2);
    CHECK(with_map.attachments[0].filename == "map.png");
    CHECK(with_map.attachments[0].content_type == "image/png");
    CHECK(with_map.attachments[0].data == kBinary);
    CHECK(with_map.attachments[1].data.empty());
    CHECK(with_map.attempts == 0);
    CHECK_FALSE(with_map.sent_at.has_value());
    CHECK(repository->DueMail(At(2000), 1)->size() == 1);
    CHECK(repository->DueMail(At(2000), 0)->empty());

    REQUIRE(repository->MarkMailFailed(*sooner, At(5000), "451 try later").ok());
    REQUIRE(repository->MarkMailSent(*same_time, At(2100)).ok());
    auto other = Open(*harness);
    Result<std::vector<OutboxMail>> now_due = other->DueMail(At(2100), 10);
    REQUIRE(now_due->size() == 1);
    CHECK(now_due->front().id == *later);
    Result<OutboxMail> failed = other->GetMail(*sooner);
    REQUIRE(failed.ok());
    CHECK(failed->attempts == 1);
    CHECK(failed->next_try == At(5000));
    CHECK(failed->last_error == "451 try later");
    CHECK(other->DueMail(At(5000), 10)->size() == 2);

    REQUIRE(repository->MarkMailSent(*same_time, At(9999)).ok());
    CHECK(repository->GetMail(*same_time)->sent_at == At(2100));
    CHECK(repository->MarkMailFailed(*same_time, At(1), "x").code() ==
          StatusCode::kFailedPrecondition);
    CHECK(repository->MarkMailSent(987654, At(1)).code() == StatusCode::kNotFound);
    CHECK(repository->MarkMailFailed(987654, At(1), "x").code() == StatusCode::kNotFound);
    CHECK(repository->GetMail(987654).status().code() == StatusCode::kNotFound);
  }

  SECTION("outbox: a claim gives a due mail to one claimant until sent, failed or its lease ends") {
    auto a = Open(*harness);
    auto b = Open(*harness);
    Result<std::int64_t> first = a->EnqueueMail(SampleMail("one@example.org", 1000));
    Result<std::int64_t> second = a->EnqueueMail(SampleMail("two@example.org", 1000));
    Result<std::int64_t> later = a->EnqueueMail(SampleMail("later@example.org", 5000));
    REQUIRE(first.ok());
    REQUIRE(second.ok());
    REQUIRE(later.ok());

    Result<std::vector<OutboxMail>> claimed_a = a->ClaimDueMail(At(1000), 1, "pbemd-a", 10s);
    REQUIRE(claimed_a.ok());
    REQUIRE(claimed_a->size() == 1);
    CHECK(claimed_a->front().id == *first);
    CHECK(claimed_a->front().claimed_by == "pbemd-a");
    CHECK(claimed_a->front().claimed_until == At(11000));
    // b gets the other due mail only; the one claimed by a stays a's while its lease runs.
    Result<std::vector<OutboxMail>> claimed_b = b->ClaimDueMail(At(2000), 10, "pbemd-b", 10s);
    REQUIRE(claimed_b.ok());
    REQUIRE(claimed_b->size() == 1);
    CHECK(claimed_b->front().id == *second);
    CHECK(b->ClaimDueMail(At(10999), 10, "pbemd-b", 10s)->size() == 1);  // only `later`
    // DueMail still lists claimed mails (it is for looking, not for sending).
    CHECK(b->DueMail(At(2000), 10)->size() == 2);

    // Sent: the claim ends and claimed_by records the sender; never claimed again.
    REQUIRE(b->MarkMailSent(*second, At(2500)).ok());
    Result<OutboxMail> sent = a->GetMail(*second);
    CHECK(sent->claimed_by == "pbemd-b");
    CHECK_FALSE(sent->claimed_until.has_value());
    // Failed: the claim ends; the mail is due again at its next_try, for anyone.
    Result<OutboxMail> failing = a->GetMail(*later);
    REQUIRE(failing->claimed_by == "pbemd-b");
    REQUIRE(b->MarkMailFailed(*later, At(3000), "451 try later").ok());
    CHECK_FALSE(a->GetMail(*later)->claimed_until.has_value());
    // a's lease on `first` ends at 11000 (a died): then b gets it, and `later` too.
    Result<std::vector<OutboxMail>> taken_over = b->ClaimDueMail(At(11000), 10, "pbemd-b", 10s);
    REQUIRE(taken_over.ok());
    REQUIRE(taken_over->size() == 2);
    CHECK(taken_over->at(0).id == *first);  // next_try 1000
    CHECK(taken_over->at(0).claimed_by == "pbemd-b");
    CHECK(taken_over->at(1).id == *later);  // next_try 3000, after its failure

    CHECK(a->ClaimDueMail(At(1), 10, "", 10s).status().code() == StatusCode::kInvalidArgument);
    CHECK(a->ClaimDueMail(At(1), 10, "x", 0s).status().code() == StatusCode::kInvalidArgument);
    CHECK(a->ClaimDueMail(At(99999), 0, "x", 1s)->empty());
  }

  SECTION("outbox: a dead letter is never due, is kept, and comes back only when requeued") {
    auto a = Open(*harness);
    auto b = Open(*harness);
    Result<std::int64_t> refused = a->EnqueueMail(SampleMail("nobody@example.org", 1000));
    Result<std::int64_t> fine = a->EnqueueMail(SampleMail("kutuzov@example.org", 1000));
    REQUIRE(refused.ok());
    REQUIRE(fine.ok());
    CHECK(a->DeadMail(10)->empty());

    Result<std::vector<OutboxMail>> claimed = a->ClaimDueMail(At(1000), 10, "pbemd-a", 10s);
    REQUIRE(claimed.ok());
    REQUIRE(claimed->size() == 2);
    REQUIRE(a->MarkMailDead(*refused, At(1500), "550 5.1.1 user unknown").ok());
    // Dead: not due, not claimable (even after the claim's lease), listed, kept whole.
    CHECK(b->DueMail(At(99'000), 10)->size() == 1);
    Result<std::vector<OutboxMail>> after = b->ClaimDueMail(At(99'000), 10, "pbemd-b", 10s);
    REQUIRE(after.ok());
    REQUIRE(after->size() == 1);
    CHECK(after->front().id == *fine);
    Result<std::vector<OutboxMail>> dead = b->DeadMail(10);
    REQUIRE(dead.ok());
    REQUIRE(dead->size() == 1);
    const OutboxMail& letter = dead->front();
    CHECK(letter.id == *refused);
    CHECK(letter.recipient == "nobody@example.org");
    CHECK(letter.body == "Orders are due.\n");
    CHECK(letter.attempts == 1);
    CHECK(letter.failed_at == At(1500));
    CHECK(letter.last_error == "550 5.1.1 user unknown");
    CHECK_FALSE(letter.sent_at.has_value());
    CHECK_FALSE(letter.claimed_until.has_value());
    CHECK(b->GetMail(*fine)->failed_at == std::nullopt);
    // Dead-lettering again counts the attempt, keeps the first failed_at.
    REQUIRE(a->MarkMailDead(*refused, At(1700), "550 again").ok());
    CHECK(a->GetMail(*refused)->failed_at == At(1500));
    CHECK(a->GetMail(*refused)->attempts == 2);
    CHECK(a->DeadMail(0)->empty());

    // Requeued: due again at next_try with attempts from 0; the error stays until the next try.
    CHECK(b->RequeueMail(*fine, At(2000)).code() == StatusCode::kFailedPrecondition);
    REQUIRE(b->RequeueMail(*refused, At(2000)).ok());
    CHECK(a->DeadMail(10)->empty());
    Result<OutboxMail> back = a->GetMail(*refused);
    REQUIRE(back.ok());
    CHECK_FALSE(back->failed_at.has_value());
    CHECK(back->attempts == 0);
    CHECK(back->next_try == At(2000));
    CHECK(back->last_error == "550 again");
    CHECK(a->DueMail(At(1999), 10)->size() == 1);  // `fine` only (claimed, not sent)
    CHECK(a->DueMail(At(2000), 10)->size() == 2);
    CHECK(b->RequeueMail(*refused, At(3000)).code() == StatusCode::kFailedPrecondition);

    // A sent mail is never dead-lettered; unknown ids are NOT_FOUND.
    REQUIRE(b->MarkMailSent(*fine, At(2500)).ok());
    CHECK(a->MarkMailDead(*fine, At(2600), "x").code() == StatusCode::kFailedPrecondition);
    CHECK_FALSE(a->GetMail(*fine)->failed_at.has_value());
    CHECK(b->RequeueMail(*fine, At(3000)).code() == StatusCode::kFailedPrecondition);
    CHECK(a->MarkMailDead(987654, At(1), "x").code() == StatusCode::kNotFound);
    CHECK(a->RequeueMail(987654, At(1)).code() == StatusCode::kNotFound);
  }

  SECTION("outbox: sent mails past their retention are pruned in batches, nothing else is") {
    auto a = Open(*harness);
    auto b = Open(*harness);
    const auto sent_mail = [&](const std::string& to, std::int64_t sent_at_ms, bool map) {
      NewMail mail = SampleMail(to, 500);
      if (map) mail.attachments.push_back({"map.png", "image/png", kBinary});
      Result<std::int64_t> id = a->EnqueueMail(mail);
      REQUIRE(id.ok());
      REQUIRE(a->MarkMailSent(*id, At(sent_at_ms)).ok());
      return *id;
    };
    // Sent in another order than queued: pruning goes by the time sent.
    const std::int64_t third = sent_mail("third@example.org", 1200, true);
    const std::int64_t first = sent_mail("first@example.org", 1000, true);
    const std::int64_t second = sent_mail("second@example.org", 1100, false);
    const std::int64_t fourth = sent_mail("fourth@example.org", 1200, false);
    const std::int64_t recent = sent_mail("recent@example.org", 5000, true);
    NewMail pending_mail = SampleMail("pending@example.org", 100);
    pending_mail.attachments.push_back({"map.png", "image/png", kBinary});
    Result<std::int64_t> pending = a->EnqueueMail(pending_mail);
    Result<std::int64_t> retried = a->EnqueueMail(SampleMail("retried@example.org", 100));
    Result<std::int64_t> dead = a->EnqueueMail(SampleMail("dead@example.org", 100));
    REQUIRE(pending.ok());
    REQUIRE(retried.ok());
    REQUIRE(dead.ok());
    REQUIRE(a->MarkMailFailed(*retried, At(9'000), "451 try later").ok());
    REQUIRE(a->MarkMailDead(*dead, At(200), "550 user unknown").ok());
    CHECK(b->PruneSentMail(At(5000), 0).status().code() == StatusCode::kInvalidArgument);
    CHECK(b->PruneSentMail(At(5000), -1).status().code() == StatusCode::kInvalidArgument);

    // At most `limit` a call, earliest sent first, their maps with them.
    CHECK(*b->PruneSentMail(At(999), 10) == 0);
    Result<int> batch = b->PruneSentMail(At(5000), 3);
    REQUIRE(batch.ok());
    CHECK(*batch == 3);
    for (const std::int64_t gone : {first, second, third}) {
      INFO("mail " << gone);
      CHECK(a->GetMail(gone).status().code() == StatusCode::kNotFound);
    }
    CHECK(a->GetMail(fourth)->sent_at == At(1200));
    CHECK(*b->PruneSentMail(At(5000), 3) == 1);
    CHECK(a->GetMail(fourth).status().code() == StatusCode::kNotFound);
    CHECK(*b->PruneSentMail(At(5000), 3) == 0);

    // Sent at the cutoff or after, not sent yet (however old), dead letters: all kept whole.
    Result<OutboxMail> kept = a->GetMail(recent);
    REQUIRE(kept.ok());
    CHECK(kept->sent_at == At(5000));
    REQUIRE(kept->attachments.size() == 1);
    CHECK(kept->attachments[0].data == kBinary);
    Result<std::vector<OutboxMail>> due = a->DueMail(At(10'000), 10);
    REQUIRE(due.ok());
    REQUIRE(due->size() == 2);
    CHECK(due->at(0).id == *pending);
    REQUIRE(due->at(0).attachments.size() == 1);
    CHECK(due->at(0).attachments[0].data == kBinary);
    CHECK(due->at(1).id == *retried);
    CHECK(due->at(1).attempts == 1);
    Result<std::vector<OutboxMail>> letters = a->DeadMail(10);
    REQUIRE(letters.ok());
    REQUIRE(letters->size() == 1);
    CHECK(letters->front().id == *dead);
    CHECK(*b->PruneSentMail(At(99'999'999), 100) == 1);  // `recent`: now past its retention
    CHECK(a->DueMail(At(10'000), 10)->size() == 2);
    CHECK(a->DeadMail(10)->size() == 1);
  }

  SECTION("outbox: pruning never frees a mail id (the id is the Message-ID of its mail)") {
    auto repository = Open(*harness);
    std::int64_t newest = 0;
    for (int i = 0; i < 5; ++i) {
      Result<std::int64_t> id = repository->EnqueueMail(SampleMail("p@example.org", 500));
      REQUIRE(id.ok());
      REQUIRE(repository->MarkMailSent(*id, At(1000 + i)).ok());
      newest = *id;
    }
    // Every mail is past its retention; the newest stays, so no id is ever given twice.
    CHECK(*repository->PruneSentMail(At(99'999), 100) == 4);
    CHECK(repository->GetMail(newest)->sent_at == At(1004));
    CHECK(*repository->PruneSentMail(At(99'999), 100) == 0);
    Result<std::int64_t> next = repository->EnqueueMail(SampleMail("q@example.org", 500));
    REQUIRE(next.ok());
    CHECK(*next > newest);
    REQUIRE(repository->MarkMailSent(*next, At(2000)).ok());
    CHECK(*repository->PruneSentMail(At(99'999), 100) == 1);
    CHECK(repository->GetMail(newest).status().code() == StatusCode::kNotFound);
    CHECK(repository->GetMail(*next).ok());
  }

  SECTION("outbox: a version 14 store gains the index of sent mails (migration 15)") {
    std::int64_t sent = 0;
    {
      auto repository = Open(*harness);
      Result<std::int64_t> id = repository->EnqueueMail(SampleMail("old@example.org", 1000));
      REQUIRE(id.ok());
      REQUIRE(repository->MarkMailSent(*id, At(1100)).ok());
      REQUIRE(repository->EnqueueMail(SampleMail("newer@example.org", 1000)).ok());
      sent = *id;
    }
    DropMigration17(*harness);
    DropMigration16(*harness);
    DropMigration15(*harness);
    auto repository = Open(*harness);
    CHECK(*repository->SchemaVersion() == 17);
    CHECK(*repository->PruneSentMail(At(2000), 10) == 1);
    CHECK(repository->GetMail(sent).status().code() == StatusCode::kNotFound);
  }

  SECTION("outbox: a version 11 store gains dead letters (migration 13); its mail stays due") {
    std::int64_t queued = 0, sent = 0;
    {
      auto repository = Open(*harness);
      Result<std::int64_t> id = repository->EnqueueMail(SampleMail("old@example.org", 1000));
      Result<std::int64_t> done = repository->EnqueueMail(SampleMail("sent@example.org", 1000));
      REQUIRE(id.ok());
      REQUIRE(done.ok());
      REQUIRE(repository->MarkMailFailed(*id, At(1200), "451 later").ok());
      REQUIRE(repository->MarkMailSent(*done, At(1100)).ok());
      queued = *id;
      sent = *done;
    }
    DropMigration17(*harness);
    DropMigration16(*harness);
    DropMigration15(*harness);
    DropMigration14(*harness);
    DropMigration13(*harness);
    auto repository = Open(*harness);
    CHECK(*repository->SchemaVersion() == 17);
    Result<OutboxMail> old = repository->GetMail(queued);
    REQUIRE(old.ok());
    CHECK_FALSE(old->failed_at.has_value());
    CHECK(old->attempts == 1);
    CHECK(old->last_error == "451 later");
    CHECK(repository->GetMail(sent)->sent_at == At(1100));
    CHECK(repository->DeadMail(10)->empty());
    Result<std::vector<OutboxMail>> claimed = repository->ClaimDueMail(At(1200), 10, "new", 1s);
    REQUIRE(claimed.ok());
    REQUIRE(claimed->size() == 1);
    CHECK(claimed->front().id == queued);
  }

  SECTION("outbox: concurrent claimants never get the same mail") {
    {
      auto repository = Open(*harness);
      for (int i = 0; i < 60; ++i) {
        REQUIRE(repository->EnqueueMail(SampleMail("p" + std::to_string(i) + "@x", 1000)).ok());
      }
    }
    constexpr int kClaimants = 4;
    std::vector<std::unique_ptr<GameRepository>> claimants;
    for (int i = 0; i < kClaimants; ++i) claimants.push_back(Open(*harness));
    std::vector<std::vector<std::int64_t>> got(kClaimants);
    std::vector<std::string> errors(kClaimants);
    std::vector<std::thread> threads;
    for (int i = 0; i < kClaimants; ++i) {
      threads.emplace_back([&, i] {
        // Small batches, so that the claimants' transactions interleave.
        for (int round = 0; round < 40; ++round) {
          Result<std::vector<OutboxMail>> claimed =
              claimants[i]->ClaimDueMail(At(2000), 3, "c" + std::to_string(i), 60s);
          if (!claimed.ok()) {
            errors[i] = claimed.status().ToString();
            return;
          }
          for (const OutboxMail& mail : *claimed) got[i].push_back(mail.id);
        }
      });
    }
    for (std::thread& t : threads) t.join();
    std::vector<std::int64_t> all;
    for (int i = 0; i < kClaimants; ++i) {
      INFO("claimant " << i << ": " << errors[i]);
      CHECK(errors[i].empty());
      all.insert(all.end(), got[i].begin(), got[i].end());
    }
    std::sort(all.begin(), all.end());
    CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());  // nobody got a mail twice
    CHECK(all.size() == 60);                                         // and every mail was got
  }

  SECTION("locks: one holder at a time, freed by Unlock and when the holder goes away") {
    auto a = Open(*harness);
    auto b = Open(*harness);
    REQUIRE(a->TryLock("mail-intake").ok());
    CHECK(*a->TryLock("mail-intake"));  // held already: still true
    CHECK_FALSE(*b->TryLock("mail-intake"));
    CHECK(*b->TryLock("game:g1"));  // another name is another lock
    CHECK_FALSE(*a->TryLock("game:g1"));
    REQUIRE(a->Unlock("mail-intake").ok());
    CHECK(a->Unlock("mail-intake").ok());  // not held: nothing to do
    CHECK(*b->TryLock("mail-intake"));
    CHECK_FALSE(*a->TryLock("mail-intake"));
    CHECK(a->TryLock("").status().code() == StatusCode::kInvalidArgument);
    // The holder goes away (its connection closes, as when its process dies): the locks free.
    // The server notices the closed connection on its own time: wait for it, boundedly.
    b.reset();
    bool taken = false;
    for (int i = 0; i < 1200 && !taken; ++i) {  // up to 60 s on a loaded machine
      Result<bool> tried = a->TryLock("mail-intake");
      REQUIRE(tried.ok());
      taken = *tried;
      if (!taken) std::this_thread::sleep_for(50ms);
    }
    CHECK(taken);
    CHECK(*a->TryLock("game:g1"));
    // Reopening an instance drops what it held.
    REQUIRE(a->OpenOrMigrate().ok());
    auto c = Open(*harness);
    CHECK(*c->TryLock("game:g1"));
    CHECK(*c->TryLock("mail-intake"));
    CHECK_FALSE(*a->TryLock("mail-intake"));
  }
}

}  // namespace pbem::storage
