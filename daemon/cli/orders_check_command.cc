// pbem orders check --scenario SCENARIO_FILE [--ruleset DIR] [--state STATE_FILE] [--lang en|fr]
//   FILE
// pbem orders check --game GAME [--db DB] [--scenario SCENARIO_FILE] [--ruleset DIR]
//   [--lang en|fr] FILE
//
// Without --state or --game the orders are checked against the scenario's initial state,
// which is right only for the first player-turn. --game reads the game's current state and
// its pinned scenario and ruleset (what pbemd resolves the turn with) from the store, as
// `pbem history` opens it. --state takes a pbem.v1.GameState in text, JSON or binary form,
// or the whole JSON reply of GET /v1/games/{id} (its "state" member is used).
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <iostream>
#include <memory>

#include "daemon/cli/cli.h"
#include "engine/morne_plaine/ids.h"
#include "pbem/v1/game.pb.h"
#include "storage/game_repository.h"

namespace pbem::cli {

namespace {

// Prints conversion errors, naming `where` when the error does not say where it is.
void PrintErrorsAt(std::vector<codec::Error> errors, const std::string& where) {
  for (codec::Error& e : errors) {
    if (e.where.empty()) e.where = where;
  }
  PrintErrors(errors);
}

// When `bytes` is the JSON reply of GET /v1/games/{id} (an object with "id", "sideToMove"
// and a "state" object), the "state" member as JSON; nullopt for anything else. Parsed with
// protobuf's JSON parser, whose nesting depth is bounded.
std::optional<std::string> StateOfGameReply(const std::string& bytes) {
  google::protobuf::Struct reply;
  if (!google::protobuf::util::JsonStringToMessage(bytes, &reply).ok()) return std::nullopt;
  const auto& fields = reply.fields();
  const auto state = fields.find("state");
  if (state == fields.end() || !state->second.has_struct_value() || fields.count("id") == 0 ||
      fields.count("sideToMove") == 0) {
    return std::nullopt;
  }
  std::string json;
  if (!google::protobuf::util::MessageToJsonString(state->second.struct_value(), &json).ok()) {
    return std::nullopt;
  }
  return json;
}

// Reads --state: a GameState in any format, or the whole GET /v1/games/{id} reply.
std::optional<engine::GameState> ReadStateFile(const std::string& path,
                                               const engine::Scenario& scenario) {
  const auto bytes = codec::ReadFile(path);
  if (!bytes.ok()) {
    PrintErrors(bytes.errors());
    return std::nullopt;
  }
  std::string input = bytes.value();
  codec::Format format = codec::DetectFormat(input);
  if (format == codec::Format::kJson) {
    if (auto state = StateOfGameReply(input)) input = std::move(*state);
  }
  pbem::v1::GameState proto;
  const auto parsed = codec::ParseMessage(input, format, path, proto);
  if (!parsed.ok()) {
    PrintErrors(parsed.errors());
    std::cerr << path
              << ": --state wants a pbem.v1.GameState (text, JSON or binary) or the JSON reply "
                 "of GET /v1/games/{id}\n";
    return std::nullopt;
  }
  auto converted = codec::StateFromProto(proto, scenario);
  if (!converted.ok()) {
    PrintErrorsAt(converted.errors(), path);
    return std::nullopt;
  }
  return std::move(converted).value();
}

// The game's pinned ruleset and scenario, as the store keeps them.
std::optional<ScenarioBundle> BundleOfGame(const storage::Game& game) {
  const std::string where = "game " + game.id;
  pbem::v1::Ruleset ruleset_proto;
  pbem::v1::Scenario scenario_proto;
  if (game.ruleset_proto.empty() || game.scenario_proto.empty() ||
      !ruleset_proto.ParseFromString(game.ruleset_proto) ||
      !scenario_proto.ParseFromString(game.scenario_proto)) {
    std::cerr << where << ": the store holds no scenario and ruleset for it; give --scenario\n";
    return std::nullopt;
  }
  auto ruleset = codec::RulesetFromProto(ruleset_proto, where + " ruleset");
  if (!ruleset.ok()) {
    PrintErrors(ruleset.errors());
    return std::nullopt;
  }
  ScenarioBundle bundle;
  bundle.ruleset = std::move(ruleset).value().ruleset;
  auto scenario = codec::ScenarioFromProto(scenario_proto, where + " scenario", bundle.ruleset);
  if (!scenario.ok()) {
    PrintErrors(scenario.errors());
    return std::nullopt;
  }
  bundle.scenario = std::move(scenario).value().scenario;
  return bundle;
}

}  // namespace

int RunOrdersCheckCommand(const Args& args) {
  if (WantsHelp(args)) {
    std::cout << *Usage("orders");
    return kExitOk;
  }
  std::optional<std::string> scenario_path;
  std::optional<std::string> ruleset_dir;
  std::optional<std::string> state_path;
  std::optional<std::string> game_id;
  std::optional<std::string> db;
  std::optional<std::string> orders_path;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--lang") {
      if (i + 1 >= args.size()) return UsageError("orders", "orders check: --lang needs a value");
      const std::optional<templates::Language> language = templates::ParseLanguage(args[++i]);
      if (!language) {
        return UsageError("orders", "orders check: --lang must be en or fr, not '" + args[i] + "'");
      }
      SetSentenceLanguage(*language);
    } else if (a == "--scenario" || a == "--ruleset" || a == "--state" || a == "--game" ||
               a == "--db") {
      if (i + 1 >= args.size())
        return UsageError("orders", "orders check: " + a + " needs a value");
      const std::string& value = args[++i];
      if (a == "--scenario") scenario_path = value;
      if (a == "--ruleset") ruleset_dir = value;
      if (a == "--state") state_path = value;
      if (a == "--game") game_id = value;
      if (a == "--db") db = value;
    } else if (a.size() > 1 && a[0] == '-') {
      return UsageError("orders", "orders check: unknown option '" + a + "'");
    } else if (orders_path) {
      return UsageError("orders", "orders check: give exactly one orders file");
    } else {
      orders_path = a;
    }
  }
  if (db && !game_id) return UsageError("orders", "orders check: --db goes with --game");
  if (game_id && state_path) {
    return UsageError("orders", "orders check: --state and --game do not go together");
  }
  if (!scenario_path && !game_id) {
    return UsageError("orders", "orders check: --scenario (or --game) is required");
  }
  if (!orders_path) return UsageError("orders", "orders check: no orders file");

  int exit_code = kExitOk;
  std::optional<ScenarioBundle> bundle;
  std::optional<engine::GameState> state;
  if (game_id) {
    const auto repository = OpenGameStore(db, /*must_exist=*/true);
    if (!repository) return kExitProblems;
    Result<storage::Game> game = repository->GetGame(*game_id);
    if (!game.ok()) {
      std::cerr << "pbem: game '" << *game_id << "': " << game.status().ToString() << "\n";
      return kExitProblems;
    }
    if (RefusedOtherSystem(*game, "orders check --game")) return kExitProblems;
    bundle = scenario_path ? LoadScenarioBundle(*scenario_path, ruleset_dir, exit_code)
                           : BundleOfGame(*game);
    if (!bundle) return exit_code == kExitOk ? kExitProblems : exit_code;
    pbem::v1::GameState proto;
    if (!proto.ParseFromString(game->state)) {
      std::cerr << "game " << *game_id << ": its stored state is not a pbem.v1.GameState\n";
      return kExitProblems;
    }
    auto converted = codec::StateFromProto(proto, bundle->scenario);
    if (!converted.ok()) {
      PrintErrorsAt(converted.errors(), "game " + *game_id + " state");
      return kExitProblems;
    }
    state = std::move(converted).value();
    std::cout << "game " << *game_id << ": turn " << state->turn << ", "
              << engine::SideName(state->side_to_move) << " to move\n";
  } else {
    bundle = LoadScenarioBundle(*scenario_path, ruleset_dir, exit_code);
    if (!bundle) return exit_code;
    if (state_path) {
      state = ReadStateFile(*state_path, bundle->scenario);
      if (!state) return kExitProblems;
    }
  }

  const auto counts =
      CheckOrdersFile(*bundle, *orders_path, state ? &*state : nullptr, std::nullopt);
  if (!counts) return kExitProblems;
  if (!state && counts->header_problems > 0) {
    std::cerr << "pbem: checked against the scenario's opening position; for a game in "
                 "progress give --game GAME --db DB, or --state (pbem help orders)\n";
  }
  return counts->all_acceptable() ? kExitOk : kExitProblems;
}

}  // namespace pbem::cli
