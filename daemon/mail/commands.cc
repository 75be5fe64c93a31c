#include "daemon/mail/commands.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "daemon/game_catalog.h"
#include "daemon/mail/scan.h"
#include "daemon/turn/archive.h"
#include "daemon/turn_loop.h"
#include "daemon/validate.h"
#include "engine/ids.h"
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

// Words of one reply in the reader's language.
class Words {
 public:
  Words(const CommandServices& services, Language language)
      : services_(services), language_(language) {}

  bool fr() const { return language_ == Language::kFrench; }
  Language language() const { return language_; }

  std::string Side(const std::string& side) const {
    if (services_.templates == nullptr) return side;
    return services_.templates->Word(language_, "side", side);
  }
  std::string Date(storage::Timestamp t) const {
    const auto seconds = std::chrono::floor<std::chrono::seconds>(t);
    if (services_.templates != nullptr) return services_.templates->FormatDate(language_, seconds);
    const std::time_t raw = static_cast<std::time_t>(seconds.time_since_epoch().count());
    std::tm tm{};
    gmtime_r(&raw, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M UTC", &tm);
    return buffer;
  }
  // The links of a game, one per line; empty without a public URL.
  std::string Links(const std::string& game_id) const {
    if (services_.public_url.empty()) return "";
    const std::string base = services_.public_url + "/v1/games/" + game_id;
    return fr() ? "Historique de la partie : " + base + "/archive/\nFichier d'archive : " + base +
                      "/export\n"
                : "History of the game: " + base + "/archive/\nArchive file: " + base + "/export\n";
  }

 private:
  const CommandServices& services_;
  Language language_;
};

Language LanguageOf(const storage::Player& player) {
  return templates::ParseLanguage(player.language).value_or(Language::kEnglish);
}

// The paragraph of a "status" reply about one seat. False (in `ok`) when the store failed.
std::string StatusOf(const CommandServices& services, const Words& words,
                     storage::GameRepository& repository, const Seat& seat, bool& ok) {
  const storage::Game& game = seat.game;
  const bool fr = words.fr();
  std::string out = (fr ? "Partie " : "Game ") + game.id + " (" + game.scenario + ")";
  Result<GameContext> context = services.catalog->Load(game);
  if (!context.ok()) {
    return out +
           (fr ? " : son état ne peut être lu pour le moment ("
               : ": its state cannot be read at the moment (") +
           context.status().message() + ").\n";
  }
  const engine::GameState& state = context->state;
  const std::string mover = std::string(engine::SideName(state.side_to_move));
  out += fr ? ", tour " + std::to_string(state.turn) : ", turn " + std::to_string(state.turn);
  out += fr ? ". Vous jouez le camp " + words.Side(seat.player.side) + ".\n"
            : ". You play " + words.Side(seat.player.side) + ".\n";
  if (state.finished || !game.result.empty()) {
    out += fr ? "La partie est terminée" : "The game is over";
    if (!game.result.empty()) out += (fr ? " : " : ": ") + game.result;
    out += ".\n";
    return out + words.Links(game.id);
  }
  if (mover != seat.player.side) {
    out += fr ? "C'est au camp " + words.Side(mover) + " de jouer, pas à vous.\n"
              : "It is " + words.Side(mover) + "'s move, not yours.\n";
  } else {
    out += fr ? "C'est à vous de jouer.\n" : "It is your move.\n";
    Result<std::vector<storage::Submission>> submissions = repository.ListSubmissions(game.id);
    if (!submissions.ok()) {
      ok = false;
      return "";
    }
    const auto in = std::find_if(submissions->rbegin(), submissions->rend(), [&](const auto& s) {
      return s.accepted && s.turn == game.turns_committed && s.side == seat.player.side;
    });
    if (in != submissions->rend()) {
      out += fr ? "Vos ordres pour ce tour sont arrivés (" + words.Date(in->received_at) +
                      ") ; un nouvel envoi les remplacerait jusqu'à l'échéance.\n"
                : "Your orders for this turn are in (received " + words.Date(in->received_at) +
                      "); orders sent again replace them until the deadline.\n";
    } else {
      out += fr ? "Vos ordres pour ce tour ne sont pas encore arrivés.\n"
                : "Your orders for this turn have not arrived yet.\n";
    }
  }
  if (game.paused_at) {
    out += fr ? "La partie est en pause : son horloge est arrêtée.\n"
              : "The game is paused: its clock stands still.\n";
  } else if (Result<storage::OpenTurn> open = repository.GetOpenTurn(game.id, state.turn, mover);
             open.ok()) {
    if (std::optional<storage::Timestamp> due = TurnLoop::Deadline(game, *open)) {
      out += fr ? "Échéance : " + words.Date(*due) + ".\n"
                : "Orders are due by " + words.Date(*due) + ".\n";
    } else {
      out += fr ? "Pas d'échéance : le tour est joué dès que les ordres arrivent.\n"
                : "No deadline: the turn is played as soon as the orders arrive.\n";
    }
  } else if (open.status().code() != StatusCode::kNotFound) {
    ok = false;
    return "";
  }
  return out + words.Links(game.id);
}

// The help mail of one language: its pieces around pbemd's address and public URL.
struct HelpWords {
  std::string_view title;
  std::string_view orders;  // ... + address + orders_end
  std::string_view orders_end;
  std::string_view commands;  // ... + address + ".\n" + command_list
  std::string_view command_list;
  std::string_view links;  // ... + url + "/v1/games/GAME/archive/" + links_file + url + ...
  std::string_view links_file;
  std::string_view game;  // the placeholder of a game id in the links
};

constexpr HelpWords kHelpEnglish{
    "pbem by mail: how to play\n\n",
    "Your orders: when it is your move, reply to the mail that says so, or write to ",
    ", with your orders in the body of the mail (as text) or attached. They name the game "
    "(game_id), the turn, your side and your token. You get a receipt at once, one line per "
    "order: an order that is accepted is played exactly as it was checked.\n\n",
    "Commands: one line alone in the body of a mail to ",
    "  status GAME         where the game stands: the turn, the side to move, the deadline, "
    "whether your orders are in\n"
    "  status              the same for the game named in the subject, else the list of your "
    "games\n"
    "  archive GAME        the links to the game's history and to its archive file "
    "(attached), which \"pbem verify\" checks\n"
    "  help                this mail (help fr, or aide: in French)\n"
    "  resign GAME TOKEN   resign the game\n"
    "  join LEAGUE NAME    join a league\n",
    "\nLinks: the history of a game is at ",
    " and its archive file at ",
    "GAME"};

constexpr HelpWords kHelpFrench{
    "pbem par courriel : comment jouer\n\n",
    "Vos ordres : quand c'est à vous de jouer, répondez au courriel qui vous l'annonce, ou "
    "écrivez à ",
    ", avec vos ordres dans le corps du message (en texte) ou en pièce jointe. Ils nomment la "
    "partie (game_id), le tour, votre camp et votre jeton. Vous recevez aussitôt un accusé de "
    "réception, avec une ligne par ordre : un ordre accepté sera joué tel quel.\n\n",
    "Les commandes : une ligne seule dans le corps d'un courriel à ",
    "  status PARTIE        où en est la partie : le tour, le camp qui joue, l'échéance, si "
    "vos ordres sont arrivés\n"
    "  status               la même chose pour la partie nommée dans l'objet, sinon la liste "
    "de vos parties\n"
    "  archive PARTIE       les liens vers l'historique de la partie et son fichier d'archive "
    "(joint), que « pbem verify » vérifie\n"
    "  aide                 ce courriel (help : en anglais)\n"
    "  resign PARTIE JETON  abandonner la partie\n"
    "  join LIGUE NOM fr    s'inscrire à une ligue\n",
    "\nLes liens : l'historique d'une partie est à ",
    " et son fichier d'archive à ",
    "PARTIE"};

std::string HelpText(const CommandServices& services, const Words& words) {
  const HelpWords& w = words.fr() ? kHelpFrench : kHelpEnglish;
  std::string out = std::string(w.title) + std::string(w.orders) + services.address +
                    std::string(w.orders_end) + std::string(w.commands) + services.address + ".\n" +
                    std::string(w.command_list);
  if (!services.public_url.empty()) {
    const std::string base = services.public_url + "/v1/games/" + std::string(w.game);
    out +=
        std::string(w.links) + base + "/archive/" + std::string(w.links_file) + base + "/export\n";
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
  } else if (command->language.empty()) {  // the language of a player, when the sender is one
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
  const Words words(services, language);
  const bool fr = words.fr();

  storage::NewMail reply;
  reply.recipient = mail.from;  // one reply, to the sender only
  reply.next_try = now;
  const std::string subject = OneLine(mail.subject);
  std::string body;
  if (command->kind == CommandKind::kStatus && seat) {
    body = StatusOf(services, words, repository, *seat, ok);
    reply.subject =
        fr ? "pbem : état de la partie " + seat->game.id : "pbem: status of game " + seat->game.id;
  } else if (command->kind == CommandKind::kStatus && !listed.empty()) {
    body = fr ? "Vos parties :\n\n" : "Your games:\n\n";
    for (const Seat& s : listed) {
      body += StatusOf(services, Words(services, LanguageOf(s.player)), repository, s, ok) + "\n";
      if (!ok) break;
    }
    if (listed.size() == kMaxListedGames) {
      body += fr ? "(Seules les " + std::to_string(kMaxListedGames) +
                       " premières sont listées : « status PARTIE » pour une autre.)\n"
                 : "(Only the first " + std::to_string(kMaxListedGames) +
                       " are listed: \"status GAME\" for another.)\n";
    }
    reply.subject = fr ? "pbem : vos parties" : "pbem: your games";
  } else if (command->kind == CommandKind::kArchive && seat) {
    reply.subject = fr ? "pbem : archive de la partie " + seat->game.id
                       : "pbem: archive of game " + seat->game.id;
    Result<pbem::v1::Archive> archive = ExportArchive(repository, seat->game.id);
    if (!archive.ok() && archive.status().code() != StatusCode::kFailedPrecondition) {
      return Disposition::kRetryLater;
    }
    const std::string file = seat->game.id + ".pbem";
    std::string bytes;
    if (archive.ok()) bytes = codec::SerializeMessage(*archive, codec::Format::kBinary);
    if (!archive.ok()) {
      body = fr ? "La partie " + seat->game.id +
                      " n'a pas d'archive vérifiable : elle a été créée sans ses règles ni "
                      "son scénario.\n"
                : "Game " + seat->game.id +
                      " has no verifiable archive: it was created without its rules and "
                      "scenario.\n";
    } else if (bytes.size() > kMaxArchiveAttachmentBytes) {
      body = fr ? "L'archive de la partie " + seat->game.id + " (" +
                      std::to_string(archive->turns_size()) +
                      " tours de joueur) est trop grande pour un courriel : "
                      "téléchargez-la au lien ci-dessous.\n"
                : "The archive of game " + seat->game.id + " (" +
                      std::to_string(archive->turns_size()) +
                      " player-turns) is too large for a mail: download it from the link "
                      "below.\n";
    } else {
      body = fr ? "Ci-joint l'archive de la partie " + seat->game.id + " (" +
                      std::to_string(archive->turns_size()) +
                      " tours de joueur, dés compris). Pour la vérifier : pbem verify " + file +
                      "\n"
                : "Attached: the archive of game " + seat->game.id + " (" +
                      std::to_string(archive->turns_size()) +
                      " player-turns, dice included). To check it: pbem verify " + file + "\n";
      reply.attachments.push_back(
          storage::Attachment{file, "application/octet-stream", std::move(bytes)});
    }
    body += words.Links(seat->game.id);
  } else {
    // Help, or a status/archive the sender may not have: help only, never a game's state.
    if (command->kind != CommandKind::kHelp) {
      const std::string named = !command->game_id.empty() ? command->game_id : command->bad_game_id;
      body = named.empty() ? (fr ? "Ce courriel ne nomme aucune partie que vous jouez.\n\n"
                                 : "This mail names no game you play.\n\n")
                           : (fr ? "Vous ne jouez pas de partie « " + named + " ».\n\n"
                                 : "You play no game \"" + named + "\".\n\n");
    }
    body += HelpText(services, words);
    reply.subject = fr ? "pbem : aide" : "pbem: help";
  }
  if (!ok) return Disposition::kRetryLater;
  // Threads with the sender's mail: "Re: <subject>", once.
  if (!subject.empty()) {
    const bool re = subject.size() >= 3 && Lower(subject.substr(0, 3)) == "re:";
    reply.subject = re ? subject : "Re: " + subject;
  }
  reply.body = std::move(body);
  if (Result<std::int64_t> queued = repository.EnqueueMail(reply); !queued.ok()) {
    return Disposition::kRetryLater;
  }
  return Disposition::kAnswered;
}

}  // namespace pbem::daemon::mail
