// pbem scenario [--bless] PATH...: the scenario catalogue runner, written in
// daemon/cli/scenario_runner.{h,cc}. CMake defines PBEM_HAVE_SCENARIO_RUNNER
// when scenario_runner.cc exists; without it the command says so.
#include <iostream>

#include "daemon/cli/cli.h"

#ifdef PBEM_HAVE_SCENARIO_RUNNER
#include "daemon/cli/scenario_runner.h"
#endif

namespace pbem::cli {

int RunScenarioCliCommand(const Args& args) {
  if (WantsHelp(args)) {
    std::cout << *Usage("scenario");
    return kExitOk;
  }
#ifdef PBEM_HAVE_SCENARIO_RUNNER
  return RunScenarioCommand(args);
#else
  std::cerr << "pbem scenario: not built (daemon/cli/scenario_runner.cc is missing; "
               "re-run cmake once it exists)\n";
  return kExitUsage;
#endif
}

}  // namespace pbem::cli
