#include "daemon/order_desk.h"

#include "daemon/mail/replies.h"
#include "engine/ids.h"
#include "engine/validate_orders.h"
#include "proto/codec/codec.h"

namespace pbem::daemon {

const char* ChannelName(storage::Channel channel) {
  return channel == storage::Channel::kMail ? "mail" : "http";
}

Result<DeskOutcome> OrderDesk::Submit(storage::GameRepository& repository,
                                      const storage::Game& game, const storage::Player& player,
                                      const pbem::v1::Orders& orders, const Envelope& envelope,
                                      bool record) {
  DeskOutcome outcome;
  outcome.game_id = game.id;
  outcome.side = player.side;
  if (orders.game_id() != game.id) {
    outcome.code = mail::kWrongGame;
    outcome.detail = "the orders are for game \"" + orders.game_id() + "\"; you play in game \"" +
                     game.id + "\"";
    return Store(repository, game, std::move(outcome), envelope, record);
  }
  if (!game.result.empty()) {
    outcome.code = mail::kGameOver;
    outcome.detail =
        "game \"" + game.id + "\" is over (" + game.result + "): it takes no more orders";
    return Store(repository, game, std::move(outcome), envelope, record);
  }
  const std::optional<engine::Side> side = codec::SideFromProto(orders.side());
  const std::string side_name = side ? std::string(engine::SideName(*side)) : std::string();
  if (side_name != player.side) {
    outcome.code = mail::kUnauthenticated;
    outcome.detail = side
                         ? "the orders are for side " + side_name + "; you play side " + player.side
                         : "the orders name no side (field side); you play side " + player.side;
    return Store(repository, game, std::move(outcome), envelope, record);
  }
  Result<bool> token_ok = orders.token().empty()
                              ? Result<bool>(false)
                              : repository.VerifyToken(game.id, player.side, orders.token());
  if (!token_ok.ok()) return token_ok.status();
  if (!*token_ok) {
    outcome.code = mail::kUnauthenticated;
    outcome.detail = orders.token().empty()
                         ? "the orders carry no token (field token)"
                         : "the token in the orders is not the token of side " + player.side;
    return Store(repository, game, std::move(outcome), envelope, record);
  }
  Result<GameContext> context = catalog_.Load(game);
  if (!context.ok()) {
    outcome.code = mail::kGameUnavailable;
    outcome.detail = context.status().message();
    return Store(repository, game, std::move(outcome), envelope, record);
  }
  outcome.turn = context->state.turn;
  outcome.label_width = codec::LabelWidth(context->data->scenario);
  if (context->state.finished) {  // played to its end: no turn is current, none is stale
    outcome.code = mail::kGameOver;
    outcome.detail = "game \"" + game.id + "\" is over: it takes no more orders";
    return Store(repository, game, std::move(outcome), envelope, record);
  }
  if (orders.turn() != context->state.turn) {
    outcome.code = mail::kStaleTurn;
    outcome.detail = "the orders are for turn " + std::to_string(orders.turn()) +
                     "; the game is at turn " + std::to_string(context->state.turn);
    return Store(repository, game, std::move(outcome), envelope, record);
  }
  const engine::Orders engine_orders = codec::OrdersFromProto(orders);
  outcome.verdicts = engine::ValidateOrders(context->data->ruleset, context->data->scenario,
                                            context->state, engine_orders);
  for (const engine::OrderVerdict& v : outcome.verdicts) {
    if (v.order_kind == engine::OrderKind::kHeader && v.verdict != engine::VerdictKind::kOk) {
      outcome.code = mail::kRejectedOrders;
      outcome.detail = mail::VerdictText(v, outcome.label_width);
      break;
    }
  }
  outcome.accepted = outcome.code.empty();
  return Store(repository, game, std::move(outcome), envelope, record);
}

Result<DeskOutcome> OrderDesk::Refuse(storage::GameRepository& repository,
                                      const storage::Game& game, const std::string& code,
                                      const std::string& detail, const Envelope& envelope) {
  DeskOutcome outcome;
  outcome.game_id = game.id;
  outcome.code = code;
  outcome.detail = detail;
  return Store(repository, game, std::move(outcome), envelope, true);
}

Result<DeskOutcome> OrderDesk::Store(storage::GameRepository& repository, const storage::Game& game,
                                     DeskOutcome outcome, const Envelope& envelope, bool record) {
  if (!record) return outcome;
  storage::NewSubmission submission;
  submission.game_id = game.id;
  submission.turn = game.turns_committed;
  submission.channel = envelope.channel;
  submission.sender = envelope.sender;
  submission.message_id = envelope.message_id;
  submission.raw = envelope.raw;
  submission.received_at = envelope.received_at;
  submission.accepted = outcome.accepted;
  submission.reason = outcome.accepted ? std::string() : outcome.code + ": " + outcome.detail;
  if (!outcome.verdicts.empty()) {
    pbem::v1::TurnResult verdicts;
    verdicts.set_format_version(1);
    verdicts.set_game_id(game.id);
    verdicts.set_turn(static_cast<std::int32_t>(outcome.turn));
    for (const engine::OrderVerdict& v : outcome.verdicts) {
      *verdicts.add_verdicts() = codec::VerdictToProto(v);
    }
    verdicts.SerializeToString(&submission.verdicts);
  }
  Result<storage::RecordedSubmission> recorded = repository.RecordSubmission(submission);
  if (!recorded.ok()) return recorded.status();
  outcome.submission_id = recorded->id;
  outcome.duplicate = recorded->duplicate;
  if (outcome.duplicate) {
    metrics_.SubmissionDuplicate();
  } else if (outcome.accepted) {
    metrics_.SubmissionAccepted(ChannelName(envelope.channel));
    if (on_accepted_) on_accepted_(game.id);
  } else {
    metrics_.SubmissionRejected(ChannelName(envelope.channel), outcome.code);
  }
  return outcome;
}

}  // namespace pbem::daemon
