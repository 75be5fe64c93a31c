// pbem ruleset check DIR
#include <iostream>

#include "daemon/cli/cli.h"

namespace pbem::cli {

int RunRulesetCommand(const Args& args) {
  if (WantsHelp(args)) {
    std::cout << *Usage("ruleset");
    return kExitOk;
  }
  if (args.empty() || args.front() != "check") {
    return UsageError("ruleset", args.empty() ? "ruleset: which command? check"
                                              : "ruleset: unknown command '" + args.front() + "'");
  }
  if (args.size() != 2) return UsageError("ruleset", "ruleset check: give exactly one directory");
  const std::string& dir = args[1];

  const auto loaded = codec::LoadRulesetDir(dir);
  if (!loaded.ok()) {
    PrintErrors(loaded.errors());
    std::cerr << dir << ": " << loaded.errors().size() << " error"
              << (loaded.errors().size() == 1 ? "" : "s") << "\n";
    return kExitProblems;
  }
  const engine::Ruleset& rs = loaded.value().ruleset;
  std::cout << dir << ": ruleset '" << rs.name << "' version '" << rs.version
            << "': " << rs.movement_classes.size() << " movement classes, " << rs.terrain.size()
            << " terrain types, " << rs.unit_types.size() << " unit types, CRT "
            << rs.crt.columns.size() << " columns x " << rs.crt.rows.size() << " rows, "
            << rs.terrain_combat.size() << " terrain combat effects\n";
  return kExitOk;
}

}  // namespace pbem::cli
