#include "daemon/game_catalog.h"

#include "proto/codec/codec.h"
#include "proto/codec/systems.h"

namespace pbem::daemon {
namespace {

// The system's own failure on data the daemon keeps (a stored state, the catalog's data): an
// internal error of the daemon's, the system's message after `context`.
Status FromSystem(const std::string& context, const game_system::Status& status) {
  return Status::Internal(context + status.message());
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
  data->ruleset_proto = std::move(ruleset.proto);
  data->scenario_proto = std::move(scenario.proto);
  data->ruleset = std::move(ruleset.ruleset);
  data->scenario = std::move(scenario.scenario);
  return data;
}

Result<GameContext> GameCatalog::Load(const storage::Game& game) {
  Result<std::shared_ptr<const ScenarioData>> data = Scenario(game.scenario);
  if (!data.ok()) return data.status();
  return Context(game, *data);
}

Result<GameContext> GameCatalog::LoadPinned(const storage::Game& game) {
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
  if (!outcome.ok()) return FromSystem(context, outcome.status());
  GameContext out;
  out.data = std::move(data);
  out.state = *state->handle.As<engine::GameState>(codec::kMornePlaineSystem);
  out.system_state = std::move(state).value();
  out.turn = std::move(turn).value();
  out.outcome = std::move(outcome).value();
  out.finished = out.outcome.finished;
  return out;
}

}  // namespace pbem::daemon
