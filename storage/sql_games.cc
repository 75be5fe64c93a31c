// SqlRepository: games, players, tokens and submissions (the class is split across
// storage/sql_*.cc: sql_internal.h lists them).
#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "storage/sql_internal.h"

namespace pbem::storage {

using namespace sql_internal;  // NOLINT: the implementation's own helpers (sql_internal.h)

bool SqlRepository::GameExists(const std::string& game_id, bool lock) {
  std::vector<std::string> ids;
  std::string id = game_id;
  *session_ << Sql("SELECT id FROM games WHERE id = ?" +
                   (lock ? dialect_.lock_row_suffix : std::string())),
      use(id), into(ids), now;
  return !ids.empty();
}

// --- games and players ------------------------------------------------------------------------

void SqlRepository::InsertGame(const NewGame& game) {
  std::string id = game.id, system = game.system, scenario = game.scenario,
              ruleset_name = game.ruleset_name, ruleset_version = game.ruleset_version,
              engine_version = game.engine_version;
  Poco::Int64 timeout = game.deadlines.turn_timeout.count();
  Poco::Int64 reminder = game.deadlines.reminder_before.count();
  BLOB state = ToBlob(game.initial_state), initial = ToBlob(game.initial_state),
       ruleset = ToBlob(game.ruleset_proto), scenario_proto = ToBlob(game.scenario_proto);
  Poco::Int64 created = ToMillis(game.created_at);
  *session_ << Sql(
      "INSERT INTO games (id, game_system, scenario, ruleset_name, ruleset_version, "
      "engine_version, turn_timeout_s, reminder_before_s, state, created_at_ms, "
      "turns_committed, initial_state, ruleset_proto, scenario_proto) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)"),
      use(id), use(system), use(scenario), use(ruleset_name), use(ruleset_version),
      use(engine_version), use(timeout), use(reminder), use(state), use(created), use(initial),
      use(ruleset), use(scenario_proto), now;
}

Status SqlRepository::CreateGame(const NewGame& game) {
  return CreateGameWithPlayers(game, {}, {});
}

Status SqlRepository::InsertGameWithPlayers(const NewGame& game,
                                            const std::vector<NewPlayer>& players,
                                            const std::string& what) {
  if (game.id.empty()) return Status::InvalidArgument(what + ": the game id is empty");
  if (game.system.empty()) return Status::InvalidArgument(what + ": the game system is empty");
  if (GameExists(game.id, /*lock=*/false)) {
    return Status::AlreadyExists(what + ": a game with that id exists");
  }
  std::set<std::string> sides;
  for (const NewPlayer& player : players) {
    if (player.game_id != game.id) {
      return Status::InvalidArgument(what + ": the player of side " + player.side + " names game " +
                                     player.game_id);
    }
    if (player.token.empty()) {
      return Status::InvalidArgument(what + ": the token of side " + player.side + " is empty");
    }
    if (!sides.insert(player.side).second) {
      return Status::AlreadyExists(what + ": side " + player.side + " is given twice");
    }
  }
  InsertGame(game);
  for (const NewPlayer& player : players) InsertPlayer(player);
  return Status::Ok();
}

Status SqlRepository::CreateGameWithPlayers(const NewGame& game,
                                            const std::vector<NewPlayer>& players,
                                            const std::vector<NewMail>& mails) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "creating game " + game.id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (Status inserted = InsertGameWithPlayers(game, players, what); !inserted.ok()) {
      return inserted;
    }
    for (const NewMail& mail : mails) InsertMail(mail);
    transaction.Commit();
    return Status::Ok();
  });
}

Result<Game> SqlRepository::GetGame(const std::string& game_id) {
  if (session_ == nullptr) return NotOpen();
  return Guarded("reading game " + game_id + " from " + store_name_, [&]() -> Result<Game> {
    std::string id = game_id;
    std::vector<std::string> system, scenario, ruleset_name, ruleset_version, engine_version;
    std::vector<Poco::Int64> timeout, reminder, created, turns, paused_at;
    std::vector<BLOB> state, initial, ruleset, scenario_proto;
    std::vector<std::string> result, end_kind, end_winner, end_level;
    std::vector<Poco::Int64> end_by_organiser, end_turn;
    *session_ << Sql(
        "SELECT game_system, scenario, ruleset_name, ruleset_version, engine_version, "
        "turn_timeout_s, reminder_before_s, COALESCE(state, {empty_blob}), "
        "created_at_ms, turns_committed, COALESCE(initial_state, {empty_blob}), "
        "COALESCE(ruleset_proto, {empty_blob}), COALESCE(scenario_proto, {empty_blob}), "
        "COALESCE(paused_at_ms, -1), COALESCE(result, ''), COALESCE(end_kind, ''), end_winner, "
        "end_level, end_by_organiser, end_turn "
        "FROM games WHERE id = ?"),
        use(id), into(system), into(scenario), into(ruleset_name), into(ruleset_version),
        into(engine_version), into(timeout), into(reminder), into(state), into(created),
        into(turns), into(initial), into(ruleset), into(scenario_proto), into(paused_at),
        into(result), into(end_kind), into(end_winner), into(end_level), into(end_by_organiser),
        into(end_turn), now;
    if (scenario.empty()) {
      return Status::NotFound("game " + game_id + " is not in " + store_name_);
    }
    Game game;
    game.id = game_id;
    game.system = system[0];
    game.scenario = scenario[0];
    game.ruleset_name = ruleset_name[0];
    game.ruleset_version = ruleset_version[0];
    game.engine_version = engine_version[0];
    game.deadlines.turn_timeout = std::chrono::seconds(timeout[0]);
    game.deadlines.reminder_before = std::chrono::seconds(reminder[0]);
    game.state = FromBlob(state[0]);
    game.initial_state = FromBlob(initial[0]);
    game.ruleset_proto = FromBlob(ruleset[0]);
    game.scenario_proto = FromBlob(scenario_proto[0]);
    game.created_at = FromMillis(created[0]);
    game.turns_committed = turns[0];
    if (paused_at[0] >= 0) game.paused_at = FromMillis(paused_at[0]);
    game.result = result[0];
    if (std::optional<GameEndKind> kind = ParseGameEndKind(end_kind[0])) {
      game.ending = GameEnding{*kind,       end_winner[0], end_level[0], end_by_organiser[0] != 0,
                               end_turn[0], result[0]};
    }
    return game;
  });
}

Result<GameVersion> GameRepository::GetGameVersion(const std::string& game_id) {
  Result<Game> game = GetGame(game_id);
  if (!game.ok()) return game.status();
  return VersionOf(*game);
}

bool SqlRepository::ReadGameVersionRow(const std::string& game_id, GameVersionRow& row) {
  std::string id = game_id;
  std::vector<Poco::Int64> created, turns, end_by_organiser, end_turn;
  std::vector<std::string> result, end_kind, end_winner, end_level;
  *session_ << Sql(kGameVersionQuery), use(id), into(created), into(turns), into(result),
      into(end_kind), into(end_winner), into(end_level), into(end_by_organiser), into(end_turn),
      now;
  if (created.empty()) return false;
  row = GameVersionRow{created[0],    turns[0],     result[0],           end_kind[0],
                       end_winner[0], end_level[0], end_by_organiser[0], end_turn[0]};
  return true;
}

Result<GameVersion> SqlRepository::GetGameVersion(const std::string& game_id) {
  if (session_ == nullptr) return NotOpen();
  return Guarded("reading game " + game_id + " from " + store_name_, [&]() -> Result<GameVersion> {
    GameVersionRow row;
    if (!ReadGameVersionRow(game_id, row)) {
      return Status::NotFound("game " + game_id + " is not in " + store_name_);
    }
    GameVersion version;
    version.created_at = FromMillis(row.created_at_ms);
    version.turns_committed = row.turns_committed;
    if (std::optional<GameEndKind> kind = ParseGameEndKind(row.end_kind)) {
      version.ending =
          GameEnding{*kind,        row.end_winner, row.end_level, row.end_by_organiser != 0,
                     row.end_turn, row.result};
    }
    return version;
  });
}

Result<std::vector<std::string>> SqlRepository::ListGames() {
  if (session_ == nullptr) return NotOpen();
  return Guarded("listing the games in " + store_name_, [&]() -> Result<std::vector<std::string>> {
    std::vector<std::string> ids;
    *session_ << Sql("SELECT id FROM games ORDER BY id"), into(ids), now;
    return ids;
  });
}

Status SqlRepository::AddPlayer(const NewPlayer& player) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "adding side " + player.side + " to game " + player.game_id + " in " + store_name_;
  if (player.token.empty()) return Status::InvalidArgument(what + ": the token is empty");
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (!GameExists(player.game_id, /*lock=*/true)) {
      return Status::NotFound(what + ": no such game");
    }
    std::string game_id = player.game_id, side = player.side;
    int count = 0;
    *session_ << Sql("SELECT count(*) FROM players WHERE game_id = ? AND side = ?"), use(game_id),
        use(side), into(count), now;
    if (count > 0) return Status::AlreadyExists(what + ": the side already has a player");
    InsertPlayer(player);
    transaction.Commit();
    return Status::Ok();
  });
}

void SqlRepository::InsertPlayer(const NewPlayer& player) {
  std::string game_id = player.game_id, side = player.side, mail = player.mail_address;
  std::string language = player.language.empty() ? "en" : player.language;
  std::string hash = Sha256Hex(player.token), name = player.name;
  *session_ << Sql(
      "INSERT INTO players (game_id, side, mail_address, token_sha256, language, name) "
      "VALUES (?, ?, ?, ?, ?, ?)"),
      use(game_id), use(side), use(mail), use(hash), use(language), use(name), now;
}

Result<std::vector<Player>> SqlRepository::ListPlayers(const std::string& game_id) {
  if (session_ == nullptr) return NotOpen();
  return Guarded(
      "listing the players of game " + game_id + " in " + store_name_,
      [&]() -> Result<std::vector<Player>> {
        std::string id = game_id;
        std::vector<std::string> side, mail, hash, language, name;
        std::vector<Poco::Int64> missed;
        *session_ << Sql(
            "SELECT side, mail_address, token_sha256, language, missed_turns, name FROM players "
            "WHERE game_id = ? ORDER BY side"),
            use(id), into(side), into(mail), into(hash), into(language), into(missed), into(name),
            now;
        std::vector<Player> players;
        for (std::size_t i = 0; i < side.size(); ++i) {
          players.push_back(
              Player{game_id, side[i], mail[i], hash[i], language[i], missed[i], name[i]});
        }
        return players;
      });
}

Result<bool> SqlRepository::VerifyToken(const std::string& game_id, const std::string& side,
                                        const std::string& token) {
  if (session_ == nullptr) return NotOpen();
  return Guarded(
      "verifying a token of side " + side + " of game " + game_id + " in " + store_name_,
      [&]() -> Result<bool> {
        std::string id = game_id, side_name = side;
        std::vector<std::string> hash;
        *session_ << Sql("SELECT token_sha256 FROM players WHERE game_id = ? AND side = ?"),
            use(id), use(side_name), into(hash), now;
        if (hash.empty()) {
          return Status::NotFound("game " + game_id + " in " + store_name_ + " has no side " +
                                  side);
        }
        return SameDigest(hash[0], Sha256Hex(token));
      });
}

// --- order submissions ------------------------------------------------------------------------

std::int64_t SqlRepository::LatestAccepted(const std::string& game_id, std::int64_t turn,
                                           const std::string& side, const NewSubmission* same) {
  std::string id = game_id, side_name = side;
  Poco::Int64 position = turn;
  std::vector<Poco::Int64> ids;
  std::vector<std::string> hashes;
  std::vector<BLOB> orders;
  *session_ << Sql(
      "SELECT id, content_sha256, COALESCE(orders, {empty_blob}) FROM submissions "
      "WHERE game_id = ? AND turn = ? AND side = ? AND accepted = 1 ORDER BY id DESC LIMIT 1"),
      use(id), use(position), use(side_name), into(ids), into(hashes), into(orders), now;
  if (ids.empty()) return 0;
  if (same != nullptr &&
      (hashes[0] != Sha256Hex(same->raw) || FromBlob(orders[0]) != same->orders)) {
    return 0;
  }
  return ids[0];
}

Result<RecordedSubmission> SqlRepository::RecordSubmission(const NewSubmission& submission) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "recording a submission to game " + submission.game_id + " in " + store_name_;
  if (submission.accepted && (submission.side.empty() || submission.orders.empty())) {
    return Status::InvalidArgument(what + ": an accepted submission needs its side and orders");
  }
  return Guarded(what, [&]() -> Result<RecordedSubmission> {
    Transaction transaction(*session_, dialect_);
    std::string game_id = submission.game_id, channel = ChannelName(submission.channel),
                sender = submission.sender, message_id = submission.message_id,
                side = submission.side, hash = Sha256Hex(submission.raw),
                reason = submission.reason;
    // The game's row, held until the end: CommitTurn takes it too, so a submission is stored
    // either before a turn is committed (and that commit sees it) or after (and is stale).
    std::vector<Poco::Int64> turns_committed;
    std::vector<std::string> result;
    *session_ << Sql("SELECT turns_committed, COALESCE(result, '') FROM games WHERE id = ?" +
                     dialect_.lock_row_suffix),
        use(game_id), into(turns_committed), into(result), now;
    if (turns_committed.empty()) return Status::NotFound(what + ": no such game");
    RecordedSubmission recorded;
    if (!message_id.empty() && !side.empty()) {
      std::vector<Poco::Int64> original;
      *session_ << Sql(
          "SELECT id FROM submissions WHERE game_id = ? AND side = ? AND message_id = ? "
          "AND accepted = 1 ORDER BY id LIMIT 1"),
          use(game_id), use(side), use(message_id), into(original), now;
      if (!original.empty()) {
        recorded.id = original[0];
        recorded.duplicate = true;
        transaction.Commit();
        return recorded;
      }
    }
    if (submission.accepted) {
      if (turns_committed[0] != submission.turn || !result[0].empty()) {
        recorded.stale = true;
        return recorded;  // rolled back: nothing stored
      }
      // The same bytes read the same way (a Content-Type may change what bytes mean).
      if (const std::int64_t latest = LatestAccepted(game_id, submission.turn, side, &submission);
          latest != 0) {
        recorded.id = latest;
        recorded.duplicate = true;
        transaction.Commit();
        return recorded;
      }
    }
    Poco::Int64 turn = submission.turn, received = ToMillis(submission.received_at);
    BLOB raw = ToBlob(submission.raw), verdicts = ToBlob(submission.verdicts),
         orders = ToBlob(submission.orders);
    int accepted = submission.accepted ? 1 : 0;
    std::vector<Poco::Int64> inserted;
    *session_ << Sql(
        "INSERT INTO submissions (game_id, turn, side, channel, sender, message_id, raw, "
        "orders, content_sha256, received_at_ms, verdicts, accepted, reason) "
        "VALUES (?, ?, NULLIF(?, ''), ?, ?, NULLIF(?, ''), ?, ?, ?, ?, ?, ?, ?) RETURNING id"),
        use(game_id), use(turn), use(side), use(channel), use(sender), use(message_id), use(raw),
        use(orders), use(hash), use(received), use(verdicts), use(accepted), use(reason),
        into(inserted), now;
    if (inserted.empty()) return Status::Internal(what + ": the insert returned no id");
    recorded.id = inserted[0];
    transaction.Commit();
    return recorded;
  });
}

Result<std::vector<Submission>> SqlRepository::ListSubmissions(const std::string& game_id) {
  return ListSubmissionsOf(game_id, std::nullopt);
}

Result<std::vector<Submission>> SqlRepository::ListTurnSubmissions(const std::string& game_id,
                                                                   std::int64_t turn) {
  return ListSubmissionsOf(game_id, turn);
}

Result<std::vector<Submission>> SqlRepository::ListSubmissionsOf(
    const std::string& game_id, std::optional<std::int64_t> only_turn) {
  if (session_ == nullptr) return NotOpen();
  return Guarded(
      "listing the submissions to game " + game_id + " in " + store_name_,
      [&]() -> Result<std::vector<Submission>> {
        std::string id = game_id;
        Poco::Int64 wanted = only_turn.value_or(0);
        std::vector<Poco::Int64> ids, turn, received;
        std::vector<std::string> side, channel, sender, message_id, hash, reason;
        std::vector<BLOB> raw, orders, verdicts;
        std::vector<int> accepted;
        Poco::Data::Statement select(*session_);
        // One turn's: through the index submissions_by_turn (game_id, turn, ...).
        select << Sql(
            "SELECT id, turn, COALESCE(side, ''), channel, sender, COALESCE(message_id, ''), "
            "COALESCE(raw, {empty_blob}), COALESCE(orders, {empty_blob}), content_sha256, "
            "received_at_ms, COALESCE(verdicts, {empty_blob}), accepted, reason "
            "FROM submissions WHERE game_id = ?" +
            std::string(only_turn ? " AND turn = ?" : "") + " ORDER BY id");
        select, use(id);
        if (only_turn) select, use(wanted);
        select, into(ids), into(turn), into(side), into(channel), into(sender), into(message_id),
            into(raw), into(orders), into(hash), into(received), into(verdicts), into(accepted),
            into(reason);
        select.execute();
        std::vector<Submission> submissions;
        for (std::size_t i = 0; i < ids.size(); ++i) {
          Submission s;
          s.id = ids[i];
          s.game_id = game_id;
          s.turn = turn[i];
          s.side = side[i];
          s.channel = ChannelFromName(channel[i]);
          s.sender = sender[i];
          s.message_id = message_id[i];
          s.raw = FromBlob(raw[i]);
          s.orders = FromBlob(orders[i]);
          s.content_sha256 = hash[i];
          s.received_at = FromMillis(received[i]);
          s.verdicts = FromBlob(verdicts[i]);
          s.accepted = accepted[i] != 0;
          s.reason = reason[i];
          submissions.push_back(std::move(s));
        }
        return submissions;
      });
}

// --- turns ------------------------------------------------------------------------------------

}  // namespace pbem::storage
