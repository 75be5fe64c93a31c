// pbem league: club leagues for organisers (issue 8). Every subcommand takes [--db DB] (as
// `pbem export`: sqlite:DIR or postgresql:CONNSTRING; default sqlite:./pbem-data).
//
//   create LEAGUE --token ORG [--name NAME] [--settings FILE]
//   add LEAGUE PLAYER --mail ADDR              prints the player's new league token
//   remove LEAGUE PLAYER --token ORG
//   start LEAGUE --token ORG [--season N] [--round N]
//       pairs the league's players (round robin, or Swiss when the settings say
//       "pairing swiss"; sides from the settings), creates that
//       round's games of the bundled scenario with a fresh token per game and side, stores
//       them and enqueues one mail per player listing the games and tokens.
//   result GAME --token ORG (--winner blue|orange --level LEVEL | --draw) [--resigned|--forfeit]
//   replace LEAGUE OLD NEW --mail ADDR --token ORG   prints the new player's token
//   standings LEAGUE [--season N] [--html DIR [--lang en|fr]]
//       prints the table; with --html also writes DIR/standings.html, the static standings
//       page linking each game's archive page DIR/<game>/index.html (`pbem archive`).
//
// Bad input (unknown league, joining twice, a wrong organiser token, a player over the game
// limit) is refused with exit 1 before anything is written.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "daemon/cli/cli.h"
#include "daemon/league/league_flow.h"
#include "daemon/turn/dice.h"
#include "daemon/turn/turn_job.h"
#include "engine/victory.h"
#include "storage/postgres_repository.h"
#include "storage/sqlite_repository.h"

namespace pbem::cli {
namespace {

using league::LeagueSettings;

constexpr std::string_view kLeagueUsage =
    "pbem league create LEAGUE --token ORG [--name NAME] [--settings FILE]\n"
    "pbem league add LEAGUE PLAYER --mail ADDR\n"
    "pbem league remove LEAGUE PLAYER --token ORG\n"
    "pbem league start LEAGUE --token ORG [--season N] [--round N]\n"
    "pbem league result GAME --token ORG (--winner blue|orange --level LEVEL | --draw)\n"
    "                   [--resigned | --forfeit]\n"
    "pbem league replace LEAGUE OLD NEW --mail ADDR --token ORG\n"
    "pbem league standings LEAGUE [--season N] [--html DIR [--lang en|fr]]\n"
    "    Club leagues. ORG is the organiser's token chosen at create. Every command takes\n"
    "    --db DB (sqlite:DIR or postgresql:CONNSTRING; default sqlite:./pbem-data).\n";

struct Options {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;
  std::map<std::string, bool> flags;
};

std::optional<Options> Parse(const Args& args, int& exit_code) {
  static const std::vector<std::string> kValued = {"--db",    "--token",  "--name",  "--settings",
                                                   "--mail",  "--season", "--round", "--winner",
                                                   "--level", "--html",   "--lang"};
  static const std::vector<std::string> kFlags = {"--draw", "--resigned", "--forfeit"};
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (std::find(kValued.begin(), kValued.end(), a) != kValued.end()) {
      if (i + 1 >= args.size()) {
        exit_code = UsageError("league", "league: " + a + " needs a value");
        return std::nullopt;
      }
      o.values[a] = args[++i];
    } else if (std::find(kFlags.begin(), kFlags.end(), a) != kFlags.end()) {
      o.flags[a] = true;
    } else if (a.size() > 1 && a[0] == '-') {
      exit_code = UsageError("league", "league: unknown option '" + a + "'");
      return std::nullopt;
    } else {
      o.positional.push_back(a);
    }
  }
  return o;
}

std::unique_ptr<storage::SqlRepository> Open(const Options& o) {
  const std::string spec = o.values.count("--db") ? o.values.at("--db") : "sqlite:./pbem-data";
  std::unique_ptr<storage::SqlRepository> repo;
  if (spec.rfind("sqlite:", 0) == 0) {
    std::filesystem::path path = spec.substr(7);
    if (path.filename() == storage::SqliteRepository::kFileName) path = path.parent_path();
    repo = std::make_unique<storage::SqliteRepository>(path.empty() ? "." : path);
  } else if (spec.rfind("postgresql:", 0) == 0) {
    repo = std::make_unique<storage::PostgresRepository>(spec.substr(11));
  } else {
    std::cerr << "pbem: league: --db must be sqlite:DIR or postgresql:CONNSTRING, not '" << spec
              << "'\n";
    return nullptr;
  }
  if (Result<int> opened = repo->OpenOrMigrate(); !opened.ok()) {
    std::cerr << "pbem: " << opened.status().ToString() << '\n';
    return nullptr;
  }
  return repo;
}

int Fail(const Status& s) {
  std::cerr << "pbem: league: " << s.message() << '\n';
  return kExitProblems;
}
int Fail(const std::string& message) {
  std::cerr << "pbem: league: " << message << '\n';
  return kExitProblems;
}

Result<std::string> NewToken(daemon::EntropySource& entropy) {
  Result<daemon::Bytes> bytes = entropy.Draw(16);
  if (!bytes.ok()) return bytes.status();
  std::ostringstream hex;
  for (unsigned char c : *bytes) hex << std::hex << std::setw(2) << std::setfill('0') << int{c};
  return hex.str();
}

// The organiser check: NOT_FOUND league or a wrong token is an error message.
std::optional<std::string> CheckOrganiser(storage::LeagueRepository& repo,
                                          const std::string& league_id, const Options& o) {
  if (!o.values.count("--token")) return "the organiser's --token is required";
  Result<bool> ok = repo.VerifyOrganiserToken(league_id, o.values.at("--token"));
  if (!ok.ok()) return ok.status().message();
  if (!*ok) return "the token is not the organiser's token of league " + league_id;
  return std::nullopt;
}

Result<LeagueSettings> SettingsOf(storage::LeagueRepository& repo, const std::string& league_id) {
  Result<storage::League> l = repo.GetLeague(league_id);
  if (!l.ok()) return l.status();
  return league::DecodeSettings(l->settings);
}

storage::Timestamp Now() {
  return storage::Timestamp(std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::system_clock::now().time_since_epoch()));
}

int Create(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 1 || !o.values.count("--token")) {
    return UsageError("league", "league create: LEAGUE and --token are required");
  }
  std::string settings_text = league::EncodeSettings(LeagueSettings{});
  if (o.values.count("--settings")) {
    auto text = ReadInput(o.values.at("--settings"));
    if (!text.ok()) return Fail(text.ErrorText());
    Result<LeagueSettings> s = league::DecodeSettings(text.value());
    if (!s.ok()) return Fail(s.status());
    settings_text = league::EncodeSettings(*s);
  }
  const std::string& id = o.positional[0];
  const std::string name = o.values.count("--name") ? o.values.at("--name") : id;
  if (Status s = repo.CreateLeague({id, name, o.values.at("--token"), settings_text, Now()});
      !s.ok()) {
    return Fail(s);
  }
  std::cout << "league " << id << " created\n";
  return kExitOk;
}

int Add(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 2 || !o.values.count("--mail")) {
    return UsageError("league", "league add: LEAGUE PLAYER and --mail are required");
  }
  daemon::SystemEntropy entropy;
  Result<std::string> token = NewToken(entropy);
  if (!token.ok()) return Fail(token.status());
  if (Status s = repo.AddLeaguePlayer(
          {o.positional[0], o.positional[1], o.values.at("--mail"), *token, Now()});
      !s.ok()) {
    return Fail(s);
  }
  std::cout << "player " << o.positional[1] << " joined league " << o.positional[0] << "; token "
            << *token << '\n';
  return kExitOk;
}

int Remove(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 2) return UsageError("league", "league remove: LEAGUE PLAYER");
  if (auto bad = CheckOrganiser(repo, o.positional[0], o)) return Fail(*bad);
  if (Status s = repo.RemoveLeaguePlayer(o.positional[0], o.positional[1]); !s.ok()) return Fail(s);
  std::cout << "player " << o.positional[1] << " left league " << o.positional[0] << '\n';
  return kExitOk;
}

int Start(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 1) return UsageError("league", "league start: LEAGUE");
  const std::string& id = o.positional[0];
  if (auto bad = CheckOrganiser(repo, id, o)) return Fail(*bad);
  Result<LeagueSettings> settings = SettingsOf(repo, id);
  if (!settings.ok()) return Fail(settings.status());
  int season = 1, round_number = 1;
  try {
    if (o.values.count("--season")) season = std::stoi(o.values.at("--season"));
    if (o.values.count("--round")) round_number = std::stoi(o.values.at("--round"));
  } catch (const std::exception&) {
    return UsageError("league", "league start: --season and --round are numbers");
  }
  auto players = repo.ListLeaguePlayers(id);
  auto games = repo.ListLeagueGames(id);
  if (!players.ok()) return Fail(players.status());
  if (!games.ok()) return Fail(games.status());
  std::vector<std::string> names;
  for (const auto& p : *players) names.push_back(p.player);
  league::Round round;
  if (settings->pairing == league::PairingSystem::kSwiss) {
    auto history = repo.RatingHistory(id);
    if (!history.ok()) return Fail(history.status());
    std::vector<league::LeagueGame> season_games;
    for (const auto& g : *games) {
      if (g.season == season) season_games.push_back(league::FromRecord(g));
    }
    auto paired = league::PairSwissRound(names, season_games,
                                         league::LatestRatings(*history, names, settings->glicko),
                                         *settings, round_number);
    if (!paired.ok()) return Fail(paired.status());
    round = paired.value();
  } else {
    auto rounds = league::RoundRobin(names, settings->sides);
    if (!rounds.ok()) return Fail(rounds.status());
    if (round_number < 1 || round_number > static_cast<int>(rounds->size())) {
      return Fail("round " + std::to_string(round_number) + " is not in the schedule (1.." +
                  std::to_string(rounds->size()) + ")");
    }
    round = (*rounds)[static_cast<std::size_t>(round_number - 1)];
  }
  // Limits: active (pending) and finished games per player, before writing anything.
  std::map<std::string, int> active, finished, extra;
  for (const auto& g : *games) {
    if (g.season == season && g.round == round_number) {
      return Fail("season " + std::to_string(season) + " round " + std::to_string(round_number) +
                  " of league " + id + " has started already");
    }
    for (const auto& p : {g.blue, g.orange}) ++(g.result == "pending" ? active : finished)[p];
  }
  for (const auto& p : round.games) {
    ++extra[p.blue];
    ++extra[p.orange];
  }
  for (const auto& [player, n] : extra) {
    if (Status s =
            league::CheckGameLimit(settings->limits, player, finished[player], active[player], n);
        !s.ok()) {
      return Fail(s);
    }
  }
  // The bundled ruleset and scenario.
  const std::filesystem::path data = DataDir();
  auto ruleset = codec::LoadRulesetDir(data / "engine/rulesets/morne-plaine");
  if (!ruleset.ok()) return Fail(ruleset.ErrorText());
  auto scenario = codec::LoadScenarioFile(data / "engine/scenarios/bois-de-la-morne.textproto",
                                          ruleset.value().ruleset);
  if (!scenario.ok()) return Fail(scenario.ErrorText());

  daemon::SystemEntropy entropy;
  const storage::Timestamp now = Now();
  std::vector<storage::LeagueGameRecord> records;
  std::map<std::string, std::string> letters;  // player -> the lines of their mail
  for (std::size_t i = 0; i < round.games.size(); ++i) {
    const league::Pairing& p = round.games[i];
    const std::string game_id = id + "-s" + std::to_string(season) + "-r" +
                                std::to_string(round_number) + "-g" + std::to_string(i + 1);
    if (Status s =
            repo.CreateGame(daemon::MakeNewGame(ruleset.value().proto, scenario.value().proto,
                                                scenario.value().scenario, game_id, now));
        !s.ok()) {
      return Fail(s);
    }
    for (const auto& [side, player] : {std::pair{"blue", p.blue}, std::pair{"orange", p.orange}}) {
      Result<std::string> token = NewToken(entropy);
      if (!token.ok()) return Fail(token.status());
      std::string mail;
      for (const auto& lp : *players) {
        if (lp.player == player) mail = lp.mail_address;
      }
      if (Status s = repo.AddPlayer({game_id, side, mail, *token}); !s.ok()) return Fail(s);
      letters[player] += "  " + game_id + ": you play " + side + " against " +
                         (player == p.blue ? p.orange : p.blue) + "; token " + *token + "\n";
    }
    league::LeagueGame g;
    g.game_id = game_id;
    g.round = round_number;
    g.blue = p.blue;
    g.orange = p.orange;
    records.push_back(league::ToRecord(g, id, season));
  }
  if (Status s = repo.AddLeagueGames(records); !s.ok()) return Fail(s);
  for (const auto& lp : *players) {
    if (!letters.count(lp.player)) continue;
    storage::NewMail mail;
    mail.recipient = lp.mail_address;
    mail.subject = "League " + id + ": your games of season " + std::to_string(season) +
                   ", round " + std::to_string(round_number);
    mail.body = "Your games (send orders with the game's token):\n" + letters[lp.player];
    mail.next_try = now;
    if (Result<std::int64_t> m = repo.EnqueueMail(mail); !m.ok()) return Fail(m.status());
  }
  std::cout << "season " << season << " round " << round_number << " of league " << id << ": "
            << records.size() << " games created";
  if (round.bye) std::cout << ", " << *round.bye << " has a bye";
  std::cout << '\n';
  return kExitOk;
}

int RecordResult(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 1) return UsageError("league", "league result: GAME");
  Result<storage::LeagueGameRecord> game = repo.GetLeagueGame(o.positional[0]);
  if (!game.ok()) return Fail(game.status());
  if (auto bad = CheckOrganiser(repo, game->league_id, o)) return Fail(*bad);
  league::GameEnd end;
  end.game_id = o.positional[0];
  end.kind = o.flags.count("--forfeit")    ? league::EndKind::kForfeit
             : o.flags.count("--resigned") ? league::EndKind::kResigned
                                           : league::EndKind::kPlayed;
  if (!o.flags.count("--draw")) {
    if (!o.values.count("--winner"))
      return UsageError("league", "league result: --winner or --draw");
    end.outcome.winner = engine::ParseSide(o.values.at("--winner"));
    if (!end.outcome.winner) return Fail("--winner is blue or orange");
    const std::string level = o.values.count("--level") ? o.values.at("--level") : "total";
    bool known = false;
    for (auto l : {engine::VictoryLevel::kMinor, engine::VictoryLevel::kTactical,
                   engine::VictoryLevel::kMajor, engine::VictoryLevel::kTotal}) {
      if (engine::VictoryLevelName(l) == level) {
        end.outcome.level = l;
        known = true;
      }
    }
    if (!known) return Fail("--level is minor, tactical, major or total, not '" + level + "'");
  }
  auto recorded = league::RecordGameEnd(repo, repo, end, DataDir() / "templates/league", Now());
  if (!recorded.ok()) return Fail(recorded.status());
  std::cout << "result of " << end.game_id << " recorded"
            << (recorded->round_complete ? "; round complete, ratings updated, standings mailed"
                                         : "")
            << '\n';
  return kExitOk;
}

int Replace(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 3 || !o.values.count("--mail")) {
    return UsageError("league", "league replace: LEAGUE OLD NEW and --mail are required");
  }
  if (auto bad = CheckOrganiser(repo, o.positional[0], o)) return Fail(*bad);
  daemon::SystemEntropy entropy;
  Result<std::string> token = NewToken(entropy);
  if (!token.ok()) return Fail(token.status());
  if (Status s = repo.ReplaceLeaguePlayer(o.positional[1], {o.positional[0], o.positional[2],
                                                            o.values.at("--mail"), *token, Now()});
      !s.ok()) {
    return Fail(s);
  }
  std::cout << "player " << o.positional[2] << " replaces " << o.positional[1] << " in league "
            << o.positional[0] << "; token " << *token << '\n';
  return kExitOk;
}

int Standings(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 1) return UsageError("league", "league standings: LEAGUE");
  const std::string& id = o.positional[0];
  Result<LeagueSettings> settings = SettingsOf(repo, id);
  if (!settings.ok()) return Fail(settings.status());
  int season = 1;
  if (o.values.count("--season")) season = std::atoi(o.values.at("--season").c_str());
  auto players = repo.ListLeaguePlayers(id);
  auto games = repo.ListLeagueGames(id);
  auto history = repo.RatingHistory(id);
  if (!players.ok()) return Fail(players.status());
  if (!games.ok()) return Fail(games.status());
  if (!history.ok()) return Fail(history.status());
  std::vector<std::string> names;
  for (const auto& p : *players) names.push_back(p.player);
  std::vector<league::LeagueGame> season_games;
  for (const auto& g : *games) {
    if (g.season == season) season_games.push_back(league::FromRecord(g));
  }
  auto rows = league::ComputeStandings(names, season_games, settings->points, settings->limits,
                                       league::LatestRatings(*history, names, settings->glicko),
                                       settings->glicko);
  std::cout << "rank player points played pending W-D-L SB rating\n";
  for (const auto& r : rows) {
    std::cout << (r.rank ? std::to_string(*r.rank) : "-") << ' ' << r.player << ' ' << r.points
              << ' ' << r.played << ' ' << r.pending << ' ' << r.wins << '-' << r.draws << '-'
              << r.losses << ' ' << r.sonneborn_berger << ' ' << std::fixed << std::setprecision(0)
              << r.rating << std::defaultfloat << '\n';
  }
  if (o.values.count("--html")) {
    const std::string lang = o.values.count("--lang") ? o.values.at("--lang") : settings->language;
    Result<storage::League> l = repo.GetLeague(id);
    if (!l.ok()) return Fail(l.status());
    int round = 0;
    for (const auto& g : season_games) round = std::max(round, g.round);
    auto page = league::RenderStandings(DataDir() / "templates/league", lang,
                                        {l->name, season, round, rows, season_games});
    if (!page.ok()) return Fail(page.status());
    const std::filesystem::path dir = o.values.at("--html");
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (!WriteOutput((dir / "standings.html").string(), page->html)) {
      return Fail("cannot write " + (dir / "standings.html").string());
    }
  }
  return kExitOk;
}

}  // namespace

std::string LeagueUsage() { return std::string(kLeagueUsage); }

int RunLeagueCommand(const Args& args) {
  if (args.empty()) return UsageError("league", "league: which command?");
  int exit_code = kExitOk;
  const std::string sub = args.front();
  auto options = Parse(Args(args.begin() + 1, args.end()), exit_code);
  if (!options) return exit_code;
  using Handler = int (*)(storage::SqlRepository&, const Options&);
  static const std::map<std::string, Handler> kHandlers = {
      {"create", Create},       {"add", Add},         {"remove", Remove},      {"start", Start},
      {"result", RecordResult}, {"replace", Replace}, {"standings", Standings}};
  auto handler = kHandlers.find(sub);
  if (handler == kHandlers.end())
    return UsageError("league", "league: unknown command '" + sub + "'");
  auto repo = Open(*options);
  if (!repo) return kExitProblems;
  return handler->second(*repo, *options);
}

}  // namespace pbem::cli
