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
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "daemon/cli/cli.h"
#include "daemon/turn/archive.h"
#include "daemon/turn/dice.h"
#include "daemon/turn/system_turn.h"
#include "daemon/turn/turn_job.h"
#include "engine/morne_plaine/ids.h"
#include "pbem/v1/archive.pb.h"
#include "pbem/v1/orders.pb.h"
#include "pbem/v1/scenario.pb.h"
#include "pbem/v1/turn_result.pb.h"
#include "proto/codec/game_data.h"
#include "proto/codec/systems.h"
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

// Unit id -> "Name (id)" from the game's pinned scenario; ids without a name are left out.
using UnitNames = std::map<std::string, std::string>;
UnitNames NamesOf(const storage::Game& game) {
  UnitNames names;
  pbem::v1::Scenario scenario;
  if (!scenario.ParseFromString(game.scenario_proto)) return names;
  for (const auto& unit : scenario.units()) {
    if (!unit.name().empty() && unit.name() != unit.id()) {
      names[unit.id()] = unit.name() + " (" + unit.id() + ")";
    }
  }
  return names;
}

// "3 units moved, 1 attack, eliminated: Brigade Lambert (b-i2)" from a turn's events; empty
// when no unit moved or fought. Units are named from `names`, else by id.
std::string EventWords(const pbem::v1::TurnResult& result, const UnitNames& names) {
  std::set<std::string> moved;
  int attacks = 0, charges = 0, bombardments = 0;
  std::vector<std::string> eliminated, retreated, objectives;
  for (const pbem::v1::Event& e : result.events()) {
    const std::string& kind = e.kind();
    if (kind == "move_step") moved.insert(e.unit());
    if (kind == "combat") ++attacks;
    if (kind == "charge") ++charges;
    if (kind == "bombard") ++bombardments;
    const auto named = names.find(e.unit());
    const std::string unit = named != names.end() ? named->second : e.unit();
    if (kind == "eliminated") eliminated.push_back(unit);
    if (kind == "retreat") retreated.push_back(unit);
    if (kind == "objective_taken" && e.hexes_size() > 0) objectives.push_back(e.hexes(0));
  }
  std::vector<std::string> parts;
  const auto count = [&parts](std::size_t n, std::string_view one, std::string_view many) {
    if (n > 0) parts.push_back(std::to_string(n) + " " + std::string(n == 1 ? one : many));
  };
  const auto list = [&parts](const std::vector<std::string>& units, std::string_view what) {
    if (units.empty()) return;
    std::string text(what);
    for (std::size_t i = 0; i < units.size(); ++i) text += (i == 0 ? " " : ", ") + units[i];
    parts.push_back(text);
  };
  count(moved.size(), "unit moved", "units moved");
  count(bombardments, "bombardment", "bombardments");
  count(charges, "charge", "charges");
  count(attacks, "attack", "attacks");
  list(retreated, "retreated:");
  list(eliminated, "eliminated:");
  list(objectives, "took objective");
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? "" : ", ") + parts[i];
  return out;
}

int OrderCount(const pbem::v1::Orders& orders) {
  return orders.placements_size() + orders.bombardments_size() + orders.moves_size() +
         orders.attacks_size();
}

// True when `turn` was resolved without orders and no submission was accepted for it.
bool MissedTurn(const storage::Turn& turn,
                const std::set<std::pair<std::int64_t, std::string>>& played) {
  pbem::v1::Orders orders;
  if (!orders.ParseFromString(turn.orders)) return false;
  return OrderCount(orders) == 0 && played.count({turn.sequence - 1, turn.side}) == 0;
}

// Who did what in one player-turn: "blue gave 4 orders (3 ok, 1 illegal): 3 units moved,
// 1 attack, eliminated: o-i2; 23 events" (+ "; game over: blue major 12-3" on the last
// turn). `missed`: the side sent no orders and the turn was resolved at its deadline.
std::string TurnSummary(const storage::Turn& turn, bool missed, const UnitNames& names) {
  pbem::v1::TurnResult result;
  if (!result.ParseFromString(turn.result)) return "(result does not parse)";
  pbem::v1::Orders orders;
  const bool orders_parse = orders.ParseFromString(turn.orders);
  const int given = OrderCount(orders);
  int ok = 0, invalid = 0, illegal = 0, partial = 0;
  for (const auto& v : result.verdicts()) {
    if (v.verdict() == pbem::v1::VERDICT_OK) ++ok;
    if (v.verdict() == pbem::v1::VERDICT_INVALID) ++invalid;
    if (v.verdict() == pbem::v1::VERDICT_ILLEGAL) ++illegal;
    if (v.verdict() == pbem::v1::VERDICT_PARTIAL) ++partial;
  }
  std::string out = turn.side;
  if (missed) {
    out += " missed the turn (no orders arrived by the deadline)";
  } else if (!orders_parse) {
    out += "'s orders do not parse";
  } else if (given == 0) {
    out += " gave no orders";
  } else {
    out += " gave " + std::to_string(given) + (given == 1 ? " order (" : " orders (") +
           std::to_string(ok) + " ok";
    if (partial > 0) out += ", " + std::to_string(partial) + " partly carried out";
    if (invalid > 0) out += ", " + std::to_string(invalid) + " invalid";
    if (illegal > 0) out += ", " + std::to_string(illegal) + " illegal";
    out += ")";
  }
  const std::string words = EventWords(result, names);
  out += ": " + (words.empty() ? std::string("no unit moved or fought") : words);
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

// The dice commitment of a stored turn, in hex as players see it in their mails.
std::string CommitmentOf(const storage::Turn& turn) {
  pbem::v1::DiceCommitment commitment;
  return commitment.ParseFromString(turn.dice_commitment)
             ? commitment.commitment()
             : std::string("(commitment does not parse)");
}

// `pbem history` of a game of another system than Morne Plaine (M42, wme), read through the
// game-system interface: who gave how many orders and how they were judged, and how many
// events the turn had ("red gave 3 orders (2 ok, 1 illegal); 14 events"). A player-turn with
// no orders and no accepted submission was missed.
int SystemHistory(const storage::Game& game, const std::vector<storage::Turn>& turns,
                  const std::set<std::pair<std::int64_t, std::string>>& played) {
  const game_system::Registry registry = codec::SystemRegistry();
  const auto system = registry.Find(game.system);
  if (!system.ok()) {
    std::cerr << "pbem: game " << game.id << ": " << system.status().message() << "\n";
    return kExitProblems;
  }
  const auto setup = codec::SetupFromPinned(game.system, game.ruleset_proto, game.scenario_proto);
  if (!setup.ok()) {
    std::cerr << "pbem: game " << game.id << ": its pinned " << game.system
              << " ruleset and scenario do not load: " << setup.status().message() << "\n";
    return kExitProblems;
  }
  for (const storage::Turn& turn : turns) {
    std::cout << turn.sequence << " turn " << turn.turn << " " << turn.side << " "
              << IsoTime(turn.committed_at) << " ";
    const auto result = (*system)->DecodeTurnResult(*setup, turn.result);
    if (!result.ok()) {
      std::cout << "(result does not read: " << result.status().message() << ")";
    } else {
      int given = 0, ok = 0, invalid = 0, illegal = 0, partial = 0;
      for (const game_system::Verdict& v : result->verdicts) {
        if (v.order == "header") continue;  // about the envelope, not an order
        ++given;
        if (v.kind == game_system::VerdictKind::kOk) ++ok;
        if (v.kind == game_system::VerdictKind::kInvalid) ++invalid;
        if (v.kind == game_system::VerdictKind::kIllegal) ++illegal;
        if (v.kind == game_system::VerdictKind::kPartial) ++partial;
      }
      std::cout << turn.side;
      if (given == 0 && played.count({turn.sequence - 1, turn.side}) == 0) {
        std::cout << " missed the turn (no orders arrived by the deadline)";
      } else if (given == 0) {
        std::cout << " gave no orders";
      } else {
        std::cout << " gave " << given << (given == 1 ? " order (" : " orders (") << ok << " ok";
        if (partial > 0) std::cout << ", " << partial << " partly carried out";
        if (invalid > 0) std::cout << ", " << invalid << " invalid";
        if (illegal > 0) std::cout << ", " << illegal << " illegal";
        std::cout << ")";
      }
      std::cout << "; " << result->events.size()
                << (result->events.size() == 1 ? " event" : " events");
    }
    std::cout << "; commitment " << CommitmentOf(turn) << "\n";
  }
  return kExitOk;
}
}  // namespace

bool RefusedOtherSystem(const storage::Game& game, std::string_view command) {
  if (game.system == storage::kFirstGameSystem) return false;
  std::cerr << "pbem: " << command << ": game " << game.id << " plays " << game.system
            << ", and this command reads Morne Plaine's games only so far (pbem history, export, "
               "import and verify read the games of every system)\n";
  return true;
}

std::unique_ptr<storage::GameRepository> OpenGameStore(const std::optional<std::string>& db,
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
  auto repository = OpenGameStore(parsed->db, /*must_exist=*/true);
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
  auto repository = OpenGameStore(parsed->db, /*must_exist=*/false);
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
    if (report.other_engine) {  // not a mismatch: this build cannot replay it
      std::cout << SourceName(path) << ": not verified: " << report.problem << "\n";
    } else if (report.failed_turn > 0) {
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
  auto repository = OpenGameStore(parsed->db, /*must_exist=*/true);
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
  // A turn is missed when it was resolved without orders and no submission was accepted for
  // it (an accepted submission names the position it was judged for: the turns committed).
  Result<std::vector<storage::Submission>> submissions = repository->ListSubmissions(game_id);
  if (!submissions.ok()) {
    std::cerr << "pbem: " << submissions.status().ToString() << "\n";
    return kExitProblems;
  }
  std::set<std::pair<std::int64_t, std::string>> played;
  for (const storage::Submission& s : *submissions) {
    if (s.accepted) played.emplace(s.turn, s.side);
  }
  std::cout << "game " << game_id << " (" << game->scenario << ", " << game->ruleset_name << " "
            << game->ruleset_version << "): " << turns->size() << " player-turns\n";
  if (game->system != storage::kFirstGameSystem) return SystemHistory(*game, *turns, played);
  const UnitNames names = NamesOf(*game);
  for (const storage::Turn& turn : *turns) {
    std::cout << turn.sequence << " turn " << turn.turn << " " << turn.side << " "
              << IsoTime(turn.committed_at) << " "
              << TurnSummary(turn, MissedTurn(turn, played), names) << "; commitment "
              << CommitmentOf(turn) << "\n";
  }
  return kExitOk;
}

}  // namespace pbem::cli
