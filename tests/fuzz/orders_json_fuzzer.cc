// Orders as the json decoder reads them (HTTP and mail submissions that name the format).
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pbem::fuzz::FuzzOrders(pbem::fuzz::AsText(data, size), pbem::codec::Format::kJson);
  return 0;
}
