// For the tests that load a system's data files through its codec (system_codec_tests): the
// canonical bytes the tests compare messages by, and the ruleset files as the codec's loaders
// take them.
#ifndef PBEM_TESTS_ENGINE_SYSTEM_CODEC_PARSER_H_
#define PBEM_TESTS_ENGINE_SYSTEM_CODEC_PARSER_H_

#include <string>
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

}  // namespace pbem::game_system::test

#endif  // PBEM_TESTS_ENGINE_SYSTEM_CODEC_PARSER_H_
