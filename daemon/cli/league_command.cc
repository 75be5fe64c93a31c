// pbem league: club leagues for organisers (issue 8). Every subcommand takes [--db DB] (as
// `pbem export`: sqlite:DIR or postgresql:CONNSTRING; default sqlite:./pbem-data).
//
//   create LEAGUE --token ORG [--name NAME] [--settings FILE]
//   add LEAGUE PLAYER --mail ADDR [--lang en|fr]   prints the player's new league token
//   remove LEAGUE PLAYER --token ORG
//   start LEAGUE --token ORG [--season N] [--round N] [--address ADDR] [--url URL]
//       league::StartRound: pairs the league's players (round robin, or Swiss when the
//       settings say "pairing swiss"; sides from the settings), creates that round's games
//       of the league's scenario (bundled data) with a fresh token per game and side, stores
//       them and enqueues one mail per player listing the games and tokens (round 1 unless
//       --round says otherwise). The mails give --address as where orders go (pbemd's
//       pbemd.mail.from) and link the standings under --url (pbemd.http.public_url).
//   result GAME --token ORG (--winner blue|orange --level LEVEL | --draw) [--resigned|--forfeit]
//          [--reason TEXT] [--address A] [--url U]
//       league::RecordOrganiserResult: ends the game when it still runs and records its
//       league result; when it completes its round, the next round starts (or, after the last
//       round, the season ends), as in pbemd's pass. A game with a league result already is
//       corrected, which needs --reason (logged, ratings rated again from its round on, every
//       player mailed). First, a round of the league left complete but not followed up (a
//       crash between rating it and starting the next round) is followed up
//       (league::CompleteStalledRound, as pbemd's pass does).
//   replace LEAGUE OLD NEW --mail ADDR --token ORG [--lang en|fr] [--address A] [--url U]
//       prints the new player's token and mails them a welcome in their language with their
//       games in play and the token that plays them; the new player takes the old one's seat
//       in the season's round robin
//   end LEAGUE --token ORG [--season N] [--address A] [--url U]
//       league::FinishSeason: ends the season (default the latest) once no game of it is
//       played: final table, a mail to every player in their language naming the champion
//   status LEAGUE --token ORG          every game: side to move, deadline, last orders, missed
//                                      turns, paused, result (an aligned table)
//   extend LEAGUE GAME --hours N --token ORG   the game's deadline moves N hours later (1 to
//                                      720); its players are told by mail in their language
//   registration LEAGUE open|closed --token ORG   joining allowed or refused
//   export LEAGUE standings|games|trf --token ORG [--season N] [--out FILE]   CSV (RFC 4180),
//                                      or the season as FIDE TRF-16 (league/export.h)
//   ratings LEAGUE PLAYER --out FILE [--lang en|fr]   the player's rating history page
//   standings LEAGUE [--season N] [--html DIR [--lang en|fr]]
//       prints the table; with --html also writes DIR/standings.html, the static standings
//       page, and each game's archive page DIR/<game>/index.html (as `pbem archive`) that it
//       links.
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
#include "daemon/cli/league_cli.h"
#include "daemon/game_catalog.h"
#include "daemon/league/correction.h"
#include "daemon/league/league_flow.h"
#include "daemon/league/organiser.h"
#include "daemon/league/season.h"
#include "daemon/turn/dice.h"
#include "daemon/turn/turn_job.h"
#include "daemon/validate.h"
#include "storage/postgres_repository.h"
#include "storage/sqlite_repository.h"

namespace pbem::cli {
namespace {

using league::LeagueSettings;
using namespace league_cli;  // NOLINT: the helpers shared with league_organiser_command.cc

// A league player's name and address as pbemd checks them (daemon/validate.h); the address
// lower-cased as pbemd stores it. An error naming the argument, or nullopt.
std::optional<std::string> CheckPlayer(const std::string& name, std::string& address) {
  if (std::optional<std::string> wrong = daemon::DisplayNameProblem(name)) {
    return "PLAYER " + *wrong;
  }
  if (std::optional<std::string> wrong = daemon::MailAddressProblem(address)) {
    return "--mail " + *wrong;
  }
  std::transform(address.begin(), address.end(), address.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  });
  return std::nullopt;
}

constexpr std::string_view kLeagueUsage =
    "pbem league create LEAGUE --token ORG [--name NAME] [--settings FILE]\n"
    "pbem league add LEAGUE PLAYER --mail ADDR [--lang en|fr]\n"
    "pbem league remove LEAGUE PLAYER --token ORG\n"
    "pbem league start LEAGUE --token ORG [--season N] [--round N] [--address ADDR] [--url URL]\n"
    "pbem league result GAME --token ORG (--winner blue|orange --level LEVEL | --draw)\n"
    "                   [--resigned | --forfeit] [--reason TEXT] [--address ADDR] [--url URL]\n"
    "pbem league replace LEAGUE OLD NEW --mail ADDR --token ORG [--lang en|fr]\n"
    "                    [--address ADDR] [--url URL]\n"
    "pbem league end LEAGUE --token ORG [--season N] [--address ADDR] [--url URL]\n"
    "pbem league standings LEAGUE [--season N] [--html DIR [--lang en|fr]]\n"
    "pbem league status LEAGUE --token ORG\n"
    "pbem league extend LEAGUE GAME --hours N --token ORG\n"
    "pbem league registration LEAGUE open|closed --token ORG\n"
    "pbem league export LEAGUE standings|games|trf --token ORG [--season N] [--out FILE]\n"
    "pbem league ratings LEAGUE PLAYER --out FILE [--lang en|fr]\n"
    "    Club leagues. ORG is the organiser's token chosen at create. Every command takes\n"
    "    --db DB (sqlite:DIR or postgresql:CONNSTRING; default sqlite:./pbem-data).\n"
    "    --address is where players mail their orders (pbemd.mail.from), --url pbemd as\n"
    "    players reach it (pbemd.http.public_url): the mails give them.\n";

std::optional<Options> Parse(const Args& args, int& exit_code) {
  static const std::vector<std::string> kValued = {
      "--db",    "--token", "--name", "--settings", "--mail", "--season", "--round", "--winner",
      "--level", "--html",  "--lang", "--address",  "--url",  "--reason", "--hours", "--out"};
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

// --address and --url as the mails' places; an error naming the option, or nullopt.
std::optional<std::string> Places(const Options& o, league::MailPlaces& places) {
  if (o.values.count("--address")) {
    places.game_address = o.values.at("--address");
    if (auto wrong = daemon::MailAddressProblem(places.game_address)) return "--address " + *wrong;
  }
  if (o.values.count("--url")) {
    places.public_url = o.values.at("--url");
    while (!places.public_url.empty() && places.public_url.back() == '/') {
      places.public_url.pop_back();
    }
    const std::string& url = places.public_url;
    const bool http = url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0;
    if (!http || url.size() > 512 || !daemon::IsHeaderSafe(url) ||
        url.find_first_of(" \"<>") != std::string::npos) {
      return "--url is pbemd's address for players, http://host[:port] or https://...";
    }
  }
  return std::nullopt;
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

// The bundled ruleset and the league's scenarios from the bundled data.
league::MaterialLoader BundledLoader() {
  return [data = DataDir()](const std::string& name) -> Result<league::GameMaterial> {
    auto ruleset = codec::LoadRulesetDir(data / "engine/rulesets/morne-plaine");
    if (!ruleset.ok()) return Status::FailedPrecondition(ruleset.ErrorText());
    auto scenario = codec::LoadScenarioFile(data / "engine/scenarios" / (name + ".textproto"),
                                            ruleset.value().ruleset);
    if (!scenario.ok()) return Status::FailedPrecondition(scenario.ErrorText());
    return league::GameMaterial{ruleset.value().proto, scenario.value().proto,
                                scenario.value().scenario};
  };
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
    if (std::optional<std::string> wrong =
            daemon::DeadlinesProblem(s->turn_timeout.count(), s->reminder_before.count())) {
      return Fail("--settings: deadlines: " + *wrong);
    }
    settings_text = league::EncodeSettings(*s);
  }
  const std::string& id = o.positional[0];
  const std::string name = o.values.count("--name") ? o.values.at("--name") : id;
  if (!daemon::IsIdentifier(id, 40)) {
    return Fail(
        "LEAGUE is 1 to 40 letters, digits, '-', '_' or '.', starting with a letter or "
        "a digit");
  }
  if (std::optional<std::string> wrong = daemon::DisplayNameProblem(name)) {
    return Fail("--name " + *wrong);
  }
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
  Result<std::string> token = league::NewToken(entropy);
  if (!token.ok()) return Fail(token.status());
  const std::string language = o.values.count("--lang") ? o.values.at("--lang") : "en";
  if (language != "en" && language != "fr") return Fail("--lang is en or fr");
  std::string address = o.values.at("--mail");
  if (auto bad = CheckPlayer(o.positional[1], address)) return Fail(*bad);
  if (Status s = repo.AddLeaguePlayer(
          {o.positional[0], o.positional[1], address, *token, Now(), language});
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
  int season = 1;
  std::optional<int> round_number = 1;
  if (o.values.count("--season")) {
    std::optional<int> n = Count(o.values.at("--season"));
    if (!n) return UsageError("league", "league start: --season is a number from 1 to 10000");
    season = *n;
  }
  if (o.values.count("--round")) {
    round_number = Count(o.values.at("--round"));
    if (!round_number) {
      return UsageError("league", "league start: --round is a number from 1 to 10000");
    }
  }
  league::MailPlaces places;
  if (auto bad = Places(o, places)) return Fail(*bad);
  daemon::SystemEntropy entropy;
  Result<league::StartedRound> started =
      league::StartRound(repo, id, season, round_number, BundledLoader(), entropy,
                         DataDir() / "templates/league", Now(), nullptr, places);
  if (!started.ok()) return Fail(started.status());
  std::cout << "season " << started->season << " round " << started->round << " of league " << id
            << ": " << started->games.size() << " games created";
  if (started->bye) std::cout << ", " << *started->bye << " has a bye";
  std::cout << '\n';
  return kExitOk;
}

// What CompleteStalledRound did for `league_id`, on one line (stderr for what failed).
void PrintStalled(const std::string& league_id, const league::Advance& advanced) {
  const std::string which = "league " + league_id + ": round " +
                            std::to_string(advanced.recorded.round) + " of season " +
                            std::to_string(advanced.recorded.season) + " was complete but ";
  if (advanced.next) {
    std::cout << which << "round " << advanced.next->round << " had not started: started now ("
              << advanced.next->games.size() << " games)\n";
  } else if (advanced.finished) {
    std::cout << which << "the season had not ended: ended now"
              << (advanced.finished->champion ? ", champion " + *advanced.finished->champion
                                              : std::string())
              << '\n';
  } else if (!advanced.next_status.ok()) {
    std::cerr << "pbem: " << which
              << "what follows it did not happen: " << advanced.next_status.message() << '\n';
  }
}

int RecordResult(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 1) return UsageError("league", "league result: GAME");
  Result<storage::LeagueGameRecord> game = repo.GetLeagueGame(o.positional[0]);
  if (!game.ok()) return Fail(game.status());
  if (auto bad = CheckOrganiser(repo, game->league_id, o)) return Fail(*bad);
  if (!o.flags.count("--draw") && !o.values.count("--winner")) {
    return UsageError("league", "league result: --winner or --draw");
  }
  const std::optional<std::string> winner =
      o.flags.count("--draw") ? std::nullopt : std::optional(o.values.at("--winner"));
  const std::string level = o.values.count("--level") ? o.values.at("--level") : "";
  const std::string ending = o.flags.count("--forfeit")    ? "forfeit"
                             : o.flags.count("--resigned") ? "resigned"
                                                           : "played";
  league::ResultWord wrong = league::ResultWord::kNone;
  const std::optional<league::GameEnd> parsed =
      league::ParseOrganiserEnd(o.positional[0], winner, level, ending, &wrong);
  switch (wrong) {
    case league::ResultWord::kWinner:
      return Fail("--winner is blue or orange");
    case league::ResultWord::kLevel:
      return Fail(winner ? "--level is minor, tactical, major or total, not '" + level + "'"
                         : "--level goes with --winner: a draw has no level");
    case league::ResultWord::kEnding:
      return Fail(
          "--resigned and --forfeit go with --winner (the winner's opponent resigned "
          "or forfeited)");
    case league::ResultWord::kNone:
      break;
  }
  const league::GameEnd end = *parsed;
  league::MailPlaces places;
  if (auto bad = Places(o, places)) return Fail(*bad);
  daemon::SystemEntropy entropy;
  const league::MaterialLoader load = BundledLoader();
  // A crash of an earlier result between rating its round and what follows: followed up first.
  Result<std::optional<league::Advance>> stalled = league::CompleteStalledRound(
      repo, game->league_id, load, entropy, DataDir() / "templates/league", Now(), places);
  if (!stalled.ok()) return Fail(stalled.status());
  if (stalled->has_value()) PrintStalled(game->league_id, **stalled);
  // The path of every result (pbemd's league pass too): the game ends, and the next round
  // starts, or the season ends, when this result completes its round.
  const std::string reason = o.values.count("--reason") ? o.values.at("--reason") : "";
  const league::NextRound next{&load, &entropy, places};
  league::ResultRefusal refusal = league::ResultRefusal::kNone;
  daemon::GameCatalog catalog(DataDir() / "engine" / "scenarios",
                              DataDir() / "engine" / "rulesets");
  auto recorded = league::RecordOrganiserResult(
      repo, repo, league::CatalogPositions(catalog, /*pinned=*/true), end, reason,
      DataDir() / "templates/league", Now(), &refusal, &next);
  if (!recorded.ok()) {
    if (refusal == league::ResultRefusal::kReasonRequired) {
      return Fail(recorded.status().message() + " (--reason TEXT); nothing was changed");
    }
    return Fail(recorded.status());
  }
  if (recorded->corrected) {
    std::cout << "result of " << end.game_id << " corrected; " << recorded->rerated_periods
              << " rating periods rated again, " << recorded->mails_enqueued
              << " players told by mail\n";
    return kExitOk;
  }
  const league::Advance& advanced = recorded->advance;
  std::cout << "result of " << end.game_id << " recorded"
            << (recorded->ended_game ? "; the game is over" : "")
            << (recorded->recorded.round_complete
                    ? "; round complete, ratings updated, standings mailed"
                    : "");
  if (advanced.next) {
    std::cout << "; round " << advanced.next->round << " started (" << advanced.next->games.size()
              << " games)";
  }
  if (advanced.finished) {
    std::cout << "; season " << advanced.finished->season << " finished"
              << (advanced.finished->champion ? ", champion " + *advanced.finished->champion
                                              : std::string());
  }
  std::cout << '\n';
  if (!advanced.next_status.ok()) {
    std::cerr << "pbem: league: the next round did not start: " << advanced.next_status.message()
              << '\n';
  }
  return kExitOk;
}

int End(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 1) return UsageError("league", "league end: LEAGUE");
  const std::string& id = o.positional[0];
  if (auto bad = CheckOrganiser(repo, id, o)) return Fail(*bad);
  int season = 0;  // the latest
  if (o.values.count("--season")) {
    std::optional<int> n = Count(o.values.at("--season"));
    if (!n) return UsageError("league", "league end: --season is a number from 1 to 10000");
    season = *n;
  }
  league::MailPlaces places;
  if (auto bad = Places(o, places)) return Fail(*bad);
  auto finished = league::FinishSeason(repo, id, season, DataDir() / "templates/league", Now(),
                                       nullptr, places);
  if (!finished.ok()) return Fail(finished.status());
  std::cout << "season " << finished->season << " of league " << id << " finished; "
            << (finished->champion ? "champion " + *finished->champion
                                   : "no champion (nobody ranked)")
            << "; " << finished->mails_enqueued << " mails queued\n";
  return kExitOk;
}

int Replace(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 3 || !o.values.count("--mail")) {
    return UsageError("league", "league replace: LEAGUE OLD NEW and --mail are required");
  }
  if (auto bad = CheckOrganiser(repo, o.positional[0], o)) return Fail(*bad);
  std::string address = o.values.at("--mail");
  if (auto bad = CheckPlayer(o.positional[2], address)) return Fail("NEW: " + *bad);
  const std::string language = o.values.count("--lang") ? o.values.at("--lang") : "en";
  if (language != "en" && language != "fr") return Fail("--lang is en or fr");
  league::MailPlaces places;
  if (auto bad = Places(o, places)) return Fail(*bad);
  daemon::SystemEntropy entropy;
  Result<std::string> token = league::NewToken(entropy);
  if (!token.ok()) return Fail(token.status());
  const std::string& id = o.positional[0];
  const std::string& newcomer = o.positional[2];
  if (Status s = repo.ReplaceLeaguePlayer(o.positional[1],
                                          {id, newcomer, address, *token, Now(), language});
      !s.ok()) {
    return Fail(s);
  }
  std::cout << "player " << newcomer << " replaces " << o.positional[1] << " in league " << id
            << "; token " << *token << '\n';
  // The welcome: the games the newcomer takes over, played with their token.
  Result<storage::League> league = repo.GetLeague(id);
  if (!league.ok()) return Fail(league.status());
  Result<LeagueSettings> settings = league::DecodeSettings(league->settings);
  if (!settings.ok()) return Fail(settings.status());
  Result<std::vector<storage::LeagueGameRecord>> games = repo.ListLeagueGames(id);
  if (!games.ok()) return Fail(games.status());
  league::GamesMailInput welcome{id, league->name, 0, 0, newcomer, o.positional[1]};
  for (const auto& g : *games) {
    if (g.season > welcome.season || (g.season == welcome.season && g.round > welcome.round)) {
      welcome.season = static_cast<int>(g.season);
      welcome.round = static_cast<int>(g.round);
    }
    if (g.result != "pending" || (g.blue != newcomer && g.orange != newcomer)) continue;
    const bool blue = g.blue == newcomer;
    welcome.games.push_back(
        {g.game_id, blue ? "blue" : "orange", blue ? g.orange : g.blue, *token});
  }
  welcome.turn_timeout = settings->turn_timeout;
  welcome.places = places;
  Result<league::LeagueMail> mail =
      league::RenderGamesMail(DataDir() / "templates/league", language, welcome);
  if (!mail.ok()) return Fail("the welcome mail: " + mail.status().message());
  const storage::NewMail out = league::ToNewMail(std::move(mail).value(), address, Now());
  if (Result<std::int64_t> queued = repo.EnqueueMail(out); !queued.ok()) {
    return Fail("the welcome mail to " + newcomer +
                " could not be queued (give them the token "
                "above yourself): " +
                queued.status().message());
  }
  std::cout << "welcome mail to " << address << " queued (" << welcome.games.size()
            << " game(s) in play)\n";
  return kExitOk;
}

int Standings(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 1) return UsageError("league", "league standings: LEAGUE");
  const std::string& id = o.positional[0];
  Result<LeagueSettings> settings = SettingsOf(repo, id);
  if (!settings.ok()) return Fail(settings.status());
  int season = 1;
  if (o.values.count("--season")) {
    std::optional<int> n = Count(o.values.at("--season"));
    if (!n) return UsageError("league", "league standings: --season is a number from 1 to 10000");
    season = *n;
  }
  Result<league::SeasonStandings> standings =
      league::LoadSeasonStandings(repo, id, *settings, season);
  if (!standings.ok()) return Fail(standings.status());
  const std::vector<league::StandingRow>& rows = standings->rows;
  const std::vector<league::LeagueGame>& season_games = standings->games;
  // One line per player, columns aligned by characters (accented names too), SB with one
  // decimal and the rating rounded, as the standings mail prints them.
  std::ostringstream table;
  table << "rank\tplayer\tpoints\tplayed\tpending\tW-D-L\tSB\trating\n";
  for (const auto& r : rows) {
    table << (r.rank ? std::to_string(*r.rank) : "-") << '\t' << r.player << '\t' << r.points
          << '\t' << r.played << '\t' << r.pending << '\t' << r.wins << '-' << r.draws << '-'
          << r.losses << '\t' << std::fixed << std::setprecision(1) << r.sonneborn_berger << '\t'
          << std::setprecision(0) << r.rating << std::defaultfloat << '\n';
  }
  std::cout << league::AlignColumns(table.str());
  if (o.values.count("--html")) {
    const std::string lang = o.values.count("--lang") ? o.values.at("--lang") : settings->language;
    const std::optional<templates::Language> language = templates::ParseLanguage(lang);
    if (!language || (lang != "en" && lang != "fr")) return Fail("--lang is en or fr");
    Result<storage::League> l = repo.GetLeague(id);
    if (!l.ok()) return Fail(l.status());
    const int round = league::CompletedRound(season_games);
    const std::filesystem::path dir = o.values.at("--html");
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    // Every game the page links gets its archive page beside it (as `pbem archive` writes).
    for (const auto& g : season_games) {
      if (int written = WriteGameArchive(repo, g.game_id, dir / g.game_id, *language);
          written != kExitOk) {
        return written;
      }
    }
    league::StandingsView view{l->name, season, round, rows, season_games};
    view.rank_after = settings->limits.finished_to_rank;
    view.league_id = id;
    auto page = league::RenderStandings(DataDir() / "templates/league", lang, view);
    if (!page.ok()) return Fail(page.status());
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
  static const std::map<std::string, Handler> kHandlers = {{"create", Create},
                                                           {"add", Add},
                                                           {"remove", Remove},
                                                           {"start", Start},
                                                           {"result", RecordResult},
                                                           {"replace", Replace},
                                                           {"standings", Standings},
                                                           {"end", End},
                                                           {"status", OrganiserStatus},
                                                           {"extend", ExtendDeadline},
                                                           {"registration", Registration},
                                                           {"export", Export},
                                                           {"ratings", RatingsPage}};
  auto handler = kHandlers.find(sub);
  if (handler == kHandlers.end())
    return UsageError("league", "league: unknown command '" + sub + "'");
  auto repo = Open(*options);
  if (!repo) return kExitProblems;
  return handler->second(*repo, *options);
}

}  // namespace pbem::cli
