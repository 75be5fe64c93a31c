#include <Poco/JSON/Parser.h>

#include <optional>
#include <utility>
#include <vector>

#include "daemon/game_catalog.h"
#include "daemon/league_api.h"
#include "daemon/league_api_parts.h"
#include "daemon/league_routes.h"
#include "daemon/mail/scan.h"

// Resigning a game: POST /v1/games/{id}/resign and the "resign" mail.
namespace pbem::daemon {

using namespace league_http;  // NOLINT: the answers shared by the league routes

namespace {

// The words of the game-over mail of a resignation: the players' names and their league, for a
// league game; sides alone otherwise.
Result<league::ResignedMailInput> ResignationWords(const LeagueServices& services,
                                                   storage::LeagueRepository& leagues,
                                                   const std::string& game_id,
                                                   league::Seat resigning) {
  league::ResignedMailInput words;
  words.game_id = game_id;
  words.resigning = resigning;
  words.places = services.places;
  if (Result<storage::LeagueGameRecord> record = leagues.GetLeagueGame(game_id); record.ok()) {
    words.blue_player = record->blue;
    words.orange_player = record->orange;
    words.league_id = record->league_id;
    Result<storage::League> league = leagues.GetLeague(record->league_id);
    words.league_name = league.ok() ? league->name : record->league_id;
  } else if (record.status().code() != StatusCode::kNotFound) {
    return record.status();
  }
  return words;
}

}  // namespace

LeagueAnswer ResignGame(const LeagueServices& services, const std::string& game_id,
                        const std::string& token, storage::GameRepository& games,
                        storage::LeagueRepository& leagues, storage::Timestamp now) {
  if (token.empty()) {
    return Error(401, "unauthenticated",
                 "send the player's token as \"Authorization: Bearer <token>\"");
  }
  Result<storage::Game> game = games.GetGame(game_id);
  if (!game.ok()) {
    return game.status().code() == StatusCode::kNotFound
               ? Error(404, "not_found", "no game \"" + game_id + "\"")
               : StoreFailure(game.status());
  }
  Result<std::vector<storage::Player>> players = games.ListPlayers(game_id);
  if (!players.ok()) return StoreFailure(players.status());
  std::optional<league::Seat> resigning;
  for (const storage::Player& p : *players) {
    Result<bool> match = games.VerifyToken(game_id, p.side, token);
    if (!match.ok()) return StoreFailure(match.status());
    if (*match) resigning = league::ParseSeat(p.side);
  }
  if (!resigning) {
    return Error(403, "not_a_player",
                 "the token is not the token of a player of game \"" + game_id +
                     "\": only a player may resign their own game");
  }
  Result<GameContext> context = services.catalog->Load(*game);
  if (!context.ok()) return StoreFailure(context.status());
  if (!game->result.empty() || context->finished) {
    return Error(409, "game_over", "game \"" + game_id + "\" is over already");
  }
  const storage::GameEnding ending = league::ResignationEnding(*resigning);
  const std::string& result = ending.text;
  Result<league::ResignedMailInput> named =
      ResignationWords(services, leagues, game_id, *resigning);
  if (!named.ok()) return StoreFailure(named.status());
  league::ResignedMailInput words = std::move(*named);
  std::vector<storage::NewMail> mails;
  for (const storage::Player& p : *players) {
    words.recipient = league::ParseSeat(p.side).value_or(league::Seat::kBlue);
    Result<league::LeagueMail> rendered =
        league::RenderResignedMail(services.template_dir, p.language == "fr" ? "fr" : "en", words);
    if (!rendered.ok()) return Error(500, "internal", rendered.status().message());
    mails.push_back(league::ToNewMail(std::move(rendered).value(), p.mail_address, now));
  }
  Result<bool> ended = games.EndGame(game_id, game->turns_committed, ending, now, mails);
  if (!ended.ok() && ended.status().code() == StatusCode::kFailedPrecondition) {
    // A turn was committed since the game was read: it may have ended the game. Ask again.
    return Error(409, "stale_turn",
                 "game \"" + game_id + "\" moved on while resigning: send the resignation again");
  }
  if (!ended.ok()) return StoreFailure(ended.status());
  if (!*ended) return Error(409, "game_over", "game \"" + game_id + "\" is over already");
  Poco::JSON::Object reply;
  reply.set("game", game_id);
  reply.set("result", result);
  std::optional<league::GameEnd> end = league::EndOfGame(game_id, ending, context->outcome);
  // The game has ended whatever happens next: a failure to record is left to the league pass.
  if (end) {
    Result<Recorded> recorded = RecordAndAdvance(services, leagues, *end, now, nullptr);
    reply.set("leagueGame", recorded.ok() && recorded->league_game);
    reply.set("leagueRecorded", recorded.ok());
  }
  return Json(200, reply);
}

std::optional<mail::Disposition> HandleResignationMail(const LeagueServices& services,
                                                       const mail::InboundMail& mail,
                                                       storage::GameRepository& games,
                                                       storage::LeagueRepository& leagues,
                                                       storage::Timestamp now) {
  // "resign <game> <token>" alone on a line, the keyword in any case (mail::FindCommandLine).
  std::string game_id, token;
  for (const mail::OrdersCandidate& candidate : mail.candidates) {
    if (auto args = mail::FindCommandLine(candidate.bytes, "resign", 2, 2)) {
      game_id = (*args)[0];
      token = (*args)[1];
      break;
    }
  }
  if (game_id.empty() || mail.from.empty()) return std::nullopt;
  Result<std::vector<storage::Player>> players = games.ListPlayers(game_id);
  if (!players.ok()) return mail::Disposition::kRetryLater;
  const storage::Player* sender = nullptr;
  for (const storage::Player& p : *players) {
    if (LowerAscii(p.mail_address) == mail.from) sender = &p;
  }
  if (sender == nullptr) return mail::Disposition::kDropped;  // unknown game or stranger
  Result<bool> own = games.VerifyToken(game_id, sender->side, token);
  if (!own.ok()) return mail::Disposition::kRetryLater;
  LeagueAnswer answer =
      *own ? ResignGame(services, game_id, token, games, leagues, now)
           : Error(403, "not_a_player",
                   "the token is not yours: only a player may resign their own game, with "
                   "the token of their side");
  if (answer.status >= 500) return mail::Disposition::kRetryLater;
  // The reply in the sender's language, worded by the templates: the game-over mail of the
  // ending as stored (a value: the side that won), or why it was refused.
  const std::string language = sender->language == "fr" ? "fr" : "en";
  Result<league::LeagueMail> worded = Status::Internal("unset");
  if (answer.status == 200) {
    Result<storage::Game> ended = games.GetGame(game_id);
    if (!ended.ok()) return mail::Disposition::kRetryLater;
    league::Seat resigning = league::ParseSeat(sender->side).value_or(league::Seat::kBlue);
    if (ended->ending && !ended->ending->winner.empty()) {
      const std::optional<league::Seat> winner = league::ParseSeat(ended->ending->winner);
      if (winner) resigning = league::OtherSeat(*winner);
    }
    Result<league::ResignedMailInput> words =
        ResignationWords(services, leagues, game_id, resigning);
    if (!words.ok()) return mail::Disposition::kRetryLater;
    words->recipient = league::ParseSeat(sender->side).value_or(resigning);
    words->acknowledged = true;
    worded = league::RenderResignedMail(services.template_dir, language, *words);
  } else {
    Poco::JSON::Object::Ptr error = Poco::JSON::Parser()
                                        .parse(answer.body)
                                        .extract<Poco::JSON::Object::Ptr>()
                                        ->getObject("error");
    worded = league::RenderResignRefusedMail(
        services.template_dir, language, game_id,
        {error->getValue<std::string>("code"), error->getValue<std::string>("message")});
  }
  if (!worded.ok()) return mail::Disposition::kRetryLater;
  storage::NewMail reply;
  reply.recipient = sender->mail_address;
  reply.subject = mail.subject.empty() ? worded->subject : "Re: " + mail.subject;
  reply.body = worded->body;
  reply.next_try = now;
  if (Result<std::int64_t> queued = games.EnqueueMail(reply); !queued.ok()) {
    return mail::Disposition::kRetryLater;
  }
  return mail::Disposition::kAnswered;
}

}  // namespace pbem::daemon
