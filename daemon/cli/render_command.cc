// pbem render: the map image of a state, with the events of the player-turn that led to it.
//
//   pbem render --scenario S [--ruleset DIR] [--state F] [--result F] [--orders F]... [--seed N]
//               [--hex-size PX] -o map.png
//   pbem render --game G --turn N [--side SIDE] --db sqlite:DIR [--scenario S] -o map.png
//
// From files: the state is --state, else the next_state of --result, else the scenario's
// initial state; --result adds its event log. Each --orders file (any format) is then
// resolved in turn from that state with seeded dice (--seed, default 1) and the map shows
// the last one's events: `--orders blue.textproto --orders orange.textproto` plays a whole
// game turn.
// From a game store: the stored player-turn (game G, turn N, SIDE; without --side the last
// one stored for turn N), its result's state and events. The scenario is --scenario, else
// <data dir>/engine/scenarios/<the game's scenario>.textproto (or the game's scenario itself
// when it is a path).
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "daemon/cli/cli.h"
#include "engine/core/dice.h"
#include "engine/morne_plaine/turn.h"
#include "storage/sqlite_repository.h"
#include "templates/map_renderer.h"
#include "templates/png_writer.h"

namespace pbem::cli {

namespace {

struct RenderArgs {
  std::optional<std::string> scenario;
  std::optional<std::string> ruleset;
  std::optional<std::string> state;
  std::optional<std::string> result;
  std::vector<std::string> orders;
  std::uint64_t seed = 1;
  std::optional<std::string> game;
  std::optional<int> turn;
  std::optional<engine::Side> side;
  std::optional<std::string> db;
  std::optional<double> hex_size;
  std::optional<std::string> out;
};

// What to draw.
struct Picture {
  engine::GameState state;
  std::vector<engine::Event> events;
  bool has_events = false;
  std::optional<int> turn_played;
  std::optional<engine::Side> side_played;
};

std::optional<std::int64_t> ParseInt(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::size_t i = text[0] == '-' ? 1 : 0;
  if (i == text.size()) return std::nullopt;
  std::int64_t v = 0;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    v = v * 10 + (text[i] - '0');
  }
  return text[0] == '-' ? -v : v;
}

// Parses the command line; returns an exit code on a usage error.
std::optional<int> ParseArgs(const Args& args, RenderArgs& out) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool takes_value = a == "--scenario" || a == "--ruleset" || a == "--state" ||
                             a == "--result" || a == "--orders" || a == "--seed" || a == "--game" ||
                             a == "--turn" || a == "--side" || a == "--db" || a == "--hex-size" ||
                             a == "-o" || a == "--output";
    if (!takes_value) return UsageError("render", "render: unknown argument '" + a + "'");
    if (i + 1 >= args.size()) return UsageError("render", "render: " + a + " needs a value");
    const std::string& v = args[++i];
    if (a == "--scenario") out.scenario = v;
    if (a == "--ruleset") out.ruleset = v;
    if (a == "--state") out.state = v;
    if (a == "--result") out.result = v;
    if (a == "--orders") out.orders.push_back(v);
    if (a == "--game") out.game = v;
    if (a == "--db") out.db = v;
    if (a == "-o" || a == "--output") out.out = v;
    if (a == "--seed") {
      const auto n = ParseInt(v);
      if (!n || *n < 0) return UsageError("render", "render: --seed wants a number >= 0");
      out.seed = static_cast<std::uint64_t>(*n);
    }
    if (a == "--turn") {
      const auto n = ParseInt(v);
      if (!n || *n < 1 || *n > 100000) {
        return UsageError("render", "render: --turn wants a turn number >= 1");
      }
      out.turn = static_cast<int>(*n);
    }
    if (a == "--side") {
      out.side = engine::ParseSide(v);
      if (!out.side) return UsageError("render", "render: --side is blue or orange");
    }
    if (a == "--hex-size") {
      const auto n = ParseInt(v);
      if (!n || *n < 8 || *n > 200) {
        return UsageError("render", "render: --hex-size wants 8..200 pixels");
      }
      out.hex_size = static_cast<double>(*n);
    }
  }
  if (!out.out) return UsageError("render", "render: -o OUTPUT.png is required");
  if (out.game || out.turn || out.db || out.side) {
    if (!out.game || !out.turn || !out.db) {
      return UsageError("render", "render: --game, --turn and --db go together");
    }
    if (out.state || out.result || !out.orders.empty()) {
      return UsageError("render", "render: --state, --result and --orders do not go with --game");
    }
  } else if (!out.scenario) {
    return UsageError("render", "render: --scenario (or --game with --db) is required");
  }
  return std::nullopt;
}

// Reads a message file in any format; prints the errors and returns false on failure.
bool ReadMessage(const std::string& path, google::protobuf::Message& message) {
  const auto bytes = codec::ReadFile(path);
  if (!bytes.ok()) {
    PrintErrors(bytes.errors());
    return false;
  }
  const auto parsed =
      codec::ParseMessage(bytes.value(), codec::DetectFormat(bytes.value()), path, message);
  if (!parsed.ok()) {
    PrintErrors(parsed.errors());
    return false;
  }
  return true;
}

std::optional<engine::GameState> StateFrom(const pbem::v1::GameState& proto,
                                           const engine::Scenario& scenario,
                                           const std::string& source) {
  auto converted = codec::StateFromProto(proto, scenario);
  if (!converted.ok()) {
    std::vector<codec::Error> errors = converted.errors();
    for (codec::Error& e : errors) {
      e.where = e.where.empty() ? source : source + ": " + e.where;
    }
    PrintErrors(errors);
    return std::nullopt;
  }
  return std::move(converted).value();
}

// The event log of a stored or written TurnResult, for drawing (numbers come back as
// decimal text, which the map reads).
std::optional<std::vector<engine::Event>> EventsFrom(const pbem::v1::TurnResult& proto,
                                                     const engine::Scenario& scenario,
                                                     const std::string& source) {
  auto decoded = codec::TurnResultFromProto(proto, scenario, source);
  if (!decoded.ok()) {
    PrintErrors(decoded.errors());
    return std::nullopt;
  }
  return std::move(std::move(decoded).value().events);
}

// Resolves each orders file in turn from picture.state; the picture keeps the last events.
bool ResolveOrders(const ScenarioBundle& bundle, const std::vector<std::string>& files,
                   std::uint64_t seed, Picture& picture) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto bytes = ReadInput(files[i]);
    if (!bytes.ok()) {
      PrintErrors(bytes.errors());
      return false;
    }
    const auto proto = codec::ParseOrders(bytes.value(), std::nullopt, SourceName(files[i]));
    if (!proto.ok()) {
      PrintErrors(proto.errors());
      return false;
    }
    const engine::Orders orders = codec::OrdersFromProto(proto.value());
    // A fresh game takes its id from the first orders, as its players would have it.
    if (picture.state.game_id.empty()) picture.state.game_id = orders.game_id;
    const int turn = picture.state.turn;
    const engine::Side side = picture.state.side_to_move;
    engine::SeededDice dice(seed + i);
    engine::TurnResult result =
        engine::ResolvePlayerTurn(bundle.ruleset, bundle.scenario, picture.state, orders, dice);
    const VerdictCounts counts = CountVerdicts(result.verdicts);
    std::cerr << SourceName(files[i]) << ": turn " << turn << " " << engine::SideName(side) << ": "
              << SummaryLine(counts) << "\n";
    if (counts.header_problems > 0) {
      for (const engine::OrderVerdict& v : result.verdicts) {
        std::cerr << "  " << VerdictLine(v, codec::LabelWidth(bundle.scenario), &bundle.scenario)
                  << "\n";
      }
      std::cerr << "pbem: render: " << SourceName(files[i])
                << ": the orders are not for this game, turn and side; nothing resolved\n";
      return false;
    }
    picture.state = std::move(result.next_state);
    picture.events = std::move(result.events);
    picture.has_events = true;
    picture.turn_played = turn;
    picture.side_played = side;
  }
  return true;
}

int WritePicture(const ScenarioBundle& bundle, const Picture& picture, const RenderArgs& a) {
  templates::RenderOptions options;
  // One map per process: keeping its static layer for a next render would only cost a copy.
  options.reuse_static_layer = false;
  if (a.hex_size) options.hex_size = *a.hex_size;
  options.game_id = picture.state.game_id;
  options.turn_played = picture.turn_played;
  options.side_played = picture.side_played;
  std::vector<std::uint8_t> png;
  const templates::Status st = templates::RenderMapPng(
      bundle.ruleset, bundle.scenario, picture.state,
      picture.has_events ? &picture.events : nullptr, options, templates::PngOptions{}, &png);
  if (!st.ok) {
    std::cerr << "pbem: " << st.message << "\n";
    return kExitProblems;
  }
  const templates::Status written = templates::WriteFile(*a.out, png);
  if (!written.ok) {
    std::cerr << "pbem: render: " << written.message << "\n";
    return kExitProblems;
  }
  return kExitOk;
}

// The scenario file of a stored game.
std::string GameScenarioPath(const RenderArgs& a, const std::string& scenario_name) {
  if (a.scenario) return *a.scenario;
  // A game created from a file may name it by path.
  if (scenario_name.find('/') != std::string::npos ||
      std::filesystem::path(scenario_name).extension() == ".textproto") {
    return scenario_name;
  }
  return (DataDir() / "engine" / "scenarios" / (scenario_name + ".textproto")).string();
}

int RenderStoredTurn(const RenderArgs& a) {
  const std::string prefix = "sqlite:";
  if (a.db->rfind(prefix, 0) != 0) {
    return UsageError("render", "render: --db wants sqlite:DIR (the directory of " +
                                    std::string(storage::SqliteRepository::kFileName) + ")");
  }
  std::filesystem::path dir = a.db->substr(prefix.size());
  if (dir.filename() == storage::SqliteRepository::kFileName) dir = dir.parent_path();
  if (!std::filesystem::exists(dir / storage::SqliteRepository::kFileName)) {
    std::cerr << "pbem: render: no game store at " << (dir / storage::SqliteRepository::kFileName)
              << "\n";
    return kExitProblems;
  }
  storage::SqliteRepository repo(dir);
  if (const auto opened = repo.OpenOrMigrate(); !opened.ok()) {
    std::cerr << "pbem: render: " << opened.status().ToString() << "\n";
    return kExitProblems;
  }
  const auto game = repo.GetGame(*a.game);
  if (!game.ok()) {
    std::cerr << "pbem: render: game '" << *a.game << "': " << game.status().ToString() << "\n";
    return kExitProblems;
  }
  if (RefusedOtherSystem(*game, "render --game")) return kExitProblems;
  const auto turns = repo.ListTurns(*a.game);
  if (!turns.ok()) {
    std::cerr << "pbem: render: " << turns.status().ToString() << "\n";
    return kExitProblems;
  }
  const storage::Turn* chosen = nullptr;
  for (const storage::Turn& t : turns.value()) {
    if (t.turn != *a.turn) continue;
    if (a.side && t.side != engine::SideName(*a.side)) continue;
    chosen = &t;  // the last one stored wins
  }
  if (chosen == nullptr) {
    std::cerr << "pbem: render: game '" << *a.game << "' has no stored turn " << *a.turn
              << (a.side ? " for " + std::string(engine::SideName(*a.side)) : std::string()) << " ("
              << turns.value().size() << " player-turns stored)\n";
    return kExitProblems;
  }

  int exit_code = kExitOk;
  const auto bundle =
      LoadScenarioBundle(GameScenarioPath(a, game.value().scenario), a.ruleset, exit_code);
  if (!bundle) return exit_code;
  const std::string source =
      "game " + *a.game + " turn " + std::to_string(chosen->turn) + " " + chosen->side;
  pbem::v1::TurnResult result;
  if (!result.ParseFromString(chosen->result)) {
    std::cerr << "pbem: render: " << source << ": the stored result does not parse\n";
    return kExitProblems;
  }
  pbem::v1::GameState state_proto;
  if (!state_proto.ParseFromString(chosen->next_state)) {
    std::cerr << "pbem: render: " << source << ": the stored state does not parse\n";
    return kExitProblems;
  }
  Picture picture;
  const auto state = StateFrom(state_proto, bundle->scenario, source + ": next_state");
  if (!state) return kExitProblems;
  picture.state = *state;
  const auto events = EventsFrom(result, bundle->scenario, source + ": result");
  if (!events) return kExitProblems;
  picture.events = *events;
  picture.has_events = true;
  picture.turn_played = static_cast<int>(chosen->turn);
  picture.side_played = engine::ParseSide(chosen->side);
  return WritePicture(*bundle, picture, a);
}

int RenderFromFiles(const RenderArgs& a) {
  int exit_code = kExitOk;
  const auto bundle = LoadScenarioBundle(*a.scenario, a.ruleset, exit_code);
  if (!bundle) return exit_code;
  Picture picture;
  picture.state = engine::InitialState(bundle->scenario, "");
  if (a.result) {
    pbem::v1::TurnResult result;
    if (!ReadMessage(*a.result, result)) return kExitProblems;
    const auto events = EventsFrom(result, bundle->scenario, *a.result);
    if (!events) return kExitProblems;
    picture.events = *events;
    picture.has_events = true;
    if (result.turn() > 0) picture.turn_played = result.turn();
    picture.side_played = codec::SideFromProto(result.side());
    if (!a.state) {
      const auto state = StateFrom(result.next_state(), bundle->scenario, *a.result);
      if (!state) return kExitProblems;
      picture.state = *state;
    }
  }
  if (a.state) {
    pbem::v1::GameState proto;
    if (!ReadMessage(*a.state, proto)) return kExitProblems;
    const auto state = StateFrom(proto, bundle->scenario, *a.state);
    if (!state) return kExitProblems;
    picture.state = *state;
  }
  if (!ResolveOrders(*bundle, a.orders, a.seed, picture)) return kExitProblems;
  return WritePicture(*bundle, picture, a);
}

}  // namespace

int RunRenderCommand(const Args& args) {
  if (WantsHelp(args)) {
    std::cout << *Usage("render");
    return kExitOk;
  }
  RenderArgs a;
  if (const auto usage_error = ParseArgs(args, a)) return *usage_error;
  return a.game ? RenderStoredTurn(a) : RenderFromFiles(a);
}

}  // namespace pbem::cli
