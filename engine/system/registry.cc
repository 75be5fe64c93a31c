#include "engine/system/registry.h"

#include <utility>

#include "engine/system/m42.h"
#include "engine/system/morne_plaine.h"
#include "engine/system/wme.h"

namespace pbem::game_system {

void Registry::Put(std::unique_ptr<GameSystem> system) {
  PBEM_CHECK(system != nullptr);
  std::string name(system->name());
  systems_[std::move(name)] = std::move(system);
}

Result<const GameSystem*> Registry::Find(std::string_view name) const {
  const auto it = systems_.find(name);
  if (it != systems_.end()) return it->second.get();
  std::string known;
  for (const std::string& n : Names()) known += (known.empty() ? "" : ", ") + n;
  return Status(StatusCode::kUnknownSystem,
                "unknown game system '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> Registry::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, system] : systems_) names.push_back(name);
  return names;
}

Registry BuiltinRegistry() {
  Registry registry;
  registry.Put(MakeMornePlaine());
  registry.Put(MakeM42());
  registry.Put(MakeWme());
  return registry;
}

}  // namespace pbem::game_system
