#include "daemon/api/game_admin.h"

#include <Poco/JSON/Array.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>
#include <vector>

#include "daemon/game_catalog.h"
#include "daemon/json_input.h"
#include "daemon/mail/replies.h"
#include "daemon/mail/scan.h"
#include "daemon/turn/turn_job.h"
#include "daemon/turn_loop.h"
#include "daemon/validate.h"
#include "daemon/welcome_mail.h"
#include "templates/mail_render.h"

namespace pbem::daemon::api {

Answer GameAdmin::CreateGame(storage::GameRepository& repository, const std::string& body) {
  const auto bad = [](const Status& status) {
    return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed, status.message());
  };
  Result<Poco::JSON::Object::Ptr> parsed = ParseJsonObject(body);
  if (!parsed.ok()) return bad(parsed.status());
  const Poco::JSON::Object& spec = **parsed;
  Result<std::string> id = StringField(spec, "id");
  if (!id.ok()) return bad(id.status());
  Result<std::string> scenario = StringField(spec, "scenario");
  if (!scenario.ok()) return bad(scenario.status());
  Poco::JSON::Array::Ptr players =
      spec.isArray("players") ? spec.getArray("players") : Poco::JSON::Array::Ptr();
  if (id->empty() || scenario->empty() || !players || players->size() == 0) {
    return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                 "expected {\"id\", \"scenario\", \"players\": [{\"side\", \"address\", "
                 "\"token\"}, ...]}");
  }
  if (!IsGameId(*id)) {
    return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                 "\"id\" is 1 to 64 letters, digits, '-', '_' or '.' (it names files and "
                 "mail subjects)");
  }
  if (players->size() > 2) {
    return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                 "\"players\" has one entry per side: blue and orange");
  }
  // The game system (the rules): Morne Plaine's when none is named, as before games named
  // theirs. pbemd plays no other system's games yet: named, they are refused, not created
  // to stand stuck (issue 16).
  Result<std::string> system =
      StringField(spec, "system", std::string(storage::kFirstGameSystem), "system");
  if (!system.ok()) return bad(system.status());
  if (system->empty() || system->size() > 32 ||
      !std::all_of(system->begin(), system->end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
      })) {
    return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                 "\"system\" names a game system: morne-plaine (the default), m42 or wme");
  }
  if (*system != storage::kFirstGameSystem) {
    Result<std::shared_ptr<const ScenarioData>> other = catalog_.Scenario(*system, *scenario);
    if (!other.ok()) {
      return Error(HTTPResponse::HTTP_BAD_REQUEST, "unknown_scenario", other.status().message());
    }
    return Error(HTTPResponse::HTTP_BAD_REQUEST, "unsupported_system",
                 "\"system\": pbemd cannot play " + *system +
                     " games yet (its orders, turns and mails go through the game-system "
                     "interface first; issue 16): scenario " +
                     *scenario + " was found");
  }
  Result<std::shared_ptr<const ScenarioData>> data = catalog_.Scenario(*scenario);
  if (!data.ok()) {
    return Error(HTTPResponse::HTTP_BAD_REQUEST, "unknown_scenario", data.status().message());
  }
  Result<std::int64_t> timeout_s =
      IntegerField(spec, "turnTimeoutSeconds", 0, 0, kMaxTurnTimeoutSeconds);
  if (!timeout_s.ok()) return bad(timeout_s.status());
  Result<std::int64_t> reminder_s =
      IntegerField(spec, "reminderBeforeSeconds", 0, 0, kMaxTurnTimeoutSeconds);
  if (!reminder_s.ok()) return bad(reminder_s.status());
  if (std::optional<std::string> wrong = DeadlinesProblem(*timeout_s, *reminder_s)) {
    return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed, *wrong);
  }
  storage::NewGame game =
      MakeNewGame((*data)->ruleset_proto, (*data)->scenario_proto, (*data)->scenario, *id, Now());
  game.scenario = *scenario;  // the catalogue's name, which finds the files again
  game.deadlines.turn_timeout = std::chrono::seconds(*timeout_s);
  game.deadlines.reminder_before = std::chrono::seconds(*reminder_s);
  std::vector<storage::NewPlayer> new_players;
  for (std::size_t i = 0; i < players->size(); ++i) {
    const std::string at = "players[" + std::to_string(i) + "]";
    Poco::JSON::Object::Ptr p = players->isObject(static_cast<unsigned>(i))
                                    ? players->getObject(static_cast<unsigned>(i))
                                    : Poco::JSON::Object::Ptr();
    if (!p)
      return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed, at + " is not an object");
    Result<std::string> side = StringField(*p, "side", "", at + ".side");
    Result<std::string> address = StringField(*p, "address", "", at + ".address");
    Result<std::string> token = StringField(*p, "token", "", at + ".token");
    Result<std::string> language_code = StringField(*p, "language", "en", at + ".language");
    // Optional; when given, a name as league names are (the mails greet the player by it).
    Result<std::string> name = StringField(*p, "name", "", at + ".name");
    for (const Status& s :
         {side.status(), address.status(), token.status(), language_code.status(), name.status()}) {
      if (!s.ok()) return bad(s);
    }
    if (p->has("name")) {
      if (std::optional<std::string> wrong = DisplayNameProblem(*name)) {
        return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed, at + ".name " + *wrong);
      }
    }
    const std::optional<templates::Language> language = templates::ParseLanguage(*language_code);
    if (!language) {
      return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                   at + ".language must be en or fr");
    }
    if (*side != "blue" && *side != "orange") {
      return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                   at + ".side must be blue or orange");
    }
    if (std::optional<std::string> wrong = MailAddressProblem(*address)) {
      return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed, at + ".address " + *wrong);
    }
    if (token->size() < 8 || token->size() > 256 || !IsHeaderSafe(*token)) {
      return Error(HTTPResponse::HTTP_BAD_REQUEST, mail::kMalformed,
                   at + ".token is 8 to 256 characters, with no control character");
    }
    for (const storage::NewPlayer& earlier : new_players) {
      if (earlier.side == *side) {
        return Error(HTTPResponse::HTTP_CONFLICT, "already_exists",
                     at + ".side: side " + *side + " is given twice");
      }
    }
    storage::NewPlayer player{*id, *side, *address, *token};
    player.language = std::string(templates::LanguageCode(*language));
    player.name = *name;
    new_players.push_back(std::move(player));
  }
  // The game, its players and their welcome mails in one transaction: a refusal (a side
  // given twice) leaves nothing, and the same request can be sent again once corrected.
  std::vector<storage::NewMail> welcome;
  if (settings_.mail_templates != nullptr && !settings_.mail_from.empty()) {
    WelcomeContext context;
    context.data = data->get();
    context.game_id = *id;
    context.reply_to = settings_.mail_from;
    context.rulesets_dir = settings_.rulesets_dir;
    if (game.deadlines.turn_timeout.count() > 0) {
      context.deadline =
          std::chrono::floor<std::chrono::seconds>(Now()) + game.deadlines.turn_timeout;
    }
    Result<std::vector<storage::NewMail>> mails =
        WelcomeMails(*settings_.mail_templates, context, new_players, Now());
    if (!mails.ok()) return StoreError(mails.status(), "welcome mails of game \"" + *id + "\"");
    welcome = std::move(mails).value();
  }
  if (Status created = repository.CreateGameWithPlayers(game, new_players, welcome);
      !created.ok()) {
    return StoreError(created, "game \"" + *id + "\"");
  }
  Poco::JSON::Object reply;
  reply.set("id", *id);
  reply.set("scenario", *scenario);
  if (settings_.turns != nullptr) {
    Result<OpenedTurn> opened = settings_.turns->Open(repository, *id, Now());
    if (!opened.ok()) return StoreError(opened.status(), "first turn of game \"" + *id + "\"");
    Poco::JSON::Object turn;
    turn.set("turn", opened->stored.turn);
    turn.set("side", opened->stored.side);
    turn.set("commitment", opened->commitment.commitment());
    turn.set("derivation", opened->commitment.derivation());
    reply.set("openTurn", turn);
  }
  return Answer{HTTPResponse::HTTP_CREATED, "application/json", Stringify(reply)};
}

// Admin: pauses or resumes a game's clock (the scheduler leaves a paused game alone).
Answer GameAdmin::Pause(storage::GameRepository& repository, const std::string& game_id,
                        bool pause) {
  if (Status changed = repository.SetPaused(game_id, pause, Now()); !changed.ok()) {
    return StoreError(changed, "game \"" + game_id + "\"");
  }
  Poco::JSON::Object reply;
  reply.set("id", game_id);
  reply.set("paused", pause);
  return Answer{HTTPResponse::HTTP_OK, "application/json", Stringify(reply)};
}

std::optional<Answer> GameAdmin::RefuseUnlessAdmin(const std::string& token,
                                                   const std::string& what) const {
  if (!settings_.admin_token.empty() && token == settings_.admin_token) return std::nullopt;
  return Error(HTTPResponse::HTTP_FORBIDDEN, "forbidden",
               settings_.admin_token.empty()
                   ? what + " is off (no pbemd.http.admin_token is configured)"
                   : "the admin token is missing or wrong");
}

}  // namespace pbem::daemon::api
