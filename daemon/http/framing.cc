#include "daemon/http/framing.h"

#include <Poco/String.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "daemon/mail/replies.h"

namespace pbem::daemon::http {
namespace {

constexpr std::string_view kContentLength = "Content-Length";
constexpr std::string_view kTransferEncoding = "Transfer-Encoding";
constexpr std::string_view kExpect = "Expect";

int CountFields(const Poco::Net::HTTPRequest& head, std::string_view name) {
  int count = 0;
  for (auto it = head.find(std::string(name)); it != head.end(); ++it) {
    if (Poco::icompare(it->first, std::string(name)) != 0) break;
    ++count;
  }
  return count;
}

std::string Trimmed(const std::string& value) { return Poco::trim(value); }

// RFC 9110 5.6.2 tchar.
bool IsTokenChar(unsigned char c) {
  return std::isalnum(c) != 0 ||
         std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
}

Refusal Malformed(std::string message) {
  return Refusal{400, mail::kMalformed, std::move(message)};
}

}  // namespace

std::string QuoteHeaderValue(std::string_view value) {
  constexpr std::size_t kShown = 64;
  std::string quoted = "\"";
  quoted.append(value.substr(0, kShown));
  if (value.size() > kShown) quoted += "...";
  quoted += '"';
  return quoted;
}

std::variant<BodyFraming, Refusal> DecideFraming(const Poco::Net::HTTPRequest& head,
                                                 std::size_t max_body_bytes) {
  // "Content-Length : 5" must not be a Content-Length for one reader and not for another
  // (RFC 9112 5.1: whitespace before the colon is refused with 400).
  for (const auto& [name, value] : head) {
    if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) {
          return IsTokenChar(static_cast<unsigned char>(c));
        })) {
      return Malformed("the header field name " + QuoteHeaderValue(name) +
                       " is not a token (no spaces or separators before the colon)");
    }
  }
  const int lengths = CountFields(head, kContentLength);
  const int encodings = CountFields(head, kTransferEncoding);
  if (lengths > 1) {
    return Malformed("the request has " + std::to_string(lengths) +
                     " Content-Length header fields; send one");
  }
  if (encodings > 1) {
    return Malformed("the request has " + std::to_string(encodings) +
                     " Transfer-Encoding header fields; send one");
  }
  if (lengths == 1 && encodings == 1) {
    return Malformed(
        "the request has both Content-Length and Transfer-Encoding header fields; send one");
  }

  BodyFraming framing;
  if (encodings == 1) {
    const std::string value = Trimmed(head.get(std::string(kTransferEncoding)));
    if (head.getVersion() == Poco::Net::HTTPMessage::HTTP_1_0) {
      return Malformed("Transfer-Encoding " + QuoteHeaderValue(value) +
                       " is not allowed in an HTTP/1.0 request; send Content-Length");
    }
    if (Poco::icompare(value, "chunked") != 0) {
      return Refusal{501, "not_implemented",
                     "Transfer-Encoding " + QuoteHeaderValue(value) +
                         " is not supported; send chunked or Content-Length"};
    }
    framing.kind = BodyFraming::Kind::kChunked;
  } else if (lengths == 1) {
    const std::string value = Trimmed(head.get(std::string(kContentLength)));
    if (value.empty() || !std::all_of(value.begin(), value.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c)) != 0;
        })) {
      return Malformed("Content-Length " + QuoteHeaderValue(value) +
                       " is not a number of bytes (expected digits only)");
    }
    // Leading zeros do not make a number larger: compare without them.
    const std::size_t first = std::min(value.find_first_not_of('0'), value.size() - 1);
    const std::string digits = value.substr(first);
    const std::string limit = std::to_string(max_body_bytes);
    if (digits.size() > limit.size() || (digits.size() == limit.size() && digits > limit)) {
      return Refusal{413, mail::kOversized,
                     "Content-Length " + QuoteHeaderValue(value) + " is larger than the limit of " +
                         limit + " bytes"};
    }
    framing.kind = BodyFraming::Kind::kLength;
    framing.length = std::stoull(digits);
    if (framing.length == 0) framing.kind = BodyFraming::Kind::kNone;
  }

  if (head.has(std::string(kExpect))) {
    const std::string value = Trimmed(head.get(std::string(kExpect)));
    if (CountFields(head, kExpect) > 1 || Poco::icompare(value, "100-continue") != 0) {
      return Refusal{
          417, "expectation_failed",
          "Expect " + QuoteHeaderValue(value) + " is not supported; only 100-continue is"};
    }
    // HTTP/1.0 clients do not understand 100 (RFC 9110 10.1.1): they send the body anyway.
    framing.expect_continue = head.getVersion() != Poco::Net::HTTPMessage::HTTP_1_0 &&
                              framing.kind != BodyFraming::Kind::kNone;
  }
  return framing;
}

std::optional<std::size_t> FindHeadEnd(std::string_view buffer) {
  for (std::size_t lf = buffer.find('\n'); lf != std::string_view::npos;
       lf = buffer.find('\n', lf + 1)) {
    std::size_t next = lf + 1;
    if (next < buffer.size() && buffer[next] == '\r') ++next;
    if (next < buffer.size() && buffer[next] == '\n') return next + 1;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> ParseChunkSize(std::string_view line) {
  std::size_t digits = 0;
  std::uint64_t size = 0;
  while (digits < line.size() && std::isxdigit(static_cast<unsigned char>(line[digits]))) {
    if (digits == 15) return std::nullopt;
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(line[digits])));
    size = size * 16 + static_cast<std::uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10);
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  std::string_view rest = line.substr(digits);
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
  if (!rest.empty() && rest.front() != ';') return std::nullopt;
  return size;
}

}  // namespace pbem::daemon::http
