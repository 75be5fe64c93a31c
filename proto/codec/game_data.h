// A game's rules data, for any game system, as pbemd finds it on disk and as a game pins it
// in the store (issue 16: games name their system, storage migration 17). System-neutral: the
// system is its registry key ("morne-plaine", "m42", "wme"), the values are the game-system
// interface's (engine/system/game_system.h), so code outside the engine reads and pins any
// system's data without naming its types.
//
// On disk, under pbemd.scenarios_dir and pbemd.rulesets_dir (deploy/pbemd.properties):
// - Morne Plaine, as since its first game: <scenarios>/<name>.textproto (pbem.v1.Scenario),
//   played with the ruleset directory the scenario names, <rulesets>/<its ruleset>/;
// - every other system: <scenarios>/<system>/<name>.textproto (its own scenario message),
//   played with <rulesets>/<system>/ (the scenario's `ruleset` field must name that ruleset:
//   the system's loader checks it).
// A ruleset directory's files are its "*.textproto" in file-name order.
//
// Pinned: a game keeps its ruleset and scenario as the system's own messages in binary
// (Morne Plaine: pbem.v1.Ruleset and pbem.v1.Scenario, as pbemd has pinned them since schema
// 3; M42: pbem.v1.M42Ruleset and M42Scenario; wme: WmeRuleset and WmeScenario), what archives
// and `pbem verify` re-resolve with wherever the files have gone since.
#ifndef PBEM_PROTO_CODEC_GAME_DATA_H_
#define PBEM_PROTO_CODEC_GAME_DATA_H_

#include <filesystem>
#include <string>
#include <string_view>

#include "engine/system/game_system.h"

namespace pbem::codec {

// The ruleset and scenario files of scenario `name` of `system` (layout above). A name that
// is not plain (empty, '/', "..") is kInvalidArgument; a missing or unreadable file
// kNotFound naming it; an unknown system kNotFound naming it.
game_system::Result<game_system::GameData> ReadGameData(const std::filesystem::path& scenarios_dir,
                                                        const std::filesystem::path& rulesets_dir,
                                                        std::string_view system,
                                                        std::string_view name);

struct PinnedGameData {
  std::string ruleset_name;     // the ruleset's own name (storage::NewGame::ruleset_name)
  std::string ruleset_version;  // its version (Morne Plaine's `version`; the others' format)
  std::string scenario_name;    // the scenario's own name
  std::string ruleset;          // the system's ruleset message, binary
  std::string scenario;         // the system's scenario message, binary
};

// `data` parsed and checked by `system`'s loader (errors located by file, line and field:
// kInvalidArgument), as the bytes a game pins.
game_system::Result<PinnedGameData> PinGameData(std::string_view system,
                                                const game_system::GameData& data);
// The setup of a game from its pinned bytes (untrusted: kInvalidArgument naming what does not
// parse or check), for `system`'s interface (codec::SystemRegistry()).
game_system::Result<game_system::Setup> SetupFromPinned(std::string_view system,
                                                        std::string_view ruleset,
                                                        std::string_view scenario);
// The same, and the names the pinned messages give (`names`: ruleset name and version, scenario
// name; `ruleset` and `scenario` the bytes given): what a game imported from an archive stores.
game_system::Result<game_system::Setup> SetupFromPinned(std::string_view system,
                                                        std::string_view ruleset,
                                                        std::string_view scenario,
                                                        PinnedGameData& names);

}  // namespace pbem::codec

#endif  // PBEM_PROTO_CODEC_GAME_DATA_H_
