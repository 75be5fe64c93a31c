// pbem export GAME -o FILE [--db DB]
// pbem import FILE [--as ID] [--db DB]
// pbem verify ARCHIVE
// pbem history GAME [--db DB]
//
// The commands on a game store and its archives (daemon/turn/archive.h). DB is
// sqlite:DIR (the data directory holding pbem.sqlite, like pbemd.data_dir; a path to a
// pbem.sqlite file names its directory) or postgresql:CONNSTRING (libpq key=value pairs, see
// storage/postgres_repository.h). Without --db: sqlite:./pbem-data, pbemd's default data
// directory (daemon/config.h kDefaultDataDir).
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>

#include "daemon/cli/cli.h"
#include "daemon/turn/archive.h"
#include "daemon/turn/dice.h"
#include "daemon/turn/turn_job.h"
#include "engine/ids.h"
#include "pbem/v1/archive.pb.h"
#include "storage/postgres_repository.h"
#include "storage/sqlite_repository.h"

namespace pbem::cli {

namespace {

constexpr std::string_view kDefaultDb = "sqlite:./pbem-data";
// Archives may be larger than the codec's 4 MiB input limit (a long game); this bounds them.
constexpr std::size_t kMaxArchiveBytes = std::size_t{256} << 20;

struct Parsed {
  std::vector<std::string> positional;
  std::optional<std::string> db;
  std::optional<std::string> output;
  std::optional<std::string> as;
};

// Parses --db, -o/--output and --as (when allowed) and positional words. nullopt after a
// usage error was printed (exit_code set).
std::optional<Parsed> ParseArgs(std::string_view command, const Args& args, bool allow_output,
                                bool allow_db, bool allow_as, int& exit_code) {
  Parsed parsed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool takes_value = (allow_db && a == "--db") ||
                             (allow_output && (a == "-o" || a == "--output")) ||
                             (allow_as && a == "--as");
    if (takes_value) {
      if (i + 1 >= args.size()) {
        exit_code = UsageError(command, std::string(command) + ": " + a + " needs a value");
        return std::nullopt;
      }
      const std::string& value = args[++i];
      if (a == "--db") parsed.db = value;
      if (a == "--as") parsed.as = value;
      if (a == "-o" || a == "--output") parsed.output = value;
    } else if (a.size() > 1 && a[0] == '-') {
      exit_code = UsageError(command, std::string(command) + ": unknown option '" + a + "'");
      return std::nullopt;
    } else {
      parsed.positional.push_back(a);
    }
  }
  return parsed;
}

// Opens the store named by `db`; prints the problem and returns null on failure. A command
// that only reads (`must_exist`) refuses a SQLite store that does not exist rather than
// creating an empty one.
std::unique_ptr<storage::GameRepository> OpenStore(const std::optional<std::string>& db,
                                                   bool must_exist) {
  const std::string spec = db.value_or(std::string(kDefaultDb));
  std::unique_ptr<storage::GameRepository> repository;
  if (spec.rfind("sqlite:", 0) == 0) {
    std::filesystem::path path = spec.substr(7);
    if (path.filename() == storage::SqliteRepository::kFileName) path = path.parent_path();
    if (path.empty()) path = ".";
    if (must_exist && !std::filesystem::exists(path / storage::SqliteRepository::kFileName)) {
      std::cerr << "pbem: no database " << (path / storage::SqliteRepository::kFileName).string()
                << " (give --db sqlite:DIR or postgresql:CONNSTRING)\n";
      return nullptr;
    }
    repository = std::make_unique<storage::SqliteRepository>(path);
  } else if (spec.rfind("postgresql:", 0) == 0) {
    repository = std::make_unique<storage::PostgresRepository>(spec.substr(11));
  } else {
    std::cerr << "pbem: --db '" << spec << "' is neither sqlite:DIR nor postgresql:CONNSTRING\n";
    return nullptr;
  }
  Result<int> opened = repository->OpenOrMigrate();
  if (!opened.ok()) {
    std::cerr << "pbem: " << opened.status().ToString() << "\n";
    return nullptr;
  }
  return repository;
}

std::optional<pbem::v1::Archive> ReadArchive(const std::string& path) {
  std::string bytes;
  if (path == "-") {
    bytes.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) {
      std::cerr << path << ": cannot read the archive: " << ec.message() << "\n";
      return std::nullopt;
    }
    if (size > kMaxArchiveBytes) {
      std::cerr << path << ": oversized archive: " << size << " bytes (limit " << kMaxArchiveBytes
                << ")\n";
      return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
      std::cerr << path << ": cannot read the archive\n";
      return std::nullopt;
    }
  }
  pbem::v1::Archive archive;
  if (!archive.ParseFromString(bytes)) {
    std::cerr << SourceName(path) << ": not a pbem.v1.Archive (binary protobuf)\n";
    return std::nullopt;
  }
  return archive;
}

std::string IsoTime(storage::Timestamp t) {
  const std::int64_t ms = t.time_since_epoch().count();
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

// "4 ok, 1 illegal; 23 events" (+ "; game over: blue major" on the last turn).
std::string ResultSummary(const storage::Bytes& bytes) {
  pbem::v1::TurnResult result;
  if (!result.ParseFromString(bytes)) return "(result does not parse)";
  int ok = 0, invalid = 0, illegal = 0, partial = 0;
  for (const auto& v : result.verdicts()) {
    if (v.verdict() == pbem::v1::VERDICT_OK) ++ok;
    if (v.verdict() == pbem::v1::VERDICT_INVALID) ++invalid;
    if (v.verdict() == pbem::v1::VERDICT_ILLEGAL) ++illegal;
    if (v.verdict() == pbem::v1::VERDICT_PARTIAL) ++partial;
  }
  std::string out = std::to_string(ok) + " ok";
  if (partial > 0) out += ", " + std::to_string(partial) + " partial";
  if (invalid > 0) out += ", " + std::to_string(invalid) + " invalid";
  if (illegal > 0) out += ", " + std::to_string(illegal) + " illegal";
  out += "; " + std::to_string(result.events_size()) + " events";
  if (result.next_state().finished()) {
    const auto& outcome = result.next_state().outcome();
    const auto winner = codec::SideFromProto(outcome.winner());
    out +=
        "; game over: " + (winner ? std::string(engine::SideName(*winner)) : std::string("draw")) +
        " " + pbem::v1::VictoryLevel_Name(outcome.level()) + " " +
        std::to_string(outcome.vp_blue()) + "-" + std::to_string(outcome.vp_orange());
  }
  return out;
}

}  // namespace

int RunExportCommand(const Args& args) {
  if (WantsHelp(args)) {
    std::cout << *Usage("export");
    return kExitOk;
  }
  int exit_code = kExitOk;
  const auto parsed = ParseArgs("export", args, true, true, false, exit_code);
  if (!parsed) return exit_code;
  if (parsed->positional.size() != 1) return UsageError("export", "export: name one GAME");
  if (!parsed->output) return UsageError("export", "export: -o FILE is required");
  auto repository = OpenStore(parsed->db, /*must_exist=*/true);
  if (!repository) return kExitProblems;
  Result<pbem::v1::Archive> archive = daemon::ExportArchive(*repository, parsed->positional[0]);
  if (!archive.ok()) {
    std::cerr << "pbem: " << archive.status().ToString() << "\n";
    return kExitProblems;
  }
  if (!WriteOutput(*parsed->output, codec::SerializeMessage(*archive, codec::Format::kBinary))) {
    return kExitProblems;
  }
  std::cerr << "exported game " << archive->game_id() << ": " << archive->turns_size()
            << " player-turns\n";
  return kExitOk;
}

int RunImportCommand(const Args& args) {
  if (WantsHelp(args)) {
    std::cout << *Usage("import");
    return kExitOk;
  }
  int exit_code = kExitOk;
  const auto parsed = ParseArgs("import", args, false, true, true, exit_code);
  if (!parsed) return exit_code;
  if (parsed->positional.size() != 1) return UsageError("import", "import: name one FILE");
  const auto archive = ReadArchive(parsed->positional[0]);
  if (!archive) return kExitProblems;
  auto repository = OpenStore(parsed->db, /*must_exist=*/false);
  if (!repository) return kExitProblems;
  const std::string id = parsed->as.value_or(archive->game_id());
  if (Status imported = daemon::ImportArchive(*repository, *archive, id); !imported.ok()) {
    std::cerr << "pbem: " << imported.ToString() << "\n";
    return kExitProblems;
  }
  std::cout << "imported game " << id << ": " << archive->turns_size() << " player-turns\n";
  return kExitOk;
}

int RunVerifyCommand(const Args& args) {
  if (WantsHelp(args)) {
    std::cout << *Usage("verify");
    return kExitOk;
  }
  int exit_code = kExitOk;
  const auto parsed = ParseArgs("verify", args, false, false, false, exit_code);
  if (!parsed) return exit_code;
  if (parsed->positional.size() != 1) return UsageError("verify", "verify: name one ARCHIVE");
  const std::string& path = parsed->positional[0];
  const auto archive = ReadArchive(path);
  if (!archive) return kExitProblems;
  const daemon::VerifyReport report = daemon::VerifyArchive(*archive);
  if (!report.ok) {
    if (report.failed_turn > 0) {
      std::cout << SourceName(path) << ": FAILED at " << report.problem << "\n"
                << "first differing turn: " << report.failed_turn << "\n";
    } else {
      std::cout << SourceName(path) << ": FAILED before the first turn: " << report.problem << "\n";
    }
    return kExitProblems;
  }
  std::cout << SourceName(path) << ": ok, game " << archive->game_id() << ", "
            << report.turns_checked << " player-turns verified (archive engine "
            << archive->engine_version() << ", this engine " << daemon::kEngineVersion << ")\n";
  return kExitOk;
}

int RunHistoryCommand(const Args& args) {
  if (WantsHelp(args)) {
    std::cout << *Usage("history");
    return kExitOk;
  }
  int exit_code = kExitOk;
  const auto parsed = ParseArgs("history", args, false, true, false, exit_code);
  if (!parsed) return exit_code;
  if (parsed->positional.size() != 1) return UsageError("history", "history: name one GAME");
  auto repository = OpenStore(parsed->db, /*must_exist=*/true);
  if (!repository) return kExitProblems;
  const std::string& game_id = parsed->positional[0];
  Result<storage::Game> game = repository->GetGame(game_id);
  if (!game.ok()) {
    std::cerr << "pbem: " << game.status().ToString() << "\n";
    return kExitProblems;
  }
  Result<std::vector<storage::Turn>> turns = repository->ListTurns(game_id);
  if (!turns.ok()) {
    std::cerr << "pbem: " << turns.status().ToString() << "\n";
    return kExitProblems;
  }
  std::cout << "game " << game_id << " (" << game->scenario << ", " << game->ruleset_name << " "
            << game->ruleset_version << "): " << turns->size() << " player-turns\n";
  for (const storage::Turn& turn : *turns) {
    pbem::v1::DiceCommitment commitment;
    const std::string committed = commitment.ParseFromString(turn.dice_commitment)
                                      ? commitment.commitment()
                                      : std::string("(commitment does not parse)");
    std::cout << turn.sequence << " turn " << turn.turn << " " << turn.side << " "
              << IsoTime(turn.committed_at) << " " << ResultSummary(turn.result) << " commitment "
              << committed << "\n";
  }
  return kExitOk;
}

}  // namespace pbem::cli
