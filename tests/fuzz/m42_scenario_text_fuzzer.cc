// An M42 scenario in text format against the default ruleset (proto/codec/m42_codec.h): ids,
// counts, coordinates, polygons, then InitialState's scenario problems.
#include "engine/m42/ruleset.h"
#include "proto/codec/m42_codec.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const pbem::m42::Ruleset ruleset = pbem::m42::DefaultRuleset();
  const auto loaded =
      pbem::codec::LoadM42ScenarioText(pbem::fuzz::AsText(data, size), "fuzz", ruleset);
  if (!loaded.ok()) {
    if (loaded.errors().empty()) pbem::fuzz::Fail("scenario refused without an error");
    return 0;
  }
  pbem::fuzz::CheckRoundTrip(loaded.value().proto);
  // What the codec writes back (thousandths from table units) must load again.
  const auto again = pbem::codec::M42ScenarioFromProto(
      pbem::codec::M42ScenarioToProto(loaded.value().scenario, "fuzz", ""), "fuzz proto", ruleset);
  if (!again.ok())
    pbem::fuzz::Fail("a loaded scenario written back does not load: " + again.ErrorText());
  return 0;
}
