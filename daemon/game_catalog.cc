#include "daemon/game_catalog.h"

#include <utility>

#include "proto/codec/codec.h"
#include "proto/codec/game_data.h"
#include "proto/codec/systems.h"

namespace pbem::daemon {
namespace {

// The system's own failure on data the daemon keeps (a stored state, the catalog's data): an
// internal error of the daemon's, the system's message after `context`.
Status FromSystem(const std::string& context, const game_system::Status& status) {
  return Status::Internal(context + status.message());
}

// The daemon's data (its files) does not fit: FAILED_PRECONDITION with the system's message.
Status DataProblem(const game_system::Status& status) {
  return Status::FailedPrecondition(status.message());
}

}  // namespace

GameCatalog::GameCatalog(std::filesystem::path scenarios_dir, std::filesystem::path rulesets_dir)
    : scenarios_dir_(std::move(scenarios_dir)),
      rulesets_dir_(std::move(rulesets_dir)),
      systems_(codec::SystemRegistry()) {}

Result<std::shared_ptr<const ScenarioData>> GameCatalog::Scenario(const std::string& name) {
  std::lock_guard lock(mutex_);
  if (auto it = cache_.find(name); it != cache_.end()) return it->second;
  if (name.empty() || name.find('/') != std::string::npos || name.find("..") != std::string::npos) {
    return Status::FailedPrecondition("scenario name \"" + name + "\" is not a plain name");
  }
  const std::filesystem::path path = scenarios_dir_ / (name + ".textproto");
  auto text = codec::ReadFile(path);
  if (!text.ok()) return Status::FailedPrecondition(text.ErrorText());
  pbem::v1::Scenario proto;
  auto parsed = codec::ParseMessage(text.value(), codec::Format::kText, path.string(), proto);
  if (!parsed.ok()) return Status::FailedPrecondition(parsed.ErrorText());
  if (proto.ruleset().empty()) {
    return Status::FailedPrecondition(path.string() + ": ruleset: the scenario names no ruleset");
  }
  auto ruleset = codec::LoadRulesetDir(rulesets_dir_ / proto.ruleset());
  if (!ruleset.ok()) return Status::FailedPrecondition(ruleset.ErrorText());
  auto scenario = codec::LoadScenarioText(text.value(), path.string(), ruleset.value().ruleset);
  if (!scenario.ok()) return Status::FailedPrecondition(scenario.ErrorText());
  Result<std::shared_ptr<ScenarioData>> data =
      Build(std::move(ruleset).value(), std::move(scenario).value());
  if (!data.ok()) return data.status();
  cache_[name] = *data;
  return std::shared_ptr<const ScenarioData>(*data);
}

Result<std::shared_ptr<ScenarioData>> GameCatalog::Build(codec::LoadedRuleset ruleset,
                                                         codec::LoadedScenario scenario) const {
  // Morne Plaine is the one system the catalog loads today: its scenario files are
  // pbem.v1.Scenario (issue 16 brings the others' games to pbemd).
  auto system = systems_.Find(codec::kMornePlaineSystem);
  if (!system.ok()) return FromSystem("", system.status());
  auto data = std::make_shared<ScenarioData>();
  data->system = *system;
  data->setup = codec::MornePlaineSetup(ruleset, scenario);
  data->pinned.ruleset_name = ruleset.proto.name();
  data->pinned.ruleset_version = ruleset.proto.version();
  data->pinned.scenario_name = scenario.proto.name();
  data->pinned.ruleset = codec::SerializeMessage(ruleset.proto, codec::Format::kBinary);
  data->pinned.scenario = codec::SerializeMessage(scenario.proto, codec::Format::kBinary);
  data->ruleset_proto = std::move(ruleset.proto);
  data->scenario_proto = std::move(scenario.proto);
  data->ruleset = std::move(ruleset.ruleset);
  data->scenario = std::move(scenario.scenario);
  return data;
}

Result<std::shared_ptr<const ScenarioData>> GameCatalog::Scenario(std::string_view system,
                                                                  const std::string& name) {
  if (system == codec::kMornePlaineSystem) return Scenario(name);
  Result<const game_system::GameSystem*> found = System(system);
  if (!found.ok()) return found.status();
  const std::string key = std::string(system) + "/" + name;
  std::lock_guard lock(mutex_);
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  game_system::Result<game_system::GameData> files =
      codec::ReadGameData(scenarios_dir_, rulesets_dir_, system, name);
  if (!files.ok()) return DataProblem(files.status());
  game_system::Result<codec::PinnedGameData> pinned = codec::PinGameData(system, *files);
  if (!pinned.ok()) return DataProblem(pinned.status());
  game_system::Result<game_system::Setup> setup =
      codec::SetupFromPinned(system, pinned->ruleset, pinned->scenario);
  if (!setup.ok()) return DataProblem(setup.status());
  auto data = std::make_shared<ScenarioData>();
  data->system = *found;
  data->setup = std::move(setup).value();
  data->pinned = std::move(pinned).value();
  cache_[key] = data;
  return std::shared_ptr<const ScenarioData>(data);
}

Result<const game_system::GameSystem*> GameCatalog::System(std::string_view name) const {
  game_system::Result<const game_system::GameSystem*> system = systems_.Find(name);
  if (!system.ok()) {
    return Status::FailedPrecondition(
        "game system \"" + std::string(name) +
        "\" is not one this pbemd plays: " + system.status().message());
  }
  return *system;
}

Status GameCatalog::OnlyMornePlaine(const storage::Game& game) {
  if (game.system == codec::kMornePlaineSystem) return Status::Ok();
  return Status::FailedPrecondition("game " + game.id + " plays " + game.system +
                                    ": pbemd plays that system's games but does not show them here "
                                    "yet");
}

Result<std::shared_ptr<const ScenarioData>> GameCatalog::ScenarioOf(const storage::Game& game) {
  if (Status only = OnlyMornePlaine(game); !only.ok()) return only;
  return Scenario(game.scenario);
}

Result<GameContext> GameCatalog::Load(const storage::Game& game) {
  Result<std::shared_ptr<const ScenarioData>> data = ScenarioOf(game);
  if (!data.ok()) return data.status();
  return Context(game, *data);
}

Result<GameContext> GameCatalog::LoadAny(const storage::Game& game, bool pinned) {
  if (game.system == codec::kMornePlaineSystem) return pinned ? LoadPinned(game) : Load(game);
  if (!pinned) {
    Result<std::shared_ptr<const ScenarioData>> data = Scenario(game.system, game.scenario);
    if (!data.ok()) return data.status();
    return Context(game, *data);
  }
  const std::string context = "game " + game.id + ": ";
  Result<const game_system::GameSystem*> system = System(game.system);
  if (!system.ok()) return system.status();
  game_system::Result<game_system::Setup> setup =
      codec::SetupFromPinned(game.system, game.ruleset_proto, game.scenario_proto);
  if (!setup.ok()) return FromSystem(context, setup.status());
  auto data = std::make_shared<ScenarioData>();
  data->system = *system;
  data->setup = std::move(setup).value();
  data->pinned = {game.ruleset_name, game.ruleset_version, game.scenario, game.ruleset_proto,
                  game.scenario_proto};
  return Context(game, std::move(data));
}

Result<GameContext> GameCatalog::LoadPinned(const storage::Game& game) {
  if (Status only = OnlyMornePlaine(game); !only.ok()) return only;
  if (game.ruleset_proto.empty() || game.scenario_proto.empty()) return Load(game);
  const std::string context = "game " + game.id + ": ";
  pbem::v1::Ruleset ruleset_proto;
  pbem::v1::Scenario scenario_proto;
  if (!ruleset_proto.ParseFromString(game.ruleset_proto) ||
      !scenario_proto.ParseFromString(game.scenario_proto)) {
    return Status::Internal(context + "its pinned ruleset or scenario does not parse");
  }
  auto ruleset = codec::RulesetFromProto(ruleset_proto, "the game's pinned ruleset");
  if (!ruleset.ok()) return Status::Internal(context + ruleset.ErrorText());
  auto scenario = codec::ScenarioFromProto(scenario_proto, "the game's pinned scenario",
                                           ruleset.value().ruleset);
  if (!scenario.ok()) return Status::Internal(context + scenario.ErrorText());
  Result<std::shared_ptr<ScenarioData>> data =
      Build(std::move(ruleset).value(), std::move(scenario).value());
  if (!data.ok()) return data.status();
  return Context(game, *data);
}

Result<GameContext> GameCatalog::Context(const storage::Game& game,
                                         std::shared_ptr<const ScenarioData> data) const {
  const game_system::GameSystem& system = *data->system;
  const std::string context = "game " + game.id + ": ";
  game_system::Result<game_system::State> state = system.DecodeState(data->setup, game.state);
  if (!state.ok()) return FromSystem(context, state.status());
  game_system::Result<game_system::TurnInfo> turn = system.WhoseTurn(data->setup, *state);
  if (!turn.ok()) return FromSystem(context, turn.status());
  game_system::Result<game_system::Outcome> outcome = system.GameOutcome(data->setup, *state);
  GameContext out;
  if (!outcome.ok()) {
    if (outcome.status().code() != game_system::StatusCode::kNotSupported) {
      return FromSystem(context, outcome.status());
    }
    out.outcome_known = false;
  } else {
    out.outcome = std::move(outcome).value();
  }
  out.data = std::move(data);
  if (system.name() == codec::kMornePlaineSystem) {
    out.state = *state->handle.As<engine::GameState>(codec::kMornePlaineSystem);
  }
  out.system_state = std::move(state).value();
  out.turn = std::move(turn).value();
  out.finished = out.outcome.finished;
  return out;
}

}  // namespace pbem::daemon
