// pbem reach --scenario SCENARIO_FILE [--state STATE_FILE] [--ruleset DIR] UNIT
//
// Lists every hex UNIT can reach this turn (engine::ReachableThisTurn: a fresh
// command check, the turn-start road chain, the board as it stands), sorted by
// cost then label:
//   b-i1 at 1404 movement points 3 (in command)
//   1304 cost 1 path 1304
// Exit 1 for an unknown unit or one that is not on the map.
#include <algorithm>
#include <iostream>
#include <string>

#include "daemon/cli/cli.h"
#include "engine/hex/hex.h"
#include "engine/morne_plaine/movement.h"
#include "engine/morne_plaine/reach.h"

namespace pbem::cli {

int RunReachCommand(const Args& args) {
  if (WantsHelp(args)) {
    std::cout << *Usage("reach");
    return kExitOk;
  }
  std::optional<std::string> scenario_path;
  std::optional<std::string> ruleset_dir;
  std::optional<std::string> state_path;
  std::optional<std::string> unit_id;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--scenario" || a == "--ruleset" || a == "--state") {
      if (i + 1 >= args.size()) return UsageError("reach", "reach: " + a + " needs a value");
      const std::string& value = args[++i];
      if (a == "--scenario") scenario_path = value;
      if (a == "--ruleset") ruleset_dir = value;
      if (a == "--state") state_path = value;
    } else if (a.size() > 1 && a[0] == '-') {
      return UsageError("reach", "reach: unknown option '" + a + "'");
    } else if (unit_id) {
      return UsageError("reach", "reach: give exactly one unit");
    } else {
      unit_id = a;
    }
  }
  if (!scenario_path) return UsageError("reach", "reach: --scenario is required");
  if (!unit_id) return UsageError("reach", "reach: no unit given");

  int exit_code = kExitOk;
  const auto bundle = LoadScenarioBundle(*scenario_path, ruleset_dir, exit_code);
  if (!bundle) return exit_code;
  const engine::Scenario& scenario = bundle->scenario;
  const engine::Ruleset& ruleset = bundle->ruleset;

  engine::GameState state = engine::InitialState(scenario, "reach");
  if (state_path) {
    const auto bytes = codec::ReadFile(*state_path);
    if (!bytes.ok()) {
      PrintErrors(bytes.errors());
      return kExitProblems;
    }
    pbem::v1::GameState proto;
    const auto parsed =
        codec::ParseMessage(bytes.value(), codec::DetectFormat(bytes.value()), *state_path, proto);
    if (!parsed.ok()) {
      PrintErrors(parsed.errors());
      return kExitProblems;
    }
    auto converted = codec::StateFromProto(proto, scenario);
    if (!converted.ok()) {
      std::vector<codec::Error> errors = converted.errors();
      for (codec::Error& e : errors) {
        if (e.where.empty()) e.where = *state_path;
      }
      PrintErrors(errors);
      return kExitProblems;
    }
    state = std::move(converted).value();
  }

  const auto unit = scenario.FindUnit(*unit_id);
  if (!unit || unit->index() >= state.units.size()) {
    std::cerr << "pbem: reach: unknown unit '" << *unit_id << "' in scenario " << scenario.name
              << "\n";
    return kExitProblems;
  }
  const engine::UnitState& us = state.unit(*unit);
  if (!us.on_map()) {
    std::cerr << "pbem: reach: unit '" << *unit_id << "' is not on the map"
              << (us.eliminated ? " (eliminated)" : "") << "\n";
    return kExitProblems;
  }

  // The same command check and allowance ReachableThisTurn uses, to name them.
  const engine::CommandStatus command = engine::CheckCommand(ruleset, scenario, state, *unit);
  engine::GameState checked = state;
  checked.unit(*unit).in_command = command.in_command;
  const engine::Allowance allowance = engine::MovementAllowance(ruleset, scenario, checked, *unit);

  std::cout << *unit_id << " at " << engine::FormatLabel(*us.hex) << " movement points "
            << allowance.points << " ("
            << (command.in_command ? "in command" : "out of command, MA halved")
            << (allowance.can_move ? "" : ", may not move") << ")\n";

  std::vector<engine::ReachableHex> reach =
      engine::ReachableThisTurn(ruleset, scenario, state, *unit);
  // ReachableThisTurn sorts by label; stable_sort by cost keeps the label order on ties.
  std::stable_sort(
      reach.begin(), reach.end(),
      [](const engine::ReachableHex& a, const engine::ReachableHex& b) { return a.cost < b.cost; });
  for (const engine::ReachableHex& h : reach) {
    std::cout << engine::FormatLabel(h.hex) << " cost " << h.cost << " path";
    for (const engine::Hex& p : h.path) std::cout << ' ' << engine::FormatLabel(p);
    if (h.ends_move) std::cout << " (enemy zoc: move ends)";
    if (h.stuck_chance_in_4 > 0) std::cout << " (marsh: stuck " << h.stuck_chance_in_4 << " in 4)";
    std::cout << "\n";
  }
  return kExitOk;
}

}  // namespace pbem::cli
