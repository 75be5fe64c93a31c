// What the turn tests, the crash test and the storage benchmark share.
#ifndef PBEM_TESTS_TURN_TURN_TEST_UTIL_H_
#define PBEM_TESTS_TURN_TURN_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "proto/codec/codec.h"
#include "storage/game_repository.h"

namespace pbem::testing {

struct BundledGame {
  codec::LoadedRuleset ruleset;
  codec::LoadedScenario scenario;
};

// The bundled ruleset (engine/rulesets/morne-plaine) and scenario (bois-de-la-morne), loaded
// once from the source tree. On a load error prints it and exits 3 (the tree is broken).
const BundledGame& Bois();

// Creates game `id` of Bois() in the open `repository` at `start_ms` (ms since the epoch) and
// commits one player-turn per entry of `missed`, the i-th opened at start_ms + i and
// committed at start_ms + 60000 + 1000 i: the bot's orders (seed `seed` + i), or no orders
// and no submission when the entry is true (as pbemd resolves a missed turn). Dice from a
// FixedEntropy named after the game. False (after printing why) when a step failed.
bool PlayBundledGame(storage::GameRepository& repository, const std::string& id,
                     std::int64_t start_ms, int seed, const std::vector<bool>& missed);

// Runs argv (argv[0] is a path, no shell) and waits for it; its stdout and stderr go to
// `output`. Returns its exit code, or -1 when it did not exit normally or could not start.
int RunProcess(const std::vector<std::string>& argv, std::string& output);

}  // namespace pbem::testing

#endif  // PBEM_TESTS_TURN_TURN_TEST_UTIL_H_
