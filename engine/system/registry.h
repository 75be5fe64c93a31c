// The game systems pbem knows, keyed by the ruleset's system name.
#ifndef PBEM_ENGINE_SYSTEM_REGISTRY_H_
#define PBEM_ENGINE_SYSTEM_REGISTRY_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/system/game_system.h"

namespace pbem::game_system {

class Registry {
 public:
  // Adds `system` under system->name(), replacing a system of that name (the codec side
  // replaces Morne Plaine by one that can parse text-format data: morne_plaine.h).
  void Put(std::unique_ptr<GameSystem> system);

  // The system named `name`, or kUnknownSystem naming it and the known names.
  Result<const GameSystem*> Find(std::string_view name) const;
  std::vector<std::string> Names() const;  // sorted

 private:
  std::map<std::string, std::unique_ptr<GameSystem>, std::less<>> systems_;
};

// Every system of the engine, one registration line each (registry.cc).
Registry BuiltinRegistry();

}  // namespace pbem::game_system

#endif  // PBEM_ENGINE_SYSTEM_REGISTRY_H_
