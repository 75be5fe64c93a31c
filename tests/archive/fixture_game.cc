#include "tests/archive/fixture_game.h"

#include <cstdio>

#include "engine/core/dice.h"
#include "engine/morne_plaine/bot.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/turn.h"
#include "proto/codec/codec.h"

namespace pbem::testing {

FixtureGame PlayFixtureGame(const std::filesystem::path& source_dir, const std::string& game_id,
                            int player_turns, std::uint64_t seed, storage::GameRepository* repo) {
  FixtureGame game;
  auto ruleset = codec::LoadRulesetDir(source_dir / "engine/rulesets/morne-plaine");
  if (!ruleset.ok()) {
    game.error = ruleset.ErrorText();
    return game;
  }
  game.ruleset = ruleset.value().ruleset;
  auto scenario = codec::LoadScenarioFile(
      source_dir / "engine/scenarios/bois-de-la-morne.textproto", game.ruleset);
  if (!scenario.ok()) {
    game.error = scenario.ErrorText();
    return game;
  }
  game.scenario = scenario.value().scenario;
  const storage::Timestamp t0{std::chrono::milliseconds{1'780'000'000'000}};
  engine::GameState state = engine::InitialState(game.scenario, game_id);
  if (repo != nullptr) {
    storage::NewGame g;
    g.id = game_id;
    g.scenario = game.scenario.name;
    g.ruleset_name = game.scenario.ruleset;
    g.ruleset_version = "1";
    g.engine_version = "test";
    g.initial_state =
        codec::SerializeMessage(codec::StateToProto(state, game.scenario), codec::Format::kBinary);
    g.created_at = t0;
    if (pbem::Status s = repo->CreateGame(g); !s.ok()) {
      game.error = s.ToString();
      return game;
    }
  }
  std::uint64_t mix = seed;
  for (int k = 1; k <= player_turns && !state.finished; ++k) {
    const std::uint64_t dice_seed = engine::SplitMix64(mix);
    const std::uint64_t bot_seed = engine::SplitMix64(mix);
    const engine::Orders orders = engine::BotOrders(game.ruleset, game.scenario, state, bot_seed);
    engine::SeededDice dice(dice_seed);
    FixtureTurn turn;
    turn.turn = state.turn;
    turn.side = state.side_to_move;
    turn.result = engine::ResolvePlayerTurn(game.ruleset, game.scenario, state, orders, dice);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(dice_seed));
    turn.seed = hex;
    turn.commitment = storage::Sha256Hex(turn.seed);
    if (repo != nullptr) {
      storage::TurnCommit c;
      c.game_id = game_id;
      c.turn = turn.turn;
      c.side = std::string(engine::SideName(turn.side));
      c.based_on = k - 1;
      // The bot's orders are engine values and the codec has no encoder for them: the stored
      // orders carry the header only (the archive reads verdicts from the result).
      pbem::v1::Orders header;
      header.set_format_version(1);
      header.set_game_id(game_id);
      header.set_turn(turn.turn);
      header.set_side(codec::SideToProto(turn.side));
      c.orders = codec::SerializeMessage(header, codec::Format::kBinary);
      c.dice_seed = turn.seed;
      pbem::v1::DiceCommitment commitment;
      commitment.set_commitment(turn.commitment);
      commitment.set_revealed_seed(turn.seed);
      commitment.set_derivation("test: SeededDice(seed)");
      c.dice_commitment = codec::SerializeMessage(commitment, codec::Format::kBinary);
      c.result = codec::SerializeMessage(
          codec::TurnResultToProto(turn.result, game.scenario, turn.turn, turn.side),
          codec::Format::kBinary);
      c.next_state = codec::SerializeMessage(
          codec::StateToProto(turn.result.next_state, game.scenario), codec::Format::kBinary);
      c.committed_at = t0 + std::chrono::hours{k};
      auto committed = repo->CommitTurn(c);
      if (!committed.ok()) {
        game.error = committed.status().ToString();
        return game;
      }
    }
    state = turn.result.next_state;
    game.turns.push_back(std::move(turn));
  }
  return game;
}

}  // namespace pbem::testing
