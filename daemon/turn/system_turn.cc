#include "daemon/turn/system_turn.h"

#include <utility>
#include <vector>

#include "engine/system/status.h"
#include "proto/codec/systems.h"

namespace pbem::daemon {

namespace {

namespace gs = game_system;

// A game system's failure as the daemon's Status, the system's words after `context`: bad
// bytes or data stay INVALID_ARGUMENT, what the system's engine cannot do yet is a
// FAILED_PRECONDITION of the game.
Status FromSystem(const std::string& context, const gs::Status& status) {
  std::string message = context + ": " + status.message();
  switch (status.code()) {
    case gs::StatusCode::kInvalidArgument:
      return Status::InvalidArgument(std::move(message));
    case gs::StatusCode::kNotFound:
    case gs::StatusCode::kUnknownSystem:
      return Status::NotFound(std::move(message));
    case gs::StatusCode::kNotSupported:
      return Status::FailedPrecondition(std::move(message));
    case gs::StatusCode::kOk:
      break;
  }
  return Status::Internal(std::move(message));
}

Result<gs::State> StateOf(const gs::GameSystem& system, const gs::Setup& setup,
                          const storage::Game& game, const std::string& what) {
  gs::Result<gs::State> state = system.DecodeState(setup, game.state);
  if (!state.ok()) return FromSystem(what, state.status());
  return std::move(state).value();
}

Result<gs::TurnInfo> TurnOf(const gs::GameSystem& system, const gs::Setup& setup,
                            const gs::State& state, const std::string& what) {
  gs::Result<gs::TurnInfo> turn = system.WhoseTurn(setup, state);
  if (!turn.ok()) return FromSystem(what, turn.status());
  return *turn;
}

}  // namespace

Result<storage::NewGame> MakeSystemGame(const gs::GameSystem& system, const gs::Setup& setup,
                                        const std::string& game_id, storage::Timestamp now,
                                        const SystemGamePins& pins) {
  const std::string what = "creating game " + game_id;
  gs::Result<gs::State> initial = system.InitialState(setup, game_id);
  if (!initial.ok()) return FromSystem(what, initial.status());
  gs::Result<std::string> bytes = system.EncodeState(setup, *initial);
  if (!bytes.ok()) return FromSystem(what, bytes.status());
  storage::NewGame game;
  game.id = game_id;
  game.system = std::string(system.name());
  game.scenario = pins.scenario;
  game.ruleset_name = pins.ruleset_name;
  game.ruleset_version = pins.ruleset_version;
  game.engine_version = std::string(kEngineVersion);
  game.initial_state = std::move(bytes).value();
  game.ruleset_proto = pins.ruleset_bytes;
  game.scenario_proto = pins.scenario_bytes;
  game.created_at = now;
  return game;
}

Result<gs::State> CurrentSystemState(storage::GameRepository& repository,
                                     const gs::GameSystem& system, const gs::Setup& setup,
                                     const std::string& game_id) {
  Result<storage::Game> game = repository.GetGame(game_id);
  if (!game.ok()) return game.status();
  return StateOf(system, setup, *game, "game " + game_id);
}

Result<bool> SystemGameFinished(const gs::GameSystem& system, const gs::Setup& setup,
                                const gs::State& state) {
  gs::Result<gs::Outcome> outcome = system.GameOutcome(setup, state);
  if (outcome.ok()) return outcome->finished;
  if (outcome.status().code() == gs::StatusCode::kNotSupported) return false;
  return FromSystem(std::string(system.name()) + ": the game's outcome", outcome.status());
}

Result<OpenedTurn> OpenSystemTurn(storage::GameRepository& repository, const gs::GameSystem& system,
                                  const gs::Setup& setup, const std::string& game_id,
                                  EntropySource& entropy, storage::Timestamp now) {
  Result<storage::Game> game = repository.GetGame(game_id);
  if (!game.ok()) return game.status();
  const std::string what = "opening a turn of game " + game_id;
  Result<gs::State> state = StateOf(system, setup, *game, what);
  if (!state.ok()) return state.status();
  Result<bool> finished = SystemGameFinished(system, setup, *state);
  if (!finished.ok()) return finished.status();
  if (*finished) return Status::FailedPrecondition(what + ": the game is finished");
  Result<gs::TurnInfo> turn = TurnOf(system, setup, *state, what);
  if (!turn.ok()) return turn.status();
  return OpenOrReuseTurn(repository, *game, turn->turn, turn->side, entropy, now);
}

namespace {

// ResolveSystemTurn, its failures named after `what`.
Result<SystemResolution> Resolve(const gs::GameSystem& system, const gs::Setup& setup,
                                 const gs::State& state, std::string_view orders_envelope,
                                 const Bytes& seed, const std::string& what) {
  std::optional<std::string> canonical = codec::CanonicalOrdersEnvelope(orders_envelope);
  if (!canonical) {
    return Status::InvalidArgument(what +
                                   ": the orders are not an orders envelope "
                                   "(binary pbem.v1.Orders)");
  }
  SystemResolution out;
  out.canonical_orders = std::move(*canonical);
  out.dice_key = DiceKey(seed, out.canonical_orders);
  Result<gs::TurnInfo> played = TurnOf(system, setup, state, what);
  if (!played.ok()) return played.status();
  out.played = *played;
  // The canonical bytes are resolved, so that a verifier holding only them gets the same turn.
  gs::Result<gs::Orders> orders = system.DecodeOrders(setup, out.canonical_orders);
  if (!orders.ok()) return FromSystem(what, orders.status());
  gs::Result<gs::TurnResolution> resolution =
      system.ResolvePlayerTurn(setup, state, *orders, out.dice_key);
  if (!resolution.ok()) return FromSystem(what, resolution.status());
  out.resolution = std::move(resolution).value();
  gs::Result<std::string> result = system.EncodeTurnResult(setup, state, out.resolution);
  if (!result.ok()) return FromSystem(what, result.status());
  std::optional<std::string> revealed =
      codec::TurnResultWithDice(*result, RevealedCommitmentFor(seed));
  if (!revealed) {
    return Status::Internal(what + ": the system's turn result is not a turn-result envelope");
  }
  out.result = std::move(*revealed);
  gs::Result<std::string> next_state = system.EncodeState(setup, out.resolution.next);
  if (!next_state.ok()) return FromSystem(what, next_state.status());
  out.next_state = std::move(next_state).value();
  Result<bool> finished = SystemGameFinished(system, setup, out.resolution.next);
  if (!finished.ok()) return finished.status();
  out.finished = *finished;
  if (!out.finished) {
    Result<gs::TurnInfo> next = TurnOf(system, setup, out.resolution.next, what);
    if (!next.ok()) return next.status();
    out.next_turn = *next;
  }
  return out;
}

}  // namespace

Result<SystemResolution> ResolveSystemTurn(const gs::GameSystem& system, const gs::Setup& setup,
                                           const gs::State& state, std::string_view orders_envelope,
                                           const Bytes& seed) {
  return Resolve(system, setup, state, orders_envelope, seed,
                 "resolving a " + std::string(system.name()) + " turn");
}

Result<SystemCommittedTurn> ResolveAndCommitSystemTurn(
    storage::GameRepository& repository, const gs::GameSystem& system, const gs::Setup& setup,
    const std::string& game_id, std::string_view orders_envelope, storage::Timestamp now,
    const SystemCommitPlan& plan) {
  Result<storage::Game> game = repository.GetGame(game_id);
  if (!game.ok()) return game.status();
  const std::string what = "resolving game " + game_id;
  if (Status position = CheckPosition(*game, plan.based_on, what); !position.ok()) return position;
  Result<gs::State> state = StateOf(system, setup, *game, what);
  if (!state.ok()) return state.status();
  Result<gs::TurnInfo> turn = TurnOf(system, setup, *state, what);
  if (!turn.ok()) return turn.status();
  const std::string turn_what = what + " turn " + std::to_string(turn->turn) + " " + turn->side;
  // A retry of a turn committed since (or by another process): hand back what was stored.
  const std::optional<gs::TurnInfo> header = codec::OrdersHeader(orders_envelope);
  if (header && header->turn != 0 && !header->side.empty() && *header != *turn) {
    Result<std::optional<storage::CommittedTurn>> stored =
        StoredCommit(repository, game_id, header->turn, header->side);
    if (!stored.ok()) return stored.status();
    if (*stored) return SystemCommittedTurn{std::move(**stored), std::nullopt};
  }
  Result<bool> finished = SystemGameFinished(system, setup, *state);
  if (!finished.ok()) return finished.status();
  if (*finished) return Status::FailedPrecondition(turn_what + ": the game is finished");
  Result<storage::OpenTurn> open =
      OpenTurnToResolve(repository, game_id, turn->turn, turn->side, turn_what, "OpenSystemTurn");
  if (!open.ok()) return open.status();
  Result<SystemResolution> resolution =
      Resolve(system, setup, *state, orders_envelope, open->dice_seed, turn_what);
  if (!resolution.ok()) return resolution.status();

  std::optional<NextTurn> next;
  if (resolution->next_turn)
    next = NextTurn{resolution->next_turn->turn, resolution->next_turn->side};
  Result<storage::TurnCommit> made =
      TurnCommitOf(*game, *open, plan, resolution->canonical_orders, resolution->result,
                   resolution->next_state, next, now);
  if (!made.ok()) return made.status();
  storage::TurnCommit& commit = *made;
  if (plan.aftermath) {
    Result<TurnAftermath> after = plan.aftermath(*state, *resolution, *open, commit.next_open);
    if (!after.ok()) return after.status();
    commit.mails = std::move(after->mails);
    commit.end = std::move(after->end);
  }
  Result<storage::CommittedTurn> committed = repository.CommitTurn(commit);
  if (!committed.ok()) return committed.status();
  SystemCommittedTurn out;
  out.committed = std::move(committed).value();
  if (!out.committed.replayed) out.resolution = std::move(resolution).value();
  return out;
}

}  // namespace pbem::daemon
