#include <algorithm>
#include <set>

#include "daemon/league/league_flow.h"
#include "daemon/league/league_mails.h"
#include "daemon/league/season.h"
#include "daemon/turn/turn_job.h"

// Starting a round: pairing the league's players, creating the games and mailing the tokens.
namespace pbem::league {

Result<std::string> NewToken(daemon::EntropySource& entropy) {
  Result<daemon::Bytes> bytes = entropy.Draw(16);
  if (!bytes.ok()) return bytes.status();
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : *bytes) {
    hex += kHex[c >> 4];
    hex += kHex[c & 15];
  }
  return hex;
}

namespace {

// `seats`: the round robin's seats (the whole schedule is computed from them); a pairing
// with a seat whose player is no longer in `names` is left out (its opponent sits out).
Result<Round> PairRound(storage::LeagueRepository& leagues, const std::string& league_id,
                        const LeagueSettings& settings, const std::vector<std::string>& names,
                        const std::vector<std::string>& seats,
                        const std::vector<storage::LeagueGameRecord>& games, int season,
                        int round_number) {
  if (settings.pairing == PairingSystem::kSwiss) {
    Result<std::vector<storage::RatingRecord>> history = leagues.RatingHistory(league_id);
    if (!history.ok()) return history.status();
    std::vector<LeagueGame> season_games;
    for (const auto& g : games) {
      if (g.season == season) season_games.push_back(FromRecord(g));
    }
    return PairSwissRound(names, season_games, LatestRatings(*history, names, settings.glicko),
                          settings, round_number);
  }
  Result<std::vector<Round>> rounds = RoundRobin(seats, settings.sides);
  if (!rounds.ok()) return rounds.status();
  if (round_number < 1 || round_number > static_cast<int>(rounds->size())) {
    return Status::FailedPrecondition("round " + std::to_string(round_number) +
                                      " is not in the schedule of league " + league_id + " (1.." +
                                      std::to_string(rounds->size()) + ")");
  }
  Round round = (*rounds)[static_cast<std::size_t>(round_number - 1)];
  const std::set<std::string> present(names.begin(), names.end());
  std::erase_if(round.games, [&](const Pairing& p) {
    return !present.count(p.blue) || !present.count(p.orange);
  });
  if (round.bye && !present.count(*round.bye)) round.bye.reset();
  return round;
}

// Why `round_number` of `season` may not start: an earlier round not started or not finished.
std::optional<std::string> EarlierRoundOpen(const std::vector<storage::LeagueGameRecord>& games,
                                            const std::string& league_id, int season,
                                            int round_number) {
  std::set<std::int64_t> started;
  for (const auto& g : games) {
    if (g.season != season || g.round >= round_number) continue;
    started.insert(g.round);
    if (g.result == "pending") {
      return "round " + std::to_string(g.round) + " of season " + std::to_string(season) +
             " of league " + league_id + " is not finished (game " + g.game_id +
             " is still played): round " + std::to_string(round_number) + " starts once it is over";
    }
  }
  for (int r = 1; r < round_number; ++r) {
    if (!started.count(r)) {
      return "round " + std::to_string(r) + " of season " + std::to_string(season) + " of league " +
             league_id + " has not started: rounds start in order";
    }
  }
  return std::nullopt;
}

}  // namespace

Result<StartedRound> StartRound(storage::LeagueRepository& leagues, const std::string& league_id,
                                int season, std::optional<int> round, const MaterialLoader& load,
                                daemon::EntropySource& entropy,
                                const std::filesystem::path& template_dir, storage::Timestamp now,
                                StartRefusal* refusal, const MailPlaces& places) {
  StartRefusal ignored;
  StartRefusal& why = refusal != nullptr ? *refusal : ignored;
  why = StartRefusal::kNone;
  Result<StoredLeague> loaded = LoadStoredLeague(leagues, league_id);
  if (!loaded.ok()) return loaded.status();
  const storage::League& league = loaded->league;
  const LeagueSettings& settings = loaded->settings;
  const std::vector<storage::LeaguePlayer>& players = loaded->players;
  const std::vector<storage::LeagueGameRecord>& games = loaded->games;
  if (players.size() < 2) {
    why = StartRefusal::kTooFewPlayers;
    return Status::FailedPrecondition("league " + league_id + " has " +
                                      std::to_string(players.size()) +
                                      " player(s): a round needs at least two");
  }
  if (season < 1) return Status::InvalidArgument("the season is a number from 1");
  int round_number = 1;
  if (round) {
    round_number = *round;
  } else {
    for (const auto& g : games) {
      if (g.season == season) round_number = std::max(round_number, static_cast<int>(g.round) + 1);
    }
  }
  if (settings.pairing == PairingSystem::kSwiss && settings.swiss_rounds > 0 &&
      round_number > settings.swiss_rounds) {
    why = StartRefusal::kNotInSchedule;
    return Status::FailedPrecondition(
        "a season of league " + league_id + " has " + std::to_string(settings.swiss_rounds) +
        " Swiss rounds: there is no round " + std::to_string(round_number));
  }
  Result<std::vector<storage::LeagueSeason>> seasons = leagues.ListLeagueSeasons(league_id);
  if (!seasons.ok()) return seasons.status();
  const std::optional<storage::LeagueSeason> stored_season = FindSeason(*seasons, season);
  if (stored_season && stored_season->finished_at) {
    why = StartRefusal::kSeasonFinished;
    return Status::FailedPrecondition("season " + std::to_string(season) + " of league " +
                                      league_id + " is finished: its rounds are history");
  }
  std::vector<std::string> names;
  std::map<std::string, const storage::LeaguePlayer*> by_name;
  for (const auto& p : players) {
    names.push_back(p.player);
    by_name[p.player] = &p;
  }
  // Limits: active (pending) and finished games per player, before writing anything.
  std::map<std::string, int> active, finished, extra;
  for (const auto& g : games) {
    if (g.season == season && g.round == round_number) {
      why = StartRefusal::kStartedAlready;
      return Status::FailedPrecondition("season " + std::to_string(season) + " round " +
                                        std::to_string(round_number) + " of league " + league_id +
                                        " has started already");
    }
    for (const auto& p : {g.blue, g.orange}) ++(g.result == "pending" ? active : finished)[p];
  }
  if (std::optional<std::string> open = EarlierRoundOpen(games, league_id, season, round_number)) {
    why = StartRefusal::kUnfinishedRound;
    return Status::FailedPrecondition(*open);
  }
  // Round robin: the seats pinned at the season's start (stored below with the first round
  // started since), so that every round comes from one schedule.
  const bool round_robin = settings.pairing == PairingSystem::kRoundRobin;
  const bool new_season = !stored_season.has_value();
  const std::vector<std::string> seats = !round_robin ? std::vector<std::string>{}
                                         : new_season ? names
                                                      : stored_season->seats;
  Result<Round> paired =
      PairRound(leagues, league_id, settings, names, seats, games, season, round_number);
  if (!paired.ok()) {
    if (paired.status().code() == StatusCode::kFailedPrecondition) {
      why = settings.pairing == PairingSystem::kSwiss ? StartRefusal::kUnfinishedRound
                                                      : StartRefusal::kNotInSchedule;
    }
    return paired.status();
  }
  for (const auto& p : paired->games) {
    ++extra[p.blue];
    ++extra[p.orange];
  }
  for (const auto& [player, n] : extra) {
    if (Status s = CheckGameLimit(settings.limits, player, finished[player], active[player], n);
        !s.ok()) {
      why = StartRefusal::kGameLimit;
      return s;
    }
  }
  const std::string& scenario_name =
      settings.scenarios[static_cast<std::size_t>(round_number - 1) % settings.scenarios.size()];
  Result<GameMaterial> material = load(scenario_name);
  if (!material.ok()) return material.status();

  StartedRound out;
  out.season = season;
  out.round = round_number;
  out.bye = paired->bye;
  // Games, players, their league records and the mails are written in one transaction at the
  // end (AddLeagueRound): a crash or a refusal leaves no game outside its round.
  std::vector<storage::NewGameWithPlayers> new_games;
  std::vector<storage::NewMail> mails;
  for (std::size_t i = 0; i < paired->games.size(); ++i) {
    const Pairing& p = paired->games[i];
    const std::string game_id = league_id + "-s" + std::to_string(season) + "-r" +
                                std::to_string(round_number) + "-g" + std::to_string(i + 1);
    storage::NewGame game = daemon::MakeNewGame(material->ruleset_proto, material->scenario_proto,
                                                material->scenario, game_id, now);
    game.scenario = scenario_name;  // the catalogue's name, which finds the files again
    game.deadlines.turn_timeout = settings.turn_timeout;
    game.deadlines.reminder_before = settings.reminder_before;
    storage::NewGameWithPlayers with_players{std::move(game), {}};
    for (const auto& [side, player] : {std::pair{"blue", p.blue}, std::pair{"orange", p.orange}}) {
      Result<std::string> token = NewToken(entropy);
      if (!token.ok()) return token.status();
      const storage::LeaguePlayer& lp = *by_name.at(player);
      with_players.players.push_back({game_id, side, lp.mail_address, *token, lp.language, player});
      out.tickets.push_back({player, game_id, side, player == p.blue ? p.orange : p.blue, *token});
    }
    LeagueGame g;
    g.game_id = game_id;
    g.round = round_number;
    g.blue = p.blue;
    g.orange = p.orange;
    out.games.push_back(ToRecord(g, league_id, season));
    new_games.push_back(std::move(with_players));
  }
  // Blue moves first in every game: its first orders are due one turn after the games open.
  std::optional<std::chrono::sys_seconds> first_deadline;
  if (settings.turn_timeout.count() > 0) {
    first_deadline = std::chrono::floor<std::chrono::seconds>(now) + settings.turn_timeout;
  }
  for (const auto& lp : players) {
    GamesMailInput input{league_id, league.name, season, round_number, lp.player};
    for (const Ticket& t : out.tickets) {
      if (t.player == lp.player) input.games.push_back({t.game_id, t.side, t.opponent, t.token});
    }
    if (input.games.empty()) continue;
    input.turn_timeout = settings.turn_timeout;
    input.first_deadline = first_deadline;
    input.places = places;
    Result<LeagueMail> rendered = RenderGamesMail(template_dir, lp.language, input);
    if (!rendered.ok()) return rendered.status();
    mails.push_back(ToNewMail(std::move(rendered).value(), lp.mail_address, now));
  }
  if (new_season) {
    Status stored = leagues.StartLeagueSeason({league_id, season, seats, now, std::nullopt});
    // Stored meanwhile by another caller: fine when it pinned the same seats.
    if (stored.code() == StatusCode::kAlreadyExists) {
      Result<std::vector<storage::LeagueSeason>> again = leagues.ListLeagueSeasons(league_id);
      if (!again.ok()) return again.status();
      const std::optional<storage::LeagueSeason> other = FindSeason(*again, season);
      if (other && other->seats == seats) stored = Status::Ok();
    }
    if (!stored.ok()) return stored;
  }
  if (Status s = leagues.AddLeagueRound(new_games, out.games, mails); !s.ok()) return s;
  out.mails_enqueued = static_cast<int>(mails.size());
  return out;
}

}  // namespace pbem::league
