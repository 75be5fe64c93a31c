// For the tests that load a system's data files through its codec (system_codec_tests): the
// codec's loaders as the parser a system's Make<System>(parser) takes, and the canonical bytes
// the tests compare messages by.
#ifndef PBEM_TESTS_ENGINE_SYSTEM_CODEC_PARSER_H_
#define PBEM_TESTS_ENGINE_SYSTEM_CODEC_PARSER_H_

#include <string>
#include <utility>
#include <vector>

#include "engine/system/game_system.h"
#include "proto/codec/codec.h"

namespace pbem::game_system::test {

inline std::string Bytes(const google::protobuf::Message& message) {
  return codec::SerializeMessage(message, codec::Format::kBinary);
}

inline std::vector<codec::NamedText> RulesetTexts(const GameData& data) {
  std::vector<codec::NamedText> files;
  for (const DataFile& f : data.ruleset) files.push_back({f.name, f.text});
  return files;
}

// The ruleset files through `load_ruleset`, the scenario through `load_scenario` against that
// ruleset: a SetupT {ruleset, scenario}, or kInvalidArgument with the codec's located errors.
template <typename SetupT, typename LoadRuleset, typename LoadScenario>
Result<SetupT> ParseWithCodec(const GameData& data, LoadRuleset load_ruleset,
                              LoadScenario load_scenario) {
  auto ruleset = load_ruleset(RulesetTexts(data));
  if (!ruleset.ok()) return Status(StatusCode::kInvalidArgument, ruleset.ErrorText());
  auto scenario = load_scenario(data.scenario.text, data.scenario.name, ruleset.value().ruleset);
  if (!scenario.ok()) return Status(StatusCode::kInvalidArgument, scenario.ErrorText());
  return SetupT{std::move(ruleset.value().ruleset), std::move(scenario.value().scenario)};
}

}  // namespace pbem::game_system::test

#endif  // PBEM_TESTS_ENGINE_SYSTEM_CODEC_PARSER_H_
