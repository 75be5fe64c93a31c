// pbem: the command-line tool. Dispatches to one function per command (see
// daemon/cli/cli.h); exit codes 0 ok, 1 problems found, 2 usage error.
#include <exception>
#include <iostream>

#include "daemon/cli/cli.h"

namespace pbem::cli {
namespace {

int Help(const Args& args) {
  if (args.empty()) {
    std::cout << *Usage("");
    return kExitOk;
  }
  if (const auto usage = Usage(args.front())) {
    std::cout << *usage;
    return kExitOk;
  }
  return UsageError("", "no help for unknown command '" + args.front() + "'");
}

int Run(const Args& argv) {
  if (argv.empty()) return UsageError("", "no command given");
  const std::string& command = argv.front();
  const Args rest(argv.begin() + 1, argv.end());
  if (command == "-h" || command == "--help") return Help({});
  if (command == "help") return Help(rest);
  if (command == "ruleset") return RunRulesetCommand(rest);
  if (command == "orders") {
    if (rest.empty()) return UsageError("orders", "orders: which command? encode, decode or check");
    const std::string& sub = rest.front();
    const Args sub_args(rest.begin() + 1, rest.end());
    if (sub == "-h" || sub == "--help") return Help({"orders"});
    if (sub == "encode") return RunOrdersCodecCommand(true, sub_args);
    if (sub == "decode") return RunOrdersCodecCommand(false, sub_args);
    if (sub == "check") return RunOrdersCheckCommand(sub_args);
    return UsageError("orders", "orders: unknown command '" + sub + "'");
  }
  if (command == "scenario") return RunScenarioCliCommand(rest);
  if (command == "demo") return RunDemoCommand(rest);
  if (command == "reach") return RunReachCommand(rest);
  if (command == "play") return RunPlayCommand(rest);
  if (command == "render") return RunRenderCommand(rest);
  if (command == "archive") return RunArchiveCommand(rest);
  if (command == "export") return RunExportCommand(rest);
  if (command == "import") return RunImportCommand(rest);
  if (command == "verify") return RunVerifyCommand(rest);
  if (command == "history") return RunHistoryCommand(rest);
  if (command == "league") return RunLeagueCommand(rest);
  if (command == "outbox") return RunOutboxCommand(rest);
  if (command == "turns") return RunTurnsCommand(rest);
  return UsageError("", "unknown command '" + command + "'");
}

}  // namespace
}  // namespace pbem::cli

int main(int argc, char** argv) {
  try {
    return pbem::cli::Run(pbem::cli::Args(argv + 1, argv + argc));
  } catch (const std::exception& e) {
    // Nothing here should throw; if something does, say what instead of
    // aborting with a bare "terminate called".
    std::cerr << "pbem: internal error: " << e.what() << "\n";
    return pbem::cli::kExitProblems;
  }
}
