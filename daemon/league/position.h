// Where a stored game stands, as its game system reads the stored state: whose player-turn it
// waits for and whether the rules ended it. The league's code asks a PositionReader rather than
// decoding a state itself, so it names no game system's types or schemas; pbemd and `pbem
// league` read it through their GameCatalog (daemon/league/organiser.h, CatalogPositions).
#ifndef PBEM_DAEMON_LEAGUE_POSITION_H_
#define PBEM_DAEMON_LEAGUE_POSITION_H_

#include <functional>

#include "engine/system/game_system.h"
#include "storage/game_repository.h"
#include "storage/status.h"

namespace pbem::league {

struct GamePosition {
  game_system::TurnInfo turn;
  bool finished = false;  // the rules ended the game (a resignation is storage::Game::result)
};
using PositionReader = std::function<Result<GamePosition>(const storage::Game&)>;

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_POSITION_H_
