// A scenario of the French game in text format against the default ruleset
// (proto/codec/wme_codec.h): ids, counts, coordinates, polygons, then InitialState's scenario
// problems.
#include "engine/wme/ruleset.h"
#include "proto/codec/wme_codec.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const pbem::wme::Ruleset ruleset = pbem::wme::DefaultRuleset();
  const auto loaded =
      pbem::codec::LoadWmeScenarioText(pbem::fuzz::AsText(data, size), "fuzz", ruleset);
  if (!loaded.ok()) {
    if (loaded.errors().empty()) pbem::fuzz::Fail("scenario refused without an error");
    return 0;
  }
  pbem::fuzz::CheckRoundTrip(loaded.value().proto);
  // What the codec writes back (thousandths from table units) must load again.
  const auto again = pbem::codec::WmeScenarioFromProto(
      pbem::codec::WmeScenarioToProto(loaded.value().scenario, "fuzz", ""), "fuzz proto", ruleset);
  if (!again.ok())
    pbem::fuzz::Fail("a loaded scenario written back does not load: " + again.ErrorText());
  return 0;
}
