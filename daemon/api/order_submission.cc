#include "daemon/api/order_submission.h"

#include <Poco/JSON/Array.h>
#include <Poco/String.h>

#include <memory>
#include <vector>

#include "daemon/game_catalog.h"
#include "daemon/mail/replies.h"
#include "daemon/mail/scan.h"
#include "daemon/order_desk.h"
#include "daemon/text_body.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/reach.h"
#include "proto/codec/codec.h"

namespace pbem::daemon::api {
namespace {

HTTPResponse::HTTPStatus StatusForCode(const std::string& code) {
  if (code == mail::kMalformed) return HTTPResponse::HTTP_BAD_REQUEST;
  if (code == mail::kOversized) return HTTPResponse::HTTP_REQUESTENTITYTOOLARGE;
  if (code == mail::kUnauthenticated) return HTTPResponse::HTTP_FORBIDDEN;
  if (code == mail::kWrongGame || code == mail::kStaleTurn || code == mail::kGameOver) {
    return HTTPResponse::HTTP_CONFLICT;
  }
  if (code == mail::kRejectedOrders) return HTTPResponse::HTTP_UNPROCESSABLE_ENTITY;
  return HTTPResponse::HTTP_SERVICE_UNAVAILABLE;
}

// `words` may be null (no templates loaded: tests only); "text" is then the verdict's codes.
// "text" is in `language`, units named from `scenario` (may be null: ids as sent).
Poco::JSON::Array::Ptr VerdictsJson(const std::vector<engine::OrderVerdict>& verdicts,
                                    int label_width, const templates::MailTemplates* words,
                                    templates::Language language,
                                    const engine::Scenario* scenario) {
  Poco::JSON::Array::Ptr array = new Poco::JSON::Array;
  for (const engine::OrderVerdict& v : verdicts) {
    Poco::JSON::Object::Ptr item = new Poco::JSON::Object;
    item->set("order", std::string(engine::OrderKindName(v.order_kind)));
    item->set("index", v.index);
    item->set("unit", v.unit);
    item->set("verdict", std::string(engine::VerdictKindName(v.verdict)));
    item->set("reason", std::string(engine::ReasonCode(v.reason)));
    Poco::JSON::Array::Ptr args = new Poco::JSON::Array;
    for (const engine::Arg& arg : v.args) {
      if (const auto* hex = std::get_if<engine::Hex>(&arg)) {
        args->add(engine::FormatLabel(*hex, label_width));
      } else {
        args->add(codec::FormatArg(arg));
      }
    }
    item->set("args", args);
    item->set("text", words != nullptr ? words->VerdictSentence(language, v, scenario, label_width)
                                       : mail::VerdictText(v, label_width));
    array->add(item);
  }
  return array;
}

// A game of another system: its CheckOrders verdicts, "index" their position in the orders.
// "text" is the verdict's reason worded by the system's `words` in the player's language
// ("" when it has no reason, or without words: tests only; never a reason code); "reason"
// stays the machine code, "args" the arguments' values as the sentences show them.
Poco::JSON::Array::Ptr SystemVerdictsJson(const std::vector<game_system::Verdict>& verdicts,
                                          const templates::SystemWords* words) {
  Poco::JSON::Array::Ptr array = new Poco::JSON::Array;
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    const game_system::Verdict& v = verdicts[i];
    Poco::JSON::Object::Ptr item = new Poco::JSON::Object;
    item->set("order", v.order);
    item->set("index", static_cast<int>(i));
    item->set("unit", v.unit);
    item->set("verdict", std::string(game_system::VerdictKindName(v.kind)));
    item->set("reason", v.reason);
    Poco::JSON::Array::Ptr args = new Poco::JSON::Array;
    for (const game_system::Arg& arg : v.args) {
      args->add(words != nullptr ? words->ArgText(arg) : arg.value);
    }
    item->set("args", args);
    std::string text;
    if (words != nullptr && !words->Sentence(v, &text).ok) text.clear();
    item->set("text", text);
    array->add(item);
  }
  return array;
}

std::optional<codec::Format> FormatFromContentType(const std::string& content_type) {
  const std::string type =
      Poco::toLower(Poco::trim(content_type.substr(0, content_type.find(';'))));
  if (type == "application/x-protobuf" || type == "application/protobuf" ||
      type == "application/octet-stream" || type == "application/vnd.google.protobuf") {
    return codec::Format::kBinary;
  }
  if (type == "application/json") return codec::Format::kJson;
  if (type == "text/plain") return codec::Format::kText;
  return std::nullopt;
}

// For "check": each move order given by destination, the cheapest path the unit has to it
// this turn (engine::ReachableThisTurn), or reachable = false.
Poco::JSON::Array::Ptr DestinationPaths(const GameContext& context, const engine::Orders& orders) {
  const engine::Scenario& scenario = context.data->scenario;
  const int width = codec::LabelWidth(scenario);
  Poco::JSON::Array::Ptr out = new Poco::JSON::Array;
  for (std::size_t i = 0; i < orders.moves.size(); ++i) {
    const engine::MoveOrder& move = orders.moves[i];
    if (!move.destination) continue;
    Poco::JSON::Object entry;
    entry.set("index", static_cast<int>(i));
    entry.set("unit", move.unit);
    entry.set("destination", engine::FormatLabel(*move.destination, width));
    bool found = false;
    if (std::optional<engine::UnitId> unit = scenario.FindUnit(move.unit)) {
      for (const engine::ReachableHex& hex :
           engine::ReachableThisTurn(context.data->ruleset, scenario, context.state, *unit)) {
        if (hex.hex != *move.destination) continue;
        Poco::JSON::Array path;
        for (const engine::Hex& h : hex.path) path.add(engine::FormatLabel(h, width));
        entry.set("cost", hex.cost);
        entry.set("path", path);
        entry.set("endsMove", hex.ends_move);
        found = true;
      }
    }
    entry.set("reachable", found);
    out->add(entry);
  }
  return out;
}

}  // namespace

Answer OrderSubmission::Submit(storage::GameRepository& repository, const std::string& id,
                               const OrdersRequest& request) {
  const std::string& token = request.token;
  if (token.empty()) {
    return Error(HTTPResponse::HTTP_UNAUTHORIZED, mail::kUnauthenticated,
                 "send the player's token as \"Authorization: Bearer <token>\"");
  }
  Result<storage::Game> game = repository.GetGame(id);
  if (!game.ok()) return StoreError(game.status(), "game \"" + id + "\"");
  Result<std::vector<storage::Player>> players = repository.ListPlayers(id);
  if (!players.ok()) return StoreError(players.status(), "players");
  const storage::Player* player = nullptr;
  for (const storage::Player& p : *players) {
    Result<bool> match = repository.VerifyToken(id, p.side, token);
    if (!match.ok()) return StoreError(match.status(), "token");
    if (*match) player = &p;
  }
  if (player == nullptr) {
    return Error(HTTPResponse::HTTP_UNAUTHORIZED, mail::kUnauthenticated,
                 "the token is not the token of a player of game \"" + id + "\"");
  }
  Envelope envelope;
  envelope.channel = storage::Channel::kHttp;
  envelope.sender = "http:" + player->side;
  // Stored as received; the turn is resolved with the orders validated.
  envelope.raw = request.body;
  envelope.received_at = Now();
  envelope.sender_proven = true;  // by the bearer token, checked above
  const std::optional<codec::Format> format = FormatFromContentType(request.content_type);
  std::string refusal;
  pbem::v1::Orders orders;
  // A body declared as text is checked (and transcoded) first: daemon/text_body.h.
  Result<std::string> text = format == codec::Format::kText || format == codec::Format::kJson
                                 ? TextBody(request.body, request.content_type)
                                 : Result<std::string>(request.body);
  if (!text.ok()) {
    refusal = "request body: " + text.status().message();
  } else if (auto parsed = codec::ParseOrders(*text, format, "request body"); !parsed.ok()) {
    refusal = parsed.ErrorText();
    while (!refusal.empty() && refusal.back() == '\n') refusal.pop_back();
  } else {
    orders = std::move(parsed).value();
  }
  if (!refusal.empty()) {
    if (request.record) {
      Result<DeskOutcome> refused =
          desk_.Refuse(repository, *game, mail::kMalformed, refusal, envelope);
      if (!refused.ok()) return StoreError(refused.status(), "submission");
    }
    return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed, refusal);
  }
  if (orders.token().empty()) orders.set_token(token);  // the bearer token authenticates
  Result<DeskOutcome> outcome =
      desk_.Submit(repository, *game, *player, orders, envelope, request.record);
  if (!outcome.ok()) return StoreError(outcome.status(), "submission");
  if (!outcome->accepted) {
    return Error(StatusForCode(outcome->code), outcome->code, outcome->detail);
  }
  Poco::JSON::Object reply;
  reply.set("accepted", true);
  reply.set("stored", request.record);
  reply.set("duplicate", outcome->duplicate);
  if (request.record) reply.set("submissionId", outcome->submission_id);
  reply.set("game", outcome->game_id);
  reply.set("turn", outcome->turn);
  reply.set("side", outcome->side);
  const templates::Language language = request.language.value_or(
      templates::ParseLanguage(player->language).value_or(templates::Language::kEnglish));
  if (!outcome->system.empty()) {  // a game of another system: its verdicts, its words
    reply.set("verdicts",
              SystemVerdictsJson(outcome->system_verdicts,
                                 mail_templates_ != nullptr
                                     ? mail_templates_->SystemWordsOf(language, outcome->system)
                                     : nullptr));
    return Answer{HTTPResponse::HTTP_OK, "application/json", Stringify(reply)};
  }
  std::shared_ptr<const ScenarioData> data;
  if (auto found = catalog_.ScenarioOf(*game); found.ok()) data = *found;
  reply.set("verdicts", VerdictsJson(outcome->verdicts, outcome->label_width, mail_templates_,
                                     language, data ? &data->scenario : nullptr));
  if (!request.record) {
    if (Result<GameContext> context = catalog_.Load(*game); context.ok()) {
      reply.set("destinations", DestinationPaths(*context, codec::OrdersFromProto(orders)));
    }
  }
  return Answer{HTTPResponse::HTTP_OK, "application/json", Stringify(reply)};
}

}  // namespace pbem::daemon::api
