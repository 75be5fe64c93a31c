// A ruleset in text format (pbem ruleset check, pbemd's rulesets_dir): parsed, merged,
// converted and validated; a ruleset that loads must survive every format.
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using pbem::codec::NamedText;
  const auto loaded = pbem::codec::LoadRulesetFiles(
      {NamedText{"fuzz.textproto", std::string(pbem::fuzz::AsText(data, size))}});
  if (!loaded.ok()) {
    if (loaded.errors().empty()) pbem::fuzz::Fail("ruleset refused without an error");
    return 0;
  }
  pbem::fuzz::CheckRoundTrip(loaded.value().proto);
  // What an archive carries is the merged proto: it must convert again.
  const auto again = pbem::codec::RulesetFromProto(loaded.value().proto, "fuzz proto");
  if (!again.ok()) pbem::fuzz::Fail("a loaded ruleset's proto does not load: " + again.ErrorText());
  return 0;
}
