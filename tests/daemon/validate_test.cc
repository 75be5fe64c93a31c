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

// Issue 20, point 6: a name may not impersonate another with characters one cannot see
// (zero-width, direction marks, odd spaces, an accent typed apart from its letter).
TEST_CASE("display names hold no invisible or look-alike trick", "[daemon][validate]") {
  for (const std::string& good :
       std::vector<std::string>{"Hélène Dupré", "Ærøskøbing", "Jean-Noël", "Đặng Thị Ngọc", "Zoë",
                                "Μαρία", "Ἀθῆναι", "Łukasz Żółć"}) {
    INFO(good);
    CHECK_FALSE(DisplayNameProblem(good).has_value());
  }
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"Ann\xE2\x80\x8B", "U+200B"},                  // zero-width space
      {"An\xE2\x80\x8Dn", "U+200D"},                  // zero-width joiner
      {"Ann\xE2\x80\x8F", "U+200F"},                  // right-to-left mark
      {"Ann\xD8\x9C", "U+061C"},                      // Arabic letter mark
      {"A\xC2\xADnn", "U+00AD"},                      // soft hyphen
      {"Ann\xC2\xA0Lee", "U+00A0"},                   // no-break space
      {"Ann\xE3\x80\x80Lee", "U+3000"},               // ideographic space
      {"Ann\xE2\x81\xA0", "U+2060"},                  // word joiner
      {"Ann\xEF\xB8\x8F", "U+FE0F"},                  // variation selector
      {"Ann\xF3\xA0\x80\x81", "U+E0001"},             // tag
      {"Ann\xEE\x80\x80", "U+E000"},                  // private use
      {"Ann  Lee", "two spaces"},                     // looks like "Ann Lee"
      {"He\xCC\x81le\xCC\x80ne", "accented letter"},  // e + combining acute: é typed apart
      {"\xCC\x81"
       "Ann",
       "accent"},                                           // a combining mark with no letter
      {"\xC3\xA9\xCD\x91\xCD\x92\xCD\x93", "two accents"},  // é + 3 stacked marks
  };
  for (const auto& [name, why] : bad) {
    INFO(name);
    std::optional<std::string> problem = DisplayNameProblem(name);
    REQUIRE(problem.has_value());
    CHECK_THAT(*problem, Catch::Contains(why));
  }
  // Bounded in bytes as well as characters: 64 four-byte characters pass, 65 do not.
  std::string wide;
  for (int i = 0; i < 64; ++i) wide += "\xF0\x9F\x90\x89";  // U+1F409
  CHECK(wide.size() == kMaxNameBytes);
  CHECK_FALSE(DisplayNameProblem(wide).has_value());
  CHECK_THAT(*DisplayNameProblem(wide + "a"), Catch::Contains("64 characters"));
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
