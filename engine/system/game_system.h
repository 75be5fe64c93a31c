// The rules half of a game system (issue 15; README.md, "Adding a game system"): what code
// outside engine/ (daemon, storage, leagues, CLI) calls to play any system without naming its
// types. Every system implements GameSystem once (morne_plaine.h, m42.h, wme.h) and registers it
// under its ruleset's system name (registry.h). README.md says how to add one.
//
// Values crossing the boundary:
// - Setup, State, Orders (handle.h): the system's own values behind a type-checked handle.
//   Storage keeps a state as EncodeState's bytes: canonical (the same state gives the same
//   bytes) and read back by DecodeState against the same setup.
// - Verdict and Event: system-neutral fields that code outside the system acts on (kind,
//   stable reason or event-kind code, the unit, arguments as text) plus `detail`, the
//   system's own typed value for its presentation half (templates: wording, maps). Not a
//   std::variant of every system's types: that would make this header include every
//   system's headers (the build check of issue 15 forbids daemon code to), and adding a
//   system would edit this shared header.
// - Dice: a seed. The system draws from the project's generator (engine/core/dice.h) seeded
//   with it, so the same seed gives the same turn, and CheckOrders can see the dice
//   ResolvePlayerTurn will roll (the French game's confusion tests decide later verdicts).
// - A call the system's engine cannot answer yet returns StatusCode::kNotSupported with a
//   message naming what is missing, never a made-up result.
#ifndef PBEM_ENGINE_SYSTEM_GAME_SYSTEM_H_
#define PBEM_ENGINE_SYSTEM_GAME_SYSTEM_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/verdict_kind.h"
#include "engine/system/handle.h"
#include "engine/system/status.h"

namespace pbem::game_system {

// A ruleset and a scenario as data: the ruleset's files in load order and the scenario's
// file, each a name (for messages) and its text. Untrusted.
struct DataFile {
  std::string name;
  std::string text;
};
struct GameData {
  std::vector<DataFile> ruleset;
  DataFile scenario;
};

// The kind of a verdict is every system's own (engine/core/verdict_kind.h: kOk, kInvalid,
// kIllegal, kPartial; only Morne Plaine gives kPartial), passed through unconverted.
using engine::VerdictKind;
using engine::VerdictKindName;  // "ok", "invalid", "illegal", "partial"

// The units an Arg's value can be in, for the words (templates) to say it: a length in
// integer thousandths of an inch (M42) or of a centimetre (wme). "" for everything else (ids,
// counts, hexes, words).
inline constexpr std::string_view kThousandthsOfAnInch = "in/1000";
inline constexpr std::string_view kThousandthsOfACm = "cm/1000";
// An angle (a facing, a heading) in integer thousandths of a degree, as the engine counts it.
inline constexpr std::string_view kThousandthsOfADegree = "deg/1000";

struct Arg {
  Arg() = default;
  Arg(std::string name_, std::string value_, std::string unit_ = {})
      : name(std::move(name_)), value(std::move(value_)), unit(std::move(unit_)) {}

  std::string name;   // the system's name of the field ("model", "limit"; "0", "1" by position)
  std::string value;  // integers in decimal, ids as written, hexes as labels
  std::string unit;   // what `value` counts (kThousandthsOfAnInch, ...); "" when no unit
  friend bool operator==(const Arg&, const Arg&) = default;
};

struct Verdict {
  std::string order;  // the order's kind as the system names it ("move", "action", "header")
  std::string unit;   // the unit ordered ("" for a header verdict)
  VerdictKind kind = VerdictKind::kOk;
  std::string reason;  // the system's stable reason code ("" when none)
  std::vector<Arg> args;
  Handle detail;  // the system's own verdict
};
// True when every verdict is kOk or kPartial: the orders are played as checked.
bool AllAcceptable(const std::vector<Verdict>& verdicts);

// An event of a resolved player-turn. `unit` and `args` are what the words (templates) say
// without knowing the system: the unit the event is about ("" for an event about a model, a
// base or a player), and every field a player reads by a stable name (the engine's field name:
// "model", "length", "from_x", ...), lengths with their unit as in Verdict, enumerations as
// lower-case words ("advance", "true") that a sentence words by section. A system may leave
// them empty when its words read `detail` instead (Morne Plaine: engine/morne_plaine/event.h's
// own templates). Built by one function per system, for ResolvePlayerTurn and DecodeTurnResult
// alike.
struct Event {
  std::string kind;  // the system's stable event-kind code ("move_step", "model_moved")
  std::string unit;  // the unit concerned ("" when none)
  std::vector<Arg> args;
  Handle detail;  // the system's own event
};

struct TurnResolution {
  std::vector<Verdict> verdicts;
  std::vector<Event> events;
  State next;
};

// Whose player-turn a state is waiting for.
struct TurnInfo {
  int turn = 0;
  std::string side;  // the system's side or player id ("blue", "red")
  friend bool operator==(const TurnInfo&, const TurnInfo&) = default;
};

struct Score {
  std::string side;
  int points = 0;
  friend bool operator==(const Score&, const Score&) = default;
};
struct Outcome {
  bool finished = false;
  std::optional<std::string> winner;  // nullopt: a draw, or not finished
  std::string level;                  // the system's code ("draw", "major"); "" when not finished
  std::vector<Score> scores;
};

// A verdict argument whose value is one of a fixed set of words, a condition code the system's
// engine names (wme's SUPPORT_NOT_ELIGIBLE "detail": "not_behind", ...). The words (templates)
// word each as a mustache section {{#<arg>_<word>}}...{{/<arg>_<word>}}, and refuse at load a
// table that has no such section for a word declared here.
struct ConditionArg {
  std::string reason;              // the reason code that carries it ("SUPPORT_NOT_ELIGIBLE")
  std::string arg;                 // the Arg's name ("detail")
  std::vector<std::string> words;  // every value the engine can give it, lower-case and '_'
  friend bool operator==(const ConditionArg&, const ConditionArg&) = default;
};

class GameSystem {
 public:
  virtual ~GameSystem() = default;

  // The ruleset's system name, the registry key ("morne-plaine").
  virtual std::string_view name() const = 0;

  // Every stable code a Verdict::reason of this system can carry ("" excluded), from the
  // engine's own reason names, in the engine's order: what the words (templates) must have a
  // sentence for.
  virtual std::vector<std::string> ReasonCodes() const = 0;
  // Every argument of a reason code whose value is a condition word, with all its words, from
  // the engine's own declaration of them; {} when the system has none.
  virtual std::vector<ConditionArg> ConditionArgs() const = 0;
  // Every stable code an Event::kind of this system's ResolvePlayerTurn can carry, from the
  // engine's own event names, in the engine's order: what the words must have a sentence for.
  virtual std::vector<std::string> EventKinds() const = 0;
  // Whether CheckOrders' verdicts can follow the dice (`dice_seed`): true when an order's fate
  // is decided by a roll (wme: confusion tests, a charge's zone roll on a tie, the off-table
  // fate roll). Such verdicts must not be shown before the turn is played: a player could send
  // the orders again, changing any byte to draw other dice, and keep the best. pbemd's desk
  // refuses such a system's orders until it can judge them without the dice.
  virtual bool VerdictsFollowDice() const = 0;

  // Parses and checks a ruleset and scenario.
  virtual Result<Setup> Load(const GameData& data) const = 0;
  // The scenarios carried in code, by name, and loading one.
  virtual std::vector<std::string> BundledScenarios() const = 0;
  virtual Result<Setup> LoadBundled(std::string_view scenario) const = 0;

  // The state at the start of a game (`game_id` for systems whose orders name their game).
  virtual Result<State> InitialState(const Setup& setup, std::string_view game_id) const = 0;
  virtual Result<TurnInfo> WhoseTurn(const Setup& setup, const State& state) const = 0;

  // One verdict per order, exactly those ResolvePlayerTurn with the same seed gives.
  virtual Result<std::vector<Verdict>> CheckOrders(const Setup& setup, const State& state,
                                                   const Orders& orders,
                                                   std::uint64_t dice_seed) const = 0;
  // The player-turn of WhoseTurn(state), with dice seeded by `dice_seed`.
  virtual Result<TurnResolution> ResolvePlayerTurn(const Setup& setup, const State& state,
                                                   const Orders& orders,
                                                   std::uint64_t dice_seed) const = 0;
  // Whether the game has ended and how.
  virtual Result<Outcome> GameOutcome(const Setup& setup, const State& state) const = 0;

  // A player's orders from `envelope`: the orders envelope every system shares (pbem.v1.Orders
  // in binary, proto/pbem/v1/orders.proto), as the codec's CanonicalOrders writes it: the bytes
  // pbemd stores as accepted, archives and hashes into the dice key. Untrusted: bytes that are
  // no envelope, another system's body (or none) and a body the codec refuses are
  // kInvalidArgument naming the field. Reading protobuf is the codec's, given to the adapter as
  // for Load; without it kNotSupported.
  virtual Result<Orders> DecodeOrders(const Setup& setup, std::string_view envelope) const = 0;

  // A resolved player-turn as the shared turn-result envelope's bytes (binary pbem.v1.TurnResult,
  // turn_result.proto): the turn and the side or player that `before` waited for, and the
  // resolution's verdicts, events and next state in the system's own fields. What is not the
  // rules' (game id, dice commitment, the mover's message) the caller adds. The same resolution
  // gives the same bytes. DecodeTurnResult reads such bytes back (a stored turn, an archive's;
  // untrusted) against the same setup: kInvalidArgument naming the field for bytes that are no
  // envelope, carry another system's body, or hold what the system's engine cannot have
  // written. Protobuf is the codec's, given to the adapter as for Load; without it
  // kNotSupported.
  virtual Result<std::string> EncodeTurnResult(const Setup& setup, const State& before,
                                               const TurnResolution& resolution) const = 0;
  virtual Result<TurnResolution> DecodeTurnResult(const Setup& setup,
                                                  std::string_view bytes) const = 0;

  // Orders of the soak bot for WhoseTurn(state), drawn with `seed`.
  virtual Result<Orders> BotOrders(const Setup& setup, const State& state,
                                   std::uint64_t seed) const = 0;

  // Canonical bytes of a state, and the state back from them (untrusted bytes).
  virtual Result<std::string> EncodeState(const Setup& setup, const State& state) const = 0;
  virtual Result<State> DecodeState(const Setup& setup, std::string_view bytes) const = 0;
};

}  // namespace pbem::game_system

#endif  // PBEM_ENGINE_SYSTEM_GAME_SYSTEM_H_
