// A scenario in text format against the bundled ruleset (pbem scenario, pbemd's
// scenarios_dir): labels, areas, routes, units and the engine's validation.
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const pbem::engine::Ruleset& ruleset = pbem::fuzz::BundledRuleset();
  const auto loaded =
      pbem::codec::LoadScenarioText(pbem::fuzz::AsText(data, size), "fuzz", ruleset);
  if (!loaded.ok()) {
    if (loaded.errors().empty()) pbem::fuzz::Fail("scenario refused without an error");
    return 0;
  }
  pbem::fuzz::CheckRoundTrip(loaded.value().proto);
  // An archive carries the proto: it must convert again.
  const auto again = pbem::codec::ScenarioFromProto(loaded.value().proto, "fuzz proto", ruleset);
  if (!again.ok()) {
    pbem::fuzz::Fail("a loaded scenario's proto does not load: " + again.ErrorText());
  }
  return 0;
}
