#include "daemon/turn/turn_shared.h"

#include <utility>

namespace pbem::daemon {

Result<storage::OpenTurn> DrawOpenTurn(const std::string& game_id, std::int64_t turn,
                                       const std::string& side, std::int64_t based_on,
                                       EntropySource& entropy, storage::Timestamp now) {
  Result<Bytes> seed = entropy.Draw(kSeedBytes);
  if (!seed.ok()) return seed.status();
  storage::OpenTurn open;
  open.game_id = game_id;
  open.turn = turn;
  open.side = side;
  open.based_on = based_on;
  open.dice_seed = *seed;
  // A DiceCommitment has string fields only: these are the bytes of the codec's deterministic
  // SerializeMessage, which wrote every commitment stored before.
  open.dice_commitment = CommitmentFor(*seed).SerializeAsString();
  open.opened_at = now;
  return open;
}

Result<OpenedTurn> OpenOrReuseTurn(storage::GameRepository& repository, const storage::Game& game,
                                   std::int64_t turn, const std::string& side,
                                   EntropySource& entropy, storage::Timestamp now) {
  OpenedTurn out;
  Result<storage::OpenTurn> existing = repository.GetOpenTurn(game.id, turn, side);
  if (existing.ok()) {
    out.stored = std::move(existing).value();
  } else if (existing.status().code() != StatusCode::kNotFound) {
    return existing.status();
  } else {
    Result<storage::OpenTurn> open =
        DrawOpenTurn(game.id, turn, side, game.turns_committed, entropy, now);
    if (!open.ok()) return open.status();
    // Another process may have opened it meanwhile: the stored (first) seed comes back.
    Result<storage::OpenTurn> stored = repository.RecordOpenTurn(*open);
    if (!stored.ok()) return stored.status();
    out.stored = std::move(stored).value();
    out.recorded = true;
  }
  if (!out.commitment.ParseFromString(out.stored.dice_commitment)) {
    return Status::Internal("game " + game.id + ": the stored dice commitment does not parse");
  }
  return out;
}

Status CheckPosition(const storage::Game& game, std::int64_t based_on, const std::string& what) {
  if (based_on >= 0 && game.turns_committed != based_on) {
    return Status::FailedPrecondition(what + ": the orders were chosen after " +
                                      std::to_string(based_on) + " turns, the game has " +
                                      std::to_string(game.turns_committed));
  }
  return Status::Ok();
}

Result<std::optional<storage::CommittedTurn>> StoredCommit(storage::GameRepository& repository,
                                                           const std::string& game_id,
                                                           std::int64_t turn,
                                                           const std::string& side) {
  Result<std::vector<storage::Turn>> turns = repository.ListTurns(game_id);
  if (!turns.ok()) return turns.status();
  for (storage::Turn& stored : *turns) {
    if (stored.turn == turn && stored.side == side) {
      return std::optional<storage::CommittedTurn>(storage::CommittedTurn{std::move(stored), true});
    }
  }
  return std::optional<storage::CommittedTurn>();
}

Result<storage::OpenTurn> OpenTurnToResolve(storage::GameRepository& repository,
                                            const std::string& game_id, std::int64_t turn,
                                            const std::string& side, const std::string& what,
                                            std::string_view open_call) {
  Result<storage::OpenTurn> open = repository.GetOpenTurn(game_id, turn, side);
  if (!open.ok() && open.status().code() == StatusCode::kNotFound) {
    return Status::FailedPrecondition(what +
                                      ": the turn was never opened (no dice seed committed "
                                      "to); call " +
                                      std::string(open_call) + " first");
  }
  return open;
}

Result<storage::TurnCommit> TurnCommitOf(const storage::Game& game, const storage::OpenTurn& open,
                                         const CommitOptions& options, Bytes orders, Bytes result,
                                         Bytes next_state, const std::optional<NextTurn>& next,
                                         storage::Timestamp now) {
  storage::TurnCommit commit;
  commit.game_id = game.id;
  commit.turn = open.turn;
  commit.side = open.side;
  commit.based_on = game.turns_committed;
  commit.orders = std::move(orders);
  commit.dice_seed = open.dice_seed;
  commit.dice_commitment = open.dice_commitment;
  commit.result = std::move(result);
  commit.next_state = std::move(next_state);
  commit.committed_at = now;
  commit.missed = options.missed;
  commit.played_submission = options.played_submission;
  if (options.entropy != nullptr && next) {
    Result<storage::OpenTurn> opened = DrawOpenTurn(
        game.id, next->turn, next->side, game.turns_committed + 1, *options.entropy, now);
    if (!opened.ok()) return opened.status();
    commit.next_open = std::move(opened).value();
  }
  return commit;
}

}  // namespace pbem::daemon
