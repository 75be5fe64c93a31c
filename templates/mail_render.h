// The mails players receive, as {subject, text body, HTML body}, in English or French: the
// results of a player-turn, the receipt of an orders mail, one reply per kind of error, and
// the deadline reminder (issue 6); the results of another game system's player-turn (M42, wme)
// through its SystemWords.
//
// The wording lives in template FILES, not in code: <dir>/<lang>/ holds, per mail kind,
// KIND.subject, KIND.txt and KIND.html (mustache, rendered with kainjow::mustache), and two
// sentence tables (reasons.table: a sentence per engine::Reason code; events.table: a
// sentence per event of the turn report, the headline, the verdict line and the date) plus
// words.table (sides, results, causes, modifiers, terrain, months, the map's title and
// legend). A table line is "key: sentence", where the sentence is itself a mustache template
// over the arguments of the verdict or event. Text bodies are rendered without escaping; HTML
// bodies escape every value (unit names and addresses come from strangers).
//
// The templates are read at run time from DefaultMailTemplateDir(data dir) =
// <data>/templates/mail (the data dir is $PBEM_DATA_DIR, else the source tree, as for the
// bundled rulesets), so that an operator can fix a wording without a rebuild. Load() checks
// every file at once: a missing file, a template that does not parse, or a reason code with
// no sentence in some language fails the load, naming the file.
#ifndef PBEM_TEMPLATES_MAIL_RENDER_H_
#define PBEM_TEMPLATES_MAIL_RENDER_H_

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"
#include "engine/morne_plaine/verdict.h"
#include "engine/system/game_system.h"
#include "templates/status.h"
#include "templates/system_words.h"

namespace pbem::templates {

// The language a player reads; chosen per player (a player's setting, default English).
enum class Language : std::uint8_t { kEnglish, kFrench };
inline constexpr std::array<Language, 2> kAllLanguages{Language::kEnglish, Language::kFrench};
std::string_view LanguageCode(Language language);  // "en", "fr": the template directory
// "en"/"fr" (also "english", "french", "francais", "français"; any case).
std::optional<Language> ParseLanguage(std::string_view text);

// Every reply to a mail the service could not take as orders.
enum class ErrorKind : std::uint8_t {
  kMalformed,        // the orders do not parse
  kIllegal,          // they parse, but some orders are invalid or illegal: nothing was taken
  kUnauthenticated,  // sender or token does not match the game's player
  kWrongGame,        // no such game, or the game is over
  kStaleTurn,        // orders for a turn that is not the current one
  kOversized,        // the mail is larger than the limit
  kDuplicate,        // the same mail (Message-ID or bytes) was received before
  kUnavailable,      // the game cannot take orders now (its scenario or rules do not load)
};
inline constexpr std::array<ErrorKind, 8> kAllErrorKinds{
    ErrorKind::kMalformed, ErrorKind::kIllegal,    ErrorKind::kUnauthenticated,
    ErrorKind::kWrongGame, ErrorKind::kStaleTurn,  ErrorKind::kOversized,
    ErrorKind::kDuplicate, ErrorKind::kUnavailable};
// "malformed", "illegal", ...; the templates are error_<name>.{subject,txt,html}.
std::string_view ErrorKindName(ErrorKind kind);

struct Mail {
  std::string subject;  // one line
  std::string text;     // text/plain body
  std::string html;     // text/html body: a whole document
};

// The results of one resolved player-turn, for one player.
struct ResultsInput {
  const engine::Scenario* scenario = nullptr;  // REQUIRES: not null
  const engine::TurnResult* result = nullptr;  // REQUIRES: not null
  std::string game_id;
  int turn = 0;                 // the game turn that was resolved
  std::string side = "blue";    // the side that moved: the system's side id
  std::string player;           // the recipient's address
  std::string revealed_seed;    // this turn's dice seed, hex, now revealed
  std::string next_commitment;  // SHA-256 of the next turn's seed; empty at the end
  std::optional<std::chrono::sys_seconds> next_deadline;
  // The recipient's name (storage Player::name) when there is one: "Hello Hélène,"; else the
  // greeting names nobody ("Hello,"), never the address.
  std::string player_name;
  // No orders arrived by the deadline: the side played none (the mail says so, not "nothing
  // happened").
  bool orders_missed = false;
};

// The results of one resolved player-turn of a game of another system than Morne Plaine
// (M42, wme), for one player: the verdicts and events through the system's SystemWords
// (templates/system_words.h), system_results.{subject,txt,html}. Every player of the game gets
// it, the mover too: it says "the red side", never "you".
struct SystemResultsInput {
  std::string system;  // the registry key: "m42", "wme"
  std::string game_id;
  int turn = 0;             // the game turn that was resolved
  std::string side;         // the player who moved: the system's side/player id ("blue", "red")
  std::string player;       // the recipient's address
  std::string player_name;  // "" -> the greeting names nobody
  std::vector<game_system::Verdict> verdicts;  // the mover's orders as judged (may be empty)
  std::vector<game_system::Event> events;      // what happened, in order
  bool orders_missed = false;                  // no orders arrived by the deadline
  std::string revealed_seed;                   // this turn's dice seed, hex, now revealed
  std::string next_commitment;                 // SHA-256 hex of the next turn's seed; "" at the end
  bool finished = false;                       // the game ended with this turn
  int next_turn = 0;                           // when not finished: whose turn is next
  std::string next_side;
  std::optional<std::chrono::sys_seconds> next_deadline;
  std::string message;  // the mover's message to the others ("" when none)
  // When finished: the winner's side id ("The game is over: the red side wins."); else, with
  // `draw`, "The game is over: a draw."; with neither, "The game is over." alone.
  std::string winner;
  bool draw = false;
};

// The answer to an orders mail that was taken: one line per order with its verdict.
struct ReceiptInput {
  const engine::Scenario* scenario = nullptr;  // may be null: unit ids are shown as sent
  std::vector<engine::OrderVerdict> verdicts;
  // A game of another system than Morne Plaine: its registry key ("m42", "wme") and its
  // verdicts, listed instead of `verdicts` and worded by its SystemWords (one line each as in
  // its results mail, events.table "system_verdict"); an error, and no mail, when the system
  // has no words or a reason no sentence.
  std::string system;
  std::vector<game_system::Verdict> system_verdicts;
  std::string game_id;
  int turn = 0;
  std::string side = "blue";  // the system's side id
  std::string player;
  std::optional<std::chrono::sys_seconds> deadline;
  // The recipient's name when there is one: "Hello Alice,"; else the greeting names nobody
  // ("Hello,"), never the address.
  std::string player_name;
};

// The answer to an orders mail that was refused.
struct ErrorReplyInput {
  ErrorKind kind = ErrorKind::kMalformed;
  std::string player;            // the sender's address
  std::string game_id;           // as named by the mail; may be empty
  std::string original_subject;  // quoted back
  // kMalformed: the parser's messages ("orders.txt:3:7: unknown field \"foo\"").
  std::vector<std::string> problems;
  // kIllegal: the verdicts (only those not ok are listed); kWrongGame / kStaleTurn may carry
  // the header verdict. scenario may be null.
  std::vector<engine::OrderVerdict> verdicts;
  const engine::Scenario* scenario = nullptr;
  // kIllegal of a game of another system: as ReceiptInput's, only those not ok listed.
  std::string system;
  std::vector<game_system::Verdict> system_verdicts;
  int current_turn = 0;             // kStaleTurn: the turn the game is at
  int received_turn = 0;            // kStaleTurn: the turn the orders named
  std::int64_t size_bytes = 0;      // kOversized; 0: not known (only "more than the limit")
  std::int64_t limit_bytes = 0;     // kOversized
  std::string original_message_id;  // kDuplicate: the earlier mail
  // The service's stable error code ("unauthenticated", ...) and its sentence naming the exact
  // problem ("the token in the orders is not the token of side blue"), shown as "Error: CODE"
  // and "Detail: SENTENCE" under the explanation when set (the sentence is the service's own,
  // in English, the same words as the HTTP API's error). Not shown for kDuplicate.
  std::string code;
  std::string detail;
  // The recipient's name when there is one: "Hello Alice,"; else the greeting names nobody
  // ("Hello,"), never the address.
  std::string player_name;
};

struct ReminderInput {
  std::string game_id;
  int turn = 0;
  std::string side = "blue";  // the system's side id
  std::string player;
  std::chrono::sys_seconds deadline;
  std::chrono::minutes time_left{0};
  // The recipient's name when there is one: "Hello Alice,"; else the greeting names nobody
  // ("Hello,"), never the address.
  std::string player_name;
};

// The welcome mail of a new game, for one player (issue 14): their side, who plays the other
// side, the scenario, their token, how to send orders, where the rules are; for the side that
// moves first it starts with "your move, due by ..." and carries the orders template.
struct WelcomeInput {
  struct OtherPlayer {
    std::string side = "blue";  // the system's side id
    std::string address;
    std::string name;  // empty: the player gave none
  };
  std::string game_id;
  std::string scenario_title;
  int turns = 0;                                     // the scenario's length in game turns
  std::string player;                                // the recipient's address
  std::string side = "blue";                         // the system's side id
  std::vector<OtherPlayer> others;                   // the other players of the game
  std::string first_side = "blue";                   // the system's side id
  std::optional<std::chrono::sys_seconds> deadline;  // of the first turn
  std::string token;       // the player's token, in clear (it is only stored hashed)
  std::string reply_to;    // pbemd's own address
  std::string rules_file;  // the attached rules' file name ("RULES.md")
  std::string rules_path;  // where they are in the project ("engine/rulesets/.../RULES.md")
  // The side's orders template (daemon/orders_template.h) and its attachment's name; used
  // when `side` moves first.
  std::string orders_template;
  std::string orders_file;
  // The recipient's name when there is one: "Hello Alice,"; else the greeting names nobody
  // ("Hello,"), never the address.
  std::string player_name;
};

// What a mail asking a player to move carries: a first line "your move, due by ..." and, near
// its end, the orders template with how to use it (your_move.* and orders_block.*).
struct MoveRequestInput {
  std::optional<std::chrono::sys_seconds> deadline;
  std::string orders_template;
  std::string orders_file;
};
struct MoveRequest {
  std::string headline_text, headline_html;  // "Your move, due by ..."
  std::string block_text, block_html;        // the template, quoted, with how to use it
};

// One game of the reply to a "status" mail command (daemon/mail/commands.h), as the sender
// plays it: command_game.txt, one paragraph.
struct GameStatusInput {
  std::string game_id;
  std::string scenario;
  std::string unreadable;  // why the game's state cannot be read now; empty when it can
  int turn = 0;
  std::string side;   // the sender's side ("blue")
  std::string mover;  // the side to move
  bool over = false;
  std::string result;                   // the game's result, when over
  bool orders_in = false;               // the sender's orders of this turn are in
  std::chrono::sys_seconds received{};  // ... received then
  bool paused = false;
  bool open_turn = false;  // the turn to play was read: `deadline` is its deadline
  std::optional<std::chrono::sys_seconds> deadline;  // nullopt: the game has none
  std::string history_url;                           // the game's links; empty without a public URL
  std::string archive_url;
};

// The reply to a mail command (daemon/mail/commands.h): command_<kind>.{subject,txt}, text
// only, greeting the sender by name when they have one.
enum class CommandReplyKind : std::uint8_t {
  kStatus,   // one game: games[0]
  kGames,    // the sender's games: games
  kArchive,  // a game's archive file
  kHelp,     // how to play by mail (also to whom a status/archive names no game of theirs)
};
struct CommandReplyInput {
  CommandReplyKind kind = CommandReplyKind::kHelp;
  std::string player_name;
  std::string game_id;             // kStatus, kArchive
  std::vector<std::string> games;  // kStatus, kGames: RenderGameStatus paragraphs
  std::size_t cut_at = 0;          // kGames: the list was cut at this many (0: whole)
  enum class Archive : std::uint8_t { kAttached, kTooLarge, kNone };
  Archive archive = Archive::kNone;  // kArchive
  int player_turns = 0;              // kArchive: in the archive
  std::string file;                  // kArchive: the attachment's name
  std::string history_url;           // kArchive: the game's links; empty without a public URL
  std::string archive_url;
  bool names_no_game = false;  // kHelp: answering a status/archive that names no game ...
  std::string named_game;      // ... or a game the sender does not play
  std::string address;         // kHelp: pbemd's own address
  std::string public_url;      // kHelp: "http://host:port"; empty: no links
};

// The notice to a player that the referee could not resolve a turn of their game (its turn
// job failed too often: daemon/scheduler.h): turn_stuck.{subject,txt}, text only.
struct TurnStuckInput {
  std::string game_id;
  std::string player_name;
  // The turn the game waits for, and its side; 0 when it is not known (the game's stored
  // state itself may be what cannot be read).
  int turn = 0;
  std::string side = "blue";  // the system's side id
};

// The mail templates of every language, parsed once. Rendering is const and thread-safe.
class MailTemplates {
 public:
  // Loads and checks every template and table of every language under `dir`, and the words
  // (SystemWords, `dir`/<lang>/systems/) of every system of game_system::BuiltinRegistry() but
  // Morne Plaine: a missing or wrong table fails the load, naming the file.
  // REQUIRES: out != nullptr.
  static Status Load(const std::filesystem::path& dir, MailTemplates* out);

  Status RenderResults(Language language, const ResultsInput& input, Mail* out) const;
  // The results mail of another system than Morne Plaine (templates/mail_system_results.cc):
  // the mover's orders as judged (one line per verdict, its reason worded by the system's
  // SystemWords), one line per event, the dice, the next turn. An error, and no mail, when the
  // system's words are not loaded (an unknown system, or Morne Plaine: RenderResults) or a
  // verdict's reason or an event's kind has no sentence: a code is never shown to a player.
  Status RenderSystemResults(Language language, const SystemResultsInput& input, Mail* out) const;
  Status RenderReceipt(Language language, const ReceiptInput& input, Mail* out) const;
  Status RenderErrorReply(Language language, const ErrorReplyInput& input, Mail* out) const;
  Status RenderReminder(Language language, const ReminderInput& input, Mail* out) const;
  Status RenderWelcome(Language language, const WelcomeInput& input, Mail* out) const;
  Status RenderMoveRequest(Language language, const MoveRequestInput& input,
                           MoveRequest* out) const;
  // The mail commands' replies (templates/command_mail.cc): text only (Mail::html empty).
  Status RenderGameStatus(Language language, const GameStatusInput& input, std::string* text) const;
  Status RenderCommandReply(Language language, const CommandReplyInput& input, Mail* out) const;
  // templates/turn_stuck_mail.cc
  Status RenderTurnStuck(Language language, const TurnStuckInput& input, Mail* out) const;

  // The turn report alone (events, rally, victory points, dice) as an HTML fragment (no
  // <html>), for the archive page: the same words as the results mail.
  Status RenderReportFragment(Language language, const ResultsInput& input,
                              std::string* html) const;

  // The player's sentence for a reason code with its arguments, as plain text; empty when
  // the table has none (Load refuses such a table, so only for kNone).
  std::string ReasonSentence(Language language, engine::Reason reason,
                             const std::vector<engine::Arg>& args) const;
  // THE wording of an order's verdict for a person, as plain text: "move 2 (Dragons (b-c1)):
  // refused: 1107 cannot be reached this turn (3 MP left)." Unit ids are named from `scenario`
  // (may be null: ids as sent); hexes are labelled with `label_width` digits per coordinate
  // (0: the scenario's). The mails, `pbem orders check` and the HTTP API's "text" use it; the
  // reason code stays a machine field beside it.
  std::string VerdictSentence(Language language, const engine::OrderVerdict& verdict,
                              const engine::Scenario* scenario, int label_width = 0) const;
  // A moment as players read it, in UTC: "le 25 novembre 2026 à 19 h 41 UTC",
  // "25 November 2026 at 19:41 UTC" (events.table "date", words "month.N", "day.N").
  std::string FormatDate(Language language, std::chrono::sys_seconds moment) const;
  // A word of words.table ("side", "blue" -> "bleu"); the code itself when there is none.
  std::string Word(Language language, std::string_view group, std::string_view code) const;
  // The language's whole words table ("group.code" -> word), e.g. for the map's title and
  // legend (RenderOptions::words).
  const std::map<std::string, std::string, std::less<>>& WordTable(Language language) const {
    return Set(language).words;
  }
  // True when the language's reasons.table has a sentence for `code`.
  bool HasReasonSentence(Language language, std::string_view code) const;
  // The words of a system of game_system::BuiltinRegistry() other than Morne Plaine ("m42",
  // "wme"), loaded by Load for every language; nullptr for any other name.
  const SystemWords* SystemWordsOf(Language language, std::string_view system) const;

  // One language's files and tables as loaded (an implementation detail of the renderer).
  struct LanguageSet {
    std::map<std::string, std::string, std::less<>> files;  // "results.txt" -> template text
    std::map<std::string, std::string, std::less<>> reasons;
    std::map<std::string, std::string, std::less<>> events;
    std::map<std::string, std::string, std::less<>> words;
    // Every built-in system but Morne Plaine, by registry name (mail/<lang>/systems/).
    std::map<std::string, SystemWords, std::less<>> systems;
  };

 private:
  const LanguageSet& Set(Language language) const;
  std::array<LanguageSet, kAllLanguages.size()> sets_;
};

// <data_dir>/templates/mail
std::filesystem::path DefaultMailTemplateDir(const std::filesystem::path& data_dir);

}  // namespace pbem::templates

#endif  // PBEM_TEMPLATES_MAIL_RENDER_H_
