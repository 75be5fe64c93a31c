// An archive file as `pbem verify` and `pbem import` read it: parsed as a binary
// pbem.v1.Archive, then VerifyArchive, the check import runs before it stores anything (what
// import stores afterwards is the verified archive's own fields, byte for byte).
#include "daemon/turn/archive.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pbem::v1::Archive archive;
  const auto parsed = pbem::codec::ParseMessage(pbem::fuzz::AsText(data, size),
                                                pbem::codec::Format::kBinary, "fuzz", archive);
  if (!parsed.ok()) return 0;
  const pbem::daemon::VerifyReport report = pbem::daemon::VerifyArchive(archive);
  if (report.ok != report.problem.empty()) {
    pbem::fuzz::Fail("VerifyArchive: ok and problem disagree: " + report.problem);
  }
  if (report.ok && report.turns_checked != archive.turns_size()) {
    pbem::fuzz::Fail("VerifyArchive passed without checking every turn");
  }
  if (!report.ok && report.failed_turn > archive.turns_size()) {
    pbem::fuzz::Fail("VerifyArchive names a turn the archive does not have");
  }
  return 0;
}
