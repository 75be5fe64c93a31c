// Stored states (GameSystem::DecodeState) of every game system, as pbemd and `pbem verify` read
// them back from the database and from archives: untrusted bytes. The first byte picks the
// system (Morne Plaine: pbem.v1.GameState's binary against the bundled scenario; M42: its
// canonical state lines against the bundled Pumping Station; wme: its canonical state text
// against the bundled scenario), the rest is the state. A state that decodes encodes again
// and decodes to the same bytes.
#include <string>

#include "engine/system/game_system.h"
#include "proto/codec/systems.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

namespace gs = pbem::game_system;

struct Loaded {
  const gs::GameSystem* system;
  gs::Setup setup;
};

const gs::Registry& Systems() {
  static const gs::Registry* const registry = new gs::Registry(pbem::codec::SystemRegistry());
  return *registry;
}

Loaded Load(const char* name, const char* ruleset_dir, const char* scenario_file) {
  const gs::GameSystem* system = *Systems().Find(name);
  const gs::Result<gs::Setup> setup =
      system->Load(pbem::fuzz::BundledGameData(ruleset_dir, scenario_file));
  if (!setup.ok()) pbem::fuzz::Fail(std::string(name) + ": " + setup.status().message());
  return Loaded{system, *setup};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Loaded systems[] = {
      Load("morne-plaine", "morne-plaine", "bois-de-la-morne.textproto"),
      Load("m42", "m42", "m42/pumping_station.textproto"),
      Load("wme", "wme", "wme/palissade.textproto"),
  };
  if (size == 0) return 0;
  const Loaded& s = systems[data[0] % 3];
  const std::string_view bytes = pbem::fuzz::AsText(data + 1, size - 1);
  const gs::Result<gs::State> state = s.system->DecodeState(s.setup, bytes);
  if (!state.ok()) {
    if (state.status().message().empty()) pbem::fuzz::Fail("a state refused without a message");
    return 0;
  }
  const gs::Result<std::string> encoded = s.system->EncodeState(s.setup, *state);
  if (!encoded.ok()) pbem::fuzz::Fail("a decoded state does not encode");
  const gs::Result<gs::State> again = s.system->DecodeState(s.setup, *encoded);
  if (!again.ok())
    pbem::fuzz::Fail("an encoded state does not decode: " + again.status().message());
  const gs::Result<std::string> twice = s.system->EncodeState(s.setup, *again);
  if (!twice.ok() || *twice != *encoded) pbem::fuzz::Fail("a state's encoding is not stable");
  return 0;
}
