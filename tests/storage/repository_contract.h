// The GameRepository contract: one Catch2 suite that every backend must pass.
//
// A backend's test calls RunGameRepositoryContract() from one TEST_CASE with a factory of
// harnesses. Catch2 runs the TEST_CASE once per leaf SECTION of the suite, and every run asks
// the factory for a fresh, empty store.
#ifndef PBEM_TESTS_STORAGE_REPOSITORY_CONTRACT_H_
#define PBEM_TESTS_STORAGE_REPOSITORY_CONTRACT_H_

#include <functional>
#include <memory>
#include <string>

#include "storage/game_repository.h"

namespace pbem::storage {

// One empty store of one backend, alive as long as the harness.
class RepositoryHarness {
 public:
  virtual ~RepositoryHarness() = default;
  // A new, not yet opened repository on this harness's store (the same store at every call).
  virtual std::unique_ptr<GameRepository> NewRepository() = 0;
  // Runs one SQL statement directly on the store, behind the repository's back.
  virtual void ExecuteSql(const std::string& sql) = 0;
  // "sqlite" or "postgres": where the SQL to run behind the repository's back differs.
  virtual std::string Name() const = 0;
};

using HarnessFactory = std::function<std::unique_ptr<RepositoryHarness>()>;

void RunGameRepositoryContract(const HarnessFactory& make_harness);

// The LeagueRepository contract (league_contract.cc); the harness's repositories must also be
// LeagueRepositories.
void RunLeagueRepositoryContract(const HarnessFactory& make_harness);

}  // namespace pbem::storage

#endif  // PBEM_TESTS_STORAGE_REPOSITORY_CONTRACT_H_
