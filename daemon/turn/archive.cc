#include "daemon/turn/archive.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

#include "daemon/turn/dice.h"
#include "daemon/turn/system_turn.h"
#include "daemon/turn/turn_job.h"
#include "engine/morne_plaine/ids.h"
#include "engine/system/registry.h"
#include "proto/codec/codec.h"
#include "proto/codec/game_data.h"
#include "proto/codec/shown.h"
#include "proto/codec/systems.h"

namespace pbem::daemon {

namespace {

std::int64_t Millis(storage::Timestamp t) { return t.time_since_epoch().count(); }
storage::Timestamp FromMillis(std::int64_t ms) {
  return storage::Timestamp(std::chrono::milliseconds(ms));
}

// "" when equal, else where the bytes first differ.
std::string FirstDifference(const Bytes& expected, const Bytes& actual) {
  if (expected == actual) return "";
  const std::size_t n = std::min(expected.size(), actual.size());
  std::size_t at = 0;
  while (at < n && expected[at] == actual[at]) ++at;
  return "first difference at byte " + std::to_string(at) + " (archived " +
         std::to_string(expected.size()) + " bytes, re-resolved " + std::to_string(actual.size()) +
         ")";
}

// N of "pbem-engine N"; nullopt for any other text.
std::optional<long> EngineNumber(std::string_view version) {
  constexpr std::string_view kPrefix = "pbem-engine ";
  if (version.substr(0, kPrefix.size()) != kPrefix || version.size() == kPrefix.size() ||
      version.size() > kPrefix.size() + 9) {
    return std::nullopt;
  }
  long n = 0;
  for (const char c : version.substr(kPrefix.size())) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n;
}

// Why `turn`'s dice do not check: its commitment is not SHA-256 of its revealed 32-byte seed,
// or not byte for byte what the service publishes for that seed; nullopt when they check.
std::optional<std::string> DiceProblem(const pbem::v1::ArchivedTurn& turn) {
  pbem::v1::DiceCommitment commitment;
  if (!commitment.ParseFromString(turn.dice_commitment())) {
    return std::string("the dice commitment is not a pbem.v1.DiceCommitment");
  }
  if (turn.dice_seed().size() != kSeedBytes) {
    return std::string("the dice seed has " + std::to_string(turn.dice_seed().size()) +
                       " bytes, expected " + std::to_string(kSeedBytes));
  }
  if (commitment.commitment() != Hex(Sha256(turn.dice_seed()))) {
    return std::string("the commitment " + commitment.commitment() +
                       " is not SHA-256 of the revealed seed (" + Hex(Sha256(turn.dice_seed())) +
                       ")");
  }
  // The published commitment is committed to whole, derivation text included: it must be
  // byte for byte what the service publishes for this seed (CommitmentFor), so a changed
  // derivation, or a seed revealed in it early, fails here.
  if (commitment.derivation() != kDiceDerivation) {
    return std::string(
        "the commitment names another derivation than the one this program "
        "implements (\"" +
        std::string(kDiceDerivation) + "\")");
  }
  if (turn.dice_commitment() !=
      codec::SerializeMessage(CommitmentFor(turn.dice_seed()), codec::Format::kBinary)) {
    return std::string(
        "the dice commitment is not byte for byte the one published for its seed "
        "(a revealed seed or another field in it)");
  }
  return std::nullopt;
}

}  // namespace

std::string OtherEngineProblem(const std::string& archived) {
  const std::optional<long> theirs = EngineNumber(archived);
  const std::optional<long> ours = EngineNumber(kEngineVersion);
  const std::string which = !theirs || !ours ? "another" : *theirs < *ours ? "an older" : "a newer";
  const std::string name = archived.empty() ? std::string("no engine version") : archived;
  return "made by " + which + " engine (" + name + "); this build is " +
         std::string(kEngineVersion) + ": cannot replay";
}

Result<pbem::v1::Archive> ExportArchive(storage::GameRepository& repository,
                                        const std::string& game_id) {
  Result<storage::Game> game = repository.GetGame(game_id);
  if (!game.ok()) return game.status();
  const std::string what = "exporting game " + game_id;
  if (game->ruleset_proto.empty() || game->scenario_proto.empty() || game->initial_state.empty()) {
    return Status::FailedPrecondition(
        what +
        ": the game has no pinned ruleset, scenario or initial state (it was created "
        "without them), so it cannot be replayed");
  }
  pbem::v1::Archive archive;
  archive.set_format_version(1);
  archive.set_game_id(game_id);
  archive.set_engine_version(game->engine_version);
  // Morne Plaine's archive is what it has always been; another system's names it and carries
  // its own messages as pinned.
  const bool morne_plaine = game->system == codec::kMornePlaineSystem;
  if (!morne_plaine) {
    archive.set_system(game->system);
    archive.set_system_ruleset(game->ruleset_proto);
    archive.set_system_scenario(game->scenario_proto);
  } else if (!archive.mutable_ruleset()->ParseFromString(game->ruleset_proto) ||
             !archive.mutable_scenario()->ParseFromString(game->scenario_proto)) {
    return Status::Internal(what + ": the pinned ruleset or scenario does not parse");
  }
  archive.set_initial_state(game->initial_state);
  archive.set_created_at_ms(Millis(game->created_at));
  Result<std::vector<storage::Turn>> turns = repository.ListTurns(game_id);
  if (!turns.ok()) return turns.status();
  for (const storage::Turn& turn : *turns) {
    pbem::v1::ArchivedTurn* out = archive.add_turns();
    out->set_sequence(turn.sequence);
    out->set_turn(static_cast<std::int32_t>(turn.turn));
    if (!morne_plaine) {
      out->set_player(turn.side);
    } else if (const std::optional<engine::Side> side = engine::ParseSide(turn.side)) {
      out->set_side(codec::SideToProto(*side));
    } else {
      return Status::Internal(what + ": turn " + std::to_string(turn.sequence) +
                              " has an unknown side '" + turn.side + "'");
    }
    out->set_orders(turn.orders);
    out->set_dice_seed(turn.dice_seed);
    out->set_dice_commitment(turn.dice_commitment);
    out->set_result(turn.result);
    out->set_next_state(turn.next_state);
    out->set_committed_at_ms(Millis(turn.committed_at));
  }
  return archive;
}

namespace {

VerifyReport Failure(std::int64_t turn, std::string problem) {
  VerifyReport report;
  report.failed_turn = turn;
  report.problem = std::move(problem);
  return report;
}

// VerifyArchive of an archive of another system than Morne Plaine (Archive.system set): the
// same checks, through the game-system interface (daemon/turn/system_turn.h resolves).
VerifyReport VerifySystemArchive(const pbem::v1::Archive& archive) {
  namespace gs = game_system;
  static const gs::Registry registry = codec::SystemRegistry();
  gs::Result<const gs::GameSystem*> found = registry.Find(archive.system());
  if (!found.ok()) {
    return Failure(0, "field system: \"" + codec::Shown(archive.system()) + "\"" +
                          " is no game system this program plays");
  }
  const gs::GameSystem& system = **found;
  if (archive.has_ruleset() || archive.has_scenario()) {
    return Failure(0, "fields ruleset and scenario are Morne Plaine's; a " +
                          std::string(system.name()) +
                          " archive carries system_ruleset and system_scenario");
  }
  gs::Result<gs::Setup> setup =
      codec::SetupFromPinned(system.name(), archive.system_ruleset(), archive.system_scenario());
  if (!setup.ok()) {
    return Failure(0, "the archived ruleset or scenario is invalid: " + setup.status().message());
  }
  gs::Result<gs::State> start = system.DecodeState(*setup, archive.initial_state());
  if (!start.ok()) {
    return Failure(0, "the archived initial state is invalid: " + start.status().message());
  }
  gs::State state = std::move(start).value();
  VerifyReport report;
  std::int64_t expected_sequence = 0;
  for (const pbem::v1::ArchivedTurn& turn : archive.turns()) {
    ++expected_sequence;
    const std::string name =
        "player-turn " + std::to_string(expected_sequence) + " (turn " +
        std::to_string(turn.turn()) + " " +
        (turn.player().empty() ? std::string("no player") : codec::Shown(turn.player())) + ")";
    const auto fail_turn = [&](const std::string& problem) {
      VerifyReport failed = Failure(expected_sequence, name + ": " + problem);
      failed.turns_checked = report.turns_checked;
      return failed;
    };
    if (turn.sequence() != expected_sequence) {
      return fail_turn("sequence number " + std::to_string(turn.sequence()) + ", expected " +
                       std::to_string(expected_sequence));
    }
    if (turn.side() != pbem::v1::SIDE_UNSPECIFIED) {
      return fail_turn("field side: a " + std::string(system.name()) +
                       " turn names its player, not a Morne Plaine side");
    }
    if (std::optional<std::string> dice = DiceProblem(turn)) return fail_turn(*dice);
    gs::Result<gs::TurnInfo> waits = system.WhoseTurn(*setup, state);
    if (!waits.ok()) return fail_turn(waits.status().message());
    if (turn.turn() != waits->turn || turn.player() != waits->side) {
      return fail_turn("the state before it waits for turn " + std::to_string(waits->turn) + " " +
                       waits->side);
    }
    if (codec::CanonicalOrdersEnvelope(turn.orders()) != turn.orders()) {
      return fail_turn("the orders are not an orders envelope in canonical form");
    }
    Result<SystemResolution> resolution =
        ResolveSystemTurn(system, *setup, state, turn.orders(), turn.dice_seed());
    if (!resolution.ok()) return fail_turn(resolution.status().message());
    if (archive.engine_version() != kEngineVersion &&
        (turn.result() != resolution->result || turn.next_state() != resolution->next_state)) {
      VerifyReport other = fail_turn(OtherEngineProblem(archive.engine_version()));
      other.other_engine = true;
      return other;
    }
    if (std::string diff = FirstDifference(turn.result(), resolution->result); !diff.empty()) {
      return fail_turn("the result differs from the re-resolved one: " + diff);
    }
    if (std::string diff = FirstDifference(turn.next_state(), resolution->next_state);
        !diff.empty()) {
      return fail_turn("the next state differs from the re-resolved one: " + diff);
    }
    state = std::move(resolution->resolution.next);
    ++report.turns_checked;
  }
  report.ok = true;
  return report;
}

}  // namespace

VerifyReport VerifyArchive(const pbem::v1::Archive& archive) {
  VerifyReport report;
  const auto fail = [&report](std::int64_t turn, std::string problem) {
    report.ok = false;
    report.failed_turn = turn;
    report.problem = std::move(problem);
    return report;
  };
  if (archive.format_version() > 1) {
    return fail(0, "archive format version " + std::to_string(archive.format_version()) +
                       " is newer than this program knows (1)");
  }
  if (!archive.system().empty() && archive.system() != codec::kMornePlaineSystem) {
    return VerifySystemArchive(archive);
  }
  if (!archive.system_ruleset().empty() || !archive.system_scenario().empty()) {
    return fail(0,
                "fields system_ruleset and system_scenario belong to an archive of another "
                "system than Morne Plaine's (field system names none)");
  }
  codec::Result<codec::LoadedRuleset> ruleset =
      codec::RulesetFromProto(archive.ruleset(), "archive ruleset");
  if (!ruleset.ok()) return fail(0, "the archived ruleset is invalid: " + ruleset.ErrorText());
  codec::Result<codec::LoadedScenario> scenario =
      codec::ScenarioFromProto(archive.scenario(), "archive scenario", ruleset.value().ruleset);
  if (!scenario.ok()) return fail(0, "the archived scenario is invalid: " + scenario.ErrorText());
  const engine::Scenario& sc = scenario.value().scenario;
  pbem::v1::GameState initial;
  if (!initial.ParseFromString(archive.initial_state())) {
    return fail(0, "the archived initial state is not a pbem.v1.GameState");
  }
  codec::Result<engine::GameState> start = codec::StateFromProto(initial, sc);
  if (!start.ok()) return fail(0, "the archived initial state is invalid: " + start.ErrorText());
  engine::GameState state = std::move(start).value();

  std::int64_t expected_sequence = 0;
  for (const pbem::v1::ArchivedTurn& turn : archive.turns()) {
    ++expected_sequence;
    const std::optional<engine::Side> archived_side = codec::SideFromProto(turn.side());
    const std::string name =
        "player-turn " + std::to_string(expected_sequence) + " (turn " +
        std::to_string(turn.turn()) + " " +
        (archived_side ? std::string(engine::SideName(*archived_side)) : std::string("no side")) +
        ")";
    const auto fail_turn = [&](const std::string& problem) {
      return fail(expected_sequence, name + ": " + problem);
    };
    if (turn.sequence() != expected_sequence) {
      return fail_turn("sequence number " + std::to_string(turn.sequence()) + ", expected " +
                       std::to_string(expected_sequence));
    }
    if (!turn.player().empty()) {
      return fail_turn("field player: a Morne Plaine turn names its side, not a player");
    }
    if (std::optional<std::string> dice = DiceProblem(turn)) return fail_turn(*dice);
    if (!archived_side || turn.turn() != state.turn || *archived_side != state.side_to_move) {
      return fail_turn("the state before it waits for turn " + std::to_string(state.turn) + " " +
                       std::string(engine::SideName(state.side_to_move)));
    }
    pbem::v1::Orders orders;
    if (!orders.ParseFromString(turn.orders())) {
      return fail_turn("the orders are not a pbem.v1.Orders");
    }
    if (codec::CanonicalOrders(orders) != turn.orders()) {
      return fail_turn("the orders are not in canonical form");
    }
    // The result is re-encoded in the format it was archived in: an archive written before
    // format 2 keeps its format-1 bytes and verifies as it did (proto/README.md, "Archives").
    // Bytes that do not parse are compared with the current format (and differ).
    pbem::v1::TurnResult archived_result;
    std::optional<codec::TurnResultFormat> format = codec::kCurrentTurnResultFormat;
    if (archived_result.ParseFromString(turn.result())) {
      format = codec::TurnResultFormatOf(archived_result);
    }
    if (!format) {
      return fail_turn("the result's format version " +
                       std::to_string(archived_result.format_version()) +
                       " is newer than this program knows (" +
                       std::to_string(static_cast<int>(codec::kCurrentTurnResultFormat)) + ")");
    }
    const Resolution resolution =
        ResolveWithSeed(ruleset.value().ruleset, sc, state, orders, turn.dice_seed(), *format);
    // Another engine's archive that does not re-resolve: this build cannot tell tampering from
    // the engine's own changes, and says which (issue 14: not reported as a mismatch).
    if (archive.engine_version() != kEngineVersion &&
        (turn.result() != resolution.result || turn.next_state() != resolution.next_state)) {
      report.other_engine = true;
      return fail_turn(OtherEngineProblem(archive.engine_version()));
    }
    if (std::string diff = FirstDifference(turn.result(), resolution.result); !diff.empty()) {
      return fail_turn("the result differs from the re-resolved one: " + diff);
    }
    if (std::string diff = FirstDifference(turn.next_state(), resolution.next_state);
        !diff.empty()) {
      return fail_turn("the next state differs from the re-resolved one: " + diff);
    }
    state = resolution.next;
    ++report.turns_checked;
  }
  report.ok = true;
  return report;
}

Status ImportArchive(storage::GameRepository& repository, const pbem::v1::Archive& archive,
                     const std::string& game_id) {
  const std::string id = game_id.empty() ? archive.game_id() : game_id;
  const std::string what = "importing the archive of game " + archive.game_id() + " as " + id;
  const VerifyReport report = VerifyArchive(archive);
  if (!report.ok) {
    return Status::InvalidArgument(what + ": it does not verify: " + report.problem);
  }
  const bool morne_plaine =
      archive.system().empty() || archive.system() == codec::kMornePlaineSystem;
  storage::NewGame game;
  game.id = id;
  if (morne_plaine) {
    game.scenario = archive.scenario().name();
    game.ruleset_name = archive.ruleset().name();
    game.ruleset_version = archive.ruleset().version();
    game.ruleset_proto = codec::SerializeMessage(archive.ruleset(), codec::Format::kBinary);
    game.scenario_proto = codec::SerializeMessage(archive.scenario(), codec::Format::kBinary);
  } else {
    // Verified above: the pinned messages read.
    codec::PinnedGameData pinned;
    game_system::Result<game_system::Setup> setup = codec::SetupFromPinned(
        archive.system(), archive.system_ruleset(), archive.system_scenario(), pinned);
    if (!setup.ok()) return Status::InvalidArgument(what + ": " + setup.status().message());
    game.system = archive.system();
    game.scenario = pinned.scenario_name;
    game.ruleset_name = pinned.ruleset_name;
    game.ruleset_version = pinned.ruleset_version;
    game.ruleset_proto = pinned.ruleset;
    game.scenario_proto = pinned.scenario;
  }
  game.engine_version = archive.engine_version();
  game.initial_state = archive.initial_state();
  game.created_at = FromMillis(archive.created_at_ms());
  std::vector<storage::TurnCommit> turns;
  for (const pbem::v1::ArchivedTurn& turn : archive.turns()) {
    storage::TurnCommit commit;
    commit.game_id = id;
    commit.turn = turn.turn();
    commit.side = morne_plaine ? std::string(engine::SideName(*codec::SideFromProto(turn.side())))
                               : turn.player();
    commit.based_on = turn.sequence() - 1;
    commit.orders = turn.orders();
    commit.dice_seed = turn.dice_seed();
    commit.dice_commitment = turn.dice_commitment();
    commit.result = turn.result();
    commit.next_state = turn.next_state();
    commit.committed_at = FromMillis(turn.committed_at_ms());
    turns.push_back(std::move(commit));
  }
  // One transaction: an archive is loaded whole or not at all.
  return repository.ImportGame(game, turns);
}

}  // namespace pbem::daemon
