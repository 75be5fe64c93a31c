// An M42 turn result's body (pbem.v1.M42TurnResult, m42_turn_result.proto) as an archive or a
// file hands it over: parsed in the format guessed (DetectFormat: binary, the archives' form,
// for almost every mutated input), then read by codec::M42TurnResultFromProto, which takes it
// as hostile. A parsed message round-trips through every format; a refusal names at least one
// problem; an accepted one is written back by M42TurnResultToProto as the same message (byte
// for byte), which is accepted again as the same verdicts, events and state.
#include "proto/codec/m42_codec.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace codec = pbem::codec;
  const std::string_view bytes = pbem::fuzz::AsText(data, size);
  pbem::v1::M42TurnResult proto;
  const auto parsed = codec::ParseMessage(bytes, codec::DetectFormat(bytes), "fuzz", proto);
  if (!parsed.ok()) {
    if (parsed.errors().empty()) pbem::fuzz::Fail("a message refused without an error");
    return 0;
  }
  pbem::fuzz::CheckRoundTrip(proto);
  const auto read = codec::M42TurnResultFromProto(proto, "fuzz");
  if (!read.ok()) {
    if (read.errors().empty()) pbem::fuzz::Fail("a turn result refused without an error");
    return 0;
  }
  const codec::M42TurnResultBody& body = read.value();
  const pbem::v1::M42TurnResult written =
      codec::M42TurnResultToProto(body.verdicts, body.events, body.next_state);
  const std::string written_bytes = codec::SerializeMessage(written, codec::Format::kBinary);
  if (written_bytes != codec::SerializeMessage(proto, codec::Format::kBinary)) {
    pbem::fuzz::Fail("an accepted turn result is written back as another message");
  }
  const auto again = codec::M42TurnResultFromProto(written, "fuzz written");
  if (!again.ok()) {
    pbem::fuzz::Fail("an accepted turn result written back is refused: " + again.ErrorText());
  }
  if (!(again.value() == body)) pbem::fuzz::Fail("a turn result written back reads otherwise");
  return 0;
}
