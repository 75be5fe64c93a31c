// GameRepository: the one interface through which the service stores games, players, order
// submissions, turns and outgoing mail, whatever the database (SqliteRepository on one file,
// PostgresRepository on a server). Both backends pass the same contract suite
// (tests/storage/repository_contract.h).
//
// Conventions of every method:
// - Failures are Status values; no exception leaves a repository.
// - Bytes are std::string (what the protobuf codec produces); they may hold any byte.
// - Storage never reads a clock: every time is passed in by the caller as a Timestamp
//   (milliseconds since the Unix epoch, UTC) and stored as that integer.
// - REQUIRES for everything but OpenOrMigrate(): OpenOrMigrate() succeeded; otherwise the
//   method returns FAILED_PRECONDITION.
// - A repository instance is not thread-safe: use one per thread. Several instances (and
//   processes) may share one store; the database serialises their writes.
#ifndef PBEM_STORAGE_GAME_REPOSITORY_H_
#define PBEM_STORAGE_GAME_REPOSITORY_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/status.h"

namespace pbem::storage {

using Bytes = std::string;
using Timestamp = std::chrono::sys_time<std::chrono::milliseconds>;

// How long a side has for its orders, as pinned in the game when it was created.
struct DeadlineSettings {
  std::chrono::seconds turn_timeout{0};     // the side forfeits its turn after this long
  std::chrono::seconds reminder_before{0};  // remind the side this long before the timeout
};

// The game system of the games stored before games named theirs (migration 17): every one was
// Morne Plaine's, the one system there was.
inline constexpr std::string_view kFirstGameSystem = "morne-plaine";

struct NewGame {
  std::string id;  // chosen by the caller; unique
  // The registry key of the game system whose rules play it (engine/system/registry.h:
  // "morne-plaine", "m42", "wme"); not empty. What reads the game's state, rules and turns.
  std::string system = std::string(kFirstGameSystem);
  std::string scenario;
  std::string ruleset_name;
  std::string ruleset_version;
  std::string engine_version;
  DeadlineSettings deadlines;
  Bytes initial_state;  // a serialised pbem.v1.GameState
  Timestamp created_at;
  // The ruleset and scenario the game is played with, pinned as serialised pbem.v1.Ruleset and
  // pbem.v1.Scenario (what archives and `pbem verify` re-resolve with). May be empty for
  // callers that keep them elsewhere; an archive cannot be exported without them.
  Bytes ruleset_proto;
  Bytes scenario_proto;
};

// How a game ended, as a value (never a sentence parsed back; templates word it). Stored with
// the game by EndGame (and CommitTurn's `end`); the league reads it.
enum class GameEndKind {
  kVictory,   // the game was decided: `winner` at `level`
  kDraw,      // no winner
  kResigned,  // `winner`'s opponent resigned
  kForfeit,   // `winner`'s opponent missed too many turns (no winner when both did)
};
// "victory", "draw", "resigned", "forfeit": the stored text of a kind, and back (nullopt for
// any other text).
std::string_view GameEndKindName(GameEndKind kind);
std::optional<GameEndKind> ParseGameEndKind(std::string_view name);

struct GameEnding {
  GameEndKind kind = GameEndKind::kDraw;
  std::string winner;  // "blue" / "orange" (a side); empty when there is none
  std::string level;   // the level awarded, as engine::VictoryLevelName ("draw" when no winner)
  // Recorded by a league organiser (pbem league result, a result route): the game was stopped
  // by a ruling, not played out.
  bool by_organiser = false;
  // The game's turns_committed when it ended; set by the store (input ignored).
  std::int64_t turn = 0;
  // The sentence players are told (becomes Game::result); not empty. Only shown, never read
  // back by code.
  std::string text;
};

struct Game {
  std::string id;
  std::string system;  // NewGame::system; kFirstGameSystem for games stored before migration 17
  std::string scenario;
  std::string ruleset_name;
  std::string ruleset_version;
  std::string engine_version;
  DeadlineSettings deadlines;
  Bytes state;           // the current state: the initial one, or the next_state of the last turn
  Bytes initial_state;   // the state the game was created with
  Bytes ruleset_proto;   // pinned pbem.v1.Ruleset (empty when none was given)
  Bytes scenario_proto;  // pinned pbem.v1.Scenario (empty when none was given)
  Timestamp created_at;
  // How many turns have been committed; a new turn must name it (TurnCommit::based_on).
  std::int64_t turns_committed = 0;
  // Set while the game is paused (SetPaused): its clock stands still.
  std::optional<Timestamp> paused_at{};
  // The result of a game ended by the service (EndGame, e.g. a forfeit), as players read it
  // (GameEnding::text); empty while it is played (a game the engine finished has finished set
  // in its state instead).
  std::string result;
  // How it ended, as a value; set exactly when `result` is (games ended before schema 11 were
  // given theirs by that migration from the sentences the service wrote then).
  std::optional<GameEnding> ending;
};

// What a game's public reads depend on, read without its states (GameRepository::
// GetGameVersion): a committed turn, an end (resignation, forfeit, an organiser's result) or a
// re-created game changes it. The HTTP API keys its cache of encoded states on it.
struct GameVersion {
  Timestamp created_at;
  std::int64_t turns_committed = 0;
  std::optional<GameEnding> ending{};
};

inline GameVersion VersionOf(const Game& game) {
  return GameVersion{game.created_at, game.turns_committed, game.ending};
}

struct NewPlayer {
  std::string game_id;
  std::string side;  // unique within the game
  std::string mail_address;
  std::string token;            // the secret in clear; only its SHA-256 is stored
  std::string language = "en";  // the language the player's mails are written in
  // How the player's mails greet them (printable UTF-8, at most 64 characters, checked by the
  // caller: daemon/validate.h DisplayNameProblem); empty: no name, the mails greet nobody.
  std::string name{};
};

struct Player {
  std::string game_id;
  std::string side;
  std::string mail_address;
  std::string token_sha256;       // lower-case hex
  std::string language = "en";    // "en" for players stored before languages were
  std::int64_t missed_turns = 0;  // turns of this side resolved without orders (TurnCommit::missed)
  std::string name{};             // NewPlayer::name; empty for players stored before names
};

// A game and its players, created together (CreateGameWithPlayers, AddLeagueRound).
struct NewGameWithPlayers {
  NewGame game;
  std::vector<NewPlayer> players;
};

enum class Channel { kMail, kHttp };

// One order submission exactly as received, and what the service answered.
struct NewSubmission {
  std::string game_id;
  // The game's turns_committed the submission was judged against: the position it is for.
  // An accepted submission is stored only while the game is still there (RecordSubmission).
  std::int64_t turn = 0;
  // The side of the player who sent it (identified by address or token); empty when unknown.
  // Required for an accepted submission.
  std::string side;
  Channel channel = Channel::kMail;
  std::string sender;      // mail From: address, or the HTTP client's identity
  std::string message_id;  // mail Message-ID; empty when there is none (HTTP)
  Bytes raw;               // the whole message or request body, exactly as received
  // The orders exactly as validated (serialised pbem.v1.Orders, codec::CanonicalOrders): what
  // the turn is resolved with. Required for an accepted submission; empty for a refused one.
  Bytes orders;
  Timestamp received_at;
  Bytes verdicts;  // serialised verdicts; may be empty
  bool accepted = false;
  std::string reason;  // why it was rejected (or a note); may be empty
};

struct Submission {
  std::int64_t id = 0;  // assigned by the store, increasing in order of storing
  std::string game_id;
  std::int64_t turn = 0;
  std::string side;  // empty for submissions stored before schema 8, or of an unknown sender
  Channel channel = Channel::kMail;
  std::string sender;
  std::string message_id;
  Bytes raw;
  Bytes orders;                // the validated orders; empty when refused (or before schema 8)
  std::string content_sha256;  // lower-case hex SHA-256 of raw
  Timestamp received_at;
  Bytes verdicts;
  bool accepted = false;
  std::string reason;
};

struct RecordedSubmission {
  std::int64_t id = 0;     // the stored submission: the new one, or the earlier original
  bool duplicate = false;  // true when an earlier submission was found and nothing was stored
  // True when an accepted submission came too late: the game is no longer at `turn` (a turn
  // was committed since it was judged) or it has ended. Nothing was stored (id 0): judge it
  // again against the game as it is now.
  bool stale = false;
};

struct Attachment {
  std::string filename;
  std::string content_type;
  Bytes data;
};

struct NewMail {
  std::string recipient;
  std::string subject;
  std::string body;
  std::vector<Attachment> attachments;
  Timestamp next_try;  // first attempt not before this time (usually "now")
};

struct OutboxMail {
  std::int64_t id = 0;
  std::string recipient;
  std::string subject;
  std::string body;
  std::vector<Attachment> attachments;  // in the order given
  std::int64_t attempts = 0;            // failed attempts so far
  Timestamp next_try;
  std::optional<Timestamp> sent_at;  // set once sent; a sent mail is never due again
  // Set once dead-lettered (MarkMailDead): the relay refused it for good, or it failed too
  // often. A dead letter is never due again until RequeueMail; it is never deleted (a sent
  // mail is, by PruneSentMail, once its retention ran out).
  std::optional<Timestamp> failed_at;
  std::string last_error;
  // The last claimant (ClaimDueMail): for a sent mail, the one that sent it; empty when the
  // mail was never claimed. claimed_until is set while a claim runs (until its lease ends).
  std::string claimed_by;
  std::optional<Timestamp> claimed_until;
};

// A game the scheduler works on (GameRepository::ListSchedulableGames), with the failures of
// its turn job counted so far.
struct SchedulableGame {
  std::string id;
  std::int64_t turn_failures = 0;
};

// When the scheduler next needs to look at a game (migration 16). The store keeps the rule
// "written means due" itself (triggers): any write to the game's row, its open turns, its
// submissions or its players makes the game due at once and bumps `sequence`, whichever code
// path wrote it. Only the scheduler, having looked at the game, stores a later wake-up
// (SetWake), and only if nothing was written since it read `sequence`.
struct GameWake {
  std::int64_t sequence = 0;
  // Due from then (the epoch: at once); nullopt: not until something is written.
  std::optional<Timestamp> due;
};

// A failure of a game's turn job that is not a database outage (migration 14): a stored state
// or submission the engine or codec refuses, a scenario file gone, a bug. The game is retried
// with a growing delay, and after too many failures in a row it is stuck: the scheduler
// leaves it until an operator retries it (pbem turns retry).
struct TurnFailure {
  std::string game_id;
  // The failures counted before this one, as ListSchedulableGames read them: a compare-and-set.
  std::int64_t failures_before = 0;
  std::string error;   // for the operator (pbem turns stuck, logs); never shown to players
  Timestamp at;        // when it failed
  Timestamp retry_at;  // the game is not schedulable before
  // This failure makes the game stuck: from `at`, not schedulable until RetryStuckGame, and
  // `mails` (the players told) enqueued in the same transaction, so they go once.
  bool stuck = false;
  std::vector<NewMail> mails;
};

// A stuck game, for the operator (GameRepository::ListStuckGames).
struct StuckGame {
  std::string game_id;
  std::int64_t turns_committed = 0;
  std::int64_t turn_failures = 0;
  Timestamp failed_at;  // when it became stuck
  std::string error;    // the last failure
};

// A turn opened for orders: the secret dice seed drawn for it before any order is resolved, and
// the commitment published to the players. Keyed by (game, turn, side) like Turn.
struct OpenTurn {
  std::string game_id;
  std::int64_t turn = 0;
  std::string side;
  std::int64_t based_on = 0;  // the game's turns_committed when the turn opened
  Bytes dice_seed;            // secret until the turn is committed; never empty
  Bytes dice_commitment;      // serialised pbem.v1.DiceCommitment (no seed in it)
  Timestamp opened_at;
  // Read back only: how long the game was paused while this turn was open (its deadline
  // moves by as much), and when its side was reminded (RecordReminder).
  std::chrono::milliseconds paused{0};
  std::optional<Timestamp> reminded_at{};
};

// One side's resolved turn and the game state it leads to.
struct TurnCommit {
  std::string game_id;
  std::int64_t turn = 0;
  std::string side;
  // The game's turns_committed the turn was resolved from: guards against committing a turn
  // resolved from a stale state.
  std::int64_t based_on = 0;
  Bytes orders;           // the canonical orders resolved (serialised pbem.v1.Orders)
  Bytes dice_seed;        // the secret seed of the turn
  Bytes dice_commitment;  // its published commitment (serialised pbem.v1.DiceCommitment)
  Bytes result;           // serialised pbem.v1.TurnResult (verdicts and event log)
  Bytes next_state;       // serialised pbem.v1.GameState: becomes the game's state
  Timestamp committed_at;
  // Mails announcing the turn, enqueued in the same transaction (only when the turn is new).
  std::vector<NewMail> mails;
  // The next player-turn, opened in the same transaction (only when the turn is new), so
  // that the commitment the result mails publish is the stored one. Its based_on must be
  // based_on + 1. Stored as RecordOpenTurn would, unless that (game, turn, side) is open.
  std::optional<OpenTurn> next_open{};
  // The side sent no orders (its deadline passed): its player's missed_turns goes up by one,
  // in the same transaction (only when the turn is new).
  bool missed = false;
  // The accepted submission whose orders were resolved (Submission::id); 0 when none (missed,
  // or orders that did not come through submissions). A new turn is committed only when the
  // side has no accepted submission for the position based_on stored after this one (for 0:
  // none at all): else FAILED_PRECONDITION, and the caller resolves again. So an order
  // accepted while the turn was being resolved is never silently left unplayed.
  std::int64_t played_submission = 0;
  // When set, the turn also ends the game with this ending (e.g. a forfeit after too many
  // missed turns), in the same transaction, as EndGame would (only when the turn is new).
  std::optional<GameEnding> end;
};

struct Turn {
  std::string game_id;
  std::int64_t turn = 0;
  std::string side;
  std::int64_t sequence = 0;  // 1 for the first turn committed in the game, then 2, ...
  Bytes orders;
  Bytes dice_seed;
  Bytes dice_commitment;
  Bytes result;
  Bytes next_state;
  Timestamp committed_at;
};

struct CommittedTurn {
  Turn turn;              // as stored
  bool replayed = false;  // true when (game, turn, side) was already stored: nothing changed
};

class GameRepository {
 public:
  virtual ~GameRepository() = default;

  // Opens the store, creating it if needed, and applies every migration this program knows
  // that the store lacks, each in its own transaction. Returns the schema version in force.
  // Fails (FAILED_PRECONDITION) without touching the store when its schema is newer than
  // this program knows: an older binary must never write to a newer schema.
  virtual Result<int> OpenOrMigrate() = 0;

  // The schema version recorded in the store.
  virtual Result<int> SchemaVersion() = 0;

  // --- games and players --------------------------------------------------------------------

  // ALREADY_EXISTS when a game with that id exists; INVALID_ARGUMENT when the id is empty.
  virtual Status CreateGame(const NewGame& game) = 0;
  // Creates the game and its players (as AddPlayer would) in ONE transaction: all of it is
  // stored or nothing, so a refused creation can be retried with the same id. ALREADY_EXISTS
  // when the id is taken or two players have one side; INVALID_ARGUMENT for an empty id or
  // token, or a player of another game. `mails` (the players' welcome mails) are enqueued in
  // the same transaction: a game is never stored without them, nor they without it.
  virtual Status CreateGameWithPlayers(const NewGame& game, const std::vector<NewPlayer>& players,
                                       const std::vector<NewMail>& mails) = 0;
  // NOT_FOUND when there is no such game.
  virtual Result<Game> GetGame(const std::string& game_id) = 0;
  // GetGame's created_at, turns_committed and ending, without reading any state: one row read
  // from the database (never a copy kept in the process), so every instance sharing the
  // database sees a commit or an end at once. NOT_FOUND when there is no such game. The
  // default reads the whole game.
  virtual Result<GameVersion> GetGameVersion(const std::string& game_id);
  // The ids of every game, in id order.
  virtual Result<std::vector<std::string>> ListGames() = 0;

  // Stores the player with SHA-256(token). NOT_FOUND when the game does not exist;
  // ALREADY_EXISTS when the side already has a player; INVALID_ARGUMENT for an empty token.
  virtual Status AddPlayer(const NewPlayer& player) = 0;
  // Ordered by side; empty for an unknown game.
  virtual Result<std::vector<Player>> ListPlayers(const std::string& game_id) = 0;
  // True when SHA-256(token) is the stored hash of (game, side); false when it is not.
  // NOT_FOUND when the game has no such side.
  virtual Result<bool> VerifyToken(const std::string& game_id, const std::string& side,
                                   const std::string& token) = 0;

  // --- order submissions --------------------------------------------------------------------

  // Stores a submission, in one transaction that holds the game's row, unless:
  //   - it duplicates an ACCEPTED submission of the same side of the same game: the same
  //     non-empty Message-ID (the same mail again), or, for an accepted one, the same SHA-256
  //     of raw and the same validated orders as the side's latest accepted submission for the
  //     same turn. A duplicate stores
  //     nothing and returns the original's id with duplicate = true. A refused submission is
  //     never the original of a duplicate, and another side's never either.
  //   - it is accepted but the game has moved on: its turns_committed is no longer `turn`, or
  //     it has ended. Then nothing is stored and stale = true (the caller judges it again).
  // So an accepted submission is stored only while the turn it was judged for is open, and
  // CommitTurn (which holds the same row) sees every one stored before it.
  // NOT_FOUND when the game does not exist; INVALID_ARGUMENT for an accepted submission with
  // no side or no orders.
  virtual Result<RecordedSubmission> RecordSubmission(const NewSubmission& submission) = 0;
  // In the order stored; empty for an unknown game.
  virtual Result<std::vector<Submission>> ListSubmissions(const std::string& game_id) = 0;
  // Those to the position after `turn` committed turns (Submission::turn), in the order
  // stored: what the turn loop reads at every visit, through an index, whatever the game's
  // history (issue 19 point 4).
  virtual Result<std::vector<Submission>> ListTurnSubmissions(const std::string& game_id,
                                                              std::int64_t turn) = 0;

  // --- turns --------------------------------------------------------------------------------

  // In ONE transaction: stores the turn, makes next_state the game's state, increments its
  // turns_committed and enqueues the mails. Idempotent by (game, turn, side): when that turn
  // is already stored, changes nothing and returns the stored turn with replayed = true (even
  // if the new commit's bytes differ: the first commit wins). Otherwise FAILED_PRECONDITION
  // when based_on is not the game's turns_committed (resolved from a stale state), when the
  // turn was opened (RecordOpenTurn) with another seed than commit.dice_seed (dice other than
  // those committed to), when the game has ended, when the turn is missed but the game is
  // paused, or when the side has an accepted submission newer than played_submission (see
  // TurnCommit); NOT_FOUND when the game does not exist.
  virtual Result<CommittedTurn> CommitTurn(const TurnCommit& commit) = 0;
  // In the order committed; empty for an unknown game.
  virtual Result<std::vector<Turn>> ListTurns(const std::string& game_id) = 0;

  // Stores the open turn (seed and commitment) unless one is stored for (game, turn, side):
  // then changes nothing and returns the stored one (the first seed wins, so a commitment once
  // published never changes). Otherwise NOT_FOUND when the game does not exist,
  // FAILED_PRECONDITION when based_on is not the game's turns_committed, INVALID_ARGUMENT when
  // the seed is empty. Returns the open turn as stored.
  virtual Result<OpenTurn> RecordOpenTurn(const OpenTurn& open) = 0;
  // NOT_FOUND when (game, turn, side) was never opened.
  virtual Result<OpenTurn> GetOpenTurn(const std::string& game_id, std::int64_t turn,
                                       const std::string& side) = 0;

  // Loads a whole game (from an archive) in ONE transaction: creates it, then stores each turn
  // in order as opened (seed and commitment) and committed, as turn number i + 1; the game's
  // state becomes the last turn's next_state. Mails of the commits are ignored. Either all of
  // it is stored or nothing. ALREADY_EXISTS when the id is taken; INVALID_ARGUMENT when the id
  // is empty or turns[i] names another game, has based_on != i or has no seed.
  virtual Status ImportGame(const NewGame& game, const std::vector<TurnCommit>& turns) = 0;

  // --- the scheduler ------------------------------------------------------------------------

  // Pauses (paused = true) or resumes the game. Resuming adds the time since the pause to the
  // `paused` time of the turn the game waits for (the open turn based on turns_committed), so
  // its deadline moves by as much. Pausing a paused game, or resuming a running one, changes
  // nothing. NOT_FOUND when the game does not exist.
  virtual Status SetPaused(const std::string& game_id, bool paused, Timestamp now) = 0;

  // The organiser's deadline extension: moves the deadline of the turn the game waits for (the
  // open turn based on `based_on`) `extension` later, clears its reminder (the side is reminded
  // again before the new deadline) and enqueues `mails`, in one transaction. Returns false and
  // changes nothing when the game has moved on (turns_committed is not `based_on`), has ended
  // (EndGame) or that turn was never opened. NOT_FOUND for an unknown game; INVALID_ARGUMENT
  // for an extension that is not positive.
  virtual Result<bool> ExtendDeadline(const std::string& game_id, std::int64_t based_on,
                                      std::chrono::milliseconds extension,
                                      const std::vector<NewMail>& mails) = 0;

  // Marks the open turn (game, turn, side) reminded at `at` and enqueues `mail`, in one
  // transaction, once: returns false and changes nothing when it was reminded before.
  // NOT_FOUND when that turn was never opened.
  virtual Result<bool> RecordReminder(const std::string& game_id, std::int64_t turn,
                                      const std::string& side, Timestamp at,
                                      const NewMail& mail) = 0;

  // Ends the game with `ending` (Game::result becomes ending.text), enqueuing `mails` in the
  // same transaction, provided the game is still where the caller read it: its
  // turns_committed is `expected_turns` (a compare-and-set, under the game's row lock). Once
  // ended, the first ending stays: ending again changes nothing and returns false.
  // FAILED_PRECONDITION (nothing changed) when the game is running but has moved on (a turn
  // was committed since the caller read it: judge again); INVALID_ARGUMENT for an empty
  // ending.text; NOT_FOUND for an unknown game.
  virtual Result<bool> EndGame(const std::string& game_id, std::int64_t expected_turns,
                               const GameEnding& ending, Timestamp at,
                               const std::vector<NewMail>& mails) = 0;

  // --- failing turn jobs (migration 14) -----------------------------------------------------

  // The games a scheduler pass works on at `now`, in id order: the games due at `now` (see
  // GameWake), but not the stuck ones nor those backing off after a failure (retry_at later
  // than `now`). One indexed query: a pass costs the games that are due, not those that exist.
  virtual Result<std::vector<SchedulableGame>> ListSchedulableGames(Timestamp now) = 0;
  // Counts a failure of the game's turn job (see TurnFailure), in one transaction under the
  // game's row lock. Returns the failures counted now. FAILED_PRECONDITION (nothing changed)
  // when the count is not failure.failures_before or the game is stuck already (another
  // process recorded meanwhile); NOT_FOUND for an unknown game.
  virtual Result<std::int64_t> RecordTurnFailure(const TurnFailure& failure) = 0;
  // A pass over the game went through: its failure count, retry time and error are cleared.
  // A stuck game stays stuck (only RetryStuckGame frees it). NOT_FOUND for an unknown game.
  virtual Status ClearTurnFailures(const std::string& game_id) = 0;
  // The stuck games, in id order.
  virtual Result<std::vector<StuckGame>> ListStuckGames() = 0;
  // The operator's retry: the game is schedulable again at once, its count cleared; the turn
  // it waits for gets the time it stood stuck added to its deadline (as a pause: `now` minus
  // the time it became stuck), so nobody misses a turn the referee could not play.
  // NOT_FOUND for an unknown game; FAILED_PRECONDITION (nothing changed) when it is not stuck.
  virtual Status RetryStuckGame(const std::string& game_id, Timestamp now) = 0;

  // --- the scheduler's wake-ups (migration 16) ----------------------------------------------

  // The game's wake-up as stored (NOT_FOUND for an unknown game). Read it BEFORE reading what
  // the next wake-up is computed from, then store that with SetWake.
  virtual Result<GameWake> GetWake(const std::string& game_id) = 0;
  // Stores the game's next wake-up (nullopt: none; it waits for a write) when its sequence is
  // still `sequence`. Returns false and changes nothing when the game was written since: it
  // stays due, and the next pass looks again. NOT_FOUND for an unknown game.
  virtual Result<bool> SetWake(const std::string& game_id, std::int64_t sequence,
                               std::optional<Timestamp> due) = 0;
  // Makes every game without a result due now: a process starts, and what the stored wake-ups
  // were computed with (the grace, the reminders, the forfeit rule: pbemd's configuration)
  // may have changed.
  virtual Status MarkAllGamesDue() = 0;

  // --- outbox -------------------------------------------------------------------------------

  // Returns the new mail's id.
  virtual Result<std::int64_t> EnqueueMail(const NewMail& mail) = 0;
  // Unsent mails with next_try <= now, earliest next_try first (then by id), at most limit,
  // claimed or not (to look at the outbox; senders use ClaimDueMail). Dead letters are not due.
  virtual Result<std::vector<OutboxMail>> DueMail(Timestamp now, int limit) = 0;
  // Claims at most `limit` mails for `claimant` (the sending process's instance name) until
  // now + lease, in one transaction, and returns them as DueMail orders them: the unsent mails
  // with next_try <= now that no live claim holds (none, or claimed_until <= now). Claims never
  // overlap: while a claim runs, no other call gets that mail, whatever process makes it
  // (PostgreSQL: SELECT ... FOR UPDATE SKIP LOCKED, so concurrent claimants skip each other's
  // rows instead of waiting). A claim ends with MarkMailSent or MarkMailFailed, or when its
  // lease runs out (its claimant died): then the mail is due for anyone again.
  // INVALID_ARGUMENT for an empty claimant or a lease that is not positive.
  virtual Result<std::vector<OutboxMail>> ClaimDueMail(Timestamp now, int limit,
                                                       const std::string& claimant,
                                                       std::chrono::milliseconds lease) = 0;
  // NOT_FOUND when there is no such mail; sending twice keeps the first sent_at. Ends the
  // mail's claim (claimed_by stays: who sent it).
  virtual Status MarkMailSent(std::int64_t mail_id, Timestamp sent_at) = 0;
  // Counts a failed attempt and schedules the next; ends the mail's claim. NOT_FOUND when there
  // is no such mail; FAILED_PRECONDITION when it was already sent.
  virtual Status MarkMailFailed(std::int64_t mail_id, Timestamp next_try,
                                const std::string& error) = 0;
  // Dead-letters the mail: counts the failed attempt, records `error` and `failed_at`, ends its
  // claim. It is no longer due (DueMail, ClaimDueMail) and stays in the store, listed by
  // DeadMail, until RequeueMail. NOT_FOUND when there is no such mail; FAILED_PRECONDITION
  // when it was sent already (nothing changed). Dead-lettering a dead letter again keeps the
  // first failed_at.
  virtual Status MarkMailDead(std::int64_t mail_id, Timestamp failed_at,
                              const std::string& error) = 0;
  // The dead letters, oldest (smallest id) first, at most `limit`.
  virtual Result<std::vector<OutboxMail>> DeadMail(int limit) = 0;
  // Puts a dead letter back into the outbox: due at `next_try`, attempts counted from 0 again,
  // failed_at cleared (last_error kept until the next attempt). NOT_FOUND when there is no such
  // mail; FAILED_PRECONDITION (nothing changed) when it is not a dead letter (sent, or still
  // in the outbox).
  virtual Status RequeueMail(std::int64_t mail_id, Timestamp next_try) = 0;
  // NOT_FOUND when there is no such mail.
  virtual Result<OutboxMail> GetMail(std::int64_t mail_id) = 0;
  // Deletes, with their attachments, at most `limit` sent mails sent before `sent_before`
  // (earliest sent first), in one short transaction; returns how many it deleted (0: none
  // left). Pending mails and dead letters are never deleted, however old: only a mail that
  // went out, whose copy is the recipient's. The caller repeats it to prune more (bounded
  // batches: no long lock on a busy outbox). INVALID_ARGUMENT when limit <= 0.
  virtual Result<int> PruneSentMail(Timestamp sent_before, int limit) = 0;

  // --- cooperative locks between the processes sharing the store ----------------------------
  // Named locks, e.g. "game:<id>" while a process resolves that game, "mail-intake" while it
  // reads the mailbox. Advisory: they guard nothing by themselves; every process that does the
  // work takes them first.

  // Takes the lock `name` for this repository without waiting: true when taken (or already
  // held by this repository), false when another repository (of this or another process) holds
  // it. A lock is held until Unlock, or until its repository is destroyed or its process dies
  // (PostgreSQL: a session advisory lock, freed when the connection closes; SQLite: an
  // open-file-description lock on the file <data_dir>/pbem.sqlite.locks, freed when the file
  // is closed). INVALID_ARGUMENT for an empty name.
  virtual Result<bool> TryLock(const std::string& name) = 0;
  // Releases the lock `name` if this repository holds it; OK (and nothing done) when it does
  // not.
  virtual Status Unlock(const std::string& name) = 0;
};

// Lower-case hex SHA-256 of bytes (how tokens and submissions are hashed).
std::string Sha256Hex(const std::string& bytes);

}  // namespace pbem::storage

#endif  // PBEM_STORAGE_GAME_REPOSITORY_H_
