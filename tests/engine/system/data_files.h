// The bundled data files (engine/rulesets/<system>/, engine/scenarios/) as a GameData, read from
// the source tree (PBEM_SOURCE_DIR), for the tests that load them through the codec.
#ifndef PBEM_TESTS_ENGINE_SYSTEM_DATA_FILES_H_
#define PBEM_TESTS_ENGINE_SYSTEM_DATA_FILES_H_

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/system/game_system.h"

namespace pbem::game_system::test {

inline const std::filesystem::path kEngineData = std::filesystem::path(PBEM_SOURCE_DIR) / "engine";

inline std::string Slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The *.textproto files of engine/rulesets/`ruleset` in file-name order, and the scenario file
// engine/scenarios/`scenario`.
inline GameData BundledData(const std::string& ruleset, const std::string& scenario) {
  GameData data;
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(kEngineData / "rulesets" / ruleset)) {
    if (entry.path().extension() == ".textproto") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) data.ruleset.push_back({f.filename().string(), Slurp(f)});
  const auto path = kEngineData / "scenarios" / scenario;
  data.scenario = {path.filename().string(), Slurp(path)};
  return data;
}

}  // namespace pbem::game_system::test

#endif  // PBEM_TESTS_ENGINE_SYSTEM_DATA_FILES_H_
