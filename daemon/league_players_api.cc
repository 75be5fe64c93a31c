#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <mutex>
#include <optional>
#include <variant>

#include "daemon/json_input.h"
#include "daemon/league_api.h"
#include "daemon/league_api_parts.h"
#include "daemon/league_routes.h"
#include "daemon/mail/scan.h"
#include "daemon/validate.h"

// Players joining a league: POST /v1/leagues/{id}/players and the "join" mail.
namespace pbem::daemon {
namespace league_http {

LeagueAnswer JoinLeague(const LeagueServices& services, storage::NewLeaguePlayer player,
                        storage::LeagueRepository& leagues, storage::Timestamp now) {
  const std::string id = player.league_id;
  player.joined_at = now;
  if (std::optional<std::string> wrong = DisplayNameProblem(player.player)) {
    return Error(400, "malformed", "\"name\" " + *wrong);
  }
  if (std::optional<std::string> wrong = MailAddressProblem(player.mail_address)) {
    return Error(400, "malformed", "\"email\" " + *wrong);
  }
  if (player.language != "en" && player.language != "fr") {
    return Error(400, "malformed", "\"language\" is en or fr");
  }
  std::variant<LoadedLeague, LeagueAnswer> loaded = LoadLeague(id, leagues);
  if (auto* refused = std::get_if<LeagueAnswer>(&loaded)) return *refused;
  if (!std::get<LoadedLeague>(loaded).settings.registration_open) {
    return Error(
        409, "registration_closed",
        "registration to league \"" + id + "\" is closed: its organiser is not taking new players");
  }
  Result<std::vector<storage::LeaguePlayer>> players = leagues.ListLeaguePlayers(id);
  if (!players.ok()) {
    return players.status().code() == StatusCode::kNotFound ? UnknownLeague(id)
                                                            : StoreFailure(players.status());
  }
  // Stored lower-cased, compared without case: Dave@X over HTTP and dave@x by mail are one
  // address (mail intake lower-cases senders).
  player.mail_address = LowerAscii(player.mail_address);
  for (const auto& p : *players) {
    if (p.player == player.player || LowerAscii(p.mail_address) == player.mail_address) {
      return Error(409, "already_joined",
                   (p.player == player.player ? "player \"" + player.player + "\""
                                              : "the address " + player.mail_address) +
                       " is in league \"" + id + "\" already");
    }
  }
  Result<std::string> token = league::NewToken(*services.entropy);
  if (!token.ok()) return StoreFailure(token.status());
  player.token = *token;
  if (Status added = leagues.AddLeaguePlayer(player); !added.ok()) {
    if (added.code() == StatusCode::kAlreadyExists) {
      return Error(409, "already_joined",
                   "player \"" + player.player + "\" is in league \"" + id + "\" already");
    }
    if (added.code() == StatusCode::kNotFound) return UnknownLeague(id);
    return StoreFailure(added);
  }
  Poco::JSON::Object reply;
  reply.set("league", id);
  reply.set("player", player.player);
  reply.set("language", player.language);
  reply.set("token", player.token);
  return Json(201, reply);
}

LeagueAnswer Join(const LeagueServices& services, const std::string& id,
                  const LeagueRequest& request, storage::GameRepository& games,
                  storage::LeagueRepository& leagues, storage::Timestamp now) {
  std::variant<Poco::JSON::Object::Ptr, LeagueAnswer> parsed = ParseObject(request.body);
  if (auto* refused = std::get_if<LeagueAnswer>(&parsed)) return *refused;
  const Poco::JSON::Object& spec = *std::get<Poco::JSON::Object::Ptr>(parsed);
  Result<std::string> name = StringField(spec, "name");
  Result<std::string> email = StringField(spec, "email");
  Result<std::string> language = StringField(spec, "language", "en");
  for (const Status& s : {name.status(), email.status(), language.status()}) {
    if (!s.ok()) return Malformed(s);
  }
  storage::NewLeaguePlayer player;
  player.league_id = id;
  player.player = *name;
  player.mail_address = *email;
  player.language = *language;
  LeagueAnswer answer = JoinLeague(services, player, leagues, now);
  if (answer.status != 201) return answer;
  Poco::JSON::Object::Ptr reply =
      Poco::JSON::Parser().parse(answer.body).extract<Poco::JSON::Object::Ptr>();
  const std::string token = reply->getValue<std::string>("token");
  bool queued = false;
  Result<league::LeagueMail> mail = league::RenderJoinedMail(
      services.template_dir, player.language, id, player.player, token, services.places);
  if (mail.ok()) {
    queued = games
                 .EnqueueMail(league::ToNewMail(std::move(mail).value(),
                                                LowerAscii(player.mail_address), now))
                 .ok();
  }
  reply->set("confirmationQueued", queued);
  return Json(201, *reply);
}

}  // namespace league_http

using namespace league_http;  // NOLINT: the answers shared by the league routes

bool HandledMessages::Add(const std::string& message_id) {
  if (message_id.empty()) return true;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!ids_.insert(message_id).second) return false;
  order_.push_back(message_id);
  if (order_.size() > kCapacity) {
    ids_.erase(order_.front());
    order_.pop_front();
  }
  return true;
}

void HandledMessages::Forget(const std::string& message_id) {
  if (message_id.empty()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (ids_.erase(message_id) == 0) return;
  order_.erase(std::find(order_.begin(), order_.end(), message_id));
}

std::optional<mail::Disposition> HandleJoinMail(const LeagueServices& services,
                                                const mail::InboundMail& mail,
                                                storage::GameRepository& games,
                                                storage::LeagueRepository& leagues,
                                                HandledMessages& handled, storage::Timestamp now) {
  // "join <league> <name> [<language>]" alone on a line, the keyword in any case; the name
  // is every word after the league id ("Hélène Dupré"), but a last word of two lower-case
  // letters, or EN / FR, is the language ("de": refused, en or fr).
  // (mail::FindCommandLine: no regular expression on mail text.)
  std::optional<std::vector<std::string>> found;
  for (const mail::OrdersCandidate& candidate : mail.candidates) {
    if ((found = mail::FindCommandLine(candidate.bytes, "join", 2, 2 + kMaxNameChars / 2))) break;
  }
  // No reply to what is not an address (daemon/validate.h): nothing would deliver it.
  if (!found || !IsMailAddress(mail.from)) return std::nullopt;
  const std::string league_id = (*found)[0];
  storage::NewLeaguePlayer player;
  player.league_id = league_id;
  player.language = "en";
  std::size_t name_end = found->size();
  const std::string& last = found->back();
  const auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
  const bool lower_pair = last.size() == 2 && lower(last[0]) && lower(last[1]);
  if (found->size() > 2 && (lower_pair || last == "EN" || last == "FR")) {
    player.language = LowerAscii(last);
    --name_end;
  }
  for (std::size_t i = 1; i < name_end; ++i) {
    player.player += (i > 1 ? " " : "") + (*found)[i];
  }
  player.mail_address = mail.from;
  // The same message twice (a redelivery): answered the first time only.
  if (!handled.Add(mail.message_id)) return mail::Disposition::kDropped;
  LeagueAnswer answer = JoinLeague(services, player, leagues, now);
  if (answer.status >= 500) {
    handled.Forget(mail.message_id);
    return mail::Disposition::kRetryLater;
  }
  const bool fr = player.language == "fr";
  storage::NewMail reply;
  reply.recipient = mail.from;  // one reply, to the sender only
  // The subject: "Re: " and the sender's, else the template's (set below with the body).
  reply.subject = mail.subject.empty() ? "" : "Re: " + mail.subject;
  Poco::JSON::Object::Ptr body =
      Poco::JSON::Parser().parse(answer.body).extract<Poco::JSON::Object::Ptr>();
  if (answer.status == 201) {
    Result<league::LeagueMail> joined =
        league::RenderJoinedMail(services.template_dir, player.language, league_id, player.player,
                                 body->getValue<std::string>("token"), services.places);
    if (!joined.ok()) {
      // No reply could carry the token: undo the join, and the mail comes back.
      if (Status undone = leagues.RemoveLeaguePlayer(league_id, player.player); !undone.ok()) {
        return mail::Disposition::kDropped;
      }
      handled.Forget(mail.message_id);
      return mail::Disposition::kRetryLater;
    }
    if (mail.subject.empty()) reply.subject = joined->subject;
    reply.body = joined->body;
  } else {
    // Worded by the templates in the sender's language, from the refusal's code.
    Poco::JSON::Object::Ptr error = body->getObject("error");
    const std::string code = error->getValue<std::string>("code");
    std::string message = error->getValue<std::string>("message");
    league::MailRefusal refusal{code, message};
    if (code == "already_joined") {
      refusal.reason = message.rfind("player \"", 0) == 0 ? "name_taken" : "address_taken";
    } else if (code == "malformed" && player.language != "en" && player.language != "fr") {
      refusal.reason = "bad_language";
    } else if (code == "malformed") {
      refusal.reason = "bad_name";
      refusal.detail = DisplayNameProblem(player.player).value_or(message);
    }
    Result<league::LeagueMail> refused = league::RenderJoinRefusedMail(
        services.template_dir, fr ? "fr" : "en", league_id, player.player, mail.from, refusal);
    if (!refused.ok()) {
      handled.Forget(mail.message_id);
      return mail::Disposition::kRetryLater;
    }
    if (mail.subject.empty()) reply.subject = refused->subject;
    reply.body = refused->body;
  }
  reply.next_try = now;
  if (Result<std::int64_t> queued = games.EnqueueMail(reply); !queued.ok()) {
    // The reply carries the only copy of the token: undo the join, and the mail comes back.
    if (answer.status == 201) {
      if (Status undone = leagues.RemoveLeaguePlayer(league_id, player.player); !undone.ok()) {
        return mail::Disposition::kDropped;  // joined, token lost: the organiser replaces
      }
    }
    handled.Forget(mail.message_id);
    return mail::Disposition::kRetryLater;
  }
  return mail::Disposition::kAnswered;
}

}  // namespace pbem::daemon
