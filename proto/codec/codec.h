// The codec between the wire/archive formats (pbem.v1 protobuf messages, as
// binary, text format or JSON) and the engine's plain types. Every error it
// reports names where the problem is: "file:line:col: message" for text
// input, "file: field.path: message" where no line is known (JSON, binary).
#ifndef PBEM_PROTO_CODEC_CODEC_H_
#define PBEM_PROTO_CODEC_CODEC_H_

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/orders.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"
#include "engine/morne_plaine/verdict.h"
#include "pbem/v1/game.pb.h"
#include "pbem/v1/orders.pb.h"
#include "pbem/v1/ruleset.pb.h"
#include "pbem/v1/scenario.pb.h"
#include "pbem/v1/turn_result.pb.h"

namespace google::protobuf {
class Message;
}

namespace pbem::codec {

// One diagnostic: `where` is "file:line:col" or "file: field.path" (or just
// "file"), `message` says what is wrong.
struct Error {
  std::string where;
  std::string message;
  std::string ToString() const;  // "where: message"
};

// A value or the list of errors that prevented it. [[nodiscard]].
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}                     // NOLINT: implicit by design
  Result(std::vector<Error> errors) : value_(std::move(errors)) {}  // NOLINT
  static Result Fail(std::string where, std::string message) {
    return Result(std::vector<Error>{Error{std::move(where), std::move(message)}});
  }
  bool ok() const { return std::holds_alternative<T>(value_); }
  const T& value() const& { return std::get<T>(value_); }
  T& value() & { return std::get<T>(value_); }
  T&& value() && { return std::get<T>(std::move(value_)); }
  const std::vector<Error>& errors() const { return std::get<std::vector<Error>>(value_); }
  // All errors, one per line.
  std::string ErrorText() const;

 private:
  std::variant<T, std::vector<Error>> value_;
};

template <typename T>
std::string Result<T>::ErrorText() const {
  std::string out;
  if (ok()) return out;
  for (const Error& e : errors()) {
    out += e.ToString();
    out += '\n';
  }
  return out;
}

// ---- Formats --------------------------------------------------------------

// The largest input the codec accepts (files, messages): 4 MiB. Anything
// larger is refused with an "oversized input" error before it is parsed.
inline constexpr std::size_t kMaxInputBytes = std::size_t{4} << 20;

// The deepest nesting of messages the codec parses, in every format (our schemas need fewer
// than 8 levels): deeper input is refused with an error, so hostile input cannot make the
// parsers recurse without bound. Text format and binary set it on their parsers; protobuf's
// JSON parser has its own fixed limit of 100.
inline constexpr int kMaxNestingDepth = 32;

enum class Format { kBinary, kText, kJson };
std::optional<Format> ParseFormat(std::string_view name);  // "binary", "text", "json"
std::string_view FormatName(Format format);
// Guesses the format of bytes: JSON if the first non-blank byte is '{',
// text format if the bytes are valid UTF-8 with no control characters other
// than whitespace, binary otherwise.
Format DetectFormat(std::string_view bytes);

// Parses `bytes` in `format` into `out` (cleared first). Unknown fields and
// syntax errors are errors (named with line and column for text, with the
// JSON parser's message for JSON). `source` names the input in errors.
Result<std::monostate> ParseMessage(std::string_view bytes, Format format, std::string_view source,
                                    google::protobuf::Message& out);
// Deterministic serialisation: binary with deterministic map ordering, text
// format as the protobuf printer writes it, JSON with the canonical mapping
// (camelCase names, enums as names), pretty-printed, ending in a newline.
std::string SerializeMessage(const google::protobuf::Message& message, Format format);

// Every double and float field holding -0.0 set to 0.0, in `message` and the messages it holds.
// Protobuf's JSON printer leaves a negative zero out as a default value while binary and text
// keep it, so the same number would give different bytes by the way it travelled: the orders
// parsers and CanonicalOrders call this. The depth is the message's nesting, which every parser
// here bounds (kMaxNestingDepth).
void NormaliseNegativeZeros(google::protobuf::Message& message);

// Reads a whole file; errors name the path (missing, unreadable, a
// directory, larger than kMaxInputBytes).
Result<std::string> ReadFile(const std::filesystem::path& path);

// ---- Rulesets -------------------------------------------------------------

struct NamedText {
  std::string name;
  std::string text;
};

struct LoadedRuleset {
  engine::Ruleset ruleset;
  pbem::v1::Ruleset proto;  // the merged files, for archives
};

// Loads every "*.textproto" file of `dir` in file-name order, merges them,
// converts names to ids and validates (engine::ValidateRuleset). Errors name
// the file, the line and the field.
Result<LoadedRuleset> LoadRulesetDir(const std::filesystem::path& dir);
// The files LoadRulesetDir loads, read: every "*.textproto" of `dir` in file-name order (any
// system's ruleset directory).
Result<std::vector<NamedText>> ReadRulesetFiles(const std::filesystem::path& dir);
// The same from text already in memory (files in the order given).
Result<LoadedRuleset> LoadRulesetFiles(const std::vector<NamedText>& files);
// Converts an already merged proto (from an archive); errors name fields.
Result<LoadedRuleset> RulesetFromProto(const pbem::v1::Ruleset& proto, std::string_view source);

// ---- Scenarios ------------------------------------------------------------

struct LoadedScenario {
  engine::Scenario scenario;
  pbem::v1::Scenario proto;
};

// Reads a text-format scenario file and converts it against `ruleset`:
// labels, areas and sides parsed, terrain and unit type names resolved, unit
// values filled from type defaults, routes checked for adjacency, then
// engine::ValidateScenario. Errors name file, line and field.
Result<LoadedScenario> LoadScenarioFile(const std::filesystem::path& path,
                                        const engine::Ruleset& ruleset);
Result<LoadedScenario> LoadScenarioText(std::string_view text, std::string_view source,
                                        const engine::Ruleset& ruleset);
// From a message (inline in a catalogue case, or from an archive); errors
// name fields rather than lines.
Result<LoadedScenario> ScenarioFromProto(const pbem::v1::Scenario& proto, std::string_view source,
                                         const engine::Ruleset& ruleset);

// ---- Orders ---------------------------------------------------------------

// Parses orders in the given format (or detected when nullopt).
Result<pbem::v1::Orders> ParseOrders(std::string_view bytes, std::optional<Format> format,
                                     std::string_view source);

// Where something starts in a text-format input: 1-based line and column.
struct TextLocation {
  int line = 0;
  int column = 0;
};

// Where each order of a text-format Orders message starts, per list, and the
// header fields when they are given. Empty for JSON and binary input.
struct OrdersLocations {
  std::vector<TextLocation> placements;
  std::vector<TextLocation> bombardments;
  std::vector<TextLocation> moves;
  std::vector<TextLocation> attacks;
  std::optional<TextLocation> game_id;
  std::optional<TextLocation> turn;
  std::optional<TextLocation> side;

  // "source:line:col" of the order a verdict is about (for a header verdict,
  // of the field it names), or just "source" when the place is unknown.
  std::string Where(std::string_view source, const engine::OrderVerdict& verdict) const;
};

// As above, and fills `locations` (when not null) for text-format input.
Result<pbem::v1::Orders> ParseOrders(std::string_view bytes, std::optional<Format> format,
                                     std::string_view source, OrdersLocations* locations);

// Never fails: a label that does not parse becomes a DecodeProblem on its
// order (bad_hex_label), so the player gets a verdict for it. An empty
// required field (unit, placement hex, bombardment target, attack defender)
// becomes a missing_field DecodeProblem naming the field.
engine::Orders OrdersFromProto(const pbem::v1::Orders& proto);

// Engine orders (e.g. engine::BotOrders) in the wire form players send, hexes as labels of
// the scenario's width; DecodeProblems are dropped. OrdersFromProto gives them back.
pbem::v1::Orders OrdersToProto(const engine::Orders& orders, const engine::Scenario& scenario);

// The canonical bytes of orders, what is stored as accepted, archived and hashed into the dice
// key (daemon/turn/dice.h): a copy with `token` cleared (a secret, never archived),
// `format_version` 1 written as absent (0), unknown fields dropped, serialised as binary with
// deterministic serialisation. The same orders written as text, JSON or binary give the same
// canonical bytes.
std::string CanonicalOrders(const pbem::v1::Orders& orders);

// ---- States, verdicts, results -------------------------------------------

// "0412" for hexes, decimal for numbers, the text itself for names.
std::string FormatArg(const engine::Arg& arg);

// The label width a scenario's map needs: 2, or more for maps wider or
// taller than 99 hexes, so that all labels of one map have the same width.
int LabelWidth(const engine::Scenario& scenario);

pbem::v1::GameState StateToProto(const engine::GameState& state, const engine::Scenario& scenario);
// Errors name the field (unknown unit id, bad label, units missing).
Result<engine::GameState> StateFromProto(const pbem::v1::GameState& proto,
                                         const engine::Scenario& scenario);

pbem::v1::OrderVerdict VerdictToProto(const engine::OrderVerdict& verdict);

// How a TurnResult's events carry their payloads (TurnResult.format_version, proto/README.md):
// kArgs (1) as positional text `args`, kTyped (2) as the named, typed oneof `body`. New results
// are written in kCurrentTurnResultFormat; kArgs stays for what must reproduce format-1 bytes
// (`pbem verify` of an archive written in format 1, the bot hash of `pbem play`, the catalogue).
enum class TurnResultFormat { kArgs = 1, kTyped = 2 };
inline constexpr TurnResultFormat kCurrentTurnResultFormat = TurnResultFormat::kTyped;
// The format a stored result is written in (format_version 0, i.e. absent, is 1); nullopt for
// a version this program does not know.
std::optional<TurnResultFormat> TurnResultFormatOf(const pbem::v1::TurnResult& proto);

pbem::v1::Event EventToProto(const engine::Event& event, int seq, const engine::Scenario& scenario,
                             TurnResultFormat format);
pbem::v1::TurnResult TurnResultToProto(const engine::TurnResult& result,
                                       const engine::Scenario& scenario, int turn,
                                       engine::Side side,
                                       TurnResultFormat format = kCurrentTurnResultFormat);

// The inverse of TurnResultToProto for what an archive reader needs: verdicts, events and
// the next state, from either format. Verdict arguments come back as text (std::string Args:
// hexes as their labels, numbers in decimal), so FormatArg gives back the stored text; event
// payloads come back typed (format 1: engine::EventBodyFromArgs; format 2: EventBodyFromProto).
// Errors name the field (unknown format version, unit, event kind, reason code, bad label, a
// payload's missing or malformed field, a format-2 body missing or of another kind).
Result<engine::TurnResult> TurnResultFromProto(const pbem::v1::TurnResult& proto,
                                               const engine::Scenario& scenario,
                                               std::string_view source);

// A stored result in the current format, for readers that want one shape (the HTTP API's JSON):
// a format-1 result's events get their typed body from their args, which are dropped; a
// current one comes back as it is. Errors name the event and field, as TurnResultFromProto.
Result<pbem::v1::TurnResult> TurnResultInCurrentFormat(const pbem::v1::TurnResult& proto,
                                                       std::string_view source);

pbem::v1::Side SideToProto(engine::Side side);
std::optional<engine::Side> SideFromProto(pbem::v1::Side side);
pbem::v1::Die DieToProto(engine::Die die);

}  // namespace pbem::codec

#endif  // PBEM_PROTO_CODEC_CODEC_H_
