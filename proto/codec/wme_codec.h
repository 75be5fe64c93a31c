// The codec of the French mass-battle game's data (issue 17): text-format `pbem.v1.WmeRuleset`
// and `pbem.v1.WmeScenario` (proto/pbem/v1/wme_ruleset.proto, wme_scenario.proto) to
// engine/wme's `Ruleset` and `Scenario`, and back. Shaped as m42_codec.h: the input is
// untrusted, every count, length, coordinate, enum and id is checked at this boundary against
// the range the schema's comments state, before any engine type is built, and then the
// engine's own checks (wme::CheckRuleset, the scenario problems of wme::InitialState) run too.
// Every error names the file, "line:col" where the text gives one, the field path and the
// valid range.
#ifndef PBEM_PROTO_CODEC_WME_CODEC_H_
#define PBEM_PROTO_CODEC_WME_CODEC_H_

#include <string>
#include <string_view>
#include <vector>

#include "engine/wme/event.h"
#include "engine/wme/orders.h"
#include "engine/wme/ruleset.h"
#include "engine/wme/scenario.h"
#include "engine/wme/verdict.h"
#include "pbem/v1/wme_orders.pb.h"
#include "pbem/v1/wme_ruleset.pb.h"
#include "pbem/v1/wme_scenario.pb.h"
#include "pbem/v1/wme_turn_result.pb.h"
#include "proto/codec/codec.h"

namespace pbem::codec {

struct LoadedWmeRuleset {
  wme::Ruleset ruleset;
  pbem::v1::WmeRuleset proto;  // the merged files
};

// The files of a ruleset directory, in the order given (file-name order), merged (a later
// file's singular field overrides; repeated fields append). A field no file sets keeps
// DefaultRuleset()'s value.
Result<LoadedWmeRuleset> LoadWmeRulesetFiles(const std::vector<NamedText>& files);
// An already merged message (errors name fields, not lines).
Result<LoadedWmeRuleset> WmeRulesetFromProto(const pbem::v1::WmeRuleset& proto,
                                             std::string_view source);
// Every field set explicitly, lengths in thousandths of a cm.
pbem::v1::WmeRuleset WmeRulesetToProto(const wme::Ruleset& ruleset);

struct LoadedWmeScenario {
  wme::Scenario scenario;
  pbem::v1::WmeScenario proto;
};

// A text-format scenario, converted and checked against `ruleset`.
Result<LoadedWmeScenario> LoadWmeScenarioText(std::string_view text, std::string_view source,
                                              const wme::Ruleset& ruleset);
Result<LoadedWmeScenario> WmeScenarioFromProto(const pbem::v1::WmeScenario& proto,
                                               std::string_view source,
                                               const wme::Ruleset& ruleset);
// Table units back to thousandths of a cm, to the nearest (exact for every scenario whose
// coordinates were thousandths: the only ones the codec builds). `name` and `ruleset` fill the
// message's fields of those names (the engine's Scenario has neither).
pbem::v1::WmeScenario WmeScenarioToProto(const wme::Scenario& scenario, std::string_view name,
                                         std::string_view ruleset);

// ---- Orders (pbem.v1.WmeOrders, wme_orders.proto) ------------------------------------------

struct LoadedWmeOrders {
  wme::TurnOrders orders;
  pbem::v1::WmeOrders proto;
};

// `player`'s orders in `format` (text, JSON or binary), converted: centimetres and degrees to
// exact thousandths (more than 3 decimals, a number out of range, a malformed id, an entry or
// leg with nothing in it, an `evade` of another kind are errors naming the field,
// "file:line:col" in text). Whether the orders are legal is the rules' verdict, not this.
Result<LoadedWmeOrders> ParseWmeOrders(std::string_view bytes, Format format,
                                       std::string_view source, std::string_view player);
// An already parsed message (errors name fields, not lines).
Result<wme::TurnOrders> WmeOrdersFromProto(const pbem::v1::WmeOrders& proto,
                                           std::string_view player, std::string_view source);
// Back, every number as thousandths / 1000; an EVADE move as `evade`, other moves as `move`.
// WmeOrdersFromProto(WmeOrdersToProto(o)) == o for orders with ids and numbers in range.
pbem::v1::WmeOrders WmeOrdersToProto(const wme::TurnOrders& orders);

// ---- Turn results (pbem.v1.WmeTurnResult, wme_turn_result.proto) ----------------------------

// The body of a wme turn result: what wme::ResolvePlayerTurn gives, the state as its bytes.
struct WmeTurnResultBody {
  std::vector<wme::Verdict> verdicts;
  std::vector<wme::Event> events;
  std::string next_state;  // GameSystem::EncodeState's bytes, not read here
  friend bool operator==(const WmeTurnResultBody&, const WmeTurnResultBody&) = default;
};

// A resolution's verdicts and events, field for field, and the state after it as the game
// system encoded it (EncodeState). WmeTurnResultFromProto(WmeTurnResultToProto(v, e, s)) gives
// them back for every result the engine produces.
pbem::v1::WmeTurnResult WmeTurnResultToProto(const std::vector<wme::Verdict>& verdicts,
                                             const std::vector<wme::Event>& events,
                                             std::string_view next_state);
// A stored result (from the database or an imported archive: hostile). Every enum must be one
// the engine gives, every id one the orders' codec accepts, every number within what the
// engine can produce (wme_turn_result.proto's bounds), counts bounded; each error's message
// starts with the field path ("events[3].moved.to_x: must be ..."). next_state comes back as
// its bytes: GameSystem::DecodeState reads it against the game's scenario.
Result<WmeTurnResultBody> WmeTurnResultFromProto(const pbem::v1::WmeTurnResult& proto);

}  // namespace pbem::codec

#endif  // PBEM_PROTO_CODEC_WME_CODEC_H_
