// The French game's turn-result body as a stored result holds it (binary pbem.v1.WmeTurnResult,
// from the database or an imported archive): parsed, then WmeTurnResultFromProto
// (proto/codec/wme_codec.h), which treats it as hostile. A refusal has an error; a parsed
// message round-trips through every format; an accepted one written back by
// WmeTurnResultToProto is the same message, byte for byte.
#include "proto/codec/wme_codec.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace codec = pbem::codec;
  pbem::v1::WmeTurnResult proto;
  if (!codec::ParseMessage(pbem::fuzz::AsText(data, size), codec::Format::kBinary, "fuzz", proto)
           .ok()) {
    return 0;
  }
  pbem::fuzz::CheckRoundTrip(proto);
  const auto body = codec::WmeTurnResultFromProto(proto);
  if (!body.ok()) {
    if (body.errors().empty()) pbem::fuzz::Fail("a result refused without an error");
    return 0;
  }
  const pbem::v1::WmeTurnResult written = codec::WmeTurnResultToProto(
      body.value().verdicts, body.value().events, body.value().next_state);
  if (codec::SerializeMessage(written, codec::Format::kBinary) !=
      codec::SerializeMessage(proto, codec::Format::kBinary)) {
    pbem::fuzz::Fail("an accepted result written back is another message");
  }
  return 0;
}
