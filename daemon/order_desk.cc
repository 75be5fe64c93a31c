#include "daemon/order_desk.h"

#include "daemon/fault_point.h"
#include "daemon/mail/replies.h"
#include "daemon/reply_key.h"
#include "daemon/turn/dice.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/validate_orders.h"
#include "proto/codec/codec.h"
#include "proto/codec/systems.h"

namespace pbem::daemon {

namespace {

// Check 2's token half, every system's: the orders carry the side's token, or the reply key of
// the player-turn open now (reply_key.h). False with `outcome`'s code and detail set when
// neither; true with outcome.sender_proven set when one of them.
Result<bool> Authenticate(storage::GameRepository& repository, const storage::Game& game,
                          const storage::Player& player, const pbem::v1::Orders& orders,
                          DeskOutcome& outcome) {
  Result<bool> token_ok = orders.token().empty()
                              ? Result<bool>(false)
                              : repository.VerifyToken(game.id, player.side, orders.token());
  if (!token_ok.ok()) return token_ok.status();
  if (!*token_ok && !orders.token().empty()) {
    // A reply to a results mail carries the open turn's reply key instead (reply_key.h).
    token_ok = ReplyKeyMatches(repository, game, player.side, orders.token());
    if (!token_ok.ok()) return token_ok.status();
  }
  if (!*token_ok) {
    outcome.code = mail::kUnauthenticated;
    outcome.detail = orders.token().empty()
                         ? "the orders carry no token (field token)"
                         : "the token in the orders is not the token of side " + player.side;
    return false;
  }
  outcome.sender_proven = true;
  return true;
}

// `outcome` refused with `code` and the sentence `detail`.
DeskOutcome Refused(DeskOutcome outcome, const char* code, std::string detail) {
  outcome.code = code;
  outcome.detail = std::move(detail);
  return outcome;
}

}  // namespace

const char* ChannelName(storage::Channel channel) {
  return channel == storage::Channel::kMail ? "mail" : "http";
}

Result<DeskOutcome> OrderDesk::Submit(storage::GameRepository& repository,
                                      const storage::Game& game, const storage::Player& player,
                                      const pbem::v1::Orders& orders, const Envelope& envelope,
                                      bool record) {
  // Judged against `game` as read; stored only if the game is still there (RecordSubmission
  // checks it under the game's row lock, the lock CommitTurn takes). When a turn was committed
  // in between, judged again against the game as it is now: refused (stale_turn, the new
  // turn), since orders name their turn and side. Two rounds suffice; four to be safe.
  storage::Game current = game;
  for (int round = 1; round <= 4; ++round) {
    Result<DeskOutcome> judged = Judge(repository, current, player, orders);
    if (!judged.ok()) return judged.status();
    if (!record) return judged;
    FaultPoint(kFaultOrderDeskBeforeStore, "game=" + game.id + " side=" + player.side);
    Result<std::optional<DeskOutcome>> stored =
        Store(repository, current, std::move(judged).value(), &orders, envelope);
    if (!stored.ok()) return stored.status();
    if (stored->has_value()) return std::move(**stored);
    Result<storage::Game> fresh = repository.GetGame(game.id);
    if (!fresh.ok()) return fresh.status();
    current = std::move(fresh).value();
  }
  return Status::Internal("game " + game.id + " moved on at each of four tries to store orders");
}

Result<DeskOutcome> OrderDesk::Judge(storage::GameRepository& repository, const storage::Game& game,
                                     const storage::Player& player,
                                     const pbem::v1::Orders& orders) {
  DeskOutcome outcome;
  outcome.game_id = game.id;
  outcome.side = player.side;
  if (orders.game_id() != game.id) {
    outcome.code = mail::kWrongGame;
    outcome.detail = "the orders are for game \"" + orders.game_id() + "\"; you play in game \"" +
                     game.id + "\"";
    return outcome;
  }
  if (!game.result.empty()) {
    outcome.code = mail::kGameOver;
    outcome.detail =
        "game \"" + game.id + "\" is over (" + game.result + "): it takes no more orders";
    return outcome;
  }
  // Another system's body (or none, for a game of another system): named before the side,
  // which other systems do not give. The game names its system (storage migration 17).
  if (std::optional<std::string> wrong = codec::OrdersBodyProblem(orders, game.system)) {
    outcome.code = mail::kMalformed;
    outcome.detail = *wrong;
    return outcome;
  }
  // Orders of another system: their player, turn and body are not Morne Plaine's; judged
  // through the game-system interface. Before the side, which those orders do not give.
  if (game.system != codec::kMornePlaineSystem) {
    return JudgeSystem(repository, game, player, orders, std::move(outcome));
  }
  const std::optional<engine::Side> side = codec::SideFromProto(orders.side());
  const std::string side_name = side ? std::string(engine::SideName(*side)) : std::string();
  if (side_name != player.side) {
    outcome.code = mail::kUnauthenticated;
    outcome.detail = side
                         ? "the orders are for side " + side_name + "; you play side " + player.side
                         : "the orders name no side (field side); you play side " + player.side;
    return outcome;
  }
  Result<bool> proven = Authenticate(repository, game, player, orders, outcome);
  if (!proven.ok()) return proven.status();
  if (!*proven) return outcome;
  Result<GameContext> context = catalog_.Load(game);
  if (!context.ok()) {
    outcome.code = mail::kGameUnavailable;
    outcome.detail = context.status().message();
    return outcome;
  }
  outcome.turn = context->state.turn;
  outcome.label_width = codec::LabelWidth(context->data->scenario);
  if (context->state.finished) {  // played to its end: no turn is current, none is stale
    outcome.code = mail::kGameOver;
    outcome.detail = "game \"" + game.id + "\" is over: it takes no more orders";
    return outcome;
  }
  if (orders.turn() != context->state.turn ||
      side_name != engine::SideName(context->state.side_to_move)) {
    outcome.code = mail::kStaleTurn;
    const std::string to_move(engine::SideName(context->state.side_to_move));
    outcome.detail = "the orders are for turn " + std::to_string(orders.turn()) +
                     (side_name == to_move ? std::string() : " of side " + side_name) +
                     "; the game is at turn " + std::to_string(context->state.turn) + ", side " +
                     to_move + " to move";
    return outcome;
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
  return outcome;
}

Result<DeskOutcome> OrderDesk::JudgeSystem(storage::GameRepository& repository,
                                           const storage::Game& game, const storage::Player& player,
                                           const pbem::v1::Orders& orders, DeskOutcome outcome) {
  outcome.system = game.system;
  if (orders.player() != player.side) {
    return Refused(std::move(outcome), mail::kUnauthenticated,
                   orders.player().empty()
                       ? "the orders name no player (field player); you play " + player.side
                       : "the orders are for player " + orders.player() +
                             " (field player); you play " + player.side);
  }
  Result<bool> proven = Authenticate(repository, game, player, orders, outcome);
  if (!proven.ok()) return proven.status();
  if (!*proven) return outcome;
  Result<GameContext> context = catalog_.LoadAny(game);
  if (!context.ok()) {
    return Refused(std::move(outcome), mail::kGameUnavailable, context.status().message());
  }
  const game_system::GameSystem& system = *context->data->system;
  const game_system::Setup& setup = context->data->setup;
  const game_system::TurnInfo& waiting = context->turn;
  outcome.turn = waiting.turn;
  // A system whose verdicts follow the dice (wme) is not judged here yet: answering them
  // before the turn is played would let a player resend orders until the dice suit them.
  if (system.VerdictsFollowDice()) {
    return Refused(std::move(outcome), mail::kGameUnavailable,
                   "game \"" + game.id + "\" plays " + game.system +
                       ", whose orders succeed or fail by dice rolled when the turn is played: "
                       "pbemd does not take orders for that system's games yet; their turns are "
                       "played at their deadlines");
  }
  if (context->finished) {
    return Refused(std::move(outcome), mail::kGameOver,
                   "game \"" + game.id + "\" is over: it takes no more orders");
  }
  if (orders.turn() != waiting.turn || orders.player() != waiting.side) {
    return Refused(
        std::move(outcome), mail::kStaleTurn,
        "the orders are for turn " + std::to_string(orders.turn()) +
            (orders.player() == waiting.side ? std::string() : " of player " + orders.player()) +
            "; the game is at turn " + std::to_string(waiting.turn) + ", " + waiting.side +
            " to move");
  }
  // Exactly the bytes Store keeps and the turn loop resolves (CanonicalOrdersEnvelope of them
  // gives them back), read and hashed into the dice key as the turn loop does
  // (daemon/turn/system_turn.cc, ResolveSystemTurn).
  const std::string canonical = codec::CanonicalOrders(orders);
  game_system::Result<game_system::Orders> decoded = system.DecodeOrders(setup, canonical);
  if (!decoded.ok()) {
    return Refused(std::move(outcome), mail::kMalformed, decoded.status().message());
  }
  // The dice the turn will be resolved with: the open turn's seed, drawn when it opened. Not
  // open yet (the turn loop opens it at once after the previous commit): no verdicts can be
  // promised, and none are guessed.
  Result<storage::OpenTurn> open = repository.GetOpenTurn(game.id, waiting.turn, waiting.side);
  if (!open.ok() && open.status().code() != StatusCode::kNotFound) return open.status();
  if (!open.ok() || open->based_on != game.turns_committed) {
    return Refused(std::move(outcome), mail::kGameUnavailable,
                   "turn " + std::to_string(waiting.turn) + " of game \"" + game.id +
                       "\" is not open yet: try again in a moment");
  }
  // The verdicts answered are those of the real dice (the seed is the turn's, the key the
  // orders' bytes). Only systems whose verdicts do not follow the dice get here (above): were
  // they to, a player could resubmit the same orders with any change to their bytes (even their
  // `message`) to draw other dice and keep the best.
  game_system::Result<std::vector<game_system::Verdict>> verdicts = system.CheckOrders(
      setup, context->system_state, *decoded, DiceKey(open->dice_seed, canonical));
  if (!verdicts.ok()) {
    return Refused(std::move(outcome),
                   verdicts.status().code() == game_system::StatusCode::kInvalidArgument
                       ? mail::kMalformed
                       : mail::kGameUnavailable,
                   verdicts.status().message());
  }
  outcome.system_verdicts = std::move(verdicts).value();
  for (const game_system::Verdict& v : outcome.system_verdicts) {
    // Neither M42 nor wme gives a header verdict today; the rule is Morne Plaine's. The detail
    // (stored, logged) names the reason code; the answers word the verdicts themselves.
    if (v.order == "header" && v.kind != game_system::VerdictKind::kOk) {
      const std::string reason = v.reason;
      return Refused(std::move(outcome), mail::kRejectedOrders,
                     "the orders are refused as a whole (header verdict " + reason + ")");
    }
  }
  outcome.accepted = true;
  return outcome;
}

Result<DeskOutcome> OrderDesk::Refuse(storage::GameRepository& repository,
                                      const storage::Game& game, const std::string& code,
                                      const std::string& detail, const Envelope& envelope) {
  DeskOutcome outcome;
  outcome.game_id = game.id;
  outcome.code = code;
  outcome.detail = detail;
  Result<std::optional<DeskOutcome>> stored =
      Store(repository, game, std::move(outcome), nullptr, envelope);
  if (!stored.ok()) return stored.status();
  return std::move(**stored);  // a refusal is never stale
}

Result<std::optional<DeskOutcome>> OrderDesk::Store(storage::GameRepository& repository,
                                                    const storage::Game& game, DeskOutcome outcome,
                                                    const pbem::v1::Orders* orders,
                                                    const Envelope& envelope) {
  storage::NewSubmission submission;
  submission.game_id = game.id;
  submission.turn = game.turns_committed;
  submission.side = outcome.side;
  // What the turn is resolved with: the orders as validated (no token), not `raw` read again.
  if (outcome.accepted && orders != nullptr) submission.orders = codec::CanonicalOrders(*orders);
  submission.channel = envelope.channel;
  submission.sender = envelope.sender;
  submission.message_id = envelope.message_id;
  submission.raw = envelope.raw;
  submission.received_at = envelope.received_at;
  submission.accepted = outcome.accepted;
  submission.reason = outcome.accepted ? std::string() : outcome.code + ": " + outcome.detail;
  if (!outcome.accepted && !envelope.sender_proven && !outcome.sender_proven &&
      submission.raw.size() > kUnprovenRawKept) {
    submission.reason += " (" + std::to_string(envelope.raw.size()) +
                         " bytes received from a sender not proven by a token; the first " +
                         std::to_string(kUnprovenRawKept) + " kept)";
    submission.raw.resize(kUnprovenRawKept);
  }
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
  if (recorded->stale) return std::optional<DeskOutcome>();
  outcome.submission_id = recorded->id;
  outcome.duplicate = recorded->duplicate;
  if (outcome.duplicate) {
    // Only an accepted submission of the same side is ever an original: what the player is
    // told is that it was accepted (the same mail again, or a retry of the latest orders).
    outcome.accepted = true;
    outcome.code.clear();
    outcome.detail.clear();
  }
  if (outcome.duplicate) {
    metrics_.SubmissionDuplicate();
  } else if (outcome.accepted) {
    metrics_.SubmissionAccepted(ChannelName(envelope.channel));
    if (on_accepted_) on_accepted_(game.id);
  } else {
    metrics_.SubmissionRejected(ChannelName(envelope.channel), outcome.code);
  }
  return std::optional<DeskOutcome>(std::move(outcome));
}

}  // namespace pbem::daemon
