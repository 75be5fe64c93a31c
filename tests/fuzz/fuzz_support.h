// Shared by the libFuzzer targets of tests/fuzz: the entry point every target defines, the
// checks that turn a wrong answer into a crash libFuzzer keeps, and the bundled ruleset.
#ifndef PBEM_TESTS_FUZZ_FUZZ_SUPPORT_H_
#define PBEM_TESTS_FUZZ_FUZZ_SUPPORT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/morne_plaine/ruleset.h"
#include "engine/system/game_system.h"
#include "engine/wme/scenario.h"
#include "proto/codec/codec.h"

namespace google::protobuf {
class Message;
}

// Each target defines it; libFuzzer (fuzz builds) or replay_main.cc (every other build) calls
// it once per input.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace pbem::fuzz {

inline std::string_view AsText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A property of the code under test does not hold: prints `what` and aborts, so that
// libFuzzer saves the input as a crash.
[[noreturn]] void Fail(std::string_view what);

// A message that parsed must survive every format: serialised as binary, text and JSON, each
// parses back to the same message (compared by deterministic binary serialisation).
void CheckRoundTrip(const google::protobuf::Message& message);

// The orders targets: parses `bytes` as Orders in `format` (detected when nullopt) with text
// locations, and checks what holds for every input that parses: one location per order of a
// text input, the round trip through every format, and the conversion to engine orders.
void FuzzOrders(std::string_view bytes, std::optional<codec::Format> format);

// The bundled ruleset (engine/rulesets/morne-plaine), loaded once; aborts if it does not load.
// The source tree is $PBEM_SOURCE_DIR, else the one this binary was built from.
const pbem::engine::Ruleset& BundledRuleset();
// A bundled ruleset directory (engine/rulesets/<ruleset_dir>, its *.textproto in file-name
// order) and scenario file (engine/scenarios/<scenario_file>) as a game system's Load takes
// them, from the same source tree; aborts if a file cannot be read.
pbem::game_system::GameData BundledGameData(const std::string& ruleset_dir,
                                            const std::string& scenario_file);
// The French game's bundled scenario (engine/scenarios/wme/palissade.textproto) against its
// default ruleset, loaded once from the same source tree; aborts if it does not load.
const pbem::wme::Scenario& BundledWmeScenario();

// Every game system of the codec's registry with a bundled scenario loaded (BundledGameData)
// and its first position, in the order Morne Plaine (Bois de la Morne), M42 (Pumping
// Station), wme (Palissade); loaded once, aborts if one does not load.
struct LoadedSystem {
  const pbem::game_system::GameSystem* system = nullptr;
  pbem::game_system::Setup setup;
  pbem::game_system::State start;
};
inline constexpr int kLoadedSystems = 3;
const LoadedSystem& BundledSystem(int index);

// What a game system's stored value must do (`what`: "state", "result"): `decode(bytes)` is
// refused with a message, or it encodes, decodes again and encodes to the same bytes.
// `decode` gives a game_system::Result<T>, `encode(const T&)` a game_system::Result<string>.
template <typename Decode, typename Encode>
void CheckStableRoundTrip(const std::string& what, std::string_view bytes, Decode decode,
                          Encode encode) {
  const auto value = decode(bytes);
  if (!value.ok()) {
    if (value.status().message().empty()) Fail("a " + what + " refused without a message");
    return;
  }
  const pbem::game_system::Result<std::string> encoded = encode(*value);
  if (!encoded.ok()) Fail("a decoded " + what + " does not encode: " + encoded.status().message());
  const auto again = decode(*encoded);
  if (!again.ok()) Fail("an encoded " + what + " does not decode: " + again.status().message());
  const pbem::game_system::Result<std::string> twice = encode(*again);
  if (!twice.ok() || *twice != *encoded) Fail("a " + what + "'s encoding is not stable");
}

}  // namespace pbem::fuzz

#endif  // PBEM_TESTS_FUZZ_FUZZ_SUPPORT_H_
