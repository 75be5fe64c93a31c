// DecideFraming and the head/chunk parsers of daemon/http/framing.h, without sockets.
#include "daemon/http/framing.h"

#include <Poco/Net/HTTPRequest.h>

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <variant>

namespace pbem::daemon::http {
namespace {

std::variant<BodyFraming, Refusal> Decide(const std::string& fields) {
  Poco::Net::HTTPRequest request;
  std::istringstream head("POST /x HTTP/1.1\r\n" + fields + "\r\n");
  request.read(head);
  return DecideFraming(request, 1000);
}

int StatusOf(const std::string& fields) {
  const auto decided = Decide(fields);
  return std::holds_alternative<Refusal>(decided) ? std::get<Refusal>(decided).status : 0;
}

TEST_CASE("DecideFraming", "[daemon][http]") {
  CHECK(StatusOf("") == 0);
  CHECK(std::get<BodyFraming>(Decide("")).kind == BodyFraming::Kind::kNone);
  CHECK(std::get<BodyFraming>(Decide("Content-Length: 0\r\n")).kind == BodyFraming::Kind::kNone);
  CHECK(std::get<BodyFraming>(Decide("Content-Length: 1000\r\n")).length == 1000);
  CHECK(std::get<BodyFraming>(Decide("Content-Length: 0001000\r\n")).length == 1000);
  CHECK(StatusOf("Content-Length: 1001\r\n") == 413);
  CHECK(StatusOf("Content-Length: 00000000000000000000001001\r\n") == 413);
  CHECK(StatusOf("Content-Length: 18446744073709551617\r\n") == 413);  // 2^64 + 1
  CHECK(StatusOf("Content-Length: abc\r\n") == 400);
  CHECK(StatusOf("Content-Length: \r\n") == 400);
  CHECK(StatusOf("Content-Length: 1e3\r\n") == 400);
  CHECK(StatusOf("Content-Length: 0x10\r\n") == 400);
  CHECK(StatusOf("Content-Length: 1\r\ncontent-length: 1\r\n") == 400);
  CHECK(StatusOf("Transfer-Encoding: chunked\r\nContent-Length: 1\r\n") == 400);
  CHECK(StatusOf("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n") == 400);
  CHECK(StatusOf("Content-Length : 5\r\n") == 400);  // not a Content-Length for some readers
  CHECK(StatusOf("Transfer-Encoding: identity\r\n") == 501);
  CHECK(StatusOf("Transfer-Encoding: chunked, chunked\r\n") == 501);
  CHECK(std::get<BodyFraming>(Decide("Transfer-Encoding: CHUNKED\r\n")).kind ==
        BodyFraming::Kind::kChunked);
  CHECK(StatusOf("Expect: 100-continue\r\nContent-Length: 1001\r\n") == 413);
  CHECK(StatusOf("Expect: 100-continue, foo\r\nContent-Length: 10\r\n") == 417);
  CHECK(std::get<BodyFraming>(Decide("Expect: 100-Continue\r\nContent-Length: 10\r\n"))
            .expect_continue);
  // No body, nothing to continue to.
  CHECK_FALSE(std::get<BodyFraming>(Decide("Expect: 100-continue\r\n")).expect_continue);

  const auto refused = Decide("Content-Length: abc\r\n");
  CHECK(std::get<Refusal>(refused).code == "malformed");
  CHECK_THAT(std::get<Refusal>(refused).message, Catch::Contains("Content-Length \"abc\""));
}

TEST_CASE("FindHeadEnd and ParseChunkSize", "[daemon][http]") {
  CHECK_FALSE(FindHeadEnd("GET / HTTP/1.1\r\nHost: a\r\n").has_value());
  CHECK(FindHeadEnd("GET / HTTP/1.1\r\nHost: a\r\n\r\nbody") == 27u);
  CHECK(FindHeadEnd("GET / HTTP/1.1\nHost: a\n\nbody") == 24u);
  CHECK(ParseChunkSize("1f") == 31u);
  CHECK(ParseChunkSize("A ; ext=1") == 10u);
  CHECK(ParseChunkSize("fffffffffffffff") == 0xfffffffffffffffu);
  CHECK_FALSE(ParseChunkSize("ffffffffffffffff").has_value());  // 16 digits: refused
  CHECK_FALSE(ParseChunkSize("").has_value());
  CHECK_FALSE(ParseChunkSize("-1").has_value());
  CHECK_FALSE(ParseChunkSize("0x10").has_value());
  CHECK_FALSE(ParseChunkSize("1 2").has_value());
}

}  // namespace
}  // namespace pbem::daemon::http
