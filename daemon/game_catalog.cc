#include "daemon/game_catalog.h"

#include "engine/morne_plaine/victory.h"
#include "proto/codec/codec.h"

namespace pbem::daemon {
namespace {

// Morne Plaine's outcome in the interface's terms, as its adapter's GameOutcome states it
// (engine/system/morne_plaine.cc): side ids, the level's code, victory points. Here until the
// catalog loads games through the interface and asks the system itself.
game_system::Outcome OutcomeOf(const engine::GameState& state) {
  game_system::Outcome out;
  out.finished = state.finished;
  if (!state.finished) return out;
  const engine::GameOutcome& o = state.outcome;
  if (o.winner) out.winner = std::string(engine::SideName(*o.winner));
  out.level = std::string(engine::VictoryLevelName(o.level));
  out.scores = {{"blue", o.vp_blue}, {"orange", o.vp_orange}};
  return out;
}

}  // namespace

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
  auto data = std::make_shared<ScenarioData>();
  data->ruleset_proto = ruleset.value().proto;
  data->scenario_proto = scenario.value().proto;
  data->ruleset = std::move(ruleset).value().ruleset;
  data->scenario = std::move(scenario).value().scenario;
  cache_[name] = data;
  return std::shared_ptr<const ScenarioData>(data);
}

Result<GameContext> GameCatalog::Load(const storage::Game& game) {
  Result<std::shared_ptr<const ScenarioData>> data = Scenario(game.scenario);
  if (!data.ok()) return data.status();
  pbem::v1::GameState proto;
  if (!proto.ParseFromString(game.state)) {
    return Status::Internal("game " + game.id + ": the stored state is not a pbem.v1.GameState");
  }
  auto state = codec::StateFromProto(proto, (*data)->scenario);
  if (!state.ok()) {
    return Status::Internal("game " + game.id + ": the stored state does not fit scenario " +
                            game.scenario + ": " + state.ErrorText());
  }
  GameContext context;
  context.data = *data;
  context.state = std::move(state).value();
  context.turn = {context.state.turn, std::string(engine::SideName(context.state.side_to_move))};
  context.finished = context.state.finished;
  context.outcome = OutcomeOf(context.state);
  return context;
}

}  // namespace pbem::daemon
