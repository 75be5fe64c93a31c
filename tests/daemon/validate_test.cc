// The input validators of daemon/validate.h (issue 13, finding 8): mail addresses as RFC 5322
// addr-specs, display names as printable UTF-8, header-safe text.
#include "daemon/validate.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace pbem::daemon {
namespace {

TEST_CASE("mail addresses are RFC 5322 addr-specs, nothing more", "[daemon][validate]") {
  for (const std::string& good : std::vector<std::string>{
           "a@b", "alice@test.local", "Bob.Smith+pbem@example.org", "x!#$%&'*+/=?^_`{|}~-@y.z",
           R"("john doe"@example.org)", R"("a\"b@c"@example.org)", "root@[192.0.2.1]",
           "u@[IPv6:2001:db8::1]", std::string(64, 'l') + "@" + std::string(189, 'd')}) {
    INFO(good);
    CHECK_FALSE(MailAddressProblem(good).has_value());
  }
  for (const std::string& bad : std::vector<std::string>{"",
                                                         "@",
                                                         "a@",
                                                         "@b",
                                                         "a@b,c@d",
                                                         "a@b c",
                                                         "a b@c",
                                                         std::string("a\0@b", 4),
                                                         "a@b\r\nBcc: x@y",
                                                         "a@b\n",
                                                         "a.@b",
                                                         ".a@b",
                                                         "a..b@c",
                                                         "a@b..c",
                                                         "a@.b",
                                                         "a@b.",
                                                         "<a@b>",
                                                         "a@b@c",
                                                         R"("unclosed@b)",
                                                         R"("a"b@c)",
                                                         "a@[1.2.3.4",
                                                         "a@[x[y]",
                                                         "hélène@example.org",
                                                         "a@b\t",
                                                         std::string(65, 'l') + "@b",
                                                         "a@" + std::string(253, 'd'),
                                                         "Name <a@b>",
                                                         "a@b;c"}) {
    INFO(bad);
    CHECK(MailAddressProblem(bad).has_value());
  }
  CHECK_THAT(*MailAddressProblem("a@b\r\nBcc: x@y"), Catch::Contains("line break"));
  CHECK_THAT(*MailAddressProblem("a@b,c@d"), Catch::Contains("','"));
  CHECK_THAT(*MailAddressProblem("@"), Catch::Contains("before '@' is empty"));
  CHECK_THAT(*MailAddressProblem("a@"), Catch::Contains("no domain"));
}

TEST_CASE("display names are printable UTF-8 of bounded length", "[daemon][validate]") {
  for (const std::string& good :
       std::vector<std::string>{"Hélène Dupré", "alice", "Zoë-Ñ_42", "李小龍", "O'Brien Jr."}) {
    INFO(good);
    CHECK_FALSE(DisplayNameProblem(good).has_value());
  }
  for (const std::string& bad : std::vector<std::string>{
           "", " alice", "alice ", "a\nb", "a\r\nBcc: x", std::string("a\0b", 3), "a\tb",
           "\xC3",            // truncated
           "\xC0\xAF",        // overlong '/'
           "\xED\xA0\x80",    // surrogate
           "a\xC2\x85z",      // C1 NEL
           "a\xE2\x80\xAEz",  // right-to-left override
           "a\xE2\x80\xA8z",  // line separator
           "a\x7F", std::string(65, 'x')}) {
    INFO(bad);
    CHECK(DisplayNameProblem(bad).has_value());
  }
  CHECK_FALSE(DisplayNameProblem(std::string(64, 'x')).has_value());
  std::string accents;
  for (int i = 0; i < 64; ++i) accents += "é";
  CHECK_FALSE(DisplayNameProblem(accents).has_value());  // 64 characters, 128 bytes
  CHECK(DisplayNameProblem(accents + "é").has_value());
}

TEST_CASE("header-safe text holds no line break or control character", "[daemon][validate]") {
  CHECK(IsHeaderSafe("Game g1: turn 3, à vous"));
  CHECK(IsHeaderSafe("tab\tok"));
  CHECK_FALSE(IsHeaderSafe("Re: x\r\nBcc: evil@x"));
  CHECK_FALSE(IsHeaderSafe(std::string("a\0b", 3)));
  CHECK(HeaderSafe("Re: x\r\nBcc: evil@x") == "Re: x Bcc: evil@x");
  CHECK(HeaderSafe("a\nb\rc") == "a b c");
  CHECK(IsHeaderSafe(HeaderSafe(std::string("\r\n\0\x1b\x7f", 5))));
}

}  // namespace
}  // namespace pbem::daemon
