// Reading an incoming order mail: its headers (sender, Message-ID, subject) and every part
// that may hold orders, with caps against multipart bombs. MIME is parsed with Poco
// (MessageHeader, MultipartReader, the Base64 and quoted-printable decoders).
#ifndef PBEM_DAEMON_MAIL_INBOUND_H_
#define PBEM_DAEMON_MAIL_INBOUND_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/config.h"
#include "proto/codec/codec.h"

namespace pbem::daemon::mail {

// A part that may hold orders, decoded (no transfer encoding left).
struct OrdersCandidate {
  std::string source;                   // "attachment orders.bin", "body", ...
  std::optional<codec::Format> format;  // known from the content type or file name; else guess
  std::string bytes;
  bool attachment = false;
  // Set when the part cannot be read as text (an unknown charset, bytes invalid in the declared
  // one): the sentence naming the problem, given instead of a parse error.
  std::string error;
};

struct InboundMail {
  std::string from;        // the bare sender address, lower-case; empty when none parses
  std::string message_id;  // as written, e.g. "<abc@host>"; may be empty
  std::string subject;
  bool auto_submitted = false;              // Auto-Submitted other than "no": never answered
  std::vector<OrdersCandidate> candidates;  // attachments first, then body parts
  // Set when the MIME structure is refused: "nested too deep", "too many parts",
  // "bad multipart", too many header fields... (the mail is malformed; headers above are still
  // filled when they could be read). The candidates then are only those read before the error,
  // for GameIdHints: a malformed mail is never read as orders or commands.
  std::string structure_error;
};

// Header fields read from a mail; one with more is refused (answered, not dropped).
inline constexpr std::size_t kMaxHeaderFields = 200;

// Parses `raw`. With `headers_only` (a truncated, oversized mail) only the headers are read.
// Never throws.
InboundMail ParseInbound(const std::string& raw, const LimitsConfig& limits, bool headers_only);

// "Alice <Alice@Test.Local>" -> "alice@test.local"; empty when there is no address, or when
// it is not an addr-spec as daemon/validate.h's IsMailAddress defines it (the one address rule
// of pbemd: no control byte, at most 254 bytes). So a reply's recipient never ends a header.
std::string BareAddress(const std::string& header_value);

// Game ids a mail may name when its orders do not parse: `game_id: "x"` (text format) or
// `"gameId": "x"` / `"game_id": "x"` (JSON) in the candidates (at most kMaxBodyHints in all),
// then the words of the subject (at most kMaxSubjectHints). In order, without repeats.
inline constexpr std::size_t kMaxBodyHints = 8;
inline constexpr std::size_t kMaxSubjectHints = 20;
std::vector<std::string> GameIdHints(const InboundMail& mail);

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_INBOUND_H_
