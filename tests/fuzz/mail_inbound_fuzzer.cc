// A raw mail as pbemd's mail intake reads it: MIME parsed (ParseInbound, with the default
// limits, headers only when the first byte is odd so that both paths are reached), each
// candidate part decoded as orders in its announced or guessed format, and the game-id hints
// of a mail whose orders do not parse, and the mail command it may carry (status, archive,
// help: daemon/mail/commands.h). The raw bytes also go through the HTML-to-text converter that
// reads HTML-only replies (daemon/mail/html_text.h; its output stays within its cap) and the
// RFC 2047 decoder of subjects (daemon/mail/header_words.h).
#include "daemon/mail/commands.h"
#include "daemon/mail/header_words.h"
#include "daemon/mail/html_text.h"
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
  if (const auto command = pbem::daemon::mail::FindMailCommand(mail)) {
    if (headers_only) pbem::fuzz::Fail("a command was read from a headers-only mail");
    if (command->bad_game_id.size() > 64) pbem::fuzz::Fail("an unbounded game id in a command");
    if (!command->game_id.empty() && !command->bad_game_id.empty()) {
      pbem::fuzz::Fail("a command with a game id both good and bad");
    }
  }
  (void)pbem::daemon::mail::BareAddress(mail.from);
  constexpr std::size_t kCap = 4096;
  if (pbem::daemon::mail::HtmlToText(raw, kCap).size() > kCap) {
    pbem::fuzz::Fail("HtmlToText wrote past its cap");
  }
  (void)pbem::daemon::mail::DecodeHeaderText(std::string_view(raw).substr(0, kCap));
  return 0;
}
