// What the `pbem` commands share: input and output, usage, verdict lines.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>

#include "daemon/cli/cli.h"
#include "engine/morne_plaine/validate_orders.h"
#include "proto/codec/shown.h"

namespace pbem::cli {

namespace {

constexpr std::string_view kRulesetUsage =
    "pbem ruleset check DIR\n"
    "    Loads the ruleset directory DIR (every *.textproto file, in file-name order),\n"
    "    validates it and prints a one-line summary, or every error with its file and line.\n";

constexpr std::string_view kOrdersUsage =
    "pbem orders encode [--from text|json|binary] [--to text|json|binary] [-o OUT] FILE\n"
    "pbem orders decode [--from text|json|binary] [--to text|json|binary] [-o OUT] FILE\n"
    "    Converts an orders file (FILE, or - for standard input) between formats. The input\n"
    "    format is detected unless --from is given; encode writes binary and decode writes\n"
    "    text unless --to says otherwise. Output goes to OUT, or standard output.\n"
    "pbem orders check --game GAME [--db DB] FILE\n"
    "pbem orders check --scenario SCENARIO_FILE [--ruleset DIR] [--state STATE_FILE] FILE\n"
    "    Checks an orders file and prints one verdict per order and a summary. Exit 1 when\n"
    "    an order is invalid or illegal.\n"
    "    --game checks against the game as it stands now: its current state, scenario and\n"
    "    ruleset read from the game store DB (sqlite:DIR, the data directory holding\n"
    "    pbem.sqlite, default ./pbem-data as for pbemd; or postgresql:CONNSTRING). This is\n"
    "    the way for any player-turn after the first.\n"
    "    --scenario checks against a scenario file; the ruleset defaults to\n"
    "    <data>/engine/rulesets/<the scenario's ruleset>, the state to the scenario's initial\n"
    "    state, which is right only for the first player-turn. --state STATE_FILE gives the\n"
    "    state: a pbem.v1.GameState in text, JSON or binary form, or the whole JSON reply of\n"
    "    GET /v1/games/{id} from pbemd (its \"state\" member is used).\n"
    "    --lang en|fr: the language of the verdict sentences (English by default).\n";

constexpr std::string_view kScenarioUsage =
    "pbem scenario [--bless] PATH...\n"
    "    Runs scenario catalogue cases (files or directories), names each failing case and\n"
    "    prints expected against actual; --bless writes new expectations after review.\n";

constexpr std::string_view kDemoUsage =
    "pbem demo\n"
    "    Loads the bundled ruleset (engine/rulesets/morne-plaine) and scenario\n"
    "    (engine/scenarios/bois-de-la-morne.textproto), prints a summary of the scenario and\n"
    "    checks the sample orders of both sides.\n";

constexpr std::string_view kReachUsage =
    "pbem reach --scenario SCENARIO_FILE [--state STATE_FILE] [--ruleset DIR] UNIT\n"
    "    Lists every hex UNIT can reach this turn with its cost and path, sorted by cost then\n"
    "    label (\"0805 cost 2 path 0804 0805\"), after a first line naming the unit, its hex\n"
    "    and its movement points (halved when out of command). The state defaults to the\n"
    "    scenario's initial state. Exit 1 for an unknown unit or one not on the map.\n";

constexpr std::string_view kPlayUsage =
    "pbem play --scenario SCENARIO_FILE [--ruleset DIR] --games N --seed X [--quiet]\n"
    "    Plays N whole games with a simple legal-order bot for both sides, checking the state's\n"
    "    invariants and that every bot order is ok or partial after each player-turn. Prints\n"
    "    one line per game (winner, level, VP, player-turns, FNV-1a hash of its turn results)\n"
    "    and \"N games, M violations, hash H (format 1), H2 (format 2)\": the hash of every\n"
    "    turn result written in each format of pbem.v1.TurnResult (the per-game hashes are in\n"
    "    format 1); the same seed gives the same output. --quiet\n"
    "    leaves out the line per player-turn. Exit 1 on any violation.\n";

constexpr std::string_view kRenderUsage =
    "pbem render --scenario SCENARIO_FILE [--ruleset DIR] [--state STATE_FILE]\n"
    "            [--result TURN_RESULT_FILE] [--orders ORDERS_FILE]... [--seed N]\n"
    "            [--hex-size PX] -o MAP.png\n"
    "pbem render --game GAME --turn N [--side blue|orange] --db sqlite:DIR\n"
    "            [--scenario SCENARIO_FILE] [--ruleset DIR] [--hex-size PX] -o MAP.png\n"
    "    Draws the map as a PNG: terrain, units, and the events of the player-turn that led\n"
    "    to the state (moves, charges, bombardments, combats, retreats, eliminations), with a\n"
    "    legend and a title. The state is --state, else the next state of --result, else the\n"
    "    scenario's initial state; --result adds its events. Each --orders file is resolved\n"
    "    in turn from there with seeded dice (--seed, default 1) and the map shows the last\n"
    "    one's events. --game reads the stored player-turn N (of SIDE, else the last one\n"
    "    stored for N) from the game store in DIR; the scenario defaults to the bundled file\n"
    "    named by the game.\n";
constexpr std::string_view kArchiveUsage =
    "pbem archive GAME -o DIR [--db sqlite:DIR|postgresql:CONNINFO] [--scenario FILE]\n"
    "             [--ruleset DIR] [--lang en|fr]\n"
    "    Writes the static HTML history of a stored game into DIR: index.html and one page\n"
    "    per player-turn with its map, its report, previous and next links, and the final\n"
    "    result. Self-contained (relative links only). --db defaults to sqlite:pbem-data\n"
    "    (pbemd's default data_dir); the scenario to <data>/engine/scenarios/<the game's\n"
    "    scenario>.textproto. Exit 1 for an unknown game or a missing database.\n";
constexpr std::string_view kStoreDbUsage =
    "    DB is sqlite:DIR (the data directory holding pbem.sqlite, default ./pbem-data as for\n"
    "    pbemd) or postgresql:CONNSTRING (libpq key=value pairs separated by spaces).\n";

constexpr std::string_view kExportUsage =
    "pbem export GAME -o FILE [--db DB]\n"
    "    Writes the archive of GAME (a binary pbem.v1.Archive: ruleset, scenario, initial\n"
    "    state and every turn's orders, dice seed, commitment, result and next state) to FILE\n"
    "    (- for standard output).\n";

constexpr std::string_view kImportUsage =
    "pbem import FILE [--as ID] [--db DB]\n"
    "    Verifies the archive FILE (as pbem verify) and loads it into the store as game ID\n"
    "    (default: the archive's game id). A failing archive stores nothing. Exit 1 on failure.\n";

constexpr std::string_view kVerifyUsage =
    "pbem verify ARCHIVE\n"
    "    Checks every turn of ARCHIVE: commitment = SHA-256(seed), canonical orders, and the\n"
    "    turn re-resolved from the archived ruleset, scenario and orders with the derived dice\n"
    "    gives the archived result and next state byte for byte. Reports the first turn that\n"
    "    differs (\"first differing turn: N\") and exits 1; proto/README.md has the procedure.\n";

constexpr std::string_view kHistoryUsage =
    "pbem history GAME [--db DB]\n"
    "    One line per committed player-turn: number, turn, side, committed time (UTC), a short\n"
    "    summary of the verdicts and events, and the dice commitment.\n";

constexpr std::string_view kOutboxUsage =
    "pbem outbox dead [--db DB]\n"
    "    Lists the dead letters: outbox mails pbemd stopped sending because the mail server\n"
    "    refused them for good (SMTP 5xx) or they failed pbemd.mail.out.max_attempts times.\n"
    "    One line each: id, when, attempts, recipient, subject, the last error. Nothing is\n"
    "    ever deleted.\n"
    "pbem outbox requeue ID... | --all [--db DB]\n"
    "    Puts dead letters back into the outbox, due now, with a fresh count of attempts\n"
    "    (--all: every dead letter, up to 500 a run). Exit 1 when an ID is not a dead letter.\n";

constexpr std::string_view kTurnsUsage =
    "pbem turns stuck [--db DB]\n"
    "    Lists the stuck games: games whose turn pbemd could not resolve\n"
    "    pbemd.turns.max_failures times in a row (not a database outage: a stored state or\n"
    "    order the engine refuses, a scenario file gone, a bug). pbemd leaves them alone; their\n"
    "    players were told once by mail. One line each: game, turns committed, since when,\n"
    "    failures, and the last error.\n"
    "pbem turns retry GAME... [--db DB]\n"
    "    After the cause is fixed: pbemd's next pass tries the game again, and resolves the\n"
    "    turn with exactly the orders acknowledged. The turn's deadline moves by the time the\n"
    "    game stood stuck. Exit 1 when a GAME is not stuck.\n";

constexpr std::string_view kGeneralUsage =
    "usage: pbem COMMAND [ARGS]\n"
    "\n"
    "Commands:\n"
    "  ruleset check DIR           load and validate a ruleset directory\n"
    "  orders encode|decode FILE   convert orders between text, JSON and binary\n"
    "  orders check FILE           check orders against a game or a scenario\n"
    "  scenario [--bless] PATH...  run scenario catalogue cases\n"
    "  demo                        summarise the bundled scenario, check its sample orders\n"
    "  reach UNIT                  list the hexes a unit can reach this turn\n"
    "  play --games N --seed X     bot-against-bot soak run with invariant checks\n"
    "  render -o MAP.png           draw a state and its turn's events as a PNG map\n"
    "  archive GAME -o DIR         write a stored game's HTML history\n"
    "  export GAME -o FILE         write a game's archive from the store\n"
    "  import FILE                 verify an archive and load it into the store\n"
    "  verify ARCHIVE              re-resolve every turn of an archive, check its dice\n"
    "  history GAME                one line per committed turn of a game\n"
    "  league COMMAND LEAGUE       club leagues: create, add, remove, start, result, ...\n"
    "  outbox dead|requeue         list the mails pbemd gave up on, put them back\n"
    "  turns stuck|retry           list the games whose turn pbemd could not resolve, retry\n"
    "  help [COMMAND]              show this help, or a command's usage\n"
    "\n"
    "Exit codes: 0 ok, 1 problems found in the input, 2 usage error.\n"
    "Data directory: $PBEM_DATA_DIR, else <the binary's directory>/../share/pbem when it\n"
    "holds engine/scenarios (an installed pbem), else the source tree it was built from.\n";

}  // namespace

std::optional<std::string> Usage(std::string_view command) {
  if (command.empty()) return std::string(kGeneralUsage);
  if (command == "ruleset") return std::string(kRulesetUsage);
  if (command == "orders") return std::string(kOrdersUsage);
  if (command == "scenario") return std::string(kScenarioUsage);
  if (command == "league") return LeagueUsage() + std::string(kStoreDbUsage);
  if (command == "demo") return std::string(kDemoUsage);
  if (command == "reach") return std::string(kReachUsage);
  if (command == "play") return std::string(kPlayUsage);
  if (command == "render") return std::string(kRenderUsage);
  if (command == "archive") return std::string(kArchiveUsage);
  if (command == "export") return std::string(kExportUsage) + std::string(kStoreDbUsage);
  if (command == "import") return std::string(kImportUsage) + std::string(kStoreDbUsage);
  if (command == "verify") return std::string(kVerifyUsage);
  if (command == "history") return std::string(kHistoryUsage) + std::string(kStoreDbUsage);
  if (command == "outbox") return std::string(kOutboxUsage) + std::string(kStoreDbUsage);
  if (command == "turns") return std::string(kTurnsUsage) + std::string(kStoreDbUsage);
  if (command == "help") return std::string("pbem help [COMMAND]\n");
  return std::nullopt;
}

std::string OneLine(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (out.size() >= 120) {
      out += "...";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  return out;
}

std::string IsoTime(std::chrono::sys_time<std::chrono::milliseconds> t) {
  const std::int64_t ms = t.time_since_epoch().count();
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

int UsageError(std::string_view command, std::string_view message) {
  std::cerr << "pbem: " << message << "\n" << Usage(command).value_or(std::string(kGeneralUsage));
  return kExitUsage;
}

bool WantsHelp(const Args& args) {
  for (const std::string& a : args) {
    if (a == "-h" || a == "--help") return true;
  }
  return false;
}

std::filesystem::path DataDir() {
  if (const char* env = std::getenv("PBEM_DATA_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  // An installed pbem: <prefix>/bin/pbem reads <prefix>/share/pbem, as pbemd does
  // (daemon/config.h kDataDirVariable). /proc/self/exe names this very binary.
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && exe.has_parent_path()) {
    const std::filesystem::path installed = exe.parent_path().parent_path() / "share" / "pbem";
    if (std::filesystem::is_directory(installed / "engine" / "scenarios", ec)) return installed;
  }
#ifdef PBEM_SOURCE_DIR
  return PBEM_SOURCE_DIR;
#else
  return ".";
#endif
}

std::string SourceName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

codec::Result<std::string> ReadInput(const std::string& path) {
  if (path != "-") return codec::ReadFile(path);
  std::string data;
  char buffer[65536];
  while (true) {
    const std::size_t n = std::fread(buffer, 1, sizeof buffer, stdin);
    data.append(buffer, n);
    if (data.size() > codec::kMaxInputBytes) {
      return codec::Result<std::string>::Fail(
          "<stdin>",
          "oversized input: more than " + std::to_string(codec::kMaxInputBytes) + " bytes (4 MiB)");
    }
    if (n < sizeof buffer) break;
  }
  if (std::ferror(stdin)) return codec::Result<std::string>::Fail("<stdin>", "read error");
  return data;
}

bool WriteOutput(const std::string& path, std::string_view bytes) {
  if (path.empty() || path == "-") {
    std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    std::cout.flush();
    return static_cast<bool>(std::cout);
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    std::cerr << path << ": cannot write the output file\n";
    return false;
  }
  return true;
}

void PrintErrors(const std::vector<codec::Error>& errors) {
  for (const codec::Error& e : errors) std::cerr << e.ToString() << "\n";
}

namespace {

templates::Language sentence_language = templates::Language::kEnglish;

// The mail templates, read once; null when they cannot be read.
const templates::MailTemplates* CliTemplates() {
  static const std::optional<templates::MailTemplates> loaded =
      []() -> std::optional<templates::MailTemplates> {
    templates::MailTemplates t;
    const templates::Status s =
        templates::MailTemplates::Load(templates::DefaultMailTemplateDir(DataDir()), &t);
    if (!s.ok) {
      std::cerr << "cannot read the sentence templates (" << s.message
                << "); verdicts are shown as codes\n";
      return std::nullopt;
    }
    return t;
  }();
  return loaded ? &*loaded : nullptr;
}

// The machine form, for when the templates cannot be read: "move[1] b-i1: illegal
// not_in_contact 1811". The unit and the text arguments are what the player wrote: shown cut
// (codec::Shown), as the sentences and the mail replies show them.
std::string VerdictCodes(const engine::OrderVerdict& v, int label_width) {
  std::string line;
  if (v.order_kind == engine::OrderKind::kHeader) {
    line = "header";
  } else {
    line = std::string(engine::OrderKindName(v.order_kind)) + "[" + std::to_string(v.index) + "]";
    if (!v.unit.empty()) line += " " + codec::Shown(v.unit);
  }
  line += ": ";
  line += engine::VerdictKindName(v.verdict);
  if (v.reason != engine::Reason::kNone) {
    line += " ";
    line += engine::ReasonCode(v.reason);
  }
  for (const engine::Arg& arg : v.args) {
    line += " ";
    if (const auto* hex = std::get_if<engine::Hex>(&arg)) {
      line += engine::FormatLabel(*hex, label_width);
    } else {
      line += codec::Shown(codec::FormatArg(arg));
    }
  }
  return line;
}

}  // namespace

void SetSentenceLanguage(templates::Language language) { sentence_language = language; }

std::string VerdictLine(const engine::OrderVerdict& v, int label_width,
                        const engine::Scenario* scenario) {
  const templates::MailTemplates* words = CliTemplates();
  if (words == nullptr) return VerdictCodes(v, label_width);
  return words->VerdictSentence(sentence_language, v, scenario, label_width);
}

VerdictCounts CountVerdicts(const std::vector<engine::OrderVerdict>& verdicts) {
  VerdictCounts c;
  for (const engine::OrderVerdict& v : verdicts) {
    if (v.order_kind == engine::OrderKind::kHeader) {
      if (v.verdict != engine::VerdictKind::kOk) ++c.header_problems;
      continue;
    }
    ++c.orders;
    switch (v.verdict) {
      case engine::VerdictKind::kOk:
        ++c.ok;
        break;
      case engine::VerdictKind::kInvalid:
        ++c.invalid;
        break;
      case engine::VerdictKind::kIllegal:
        ++c.illegal;
        break;
      case engine::VerdictKind::kPartial:
        ++c.partial;
        break;
    }
  }
  return c;
}

std::string SummaryLine(const VerdictCounts& c) {
  std::string line = std::to_string(c.orders) + (c.orders == 1 ? " order: " : " orders: ") +
                     std::to_string(c.ok) + " ok, " + std::to_string(c.invalid) + " invalid, " +
                     std::to_string(c.illegal) + " illegal";
  if (c.partial > 0) line += ", " + std::to_string(c.partial) + " partial";
  if (c.header_problems > 0) {
    line += "; " + std::to_string(c.header_problems) + " header problem" +
            (c.header_problems == 1 ? "" : "s");
  }
  return line;
}

VerdictCounts PrintVerdicts(const std::vector<engine::OrderVerdict>& verdicts,
                            const codec::OrdersLocations& locations, std::string_view source,
                            const engine::Scenario& scenario, std::string_view indent) {
  const int label_width = codec::LabelWidth(scenario);
  for (const engine::OrderVerdict& v : verdicts) {
    std::cout << indent;
    if (v.verdict != engine::VerdictKind::kOk) std::cout << locations.Where(source, v) << ": ";
    std::cout << VerdictLine(v, label_width, &scenario) << "\n";
  }
  const VerdictCounts counts = CountVerdicts(verdicts);
  std::cout << indent << SummaryLine(counts) << "\n";
  return counts;
}

std::optional<ScenarioBundle> LoadScenarioBundle(const std::string& scenario_path,
                                                 const std::optional<std::string>& ruleset_dir,
                                                 int& exit_code) {
  exit_code = kExitProblems;
  const auto text = codec::ReadFile(scenario_path);
  if (!text.ok()) {
    PrintErrors(text.errors());
    return std::nullopt;
  }
  ScenarioBundle bundle;
  if (ruleset_dir) {
    bundle.ruleset_dir = *ruleset_dir;
  } else {
    // The scenario names its ruleset; read just that much first.
    pbem::v1::Scenario proto;
    const auto parsed =
        codec::ParseMessage(text.value(), codec::Format::kText, scenario_path, proto);
    if (!parsed.ok()) {
      PrintErrors(parsed.errors());
      return std::nullopt;
    }
    if (proto.ruleset().empty()) {
      std::cerr << scenario_path
                << ": ruleset: the scenario names no ruleset; give --ruleset DIR\n";
      exit_code = kExitUsage;
      return std::nullopt;
    }
    bundle.ruleset_dir = DataDir() / "engine" / "rulesets" / proto.ruleset();
  }
  auto ruleset = codec::LoadRulesetDir(bundle.ruleset_dir);
  if (!ruleset.ok()) {
    PrintErrors(ruleset.errors());
    return std::nullopt;
  }
  bundle.ruleset = std::move(ruleset).value().ruleset;
  auto scenario = codec::LoadScenarioText(text.value(), scenario_path, bundle.ruleset);
  if (!scenario.ok()) {
    PrintErrors(scenario.errors());
    return std::nullopt;
  }
  bundle.scenario = std::move(scenario).value().scenario;
  exit_code = kExitOk;
  return bundle;
}

std::optional<VerdictCounts> CheckOrdersFile(const ScenarioBundle& bundle,
                                             const std::string& orders_path,
                                             const engine::GameState* state,
                                             std::optional<engine::Side> side_to_move,
                                             std::string_view indent) {
  const auto bytes = ReadInput(orders_path);
  if (!bytes.ok()) {
    PrintErrors(bytes.errors());
    return std::nullopt;
  }
  const std::string source = SourceName(orders_path);
  codec::OrdersLocations locations;
  const auto proto = codec::ParseOrders(bytes.value(), std::nullopt, source, &locations);
  if (!proto.ok()) {
    PrintErrors(proto.errors());
    return std::nullopt;
  }
  const engine::Orders orders = codec::OrdersFromProto(proto.value());
  engine::GameState initial;
  if (state == nullptr) {
    initial = engine::InitialState(bundle.scenario, orders.game_id);
    if (side_to_move) initial.side_to_move = *side_to_move;
    state = &initial;
  }
  const auto verdicts = engine::ValidateOrders(bundle.ruleset, bundle.scenario, *state, orders);
  return PrintVerdicts(verdicts, locations, source, bundle.scenario, indent);
}

}  // namespace pbem::cli
