// The `pbem` command line: one function per command, and what they share.
//
// Exit codes: 0 ok, 1 problems found in the input, 2 usage error. Errors go
// to stderr, each naming the file, the line or field, and the problem.
#ifndef PBEM_DAEMON_CLI_CLI_H_
#define PBEM_DAEMON_CLI_CLI_H_

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/verdict.h"
#include "proto/codec/codec.h"
#include "templates/mail_render.h"

namespace pbem::storage {
class GameRepository;
struct Game;
}  // namespace pbem::storage

namespace pbem::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitProblems = 1;
inline constexpr int kExitUsage = 2;

using Args = std::vector<std::string>;

// Commands; `args` are the words after the command name(s).
int RunRulesetCommand(const Args& args);                   // pbem ruleset check DIR
int RunOrdersCodecCommand(bool encode, const Args& args);  // pbem orders encode|decode
int RunOrdersCheckCommand(const Args& args);               // pbem orders check
int RunScenarioCliCommand(const Args& args);               // pbem scenario (the catalogue runner)
int RunDemoCommand(const Args& args);                      // pbem demo
int RunReachCommand(const Args& args);                     // pbem reach
int RunPlayCommand(const Args& args);                      // pbem play
int RunRenderCommand(const Args& args);                    // pbem render
int RunArchiveCommand(const Args& args);                   // pbem archive
int RunExportCommand(const Args& args);                    // pbem export GAME -o FILE
int RunImportCommand(const Args& args);                    // pbem import FILE
int RunVerifyCommand(const Args& args);                    // pbem verify ARCHIVE
int RunHistoryCommand(const Args& args);                   // pbem history GAME
int RunLeagueCommand(const Args& args);                    // pbem league (league_command.cc)
int RunOutboxCommand(const Args& args);                    // pbem outbox dead|requeue
int RunTurnsCommand(const Args& args);                     // pbem turns stuck|retry

// Text from the store on one terminal line: control characters (a subject quotes a player)
// shown as '?', cut at 120 bytes.
std::string OneLine(const std::string& text);

// "2026-11-26T04:10:00Z": a stored time (storage::Timestamp), UTC, to the second.
std::string IsoTime(std::chrono::sys_time<std::chrono::milliseconds> t);

// The static history of stored game `game_id` (templates/archive.h) in `out_dir`: what
// `pbem archive` writes, also for each game of `pbem league standings --html`. The scenario
// is the game's bundled one unless `scenario_path` says otherwise. Prints what it wrote, or
// the problem to stderr; returns the exit code.
int WriteGameArchive(storage::GameRepository& repo, const std::string& game_id,
                     const std::filesystem::path& out_dir, templates::Language language,
                     const std::optional<std::string>& scenario_path = std::nullopt,
                     const std::optional<std::string>& ruleset_dir = std::nullopt);
std::string LeagueUsage();  // its usage text

// Usage text of a command ("ruleset", "orders", "scenario", "demo"), or of
// everything when `command` is empty; nullopt for an unknown command.
std::optional<std::string> Usage(std::string_view command);
// Prints "pbem: <message>" and the command's usage to stderr; returns 2.
int UsageError(std::string_view command, std::string_view message);
// True when args ask for help (-h, --help).
bool WantsHelp(const Args& args);

// The repository's data directory: $PBEM_DATA_DIR if set, else <the binary's
// directory>/../share/pbem when it holds engine/scenarios (installed: cmake --install lays it
// out so), else the source directory this binary was built from.
std::filesystem::path DataDir();

// Opens the game store named by `db` (sqlite:DIR, a path to its pbem.sqlite, or
// postgresql:CONNSTRING; nullopt: sqlite:./pbem-data, pbemd's default data directory).
// Prints the problem and returns null on failure. A command that only reads (`must_exist`)
// refuses a SQLite store that does not exist rather than creating an empty one.
std::unique_ptr<storage::GameRepository> OpenGameStore(const std::optional<std::string>& db,
                                                       bool must_exist);

// True, after printing why, when `game` plays another system than Morne Plaine: `command`
// (orders check --game, render, archive) reads Morne Plaine's games only so far; pbem history,
// export, import and verify read every system's.
bool RefusedOtherSystem(const storage::Game& game, std::string_view command);

// Reads a file, or standard input for "-". Errors name the file.
codec::Result<std::string> ReadInput(const std::string& path);
// Writes bytes to a file, or standard output for "-" or an empty path.
bool WriteOutput(const std::string& path, std::string_view bytes);
// The name errors use for an input path ("<stdin>" for "-").
std::string SourceName(const std::string& path);

// Prints each error on its own line to stderr.
void PrintErrors(const std::vector<codec::Error>& errors);

// An order's verdict as a sentence in the CLI's language (SetSentenceLanguage), worded by the
// mail templates' one verdict wording (templates::MailTemplates::VerdictSentence, read from
// <data dir>/templates/mail); the reason code only when the templates cannot be read (said
// once on stderr).
// Units are named from `scenario` ("Dragons (b-c1)"); by their ids when it is null.
std::string VerdictLine(const engine::OrderVerdict& verdict, int label_width,
                        const engine::Scenario* scenario = nullptr);
// The language of VerdictLine's sentences ("en" by default; `pbem orders check --lang fr`).
void SetSentenceLanguage(templates::Language language);

struct VerdictCounts {
  int orders = 0;  // verdicts on orders (header verdicts excluded)
  int ok = 0;
  int invalid = 0;
  int illegal = 0;
  int partial = 0;
  int header_problems = 0;
  bool all_acceptable() const { return invalid == 0 && illegal == 0 && header_problems == 0; }
};
VerdictCounts CountVerdicts(const std::vector<engine::OrderVerdict>& verdicts);
// "5 orders: 4 ok, 1 invalid, 0 illegal" (+ partial and header problems when any).
std::string SummaryLine(const VerdictCounts& counts);

// Checks orders and prints one line per verdict to stdout, problem lines
// prefixed with the order's place ("file:line:col: "), units named from `scenario` and hexes
// labelled as its labels are. Returns the counts.
VerdictCounts PrintVerdicts(const std::vector<engine::OrderVerdict>& verdicts,
                            const codec::OrdersLocations& locations, std::string_view source,
                            const engine::Scenario& scenario, std::string_view indent = "");

// A scenario with the ruleset it was loaded against.
struct ScenarioBundle {
  std::filesystem::path ruleset_dir;
  engine::Ruleset ruleset;
  engine::Scenario scenario;
};

// Loads `scenario_path` and its ruleset: `ruleset_dir` when given, else
// <DataDir()>/engine/rulesets/<the scenario's ruleset field>. On failure
// prints the errors and returns nullopt with `exit_code` set (1 for bad
// input, 2 when the scenario names no ruleset and none was given).
std::optional<ScenarioBundle> LoadScenarioBundle(const std::string& scenario_path,
                                                 const std::optional<std::string>& ruleset_dir,
                                                 int& exit_code);

// Reads an orders file (any format), checks it with engine::ValidateOrders
// against `state` (or, when null, the scenario's initial state with the
// orders' game id and `side_to_move` when given) and prints the verdicts.
// Returns nullopt after printing the errors of an unreadable file.
std::optional<VerdictCounts> CheckOrdersFile(const ScenarioBundle& bundle,
                                             const std::string& orders_path,
                                             const engine::GameState* state,
                                             std::optional<engine::Side> side_to_move,
                                             std::string_view indent = "");

}  // namespace pbem::cli

#endif  // PBEM_DAEMON_CLI_CLI_H_
