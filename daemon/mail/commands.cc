#include "daemon/mail/commands.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "daemon/game_catalog.h"
#include "daemon/mail/scan.h"
#include "daemon/orders_template.h"
#include "daemon/turn/archive.h"
#include "daemon/turn_loop.h"
#include "daemon/validate.h"
#include "proto/codec/codec.h"
#include "templates/mail_render.h"

namespace pbem::daemon::mail {
namespace {

using templates::Language;

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The parts a command may be written in: readable text, not attachments.
bool IsTextPart(const OrdersCandidate& candidate) {
  return !candidate.attachment && candidate.error.empty();
}

// A player of one game, as the sender is known there.
struct Seat {
  storage::Game game;
  storage::Player player;
};

// The seat of `from` in game `game_id`; nullopt when the game is unknown or `from` does not
// play it. False (in `ok`) when the store failed.
std::optional<Seat> SeatIn(storage::GameRepository& repository, const std::string& game_id,
                           const std::string& from, bool& ok) {
  Result<storage::Game> game = repository.GetGame(game_id);
  if (!game.ok()) {
    ok = ok && game.status().code() == StatusCode::kNotFound;
    return std::nullopt;
  }
  Result<std::vector<storage::Player>> players = repository.ListPlayers(game_id);
  if (!players.ok()) {
    ok = false;
    return std::nullopt;
  }
  for (const storage::Player& p : *players) {
    if (Lower(p.mail_address) == from) return Seat{*game, p};
  }
  return std::nullopt;
}

// Every game `from` plays, at most `limit`, in the store's order. False (in `ok`) when the
// store failed.
std::vector<Seat> SeatsOf(storage::GameRepository& repository, const std::string& from,
                          std::size_t limit, bool& ok) {
  std::vector<Seat> seats;
  Result<std::vector<std::string>> ids = repository.ListGames();
  if (!ids.ok()) {
    ok = false;
    return seats;
  }
  for (const std::string& id : *ids) {
    if (seats.size() >= limit) break;
    if (std::optional<Seat> seat = SeatIn(repository, id, from, ok)) seats.push_back(*seat);
    if (!ok) break;
  }
  return seats;
}

// A reply that cannot be worded: the templates were checked when loaded, so a bug; the mail
// is kept for the next poll (and quarantined if it happens again).
Disposition RenderFailure(const templates::Status&) { return Disposition::kFailed; }

Language LanguageOf(const storage::Player& player) {
  return templates::ParseLanguage(player.language).value_or(Language::kEnglish);
}

// The links of game `id` ("<url>/v1/games/<id>/archive/", ".../export"); empty without a
// public URL.
std::pair<std::string, std::string> LinksOf(const CommandServices& services,
                                            const std::string& id) {
  if (services.public_url.empty()) return {};
  const std::string base = services.public_url + "/v1/games/" + id;
  return {base + "/archive/", base + "/export"};
}

// Where a seat's game stands, and what asking its player to move takes.
struct SeatState {
  templates::GameStatusInput status;
  std::optional<GameContext> context;     // the game's scenario and state, when they load
  std::optional<storage::OpenTurn> open;  // the turn to play, when it is open
  std::optional<std::chrono::sys_seconds> deadline;
};

// The state of `seat`'s game for its player. False (in `ok`) when the store failed.
SeatState StateOf(const CommandServices& services, storage::GameRepository& repository,
                  const Seat& seat, bool& ok) {
  const storage::Game& game = seat.game;
  SeatState out;
  templates::GameStatusInput& st = out.status;
  st.game_id = game.id;
  st.scenario = game.scenario;
  Result<GameContext> context = services.catalog->Load(game);
  if (!context.ok()) {
    st.unreadable = context.status().message();
    return out;
  }
  out.context = std::move(context).value();
  std::tie(st.history_url, st.archive_url) = LinksOf(services, game.id);
  st.turn = out.context->turn.turn;
  st.side = seat.player.side;
  st.mover = out.context->turn.side;
  st.result = game.result;
  st.over = out.context->finished || !game.result.empty();
  if (st.over) return out;
  if (st.mover == st.side) {
    Result<std::vector<storage::Submission>> submissions = repository.ListSubmissions(game.id);
    if (!submissions.ok()) {
      ok = false;
      return out;
    }
    const auto in = std::find_if(submissions->rbegin(), submissions->rend(), [&](const auto& s) {
      return s.accepted && s.turn == game.turns_committed && s.side == seat.player.side;
    });
    st.orders_in = in != submissions->rend();
    if (st.orders_in) st.received = std::chrono::floor<std::chrono::seconds>(in->received_at);
  }
  st.paused = game.paused_at.has_value();
  Result<storage::OpenTurn> open = repository.GetOpenTurn(game.id, st.turn, st.mover);
  if (open.ok()) {
    out.open = *open;
    st.open_turn = true;
    if (std::optional<storage::Timestamp> due = TurnLoop::Deadline(game, *open)) {
      st.deadline = std::chrono::floor<std::chrono::seconds>(*due);
    }
    out.deadline = st.deadline;
  } else if (open.status().code() != StatusCode::kNotFound) {
    ok = false;
  }
  return out;
}

// The sender's seat in the game the mail is about: the game it names, else the first game the
// subject (or a game_id field) names where the sender plays.
std::optional<Seat> NamedSeat(storage::GameRepository& repository, const MailCommand& command,
                              const InboundMail& mail, bool& ok) {
  if (!command.game_id.empty()) return SeatIn(repository, command.game_id, mail.from, ok);
  for (const std::string& hint : GameIdHints(mail)) {
    if (std::optional<Seat> seat = SeatIn(repository, hint, mail.from, ok)) return seat;
    if (!ok) return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<MailCommand> FindMailCommand(const InboundMail& mail) {
  // Orders, whatever else the mail says: a part that parses as orders naming a game or
  // giving an order (an empty or comment-only part parses as empty orders: not orders).
  for (const OrdersCandidate& candidate : mail.candidates) {
    if (!candidate.error.empty()) continue;
    auto parsed = codec::ParseOrders(candidate.bytes, candidate.format, candidate.source);
    if (!parsed.ok()) continue;
    const pbem::v1::Orders& orders = parsed.value();
    if (!orders.game_id().empty() || orders.placements_size() > 0 ||
        orders.bombardments_size() > 0 || orders.moves_size() > 0 || orders.attacks_size() > 0) {
      return std::nullopt;
    }
  }
  struct Keyword {
    std::string_view word;
    CommandKind kind;
  };
  static constexpr Keyword kKeywords[] = {{"status", CommandKind::kStatus},
                                          {"archive", CommandKind::kArchive},
                                          {"help", CommandKind::kHelp},
                                          {"aide", CommandKind::kHelp}};
  for (const Keyword& keyword : kKeywords) {
    for (const OrdersCandidate& candidate : mail.candidates) {
      if (!IsTextPart(candidate)) continue;
      std::optional<std::vector<std::string>> args =
          FindCommandLine(candidate.bytes, keyword.word, 0, 1);
      if (!args) continue;
      MailCommand command;
      command.kind = keyword.kind;
      const std::string arg = args->empty() ? std::string() : (*args)[0];
      if (keyword.kind == CommandKind::kHelp) {
        // "aide" is French; "help fr" asks for French; any other argument is ignored.
        if (keyword.word == "aide") {
          command.language = "fr";
        } else if (std::optional<Language> asked = templates::ParseLanguage(arg)) {
          command.language = std::string(templates::LanguageCode(*asked));
        }
      } else if (IsGameId(arg)) {
        command.game_id = arg;
      } else if (!arg.empty()) {
        command.bad_game_id = OneLine(arg.substr(0, 64));
      }
      return command;
    }
  }
  return std::nullopt;
}

std::optional<Disposition> HandleCommandMail(const CommandServices& services,
                                             const InboundMail& mail,
                                             storage::GameRepository& repository,
                                             storage::Timestamp now) {
  std::optional<MailCommand> command = FindMailCommand(mail);
  if (!command) return std::nullopt;
  // No reply to what is not an address (daemon/validate.h): nothing would deliver it.
  if (!IsMailAddress(mail.from)) return Disposition::kDropped;
  bool ok = true;
  std::optional<Seat> seat;
  std::vector<Seat> listed;
  if (command->kind != CommandKind::kHelp) {
    seat = NamedSeat(repository, *command, mail, ok);
    if (ok && !seat && command->kind == CommandKind::kStatus && command->game_id.empty() &&
        command->bad_game_id.empty()) {
      listed = SeatsOf(repository, mail.from, kMaxListedGames, ok);
    }
  } else {  // the language and name of a player, when the sender is one
    seat = NamedSeat(repository, *command, mail, ok);
    if (ok && !seat) {
      std::vector<Seat> any = SeatsOf(repository, mail.from, 1, ok);
      if (!any.empty()) seat = any.front();
    }
  }
  if (!ok) return Disposition::kRetryLater;

  Language language = Language::kEnglish;
  if (!command->language.empty()) {
    language = templates::ParseLanguage(command->language).value_or(language);
  } else if (seat) {
    language = LanguageOf(seat->player);
  } else if (!listed.empty()) {
    language = LanguageOf(listed.front().player);
  }
  const templates::MailTemplates& words = *services.templates;

  storage::NewMail reply;
  reply.recipient = mail.from;  // one reply, to the sender only
  reply.next_try = now;
  const std::string subject = OneLine(mail.subject);
  templates::CommandReplyInput input;
  if (seat) input.player_name = seat->player.name;
  std::optional<SeatState> to_move;  // the single game of a status reply, when it is the move
  if (command->kind == CommandKind::kStatus && (seat || !listed.empty())) {
    input.kind = seat ? templates::CommandReplyKind::kStatus : templates::CommandReplyKind::kGames;
    if (!seat) input.player_name = listed.front().player.name;
    const std::vector<Seat> seats = seat ? std::vector<Seat>{*seat} : listed;
    for (const Seat& s : seats) {
      SeatState state = StateOf(services, repository, s, ok);
      if (!ok) return Disposition::kRetryLater;
      // Each game in its player's language (a player may play in several).
      std::string text;
      if (templates::Status made =
              words.RenderGameStatus(LanguageOf(s.player), state.status, &text);
          !made.ok) {
        return RenderFailure(made);
      }
      input.games.push_back(std::move(text));
      if (seat && !state.status.over && state.status.mover == state.status.side && state.open &&
          state.context) {
        to_move = std::move(state);
      }
    }
    input.game_id = seat ? seat->game.id : std::string();
    if (!seat && listed.size() == kMaxListedGames) input.cut_at = kMaxListedGames;
  } else if (command->kind == CommandKind::kArchive && seat) {
    input.kind = templates::CommandReplyKind::kArchive;
    input.game_id = seat->game.id;
    std::tie(input.history_url, input.archive_url) = LinksOf(services, seat->game.id);
    Result<pbem::v1::Archive> archive = ExportArchive(repository, seat->game.id);
    if (!archive.ok() && archive.status().code() != StatusCode::kFailedPrecondition) {
      return Disposition::kRetryLater;
    }
    input.file = seat->game.id + ".pbem";
    using Archive = templates::CommandReplyInput::Archive;
    if (archive.ok()) {
      input.player_turns = archive->turns_size();
      std::string bytes = codec::SerializeMessage(*archive, codec::Format::kBinary);
      input.archive =
          bytes.size() > kMaxArchiveAttachmentBytes ? Archive::kTooLarge : Archive::kAttached;
      if (input.archive == Archive::kAttached) {
        reply.attachments.push_back(
            storage::Attachment{input.file, "application/octet-stream", std::move(bytes)});
      }
    }
  } else {
    // Help, or a status/archive the sender may not have: help only, never a game's state.
    input.kind = templates::CommandReplyKind::kHelp;
    if (command->kind != CommandKind::kHelp) {
      input.named_game = !command->game_id.empty() ? command->game_id : command->bad_game_id;
      input.names_no_game = input.named_game.empty();
    }
    input.address = services.address;
    input.public_url = services.public_url;
  }
  templates::Mail rendered;
  if (templates::Status made = words.RenderCommandReply(language, input, &rendered); !made.ok) {
    return RenderFailure(made);
  }
  reply.subject = rendered.subject;
  reply.body = std::move(rendered.text);
  if (to_move) {
    // The orders template, attached and quoted, as in a results mail (orders_template.h).
    const GameContext& context = *to_move->context;
    if (Status asked = AskToMoveNext(words, language, context.data->ruleset, context.data->scenario,
                                     context.state, *to_move->open, to_move->deadline, &reply);
        !asked.ok()) {
      return Disposition::kFailed;  // as RenderFailure: the templates were checked at load
    }
  }
  if (!ok) return Disposition::kRetryLater;
  // Threads with the sender's mail: "Re: <subject>", once.
  if (!subject.empty()) {
    const bool re = subject.size() >= 3 && Lower(subject.substr(0, 3)) == "re:";
    reply.subject = re ? subject : "Re: " + subject;
  }
  if (Result<std::int64_t> queued = repository.EnqueueMail(reply); !queued.ok()) {
    return Disposition::kRetryLater;
  }
  return Disposition::kAnswered;
}

}  // namespace pbem::daemon::mail
