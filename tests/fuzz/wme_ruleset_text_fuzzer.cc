// The French game's ruleset files in text format (proto/codec/wme_codec.h): one file, merged on
// the digest's defaults, range checks, then the engine's CheckRuleset.
#include "engine/wme/ruleset.h"
#include "proto/codec/wme_codec.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto loaded =
      pbem::codec::LoadWmeRulesetFiles({{"fuzz", std::string(pbem::fuzz::AsText(data, size))}});
  if (!loaded.ok()) {
    if (loaded.errors().empty()) pbem::fuzz::Fail("ruleset refused without an error");
    return 0;
  }
  pbem::fuzz::CheckRoundTrip(loaded.value().proto);
  // What the codec writes back must load again to the same ruleset.
  const pbem::v1::WmeRuleset written = pbem::codec::WmeRulesetToProto(loaded.value().ruleset);
  const auto again = pbem::codec::WmeRulesetFromProto(written, "fuzz proto");
  if (!again.ok())
    pbem::fuzz::Fail("a loaded ruleset written back does not load: " + again.ErrorText());
  return 0;
}
