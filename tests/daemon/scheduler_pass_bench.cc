// The scheduler at scale (issue 19 point 4), on PostgreSQL: `make bench` runs it through
// with_postgres.sh (target bench_scheduler), which sets PBEM_TEST_PG to a throwaway database.
//
//   scheduler_pass_bench GAMES...
//
// For each size: one game of the bundled scenario is created and looked at by a real
// Scheduler over a real TurnLoop (its turn opened, its wake-up stored: the reminder, 36 h on),
// then copied GAMES - 1 times in SQL (generate_series, triggers off for the load), so every game
// is idle as pbemd leaves it. Then, each the median of several runs:
//   - the yardstick: today's listing before issue 19 (every game not stuck), the floor of a
//     pass that reads every game;
//   - an idle pass (no game due);
//   - a pass with kDue games due (made due by SQL before each run): each is looked at, found
//     with nothing to do, and put back to sleep;
//   - the pass before issue 19, estimated: its listing plus GAMES times the cost of its visit
//     of one idle game (lock, ResolveIfDue, unlock), measured over kSampled games.
// Prints one summary line per size (tests/bench.sh quotes it).
#include <Poco/Data/PostgreSQL/Connector.h>
#include <Poco/Data/Session.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "daemon/clock.h"
#include "daemon/config.h"
#include "daemon/game_catalog.h"
#include "daemon/metrics.h"
#include "daemon/scheduler.h"
#include "daemon/turn/dice.h"
#include "daemon/turn/turn_job.h"
#include "daemon/turn_loop.h"
#include "proto/codec/codec.h"
#include "storage/postgres_repository.h"
#include "templates/mail_render.h"

namespace pbem::daemon {
namespace {

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

constexpr int kDue = 300;
constexpr int kSampled = 1000;
constexpr int kRuns = 7;

storage::Timestamp At(std::int64_t ms) { return storage::Timestamp(std::chrono::milliseconds(ms)); }

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "scheduler_pass_bench: %s\n", what.c_str());
  std::exit(1);
}

void Check(const Status& status, const std::string& what) {
  if (!status.ok()) Die(what + ": " + status.ToString());
}

double Ms(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double Time(const std::function<void()>& run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return Ms(std::chrono::steady_clock::now() - start);
}

std::string Columns(Poco::Data::Session& sql, const std::string& table, const std::string& key) {
  std::string columns;
  sql << "SELECT string_agg(column_name, ', ' ORDER BY ordinal_position) "
         "FROM information_schema.columns WHERE table_schema = current_schema() "
         "AND table_name = '" +
             table + "' AND column_name <> '" + key + "'",
      into(columns), now;
  return columns;
}

void RunSize(const std::string& connection, int games) {
  Poco::Data::Session sql("PostgreSQL", connection);
  sql << "SET client_min_messages TO warning", now;
  sql << "DROP SCHEMA IF EXISTS public CASCADE", now;
  sql << "CREATE SCHEMA public", now;

  storage::PostgresRepository repository(connection);
  Check(repository.OpenOrMigrate().status(), "opening the store");
  const std::filesystem::path source = PBEM_SOURCE_DIR;
  GameCatalog catalog(source / "engine" / "scenarios", source / "engine" / "rulesets");
  templates::MailTemplates mail_templates;
  if (templates::Status loaded =
          templates::MailTemplates::Load(source / "templates" / "mail", &mail_templates);
      !loaded.ok) {
    Die("the mail templates: " + loaded.message);
  }
  FixedEntropy entropy("scheduler-pass-bench");
  Metrics metrics;
  LimitsConfig limits;
  TurnLoop loop(catalog, mail_templates, entropy, metrics, limits,
                TurnLoopOptions{std::chrono::minutes(30), /*map_image=*/false});
  FakeClock clock(At(1'700'000'000'000));

  auto data = catalog.Scenario("bois-de-la-morne");
  if (!data.ok()) Die(data.status().ToString());
  storage::NewGame game = MakeNewGame((*data)->ruleset_proto, (*data)->scenario_proto,
                                      (*data)->scenario, "g000000", clock.Now());
  game.scenario = "bois-de-la-morne";
  game.deadlines.turn_timeout = std::chrono::hours(48);
  game.deadlines.reminder_before = std::chrono::hours(12);
  Check(repository.CreateGame(game), "creating the first game");
  Check(repository.AddPlayer({"g000000", "blue", "b@test.local", "tok-b"}), "a player");
  Check(repository.AddPlayer({"g000000", "orange", "o@test.local", "tok-o"}), "a player");
  // One process's scheduler: its first pass (every game due) is this one, over one game.
  Scheduler scheduler(repository, loop, clock, nullptr);
  Check(scheduler.Pass().status(), "the first pass");
  if (!repository.GetWake("g000000")->due) Die("the first game has no wake-up");

  // The copies: as the first game, each under its own id (triggers and foreign keys off for
  // the load: the copies are made as the scheduler left the first one).
  const auto load_start = std::chrono::steady_clock::now();
  sql << "SET session_replication_role = replica", now;
  const std::string n = std::to_string(games - 1);
  const std::string id = "'g' || lpad(n::text, 6, '0')";
  sql << "INSERT INTO games (id, " + Columns(sql, "games", "id") + ") SELECT " + id + ", " +
             Columns(sql, "games", "id") + " FROM games, generate_series(1, " + n +
             ") n WHERE id = 'g000000'",
      now;
  for (const char* table : {"players", "open_turns"}) {
    const std::string columns = Columns(sql, table, "game_id");
    sql << "INSERT INTO " + std::string(table) + " (game_id, " + columns + ") SELECT " + id + ", " +
               columns + " FROM " + table + ", generate_series(1, " + n +
               ") n WHERE game_id = 'g000000'",
        now;
  }
  sql << "SET session_replication_role = origin", now;
  sql << "ANALYZE", now;
  const double load_ms = Ms(std::chrono::steady_clock::now() - load_start);

  // The yardstick: the listing of the scheduler before issue 19.
  std::vector<double> old_listing;
  std::size_t listed = 0;
  for (int i = 0; i < kRuns; ++i) {
    old_listing.push_back(Time([&] {
      std::vector<std::string> ids;
      std::vector<Poco::Int64> failures;
      sql << "SELECT id, turn_failures FROM games WHERE turn_failed_at_ms IS NULL "
             "AND (turn_retry_at_ms IS NULL OR turn_retry_at_ms <= 1700000000000) ORDER BY id",
          into(ids), into(failures), now;
      listed = ids.size();
    }));
  }
  if (listed != static_cast<std::size_t>(games)) Die("the old listing lost games");

  std::vector<double> idle;
  for (int i = 0; i < kRuns; ++i) {
    idle.push_back(Time([&] {
      Result<SchedulerPass> pass = scheduler.Pass();
      Check(pass.status(), "an idle pass");
      if (pass->games != 0) Die("an idle pass looked at " + std::to_string(pass->games));
    }));
  }

  // kDue games spread over the ids, other ones at each run.
  const std::string step = std::to_string(games / kDue);
  std::vector<double> busy;
  for (int i = 0; i < kRuns; ++i) {
    sql << "UPDATE games SET due_at_ms = 0, wake_seq = wake_seq + 1 WHERE id IN (SELECT 'g' || "
           "lpad((k * " +
               step + " + " + std::to_string(i) +
               ")::text, 6, '0') "
               "FROM generate_series(0, " +
               std::to_string(kDue - 1) + ") k)",
        now;
    busy.push_back(Time([&] {
      Result<SchedulerPass> pass = scheduler.Pass();
      Check(pass.status(), "a pass");
      if (pass->games != kDue || pass->waking != kDue) {
        Die("a pass looked at " + std::to_string(pass->games) + " games, put " +
            std::to_string(pass->waking) + " to sleep, not " + std::to_string(kDue));
      }
    }));
  }

  // The visit of one idle game as the scheduler before issue 19 made it, to every game.
  const int sampled = std::min(kSampled, games - 1);
  const double visits = Time([&] {
    for (int i = 1; i <= sampled; ++i) {
      char game_id[16];
      std::snprintf(game_id, sizeof game_id, "g%06d", i);
      const std::string lock = Scheduler::GameLock(game_id);
      if (!*repository.TryLock(lock)) Die("a lock is taken");
      Result<bool> resolved = loop.ResolveIfDue(repository, game_id, clock.Now());
      Check(resolved.status(), "a visit");
      if (*resolved) Die("an idle game resolved a turn");
      Check(repository.Unlock(lock), "unlocking");
    }
  });
  const double visit_ms = visits / sampled;
  const double old_pass_ms = Median(old_listing) + visit_ms * games;

  std::printf("  %d games (loaded in %.0f ms):\n", games, load_ms);
  std::printf("    listing every game, the query before issue 19 (yardstick): %.2f ms\n",
              Median(old_listing));
  std::printf("    idle pass: %.2f ms\n", Median(idle));
  std::printf("    pass with %d due: %.2f ms (%.3f ms per due game)\n", kDue, Median(busy),
              Median(busy) / kDue);
  std::printf("    one idle game's visit before issue 19: %.3f ms (over %d games)\n", visit_ms,
              sampled);
  std::printf(
      "  scheduler pass, %d games: %d due %.2f ms, idle %.2f ms; before issue 19 (estimated: "
      "listing + %d visits) %.0f ms = %.0fx; %d due / listing every game %.2f ms = %.2fx\n",
      games, kDue, Median(busy), Median(idle), games, old_pass_ms, old_pass_ms / Median(busy), kDue,
      Median(old_listing), Median(busy) / Median(old_listing));
  std::fflush(stdout);
}

}  // namespace
}  // namespace pbem::daemon

int main(int argc, char** argv) {
  const char* connection = getenv("PBEM_TEST_PG");
  if (connection == nullptr || *connection == '\0') {
    std::fprintf(stderr,
                 "scheduler_pass_bench: PBEM_TEST_PG is not set (run via with_postgres.sh)\n");
    return 2;
  }
  if (argc < 2) {
    std::fprintf(stderr, "usage: scheduler_pass_bench GAMES...\n");
    return 2;
  }
  Poco::Data::PostgreSQL::Connector::registerConnector();
  for (int i = 1; i < argc; ++i) pbem::daemon::RunSize(connection, std::atoi(argv[i]));
  return 0;
}
