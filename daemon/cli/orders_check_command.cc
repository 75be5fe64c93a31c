// pbem orders check --scenario SCENARIO_FILE [--ruleset DIR] [--state STATE_FILE] [--lang en|fr]
// FILE
#include <iostream>

#include "daemon/cli/cli.h"

namespace pbem::cli {

int RunOrdersCheckCommand(const Args& args) {
  if (WantsHelp(args)) {
    std::cout << *Usage("orders");
    return kExitOk;
  }
  std::optional<std::string> scenario_path;
  std::optional<std::string> ruleset_dir;
  std::optional<std::string> state_path;
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
    } else if (a == "--scenario" || a == "--ruleset" || a == "--state") {
      if (i + 1 >= args.size())
        return UsageError("orders", "orders check: " + a + " needs a value");
      const std::string& value = args[++i];
      if (a == "--scenario") scenario_path = value;
      if (a == "--ruleset") ruleset_dir = value;
      if (a == "--state") state_path = value;
    } else if (a.size() > 1 && a[0] == '-') {
      return UsageError("orders", "orders check: unknown option '" + a + "'");
    } else if (orders_path) {
      return UsageError("orders", "orders check: give exactly one orders file");
    } else {
      orders_path = a;
    }
  }
  if (!scenario_path) return UsageError("orders", "orders check: --scenario is required");
  if (!orders_path) return UsageError("orders", "orders check: no orders file");

  int exit_code = kExitOk;
  const auto bundle = LoadScenarioBundle(*scenario_path, ruleset_dir, exit_code);
  if (!bundle) return exit_code;

  std::optional<engine::GameState> state;
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
    auto converted = codec::StateFromProto(proto, bundle->scenario);
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

  const auto counts =
      CheckOrdersFile(*bundle, *orders_path, state ? &*state : nullptr, std::nullopt);
  if (!counts) return kExitProblems;
  return counts->all_acceptable() ? kExitOk : kExitProblems;
}

}  // namespace pbem::cli
