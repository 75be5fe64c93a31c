// Archives exported by `pbem-engine 2` before events had typed fields (tests/turn/fixtures/,
// made by build/bin/make_archive_seed from main at 6428ca6: 16 bot player-turns of the
// bundled scenario, bot seeds 2 and 3; between them every common event kind plus
// reaction_fire, stuck, rally and objective_taken). They must keep verifying and importing,
// and every stored turn result must decode into engine values and encode back to the same
// bytes, so that reading an old result and writing it again loses nothing.
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "pbem/v1/archive.pb.h"
#include "proto/codec/codec.h"
#include "tests/turn/turn_test_util.h"

namespace pbem::daemon {
namespace {

namespace fs = std::filesystem;

std::string ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

const char* const kFixtures[] = {"bois-v2-seed2.pbem", "bois-v2-seed3.pbem"};

TEST_CASE("archives exported before typed events verify and import", "[turn][cli]") {
  std::string scratch_pattern = (fs::temp_directory_path() / "pbem-old-archive-XXXXXX").string();
  REQUIRE(mkdtemp(scratch_pattern.data()) != nullptr);
  const fs::path scratch = scratch_pattern;
  const std::string db = "sqlite:" + (scratch / "data").string();
  for (const char* name : kFixtures) {
    INFO(name);
    const std::string file = std::string(PBEM_SOURCE_DIR) + "/tests/turn/fixtures/" + name;
    std::string out;
    REQUIRE(testing::RunProcess({PBEM_BINARY, "verify", file}, out) == 0);
    CHECK_THAT(out, Catch::Contains("ok, game seed, 16 player-turns verified"));
    REQUIRE(testing::RunProcess({PBEM_BINARY, "import", file, "--as", name, "--db", db}, out) == 0);
    REQUIRE(testing::RunProcess({PBEM_BINARY, "history", name, "--db", db}, out) == 0);
    CHECK_THAT(out, Catch::Contains("16"));
  }
  fs::remove_all(scratch);
}

TEST_CASE("every turn result of an old archive decodes and encodes back to its bytes", "[turn]") {
  for (const char* name : kFixtures) {
    INFO(name);
    pbem::v1::Archive archive;
    REQUIRE(archive.ParseFromString(
        ReadBytes(fs::path(PBEM_SOURCE_DIR) / "tests/turn/fixtures" / name)));
    auto ruleset = codec::RulesetFromProto(archive.ruleset(), "archive");
    REQUIRE(ruleset.ok());
    auto scenario =
        codec::ScenarioFromProto(archive.scenario(), "archive", ruleset.value().ruleset);
    REQUIRE(scenario.ok());
    const engine::Scenario& sc = scenario.value().scenario;
    int events = 0;
    for (const pbem::v1::ArchivedTurn& turn : archive.turns()) {
      INFO("sequence " << turn.sequence());
      pbem::v1::TurnResult stored;
      REQUIRE(stored.ParseFromString(turn.result()));
      auto decoded = codec::TurnResultFromProto(stored, sc, "result");
      REQUIRE(decoded.ok());
      REQUIRE(decoded.value().events.size() == static_cast<std::size_t>(stored.events_size()));
      events += stored.events_size();
      const auto side = codec::SideFromProto(stored.side());
      REQUIRE(side.has_value());
      CHECK(stored.format_version() == 1);
      pbem::v1::TurnResult again = codec::TurnResultToProto(decoded.value(), sc, stored.turn(),
                                                            *side, codec::TurnResultFormat::kArgs);
      *again.mutable_dice() = stored.dice();
      CHECK(codec::SerializeMessage(again, codec::Format::kBinary) ==
            codec::SerializeMessage(stored, codec::Format::kBinary));
    }
    CHECK(events > 500);
  }
}

}  // namespace
}  // namespace pbem::daemon
