#include "proto/codec/game_data.h"

#include <tuple>
#include <utility>
#include <vector>

#include "engine/system/m42.h"
#include "engine/system/morne_plaine.h"
#include "engine/system/wme.h"
#include "pbem/v1/m42_ruleset.pb.h"
#include "pbem/v1/m42_scenario.pb.h"
#include "pbem/v1/ruleset.pb.h"
#include "pbem/v1/scenario.pb.h"
#include "pbem/v1/wme_ruleset.pb.h"
#include "pbem/v1/wme_scenario.pb.h"
#include "proto/codec/codec.h"
#include "proto/codec/m42_codec.h"
#include "proto/codec/wme_codec.h"

namespace pbem::codec {
namespace {

namespace gs = game_system;

gs::Status Invalid(std::string message) {
  return gs::Status(gs::StatusCode::kInvalidArgument, std::move(message));
}

bool PlainName(std::string_view name) {
  return !name.empty() && name.find('/') == std::string_view::npos &&
         name.find("..") == std::string_view::npos && name.find('\0') == std::string_view::npos;
}

bool Known(std::string_view system) {
  return system == gs::kMornePlaine || system == gs::kM42 || system == gs::kWme;
}

gs::Status UnknownSystem(std::string_view system) {
  return gs::Status(gs::StatusCode::kNotFound, "game system \"" + std::string(system) +
                                                   "\" is none of morne-plaine, m42, wme");
}

std::vector<NamedText> Files(const gs::GameData& data) {
  std::vector<NamedText> files;
  files.reserve(data.ruleset.size());
  for (const gs::DataFile& f : data.ruleset) files.push_back({f.name, f.text});
  return files;
}

std::string Binary(const google::protobuf::Message& message) {
  return SerializeMessage(message, Format::kBinary);
}

// The version a tabletop ruleset message names: its schema's format (absent means 1).
std::string FormatVersion(std::uint32_t format_version) {
  return "format " + std::to_string(format_version == 0 ? 1 : format_version);
}

template <typename Message>
bool ParseBinary(std::string_view bytes, Message& message) {
  return message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

// `data` through a system's loaders; `names` gives the ruleset message's name and version.
gs::Result<PinnedGameData> Pin(const gs::GameData& data, auto load_ruleset, auto load_scenario,
                               auto names) {
  auto ruleset = load_ruleset(Files(data));
  if (!ruleset.ok()) return Invalid(ruleset.ErrorText());
  auto scenario = load_scenario(data.scenario.text, data.scenario.name, ruleset.value().ruleset);
  if (!scenario.ok()) return Invalid(scenario.ErrorText());
  PinnedGameData out;
  std::tie(out.ruleset_name, out.ruleset_version) = names(ruleset.value().proto);
  out.scenario_name = scenario.value().proto.name();
  out.ruleset = Binary(ruleset.value().proto);
  out.scenario = Binary(scenario.value().proto);
  return out;
}

// Pinned bytes through a system's readers: the messages parsed, converted and checked
// (`ruleset_from` / `scenario_from`: the codec's XFromProto), then `setup_of` the values.
template <typename RulesetMessage, typename ScenarioMessage>
gs::Result<gs::Setup> FromPinned(std::string_view ruleset_bytes, std::string_view scenario_bytes,
                                 auto ruleset_from, auto scenario_from, auto setup_of, auto names,
                                 PinnedGameData& out) {
  const std::string ruleset_source = "the game's pinned ruleset";
  const std::string scenario_source = "the game's pinned scenario";
  RulesetMessage ruleset_proto;
  ScenarioMessage scenario_proto;
  if (!ParseBinary(ruleset_bytes, ruleset_proto)) {
    return Invalid(ruleset_source + " is not a " + ruleset_proto.GetDescriptor()->full_name());
  }
  if (!ParseBinary(scenario_bytes, scenario_proto)) {
    return Invalid(scenario_source + " is not a " + scenario_proto.GetDescriptor()->full_name());
  }
  auto ruleset = ruleset_from(ruleset_proto, ruleset_source);
  if (!ruleset.ok()) return Invalid(ruleset.ErrorText());
  auto scenario = scenario_from(scenario_proto, scenario_source, ruleset.value().ruleset);
  if (!scenario.ok()) return Invalid(scenario.ErrorText());
  std::tie(out.ruleset_name, out.ruleset_version) = names(ruleset_proto);
  out.scenario_name = scenario_proto.name();
  out.ruleset = std::string(ruleset_bytes);
  out.scenario = std::string(scenario_bytes);
  return setup_of(std::move(ruleset).value().ruleset, std::move(scenario).value().scenario);
}

// Each system's ruleset message's name and version.
std::pair<std::string, std::string> MornePlaineNames(const pbem::v1::Ruleset& proto) {
  return {proto.name(), proto.version()};
}
template <typename TabletopRuleset>
std::pair<std::string, std::string> TabletopNames(const TabletopRuleset& proto) {
  return {proto.ruleset(), FormatVersion(proto.format_version())};
}

}  // namespace

gs::Result<gs::GameData> ReadGameData(const std::filesystem::path& scenarios_dir,
                                      const std::filesystem::path& rulesets_dir,
                                      std::string_view system, std::string_view name) {
  if (!Known(system)) return UnknownSystem(system);
  if (!PlainName(name)) {
    return Invalid("scenario name \"" + std::string(name) + "\" is not a plain name");
  }
  const bool morne_plaine = system == gs::kMornePlaine;
  const std::filesystem::path path =
      (morne_plaine ? scenarios_dir : scenarios_dir / system) / (std::string(name) + ".textproto");
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) return gs::Status(gs::StatusCode::kNotFound, text.ErrorText());
  std::filesystem::path ruleset_dir = rulesets_dir / system;
  if (morne_plaine) {
    // Morne Plaine's scenario names its ruleset directory.
    pbem::v1::Scenario proto;
    Result<std::monostate> parsed = ParseMessage(text.value(), Format::kText, path.string(), proto);
    if (!parsed.ok()) return Invalid(parsed.ErrorText());
    if (!PlainName(proto.ruleset())) {
      return Invalid(path.string() + ": ruleset: \"" + proto.ruleset() +
                     "\" is not the plain name of a ruleset directory");
    }
    ruleset_dir = rulesets_dir / proto.ruleset();
  }
  Result<std::vector<NamedText>> files = ReadRulesetFiles(ruleset_dir);
  if (!files.ok()) return gs::Status(gs::StatusCode::kNotFound, files.ErrorText());
  gs::GameData data;
  for (NamedText& file : files.value()) {
    data.ruleset.push_back({std::move(file.name), std::move(file.text)});
  }
  data.scenario = {path.string(), std::move(text).value()};
  return data;
}

gs::Result<PinnedGameData> PinGameData(std::string_view system, const gs::GameData& data) {
  if (system == gs::kMornePlaine) {
    return Pin(data, LoadRulesetFiles, LoadScenarioText, MornePlaineNames);
  }
  if (system == gs::kM42) {
    return Pin(data, LoadM42RulesetFiles, LoadM42ScenarioText, TabletopNames<pbem::v1::M42Ruleset>);
  }
  if (system == gs::kWme) {
    return Pin(data, LoadWmeRulesetFiles, LoadWmeScenarioText, TabletopNames<pbem::v1::WmeRuleset>);
  }
  return UnknownSystem(system);
}

gs::Result<gs::Setup> SetupFromPinned(std::string_view system, std::string_view ruleset_bytes,
                                      std::string_view scenario_bytes) {
  PinnedGameData names;
  return SetupFromPinned(system, ruleset_bytes, scenario_bytes, names);
}

gs::Result<gs::Setup> SetupFromPinned(std::string_view system, std::string_view ruleset_bytes,
                                      std::string_view scenario_bytes, PinnedGameData& names) {
  if (system == gs::kMornePlaine) {
    return FromPinned<pbem::v1::Ruleset, pbem::v1::Scenario>(
        ruleset_bytes, scenario_bytes, RulesetFromProto, ScenarioFromProto,
        [](auto ruleset, auto scenario) {
          return gs::MornePlaineSetupOf({std::move(ruleset), std::move(scenario)});
        },
        MornePlaineNames, names);
  }
  if (system == gs::kM42) {
    return FromPinned<pbem::v1::M42Ruleset, pbem::v1::M42Scenario>(
        ruleset_bytes, scenario_bytes, M42RulesetFromProto, M42ScenarioFromProto,
        [](auto ruleset, auto scenario) {
          return gs::M42SetupOf({std::move(ruleset), std::move(scenario)});
        },
        TabletopNames<pbem::v1::M42Ruleset>, names);
  }
  if (system == gs::kWme) {
    return FromPinned<pbem::v1::WmeRuleset, pbem::v1::WmeScenario>(
        ruleset_bytes, scenario_bytes, WmeRulesetFromProto, WmeScenarioFromProto,
        [](auto ruleset, auto scenario) {
          return gs::WmeSetupOf({std::move(ruleset), std::move(scenario)});
        },
        TabletopNames<pbem::v1::WmeRuleset>, names);
  }
  return UnknownSystem(system);
}

}  // namespace pbem::codec
