// pbem archive GAME -o DIR [--db sqlite:DIR | --db postgresql:CONNINFO] [--scenario FILE]
//              [--ruleset DIR] [--lang en|fr]
// Writes the static HTML history of a stored game (templates/archive.h): every turn's map
// and report, previous and next links, the final result.
#include <cctype>
#include <iostream>
#include <memory>

#include "daemon/cli/cli.h"
#include "storage/game_repository.h"
#include "storage/postgres_repository.h"
#include "storage/sqlite_repository.h"
#include "templates/archive.h"
#include "templates/mail_render.h"

namespace pbem::cli {

namespace {

// The seed as players check it: hex (already hex text is kept as it is).
std::string SeedText(const std::string& bytes) {
  bool is_hex = !bytes.empty();
  for (const char c : bytes) is_hex = is_hex && std::isxdigit(static_cast<unsigned char>(c));
  if (is_hex) return bytes;
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::unique_ptr<storage::GameRepository> OpenRepository(const std::string& db) {
  if (db.rfind("sqlite:", 0) == 0) {
    return std::make_unique<storage::SqliteRepository>(db.substr(7));
  }
  if (db.rfind("postgresql:", 0) == 0) {
    return std::make_unique<storage::PostgresRepository>(db.substr(11));
  }
  return nullptr;
}

}  // namespace

int RunArchiveCommand(const Args& args) {
  if (WantsHelp(args)) {
    std::cout << *Usage("archive");
    return kExitOk;
  }
  std::optional<std::string> game_id;
  std::optional<std::string> out_dir;
  std::optional<std::string> scenario_path;
  std::optional<std::string> ruleset_dir;
  std::string db = "sqlite:pbem-data";  // pbemd.data_dir's default (deploy/pbemd.properties)
  templates::Language language = templates::Language::kEnglish;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-o" || a == "--db" || a == "--scenario" || a == "--ruleset" || a == "--lang") {
      if (i + 1 >= args.size()) return UsageError("archive", "archive: " + a + " needs a value");
      const std::string& value = args[++i];
      if (a == "-o") out_dir = value;
      if (a == "--db") db = value;
      if (a == "--scenario") scenario_path = value;
      if (a == "--ruleset") ruleset_dir = value;
      if (a == "--lang") {
        const auto parsed = templates::ParseLanguage(value);
        if (!parsed) return UsageError("archive", "archive: unknown language '" + value + "'");
        language = *parsed;
      }
    } else if (!a.empty() && a[0] == '-') {
      return UsageError("archive", "archive: unknown argument '" + a + "'");
    } else if (!game_id) {
      game_id = a;
    } else {
      return UsageError("archive", "archive: more than one game given ('" + a + "')");
    }
  }
  if (!game_id) return UsageError("archive", "archive: which game?");
  if (!out_dir) return UsageError("archive", "archive: -o DIR is required");

  const std::unique_ptr<storage::GameRepository> repo = OpenRepository(db);
  if (!repo) {
    return UsageError("archive",
                      "archive: --db must be sqlite:DIR or postgresql:CONNINFO, got '" + db + "'");
  }
  // A reader must not create a database where there was none (OpenOrMigrate would).
  if (db.rfind("sqlite:", 0) == 0) {
    const std::filesystem::path file =
        std::filesystem::path(db.substr(7)) / storage::SqliteRepository::kFileName;
    if (!std::filesystem::exists(file)) {
      std::cerr << "pbem: archive: no database at " << file.string() << "\n";
      return kExitProblems;
    }
  }
  if (auto opened = repo->OpenOrMigrate(); !opened.ok()) {
    std::cerr << "pbem: archive: " << db << ": " << opened.status().ToString() << "\n";
    return kExitProblems;
  }
  return WriteGameArchive(*repo, *game_id, *out_dir, language, scenario_path, ruleset_dir);
}

int WriteGameArchive(storage::GameRepository& repo, const std::string& game_id,
                     const std::filesystem::path& out_dir, templates::Language language,
                     const std::optional<std::string>& scenario_path,
                     const std::optional<std::string>& ruleset_dir) {
  auto game = repo.GetGame(game_id);
  if (!game.ok()) {
    std::cerr << "pbem: archive: game '" << game_id << "': " << game.status().ToString() << "\n";
    return kExitProblems;
  }
  if (RefusedOtherSystem(*game, "archive")) return kExitProblems;
  auto turns = repo.ListTurns(game_id);
  if (!turns.ok()) {
    std::cerr << "pbem: archive: turns of '" << game_id << "': " << turns.status().ToString()
              << "\n";
    return kExitProblems;
  }

  const std::string scenario_file = scenario_path.value_or(
      (DataDir() / "engine" / "scenarios" / (game.value().scenario + ".textproto")).string());
  int exit_code = kExitOk;
  const auto bundle = LoadScenarioBundle(scenario_file, ruleset_dir, exit_code);
  if (!bundle) return exit_code;

  templates::ArchiveInput input;
  input.ruleset = &bundle->ruleset;
  input.scenario = &bundle->scenario;
  input.game_id = game_id;
  input.initial_state = engine::InitialState(bundle->scenario, game_id);
  if (const std::optional<storage::GameEnding>& e = game.value().ending) {
    input.ending = templates::ArchiveEnding{std::string(storage::GameEndKindName(e->kind)),
                                            e->winner, e->level, e->by_organiser};
  }
  bool bad = false;
  for (const storage::Turn& t : turns.value()) {
    const std::string where = "game " + game_id + " turn #" + std::to_string(t.sequence);
    pbem::v1::TurnResult proto;
    if (auto parsed = codec::ParseMessage(t.result, codec::Format::kBinary, where, proto);
        !parsed.ok()) {
      PrintErrors(parsed.errors());
      bad = true;
      continue;
    }
    auto result = codec::TurnResultFromProto(proto, bundle->scenario, where);
    if (!result.ok()) {
      PrintErrors(result.errors());
      bad = true;
      continue;
    }
    templates::ArchiveTurn turn;
    turn.turn = static_cast<int>(t.turn);
    turn.side = engine::ParseSide(t.side).value_or(engine::Side::kBlue);
    turn.result = std::move(result).value();
    turn.revealed_seed = SeedText(t.dice_seed);
    pbem::v1::DiceCommitment commitment;
    if (!t.dice_commitment.empty() &&
        codec::ParseMessage(t.dice_commitment, codec::Format::kBinary, where, commitment).ok()) {
      turn.commitment = commitment.commitment();
    }
    input.turns.push_back(std::move(turn));
  }
  if (bad) return kExitProblems;

  templates::MailTemplates mail;
  if (templates::Status s =
          templates::MailTemplates::Load(templates::DefaultMailTemplateDir(DataDir()), &mail);
      !s.ok) {
    std::cerr << "pbem: archive: " << s.message << "\n";
    return kExitProblems;
  }
  if (templates::Status s = templates::WriteArchive(
          mail, language, templates::DefaultArchiveTemplateDir(DataDir()), input, out_dir);
      !s.ok) {
    std::cerr << "pbem: archive: " << s.message << "\n";
    return kExitProblems;
  }
  std::cout << "archive of game " << game_id << ": " << input.turns.size()
            << " player-turns written to " << (out_dir / "index.html").string() << "\n";
  return kExitOk;
}

}  // namespace pbem::cli
