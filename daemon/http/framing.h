// How a request's body is framed, decided from its head alone (RFC 9112 section 6), before a
// byte of the body is read and before any "100 Continue" is sent. Pure: no socket, no clock.
#ifndef PBEM_DAEMON_HTTP_FRAMING_H_
#define PBEM_DAEMON_HTTP_FRAMING_H_

#include <Poco/Net/HTTPRequest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace pbem::daemon::http {

// A refusal: the status, a stable code and a sentence naming the header and its value. Sent
// as {"error":{"code":..,"message":..}} with "Connection: close".
struct Refusal {
  int status = 400;
  std::string code;
  std::string message;
};

struct BodyFraming {
  enum class Kind { kNone, kLength, kChunked };
  Kind kind = Kind::kNone;
  std::uint64_t length = 0;      // kLength: the declared Content-Length (<= the limit)
  bool expect_continue = false;  // the client waits for "100 Continue" before the body
};

// The framing of `head`, or why it is refused:
//   400 more than one Content-Length or Transfer-Encoding field, both of them at once (request
//       smuggling), a Content-Length that is not 1*DIGIT ("abc", "-1", "+5", "1, 2"),
//       Transfer-Encoding in an HTTP/1.0 request;
//   501 a Transfer-Encoding other than "chunked" (RFC 9112 6.1: a coding the server does not
//       understand);
//   417 an Expect other than "100-continue";
//   413 a Content-Length above `max_body_bytes` (any number of digits).
// No Content-Length and no Transfer-Encoding: no body (never "read until close").
std::variant<BodyFraming, Refusal> DecideFraming(const Poco::Net::HTTPRequest& head,
                                                 std::size_t max_body_bytes);

// Where the request head in `buffer` ends (the index just past its empty line; a bare LF is
// accepted as a line end as Poco's parser does), or nullopt when it is not complete yet.
std::optional<std::size_t> FindHeadEnd(std::string_view buffer);

// The size of a chunk from its chunk-size line (without the line end): hexadecimal digits,
// then optional whitespace and ";extensions". nullopt when it is not one (or over 15 digits).
std::optional<std::uint64_t> ParseChunkSize(std::string_view line);

// `value` for a message: at most 64 bytes, in double quotes (JSON escaping happens later).
std::string QuoteHeaderValue(std::string_view value);

}  // namespace pbem::daemon::http

#endif  // PBEM_DAEMON_HTTP_FRAMING_H_
