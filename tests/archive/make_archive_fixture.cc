// make_archive_fixture SOURCE_DIR DB_DIR GAME_ID PLAYER_TURNS SEED
// Creates <DB_DIR>/pbem.sqlite with one game of the bundled scenario played by the bot, for
// the archive page's browser test (archive_browser.sh).
#include <cstdlib>
#include <iostream>
#include <string>

#include "storage/sqlite_repository.h"
#include "tests/archive/fixture_game.h"

int main(int argc, char** argv) {
  if (argc != 6) {
    std::cerr << "usage: make_archive_fixture SOURCE_DIR DB_DIR GAME_ID PLAYER_TURNS SEED\n";
    return 2;
  }
  pbem::storage::SqliteRepository repo(argv[2]);
  if (auto opened = repo.OpenOrMigrate(); !opened.ok()) {
    std::cerr << "make_archive_fixture: " << opened.status().ToString() << "\n";
    return 1;
  }
  const pbem::testing::FixtureGame game = pbem::testing::PlayFixtureGame(
      argv[1], argv[3], std::atoi(argv[4]), std::strtoull(argv[5], nullptr, 10), &repo);
  if (!game.error.empty()) {
    std::cerr << "make_archive_fixture: " << game.error << "\n";
    return 1;
  }
  const bool finished = !game.turns.empty() && game.turns.back().result.next_state.finished;
  std::cout << game.turns.size() << " player-turns" << (finished ? ", finished" : "") << "\n";
  return 0;
}
