// Archives of another system than Morne Plaine (daemon/turn/archive.h, proto/README.md
// "Archives"): an M42 game played through the system-neutral turn job is exported naming its
// system with its own pinned messages, verifies turn by turn through the game-system
// interface, refuses every tampering with a sentence naming the player-turn, and imports into
// another store as the same game. Morne Plaine's archives keep their fields.
#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "daemon/turn/archive.h"
#include "daemon/turn/dice.h"
#include "daemon/turn/system_turn.h"
#include "engine/m42/orders.h"
#include "pbem/v1/archive.pb.h"
#include "pbem/v1/orders.pb.h"
#include "proto/codec/codec.h"
#include "proto/codec/game_data.h"
#include "proto/codec/m42_codec.h"
#include "proto/codec/systems.h"
#include "storage/sqlite_repository.h"
#include "tests/support/temp_dir.h"
#include "tests/turn/turn_test_util.h"

namespace pbem::daemon {
namespace {

namespace gs = game_system;
using storage::Timestamp;

Timestamp At(std::int64_t ms) { return Timestamp(std::chrono::milliseconds(ms)); }

struct Store {
  pbem::testing::TempDir dir{"pbem-sysarchive"};
  storage::SqliteRepository repository{dir.path()};
  Store() { REQUIRE(repository.OpenOrMigrate().ok()); }
};

// An M42 game "g" of the bundled Pumping Station, read and pinned as pbemd does, played for
// three bot turns and one missed turn through the system-neutral turn job.
struct PlayedM42 {
  Store store;
  gs::Registry registry = codec::SystemRegistry();
  const gs::GameSystem* m42 = nullptr;
  codec::PinnedGameData pinned;
  gs::Setup setup;

  PlayedM42() {
    m42 = *registry.Find("m42");
    const std::filesystem::path engine = std::filesystem::path(PBEM_SOURCE_DIR) / "engine";
    gs::Result<gs::GameData> data =
        codec::ReadGameData(engine / "scenarios", engine / "rulesets", "m42", "pumping_station");
    INFO(data.status().message());
    REQUIRE(data.ok());
    gs::Result<codec::PinnedGameData> pin = codec::PinGameData("m42", *data);
    REQUIRE(pin.ok());
    pinned = *pin;
    gs::Result<gs::Setup> loaded = codec::SetupFromPinned("m42", pinned.ruleset, pinned.scenario);
    REQUIRE(loaded.ok());
    setup = *loaded;
    Result<storage::NewGame> game =
        MakeSystemGame(*m42, setup, "g", At(1000),
                       {pinned.scenario_name, pinned.ruleset_name, pinned.ruleset_version,
                        pinned.ruleset, pinned.scenario});
    REQUIRE(game.ok());
    REQUIRE(store.repository.CreateGame(*game).ok());
    FixedEntropy entropy("m42-archive");
    REQUIRE(OpenSystemTurn(store.repository, *m42, setup, "g", entropy, At(2000)).ok());
    for (int i = 0; i < 4; ++i) {
      Result<gs::State> state = CurrentSystemState(store.repository, *m42, setup, "g");
      REQUIRE(state.ok());
      const gs::TurnInfo turn = *m42->WhoseTurn(setup, *state);
      std::string envelope;
      if (i < 3) {
        gs::Result<gs::Orders> bot = m42->BotOrders(setup, *state, 11 + i);
        REQUIRE(bot.ok());
        pbem::v1::Orders orders;
        orders.set_game_id("g");
        orders.set_turn(turn.turn);
        orders.set_player(turn.side);
        *orders.mutable_m42() = codec::M42OrdersToProto(*bot->handle.As<m42::Orders>("m42"));
        envelope = codec::SerializeMessage(orders, codec::Format::kBinary);
      } else {
        envelope = *codec::EmptyOrdersEnvelope("m42", "g", turn.turn, turn.side);
      }
      SystemCommitPlan plan;
      plan.entropy = &entropy;
      plan.missed = i == 3;
      Result<SystemCommittedTurn> committed = ResolveAndCommitSystemTurn(
          store.repository, *m42, setup, "g", envelope, At(3000 + i), plan);
      INFO(committed.status().ToString());
      REQUIRE(committed.ok());
    }
  }

  pbem::v1::Archive Export() {
    Result<pbem::v1::Archive> archive = ExportArchive(store.repository, "g");
    INFO(archive.status().ToString());
    REQUIRE(archive.ok());
    return *archive;
  }
};

TEST_CASE("archive of an M42 game: exported naming its system, verified, imported",
          "[turn][archive][system]") {
  PlayedM42 game;
  const pbem::v1::Archive archive = game.Export();
  CHECK(archive.system() == "m42");
  CHECK_FALSE(archive.has_ruleset());
  CHECK_FALSE(archive.has_scenario());
  CHECK(archive.system_ruleset() == game.pinned.ruleset);
  CHECK(archive.system_scenario() == game.pinned.scenario);
  REQUIRE(archive.turns_size() == 4);
  const Result<std::vector<storage::Turn>> stored = game.store.repository.ListTurns("g");
  REQUIRE(stored.ok());
  for (int i = 0; i < archive.turns_size(); ++i) {
    const pbem::v1::ArchivedTurn& turn = archive.turns(i);
    CHECK(turn.player() == (*stored)[i].side);
    CHECK(turn.side() == pbem::v1::SIDE_UNSPECIFIED);
    CHECK(turn.result() == (*stored)[i].result);
  }
  CHECK(archive.turns(0).player() != archive.turns(1).player());

  // Verified as written, and after a trip through its file bytes.
  VerifyReport report = VerifyArchive(archive);
  INFO(report.problem);
  CHECK(report.ok);
  CHECK(report.turns_checked == 4);
  pbem::v1::Archive reread;
  REQUIRE(reread.ParseFromString(codec::SerializeMessage(archive, codec::Format::kBinary)));
  CHECK(VerifyArchive(reread).ok);

  // Imported into another store: the same game, naming its system and its scenario.
  Store other;
  REQUIRE(ImportArchive(other.repository, archive, "copy").ok());
  const Result<storage::Game> copy = other.repository.GetGame("copy");
  REQUIRE(copy.ok());
  CHECK(copy->system == "m42");
  CHECK(copy->scenario == "pumping_station");
  CHECK(copy->ruleset_name == game.pinned.ruleset_name);
  CHECK(copy->ruleset_proto == game.pinned.ruleset);
  CHECK(copy->turns_committed == 4);
  const Result<storage::Game> original = game.store.repository.GetGame("g");
  CHECK(copy->state == original->state);
  const Result<std::vector<storage::Turn>> copied = other.repository.ListTurns("copy");
  REQUIRE(copied.ok());
  REQUIRE(copied->size() == 4);
  for (std::size_t i = 0; i < copied->size(); ++i) {
    CHECK((*copied)[i].side == (*stored)[i].side);
    CHECK((*copied)[i].orders == (*stored)[i].orders);
    CHECK((*copied)[i].next_state == (*stored)[i].next_state);
  }
  // ... and exported again from there, the same archive but for its id.
  Result<pbem::v1::Archive> again = ExportArchive(other.repository, "copy");
  REQUIRE(again.ok());
  again->set_game_id("g");
  CHECK(codec::SerializeMessage(*again, codec::Format::kBinary) ==
        codec::SerializeMessage(archive, codec::Format::kBinary));
}

TEST_CASE("archive of an M42 game: tampering is found and named", "[turn][archive][system]") {
  PlayedM42 game;
  const pbem::v1::Archive archive = game.Export();
  struct Tamper {
    const char* name;
    std::function<void(pbem::v1::Archive&)> change;
    std::int64_t failed_turn;
    std::string problem;
  };
  const std::vector<Tamper> cases = {
      {"a result byte",
       [](pbem::v1::Archive& a) {
         std::string& r = *a.mutable_turns(1)->mutable_result();
         r.back() = static_cast<char>(r.back() ^ 1);
       },
       2, "the result differs from the re-resolved one"},
      {"a next state byte",
       [](pbem::v1::Archive& a) {
         std::string& s = *a.mutable_turns(2)->mutable_next_state();
         s.back() = static_cast<char>(s.back() ^ 1);
       },
       3, "the next state differs from the re-resolved one"},
      {"the player who moved",
       [](pbem::v1::Archive& a) { a.mutable_turns(0)->set_player(a.turns(1).player()); }, 1,
       "the state before it waits for turn 1"},
      {"another seed",
       [](pbem::v1::Archive& a) { a.mutable_turns(1)->set_dice_seed(std::string(32, 'x')); }, 2,
       "is not SHA-256 of the revealed seed"},
      {"orders of another system",
       [](pbem::v1::Archive& a) {
         a.mutable_turns(0)->set_orders(*codec::EmptyOrdersEnvelope("wme", "g", 1, "blue"));
       },
       1, "field wme: the orders are written for wme; this game plays m42"},
      {"orders that are no envelope",
       [](pbem::v1::Archive& a) { a.mutable_turns(0)->set_orders("\xff\xff"); }, 1,
       "the orders are not an orders envelope in canonical form"},
      {"a Morne Plaine side",
       [](pbem::v1::Archive& a) { a.mutable_turns(2)->set_side(pbem::v1::SIDE_BLUE); }, 3,
       "field side: a m42 turn names its player"},
      {"a sequence number", [](pbem::v1::Archive& a) { a.mutable_turns(3)->set_sequence(7); }, 4,
       "sequence number 7, expected 4"},
      {"an unknown system", [](pbem::v1::Archive& a) { a.set_system("chess"); }, 0,
       "field system: \"chess\" is no game system this program plays"},
      {"Morne Plaine's ruleset beside",
       [](pbem::v1::Archive& a) { a.mutable_ruleset()->set_name("morne-plaine"); }, 0,
       "fields ruleset and scenario are Morne Plaine's"},
      {"a damaged pinned scenario", [](pbem::v1::Archive& a) { a.set_system_scenario("\xff\xff"); },
       0, "the archived ruleset or scenario is invalid"},
      {"a damaged initial state", [](pbem::v1::Archive& a) { a.set_initial_state("\xff"); }, 0,
       "the archived initial state is invalid"},
  };
  for (const Tamper& c : cases) {
    INFO(c.name);
    pbem::v1::Archive tampered = archive;
    c.change(tampered);
    const VerifyReport report = VerifyArchive(tampered);
    INFO(report.problem);
    CHECK_FALSE(report.ok);
    CHECK(report.failed_turn == c.failed_turn);
    CHECK(report.turns_checked == (c.failed_turn > 0 ? c.failed_turn - 1 : 0));
    CHECK_THAT(report.problem, Catch::Contains(c.problem));
    CHECK_FALSE(report.other_engine);
    Store other;
    CHECK(ImportArchive(other.repository, tampered, "copy").code() == StatusCode::kInvalidArgument);
    CHECK(other.repository.GetGame("copy").status().code() == StatusCode::kNotFound);
  }
  // Another engine's archive that does not replay is said to be so, not called tampered.
  pbem::v1::Archive older = archive;
  older.set_engine_version("pbem-engine 1");
  std::string& r = *older.mutable_turns(0)->mutable_result();
  r.back() = static_cast<char>(r.back() ^ 1);
  const VerifyReport report = VerifyArchive(older);
  CHECK_FALSE(report.ok);
  CHECK(report.other_engine);
  CHECK_THAT(report.problem, Catch::Contains("made by an older engine (pbem-engine 1)"));
}

TEST_CASE("archive of a Morne Plaine game: its fields as before, another system's refused",
          "[turn][archive][system]") {
  Store store;
  REQUIRE(
      testing::PlayBundledGame(store.repository, "mp", 1'700'000'000'000, 3, {false, true, false}));
  Result<pbem::v1::Archive> archive = ExportArchive(store.repository, "mp");
  REQUIRE(archive.ok());
  CHECK(archive->system().empty());
  CHECK(archive->system_ruleset().empty());
  CHECK(archive->has_ruleset());
  for (const pbem::v1::ArchivedTurn& turn : archive->turns()) {
    CHECK(turn.player().empty());
    CHECK(turn.side() != pbem::v1::SIDE_UNSPECIFIED);
  }
  CHECK(VerifyArchive(*archive).ok);
  // Named explicitly, Morne Plaine's archive is the same archive.
  pbem::v1::Archive named = *archive;
  named.set_system("morne-plaine");
  CHECK(VerifyArchive(named).ok);
  pbem::v1::Archive stray = *archive;
  stray.set_system_ruleset("x");
  VerifyReport report = VerifyArchive(stray);
  CHECK_FALSE(report.ok);
  CHECK_THAT(report.problem, Catch::Contains("fields system_ruleset and system_scenario"));
  stray = *archive;
  stray.mutable_turns(1)->set_player("blue");
  report = VerifyArchive(stray);
  CHECK_FALSE(report.ok);
  CHECK(report.failed_turn == 2);
  CHECK_THAT(report.problem, Catch::Contains("field player: a Morne Plaine turn names its side"));
}

}  // namespace
}  // namespace pbem::daemon
