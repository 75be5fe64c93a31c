// SqlRepository: turns, open turns, pauses, deadlines, endings, scheduling and turn failures (the
// class is split across storage/sql_*.cc: sql_internal.h lists them).
#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "storage/sql_internal.h"

namespace pbem::storage {

using namespace sql_internal;  // NOLINT: the implementation's own helpers (sql_internal.h)

// Stores the turn as the game's turn number `sequence` and moves the game to its next state.
void SqlRepository::InsertTurn(const TurnCommit& commit, std::int64_t turn_sequence) {
  std::string game_id = commit.game_id, side = commit.side;
  Poco::Int64 turn = commit.turn, sequence = turn_sequence;
  Poco::Int64 committed_at = ToMillis(commit.committed_at);
  BLOB orders = ToBlob(commit.orders), seed = ToBlob(commit.dice_seed),
       commitment = ToBlob(commit.dice_commitment), result = ToBlob(commit.result),
       next_state = ToBlob(commit.next_state);
  *session_ << Sql(
      "INSERT INTO turns (game_id, turn, side, sequence, orders, dice_seed, "
      "dice_commitment, result, next_state, committed_at_ms) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
      use(game_id), use(turn), use(side), use(sequence), use(orders), use(seed), use(commitment),
      use(result), use(next_state), use(committed_at), now;
  *session_ << Sql("UPDATE games SET state = ?, turns_committed = ? WHERE id = ?"), use(next_state),
      use(sequence), use(game_id), now;
}

Result<CommittedTurn> SqlRepository::CommitTurn(const TurnCommit& commit) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "committing turn " + std::to_string(commit.turn) + " of side " +
                           commit.side + " of game " + commit.game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Result<CommittedTurn> {
    Transaction transaction(*session_, dialect_);
    std::string game_id = commit.game_id, side = commit.side;
    Poco::Int64 turn = commit.turn;
    // Lock the game row first: a concurrent commit of the same turn waits here, then sees
    // the stored turn below.
    std::vector<Poco::Int64> turns_committed, paused_at;
    std::vector<std::string> ended;
    *session_ << Sql(
        "SELECT turns_committed, COALESCE(result, ''), COALESCE(paused_at_ms, -1) FROM games "
        "WHERE id = ?" +
        dialect_.lock_row_suffix),
        use(game_id), into(turns_committed), into(ended), into(paused_at), now;
    if (turns_committed.empty()) return Status::NotFound(what + ": no such game");

    int stored = 0;
    *session_ << Sql("SELECT count(*) FROM turns WHERE game_id = ? AND turn = ? AND side = ?"),
        use(game_id), use(turn), use(side), into(stored), now;
    if (stored == 0) {
      if (commit.based_on != turns_committed[0]) {
        return Status::FailedPrecondition(
            what + ": resolved from the state after " + std::to_string(commit.based_on) +
            " turns, but the game has " + std::to_string(turns_committed[0]) + " committed");
      }
      if (!ended[0].empty()) return Status::FailedPrecondition(what + ": the game has ended");
      // A pause acknowledged before the commit stops the clock: no turn is missed while paused.
      if (commit.missed && paused_at[0] >= 0) {
        return Status::FailedPrecondition(what + ": the game was paused; no turn is missed");
      }
      // Under the game's row lock, as RecordSubmission: no order can be accepted for this
      // position between this check and the commit.
      // (A submission stored before schema 8 has no side: it is played if it is the latest,
      // and only submissions with a side can be newer than it.)
      if (const std::int64_t latest = LatestAccepted(commit.game_id, commit.based_on, side);
          latest > commit.played_submission) {
        return Status::FailedPrecondition(what + ": the side's latest accepted submission is " +
                                          std::to_string(latest) + ", not the one played (" +
                                          (commit.played_submission == 0
                                               ? std::string("none")
                                               : std::to_string(commit.played_submission)) +
                                          "): resolve again");
      }
      if (std::optional<OpenTurn> open = ReadOpenTurn(commit.game_id, commit.turn, commit.side);
          open.has_value() && open->dice_seed != commit.dice_seed) {
        return Status::FailedPrecondition(
            what + ": the turn was opened with another dice seed than the one resolved with");
      }
      Poco::Int64 sequence = turns_committed[0] + 1;
      if (const std::optional<OpenTurn>& next = commit.next_open;
          next && (next->game_id != commit.game_id || next->based_on != sequence ||
                   next->dice_seed.empty())) {
        return Status::InvalidArgument(
            what + ": the next turn to open must be of the same game, based on " +
            std::to_string(sequence) + " turns, with a dice seed");
      }
      InsertTurn(commit, sequence);
      for (const NewMail& mail : commit.mails) InsertMail(mail);
      if (commit.missed) {
        *session_ << Sql(
            "UPDATE players SET missed_turns = missed_turns + 1 WHERE game_id = ? AND side = ?"),
            use(game_id), use(side), now;
      }
      if (commit.end) StoreEnding(game_id, *commit.end, sequence, commit.committed_at);
      if (const std::optional<OpenTurn>& next = commit.next_open) {
        if (!ReadOpenTurn(next->game_id, next->turn, next->side)) {
          std::string next_side = next->side;
          Poco::Int64 next_turn = next->turn, next_based_on = next->based_on,
                      opened_at = ToMillis(next->opened_at);
          BLOB next_seed = ToBlob(next->dice_seed), next_commitment = ToBlob(next->dice_commitment);
          *session_ << Sql(
              "INSERT INTO open_turns (game_id, turn, side, based_on, dice_seed, "
              "dice_commitment, opened_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)"),
              use(game_id), use(next_turn), use(next_side), use(next_based_on), use(next_seed),
              use(next_commitment), use(opened_at), now;
        }
      }
    }

    std::vector<Poco::Int64> sequence, committed_at;
    std::vector<BLOB> orders, seed, commitment, result, next_state;
    *session_ << Sql(
        "SELECT sequence, COALESCE(orders, {empty_blob}), "
        "COALESCE(dice_seed, {empty_blob}), COALESCE(dice_commitment, {empty_blob}), "
        "COALESCE(result, {empty_blob}), COALESCE(next_state, {empty_blob}), "
        "committed_at_ms FROM turns WHERE game_id = ? AND turn = ? AND side = ?"),
        use(game_id), use(turn), use(side), into(sequence), into(orders), into(seed),
        into(commitment), into(result), into(next_state), into(committed_at), now;
    if (sequence.empty()) return Status::Internal(what + ": the turn is not there after storing");
    transaction.Commit();
    CommittedTurn out;
    out.replayed = stored > 0;
    out.turn = Turn{commit.game_id,
                    commit.turn,
                    commit.side,
                    sequence[0],
                    FromBlob(orders[0]),
                    FromBlob(seed[0]),
                    FromBlob(commitment[0]),
                    FromBlob(result[0]),
                    FromBlob(next_state[0]),
                    FromMillis(committed_at[0])};
    return out;
  });
}

Result<std::vector<Turn>> SqlRepository::ListTurns(const std::string& game_id) {
  if (session_ == nullptr) return NotOpen();
  return Guarded(
      "listing the turns of game " + game_id + " in " + store_name_,
      [&]() -> Result<std::vector<Turn>> {
        std::string id = game_id;
        std::vector<Poco::Int64> turn, sequence, committed_at;
        std::vector<std::string> side;
        std::vector<BLOB> orders, seed, commitment, result, next_state;
        *session_ << Sql(
            "SELECT turn, side, sequence, COALESCE(orders, {empty_blob}), "
            "COALESCE(dice_seed, {empty_blob}), COALESCE(dice_commitment, {empty_blob}), "
            "COALESCE(result, {empty_blob}), COALESCE(next_state, {empty_blob}), "
            "committed_at_ms FROM turns WHERE game_id = ? ORDER BY sequence"),
            use(id), into(turn), into(side), into(sequence), into(orders), into(seed),
            into(commitment), into(result), into(next_state), into(committed_at), now;
        std::vector<Turn> turns;
        for (std::size_t i = 0; i < turn.size(); ++i) {
          turns.push_back(Turn{game_id, turn[i], side[i], sequence[i], FromBlob(orders[i]),
                               FromBlob(seed[i]), FromBlob(commitment[i]), FromBlob(result[i]),
                               FromBlob(next_state[i]), FromMillis(committed_at[i])});
        }
        return turns;
      });
}

// --- open turns -------------------------------------------------------------------------------

std::optional<OpenTurn> SqlRepository::ReadOpenTurn(const std::string& game_id, std::int64_t turn,
                                                    const std::string& side) {
  std::string id = game_id, side_name = side;
  Poco::Int64 turn_number = turn;
  std::vector<Poco::Int64> based_on, opened_at, paused, reminded_at;
  std::vector<BLOB> seed, commitment;
  *session_ << Sql(
      "SELECT based_on, COALESCE(dice_seed, {empty_blob}), "
      "COALESCE(dice_commitment, {empty_blob}), opened_at_ms, paused_ms, "
      "COALESCE(reminded_at_ms, -1) FROM open_turns "
      "WHERE game_id = ? AND turn = ? AND side = ?"),
      use(id), use(turn_number), use(side_name), into(based_on), into(seed), into(commitment),
      into(opened_at), into(paused), into(reminded_at), now;
  if (based_on.empty()) return std::nullopt;
  OpenTurn open{game_id,
                turn,
                side,
                based_on[0],
                FromBlob(seed[0]),
                FromBlob(commitment[0]),
                FromMillis(opened_at[0])};
  open.paused = std::chrono::milliseconds(paused[0]);
  if (reminded_at[0] >= 0) open.reminded_at = FromMillis(reminded_at[0]);
  return open;
}

void SqlRepository::InsertOpenTurn(const OpenTurn& open) {
  std::string game_id = open.game_id;
  std::string side = open.side;
  Poco::Int64 turn = open.turn, based_on = open.based_on, opened_at = ToMillis(open.opened_at);
  BLOB seed = ToBlob(open.dice_seed), commitment = ToBlob(open.dice_commitment);
  *session_ << Sql(
      "INSERT INTO open_turns (game_id, turn, side, based_on, dice_seed, dice_commitment, "
      "opened_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)"),
      use(game_id), use(turn), use(side), use(based_on), use(seed), use(commitment), use(opened_at),
      now;
}

Result<OpenTurn> SqlRepository::RecordOpenTurn(const OpenTurn& open) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "opening turn " + std::to_string(open.turn) + " of side " + open.side +
                           " of game " + open.game_id + " in " + store_name_;
  if (open.dice_seed.empty()) return Status::InvalidArgument(what + ": the dice seed is empty");
  return Guarded(what, [&]() -> Result<OpenTurn> {
    Transaction transaction(*session_, dialect_);
    std::string game_id = open.game_id;
    std::vector<Poco::Int64> turns_committed;
    *session_ << Sql("SELECT turns_committed FROM games WHERE id = ?" + dialect_.lock_row_suffix),
        use(game_id), into(turns_committed), now;
    if (turns_committed.empty()) return Status::NotFound(what + ": no such game");
    if (std::optional<OpenTurn> stored = ReadOpenTurn(open.game_id, open.turn, open.side)) {
      transaction.Commit();
      return *stored;
    }
    if (open.based_on != turns_committed[0]) {
      return Status::FailedPrecondition(
          what + ": opened at the state after " + std::to_string(open.based_on) +
          " turns, but the game has " + std::to_string(turns_committed[0]) + " committed");
    }
    InsertOpenTurn(open);
    std::optional<OpenTurn> stored = ReadOpenTurn(open.game_id, open.turn, open.side);
    if (!stored) return Status::Internal(what + ": the open turn is not there after storing");
    transaction.Commit();
    return *stored;
  });
}

Status SqlRepository::ImportGame(const NewGame& game, const std::vector<TurnCommit>& turns) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "importing game " + game.id + " into " + store_name_;
  if (game.id.empty()) return Status::InvalidArgument(what + ": the game id is empty");
  for (std::size_t i = 0; i < turns.size(); ++i) {
    if (turns[i].game_id != game.id || turns[i].based_on != static_cast<std::int64_t>(i) ||
        turns[i].dice_seed.empty()) {
      return Status::InvalidArgument(what + ": turn " + std::to_string(i + 1) +
                                     " names another game, is not based on turn " +
                                     std::to_string(i) + ", or has no dice seed");
    }
  }
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    if (GameExists(game.id, /*lock=*/false)) {
      return Status::AlreadyExists(what + ": a game with that id exists");
    }
    InsertGame(game);
    for (std::size_t i = 0; i < turns.size(); ++i) {
      const TurnCommit& commit = turns[i];
      InsertOpenTurn(OpenTurn{game.id, commit.turn, commit.side, commit.based_on, commit.dice_seed,
                              commit.dice_commitment, commit.committed_at});
      InsertTurn(commit, static_cast<std::int64_t>(i) + 1);
    }
    transaction.Commit();
    return Status::Ok();
  });
}

Result<OpenTurn> SqlRepository::GetOpenTurn(const std::string& game_id, std::int64_t turn,
                                            const std::string& side) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "reading open turn " + std::to_string(turn) + " of side " + side +
                           " of game " + game_id + " from " + store_name_;
  return Guarded(what, [&]() -> Result<OpenTurn> {
    std::optional<OpenTurn> stored = ReadOpenTurn(game_id, turn, side);
    if (!stored) return Status::NotFound(what + ": the turn was never opened");
    return *stored;
  });
}

// --- the scheduler ----------------------------------------------------------------------------

Status SqlRepository::SetPaused(const std::string& game_id, bool paused, Timestamp when) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      std::string(paused ? "pausing" : "resuming") + " game " + game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    std::string id = game_id;
    std::vector<Poco::Int64> paused_at, turns_committed;
    *session_ << Sql("SELECT COALESCE(paused_at_ms, -1), turns_committed FROM games WHERE id = ?" +
                     dialect_.lock_row_suffix),
        use(id), into(paused_at), into(turns_committed), now;
    if (paused_at.empty()) return Status::NotFound(what + ": no such game");
    Poco::Int64 at = ToMillis(when);
    if (paused && paused_at[0] < 0) {
      *session_ << Sql("UPDATE games SET paused_at_ms = ? WHERE id = ?"), use(at), use(id), now;
    } else if (!paused && paused_at[0] >= 0) {
      Poco::Int64 stood = std::max<Poco::Int64>(0, at - paused_at[0]);
      Poco::Int64 based_on = turns_committed[0];
      *session_ << Sql(
          "UPDATE open_turns SET paused_ms = paused_ms + ? WHERE game_id = ? AND based_on = ?"),
          use(stood), use(id), use(based_on), now;
      *session_ << Sql("UPDATE games SET paused_at_ms = NULL WHERE id = ?"), use(id), now;
    }
    transaction.Commit();
    return Status::Ok();
  });
}

Result<bool> SqlRepository::ExtendDeadline(const std::string& game_id, std::int64_t based_on,
                                           std::chrono::milliseconds extension,
                                           const std::vector<NewMail>& mails) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "extending the deadline of game " + game_id + " in " + store_name_;
  if (extension.count() <= 0)
    return Status::InvalidArgument(what + ": the extension is not positive");
  return Guarded(what, [&]() -> Result<bool> {
    Transaction transaction(*session_, dialect_);
    std::string id = game_id;
    std::vector<Poco::Int64> turns_committed;
    std::vector<std::string> result;
    *session_ << Sql("SELECT turns_committed, COALESCE(result, '') FROM games WHERE id = ?" +
                     dialect_.lock_row_suffix),
        use(id), into(turns_committed), into(result), now;
    if (turns_committed.empty()) return Status::NotFound(what + ": no such game");
    if (turns_committed[0] != based_on || !result[0].empty()) return false;
    Poco::Int64 added = extension.count();
    Poco::Int64 turn = based_on;
    *session_ << Sql(
        "UPDATE open_turns SET paused_ms = paused_ms + ?, reminded_at_ms = NULL "
        "WHERE game_id = ? AND based_on = ?"),
        use(added), use(id), use(turn), now;
    std::vector<Poco::Int64> opened;
    *session_ << Sql("SELECT based_on FROM open_turns WHERE game_id = ? AND based_on = ?"), use(id),
        use(turn), into(opened), now;
    if (opened.empty()) return false;
    for (const NewMail& mail : mails) InsertMail(mail);
    transaction.Commit();
    return true;
  });
}

Result<bool> SqlRepository::RecordReminder(const std::string& game_id, std::int64_t turn,
                                           const std::string& side, Timestamp at,
                                           const NewMail& mail) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "reminding side " + side + " of turn " + std::to_string(turn) +
                           " of game " + game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Result<bool> {
    Transaction transaction(*session_, dialect_);
    std::string id = game_id;
    std::vector<Poco::Int64> exists;
    *session_ << Sql("SELECT turns_committed FROM games WHERE id = ?" + dialect_.lock_row_suffix),
        use(id), into(exists), now;
    std::optional<OpenTurn> open = ReadOpenTurn(game_id, turn, side);
    if (exists.empty() || !open) return Status::NotFound(what + ": the turn was never opened");
    if (open->reminded_at) {
      transaction.Commit();
      return false;
    }
    std::string side_name = side;
    Poco::Int64 turn_number = turn, when = ToMillis(at);
    *session_ << Sql(
        "UPDATE open_turns SET reminded_at_ms = ? WHERE game_id = ? AND turn = ? AND side = ?"),
        use(when), use(id), use(turn_number), use(side_name), now;
    InsertMail(mail);
    transaction.Commit();
    return true;
  });
}

void SqlRepository::StoreEnding(const std::string& game_id, const GameEnding& ending,
                                std::int64_t turn, Timestamp at) {
  std::string id = game_id, text = ending.text, kind(GameEndKindName(ending.kind)),
              winner = ending.winner, level = ending.level;
  Poco::Int64 when = ToMillis(at), by_organiser = ending.by_organiser ? 1 : 0, end_turn = turn;
  *session_ << Sql(
      "UPDATE games SET result = ?, ended_at_ms = ?, end_kind = ?, end_winner = ?, "
      "end_level = ?, end_by_organiser = ?, end_turn = ? WHERE id = ?"),
      use(text), use(when), use(kind), use(winner), use(level), use(by_organiser), use(end_turn),
      use(id), now;
}

Result<bool> SqlRepository::EndGame(const std::string& game_id, std::int64_t expected_turns,
                                    const GameEnding& ending, Timestamp at,
                                    const std::vector<NewMail>& mails) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "ending game " + game_id + " in " + store_name_;
  if (ending.text.empty()) return Status::InvalidArgument(what + ": the result text is empty");
  return Guarded(what, [&]() -> Result<bool> {
    Transaction transaction(*session_, dialect_);
    std::string id = game_id;
    std::vector<std::string> stored;
    std::vector<Poco::Int64> turns;
    *session_ << Sql("SELECT COALESCE(result, ''), turns_committed FROM games WHERE id = ?" +
                     dialect_.lock_row_suffix),
        use(id), into(stored), into(turns), now;
    if (stored.empty()) return Status::NotFound(what + ": no such game");
    if (!stored[0].empty()) {
      transaction.Commit();
      return false;
    }
    if (turns[0] != expected_turns) {
      return Status::FailedPrecondition(
          what + ": the game has moved on (" + std::to_string(turns[0]) +
          " turns committed, the caller read it at " + std::to_string(expected_turns) + ")");
    }
    StoreEnding(game_id, ending, turns[0], at);
    for (const NewMail& mail : mails) InsertMail(mail);
    transaction.Commit();
    return true;
  });
}

// --- failing turn jobs (migration 14) ---------------------------------------------------------

Result<std::vector<SchedulableGame>> SqlRepository::ListSchedulableGames(Timestamp now_time) {
  if (session_ == nullptr) return NotOpen();
  return Guarded("listing the games to schedule in " + store_name_,
                 [&]() -> Result<std::vector<SchedulableGame>> {
                   std::vector<std::string> ids;
                   std::vector<Poco::Int64> failures;
                   Poco::Int64 at = ToMillis(now_time);
                   *session_ << Sql(
                       "SELECT id, turn_failures FROM games WHERE due_at_ms <= ? "
                       "AND turn_failed_at_ms IS NULL "
                       "AND (turn_retry_at_ms IS NULL OR turn_retry_at_ms <= ?) ORDER BY id"),
                       use(at), use(at), into(ids), into(failures), now;
                   std::vector<SchedulableGame> games;
                   for (std::size_t i = 0; i < ids.size(); ++i) {
                     games.push_back(SchedulableGame{ids[i], failures[i]});
                   }
                   return games;
                 });
}

Result<std::int64_t> SqlRepository::RecordTurnFailure(const TurnFailure& failure) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "recording a failed turn of game " + failure.game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Result<std::int64_t> {
    Transaction transaction(*session_, dialect_);
    std::string id = failure.game_id;
    std::vector<Poco::Int64> failures, stuck;
    *session_ << Sql(
        "SELECT turn_failures, CASE WHEN turn_failed_at_ms IS NULL THEN 0 ELSE 1 END "
        "FROM games WHERE id = ?" +
        dialect_.lock_row_suffix),
        use(id), into(failures), into(stuck), now;
    if (failures.empty()) return Status::NotFound(what + ": no such game");
    if (stuck[0] != 0) return Status::FailedPrecondition(what + ": the game is stuck already");
    if (failures[0] != failure.failures_before) {
      return Status::FailedPrecondition(what + ": " + std::to_string(failures[0]) +
                                        " failures are counted, not " +
                                        std::to_string(failure.failures_before));
    }
    Poco::Int64 count = failures[0] + 1, retry = ToMillis(failure.retry_at);
    std::string error = failure.error;
    *session_ << Sql(
        "UPDATE games SET turn_failures = ?, turn_retry_at_ms = ?, turn_error = ? WHERE id = ?"),
        use(count), use(retry), use(error), use(id), now;
    if (failure.stuck) {
      Poco::Int64 at = ToMillis(failure.at);
      *session_ << Sql("UPDATE games SET turn_failed_at_ms = ? WHERE id = ?"), use(at), use(id),
          now;
      for (const NewMail& mail : failure.mails) InsertMail(mail);
    }
    transaction.Commit();
    return std::int64_t{count};
  });
}

Status SqlRepository::ClearTurnFailures(const std::string& game_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "clearing the failed turns of game " + game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    if (!GameExists(game_id, /*lock=*/false)) return Status::NotFound(what + ": no such game");
    std::string id = game_id;
    *session_ << Sql(
        "UPDATE games SET turn_failures = 0, turn_retry_at_ms = NULL, turn_error = '' "
        "WHERE id = ? AND turn_failed_at_ms IS NULL"),
        use(id), now;
    return Status::Ok();
  });
}

Result<std::vector<StuckGame>> SqlRepository::ListStuckGames() {
  if (session_ == nullptr) return NotOpen();
  return Guarded(
      "listing the stuck games in " + store_name_, [&]() -> Result<std::vector<StuckGame>> {
        std::vector<std::string> ids, errors;
        std::vector<Poco::Int64> turns, failures, failed_at;
        *session_ << Sql(
            "SELECT id, turns_committed, turn_failures, turn_failed_at_ms, "
            "turn_error FROM games WHERE turn_failed_at_ms IS NOT NULL ORDER BY id"),
            into(ids), into(turns), into(failures), into(failed_at), into(errors), now;
        std::vector<StuckGame> games;
        for (std::size_t i = 0; i < ids.size(); ++i) {
          games.push_back(
              StuckGame{ids[i], turns[i], failures[i], FromMillis(failed_at[i]), errors[i]});
        }
        return games;
      });
}

Status SqlRepository::RetryStuckGame(const std::string& game_id, Timestamp now_time) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "retrying stuck game " + game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    std::string id = game_id;
    std::vector<Poco::Int64> failed_at, turns_committed;
    *session_ << Sql(
        "SELECT COALESCE(turn_failed_at_ms, -1), turns_committed FROM games WHERE id = ?" +
        dialect_.lock_row_suffix),
        use(id), into(failed_at), into(turns_committed), now;
    if (failed_at.empty()) return Status::NotFound(what + ": no such game");
    if (failed_at[0] < 0) return Status::FailedPrecondition(what + ": the game is not stuck");
    // The time it stood stuck is added to the open turn's deadline, as a pause would.
    Poco::Int64 stood = std::max<Poco::Int64>(0, ToMillis(now_time) - failed_at[0]);
    Poco::Int64 based_on = turns_committed[0];
    *session_ << Sql(
        "UPDATE open_turns SET paused_ms = paused_ms + ? WHERE game_id = ? AND based_on = ?"),
        use(stood), use(id), use(based_on), now;
    *session_ << Sql(
        "UPDATE games SET turn_failures = 0, turn_retry_at_ms = NULL, turn_failed_at_ms = NULL, "
        "turn_error = '' WHERE id = ?"),
        use(id), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Result<GameWake> SqlRepository::GetWake(const std::string& game_id) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "reading the wake-up of game " + game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Result<GameWake> {
    std::string id = game_id;
    std::vector<Poco::Int64> sequence, due;
    *session_ << Sql("SELECT wake_seq, COALESCE(due_at_ms, -1) FROM games WHERE id = ?"), use(id),
        into(sequence), into(due), now;
    if (sequence.empty()) return Status::NotFound(what + ": no such game");
    GameWake wake;
    wake.sequence = sequence[0];
    if (due[0] >= 0) wake.due = FromMillis(due[0]);
    return wake;
  });
}

Result<bool> SqlRepository::SetWake(const std::string& game_id, std::int64_t sequence,
                                    std::optional<Timestamp> due) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "storing the wake-up of game " + game_id + " in " + store_name_;
  return Guarded(what, [&]() -> Result<bool> {
    // One statement, the compare-and-set in its WHERE: the scheduler stores a wake-up per game
    // it looks at, and on PostgreSQL each statement costs round trips (issue 19 point 4).
    // wake_seq moves too: that is how the games trigger knows this write is the scheduler's.
    std::string id = game_id;
    Poco::Int64 seen = sequence;
    // -1: none (NULL), as GetWake reads it back.
    Poco::Int64 at = due ? std::max<Poco::Int64>(0, ToMillis(*due)) : -1;
    std::vector<std::string> stored;
    *session_ << Sql(
        "UPDATE games SET due_at_ms = NULLIF(CAST(? AS {int64}), -1), wake_seq = wake_seq + 1 "
        "WHERE id = ? AND wake_seq = ? RETURNING id"),
        use(at), use(id), use(seen), into(stored), now;
    if (!stored.empty()) return true;
    // Written since (it stays due), or no such game.
    std::vector<std::string> exists;
    *session_ << Sql("SELECT id FROM games WHERE id = ?"), use(id), into(exists), now;
    if (exists.empty()) return Status::NotFound(what + ": no such game");
    return false;
  });
}

Status SqlRepository::MarkAllGamesDue() {
  if (session_ == nullptr) return NotOpen();
  return Guarded("making every game due in " + store_name_, [&]() -> Status {
    *session_ << Sql(
        "UPDATE games SET due_at_ms = 0, wake_seq = wake_seq + 1 "
        "WHERE result IS NULL AND (due_at_ms IS NULL OR due_at_ms > 0)"),
        now;
    return Status::Ok();
  });
}

// --- outbox -----------------------------------------------------------------------------------

}  // namespace pbem::storage
