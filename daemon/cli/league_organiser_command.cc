// `pbem league status|extend|registration|export|ratings`: the organiser's tools (issue 20
// point 5) over the league store, the same code as pbemd's routes (daemon/league/organiser.h,
// export.h, player_page.h). Usage in league_command.cc.
#include <chrono>
#include <ctime>
#include <iostream>
#include <string>
#include <vector>

#include "daemon/cli/cli.h"
#include "daemon/cli/league_cli.h"
#include "daemon/game_catalog.h"
#include "daemon/league/export.h"
#include "daemon/league/organiser.h"
#include "daemon/league/player_page.h"
#include "templates/mail_render.h"

namespace pbem::cli::league_cli {
namespace {

// "2026-11-26 14:05 UTC"; "-" for none.
std::string Moment(const std::optional<storage::Timestamp>& t) {
  if (!t) return "-";
  const std::time_t seconds =
      std::chrono::system_clock::to_time_t(std::chrono::floor<std::chrono::seconds>(*t));
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M UTC", &utc);
  return buffer;
}

// The width of UTF-8 text in a terminal: one column per code point (names with accents
// align; wide characters are rare in names and would overhang).
std::size_t Width(const std::string& text) {
  std::size_t n = 0;
  for (const unsigned char c : text) n += (c & 0xC0) != 0x80;
  return n;
}

// Rows of cells printed in columns two spaces apart, the first row a header.
void PrintTable(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], Width(row[i]));
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - Width(row[i]) + 2, ' ');
    }
    std::cout << line << '\n';
  }
}

// The output of export and ratings: --out FILE, or stdout.
int Emit(const Options& o, const std::string& bytes) {
  const std::string out = o.values.count("--out") ? o.values.at("--out") : "-";
  if (!WriteOutput(out, bytes)) return Fail("cannot write " + out);
  return kExitOk;
}

}  // namespace

int OrganiserStatus(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 1) return UsageError("league", "league status: LEAGUE");
  const std::string& id = o.positional[0];
  if (auto bad = CheckOrganiser(repo, id, o)) return Fail(*bad);
  daemon::GameCatalog catalog(DataDir() / "engine" / "scenarios",
                              DataDir() / "engine" / "rulesets");
  Result<std::vector<league::GameStatus>> status =
      league::LeagueStatus(repo, repo, id, league::CatalogPositions(catalog, /*pinned=*/true));
  if (!status.ok()) return Fail(status.status());
  std::vector<std::vector<std::string>> rows = {{"game", "season", "round", "blue", "orange",
                                                 "to move", "deadline", "last orders",
                                                 "missed (b/o)", "paused", "result"}};
  for (const league::GameStatus& g : *status) {
    std::string result = g.record.result;
    if (!g.record.winner.empty()) result += " (" + g.record.winner + ")";
    if (g.over && g.record.result == "pending") result = "over, not recorded yet";
    rows.push_back({g.record.game_id, std::to_string(g.record.season),
                    std::to_string(g.record.round), g.record.blue, g.record.orange,
                    g.over ? "-" : g.side_to_move + " (" + g.player_to_move + ")",
                    g.over ? "-" : Moment(g.deadline),
                    g.last_orders_at ? Moment(g.last_orders_at) + " " + g.last_orders_side : "-",
                    std::to_string(g.missed_blue) + "/" + std::to_string(g.missed_orange),
                    g.paused ? "paused" : "-", result});
  }
  PrintTable(rows);
  return kExitOk;
}

int ExtendDeadline(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 2 || !o.values.count("--hours")) {
    return UsageError("league", "league extend: LEAGUE GAME and --hours are required");
  }
  const std::string& id = o.positional[0];
  if (auto bad = CheckOrganiser(repo, id, o)) return Fail(*bad);
  const std::string& text = o.values.at("--hours");
  constexpr int kMaxHours = static_cast<int>(league::kMaxExtensionSeconds / 3600);
  if (text.empty() || text.size() > 3 ||
      text.find_first_not_of("0123456789") != std::string::npos || std::stoi(text) < 1 ||
      std::stoi(text) > kMaxHours) {
    return Fail("--hours is a whole number of hours from 1 to " + std::to_string(kMaxHours) +
                " (30 days), not '" + text + "'");
  }
  templates::MailTemplates mail;
  if (templates::Status loaded =
          templates::MailTemplates::Load(templates::DefaultMailTemplateDir(DataDir()), &mail);
      !loaded.ok) {
    return Fail(loaded.message);
  }
  daemon::GameCatalog catalog(DataDir() / "engine" / "scenarios",
                              DataDir() / "engine" / "rulesets");
  Result<league::Extension> extended = league::ExtendDeadline(
      repo, repo, league::CatalogPositions(catalog, /*pinned=*/true), id, o.positional[1],
      std::chrono::hours(std::stoi(text)), mail, DataDir() / "templates/league", Now());
  if (!extended.ok()) return Fail(extended.status());
  std::cout << "deadline of " << extended->game_id << " (turn " << extended->turn << ", "
            << extended->side << " to move) extended by " << text << " hours to "
            << Moment(extended->new_deadline) << "; " << extended->mails_enqueued
            << " mails queued\n";
  return kExitOk;
}

int Registration(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 2 || (o.positional[1] != "open" && o.positional[1] != "closed")) {
    return UsageError("league", "league registration: LEAGUE open|closed");
  }
  const std::string& id = o.positional[0];
  if (auto bad = CheckOrganiser(repo, id, o)) return Fail(*bad);
  if (Status set = league::SetRegistration(repo, id, o.positional[1] == "open"); !set.ok()) {
    return Fail(set);
  }
  std::cout << "registration to league " << id << " is " << o.positional[1] << '\n';
  return kExitOk;
}

int Export(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 2 ||
      (o.positional[1] != "standings" && o.positional[1] != "games" && o.positional[1] != "trf")) {
    return UsageError("league", "league export: LEAGUE standings|games|trf");
  }
  const std::string& id = o.positional[0];
  if (auto bad = CheckOrganiser(repo, id, o)) return Fail(*bad);
  if (o.positional[1] == "games") {
    Result<std::vector<storage::LeagueGameRecord>> games = repo.ListLeagueGames(id);
    if (!games.ok()) return Fail(games.status());
    return Emit(o, league::GamesCsv(*games));
  }
  Result<league::LeagueSettings> settings = SettingsOf(repo, id);
  if (!settings.ok()) return Fail(settings.status());
  int season = 0;  // the latest
  if (o.values.count("--season")) {
    std::optional<int> n = Count(o.values.at("--season"));
    if (!n) return Fail("--season is a number from 1 to 10000");
    season = *n;
  }
  Result<league::SeasonStandings> standings =
      league::LoadSeasonStandings(repo, id, *settings, season);
  if (!standings.ok()) return Fail(standings.status());
  if (o.positional[1] == "trf") {
    Result<storage::League> l = repo.GetLeague(id);
    if (!l.ok()) return Fail(l.status());
    const bool swiss = settings->pairing == league::PairingSystem::kSwiss;
    return Emit(
        o, league::SeasonTrf({l->name, standings->season, swiss, swiss ? settings->swiss_rounds : 0,
                              standings->rows, standings->games}));
  }
  return Emit(o, league::StandingsCsv(standings->season, standings->rows));
}

int RatingsPage(storage::SqlRepository& repo, const Options& o) {
  if (o.positional.size() != 2 || !o.values.count("--out")) {
    return UsageError("league", "league ratings: LEAGUE PLAYER and --out are required");
  }
  const std::string& id = o.positional[0];
  Result<league::LeagueSettings> settings = SettingsOf(repo, id);
  if (!settings.ok()) return Fail(settings.status());
  const std::string language =
      o.values.count("--lang") ? o.values.at("--lang") : settings->language;
  if (language != "en" && language != "fr") return Fail("--lang is en or fr");
  // Next to the static standings page (`pbem league standings --html DIR`): the archive pages
  // are DIR/<game>/index.html.
  Result<std::string> page =
      league::RenderPlayerPage(repo, repo, id, o.positional[1], language,
                               DataDir() / "templates/league", "{game}/index.html");
  if (!page.ok()) return Fail(page.status());
  return Emit(o, *page);
}

}  // namespace pbem::cli::league_cli
