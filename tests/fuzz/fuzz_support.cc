#include "tests/fuzz/fuzz_support.h"

#include <google/protobuf/message.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "proto/codec/codec.h"
#include "proto/codec/systems.h"
#include "proto/codec/wme_codec.h"

namespace pbem::fuzz {

void Fail(std::string_view what) {
  std::cerr << "fuzz property failed: " << what << "\n";
  std::abort();
}

void CheckRoundTrip(const google::protobuf::Message& message) {
  const std::string canonical = codec::SerializeMessage(message, codec::Format::kBinary);
  for (const codec::Format format :
       {codec::Format::kBinary, codec::Format::kText, codec::Format::kJson}) {
    const std::string bytes = codec::SerializeMessage(message, format);
    std::unique_ptr<google::protobuf::Message> back(message.New());
    const auto parsed = codec::ParseMessage(bytes, format, "round trip", *back);
    const std::string name(codec::FormatName(format));
    if (!parsed.ok()) {
      Fail("a parsed message does not parse back from its own " + name +
           " serialisation: " + parsed.ErrorText() + "serialised:\n" + bytes);
    }
    if (codec::SerializeMessage(*back, codec::Format::kBinary) != canonical) {
      Fail("the " + name + " round trip changes the message; serialised:\n" + bytes);
    }
  }
}

void FuzzOrders(std::string_view bytes, std::optional<codec::Format> format) {
  codec::OrdersLocations locations;
  auto parsed = codec::ParseOrders(bytes, format, "fuzz", &locations);
  if (!parsed.ok()) {
    if (parsed.errors().empty()) Fail("orders refused without an error");
    return;
  }
  const pbem::v1::Orders& orders = parsed.value();
  if (format.value_or(codec::DetectFormat(bytes)) == codec::Format::kText) {
    const auto same = [](std::size_t located, int parsed_count) {
      return located == static_cast<std::size_t>(parsed_count);
    };
    if (!same(locations.placements.size(), orders.placements_size()) ||
        !same(locations.bombardments.size(), orders.bombardments_size()) ||
        !same(locations.moves.size(), orders.moves_size()) ||
        !same(locations.attacks.size(), orders.attacks_size())) {
      Fail("text orders: the number of locations differs from the number of orders");
    }
  }
  CheckRoundTrip(orders);
  const engine::Orders converted = codec::OrdersFromProto(orders);
  if (converted.moves.size() != static_cast<std::size_t>(orders.moves_size()) ||
      converted.attacks.size() != static_cast<std::size_t>(orders.attacks_size())) {
    Fail("OrdersFromProto dropped or added orders");
  }
}

const pbem::engine::Ruleset& BundledRuleset() {
  static const pbem::engine::Ruleset* const ruleset = [] {
    const char* env = std::getenv("PBEM_SOURCE_DIR");
    const std::filesystem::path root = env != nullptr ? env : PBEM_SOURCE_DIR;
    auto loaded = codec::LoadRulesetDir(root / "engine/rulesets/morne-plaine");
    if (!loaded.ok()) Fail("the bundled ruleset does not load: " + loaded.ErrorText());
    return new pbem::engine::Ruleset(std::move(loaded).value().ruleset);
  }();
  return *ruleset;
}

namespace {
std::filesystem::path SourceRoot() {
  const char* env = std::getenv("PBEM_SOURCE_DIR");
  return env != nullptr ? env : PBEM_SOURCE_DIR;
}
std::string Read(const std::filesystem::path& path) {
  auto text = codec::ReadFile(path);
  if (!text.ok()) Fail("a bundled file cannot be read: " + text.ErrorText());
  return std::move(text).value();
}
}  // namespace

pbem::game_system::GameData BundledGameData(const std::string& ruleset_dir,
                                            const std::string& scenario_file) {
  const std::filesystem::path root = SourceRoot() / "engine";
  pbem::game_system::GameData data;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(root / "rulesets" / ruleset_dir)) {
    if (entry.path().extension() == ".textproto") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) data.ruleset.push_back({f.string(), Read(f)});
  const std::filesystem::path scenario = root / "scenarios" / scenario_file;
  data.scenario = {scenario.string(), Read(scenario)};
  return data;
}

const pbem::wme::Scenario& BundledWmeScenario() {
  static const pbem::wme::Scenario* const scenario = [] {
    const std::filesystem::path path = SourceRoot() / "engine/scenarios/wme/palissade.textproto";
    auto loaded =
        codec::LoadWmeScenarioText(Read(path), path.string(), pbem::wme::DefaultRuleset());
    if (!loaded.ok()) Fail("the bundled wme scenario does not load: " + loaded.ErrorText());
    return new pbem::wme::Scenario(std::move(loaded).value().scenario);
  }();
  return *scenario;
}

namespace {

LoadedSystem LoadSystem(const game_system::Registry& registry, const char* name,
                        const char* ruleset_dir, const char* scenario_file) {
  const game_system::GameSystem* system = *registry.Find(name);
  const game_system::Result<game_system::Setup> setup =
      system->Load(BundledGameData(ruleset_dir, scenario_file));
  if (!setup.ok()) Fail(std::string(name) + ": " + setup.status().message());
  const game_system::Result<game_system::State> start = system->InitialState(*setup, "fuzz");
  if (!start.ok()) Fail(std::string(name) + ": " + start.status().message());
  return LoadedSystem{system, *setup, *start};
}

}  // namespace

const LoadedSystem& BundledSystem(int index) {
  static const game_system::Registry* const registry =
      new game_system::Registry(codec::SystemRegistry());
  static const LoadedSystem* const systems = new LoadedSystem[kLoadedSystems]{
      LoadSystem(*registry, "morne-plaine", "morne-plaine", "bois-de-la-morne.textproto"),
      LoadSystem(*registry, "m42", "m42", "m42/pumping_station.textproto"),
      LoadSystem(*registry, "wme", "wme", "wme/palissade.textproto"),
  };
  return systems[index];
}

}  // namespace pbem::fuzz
