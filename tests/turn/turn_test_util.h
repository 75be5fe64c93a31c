// What the turn tests, the crash test and the storage benchmark share.
#ifndef PBEM_TESTS_TURN_TURN_TEST_UTIL_H_
#define PBEM_TESTS_TURN_TURN_TEST_UTIL_H_

#include <string>
#include <vector>

#include "proto/codec/codec.h"

namespace pbem::testing {

struct BundledGame {
  codec::LoadedRuleset ruleset;
  codec::LoadedScenario scenario;
};

// The bundled ruleset (engine/rulesets/morne-plaine) and scenario (bois-de-la-morne), loaded
// once from the source tree. On a load error prints it and exits 3 (the tree is broken).
const BundledGame& Bois();

// Runs argv (argv[0] is a path, no shell) and waits for it; its stdout and stderr go to
// `output`. Returns its exit code, or -1 when it did not exit normally or could not start.
int RunProcess(const std::vector<std::string>& argv, std::string& output);

}  // namespace pbem::testing

#endif  // PBEM_TESTS_TURN_TURN_TEST_UTIL_H_
