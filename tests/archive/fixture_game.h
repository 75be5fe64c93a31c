// A stored game for the archive tests: the bundled scenario played by the bot for both sides
// (engine::BotOrders, engine::ResolvePlayerTurn with SeededDice) and committed turn by turn
// into a GameRepository, exactly as the service will store it.
#ifndef PBEM_TESTS_ARCHIVE_FIXTURE_GAME_H_
#define PBEM_TESTS_ARCHIVE_FIXTURE_GAME_H_

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"
#include "storage/game_repository.h"

namespace pbem::testing {

struct FixtureTurn {
  int turn = 0;
  engine::Side side = engine::Side::kBlue;
  engine::TurnResult result;
  std::string seed;        // hex
  std::string commitment;  // hex SHA-256 of the seed
};

struct FixtureGame {
  engine::Ruleset ruleset;
  engine::Scenario scenario;
  std::vector<FixtureTurn> turns;
  std::string error;  // empty when all went well
};

// Loads <source>/engine/rulesets/morne-plaine and the bundled scenario, plays up to
// `player_turns` player-turns (fewer when the game ends first) and, when `repo` is not null,
// creates the game `game_id` in it and commits every turn.
FixtureGame PlayFixtureGame(const std::filesystem::path& source_dir, const std::string& game_id,
                            int player_turns, std::uint64_t seed, storage::GameRepository* repo);

}  // namespace pbem::testing

#endif  // PBEM_TESTS_ARCHIVE_FIXTURE_GAME_H_
