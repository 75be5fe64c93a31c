// The turn job and archives on a real SQLite store in a temp dir, with the bundled scenario.
#include "daemon/turn/turn_job.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "daemon/turn/archive.h"
#include "daemon/turn/dice.h"
#include "engine/morne_plaine/bot.h"
#include "engine/morne_plaine/ids.h"
#include "proto/codec/codec.h"
#include "storage/sqlite_repository.h"
#include "tests/support/temp_dir.h"
#include "tests/turn/turn_test_util.h"

namespace pbem::daemon {
namespace {

namespace fs = std::filesystem;
using storage::Timestamp;

Timestamp At(std::int64_t ms) { return Timestamp(std::chrono::milliseconds(ms)); }

// A fresh directory (pbem-turn-XXXXXX), removed with everything in it.
class TempDir : public pbem::testing::TempDir {
 public:
  TempDir() : pbem::testing::TempDir("pbem-turn") {}
};

const testing::BundledGame& Bois() { return testing::Bois(); }

std::string ReadSample(const std::string& name) {
  auto text = codec::ReadFile(fs::path(PBEM_SOURCE_DIR) / "engine/scenarios" / name);
  REQUIRE(text.ok());
  return text.value();
}

pbem::v1::Orders Parse(const std::string& bytes, codec::Format format) {
  auto orders = codec::ParseOrders(bytes, format, "test");
  INFO(orders.ErrorText());
  REQUIRE(orders.ok());
  return orders.value();
}

// A store with one game "demo" of the bundled scenario.
struct Store {
  TempDir dir;
  storage::SqliteRepository repository{dir.path()};
  Store() {
    REQUIRE(repository.OpenOrMigrate().ok());
    const testing::BundledGame& b = Bois();
    REQUIRE(repository
                .CreateGame(MakeNewGame(b.ruleset.proto, b.scenario.proto, b.scenario.scenario,
                                        "demo", At(1000)))
                .ok());
  }
};

TEST_CASE("canonical orders: text, JSON and binary forms give the same bytes", "[turn]") {
  const pbem::v1::Orders from_text =
      Parse(ReadSample("bois-de-la-morne.orders-blue.textproto"), codec::Format::kText);
  const pbem::v1::Orders from_json =
      Parse(ReadSample("bois-de-la-morne.orders-blue.json"), codec::Format::kJson);
  const std::string binary = codec::SerializeMessage(from_text, codec::Format::kBinary);
  const pbem::v1::Orders from_binary = Parse(binary, codec::Format::kBinary);
  const Bytes canonical = codec::CanonicalOrders(from_text);
  CHECK(codec::CanonicalOrders(from_json) == canonical);
  CHECK(codec::CanonicalOrders(from_binary) == canonical);
  // Re-serialised JSON of the same orders too.
  const pbem::v1::Orders round =
      Parse(codec::SerializeMessage(from_text, codec::Format::kJson), codec::Format::kJson);
  CHECK(codec::CanonicalOrders(round) == canonical);

  // The token never reaches the canonical bytes; format_version 1 is the same as absent.
  pbem::v1::Orders with_token = from_text;
  with_token.set_token("s3cret-token");
  CHECK(codec::CanonicalOrders(with_token) == canonical);
  CHECK(canonical.find("s3cret") == std::string::npos);
  pbem::v1::Orders no_version = from_text;
  no_version.clear_format_version();
  CHECK(codec::CanonicalOrders(no_version) == canonical);
  // Different orders, different bytes.
  pbem::v1::Orders other = from_text;
  other.mutable_moves(0)->set_unit("b-i1");
  CHECK(codec::CanonicalOrders(other) != canonical);
}

TEST_CASE("dice: commitment and key follow the documented derivation", "[turn]") {
  // SHA-256 of 32 zero bytes (a published test value).
  CHECK(CommitmentFor(Bytes(32, '\0')).commitment() ==
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925");
  CHECK(CommitmentFor(Bytes(32, '\0')).revealed_seed().empty());
  CHECK(RevealedCommitmentFor(Bytes(32, '\0')).revealed_seed() == std::string(64, '0'));
  // Seed bytes 0..31, orders "abc": SHA-256(seed || "abc") starts 0x42fd..., computed
  // independently with Python's hashlib: int.from_bytes(digest[:8], 'big').
  Bytes seed;
  for (int i = 0; i < 32; ++i) seed += static_cast<char>(i);
  CHECK(DiceKey(seed, "abc") == 4827096342153124672ULL);
  CHECK(DiceKey(seed, "abd") != DiceKey(seed, "abc"));

  FixedEntropy a("x"), b("x"), c("y");
  const Bytes first = *a.Draw(kSeedBytes);
  CHECK(first.size() == kSeedBytes);
  CHECK(*b.Draw(kSeedBytes) == first);
  CHECK(*a.Draw(kSeedBytes) != first);
  CHECK(*c.Draw(kSeedBytes) != first);
  SystemEntropy system;
  const Bytes r1 = *system.Draw(kSeedBytes), r2 = *system.Draw(kSeedBytes);
  CHECK(r1.size() == kSeedBytes);
  CHECK(r1 != r2);
}

TEST_CASE("turn job: open, resolve and commit with the committed seed", "[turn]") {
  Store store;
  const testing::BundledGame& b = Bois();
  FixedEntropy entropy("turn-job");
  const pbem::v1::Orders orders =
      Parse(ReadSample("bois-de-la-morne.orders-blue.textproto"), codec::Format::kText);

  // Resolving before the turn is open is refused: no dice without a published commitment.
  auto early = ResolveAndCommit(store.repository, b.ruleset.ruleset, b.scenario.scenario, "demo",
                                orders, At(1500));
  REQUIRE_FALSE(early.ok());
  CHECK(early.status().code() == StatusCode::kFailedPrecondition);
  CHECK_THAT(early.status().message(), Catch::Contains("never opened"));
  CHECK(store.repository.GetGame("demo")->turns_committed == 0);

  auto opened = OpenTurn(store.repository, b.scenario.scenario, "demo", entropy, At(2000));
  INFO(opened.status().ToString());
  REQUIRE(opened.ok());
  const Bytes seed = opened->stored.dice_seed;
  CHECK(seed.size() == kSeedBytes);
  CHECK(opened->stored.turn == 1);
  CHECK(opened->stored.side == "blue");
  CHECK(opened->commitment.commitment() == Hex(Sha256(seed)));
  CHECK(opened->commitment.revealed_seed().empty());
  CHECK(opened->commitment.derivation() == std::string(kDiceDerivation));

  // Opening again (a restart) gives the same seed back: the commitment is already published.
  FixedEntropy other("another");
  auto again = OpenTurn(store.repository, b.scenario.scenario, "demo", other, At(2500));
  REQUIRE(again.ok());
  CHECK(again->stored.dice_seed == seed);

  pbem::v1::Orders with_token = orders;
  with_token.set_token("tok-123");
  auto resolved = ResolveAndCommit(store.repository, b.ruleset.ruleset, b.scenario.scenario, "demo",
                                   with_token, At(3000));
  INFO(resolved.status().ToString());
  REQUIRE(resolved.ok());
  CHECK_FALSE(resolved->committed.replayed);
  const storage::Turn& turn = resolved->committed.turn;
  CHECK(turn.orders == codec::CanonicalOrders(orders));
  CHECK(turn.orders.find("tok-123") == std::string::npos);
  CHECK(turn.dice_seed == seed);
  CHECK(turn.dice_commitment == opened->stored.dice_commitment);
  CHECK(resolved->result.dice().revealed_seed() == Hex(seed));
  CHECK(resolved->result.dice().commitment() == Hex(Sha256(seed)));
  CHECK(resolved->result.verdicts_size() > 0);

  // The stored result is exactly the pure resolution with that seed.
  const engine::GameState initial = engine::InitialState(b.scenario.scenario, "demo");
  const Resolution expected =
      ResolveWithSeed(b.ruleset.ruleset, b.scenario.scenario, initial, orders, seed);
  CHECK(turn.result == expected.result);
  CHECK(turn.next_state == expected.next_state);
  Result<storage::Game> game = store.repository.GetGame("demo");
  REQUIRE(game.ok());
  CHECK(game->turns_committed == 1);
  CHECK(game->state == expected.next_state);

  // Another seed gives other bytes (the dice depend on the seed).
  const Resolution other_seed = ResolveWithSeed(b.ruleset.ruleset, b.scenario.scenario, initial,
                                                orders, Bytes(kSeedBytes, 'z'));
  CHECK(other_seed.result != expected.result);

  // A retry of blue's turn 1 (its header names it) gets the stored commit back.
  auto retry = ResolveAndCommit(store.repository, b.ruleset.ruleset, b.scenario.scenario, "demo",
                                orders, At(4000));
  INFO(retry.status().ToString());
  REQUIRE(retry.ok());
  CHECK(retry->committed.replayed);
  CHECK(retry->committed.turn.result == expected.result);
  CHECK(retry->committed.turn.committed_at == At(3000));
  CHECK(store.repository.GetGame("demo")->turns_committed == 1);

  // Orange's turn (orders without a header are for the turn the game waits for) was never
  // opened: refused, nothing stored.
  auto orange = ResolveAndCommit(store.repository, b.ruleset.ruleset, b.scenario.scenario, "demo",
                                 pbem::v1::Orders(), At(4000));
  CHECK(orange.status().code() == StatusCode::kFailedPrecondition);
  CHECK(store.repository.GetGame("demo")->turns_committed == 1);
}

TEST_CASE("archives: export, verify, import; a flipped byte names its turn", "[turn]") {
  Store store;
  const testing::BundledGame& b = Bois();
  FixedEntropy entropy("archive");
  const pbem::v1::Orders blue =
      Parse(ReadSample("bois-de-la-morne.orders-blue.textproto"), codec::Format::kText);
  const pbem::v1::Orders orange =
      Parse(ReadSample("bois-de-la-morne.orders-orange.textproto"), codec::Format::kText);
  for (const auto* orders : {&blue, &orange}) {
    REQUIRE(OpenTurn(store.repository, b.scenario.scenario, "demo", entropy, At(2000)).ok());
    REQUIRE(ResolveAndCommit(store.repository, b.ruleset.ruleset, b.scenario.scenario, "demo",
                             *orders, At(3000))
                .ok());
  }
  // Two more turns of bot orders, through the wire form.
  for (int i = 0; i < 2; ++i) {
    auto state = CurrentState(store.repository, b.scenario.scenario, "demo");
    REQUIRE(state.ok());
    REQUIRE(OpenTurn(store.repository, b.scenario.scenario, "demo", entropy, At(4000)).ok());
    const engine::Orders bot =
        engine::BotOrders(b.ruleset.ruleset, b.scenario.scenario, *state, 5 + i);
    const pbem::v1::Orders orders = codec::OrdersToProto(bot, b.scenario.scenario);
    CHECK(orders.moves_size() + orders.attacks_size() + orders.bombardments_size() > 0);
    auto resolved = ResolveAndCommit(store.repository, b.ruleset.ruleset, b.scenario.scenario,
                                     "demo", orders, At(5000 + i));
    REQUIRE(resolved.ok());
    for (const auto& verdict : resolved->result.verdicts()) {
      CHECK(verdict.verdict() != pbem::v1::VERDICT_INVALID);
    }
  }

  Result<pbem::v1::Archive> archive = ExportArchive(store.repository, "demo");
  INFO(archive.status().ToString());
  REQUIRE(archive.ok());
  REQUIRE(archive->turns_size() == 4);
  const VerifyReport good = VerifyArchive(*archive);
  INFO(good.problem);
  REQUIRE(good.ok);
  CHECK(good.turns_checked == 4);
  for (const pbem::v1::ArchivedTurn& turn : archive->turns()) {
    pbem::v1::TurnResult stored;
    REQUIRE(stored.ParseFromString(turn.result()));
    CHECK(stored.format_version() == 2);
    REQUIRE(stored.events_size() > 0);
    CHECK(stored.events(0).args_size() == 0);
    CHECK(stored.events(0).body_case() != pbem::v1::Event::BODY_NOT_SET);
  }

  SECTION("a game stored in format 1 before format 2 and in format 2 after verifies") {
    pbem::v1::Archive mixed = *archive;
    for (int t = 0; t < 2; ++t) {
      pbem::v1::TurnResult stored;
      REQUIRE(stored.ParseFromString(archive->turns(t).result()));
      auto decoded = codec::TurnResultFromProto(stored, b.scenario.scenario, "result");
      REQUIRE(decoded.ok());
      const auto side = codec::SideFromProto(stored.side());
      REQUIRE(side.has_value());
      pbem::v1::TurnResult old =
          codec::TurnResultToProto(decoded.value(), b.scenario.scenario, stored.turn(), *side,
                                   codec::TurnResultFormat::kArgs);
      *old.mutable_dice() = stored.dice();
      mixed.mutable_turns(t)->set_result(codec::SerializeMessage(old, codec::Format::kBinary));
    }
    REQUIRE(mixed.turns(0).result() != archive->turns(0).result());
    const VerifyReport report = VerifyArchive(mixed);
    INFO(report.problem);
    CHECK(report.ok);
    CHECK(report.turns_checked == 4);

    // The format is the archived bytes' own: a format-1 result relabelled as format 2 differs.
    pbem::v1::TurnResult relabelled;
    REQUIRE(relabelled.ParseFromString(mixed.turns(0).result()));
    relabelled.set_format_version(2);
    mixed.mutable_turns(0)->set_result(codec::SerializeMessage(relabelled, codec::Format::kBinary));
    CHECK_FALSE(VerifyArchive(mixed).ok);
    relabelled.set_format_version(3);
    mixed.mutable_turns(0)->set_result(codec::SerializeMessage(relabelled, codec::Format::kBinary));
    const VerifyReport newer = VerifyArchive(mixed);
    CHECK(newer.failed_turn == 1);
    CHECK_THAT(newer.problem, Catch::Contains("format version 3 is newer than this program "
                                              "knows (2)"));
  }

  SECTION("one flipped byte anywhere in a turn's orders fails verify at that turn") {
    for (int t = 0; t < archive->turns_size(); ++t) {
      const std::string& orders = archive->turns(t).orders();
      for (std::size_t i = 0; i < orders.size(); ++i) {
        pbem::v1::Archive tampered = *archive;
        std::string bytes = orders;
        bytes[i] = static_cast<char>(bytes[i] ^ 0x01);
        tampered.mutable_turns(t)->set_orders(bytes);
        const VerifyReport report = VerifyArchive(tampered);
        INFO("turn " << t + 1 << " byte " << i);
        REQUIRE_FALSE(report.ok);
        CHECK(report.failed_turn == t + 1);
        CHECK_THAT(report.problem, Catch::StartsWith("player-turn " + std::to_string(t + 1)));
      }
    }
  }

  SECTION("one flipped bit in a seed fails verify at that turn, naming the commitment") {
    for (int t = 0; t < archive->turns_size(); ++t) {
      pbem::v1::Archive tampered = *archive;
      std::string seed = archive->turns(t).dice_seed();
      seed[static_cast<std::size_t>(t) % seed.size()] ^= 0x40;
      tampered.mutable_turns(t)->set_dice_seed(seed);
      const VerifyReport report = VerifyArchive(tampered);
      REQUIRE_FALSE(report.ok);
      CHECK(report.failed_turn == t + 1);
      CHECK_THAT(report.problem, Catch::Contains("commitment"));
    }
  }

  SECTION("a changed derivation, or a seed revealed early, in a published commitment fails") {
    // The commitment published when the turn opened says how the dice are derived: it is part
    // of what the archive commits to, so changing its text (keeping the SHA-256) must fail.
    for (int t = 0; t < archive->turns_size(); ++t) {
      pbem::v1::DiceCommitment commitment;
      REQUIRE(commitment.ParseFromString(archive->turns(t).dice_commitment()));
      pbem::v1::DiceCommitment changed = commitment;
      changed.set_derivation(commitment.derivation() + " (changed)");
      pbem::v1::Archive tampered = *archive;
      tampered.mutable_turns(t)->set_dice_commitment(
          codec::SerializeMessage(changed, codec::Format::kBinary));
      VerifyReport report = VerifyArchive(tampered);
      INFO("turn " << t + 1 << ": " << report.problem);
      REQUIRE_FALSE(report.ok);
      CHECK(report.failed_turn == t + 1);
      CHECK_THAT(report.problem, Catch::Contains("derivation"));

      changed = commitment;
      changed.set_revealed_seed(Hex(archive->turns(t).dice_seed()));
      tampered.mutable_turns(t)->set_dice_commitment(
          codec::SerializeMessage(changed, codec::Format::kBinary));
      report = VerifyArchive(tampered);
      REQUIRE_FALSE(report.ok);
      CHECK(report.failed_turn == t + 1);
      CHECK_THAT(report.problem, Catch::Contains("commitment"));
    }
  }

  SECTION("a changed result or next state is found byte for byte") {
    pbem::v1::Archive tampered = *archive;
    std::string result = archive->turns(2).result();
    result.back() = static_cast<char>(result.back() ^ 0x02);
    tampered.mutable_turns(2)->set_result(result);
    VerifyReport report = VerifyArchive(tampered);
    CHECK(report.failed_turn == 3);
    CHECK_THAT(report.problem, Catch::Contains("result differs"));
    CHECK_FALSE(report.other_engine);
  }

  // Seen failing before the fix: an older engine's archive was reported as "the result differs
  // from the re-resolved one", i.e. as tampering.
  SECTION("an archive of an older engine that does not re-resolve says so, not tampering") {
    pbem::v1::Archive older = *archive;
    older.set_engine_version("pbem-engine 1");
    // What an engine change does to a stored result: other bytes than this engine makes.
    std::string result = archive->turns(1).result();
    result.back() = static_cast<char>(result.back() ^ 0x02);
    older.mutable_turns(1)->set_result(result);
    VerifyReport report = VerifyArchive(older);
    CHECK_FALSE(report.ok);
    CHECK(report.other_engine);
    CHECK(report.failed_turn == 2);
    const std::string ours(kEngineVersion);
    CHECK_THAT(report.problem, Catch::EndsWith("made by an older engine (pbem-engine 1); this "
                                               "build is " +
                                               ours + ": cannot replay"));
    // Turns that still re-resolve are checked as ever: an older archive of them verifies.
    pbem::v1::Archive replayable = *archive;
    replayable.set_engine_version("pbem-engine 1");
    CHECK(VerifyArchive(replayable).ok);
    // A newer or unknown engine is named as such.
    CHECK(OtherEngineProblem("pbem-engine 999") ==
          "made by a newer engine (pbem-engine 999); this build is " + ours + ": cannot replay");
    CHECK(OtherEngineProblem("other 7") ==
          "made by another engine (other 7); this build is " + ours + ": cannot replay");
  }

  SECTION("import loads the archive byte for byte under another id; a bad one stores nothing") {
    REQUIRE(ImportArchive(store.repository, *archive, "copy").ok());
    Result<pbem::v1::Archive> copy = ExportArchive(store.repository, "copy");
    REQUIRE(copy.ok());
    REQUIRE(copy->turns_size() == 4);
    for (int t = 0; t < 4; ++t) {
      CHECK(copy->turns(t).SerializeAsString() == archive->turns(t).SerializeAsString());
    }
    CHECK(store.repository.GetGame("copy")->state == store.repository.GetGame("demo")->state);
    CHECK(ImportArchive(store.repository, *archive, "copy").code() == StatusCode::kAlreadyExists);

    pbem::v1::Archive bad = *archive;
    std::string seed = bad.turns(1).dice_seed();
    seed[0] ^= 1;
    bad.mutable_turns(1)->set_dice_seed(seed);
    Status refused = ImportArchive(store.repository, bad, "bad");
    CHECK(refused.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(refused.message(), Catch::Contains("player-turn 2"));
    CHECK(store.repository.GetGame("bad").status().code() == StatusCode::kNotFound);
  }
}

}  // namespace
}  // namespace pbem::daemon
