#include "daemon/turn/turn_job.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "engine/core/dice.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/turn.h"
#include "proto/codec/codec.h"

namespace pbem::daemon {

namespace {

std::string SideText(engine::Side side) { return std::string(engine::SideName(side)); }

Result<engine::GameState> StateFromBytes(const Bytes& bytes, const engine::Scenario& scenario,
                                         const std::string& what) {
  pbem::v1::GameState proto;
  if (!proto.ParseFromString(bytes)) {
    return Status::InvalidArgument(what + ": the stored state is not a pbem.v1.GameState");
  }
  codec::Result<engine::GameState> state = codec::StateFromProto(proto, scenario);
  if (!state.ok()) return Status::InvalidArgument(what + ": " + state.ErrorText());
  return std::move(state).value();
}

}  // namespace

storage::NewGame MakeNewGame(const pbem::v1::Ruleset& ruleset_proto,
                             const pbem::v1::Scenario& scenario_proto,
                             const engine::Scenario& scenario, const std::string& game_id,
                             storage::Timestamp now) {
  storage::NewGame game;
  game.id = game_id;
  game.scenario = scenario_proto.name();
  game.ruleset_name = ruleset_proto.name();
  game.ruleset_version = ruleset_proto.version();
  game.engine_version = std::string(kEngineVersion);
  game.initial_state = codec::SerializeMessage(
      codec::StateToProto(engine::InitialState(scenario, game_id), scenario),
      codec::Format::kBinary);
  game.ruleset_proto = codec::SerializeMessage(ruleset_proto, codec::Format::kBinary);
  game.scenario_proto = codec::SerializeMessage(scenario_proto, codec::Format::kBinary);
  game.created_at = now;
  return game;
}

Result<engine::GameState> CurrentState(storage::GameRepository& repository,
                                       const engine::Scenario& scenario,
                                       const std::string& game_id) {
  Result<storage::Game> game = repository.GetGame(game_id);
  if (!game.ok()) return game.status();
  return StateFromBytes(game->state, scenario, "game " + game_id);
}

Result<OpenedTurn> OpenTurn(storage::GameRepository& repository, const engine::Scenario& scenario,
                            const std::string& game_id, EntropySource& entropy,
                            storage::Timestamp now) {
  Result<storage::Game> game = repository.GetGame(game_id);
  if (!game.ok()) return game.status();
  Result<engine::GameState> state = StateFromBytes(game->state, scenario, "game " + game_id);
  if (!state.ok()) return state.status();
  return OpenTurn(repository, *game, *state, entropy, now);
}

Result<OpenedTurn> OpenTurn(storage::GameRepository& repository, const storage::Game& game,
                            const engine::GameState& state, EntropySource& entropy,
                            storage::Timestamp now) {
  const std::string& game_id = game.id;
  if (state.finished) {
    return Status::FailedPrecondition("opening a turn of game " + game_id +
                                      ": the game is finished");
  }
  return OpenOrReuseTurn(repository, game, state.turn, SideText(state.side_to_move), entropy, now);
}

Resolution ResolveWithSeed(const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                           const engine::GameState& state, const pbem::v1::Orders& orders,
                           const Bytes& seed, codec::TurnResultFormat format) {
  Resolution out;
  out.canonical_orders = codec::CanonicalOrders(orders);
  pbem::v1::Orders canonical;
  // The canonical bytes are resolved, so that a verifier holding only them gets the same turn.
  canonical.ParseFromString(out.canonical_orders);
  engine::SeededDice dice(DiceKey(seed, out.canonical_orders));
  const engine::TurnResult result =
      engine::ResolvePlayerTurn(ruleset, scenario, state, codec::OrdersFromProto(canonical), dice);
  out.result_proto =
      codec::TurnResultToProto(result, scenario, state.turn, state.side_to_move, format);
  *out.result_proto.mutable_dice() = RevealedCommitmentFor(seed);
  out.result = codec::SerializeMessage(out.result_proto, codec::Format::kBinary);
  out.next_state = codec::SerializeMessage(codec::StateToProto(result.next_state, scenario),
                                           codec::Format::kBinary);
  out.next = result.next_state;
  return out;
}

Result<ResolvedTurn> ResolveAndCommit(storage::GameRepository& repository,
                                      const engine::Ruleset& ruleset,
                                      const engine::Scenario& scenario, const std::string& game_id,
                                      const pbem::v1::Orders& orders, storage::Timestamp now,
                                      std::vector<storage::NewMail> mails) {
  CommitPlan plan;
  plan.aftermath = [&mails](const engine::GameState&, const Resolution&, const storage::OpenTurn&,
                            const std::optional<storage::OpenTurn>&) -> Result<TurnAftermath> {
    return TurnAftermath{std::move(mails), {}};
  };
  return ResolveAndCommit(repository, ruleset, scenario, game_id, orders, now, plan);
}

Result<ResolvedTurn> ResolveAndCommit(storage::GameRepository& repository,
                                      const engine::Ruleset& ruleset,
                                      const engine::Scenario& scenario, const std::string& game_id,
                                      const pbem::v1::Orders& orders, storage::Timestamp now,
                                      const CommitPlan& plan) {
  Result<storage::Game> game = repository.GetGame(game_id);
  if (!game.ok()) return game.status();
  const std::string what = "resolving game " + game_id;
  if (Status position = CheckPosition(*game, plan.based_on, what); !position.ok()) return position;
  Result<engine::GameState> state = StateFromBytes(game->state, scenario, what);
  if (!state.ok()) return state.status();
  const std::string side = SideText(state->side_to_move);
  const std::string turn_what = what + " turn " + std::to_string(state->turn) + " " + side;
  // A retry of a turn committed since (or by another process): hand back what was stored.
  const std::optional<engine::Side> header_side = codec::SideFromProto(orders.side());
  if (orders.turn() != 0 && header_side &&
      (orders.turn() != state->turn || *header_side != state->side_to_move)) {
    Result<std::optional<storage::CommittedTurn>> stored =
        StoredCommit(repository, game_id, orders.turn(), SideText(*header_side));
    if (!stored.ok()) return stored.status();
    if (*stored) {
      ResolvedTurn out;
      out.committed = std::move(**stored);
      if (!out.result.ParseFromString(out.committed.turn.result)) {
        return Status::Internal(turn_what + ": the stored result does not parse");
      }
      return out;
    }
  }
  if (state->finished) return Status::FailedPrecondition(turn_what + ": the game is finished");
  Result<storage::OpenTurn> open =
      OpenTurnToResolve(repository, game_id, state->turn, side, turn_what, "OpenTurn");
  if (!open.ok()) return open.status();
  const Resolution resolution = ResolveWithSeed(ruleset, scenario, *state, orders, open->dice_seed);

  std::optional<NextTurn> next;
  if (!resolution.next.finished) {
    next = NextTurn{resolution.next.turn, SideText(resolution.next.side_to_move)};
  }
  Result<storage::TurnCommit> made =
      TurnCommitOf(*game, *open, plan, resolution.canonical_orders, resolution.result,
                   resolution.next_state, next, now);
  if (!made.ok()) return made.status();
  storage::TurnCommit& commit = *made;
  if (plan.aftermath) {
    Result<TurnAftermath> after = plan.aftermath(*state, resolution, *open, commit.next_open);
    if (!after.ok()) return after.status();
    commit.mails = std::move(after->mails);
    commit.end = std::move(after->end);
  }
  Result<storage::CommittedTurn> committed = repository.CommitTurn(commit);
  if (!committed.ok()) return committed.status();
  ResolvedTurn out;
  out.committed = std::move(committed).value();
  if (!out.result.ParseFromString(out.committed.turn.result)) {
    return Status::Internal(turn_what + ": the stored result does not parse");
  }
  return out;
}

std::chrono::milliseconds ClampedDuration(std::chrono::milliseconds d) {
  return std::chrono::milliseconds(std::clamp<std::int64_t>(d.count(), 0, kFarFutureMs));
}

std::chrono::milliseconds ClampedDuration(std::chrono::seconds d) {
  if (d.count() > kFarFutureMs / 1000) return std::chrono::milliseconds(kFarFutureMs);
  return ClampedDuration(std::chrono::milliseconds(d));
}

std::optional<storage::Timestamp> TurnDeadline(const storage::Game& game,
                                               const storage::OpenTurn& open) {
  if (game.deadlines.turn_timeout.count() <= 0) return std::nullopt;
  const storage::Timestamp opened(ClampedDuration(open.opened_at.time_since_epoch()));
  return std::min(
      opened + ClampedDuration(game.deadlines.turn_timeout) + ClampedDuration(open.paused),
      storage::Timestamp(std::chrono::milliseconds(kFarFutureMs)));
}

}  // namespace pbem::daemon
