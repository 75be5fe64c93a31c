// Stored states (GameSystem::DecodeState) of every game system, as pbemd and `pbem verify` read
// them back from the database and from archives: untrusted bytes. The first byte picks the
// system (Morne Plaine: pbem.v1.GameState's binary against the bundled scenario; M42: its
// canonical state lines against the bundled Pumping Station; wme: its canonical state text
// against the bundled scenario), the rest is the state. A state that decodes encodes again
// and decodes to the same bytes.
#include <string>

#include "engine/system/game_system.h"
#include "tests/fuzz/fuzz_support.h"

namespace gs = pbem::game_system;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const pbem::fuzz::LoadedSystem& s =
      pbem::fuzz::BundledSystem(data[0] % pbem::fuzz::kLoadedSystems);
  pbem::fuzz::CheckStableRoundTrip(
      "state", pbem::fuzz::AsText(data + 1, size - 1),
      [&s](std::string_view bytes) { return s.system->DecodeState(s.setup, bytes); },
      [&s](const gs::State& state) { return s.system->EncodeState(s.setup, state); });
  return 0;
}
