// The archive commands of the real `pbem` binary: export, verify, import, history, and a
// flipped byte in an archive FILE's orders or seed making `pbem verify` fail, naming the turn.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "daemon/turn/archive.h"
#include "daemon/turn/dice.h"
#include "daemon/turn/turn_job.h"
#include "engine/morne_plaine/bot.h"
#include "proto/codec/codec.h"
#include "storage/sqlite_repository.h"
#include "tests/turn/turn_test_util.h"

namespace pbem::daemon {
namespace {

namespace fs = std::filesystem;

int Run(const std::vector<std::string>& argv, std::string& output) {
  return testing::RunProcess(argv, output);
}

std::string ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteBytes(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TEST_CASE("pbem export/verify/import/history; a flipped archive byte names its turn",
          "[turn][cli]") {
  std::string scratch_pattern = (fs::temp_directory_path() / "pbem-archive-XXXXXX").string();
  REQUIRE(mkdtemp(scratch_pattern.data()) != nullptr);
  const fs::path scratch = scratch_pattern;
  const std::string db = "sqlite:" + (scratch / "data").string();
  const std::string pbem = PBEM_BINARY;

  // A game of 6 bot player-turns.
  {
    storage::SqliteRepository repository(scratch / "data");
    REQUIRE(repository.OpenOrMigrate().ok());
    REQUIRE(testing::PlayBundledGame(repository, "g1", 1'700'000'000'000, 100,
                                     std::vector<bool>(6, false)));
  }

  std::string out;
  const fs::path file = scratch / "g1.pbem";
  REQUIRE(Run({pbem, "export", "g1", "-o", file.string(), "--db", db}, out) == 0);
  REQUIRE(Run({pbem, "verify", file.string()}, out) == 0);
  CHECK_THAT(out, Catch::Contains("ok, game g1, 6 player-turns verified"));

  REQUIRE(Run({pbem, "history", "g1", "--db", db}, out) == 0);
  CHECK_THAT(out, Catch::Contains("6 player-turns"));
  CHECK_THAT(out, Catch::Contains("\n1 turn 1 blue 2023-11-14T22:14:20Z "));
  CHECK_THAT(out, Catch::Contains("\n6 turn 3 orange "));
  // Units are named as players know them (every bundled unit has a name), not by bare id.
  for (const char* bare :
       {"retreated: b-", "retreated: o-", "eliminated: b-", "eliminated: o-", ", b-", ", o-"}) {
    CHECK_THAT(out, !Catch::Contains(bare));
  }
  const std::string history = out;

  REQUIRE(Run({pbem, "import", file.string(), "--as", "copy", "--db", db}, out) == 0);
  REQUIRE(Run({pbem, "history", "copy", "--db", db}, out) == 0);
  // The same lines, under the other id.
  CHECK(out.substr(out.find('\n')) == history.substr(history.find('\n')));
  CHECK(Run({pbem, "import", file.string(), "--as", "copy", "--db", db}, out) == 1);
  CHECK_THAT(out, Catch::Contains("ALREADY_EXISTS"));

  pbem::v1::Archive archive;
  const std::string bytes = ReadBytes(file);
  REQUIRE(archive.ParseFromString(bytes));
  REQUIRE(archive.turns_size() == 6);

  // Flip one byte in the middle of turn k's orders (k = 2..6), or of its seed, in the file.
  for (int k = 2; k <= 6; ++k) {
    for (const bool seed : {false, true}) {
      const pbem::v1::ArchivedTurn& turn = archive.turns(k - 1);
      const std::string& field = seed ? turn.dice_seed() : turn.orders();
      const std::size_t at = bytes.find(field);
      REQUIRE(at != std::string::npos);
      REQUIRE(bytes.find(field, at + 1) == std::string::npos);  // the only place it is
      std::string tampered = bytes;
      tampered[at + field.size() / 2] = static_cast<char>(tampered[at + field.size() / 2] ^ 0x10);
      const fs::path bad = scratch / "tampered.pbem";
      WriteBytes(bad, tampered);
      INFO("turn " << k << (seed ? " seed" : " orders"));
      CHECK(Run({pbem, "verify", bad.string()}, out) == 1);
      CHECK_THAT(out, Catch::Contains("FAILED at player-turn " + std::to_string(k) + " "));
      CHECK_THAT(out, Catch::Contains("first differing turn: " + std::to_string(k) + "\n"));
      if (seed) CHECK_THAT(out, Catch::Contains("commitment"));
      // A tampered archive is not imported.
      CHECK(Run({pbem, "import", bad.string(), "--as", "bad", "--db", db}, out) == 1);
      CHECK(Run({pbem, "history", "bad", "--db", db}, out) == 1);
    }
  }

  // One letter of the derivation text in turn 3's published commitment changed in the file
  // (same length, so the file still parses): verify names the turn and the derivation.
  {
    const std::string& field = archive.turns(2).dice_commitment();
    const std::size_t at = bytes.find(field);
    REQUIRE(at != std::string::npos);
    const std::size_t word = field.find("SeededDice");
    REQUIRE(word != std::string::npos);
    std::string tampered = bytes;
    tampered[at + word] = 's';
    const fs::path bad = scratch / "derivation.pbem";
    WriteBytes(bad, tampered);
    CHECK(Run({pbem, "verify", bad.string()}, out) == 1);
    CHECK_THAT(out, Catch::Contains("FAILED at player-turn 3 "));
    CHECK_THAT(out, Catch::Contains("derivation"));
    CHECK(Run({pbem, "import", bad.string(), "--as", "derivation", "--db", db}, out) == 1);
  }

  // An archive of an older engine whose turn 2 no longer re-resolves: verify says so in a
  // sentence, not FAILED (seen failing before the fix: "FAILED at player-turn 2 ... result
  // differs", as for tampering).
  {
    pbem::v1::Archive older = archive;
    older.set_engine_version("pbem-engine 1");
    std::string result = archive.turns(1).result();
    result.back() = static_cast<char>(result.back() ^ 0x02);
    older.mutable_turns(1)->set_result(result);
    const fs::path old_file = scratch / "older.pbem";
    WriteBytes(old_file, codec::SerializeMessage(older, codec::Format::kBinary));
    CHECK(Run({pbem, "verify", old_file.string()}, out) == 1);
    CHECK_THAT(out, Catch::Contains(old_file.string() + ": not verified: player-turn 2 "));
    CHECK_THAT(out, Catch::Contains("made by an older engine (pbem-engine 1); this build is " +
                                    std::string(kEngineVersion) + ": cannot replay\n"));
    CHECK_THAT(out, !Catch::Contains("FAILED"));
  }

  // An archive whose scenario is broken fails before any turn.
  {
    pbem::v1::Archive broken = archive;
    broken.mutable_scenario()->set_width(-3);
    const fs::path bad = scratch / "broken.pbem";
    WriteBytes(bad, codec::SerializeMessage(broken, codec::Format::kBinary));
    CHECK(Run({pbem, "verify", bad.string()}, out) == 1);
    CHECK_THAT(out, Catch::Contains("FAILED before the first turn: the archived scenario"));
  }

  // Usage and input errors.
  CHECK(Run({pbem, "export", "nope", "-o", (scratch / "x").string(), "--db", db}, out) == 1);
  CHECK_THAT(out, Catch::Contains("game nope"));
  CHECK(Run({pbem, "verify"}, out) == 2);
  CHECK(Run({pbem, "history", "g1", "--db", "sqlite:" + (scratch / "none").string()}, out) == 1);
  CHECK_THAT(out, Catch::Contains("no database"));
  CHECK_FALSE(fs::exists(scratch / "none"));

  fs::remove_all(scratch);
}

}  // namespace
}  // namespace pbem::daemon
