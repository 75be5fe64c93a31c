// make_system_archive_seed SOURCE_DIR SYSTEM SCENARIO PLAYER_TURNS BOT_SEED OUT_FILE
// Writes an archive (binary pbem.v1.Archive) of a game of another system than Morne Plaine
// (m42, wme): the bundled SCENARIO of SYSTEM, read and pinned as pbemd does, played for
// PLAYER_TURNS bot player-turns through the system-neutral turn job into a scratch SQLite
// store, exported as pbem export does, and checked to verify: how the system archives of
// tests/fuzz/corpus/archive_verify/ are made (tests/fuzz/README.md).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "daemon/turn/archive.h"
#include "daemon/turn/dice.h"
#include "daemon/turn/system_turn.h"
#include "engine/m42/orders.h"
#include "engine/wme/orders.h"
#include "pbem/v1/archive.pb.h"
#include "pbem/v1/orders.pb.h"
#include "proto/codec/codec.h"
#include "proto/codec/game_data.h"
#include "proto/codec/m42_codec.h"
#include "proto/codec/systems.h"
#include "proto/codec/wme_codec.h"
#include "storage/sqlite_repository.h"

namespace {

namespace fs = std::filesystem;
namespace gs = pbem::game_system;
using namespace pbem;

int Fail(const std::string& what) {
  std::cerr << "make_system_archive_seed: " << what << "\n";
  return 1;
}

storage::Timestamp At(std::int64_t ms) { return storage::Timestamp(std::chrono::milliseconds(ms)); }

// A scratch directory removed on every way out.
struct ScratchDir {
  fs::path path;
  ScratchDir() {
    std::string name = (fs::temp_directory_path() / "pbem-system-seed-XXXXXX").string();
    if (mkdtemp(name.data()) != nullptr) path = name;
  }
  ~ScratchDir() {
    std::error_code ignored;
    if (!path.empty()) fs::remove_all(path, ignored);
  }
};

// The orders envelope of the bot's orders `orders` (binary pbem.v1.Orders) for game "seed".
std::optional<std::string> Envelope(const std::string& system, int turn, const std::string& player,
                                    const gs::Orders& orders) {
  pbem::v1::Orders envelope;
  envelope.set_game_id("seed");
  envelope.set_turn(turn);
  envelope.set_player(player);
  if (const m42::Orders* m42 = orders.handle.As<m42::Orders>(system)) {
    *envelope.mutable_m42() = codec::M42OrdersToProto(*m42);
  } else if (const wme::TurnOrders* wme = orders.handle.As<wme::TurnOrders>(system)) {
    *envelope.mutable_wme() = codec::WmeOrdersToProto(*wme);
  } else {
    return std::nullopt;
  }
  return codec::SerializeMessage(envelope, codec::Format::kBinary);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7) {
    std::cerr << "usage: make_system_archive_seed SOURCE_DIR SYSTEM SCENARIO PLAYER_TURNS "
                 "BOT_SEED OUT\n";
    return 2;
  }
  const fs::path engine = fs::path(argv[1]) / "engine";
  const std::string system = argv[2];
  const int turns = std::atoi(argv[4]);
  const std::uint64_t bot_seed = std::strtoull(argv[5], nullptr, 10);
  const gs::Registry registry = codec::SystemRegistry();
  const gs::Result<const gs::GameSystem*> found = registry.Find(system);
  if (!found.ok()) return Fail(found.status().message());
  const gs::GameSystem& game_system = **found;

  gs::Result<gs::GameData> data =
      codec::ReadGameData(engine / "scenarios", engine / "rulesets", system, argv[3]);
  if (!data.ok()) return Fail(data.status().message());
  gs::Result<codec::PinnedGameData> pinned = codec::PinGameData(system, *data);
  if (!pinned.ok()) return Fail(pinned.status().message());
  gs::Result<gs::Setup> setup = codec::SetupFromPinned(system, pinned->ruleset, pinned->scenario);
  if (!setup.ok()) return Fail(setup.status().message());

  ScratchDir scratch;
  if (scratch.path.empty()) return Fail("cannot make a scratch directory");
  storage::SqliteRepository store(scratch.path);
  if (auto opened = store.OpenOrMigrate(); !opened.ok()) return Fail(opened.status().ToString());
  Result<storage::NewGame> game =
      daemon::MakeSystemGame(game_system, *setup, "seed", At(1'700'000'000'000),
                             {pinned->scenario_name, pinned->ruleset_name, pinned->ruleset_version,
                              pinned->ruleset, pinned->scenario});
  if (!game.ok()) return Fail(game.status().ToString());
  if (Status created = store.CreateGame(*game); !created.ok()) return Fail(created.ToString());
  daemon::FixedEntropy entropy("make_system_archive_seed");
  if (auto opened = daemon::OpenSystemTurn(store, game_system, *setup, "seed", entropy,
                                           At(1'700'000'001'000));
      !opened.ok()) {
    return Fail(opened.status().ToString());
  }
  for (int k = 1; k <= turns; ++k) {
    Result<gs::State> state = daemon::CurrentSystemState(store, game_system, *setup, "seed");
    if (!state.ok()) return Fail(state.status().ToString());
    const Result<bool> finished = daemon::SystemGameFinished(game_system, *setup, *state);
    if (!finished.ok()) return Fail(finished.status().ToString());
    if (*finished) break;
    const gs::Result<gs::TurnInfo> turn = game_system.WhoseTurn(*setup, *state);
    if (!turn.ok()) return Fail(turn.status().message());
    const gs::Result<gs::Orders> bot = game_system.BotOrders(*setup, *state, bot_seed + k);
    if (!bot.ok()) return Fail(bot.status().message());
    const std::optional<std::string> envelope = Envelope(system, turn->turn, turn->side, *bot);
    if (!envelope) return Fail("no orders envelope for " + system);
    daemon::SystemCommitPlan plan;
    plan.entropy = &entropy;
    Result<daemon::SystemCommittedTurn> committed = daemon::ResolveAndCommitSystemTurn(
        store, game_system, *setup, "seed", *envelope, At(1'700'000'000'000 + k * 60'000), plan);
    if (!committed.ok()) return Fail(committed.status().ToString());
  }
  Result<pbem::v1::Archive> archive = daemon::ExportArchive(store, "seed");
  if (!archive.ok()) return Fail(archive.status().ToString());
  const daemon::VerifyReport report = daemon::VerifyArchive(*archive);
  if (!report.ok) return Fail("the archive does not verify: " + report.problem);
  std::ofstream out(argv[6], std::ios::binary);
  out << codec::SerializeMessage(*archive, codec::Format::kBinary);
  if (!out.flush()) return Fail(std::string("cannot write ") + argv[6]);
  std::cout << archive->turns_size() << " player-turns of " << system << " verified, written to "
            << argv[6] << "\n";
  return 0;
}
