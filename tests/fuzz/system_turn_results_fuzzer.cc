// Stored turn results (GameSystem::DecodeTurnResult) of every game system, as pbemd and
// `pbem verify` read them back from the database and from archives: untrusted bytes. The first
// byte picks the system (Morne Plaine against the bundled Bois de la Morne, M42 against Pumping
// Station, wme against the Palissade), the rest is a binary pbem.v1.TurnResult. A result that
// decodes encodes again (from the scenario's first position: the envelope's turn and player
// are the caller's), and that encoding decodes and encodes to the same bytes.
#include <string>

#include "engine/system/game_system.h"
#include "tests/fuzz/fuzz_support.h"

namespace gs = pbem::game_system;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const pbem::fuzz::LoadedSystem& s =
      pbem::fuzz::BundledSystem(data[0] % pbem::fuzz::kLoadedSystems);
  pbem::fuzz::CheckStableRoundTrip(
      "result", pbem::fuzz::AsText(data + 1, size - 1),
      [&s](std::string_view bytes) { return s.system->DecodeTurnResult(s.setup, bytes); },
      [&s](const gs::TurnResolution& r) {
        return s.system->EncodeTurnResult(s.setup, s.start, r);
      });
  return 0;
}
