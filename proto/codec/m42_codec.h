// The codec of M42's data (issue 16): text-format `pbem.v1.M42Ruleset` and `pbem.v1.M42Scenario`
// (proto/pbem/v1/m42_ruleset.proto, m42_scenario.proto) to engine/m42's `Ruleset` and
// `Scenario`, and back. The input is untrusted: every count, length, coordinate and id is
// checked at this boundary against the range the schema's comments state, before any engine
// type is built, and then the engine's own checks (m42::CheckRuleset, the scenario problems of
// m42::InitialState) run too. Every error names the file, "line:col" where the text gives one,
// the field path and the valid range, as codec.h's Error does for Morne Plaine.
#ifndef PBEM_PROTO_CODEC_M42_CODEC_H_
#define PBEM_PROTO_CODEC_M42_CODEC_H_

#include <string>
#include <string_view>
#include <vector>

#include "engine/m42/event.h"
#include "engine/m42/orders.h"
#include "engine/m42/ruleset.h"
#include "engine/m42/scenario.h"
#include "engine/m42/verdict.h"
#include "pbem/v1/m42_orders.pb.h"
#include "pbem/v1/m42_ruleset.pb.h"
#include "pbem/v1/m42_scenario.pb.h"
#include "pbem/v1/m42_turn_result.pb.h"
#include "proto/codec/codec.h"

namespace pbem::codec {

struct LoadedM42Ruleset {
  m42::Ruleset ruleset;
  pbem::v1::M42Ruleset proto;  // the merged files
};

// The files of an M42 ruleset directory, in the order given (file-name order), merged as
// Morne Plaine's are (a later file's singular field overrides; repeated fields append). A
// field no file sets keeps DefaultRuleset()'s value.
Result<LoadedM42Ruleset> LoadM42RulesetFiles(const std::vector<NamedText>& files);
// An already merged message (errors name fields, not lines).
Result<LoadedM42Ruleset> M42RulesetFromProto(const pbem::v1::M42Ruleset& proto,
                                             std::string_view source);
// Every field set explicitly, lengths in thousandths of an inch.
pbem::v1::M42Ruleset M42RulesetToProto(const m42::Ruleset& ruleset);

struct LoadedM42Scenario {
  m42::Scenario scenario;
  pbem::v1::M42Scenario proto;
};

// A text-format scenario, converted and checked against `ruleset`.
Result<LoadedM42Scenario> LoadM42ScenarioText(std::string_view text, std::string_view source,
                                              const m42::Ruleset& ruleset);
Result<LoadedM42Scenario> M42ScenarioFromProto(const pbem::v1::M42Scenario& proto,
                                               std::string_view source,
                                               const m42::Ruleset& ruleset);
// Table units back to thousandths of an inch, to the nearest (exact for every scenario whose
// coordinates were thousandths: the only ones the codec builds). `name` and `ruleset` fill
// the message's fields of those names (the engine's Scenario has neither).
pbem::v1::M42Scenario M42ScenarioToProto(const m42::Scenario& scenario, std::string_view name,
                                         std::string_view ruleset);

// ---- Orders (pbem.v1.M42Orders, m42_orders.proto) ------------------------------------------

struct LoadedM42Orders {
  m42::Orders orders;
  pbem::v1::M42Orders proto;
};

// `player`'s orders in `format` (text, JSON or binary), converted: inches and degrees to exact
// thousandths (more than 3 decimals, a number out of range, a malformed id, a missing kind are
// errors naming the field, "file:line:col" in text). Whether the orders are legal is the rules'
// verdict (m42::CheckOrders), not this.
Result<LoadedM42Orders> ParseM42Orders(std::string_view bytes, Format format,
                                       std::string_view source, std::string_view player);
// An already parsed message (errors name fields, not lines).
Result<m42::Orders> M42OrdersFromProto(const pbem::v1::M42Orders& proto, std::string_view player,
                                       std::string_view source);
// Back: every number as thousandths / 1000 (the nearest double, which protobuf's printers write
// as the thousandths' own decimal). M42OrdersFromProto(M42OrdersToProto(o)) == o for orders with
// ids and numbers in the schema's ranges.
pbem::v1::M42Orders M42OrdersToProto(const m42::Orders& orders);

// ---- Turn results (pbem.v1.M42TurnResult, m42_turn_result.proto) ---------------------------

// The body of an M42 player-turn's result: what m42::ResolvePlayerTurn gives, with the next
// state as the game system's EncodeState bytes.
struct M42TurnResultBody {
  std::vector<m42::Verdict> verdicts;
  std::vector<m42::Event> events;
  std::string next_state;
  friend bool operator==(const M42TurnResultBody&, const M42TurnResultBody&) = default;
};

// Written as the engine gives it (every number already exact). M42TurnResultFromProto gives it
// back for every result the engine produces from data the codec accepts.
pbem::v1::M42TurnResult M42TurnResultToProto(const std::vector<m42::Verdict>& verdicts,
                                             const std::vector<m42::Event>& events,
                                             std::string_view next_state);
// A stored message (an archive, a file): hostile. Every problem is an error naming the field
// path (`events[3].model_moved.to_x_thou: must be -1000000..1000000, got 1000001`): counts,
// enum values (UNSPECIFIED where one is required, numbers no enum value has), ids (the data
// files' rule; a feature may also be "<structure>.base"), numbers outside the ranges the schema
// states, an event with no body, a verdict whose kind or arguments are not its reason's. Errors
// name `source` as their place (none when empty). `next_state` is not read here: the game
// system's DecodeState reads it against the game's scenario.
Result<M42TurnResultBody> M42TurnResultFromProto(const pbem::v1::M42TurnResult& proto,
                                                 std::string_view source = {});

}  // namespace pbem::codec

#endif  // PBEM_PROTO_CODEC_M42_CODEC_H_
