// The turn loop for the games of another system than Morne Plaine (M42, wme): ResolveOnce's and
// NextWake's decisions, in the same order, through the game-system interface
// (engine/system/game_system.h) and the system turn job (daemon/turn/system_turn.h). Orders
// are the canonical orders envelopes the desk stored; a missed turn plays the empty envelope
// (EmptyOrdersEnvelope); the results mails are RenderSystemResults'.
#include <utility>

#include "daemon/fault_point.h"
#include "daemon/player_mail.h"
#include "daemon/turn_loop.h"
#include "proto/codec/systems.h"

namespace pbem::daemon {

Result<std::optional<TurnLoop::PendingEnvelope>> TurnLoop::FindSystemOrders(
    storage::GameRepository& repository, const std::string& game_id, std::int64_t turns_committed,
    const std::string& player) {
  Result<std::vector<storage::Submission>> submissions =
      repository.ListTurnSubmissions(game_id, turns_committed);
  if (!submissions.ok()) return submissions.status();
  for (auto it = submissions->rbegin(); it != submissions->rend(); ++it) {
    if (!it->accepted || it->turn != turns_committed || it->side != player) continue;
    // The orders exactly as the desk validated them: never the raw bytes read again.
    if (it->orders.empty()) {
      return Status::Internal("game " + game_id + ": accepted submission " +
                              std::to_string(it->id) + " holds no validated orders");
    }
    return std::optional<PendingEnvelope>(PendingEnvelope{it->orders, it->id});
  }
  return std::optional<PendingEnvelope>();
}

Result<std::optional<bool>> TurnLoop::ResolveSystemOnce(storage::GameRepository& repository,
                                                        const storage::Game& game,
                                                        storage::Timestamp now, GameVisit& visit) {
  bool wrote = false;
  const auto idle = [&visit, &wrote](std::optional<storage::Timestamp> wake) {
    visit.wake_known = !wrote;
    visit.wake = wake;
    return Result<std::optional<bool>>(false);
  };
  Result<GameContext> context = catalog_.LoadAny(game);
  if (!context.ok()) return context.status();
  const ScenarioData& data = *context->data;
  const game_system::GameSystem& system = *data.system;
  if (context->finished || !game.result.empty() || game.paused_at) return idle(std::nullopt);
  if (auto ended = ForfeitTry(repository, game, now)) return *ended;
  Result<OpenedTurn> opened =
      OpenSystemTurn(repository, system, data.setup, game.id, entropy_, now);
  if (!opened.ok()) return opened.status();
  wrote = opened->recorded;
  const game_system::TurnInfo turn = context->turn;

  Result<std::optional<PendingEnvelope>> pending =
      FindSystemOrders(repository, game.id, game.turns_committed, turn.side);
  if (!pending.ok()) return pending.status();
  SystemCommitPlan plan;
  plan.based_on = game.turns_committed;
  plan.entropy = &entropy_;
  Bytes envelope;
  if (pending->has_value()) {
    envelope = std::move((*pending)->envelope);
    plan.played_submission = (*pending)->submission_id;
  } else {
    const std::optional<storage::Timestamp> deadline = Deadline(game, opened->stored);
    if (!deadline) return idle(std::nullopt);
    if (now < *deadline + options_.grace) {
      Result<bool> reminded =
          MaybeRemind(repository, game, turn.turn, std::nullopt, opened->stored, *deadline, now);
      if (!reminded.ok()) return reminded.status();
      if (*reminded) wrote = true;
      return idle(WaitingWake(game, opened->stored, *deadline));
    }
    plan.missed = true;
    std::optional<std::string> empty =
        codec::EmptyOrdersEnvelope(game.system, game.id, turn.turn, turn.side);
    if (!empty) {
      return Status::Internal("game " + game.id + ": no empty orders for " + turn.side +
                              " of system " + game.system);
    }
    envelope = std::move(*empty);
  }
  Result<std::vector<storage::Player>> players = repository.ListPlayers(game.id);
  if (!players.ok()) return players.status();
  std::size_t mail_count = 0;
  plan.aftermath = [&](const game_system::State&, const SystemResolution& resolution,
                       const storage::OpenTurn& open,
                       const std::optional<storage::OpenTurn>& next) -> Result<TurnAftermath> {
    Result<std::vector<storage::NewMail>> mails = SystemResultsMails(
        *players, game, system, data.setup, resolution, open, next, now, plan.missed);
    if (!mails.ok()) return mails.status();
    TurnAftermath after;
    after.mails = std::move(*mails);
    if (plan.missed) ForfeitWithMissedTurn(*players, turn.side, game.id, now, after);
    mail_count = after.mails.size();
    return after;
  };
  FaultPoint(kFaultTurnLoopBeforeCommit, "game=" + game.id);
  Result<SystemCommittedTurn> committed =
      ResolveAndCommitSystemTurn(repository, system, data.setup, game.id, envelope, now, plan);
  return CommitTry(committed.status(), committed.ok() && committed->committed.replayed, mail_count);
}

Result<std::optional<storage::Timestamp>> TurnLoop::SystemNextWake(
    storage::GameRepository& repository, const storage::Game& game, storage::Timestamp now) {
  using Wake = std::optional<storage::Timestamp>;
  Result<GameContext> context = catalog_.LoadAny(game);
  if (!context.ok()) return context.status();
  if (context->finished || !game.result.empty() || game.paused_at) return Wake();
  if (options_.forfeit_after_missed > 0) {
    Result<std::vector<storage::Player>> players = repository.ListPlayers(game.id);
    if (!players.ok()) return players.status();
    for (const storage::Player& player : *players) {
      if (player.missed_turns >= options_.forfeit_after_missed) return Wake(now);
    }
  }
  const game_system::TurnInfo& turn = context->turn;
  Result<storage::OpenTurn> open = repository.GetOpenTurn(game.id, turn.turn, turn.side);
  if (!open.ok() && open.status().code() == StatusCode::kNotFound) return Wake(now);
  if (!open.ok()) return open.status();
  Result<std::optional<PendingEnvelope>> pending =
      FindSystemOrders(repository, game.id, game.turns_committed, turn.side);
  if (!pending.ok()) return pending.status();
  if (pending->has_value()) return Wake(now);
  const std::optional<storage::Timestamp> deadline = Deadline(game, *open);
  if (!deadline) return Wake();
  return Wake(WaitingWake(game, *open, *deadline));
}

Result<std::vector<storage::NewMail>> TurnLoop::SystemResultsMails(
    const std::vector<storage::Player>& players, const storage::Game& game,
    const game_system::GameSystem& system, const game_system::Setup& setup,
    const SystemResolution& resolution, const storage::OpenTurn& open,
    const std::optional<storage::OpenTurn>& next, storage::Timestamp now, bool orders_missed) {
  const std::string what = "the results of turn " + std::to_string(resolution.played.turn) + " " +
                           resolution.played.side + " of game " + game.id;
  templates::SystemResultsInput input;
  input.system = game.system;
  input.game_id = game.id;
  input.turn = resolution.played.turn;
  input.side = resolution.played.side;
  input.verdicts = resolution.resolution.verdicts;
  input.events = resolution.resolution.events;
  input.orders_missed = orders_missed;
  // The mover's message to the others: the envelope's own field, as the desk accepted it.
  input.message = codec::OrdersMessage(resolution.canonical_orders).value_or("");
  input.revealed_seed = Hex(open.dice_seed);
  input.finished = resolution.finished;
  if (resolution.finished) {
    const game_system::Result<game_system::Outcome> outcome =
        system.GameOutcome(setup, resolution.resolution.next);
    if (!outcome.ok()) return Status::Internal(what + ": " + outcome.status().message());
    input.winner = outcome->winner.value_or("");
    input.draw = !outcome->winner.has_value();
  }
  if (resolution.next_turn) {
    input.next_turn = resolution.next_turn->turn;
    input.next_side = resolution.next_turn->side;
  }
  NextTurnWords(game, next, input.next_commitment, input.next_deadline);
  std::vector<storage::NewMail> mails;
  for (const storage::Player& player : players) {
    input.player = player.mail_address;
    input.player_name = player.name;
    templates::Mail mail;
    if (templates::Status rendered =
            templates_.RenderSystemResults(LanguageOf(player), input, &mail);
        !rendered.ok) {
      return Status::Internal(what + ": rendering the mail of " + player.side + ": " +
                              rendered.message);
    }
    mails.push_back(NewMailOf(player.mail_address, mail, now));
  }
  return mails;
}

}  // namespace pbem::daemon
