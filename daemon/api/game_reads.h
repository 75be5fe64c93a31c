// The public reads of a game (GET /v1/games, /v1/games/{id}, .../history, .../turns/{n} and
// .../turns/{n}/map.png): what the store holds, encoded for the API. The state and the maps
// are kept in the read cache (daemon/read_cache.h) keyed on the game's version as the
// database has it, with their ETag; an If-None-Match naming it gets 304.
#ifndef PBEM_DAEMON_API_GAME_READS_H_
#define PBEM_DAEMON_API_GAME_READS_H_

#include <optional>
#include <string>

#include "daemon/api/answer.h"
#include "storage/game_repository.h"

namespace pbem::daemon {
class GameCatalog;
class ReadCache;
}  // namespace pbem::daemon

namespace pbem::daemon::api {

class GameReads {
 public:
  // All three must outlive this object.
  GameReads(GameCatalog& catalog, ReadCache& cache, spdlog::logger& logger)
      : catalog_(catalog), cache_(cache), logger_(logger) {}

  // Every game with its progress.
  Answer List(storage::GameRepository& repository);
  // The game's state after its last committed turn, as protobuf or JSON. `if_none_match` is
  // the request's If-None-Match fields joined (nullopt when none).
  Answer State(storage::GameRepository& repository, const std::string& id, bool protobuf,
               const std::optional<std::string>& if_none_match);
  // Every committed player-turn of a game, in order: what `pbem history` shows.
  Answer History(storage::GameRepository& repository, const std::string& id);
  // The report of player-turn number `sequence_text` (1 = the first committed) as JSON (the
  // stored pbem.v1.TurnResult).
  Answer TurnReport(storage::GameRepository& repository, const std::string& id,
                    const std::string& sequence_text);
  // The map after player-turn `sequence_text`, its events drawn, as PNG.
  Answer TurnMap(storage::GameRepository& repository, const std::string& id,
                 const std::string& sequence_text, const std::optional<std::string>& if_none_match);

 private:
  std::optional<Answer> FromCache(const std::optional<std::string>& if_none_match,
                                  const std::string& key, const std::string& etag,
                                  bool vary_accept);
  Answer Keep(const std::string& key, const std::string& etag, bool vary_accept, Answer answer);
  Answer EncodeState(storage::GameRepository& repository, const storage::Game& game, bool protobuf);
  Answer DrawMap(storage::GameRepository& repository, const std::string& id, std::int64_t sequence);
  Answer StoreError(const Status& status, const std::string& what) {
    return api::StoreError(logger_, status, what);
  }

  GameCatalog& catalog_;
  ReadCache& cache_;
  spdlog::logger& logger_;
};

}  // namespace pbem::daemon::api

#endif  // PBEM_DAEMON_API_GAME_READS_H_
