// pbem play --scenario SCENARIO_FILE [--ruleset DIR] --games N --seed X [--quiet]
//
// A soak run: plays N whole games of the scenario with engine::BotOrders for
// both sides. Game K (1..N), player-turn T (1, 2, ...) rolls SeededDice keyed
// by SplitMix64 of (seed, K, T); the bot is seeded with the next SplitMix64
// output of the same chain. It checks engine::CheckInvariants at the start
// and after every phase of every player-turn (ResolvePlayerTurn's phase
// observer: "after movement: ..."), engine::CheckMovesExplained after every
// player-turn (every change of position is a chain of adjacent steps in the
// log), and that every verdict on a bot order is ok or partial; a game still
// running after turns * 2 + 2 player-turns is a violation too. Per game:
//   game K: <blue|orange|draw> <level> vp B-O after T player-turns, hash H
// where H is a 64-bit FNV-1a over every TurnResult of the game serialised as
// binary protobuf (codec::TurnResultToProto in format 1, deterministic
// serialisation), then:
//   N games, M violations, hash H_all (format 1), H2_all (format 2)
// with H_all the same FNV-1a over every TurnResult of every game in order, and
// H2_all over the same results in format 2 (what pbemd stores now). The format-1
// hashes stay the ones published before format 2 existed, so they still compare.
// Violations are printed as they are found ("violation: game K player-turn T
// (turn X side): ..."). Without --quiet each player-turn gets a line too
// (orders given, events, verdicts that were partial).
// Exit 1 when there is any violation.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/cli/cli.h"
#include "engine/core/dice.h"
#include "engine/core/fnv.h"
#include "engine/morne_plaine/bot.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/turn.h"
#include "engine/morne_plaine/turn_result.h"
#include "engine/morne_plaine/verdict.h"
#include "engine/morne_plaine/victory.h"

namespace pbem::cli {

namespace {

using engine::Fnv1a64;  // engine/core/fnv.h

std::string Hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// SplitMix64 chained over (seed, game, player-turn): the dice seed, then the
// bot seed.
struct TurnSeeds {
  std::uint64_t dice = 0;
  std::uint64_t bot = 0;
};
TurnSeeds SeedsFor(std::uint64_t seed, std::uint64_t game, std::uint64_t player_turn) {
  std::uint64_t s = seed;
  s = engine::SplitMix64(s) ^ game;
  s = engine::SplitMix64(s) ^ player_turn;
  TurnSeeds out;
  out.dice = engine::SplitMix64(s);
  out.bot = engine::SplitMix64(s);
  return out;
}

bool ParseCount(const std::string& text, std::uint64_t& out) {
  if (text.empty() || text.size() > 19) return false;
  std::uint64_t v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  out = v;
  return true;
}

}  // namespace

int RunPlayCommand(const Args& args) {
  if (WantsHelp(args)) {
    std::cout << *Usage("play");
    return kExitOk;
  }
  std::optional<std::string> scenario_path;
  std::optional<std::string> ruleset_dir;
  std::optional<std::uint64_t> games;
  std::optional<std::uint64_t> seed;
  bool quiet = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--quiet") {
      quiet = true;
    } else if (a == "--scenario" || a == "--ruleset" || a == "--games" || a == "--seed") {
      if (i + 1 >= args.size()) return UsageError("play", "play: " + a + " needs a value");
      const std::string& value = args[++i];
      if (a == "--scenario") scenario_path = value;
      if (a == "--ruleset") ruleset_dir = value;
      if (a == "--games" || a == "--seed") {
        std::uint64_t n = 0;
        if (!ParseCount(value, n)) {
          return UsageError("play",
                            "play: " + a + " needs a non-negative number, got '" + value + "'");
        }
        (a == "--games" ? games : seed) = n;
      }
    } else {
      return UsageError("play", "play: unknown argument '" + a + "'");
    }
  }
  if (!scenario_path) return UsageError("play", "play: --scenario is required");
  if (!games) return UsageError("play", "play: --games is required");
  if (!seed) return UsageError("play", "play: --seed is required");

  int exit_code = kExitOk;
  const auto bundle = LoadScenarioBundle(*scenario_path, ruleset_dir, exit_code);
  if (!bundle) return exit_code;
  const engine::Scenario& scenario = bundle->scenario;
  const engine::Ruleset& ruleset = bundle->ruleset;
  const int width = codec::LabelWidth(scenario);
  const std::uint64_t cap = static_cast<std::uint64_t>(scenario.turns) * 2 + 2;

  Fnv1a64 all;
  Fnv1a64 all_typed;
  std::uint64_t violations = 0;
  for (std::uint64_t game = 1; game <= *games; ++game) {
    Fnv1a64 game_hash;
    engine::GameState state = engine::InitialState(scenario, "play-" + std::to_string(game));
    const auto report = [&](std::uint64_t pt, const engine::GameState& at,
                            const std::string& what) {
      ++violations;
      std::cout << "violation: game " << game << " player-turn " << pt << " (turn " << at.turn
                << " " << engine::SideName(at.side_to_move) << "): " << what << "\n";
    };
    for (const std::string& p : engine::CheckInvariants(scenario, state)) report(0, state, p);
    std::uint64_t pt = 0;
    while (!state.finished && pt < cap) {
      ++pt;
      const TurnSeeds seeds = SeedsFor(*seed, game, pt);
      const engine::Orders orders = engine::BotOrders(ruleset, scenario, state, seeds.bot);
      engine::SeededDice dice(seeds.dice);
      // Invariants after every phase, not only between player-turns.
      const auto check_phase = [&](engine::Phase phase, const engine::GameState& at) {
        for (const std::string& p : engine::CheckInvariants(scenario, at)) {
          report(pt, state, "after " + std::string(engine::PhaseName(phase)) + ": " + p);
        }
      };
      engine::TurnResult result =
          engine::ResolvePlayerTurn(ruleset, scenario, state, orders, dice, check_phase);
      for (const std::string& p :
           engine::CheckMovesExplained(scenario, state, result.events, result.next_state)) {
        report(pt, state, p);
      }
      const std::string bytes = codec::SerializeMessage(
          codec::TurnResultToProto(result, scenario, state.turn, state.side_to_move,
                                   codec::TurnResultFormat::kArgs),
          codec::Format::kBinary);
      game_hash.Add(bytes);
      all.Add(bytes);
      all_typed.Add(codec::SerializeMessage(
          codec::TurnResultToProto(result, scenario, state.turn, state.side_to_move,
                                   codec::TurnResultFormat::kTyped),
          codec::Format::kBinary));
      int partial = 0;
      for (const engine::OrderVerdict& v : result.verdicts) {
        if (v.verdict == engine::VerdictKind::kPartial) ++partial;
        if (v.verdict != engine::VerdictKind::kOk && v.verdict != engine::VerdictKind::kPartial) {
          report(pt, state, VerdictLine(v, width, &scenario));
        }
      }
      if (!quiet) {
        std::cout << "game " << game << " player-turn " << pt << " (turn " << state.turn << " "
                  << engine::SideName(state.side_to_move) << "): " << orders.bombardments.size()
                  << " bombardments, " << orders.moves.size() << " moves, " << orders.attacks.size()
                  << " attacks, " << result.events.size() << " events, " << partial << " partial\n";
      }
      state = std::move(result.next_state);
    }
    if (!state.finished) {
      report(pt, state, "game not finished after " + std::to_string(cap) + " player-turns");
    }
    const engine::GameOutcome& o = state.outcome;
    std::cout << "game " << game << ": "
              << (o.winner ? std::string(engine::SideName(*o.winner)) : std::string("draw")) << " "
              << engine::VictoryLevelName(o.level) << " vp " << o.vp_blue << "-" << o.vp_orange
              << " after " << pt << " player-turns, hash " << Hex64(game_hash.value()) << "\n";
  }
  std::cout << *games << " games, " << violations << " violations, hash " << Hex64(all.value())
            << " (format 1), " << Hex64(all_typed.value()) << " (format 2)\n";
  return violations == 0 ? kExitOk : kExitProblems;
}

}  // namespace pbem::cli
