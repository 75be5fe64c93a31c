// A raw mail as pbemd's mail intake reads it: MIME parsed (ParseInbound, with the default
// limits, headers only when the first byte is odd so that both paths are reached), each
// candidate part decoded as orders in its announced or guessed format, and the game-id hints
// of a mail whose orders do not parse.
#include "daemon/mail/inbound.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string raw(pbem::fuzz::AsText(data, size));
  const bool headers_only = size > 0 && (data[0] & 1) != 0;
  const pbem::daemon::LimitsConfig limits;
  const pbem::daemon::mail::InboundMail mail =
      pbem::daemon::mail::ParseInbound(raw, limits, headers_only);
  if (headers_only && !mail.candidates.empty()) {
    pbem::fuzz::Fail("ParseInbound read parts of a headers-only mail");
  }
  for (const pbem::daemon::mail::OrdersCandidate& candidate : mail.candidates) {
    (void)pbem::codec::ParseOrders(candidate.bytes, candidate.format, candidate.source);
  }
  (void)pbem::daemon::mail::GameIdHints(mail);
  (void)pbem::daemon::mail::BareAddress(mail.from);
  return 0;
}
