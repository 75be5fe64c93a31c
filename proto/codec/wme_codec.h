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

#include <string_view>
#include <vector>

#include "engine/wme/ruleset.h"
#include "engine/wme/scenario.h"
#include "pbem/v1/wme_ruleset.pb.h"
#include "pbem/v1/wme_scenario.pb.h"
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

}  // namespace pbem::codec

#endif  // PBEM_PROTO_CODEC_WME_CODEC_H_
