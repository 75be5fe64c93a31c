// `pbem scenario`: the runner of the scenario catalogue (tests/scenarios/, our
// DATC). Each case file is a text-format pbem.v1.ScenarioCase; the nearest
// SCHEDULE file above it says whether the case must pass or is a known bug.
// The case format, the SCHEDULE rules and the output are documented in
// tests/scenarios/README.md.
#ifndef PBEM_DAEMON_CLI_SCENARIO_RUNNER_H_
#define PBEM_DAEMON_CLI_SCENARIO_RUNNER_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace pbem::cli {

// Runs `pbem scenario [--bless] [--verbose] PATH...`; `args` are the words
// after "scenario". Each PATH is a case file (*.case.textproto) or a directory
// searched recursively for them. Prints one line per case (PASS, FAIL with the
// failing fields indented below it, KNOWN_BUG, BLESSED) and a last line
// "N passed, M failed".
//
// Paths inside cases (rulesets, scenario files) are relative to the
// repository root, DataDir() ($PBEM_DATA_DIR when set, else the source
// directory the binary was built from). A relative PATH argument is taken
// relative to that root when it exists there, else to the current directory.
//
// --bless rewrites the top-level `expect { ... }` block of every failing case
// that is not a KNOWN_BUG with the actual results; everything else in the
// file is left as it was.
//
// Returns 0 when nothing failed, 1 when a case or a SCHEDULE entry failed,
// 2 on a usage error (no PATH, unknown option, PATH not found).
int RunScenarioCommand(const std::vector<std::string>& args);

// The same, writing the report to `out` and usage errors to `err`.
int RunScenarioCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace pbem::cli

#endif  // PBEM_DAEMON_CLI_SCENARIO_RUNNER_H_
