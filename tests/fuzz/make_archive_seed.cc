// make_archive_seed SOURCE_DIR SCENARIO_FILE PLAYER_TURNS BOT_SEED OUT_FILE
// Writes an archive (binary pbem.v1.Archive) of PLAYER_TURNS bot player-turns of a scenario
// played with the bundled ruleset, resolved exactly as pbemd commits them (ResolveWithSeed,
// CommitmentFor), and checks that it verifies: how tests/fuzz/corpus/archive_verify/ seeds
// are made (tests/fuzz/README.md). No store is involved.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "daemon/turn/archive.h"
#include "daemon/turn/dice.h"
#include "daemon/turn/turn_job.h"
#include "engine/morne_plaine/bot.h"
#include "proto/codec/codec.h"

namespace {

namespace fs = std::filesystem;
using namespace pbem;

int Fail(const std::string& what) {
  std::cerr << "make_archive_seed: " << what << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::cerr << "usage: make_archive_seed SOURCE_DIR SCENARIO_FILE PLAYER_TURNS BOT_SEED OUT\n";
    return 2;
  }
  const fs::path source = argv[1];
  const int turns = std::atoi(argv[3]);
  const std::uint64_t bot_seed = std::strtoull(argv[4], nullptr, 10);
  auto ruleset = codec::LoadRulesetDir(source / "engine/rulesets/morne-plaine");
  if (!ruleset.ok()) return Fail(ruleset.ErrorText());
  auto scenario = codec::LoadScenarioFile(argv[2], ruleset.value().ruleset);
  if (!scenario.ok()) return Fail(scenario.ErrorText());
  const engine::Ruleset& rules = ruleset.value().ruleset;
  const engine::Scenario& sc = scenario.value().scenario;

  const storage::Timestamp t0{std::chrono::milliseconds(1'700'000'000'000)};
  const storage::NewGame game =
      daemon::MakeNewGame(ruleset.value().proto, scenario.value().proto, sc, "seed", t0);
  pbem::v1::Archive archive;
  archive.set_format_version(1);
  archive.set_game_id("seed");
  archive.set_engine_version(game.engine_version);
  *archive.mutable_ruleset() = ruleset.value().proto;
  *archive.mutable_scenario() = scenario.value().proto;
  archive.set_initial_state(game.initial_state);
  archive.set_created_at_ms(1'700'000'000'000);

  pbem::v1::GameState initial;
  if (!initial.ParseFromString(game.initial_state)) return Fail("initial state");
  auto start = codec::StateFromProto(initial, sc);
  if (!start.ok()) return Fail(start.ErrorText());
  engine::GameState state = std::move(start).value();
  daemon::FixedEntropy entropy("make_archive_seed");
  for (int k = 1; k <= turns && !state.finished; ++k) {
    auto seed = entropy.Draw(daemon::kSeedBytes);
    if (!seed.ok()) return Fail(seed.status().ToString());
    const pbem::v1::Orders orders =
        codec::OrdersToProto(engine::BotOrders(rules, sc, state, bot_seed + k), sc);
    const daemon::Resolution resolution = daemon::ResolveWithSeed(rules, sc, state, orders, *seed);
    pbem::v1::ArchivedTurn* turn = archive.add_turns();
    turn->set_sequence(k);
    turn->set_turn(state.turn);
    turn->set_side(codec::SideToProto(state.side_to_move));
    turn->set_orders(resolution.canonical_orders);
    turn->set_dice_seed(*seed);
    turn->set_dice_commitment(
        codec::SerializeMessage(daemon::CommitmentFor(*seed), codec::Format::kBinary));
    turn->set_result(resolution.result);
    turn->set_next_state(resolution.next_state);
    turn->set_committed_at_ms(1'700'000'000'000 + k * 60'000);
    state = resolution.next;
  }
  const daemon::VerifyReport report = daemon::VerifyArchive(archive);
  if (!report.ok) return Fail("the archive does not verify: " + report.problem);
  std::ofstream out(argv[5], std::ios::binary);
  out << codec::SerializeMessage(archive, codec::Format::kBinary);
  if (!out.flush()) return Fail(std::string("cannot write ") + argv[5]);
  std::cout << archive.turns_size() << " player-turns verified, written to " << argv[5] << "\n";
  return 0;
}
