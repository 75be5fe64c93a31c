// SqlRepository: the LeagueRepository half: leagues, players, games, ratings, seasons, corrections
// (the class is split across storage/sql_*.cc: sql_internal.h lists them).
#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "storage/sql_internal.h"

namespace pbem::storage {

using namespace sql_internal;  // NOLINT: the implementation's own helpers (sql_internal.h)

bool SqlRepository::LeagueExists(const std::string& league_id) {
  std::string id = league_id;
  int count = 0;
  *session_ << Sql("SELECT count(*) FROM leagues WHERE id = ?"), use(id), into(count), now;
  return count > 0;
}

bool SqlRepository::LeaguePlayerExists(const std::string& league_id, const std::string& player) {
  std::string id = league_id, name = player;
  int count = 0;
  *session_ << Sql("SELECT count(*) FROM league_players WHERE league_id = ? AND player = ?"),
      use(id), use(name), into(count), now;
  return count > 0;
}

void SqlRepository::InsertLeaguePlayer(const NewLeaguePlayer& player) {
  std::string id = player.league_id, name = player.player, mail = player.mail_address,
              hash = Sha256Hex(player.token), language = player.language;
  Poco::Int64 joined = ToMillis(player.joined_at);
  *session_ << Sql(
      "INSERT INTO league_players (league_id, player, mail_address, token_sha256, joined_at_ms, "
      "language) VALUES (?, ?, ?, ?, ?, ?)"),
      use(id), use(name), use(mail), use(hash), use(joined), use(language), now;
}

Status SqlRepository::CreateLeague(const NewLeague& league) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "creating league " + league.id + " in " + store_name_;
  if (league.id.empty()) return Status::InvalidArgument(what + ": the league id is empty");
  if (league.organiser_token.empty()) {
    return Status::InvalidArgument(what + ": the organiser token is empty");
  }
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (LeagueExists(league.id)) return Status::AlreadyExists(what + ": the id is taken");
    std::string id = league.id, name = league.name, hash = Sha256Hex(league.organiser_token),
                settings = league.settings;
    Poco::Int64 created = ToMillis(league.created_at);
    *session_ << Sql(
        "INSERT INTO leagues (id, name, organiser_token_sha256, settings, created_at_ms) "
        "VALUES (?, ?, ?, ?, ?)"),
        use(id), use(name), use(hash), use(settings), use(created), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Result<League> SqlRepository::GetLeague(const std::string& league_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "reading league " + league_id + " from " + store_name_;
  return Guarded(what, [&]() -> Result<League> {
    std::string id = league_id;
    std::vector<std::string> name, hash, settings;
    std::vector<Poco::Int64> created;
    *session_ << Sql(
        "SELECT name, organiser_token_sha256, settings, created_at_ms FROM leagues WHERE id = ?"),
        use(id), into(name), into(hash), into(settings), into(created), now;
    if (name.empty()) return Status::NotFound("league " + league_id + " is not in " + store_name_);
    return League{league_id, name[0], hash[0], settings[0], FromMillis(created[0])};
  });
}

Result<std::vector<std::string>> SqlRepository::ListLeagueIds() {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "listing the leagues in " + store_name_;
  return Guarded(what, [&]() -> Result<std::vector<std::string>> {
    std::vector<std::string> ids;
    *session_ << Sql("SELECT id FROM leagues"), into(ids), now;
    std::sort(ids.begin(), ids.end());  // byte order, whatever the database's collation
    return ids;
  });
}

Result<bool> SqlRepository::VerifyOrganiserToken(const std::string& league_id,
                                                 const std::string& token) {
  Result<League> league = GetLeague(league_id);
  if (!league.ok()) return league.status();
  return SameDigest(league.value().organiser_token_sha256, Sha256Hex(token));
}

Status SqlRepository::AddLeaguePlayer(const NewLeaguePlayer& player) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "adding player " + player.player + " to league " + player.league_id + " in " + store_name_;
  if (player.player.empty()) return Status::InvalidArgument(what + ": the player name is empty");
  if (player.token.empty()) return Status::InvalidArgument(what + ": the token is empty");
  Status added = Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (!LeagueExists(player.league_id)) return Status::NotFound(what + ": no such league");
    if (LeaguePlayerExists(player.league_id, player.player)) {
      return Status::AlreadyExists(what + ": the player is in the league already");
    }
    if (LeagueAddressTaken(player.league_id, player.mail_address, "")) {
      return Status::AlreadyExists(what + ": the address " + player.mail_address +
                                   " is in the league already");
    }
    InsertLeaguePlayer(player);
    transaction.Commit();
    return Status::Ok();
  });
  return AddressRaceLost(added, player, "", what);
}

Status SqlRepository::AddressRaceLost(const Status& status, const NewLeaguePlayer& player,
                                      const std::string& except_player, const std::string& what) {
  if (status.ok() || status.code() != StatusCode::kIoError) return status;
  // A join that raced another with the same address: the unique index refused the insert.
  try {
    if (LeagueAddressTaken(player.league_id, player.mail_address, except_player)) {
      return Status::AlreadyExists(what + ": the address " + player.mail_address +
                                   " is in the league already");
    }
  } catch (const std::exception&) {  // the store is down: the first error says it
  }
  return status;
}

bool SqlRepository::LeagueAddressTaken(const std::string& league_id, const std::string& address,
                                       const std::string& except_player) {
  std::string id = league_id, mail = address, except = except_player;
  int count = 0;
  *session_ << Sql(
      "SELECT count(*) FROM league_players WHERE league_id = ? AND "
      "lower(mail_address) = lower(?) AND player <> ?"),
      use(id), use(mail), use(except), into(count), now;
  return count > 0;
}

Status SqlRepository::RemoveLeaguePlayer(const std::string& league_id, const std::string& player) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "removing player " + player + " from league " + league_id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (!LeaguePlayerExists(league_id, player)) {
      return Status::NotFound(what + ": the league has no such player");
    }
    std::string id = league_id, name = player;
    *session_ << Sql("DELETE FROM league_players WHERE league_id = ? AND player = ?"), use(id),
        use(name), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Result<std::vector<LeaguePlayer>> SqlRepository::ListLeaguePlayers(const std::string& league_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "listing the players of league " + league_id + " in " + store_name_;
  return Guarded(what, [&]() -> Result<std::vector<LeaguePlayer>> {
    if (!LeagueExists(league_id)) return Status::NotFound(what + ": no such league");
    std::string id = league_id;
    std::vector<std::string> name, mail, hash, language;
    std::vector<Poco::Int64> joined;
    *session_ << Sql(
        "SELECT player, mail_address, token_sha256, joined_at_ms, language FROM league_players "
        "WHERE league_id = ? ORDER BY player"),
        use(id), into(name), into(mail), into(hash), into(joined), into(language), now;
    std::vector<LeaguePlayer> players;
    for (std::size_t i = 0; i < name.size(); ++i) {
      players.push_back(
          LeaguePlayer{league_id, name[i], mail[i], hash[i], FromMillis(joined[i]), language[i]});
    }
    return players;
  });
}

Status SqlRepository::ReplaceLeaguePlayer(const std::string& old_player,
                                          const NewLeaguePlayer& replacement) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "replacing player " + old_player + " by " + replacement.player +
                           " in league " + replacement.league_id + " in " + store_name_;
  if (replacement.token.empty()) return Status::InvalidArgument(what + ": the token is empty");
  Status replaced = Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (!LeaguePlayerExists(replacement.league_id, old_player)) {
      return Status::NotFound(what + ": the league has no player " + old_player);
    }
    if (LeaguePlayerExists(replacement.league_id, replacement.player)) {
      return Status::AlreadyExists(what + ": " + replacement.player + " is in the league already");
    }
    if (LeagueAddressTaken(replacement.league_id, replacement.mail_address, old_player)) {
      return Status::AlreadyExists(what + ": the address " + replacement.mail_address +
                                   " is in the league already");
    }
    std::string id = replacement.league_id, old_name = old_player, new_name = replacement.player;
    *session_ << Sql("DELETE FROM league_players WHERE league_id = ? AND player = ?"), use(id),
        use(old_name), now;
    InsertLeaguePlayer(replacement);
    std::string mail = replacement.mail_address, hash = Sha256Hex(replacement.token),
                language = replacement.language;
    for (std::string column : {"blue", "orange"}) {
      // The old player's side in the pending games: the new player's address, token,
      // language and name (the game's mails to that side are in the newcomer's language).
      *session_ << Sql(
          "UPDATE players SET mail_address = ?, token_sha256 = ?, language = ?, name = ? "
          "WHERE side = ? AND game_id IN (SELECT game_id FROM league_games WHERE league_id = ? "
          "AND " +
          column + " = ? AND result = 'pending')"),
          use(mail), use(hash), use(language), use(new_name), use(column), use(id), use(old_name),
          now;
      *session_ << Sql("UPDATE league_games SET " + column + " = ? WHERE league_id = ? AND " +
                       column + " = ? AND result = 'pending'"),
          use(new_name), use(id), use(old_name), now;
    }
    // The newcomer takes the vanished player's seat in the seasons still played.
    std::string season_league = id;
    *session_ << Sql(
        "UPDATE league_seats SET player = ? WHERE league_id = ? AND player = ? AND season IN "
        "(SELECT season FROM league_seasons WHERE league_id = ? AND finished_at_ms IS NULL)"),
        use(new_name), use(id), use(old_name), use(season_league), now;
    transaction.Commit();
    return Status::Ok();
  });
  return AddressRaceLost(replaced, replacement, old_player, what);
}

Status SqlRepository::InsertLeagueGames(const std::vector<LeagueGameRecord>& games,
                                        const std::string& what) {
  for (const LeagueGameRecord& g : games) {
    if (!LeagueExists(g.league_id)) return Status::NotFound(what + ": no league " + g.league_id);
    std::string game_id = g.game_id;
    int count = 0;
    *session_ << Sql("SELECT count(*) FROM league_games WHERE game_id = ?"), use(game_id),
        into(count), now;
    if (count > 0) {
      return Status::AlreadyExists(what + ": game " + g.game_id + " is in a league already");
    }
    std::string league = g.league_id, blue = g.blue, orange = g.orange, result = g.result,
                winner = g.winner, level = g.level;
    Poco::Int64 season = g.season, round = g.round;
    *session_ << Sql(
        "INSERT INTO league_games (game_id, league_id, season, round, blue, orange, result, "
        "winner, level) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        use(game_id), use(league), use(season), use(round), use(blue), use(orange), use(result),
        use(winner), use(level), now;
  }
  return Status::Ok();
}

Status SqlRepository::AddLeagueGames(const std::vector<LeagueGameRecord>& games) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "adding " + std::to_string(games.size()) + " league games to " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (Status inserted = InsertLeagueGames(games, what); !inserted.ok()) return inserted;
    transaction.Commit();
    return Status::Ok();
  });
}

Status SqlRepository::AddLeagueRound(const std::vector<NewGameWithPlayers>& games,
                                     const std::vector<LeagueGameRecord>& records,
                                     const std::vector<NewMail>& mails) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "adding a league round of " + std::to_string(games.size()) + " games to " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    for (const NewGameWithPlayers& g : games) {
      if (Status inserted = InsertGameWithPlayers(g.game, g.players, what); !inserted.ok()) {
        return inserted;
      }
    }
    if (Status inserted = InsertLeagueGames(records, what); !inserted.ok()) return inserted;
    for (const NewMail& mail : mails) InsertMail(mail);
    transaction.Commit();
    return Status::Ok();
  });
}

bool SqlRepository::UpdateLeagueResult(const LeagueGameRecord& result) {
  std::string game_id = result.game_id, outcome = result.result, winner = result.winner,
              level = result.level;
  int count = 0;
  *session_ << Sql("SELECT count(*) FROM league_games WHERE game_id = ?"), use(game_id),
      into(count), now;
  if (count == 0) return false;
  *session_ << Sql("UPDATE league_games SET result = ?, winner = ?, level = ? WHERE game_id = ?"),
      use(outcome), use(winner), use(level), use(game_id), now;
  return true;
}

Status SqlRepository::SetLeagueSettings(const std::string& league_id, const std::string& settings) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "changing the settings of league " + league_id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    std::string id = league_id, text = settings;
    std::vector<std::string> found;
    *session_ << Sql("SELECT id FROM leagues WHERE id = ?" + dialect_.lock_row_suffix), use(id),
        into(found), now;
    if (found.empty()) return Status::NotFound(what + ": no such league");
    *session_ << Sql("UPDATE leagues SET settings = ? WHERE id = ?"), use(text), use(id), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Status SqlRepository::RecordLeagueResult(const LeagueGameRecord& result) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "recording the result of league game " + result.game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (!UpdateLeagueResult(result)) return Status::NotFound(what + ": no league has that game");
    transaction.Commit();
    return Status::Ok();
  });
}

std::vector<LeagueGameRecord> SqlRepository::ReadLeagueGames(const std::string& column,
                                                             const std::string& key) {
  std::string value = key;
  std::vector<std::string> game_id, league, blue, orange, result, winner, level;
  std::vector<Poco::Int64> season, round;
  *session_ << Sql(
      "SELECT game_id, league_id, season, round, blue, orange, result, winner, level "
      "FROM league_games WHERE " +
      column + " = ? ORDER BY season, round, game_id"),
      use(value), into(game_id), into(league), into(season), into(round), into(blue), into(orange),
      into(result), into(winner), into(level), now;
  std::vector<LeagueGameRecord> games;
  for (std::size_t i = 0; i < game_id.size(); ++i) {
    games.push_back(LeagueGameRecord{league[i], season[i], round[i], game_id[i], blue[i], orange[i],
                                     result[i], winner[i], level[i]});
  }
  return games;
}

Result<LeagueGameRecord> SqlRepository::GetLeagueGame(const std::string& game_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "reading league game " + game_id + " from " + store_name_;
  return Guarded(what, [&]() -> Result<LeagueGameRecord> {
    auto games = ReadLeagueGames("game_id", game_id);
    if (games.empty()) return Status::NotFound(what + ": no league has that game");
    return games[0];
  });
}

Result<std::vector<LeagueGameRecord>> SqlRepository::ListLeagueGames(const std::string& league_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "listing the games of league " + league_id + " in " + store_name_;
  return Guarded(what, [&]() -> Result<std::vector<LeagueGameRecord>> {
    return ReadLeagueGames("league_id", league_id);
  });
}

Result<std::vector<LeagueGameRecord>> SqlRepository::ListPendingLeagueGames() {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "listing the pending league games in " + store_name_;
  return Guarded(what, [&]() -> Result<std::vector<LeagueGameRecord>> {
    std::vector<LeagueGameRecord> games = ReadLeagueGames("result", "pending");
    std::sort(games.begin(), games.end(), [](const LeagueGameRecord& a, const LeagueGameRecord& b) {
      return a.game_id < b.game_id;
    });
    return games;
  });
}

Status SqlRepository::AppendRatings(const std::vector<RatingRecord>& ratings,
                                    const std::vector<NewMail>& mails,
                                    const std::optional<LeagueGameRecord>& result) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "storing " + std::to_string(ratings.size()) + " ratings in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    for (const RatingRecord& r : ratings) {
      std::string league = r.league_id, player = r.player;
      Poco::Int64 season = r.season, round = r.round;
      int count = 0;
      *session_ << Sql(
          "SELECT count(*) FROM league_ratings WHERE league_id = ? AND player = ? AND season = ? "
          "AND round = ?"),
          use(league), use(player), use(season), use(round), into(count), now;
      if (count > 0) {
        return Status::AlreadyExists(what + ": " + r.player + " has a rating for season " +
                                     std::to_string(r.season) + " round " +
                                     std::to_string(r.round));
      }
      double rating = r.rating, rd = r.rd, volatility = r.volatility;
      *session_ << Sql(
          "INSERT INTO league_ratings (league_id, player, season, round, rating, rd, volatility) "
          "VALUES (?, ?, ?, ?, ?, ?, ?)"),
          use(league), use(player), use(season), use(round), use(rating), use(rd), use(volatility),
          now;
    }
    if (result) {
      if (!UpdateLeagueResult(*result)) {
        return Status::NotFound(what + ": no league has game " + result->game_id);
      }
    }
    for (const NewMail& mail : mails) InsertMail(mail);
    transaction.Commit();
    return Status::Ok();
  });
}

Result<std::vector<RatingRecord>> SqlRepository::RatingHistory(const std::string& league_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "reading the ratings of league " + league_id + " from " + store_name_;
  return Guarded(what, [&]() -> Result<std::vector<RatingRecord>> {
    std::string id = league_id;
    std::vector<std::string> player;
    std::vector<Poco::Int64> season, round;
    std::vector<double> rating, rd, volatility;
    *session_ << Sql(
        "SELECT player, season, round, rating, rd, volatility FROM league_ratings "
        "WHERE league_id = ? ORDER BY player, season, round"),
        use(id), into(player), into(season), into(round), into(rating), into(rd), into(volatility),
        now;
    std::vector<RatingRecord> out;
    for (std::size_t i = 0; i < player.size(); ++i) {
      out.push_back(
          RatingRecord{league_id, player[i], season[i], round[i], rating[i], rd[i], volatility[i]});
    }
    return out;
  });
}

Status SqlRepository::StartLeagueSeason(const LeagueSeason& season) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "starting season " + std::to_string(season.season) + " of league " +
                           season.league_id + " in " + store_name_;
  if (season.season < 1) return Status::InvalidArgument(what + ": a season is a number from 1");
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (!LeagueExists(season.league_id)) return Status::NotFound(what + ": no such league");
    std::string id = season.league_id;
    Poco::Int64 number = season.season, started = ToMillis(season.started_at);
    int count = 0;
    *session_ << Sql("SELECT count(*) FROM league_seasons WHERE league_id = ? AND season = ?"),
        use(id), use(number), into(count), now;
    if (count > 0) return Status::AlreadyExists(what + ": the season is stored already");
    *session_ << Sql(
        "INSERT INTO league_seasons (league_id, season, started_at_ms) VALUES (?, ?, ?)"),
        use(id), use(number), use(started), now;
    for (std::size_t i = 0; i < season.seats.size(); ++i) {
      std::string player = season.seats[i];
      Poco::Int64 seat = static_cast<Poco::Int64>(i);
      *session_ << Sql(
          "INSERT INTO league_seats (league_id, season, seat, player) VALUES (?, ?, ?, ?)"),
          use(id), use(number), use(seat), use(player), now;
    }
    transaction.Commit();
    return Status::Ok();
  });
}

Result<std::vector<LeagueSeason>> SqlRepository::ListLeagueSeasons(const std::string& league_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "listing the seasons of league " + league_id + " in " + store_name_;
  return Guarded(what, [&]() -> Result<std::vector<LeagueSeason>> {
    if (!LeagueExists(league_id)) return Status::NotFound(what + ": no such league");
    std::string id = league_id;
    std::vector<Poco::Int64> season, started, finished;
    *session_ << Sql(
        "SELECT season, started_at_ms, COALESCE(finished_at_ms, -1) FROM league_seasons "
        "WHERE league_id = ? ORDER BY season"),
        use(id), into(season), into(started), into(finished), now;
    std::vector<LeagueSeason> out;
    for (std::size_t i = 0; i < season.size(); ++i) {
      LeagueSeason s{league_id, season[i], {}, FromMillis(started[i]), std::nullopt};
      if (finished[i] >= 0) s.finished_at = FromMillis(finished[i]);
      std::string seat_league = league_id;
      Poco::Int64 number = season[i];
      std::vector<std::string> players;
      *session_ << Sql(
          "SELECT player FROM league_seats WHERE league_id = ? AND season = ? ORDER BY seat"),
          use(seat_league), use(number), into(players), now;
      s.seats = std::move(players);
      out.push_back(std::move(s));
    }
    return out;
  });
}

Status SqlRepository::FinishLeagueSeason(const std::string& league_id, std::int64_t season,
                                         Timestamp finished_at, const std::vector<NewMail>& mails) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "finishing season " + std::to_string(season) + " of league " +
                           league_id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (!LeagueExists(league_id)) return Status::NotFound(what + ": no such league");
    std::string id = league_id;
    Poco::Int64 number = season, at = ToMillis(finished_at);
    std::vector<Poco::Int64> finished;
    *session_ << Sql(
        "SELECT COALESCE(finished_at_ms, -1) FROM league_seasons WHERE league_id = ? AND "
        "season = ?" +
        dialect_.lock_row_suffix),
        use(id), use(number), into(finished), now;
    if (!finished.empty() && finished[0] >= 0) {
      return Status::AlreadyExists(what + ": the season is finished already");
    }
    if (finished.empty()) {
      *session_ << Sql(
          "INSERT INTO league_seasons (league_id, season, started_at_ms, finished_at_ms) "
          "VALUES (?, ?, ?, ?)"),
          use(id), use(number), use(at), use(at), now;
    } else {
      *session_ << Sql(
          "UPDATE league_seasons SET finished_at_ms = ? WHERE league_id = ? AND season = ?"),
          use(at), use(id), use(number), now;
    }
    for (const NewMail& mail : mails) InsertMail(mail);
    transaction.Commit();
    return Status::Ok();
  });
}

Status SqlRepository::CorrectLeagueResult(const LeagueCorrection& correction,
                                          const std::vector<RatingRecord>& rerated,
                                          const std::vector<NewMail>& mails) {
  if (session_ == nullptr) return NotOpen();
  const LeagueGameRecord& before = correction.before;
  const LeagueGameRecord& after = correction.after;
  const std::string what =
      "correcting the result of league game " + before.game_id + " in " + store_name_;
  if (correction.reason.empty()) return Status::InvalidArgument(what + ": the reason is empty");
  if (after.game_id != before.game_id || after.result == "pending") {
    return Status::InvalidArgument(what + ": the corrected result must be a result of that game");
  }
  const auto from = std::pair(before.season, before.round);
  for (const RatingRecord& r : rerated) {
    if (r.league_id != before.league_id || std::pair(r.season, r.round) < from) {
      return Status::InvalidArgument(what + ": a rerated period before the corrected one");
    }
  }
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    std::string game_id = before.game_id;
    std::vector<std::string> result, winner, level;
    *session_ << Sql("SELECT result, winner, level FROM league_games WHERE game_id = ?" +
                     dialect_.lock_row_suffix),
        use(game_id), into(result), into(winner), into(level), now;
    if (result.empty()) return Status::NotFound(what + ": no league has that game");
    if (result[0] != before.result || winner[0] != before.winner || level[0] != before.level) {
      return Status::FailedPrecondition(what + ": its result changed since it was read (now " +
                                        result[0] + " " + winner[0] + " " + level[0] + ")");
    }
    std::string league = before.league_id;
    Poco::Int64 season = before.season, round = before.round;
    // The periods rated from the corrected one on must be those rated again: a round rated
    // since the caller read the history would otherwise lose its ratings.
    std::vector<Poco::Int64> rated_season, rated_round;
    *session_ << Sql(
        "SELECT DISTINCT season, round FROM league_ratings WHERE league_id = ? AND (season > ? "
        "OR (season = ? AND round >= ?))"),
        use(league), use(season), use(season), use(round), into(rated_season), into(rated_round),
        now;
    std::set<std::pair<std::int64_t, std::int64_t>> stored_periods, given_periods;
    for (std::size_t i = 0; i < rated_season.size(); ++i) {
      stored_periods.emplace(rated_season[i], rated_round[i]);
    }
    for (const RatingRecord& r : rerated) given_periods.emplace(r.season, r.round);
    if (stored_periods != given_periods) {
      return Status::FailedPrecondition(what + ": the rated rounds changed since they were read");
    }
    UpdateLeagueResult(after);
    *session_ << Sql(
        "DELETE FROM league_ratings WHERE league_id = ? AND (season > ? OR (season = ? AND "
        "round >= ?))"),
        use(league), use(season), use(season), use(round), now;
    for (const RatingRecord& r : rerated) {
      std::string player = r.player;
      Poco::Int64 s = r.season, n = r.round;
      double rating = r.rating, rd = r.rd, volatility = r.volatility;
      *session_ << Sql(
          "INSERT INTO league_ratings (league_id, player, season, round, rating, rd, volatility) "
          "VALUES (?, ?, ?, ?, ?, ?, ?)"),
          use(league), use(player), use(s), use(n), use(rating), use(rd), use(volatility), now;
    }
    std::string old_result = before.result, old_winner = before.winner, old_level = before.level,
                new_result = after.result, new_winner = after.winner, new_level = after.level,
                reason = correction.reason;
    Poco::Int64 at = ToMillis(correction.at);
    *session_ << Sql(
        "INSERT INTO league_corrections (league_id, game_id, season, round, old_result, "
        "old_winner, old_level, new_result, new_winner, new_level, reason, corrected_at_ms) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        use(league), use(game_id), use(season), use(round), use(old_result), use(old_winner),
        use(old_level), use(new_result), use(new_winner), use(new_level), use(reason), use(at), now;
    for (const NewMail& mail : mails) InsertMail(mail);
    transaction.Commit();
    return Status::Ok();
  });
}

Result<std::vector<LeagueCorrection>> SqlRepository::ListLeagueCorrections(
    const std::string& league_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "reading the corrections of league " + league_id + " from " + store_name_;
  return Guarded(what, [&]() -> Result<std::vector<LeagueCorrection>> {
    if (!LeagueExists(league_id)) return Status::NotFound(what + ": no such league");
    std::string id = league_id;
    std::vector<Poco::Int64> key, season, round, at;
    std::vector<std::string> game, old_result, old_winner, old_level, new_result, new_winner,
        new_level, reason;
    *session_ << Sql(
        "SELECT id, game_id, season, round, old_result, old_winner, old_level, new_result, "
        "new_winner, new_level, reason, corrected_at_ms FROM league_corrections "
        "WHERE league_id = ? ORDER BY id"),
        use(id), into(key), into(game), into(season), into(round), into(old_result),
        into(old_winner), into(old_level), into(new_result), into(new_winner), into(new_level),
        into(reason), into(at), now;
    std::vector<LeagueCorrection> out;
    for (std::size_t i = 0; i < key.size(); ++i) {
      LeagueCorrection c;
      c.id = key[i];
      c.before.league_id = league_id;
      c.before.season = season[i];
      c.before.round = round[i];
      c.before.game_id = game[i];
      c.after = c.before;
      c.before.result = old_result[i];
      c.before.winner = old_winner[i];
      c.before.level = old_level[i];
      c.after.result = new_result[i];
      c.after.winner = new_winner[i];
      c.after.level = new_level[i];
      c.reason = reason[i];
      c.at = FromMillis(at[i]);
      out.push_back(std::move(c));
    }
    return out;
  });
}

}  // namespace pbem::storage
