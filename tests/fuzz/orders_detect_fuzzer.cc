// Orders whose format is guessed (DetectFormat), as for a mail part or an HTTP body with no
// usable content type; the guess itself must be total and agree with the decoder it picks.
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = pbem::fuzz::AsText(data, size);
  const pbem::codec::Format format = pbem::codec::DetectFormat(bytes);
  if (pbem::codec::DetectFormat(bytes) != format) pbem::fuzz::Fail("DetectFormat is not stable");
  pbem::fuzz::FuzzOrders(bytes, std::nullopt);
  return 0;
}
