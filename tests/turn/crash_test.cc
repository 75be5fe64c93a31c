// store_crash_test PBEM_BINARY [--db DB | --postgres-env] [--runs N] [--max-delay-ms M]
//
// The crash test of issue 5. The parent starts this same binary as a child ("--child") N times
// (default 200) and kills it with SIGKILL after a random delay (seeded, so a run can be
// repeated). When it kills does not depend on how fast the machine is: the child tells the
// parent (one byte on a pipe) once its store is open, and
//   - the first child is killed only after it logged a committed turn (bounded wait), so every
//     run checks submissions and turns, however slow the machine;
//   - one child in four is killed 10 to M ms after it started (default M 120), wherever it is
//     then: loading, opening or migrating the store, or playing;
//   - the others are killed 0 to M ms after their store is open, while they play. The child plays
//   bot games on the store as fast as it can: it creates
// games of the bundled scenario, opens each player-turn (seed stored first), records an accepted
// order submission, resolves and commits the turn (daemon/turn/turn_job.h ResolveAndCommit
// with a CommitPlan, the path pbemd's turn loop commits every turn through). After each
// acknowledgement from the store it appends one line to a log and fsyncs it:
//   sub GAME ID SHA256    a submission the store acknowledged (RecordSubmission returned ok)
//   turn GAME SEQUENCE    a turn the store committed
// Afterwards the parent checks, on a fresh connection:
//   * every game is at a whole turn: turns_committed == the number of stored turns, their
//     sequences are 1..n, and the game's state is the last turn's next_state (or the initial
//     state when none);
//   * every turn was resolved with the seed and commitment stored when it opened;
//   * every logged submission is stored with its id and content hash, and every logged turn
//     is committed;
//   * `pbem export` and `pbem verify` (the real command line) pass for every game.
// DB: sqlite:DIR (default: a fresh temp dir) or postgresql:CONNSTRING; --postgres-env takes the
// connection string from $PBEM_TEST_PG (set by tests/storage/with_postgres.sh).
// Prints what it checked and exits 0, or 1 naming every breach.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "daemon/turn/dice.h"
#include "daemon/turn/turn_job.h"
#include "engine/core/dice.h"
#include "engine/morne_plaine/bot.h"
#include "proto/codec/codec.h"
#include "storage/postgres_repository.h"
#include "storage/sqlite_repository.h"
#include "tests/turn/turn_test_util.h"

namespace pbem {
namespace {

namespace fs = std::filesystem;
using storage::Timestamp;

Timestamp Now() {
  return std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
}

std::unique_ptr<storage::GameRepository> MakeRepository(const std::string& db) {
  if (db.rfind("sqlite:", 0) == 0) return std::make_unique<storage::SqliteRepository>(db.substr(7));
  return std::make_unique<storage::PostgresRepository>(db.substr(11));
}

std::string GameId(int n) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "g%04d", n);
  return buffer;
}

// One line, written with one write() and fsync'd before the next store operation.
void AppendLog(int fd, const std::string& line) {
  const std::string text = line + "\n";
  if (write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size()) || fsync(fd) != 0) {
    std::perror("crash child: log");
    std::_Exit(4);
  }
}

[[noreturn]] void Die(const Status& status) {
  std::cerr << "crash child: " << status.ToString() << "\n";
  std::_Exit(5);
}

// The child: plays until killed (or until it has finished `max_games` games).
int RunChild(const std::string& db, const std::string& log_path, int run, int ready_fd) {
  const testing::BundledGame& b = testing::Bois();
  const int log = open(log_path.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (log < 0) {
    std::perror("crash child: open log");
    return 4;
  }
  auto repository = MakeRepository(db);
  if (Result<int> opened = repository->OpenOrMigrate(); !opened.ok()) Die(opened.status());
  // Tell the parent the store is open (it may wait for this before it starts its delay).
  if (write(ready_fd, "r", 1) != 1) std::_Exit(4);
  close(ready_fd);
  daemon::SystemEntropy entropy;
  // The current game: the highest existing id, or the next one when that is finished.
  int n = 1;
  while (repository->GetGame(GameId(n + 1)).ok()) ++n;
  for (int step = 0;; ++step) {
    const std::string game_id = GameId(n);
    Result<storage::Game> game = repository->GetGame(game_id);
    if (!game.ok()) {
      if (game.status().code() != StatusCode::kNotFound) Die(game.status());
      storage::NewGame fresh = daemon::MakeNewGame(b.ruleset.proto, b.scenario.proto,
                                                   b.scenario.scenario, game_id, Now());
      Status created = repository->CreateGame(fresh);
      if (!created.ok() && created.code() != StatusCode::kAlreadyExists) Die(created);
      continue;
    }
    Result<engine::GameState> state =
        daemon::CurrentState(*repository, b.scenario.scenario, game_id);
    if (!state.ok()) Die(state.status());
    if (state->finished) {
      ++n;
      continue;
    }
    Result<daemon::OpenedTurn> open =
        daemon::OpenTurn(*repository, b.scenario.scenario, game_id, entropy, Now());
    if (!open.ok()) Die(open.status());
    const engine::Orders bot = engine::BotOrders(
        b.ruleset.ruleset, b.scenario.scenario, *state,
        static_cast<std::uint64_t>(n) * 1000 + static_cast<std::uint64_t>(game->turns_committed));
    const pbem::v1::Orders orders = codec::OrdersToProto(bot, b.scenario.scenario);

    storage::NewSubmission submission;
    submission.game_id = game_id;
    submission.turn = game->turns_committed;
    submission.side = std::string(engine::SideName(state->side_to_move));
    submission.channel = storage::Channel::kMail;
    submission.sender = submission.side + "@example.org";
    submission.message_id =
        "<run" + std::to_string(run) + "-" + std::to_string(step) + "@crash.test>";
    submission.raw = codec::SerializeMessage(orders, codec::Format::kText) + "# run " +
                     std::to_string(run) + " step " + std::to_string(step) + "\n";
    submission.orders = codec::CanonicalOrders(orders);
    submission.received_at = Now();
    submission.accepted = true;
    Result<storage::RecordedSubmission> recorded = repository->RecordSubmission(submission);
    if (!recorded.ok()) Die(recorded.status());
    if (recorded->stale) Die(Status::Internal("a lone child's submission was stale"));
    if (!recorded->duplicate) {
      AppendLog(log, "sub " + game_id + " " + std::to_string(recorded->id) + " " +
                         storage::Sha256Hex(submission.raw));
    }
    // pbemd's commit path (TurnLoop): the played submission checked, the next turn opened and
    // the mails queued in the turn's own transaction.
    daemon::CommitPlan plan;
    plan.based_on = game->turns_committed;
    plan.played_submission = recorded->id;
    plan.entropy = &entropy;
    plan.aftermath = [&](const engine::GameState& before, const daemon::Resolution&,
                         const storage::OpenTurn&, const std::optional<storage::OpenTurn>&) {
      storage::NewMail mail;
      mail.recipient = submission.sender;
      mail.subject = game_id + " turn " + std::to_string(before.turn);
      mail.body = "results\n";
      mail.next_try = Now();
      return Result<daemon::TurnAftermath>(daemon::TurnAftermath{{mail}, {}});
    };
    Result<daemon::ResolvedTurn> resolved = daemon::ResolveAndCommit(
        *repository, b.ruleset.ruleset, b.scenario.scenario, game_id, orders, Now(), plan);
    if (!resolved.ok()) Die(resolved.status());
    AppendLog(log, "turn " + game_id + " " + std::to_string(resolved->committed.turn.sequence));
  }
}

// How long the parent waits for a child to open its store (or, for the first, to commit a
// turn): generous, so that only a hung child, never a slow machine, reaches it.
constexpr std::chrono::seconds kReadyLimit{120};

// True once `fd` is readable (the child wrote its byte) within `limit`; false on timeout or
// when the child closed the pipe without writing (it died).
bool WaitReadable(int fd, std::chrono::seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int n = poll(&p, 1, static_cast<int>(left.count()));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    char byte = 0;
    return read(fd, &byte, 1) == 1;
  }
}

// True once the log at `path` holds a line starting with `prefix`, within `limit`.
bool WaitForLine(const std::string& path, const std::string& prefix, std::chrono::seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind(prefix, 0) == 0) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

int Fail(int& breaches, const std::string& what) {
  ++breaches;
  std::cout << "BREACH: " << what << "\n";
  return breaches;
}

int RunParent(const std::string& self, const std::string& pbem_binary, std::string db, int runs,
              int max_delay_ms) {
  fs::path scratch = fs::temp_directory_path() / ("pbem-crash-" + std::to_string(getpid()));
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  if (db.empty()) db = "sqlite:" + (scratch / "data").string();
  const std::string log_path = (scratch / "acknowledged.log").string();
  std::cout << "crash test: " << runs << " children on " << db.substr(0, db.find(' '))
            << ", killed with SIGKILL: the first after its first turn, one in four 10-"
            << max_delay_ms << " ms after it started, the others 0-" << max_delay_ms - 10
            << " ms after their store was open\n";

  engine::Pcg32 rng(20261122, 5);
  int killed = 0, exited = 0;
  const auto started = std::chrono::steady_clock::now();
  int never_ready = 0;
  for (int run = 0; run < runs; ++run) {
    int ready[2];
    if (pipe(ready) != 0) {
      std::perror("pipe");
      return 1;
    }
    const pid_t pid = fork();
    if (pid < 0) {
      std::perror("fork");
      return 1;
    }
    if (pid == 0) {
      close(ready[0]);
      execl(self.c_str(), self.c_str(), "--child", db.c_str(), log_path.c_str(),
            std::to_string(run).c_str(), std::to_string(ready[1]).c_str(),
            static_cast<char*>(nullptr));
      std::_Exit(127);
    }
    close(ready[1]);
    const std::uint32_t delay_us =
        rng.Bounded(static_cast<std::uint32_t>(std::max(1, max_delay_ms - 10) * 1000));
    if (run % 4 == 1) {
      // Anywhere from before it starts to well into its play (a child needs ~20-30 ms to
      // load the scenario and open the store on an idle machine).
      std::this_thread::sleep_for(std::chrono::microseconds(10000 + delay_us));
    } else if (!WaitReadable(ready[0], kReadyLimit)) {
      ++never_ready;  // it died before (counted below, by its status) or hangs
      std::cout << "child " << run << " did not open the store within " << kReadyLimit.count()
                << " s\n";
    } else if (run == 0) {
      if (!WaitForLine(log_path, "turn ", kReadyLimit)) {
        std::cout << "child 0 committed no turn within " << kReadyLimit.count() << " s\n";
        ++never_ready;
      }
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
    }
    close(ready[0]);
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
      ++killed;
    } else {
      ++exited;
      std::cout << "child " << run << " exited by itself with status "
                << (WIFEXITED(status) ? WEXITSTATUS(status) : -1) << "\n";
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "children: " << killed << " killed by SIGKILL, " << exited << " exited, in "
            << seconds << " s\n";

  int breaches = 0;
  if (exited > 0) Fail(breaches, std::to_string(exited) + " children were not killed (crashed?)");
  if (never_ready > 0) {
    Fail(breaches, std::to_string(never_ready) +
                       " children never got to the point they were "
                       "to be killed after (hung?)");
  }

  // What the store acknowledged, from the log (a torn last line is ignored).
  std::map<std::string, std::map<std::int64_t, std::string>> submissions;  // game -> id -> sha
  std::map<std::string, std::int64_t> max_turn;                            // game -> sequence
  {
    std::ifstream in(log_path, std::ios::binary);
    const std::string content((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
    std::istringstream lines(content.substr(0, content.rfind('\n') + 1));
    std::string line;
    while (std::getline(lines, line)) {
      std::istringstream words(line);
      std::string kind, game;
      words >> kind >> game;
      if (kind == "sub") {
        std::int64_t id = 0;
        std::string sha;
        words >> id >> sha;
        submissions[game][id] = sha;
      } else if (kind == "turn") {
        std::int64_t sequence = 0;
        words >> sequence;
        max_turn[game] = std::max(max_turn[game], sequence);
      }
    }
  }

  auto repository = MakeRepository(db);
  if (Result<int> opened = repository->OpenOrMigrate(); !opened.ok()) {
    std::cout << "BREACH: reopening the store: " << opened.status().ToString() << "\n";
    return 1;
  }
  int games = 0, turns_total = 0, subs_total = 0, finished = 0;
  for (int n = 1;; ++n) {
    const std::string id = GameId(n);
    Result<storage::Game> game = repository->GetGame(id);
    if (!game.ok()) break;
    ++games;
    Result<std::vector<storage::Turn>> turns = repository->ListTurns(id);
    if (!turns.ok()) {
      Fail(breaches, id + ": " + turns.status().ToString());
      continue;
    }
    turns_total += static_cast<int>(turns->size());
    if (static_cast<std::int64_t>(turns->size()) != game->turns_committed) {
      Fail(breaches, id + ": turns_committed " + std::to_string(game->turns_committed) + " but " +
                         std::to_string(turns->size()) + " turns stored");
    }
    for (std::size_t i = 0; i < turns->size(); ++i) {
      const storage::Turn& turn = (*turns)[i];
      if (turn.sequence != static_cast<std::int64_t>(i) + 1) {
        Fail(breaches,
             id + ": turn " + std::to_string(i) + " has sequence " + std::to_string(turn.sequence));
      }
      // The dice are those committed to when the turn opened, whatever crashed in between.
      Result<storage::OpenTurn> open = repository->GetOpenTurn(id, turn.turn, turn.side);
      if (!open.ok() || open->dice_seed != turn.dice_seed ||
          open->dice_commitment != turn.dice_commitment) {
        Fail(breaches, id + ": turn " + std::to_string(turn.sequence) +
                           " was not resolved with the seed and commitment it was opened with");
      }
    }
    const storage::Bytes& expected_state =
        turns->empty() ? game->initial_state : turns->back().next_state;
    if (game->state != expected_state) {
      Fail(breaches, id + ": the game's state is not its last turn's next state");
    }
    if (max_turn.count(id) && max_turn[id] > game->turns_committed) {
      Fail(breaches, id + ": turn " + std::to_string(max_turn[id]) +
                         " was acknowledged but the game has " +
                         std::to_string(game->turns_committed));
    }
    Result<std::vector<storage::Submission>> stored = repository->ListSubmissions(id);
    if (!stored.ok()) {
      Fail(breaches, id + ": " + stored.status().ToString());
      continue;
    }
    std::map<std::int64_t, std::string> by_id;
    for (const storage::Submission& s : *stored) by_id[s.id] = s.content_sha256;
    // Acknowledged means played: each turn resolved the orders validated with the side's
    // latest accepted submission for its position, whatever was killed in between.
    for (std::size_t i = 0; i < turns->size(); ++i) {
      const storage::Turn& turn = (*turns)[i];
      const storage::Submission* latest = nullptr;
      for (const storage::Submission& s : *stored) {
        if (s.accepted && s.turn == static_cast<std::int64_t>(i) && s.side == turn.side) {
          latest = &s;
        }
      }
      if (latest == nullptr || latest->orders != turn.orders) {
        Fail(breaches, id + ": turn " + std::to_string(turn.sequence) +
                           " did not play the side's latest accepted orders");
      }
    }
    for (const auto& [sub_id, sha] : submissions[id]) {
      ++subs_total;
      auto found = by_id.find(sub_id);
      if (found == by_id.end() || found->second != sha) {
        Fail(breaches, id + ": acknowledged submission " + std::to_string(sub_id) + " is lost");
      }
    }
    Result<engine::GameState> state =
        daemon::CurrentState(*repository, testing::Bois().scenario.scenario, id);
    if (state.ok() && state->finished) ++finished;

    // The real command line: export, then verify.
    const std::string archive = (scratch / (id + ".pbem")).string();
    std::string out;
    if (testing::RunProcess({pbem_binary, "export", id, "-o", archive, "--db", db}, out) != 0) {
      Fail(breaches, id + ": pbem export failed: " + out);
      continue;
    }
    out.clear();
    if (testing::RunProcess({pbem_binary, "verify", archive}, out) != 0) {
      Fail(breaches, id + ": pbem verify failed: " + out);
    }
  }
  for (const auto& [game, subs] : submissions) {
    if (!repository->GetGame(game).ok()) {
      Fail(breaches, game + ": acknowledged submissions to a game that is not stored");
    }
  }
  std::cout << "checked " << games << " games (" << finished << " finished), " << turns_total
            << " turns, " << subs_total << " acknowledged submissions; exported and verified "
            << games << " archives\n";
  if (games == 0 || turns_total == 0 || subs_total == 0) {
    Fail(breaches, "the children never got to commit anything: the test proves nothing");
  }
  if (breaches == 0) fs::remove_all(scratch);
  std::cout << (breaches == 0 ? "PASS" : "FAIL") << ": " << breaches << " breaches\n";
  return breaches == 0 ? 0 : 1;
}

}  // namespace
}  // namespace pbem

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 5 && args[0] == "--child") {
    return pbem::RunChild(args[1], args[2], std::stoi(args[3]), std::stoi(args[4]));
  }
  if (args.empty()) {
    std::cerr << "usage: store_crash_test PBEM_BINARY [--db DB | --postgres-env] [--runs N] "
                 "[--max-delay-ms M]\n";
    return 2;
  }
  std::string db;
  int runs = 200;
  int max_delay_ms = 120;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--db" && i + 1 < args.size()) {
      db = args[++i];
    } else if (args[i] == "--postgres-env") {
      const char* pg = std::getenv("PBEM_TEST_PG");
      if (pg == nullptr || *pg == '\0') {
        std::cerr << "store_crash_test: --postgres-env but PBEM_TEST_PG is not set\n";
        return 2;
      }
      db = std::string("postgresql:") + pg;
    } else if (args[i] == "--runs" && i + 1 < args.size()) {
      runs = std::stoi(args[++i]);
    } else if (args[i] == "--max-delay-ms" && i + 1 < args.size()) {
      max_delay_ms = std::stoi(args[++i]);
    } else {
      std::cerr << "store_crash_test: unknown argument " << args[i] << "\n";
      return 2;
    }
  }
  const std::string self = std::filesystem::canonical("/proc/self/exe").string();
  return pbem::RunParent(self, args[0], db, runs, max_delay_ms);
}
