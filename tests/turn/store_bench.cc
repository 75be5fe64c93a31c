// Storage benchmarks (issue 5): order submissions stored per second and turn-commit latency,
// on SQLite (a fresh pbem.sqlite in a temp dir) and on PostgreSQL (the server named by
// $PBEM_TEST_PG; the PostgreSQL cases skip with a message when it is not set).
//   cmake --build build --target store_bench
//   build/bin/store_bench --benchmark_min_time=1                       # SQLite only
//   tests/storage/with_postgres.sh build/bin/store_bench --benchmark_min_time=1   # both
// Cases:
//   RecordSubmission   one accepted ~1 KB text submission per iteration, its own transaction
//   CommitTurn         one TurnCommit of real-sized bytes (a real turn's orders, result, next
//                      state) per iteration: the storage side of a turn
//   OpenResolveCommit  the whole turn job: OpenTurn (seed from /dev/urandom, stored), bot
//                      orders resolved by the engine, ResolveAndCommit
// Times are wall-clock (UseRealTime): storage waits on fsync and the server, not the CPU;
// items_per_second is per wall-clock second. The with_postgres.sh server runs with fsync=off.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "daemon/turn/dice.h"
#include "daemon/turn/turn_job.h"
#include "engine/morne_plaine/bot.h"
#include "proto/codec/codec.h"
#include "storage/postgres_repository.h"
#include "storage/sqlite_repository.h"
#include "tests/turn/turn_test_util.h"

namespace pbem {
namespace {

namespace fs = std::filesystem;

storage::Timestamp Now() {
  return std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
}

enum class Backend { kSqlite, kPostgres };

// A fresh store: a temp dir for SQLite (removed afterwards), the $PBEM_TEST_PG server for
// PostgreSQL, where each benchmark uses its own game ids.
class Store {
 public:
  explicit Store(Backend backend) {
    if (backend == Backend::kSqlite) {
      std::string pattern = (fs::temp_directory_path() / "pbem-bench-XXXXXX").string();
      if (mkdtemp(pattern.data()) == nullptr) {
        error_ = "mkdtemp failed";
        return;
      }
      dir_ = pattern;
      repository_ = std::make_unique<storage::SqliteRepository>(dir_);
    } else {
      const char* pg = std::getenv("PBEM_TEST_PG");
      if (pg == nullptr || *pg == '\0') {
        error_ =
            "PostgreSQL skipped: PBEM_TEST_PG is not set (run under "
            "tests/storage/with_postgres.sh)";
        return;
      }
      repository_ = std::make_unique<storage::PostgresRepository>(pg);
    }
    if (Result<int> opened = repository_->OpenOrMigrate(); !opened.ok()) {
      error_ = opened.status().ToString();
      repository_.reset();
    }
  }
  ~Store() {
    repository_.reset();
    if (!dir_.empty()) {
      std::error_code ignored;
      fs::remove_all(dir_, ignored);
    }
  }
  storage::GameRepository* get() { return repository_.get(); }
  const std::string& error() const { return error_; }

 private:
  fs::path dir_;
  std::unique_ptr<storage::GameRepository> repository_;
  std::string error_;
};

// A game id no earlier run on the same server used.
std::string UniqueId(const std::string& prefix) {
  static int counter = 0;
  return prefix + "-" + std::to_string(getpid()) + "-" + std::to_string(++counter) + "-" +
         std::to_string(Now().time_since_epoch().count());
}

std::string NewGame(storage::GameRepository& repository, const std::string& prefix) {
  const testing::BundledGame& b = testing::Bois();
  const std::string id = UniqueId(prefix);
  Status created = repository.CreateGame(
      daemon::MakeNewGame(b.ruleset.proto, b.scenario.proto, b.scenario.scenario, id, Now()));
  if (!created.ok()) std::abort();
  return id;
}

void BM_RecordSubmission(benchmark::State& state, Backend backend) {
  Store store(backend);
  if (store.get() == nullptr) {
    state.SkipWithError(store.error().c_str());
    return;
  }
  const std::string game = NewGame(*store.get(), "sub");
  const testing::BundledGame& b = testing::Bois();
  const engine::GameState initial = engine::InitialState(b.scenario.scenario, game);
  const std::string body = codec::SerializeMessage(
      codec::OrdersToProto(engine::BotOrders(b.ruleset.ruleset, b.scenario.scenario, initial, 1),
                           b.scenario.scenario),
      codec::Format::kText);
  std::int64_t n = 0;
  for (auto _ : state) {
    storage::NewSubmission s;
    s.game_id = game;
    s.turn = 0;
    s.sender = "blue@example.org";
    s.side = "blue";
    s.message_id = "<" + std::to_string(++n) + "@bench>";
    s.raw = body + "# " + std::to_string(n) + "\n";
    s.orders = body;
    s.received_at = Now();
    s.accepted = true;
    Result<storage::RecordedSubmission> recorded = store.get()->RecordSubmission(s);
    if (!recorded.ok() || recorded->duplicate) {
      state.SkipWithError(recorded.status().ToString().c_str());
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(std::to_string(body.size()) + " byte submissions");
}

void BM_CommitTurn(benchmark::State& state, Backend backend) {
  Store store(backend);
  if (store.get() == nullptr) {
    state.SkipWithError(store.error().c_str());
    return;
  }
  const std::string game = NewGame(*store.get(), "commit");
  // Real-sized bytes: the first turn of the game resolved with bot orders.
  const testing::BundledGame& b = testing::Bois();
  const engine::GameState initial = engine::InitialState(b.scenario.scenario, game);
  const daemon::Resolution resolution = daemon::ResolveWithSeed(
      b.ruleset.ruleset, b.scenario.scenario, initial,
      codec::OrdersToProto(engine::BotOrders(b.ruleset.ruleset, b.scenario.scenario, initial, 1),
                           b.scenario.scenario),
      std::string(daemon::kSeedBytes, 's'));
  std::int64_t n = 0;
  for (auto _ : state) {
    storage::TurnCommit commit;
    commit.game_id = game;
    commit.turn = ++n;  // a new (game, turn, side) each time; storage does not read the bytes
    commit.side = "blue";
    commit.based_on = n - 1;
    commit.orders = resolution.canonical_orders;
    commit.dice_seed = std::string(daemon::kSeedBytes, 's');
    commit.dice_commitment = "c";
    commit.result = resolution.result;
    commit.next_state = resolution.next_state;
    commit.committed_at = Now();
    Result<storage::CommittedTurn> committed = store.get()->CommitTurn(commit);
    if (!committed.ok() || committed->replayed) {
      state.SkipWithError(committed.status().ToString().c_str());
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(std::to_string(resolution.result.size() + resolution.next_state.size()) +
                 " bytes of result + state per turn");
}

void BM_OpenResolveCommit(benchmark::State& state, Backend backend) {
  Store store(backend);
  if (store.get() == nullptr) {
    state.SkipWithError(store.error().c_str());
    return;
  }
  const testing::BundledGame& b = testing::Bois();
  daemon::SystemEntropy entropy;
  std::string game = NewGame(*store.get(), "job");
  std::uint64_t n = 0;
  for (auto _ : state) {
    Result<engine::GameState> current =
        daemon::CurrentState(*store.get(), b.scenario.scenario, game);
    if (!current.ok()) {
      state.SkipWithError(current.status().ToString().c_str());
      break;
    }
    if (current->finished) {
      state.PauseTiming();
      game = NewGame(*store.get(), "job");
      state.ResumeTiming();
      continue;
    }
    if (!daemon::OpenTurn(*store.get(), b.scenario.scenario, game, entropy, Now()).ok()) {
      state.SkipWithError("OpenTurn failed");
      break;
    }
    const pbem::v1::Orders orders = codec::OrdersToProto(
        engine::BotOrders(b.ruleset.ruleset, b.scenario.scenario, *current, ++n),
        b.scenario.scenario);
    Result<daemon::ResolvedTurn> resolved = daemon::ResolveAndCommit(
        *store.get(), b.ruleset.ruleset, b.scenario.scenario, game, orders, Now());
    if (!resolved.ok()) {
      state.SkipWithError(resolved.status().ToString().c_str());
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK_CAPTURE(BM_RecordSubmission, sqlite, Backend::kSqlite)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_RecordSubmission, postgres, Backend::kPostgres)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_CommitTurn, sqlite, Backend::kSqlite)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_CommitTurn, postgres, Backend::kPostgres)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_OpenResolveCommit, sqlite, Backend::kSqlite)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_OpenResolveCommit, postgres, Backend::kPostgres)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

}  // namespace
}  // namespace pbem
