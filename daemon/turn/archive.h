// Archives (pbem.v1.Archive, proto/pbem/v1/archive.proto): one self-contained file per game
// that anyone can replay and check, dice included. ExportArchive builds one from a store,
// ImportArchive loads one into a store, VerifyArchive checks one (the procedure is specified in
// proto/README.md, "Archives").
#ifndef PBEM_DAEMON_TURN_ARCHIVE_H_
#define PBEM_DAEMON_TURN_ARCHIVE_H_

#include <cstdint>
#include <string>

#include "pbem/v1/archive.pb.h"
#include "storage/game_repository.h"
#include "storage/status.h"

namespace pbem::daemon {

// The archive of a game: its pinned ruleset, scenario and initial state and every committed
// turn, byte for byte as stored. NOT_FOUND for an unknown game; FAILED_PRECONDITION when the
// game has no pinned ruleset, scenario or initial state (created without them).
// REQUIRES: `repository` has been opened.
Result<pbem::v1::Archive> ExportArchive(storage::GameRepository& repository,
                                        const std::string& game_id);

// What VerifyArchive found.
struct VerifyReport {
  bool ok = false;
  std::int64_t turns_checked = 0;  // turns that passed every check
  // The first player-turn that failed (its sequence number: 1 for the first turn committed);
  // 0 when the archive failed before any turn (ruleset, scenario, initial state) or passed.
  std::int64_t failed_turn = 0;
  // Why it failed, naming the player-turn ("player-turn 3 (turn 2 blue): ..."); empty if ok.
  std::string problem;
  // Set when a turn does not re-resolve and the archive was made by another engine version
  // than kEngineVersion: not tampering, this build cannot replay it. `problem` then says so:
  // "made by an older engine (pbem-engine 1); this build is pbem-engine 2: cannot replay".
  bool other_engine = false;
};

// The sentence VerifyReport::problem holds when an archive made by engine `archived` does not
// replay on this build: older, newer or another engine ("pbem-engine N" numbers compared).
std::string OtherEngineProblem(const std::string& archived);

// Checks every turn in order: the commitment is SHA-256 of the seed, the orders are canonical,
// the turn and side are the ones the state before it waits for, and re-resolving the orders
// from the archived ruleset, scenario and state before it, with the dice derived from the seed,
// gives the archived result and next state byte for byte. Stops at the first failure. A turn
// that does not re-resolve in an archive of another engine version is reported as such
// (other_engine), not as a difference.
VerifyReport VerifyArchive(const pbem::v1::Archive& archive);

// Loads an archive into a store as game `game_id` (empty: the archive's game id). Verifies it
// first and refuses one that fails (INVALID_ARGUMENT with the report's problem), then stores it
// in one transaction (GameRepository::ImportGame): all of it or nothing. ALREADY_EXISTS when
// the game id is taken.
// REQUIRES: `repository` has been opened.
Status ImportArchive(storage::GameRepository& repository, const pbem::v1::Archive& archive,
                     const std::string& game_id = "");

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_TURN_ARCHIVE_H_
