// m42_soak --games N --seed X [--player-turns T] [--quiet]
//
// The engine-level soak of M42 (issue 16 point 8; `pbem play` will take it over once M42
// scenarios load from files): N games of the bundled scenario "pumping_station" played by
// m42::BotOrders for both players, T player-turns each (default 8), every action checked
// (m42::PlayGame). Prints one line per game unless --quiet:
//   game K: hash H, A actions (O ok, I illegal, V invalid)
// then the violations, then
//   reasons: <REASON n>...   events: <kind n>...   (what the run exercised, one line each)
//   model_moved ending on an upper floor: U
//   N games, P player-turns, A actions (O ok, I illegal, V invalid), M violations, hash H_all
// H_all is FNV-1a over the canonical text (engine/m42/canonical.h) of every player-turn of every
// game in order: compare it between builds (gcc, clang). Exit 1 on any violation.
#include <charconv>
#include <cstdint>
#include <iostream>
#include <string>
#include <string_view>
#include <system_error>

#include "engine/m42/scenarios.h"
#include "engine/m42/soak.h"

namespace {

// A decimal count: digits only, no sign, no overflow.
bool ParseCount(std::string_view text, std::uint64_t& out) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return !text.empty() && text.front() != '-' && ec == std::errc() && ptr == end;
}

std::string Summary(const pbem::m42::SoakCounts& c) {
  return std::to_string(c.actions) + " actions (" + std::to_string(c.ok) + " ok, " +
         std::to_string(c.illegal) + " illegal, " + std::to_string(c.invalid) + " invalid)";
}

int Usage(const std::string& why) {
  std::cerr << "m42_soak: " << why
            << "\nusage: m42_soak --games N --seed X [--player-turns T] [--quiet]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t games = 0, seed = 0, player_turns = 8;
  bool have_games = false, have_seed = false, quiet = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quiet") {
      quiet = true;
      continue;
    }
    if (a != "--games" && a != "--seed" && a != "--player-turns") {
      return Usage("unknown argument '" + a + "'");
    }
    std::uint64_t v = 0;
    if (i + 1 >= argc || !ParseCount(argv[i + 1], v)) return Usage(a + " needs a number");
    ++i;
    if (a == "--games") games = v, have_games = true;
    if (a == "--seed") seed = v, have_seed = true;
    if (a == "--player-turns") player_turns = v;
  }
  if (!have_games || !have_seed) return Usage("--games and --seed are required");
  if (player_turns > 1000) return Usage("--player-turns is at most 1000");

  const pbem::m42::Ruleset ruleset = pbem::m42::DefaultRuleset();
  const pbem::m42::Scenario scenario = pbem::m42::PumpingStation();
  pbem::m42::Fnv1a64 all;
  pbem::m42::SoakCounts counts;
  std::uint64_t violations = 0;
  for (std::uint64_t game = 1; game <= games; ++game) {
    const pbem::m42::GameRun run =
        pbem::m42::PlayGame(ruleset, scenario, seed, game, static_cast<int>(player_turns), &all);
    if (!quiet) {
      std::cout << "game " << game << ": hash " << pbem::m42::HashHex(run.hash) << ", "
                << Summary(run.counts) << "\n";
    }
    for (const std::string& v : run.violations) std::cout << "violation: " << v << "\n";
    violations += run.violations.size();
    counts.Add(run.counts);
  }
  std::cout << "reasons:";
  for (const auto& [reason, n] : counts.reasons) std::cout << " " << reason << " " << n;
  std::cout << "\nevents:";
  for (const auto& [kind, n] : counts.events) std::cout << " " << kind << " " << n;
  std::cout << "\nmodel_moved ending on an upper floor: " << counts.upper_floor_ends;
  std::cout << "\n"
            << games << " games, " << counts.player_turns << " player-turns, " << Summary(counts)
            << ", " << violations << " violations, hash " << pbem::m42::HashHex(all.value())
            << "\n";
  return violations == 0 ? 0 : 1;
}
