// Replies in HTML only (issue 14): a webmail that sends only text/html quotes the orders
// template in <blockquote> and <pre>; the intake reads the text that body shows
// (mail::HtmlToText) and finds the edited template in it. The converter's rules one by one,
// then replies as Gmail, Thunderbird and Outlook write them to the HTML part of our own
// welcome mail, each parsed by ParseInbound down to exactly the one edited move.
#include <catch2/catch.hpp>

#include "daemon/mail/html_text.h"
#include "daemon/mail/inbound.h"
#include "daemon/mail/quoted_orders.h"
#include "daemon/welcome_mail.h"
#include "proto/codec/codec.h"
#include "tests/daemon/turn_fixture.h"

namespace pbem::daemon {
namespace {

using mail::HtmlToText;
using testing::At;
using testing::SourceDir;
using testing::TurnFixture;

TEST_CASE("html text: line breaks, blocks, quoting, white space") {
  CHECK(HtmlToText("a<br>b<BR/>c<br />") == "a\nb\nc\n");
  CHECK(HtmlToText("<div>one</div><div>two</div><div><br></div><div>four</div>") ==
        "one\ntwo\n\nfour\n");
  CHECK(HtmlToText("<p>para\n  one</p><p>two</p>") == "para one\ntwo\n");
  CHECK(HtmlToText("<ul><li>x</li><li>y</li></ul>") == "x\ny\n");
  CHECK(HtmlToText("  lead   and\ttrail  ") == "lead and trail\n");
  CHECK(HtmlToText("<pre>  kept  \n\n  as is</pre>after") == "  kept  \n\n  as is\nafter\n");
  CHECK(HtmlToText("mine<blockquote>theirs<br>more<blockquote>older</blockquote>back</blockquote>"
                   "end") == "mine\n> theirs\n> more\n> > older\n> back\nend\n");
  CHECK(HtmlToText("<blockquote><pre>a\n\nb</pre></blockquote>") == "> a\n> \n> b\n");
  CHECK(HtmlToText("x</blockquote></blockquote>y") == "x\ny\n");  // never negative
}

TEST_CASE("html text: entities decoded, unknown ones kept") {
  CHECK(HtmlToText("&amp; &lt;b&gt; &quot;q&quot; &apos;") == "& <b> \"q\" '\n");
  CHECK(HtmlToText("&#34;d&#34; &#x22;h&#X22; &#233;t&#xE9;") == "\"d\" \"h\" \xC3\xA9t\xC3\xA9\n");
  CHECK(HtmlToText("a&nbsp;&nbsp;b&#160;c\xC2\xA0"
                   "d") == "a  b c d\n");
  CHECK(HtmlToText("&eacute; &unknown; &amp &#; &#xZZ; a&b") ==
        "&eacute; &unknown; &amp &#; &#xZZ; a&b\n");
  CHECK(HtmlToText("&#0; &#xD800; &#x110000; &#99999999999;") ==
        "\xEF\xBF\xBD \xEF\xBF\xBD \xEF\xBF\xBD &#99999999999;\n");
}

TEST_CASE("html text: comments, scripts, styles and tags dropped") {
  CHECK(HtmlToText("<!DOCTYPE html><html><head><title>T</title><style>p {color: red}</style>"
                   "<script>if (a < b) x();</script></head><body>"
                   "<!-- a <b>comment</b> --><p class=\"x\" title='a > b'>text</p>"
                   "<![if !supportLists]>y<![endif]><o:p></o:p></body></html>") == "text\ny\n");
  CHECK(HtmlToText("<SCRIPT>never</script >after") == "after\n");
  CHECK(HtmlToText("a < b and c<3 </ d") == "a < b and c<3 </ d\n");
  CHECK(HtmlToText("<script>unterminated") == "");
  CHECK(HtmlToText("<!-- unterminated") == "");
  CHECK(HtmlToText("<p title=\"unterminated>text") == "");
}

TEST_CASE("html text: bounded output and quoting depth") {
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "<blockquote>";
  deep += "x";
  const std::string text = HtmlToText(deep);
  std::string expected;
  for (int i = 0; i < mail::kMaxHtmlQuoteDepth; ++i) expected += "> ";
  CHECK(text == expected + "x\n");
  std::string many;
  for (int i = 0; i < 100'000; ++i) many += "<blockquote><br>";
  CHECK(HtmlToText(many, 4096).size() <= 4096);
  CHECK(HtmlToText(std::string(10'000, 'a'), 100) == std::string(100, 'a'));
  CHECK(HtmlToText("\xC3\xA9\xC3\xA9", 3) == "\xC3\xA9");  // never half a character
}

// HTML as our mail templates write it.
std::string Escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  INFO(from << " in " << text);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  return text;
}

// The HTML part of the welcome mail blue's player gets (the template quoted in <pre>), its
// <body> contents.
std::string WelcomeHtml(TurnFixture& f) {
  auto data = f.catalog.Scenario("bois-de-la-morne");
  REQUIRE(data.ok());
  WelcomeContext context;
  context.data = data->get();
  context.game_id = "demo";
  context.reply_to = "game@test.local";
  context.rulesets_dir = SourceDir() / "engine" / "rulesets";
  context.deadline = std::chrono::sys_seconds(std::chrono::seconds(1'795'075'980));
  std::vector<storage::NewPlayer> players{
      {"demo", "blue", "alice@test.local", "alice-secret-1", "en"},
      {"demo", "orange", "bob@test.local", "bob-secret-1", "fr"}};
  auto mails = WelcomeMails(f.mail_templates, context, players, At(5));
  REQUIRE(mails.ok());
  for (const storage::Attachment& a : (*mails)[0].attachments) {
    if (a.content_type != "text/html") continue;
    const std::size_t open = a.data.find("<body");
    const std::size_t close = a.data.find("</body>");
    REQUIRE(open != std::string::npos);
    REQUIRE(close != std::string::npos);
    return a.data.substr(a.data.find('>', open) + 1, close - a.data.find('>', open) - 1);
  }
  FAIL("the welcome mail has no HTML part");
  return "";
}

std::string HtmlOnlyMail(const std::string& html, const std::string& headers) {
  return "From: Alice <alice@test.local>\r\nTo: game@test.local\r\n"
         "Subject: Re: Game demo: you play blue, your move\r\n"
         "Message-ID: <html-reply@test.local>\r\nMIME-Version: 1.0\r\n" +
         headers + "\r\n" + html;
}

void ExpectOneMove(const mail::InboundMail& mail) {
  INFO(mail.structure_error);
  REQUIRE(mail.structure_error.empty());
  REQUIRE(mail.candidates.size() == 1);
  const mail::OrdersCandidate& body = mail.candidates[0];
  INFO(body.source << "\n" << body.bytes << body.error);
  CHECK(body.source == "body (HTML) (orders template)");
  CHECK(body.error.empty());
  auto parsed = codec::ParseOrders(body.bytes, body.format, body.source);
  INFO(parsed.ErrorText());
  REQUIRE(parsed.ok());
  const pbem::v1::Orders& orders = parsed.value();
  CHECK(orders.game_id() == "demo");
  CHECK(orders.token() == "alice-secret-1");
  REQUIRE(orders.moves_size() == 1);
  CHECK(orders.moves(0).unit() == "b-hc1");
  CHECK(orders.moves(0).from() == "2303");
  CHECK(orders.moves(0).destination() == "2307");
  CHECK(orders.attacks_size() == 0);
  CHECK(orders.bombardments_size() == 0);
  CHECK(mail::GameIdHints(mail).front() == "demo");
}

// The HTML-only reply with `body` encoded as `headers` say holds exactly the edited move.
void ExpectOneMoveIn(TurnFixture& f, const std::string& body, const std::string& headers) {
  ExpectOneMove(mail::ParseInbound(HtmlOnlyMail(body, headers), f.limits, false));
}

const std::string kCommented =
    "# moves { unit: &quot;b-hc1&quot; from: &quot;2303&quot; "
    "destination: &quot;&quot;";
const std::string kEdited =
    "moves { unit: &quot;b-hc1&quot; from: &quot;2303&quot; "
    "destination: &quot;2307&quot;";

TEST_CASE("html reply: Gmail quotes our HTML in a blockquote; the edited move is read") {
  TurnFixture f;
  const std::string original = WelcomeHtml(f);
  REQUIRE(original.find(kCommented) != std::string::npos);
  const std::string html =
      "<div dir=\"ltr\">Here is my move.<div><br></div><div>Alice</div></div><br>"
      "<div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Thu, Nov 19, 2026 at "
      "8:13\xE2\x80\xAF"
      "AM &lt;<a href=\"mailto:game@test.local\">game@test.local</a>&gt; "
      "wrote:<br></div><blockquote class=\"gmail_quote\" style=\"margin:0px 0px 0px 0.8ex;"
      "border-left:1px solid rgb(204,204,204);padding-left:1ex\"><div>" +
      Replaced(original, kCommented, kEdited) + "</div></blockquote></div>\r\n";
  ExpectOneMoveIn(f, html,
                  "Content-Type: text/html; charset=\"UTF-8\"\r\n"
                  "Content-Transfer-Encoding: 8bit\r\n");
}

TEST_CASE("html reply: Thunderbird, twice quoted, base64, with a signature in <pre>") {
  TurnFixture f;
  const std::string original = WelcomeHtml(f);
  // A reply to a reply: the template two blockquotes deep, the move edited there.
  const std::string html =
      "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\">"
      "</head><body><p>Bonjour,</p><p>voici mon tour.<br></p>"
      "<div class=\"moz-cite-prefix\">Le 19/11/2026 \xC3\xA0 09:13, bob a \xC3\xA9"
      "crit&nbsp;:"
      "<br></div><blockquote type=\"cite\" cite=\"mid:x@test.local\"><p>Go on.</p>"
      "<div class=\"moz-cite-prefix\">On 19/11/2026 08:13, game@test.local wrote:<br></div>"
      "<blockquote type=\"cite\" cite=\"mid:y@test.local\">"
      "<meta http-equiv=\"content-type\" content=\"text/html; charset=UTF-8\">" +
      Replaced(original, kCommented, kEdited) +
      "</blockquote></blockquote><br><pre class=\"moz-signature\" cols=\"72\">-- \nAlice</pre>"
      "</body></html>\r\n";
  std::string base64;
  {
    static constexpr char kDigits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::size_t i = 0;
    for (; i + 2 < html.size(); i += 3) {
      const unsigned v = (static_cast<unsigned char>(html[i]) << 16) |
                         (static_cast<unsigned char>(html[i + 1]) << 8) |
                         static_cast<unsigned char>(html[i + 2]);
      for (int s = 18; s >= 0; s -= 6) base64 += kDigits[(v >> s) & 63];
      if ((i / 3 + 1) % 19 == 0) base64 += "\r\n";
    }
    if (i < html.size()) {
      unsigned v = static_cast<unsigned char>(html[i]) << 16;
      if (i + 1 < html.size()) v |= static_cast<unsigned char>(html[i + 1]) << 8;
      base64 += kDigits[(v >> 18) & 63];
      base64 += kDigits[(v >> 12) & 63];
      base64 += i + 1 < html.size() ? kDigits[(v >> 6) & 63] : '=';
      base64 += '=';
    }
  }
  ExpectOneMoveIn(f, base64 + "\r\n",
                  "Content-Type: text/html; charset=UTF-8; format=flowed\r\n"
                  "Content-Transfer-Encoding: base64\r\n");
}

TEST_CASE("html reply: Outlook, one <pre> per line, &nbsp;, windows-1252 quoted-printable") {
  TurnFixture f;
  const std::string text_template = [&f] {
    const std::string original = WelcomeHtml(f);
    const std::size_t begin = original.find(mail::kTemplateBegin);
    const std::size_t end = original.find(mail::kTemplateEnd);
    REQUIRE(begin != std::string::npos);
    REQUIRE(end != std::string::npos);
    return original.substr(begin, end + mail::kTemplateEnd.size() - begin);
  }();
  // Word's HTML: no blockquote; every line of the quoted <pre> its own <pre> with a <span>,
  // the edited line's spaces made &nbsp; by the editor, lines wrapped in the source.
  std::string lines;
  std::size_t start = 0;
  while (start <= text_template.size()) {
    std::size_t end = text_template.find('\n', start);
    if (end == std::string::npos) end = text_template.size();
    std::string line = text_template.substr(start, end - start);
    if (line.find(kCommented) != std::string::npos) {
      line =
          Replaced(line, kCommented, Replaced(kEdited, "moves { unit:", "moves&nbsp;{&nbsp;unit:"));
    }
    lines +=
        "<pre><span style='font-size:10.0pt;color:black'>" + line + "<o:p></o:p></span></pre>\r\n";
    start = end + 1;
  }
  const std::string html =
      "<html xmlns:o=\"urn:schemas-microsoft-com:office:office\"><head><meta name=Generator "
      "content=\"Microsoft Word 15 (filtered medium)\"><style><!--\r\np.MsoNormal, "
      "li.MsoNormal {margin:0cm; font-size:11.0pt;}\r\n--></style></head>"
      "<body lang=FR link=\"#0563C1\"><div class=WordSection1><p class=MsoNormal>Voil\xE0 mon "
      "tour.<o:p></o:p></p><p class=MsoNormal><o:p>&nbsp;</o:p></p><div style='border:none;"
      "border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm'><p class=MsoNormal><b>De\xA0:"
      "</b> game@test.local<br><b>Envoy\xE9\xA0:</b> jeudi 19 novembre 2026 09:13<br><b>\xC0\xA0:"
      "</b> alice@test.local<o:p></o:p></p></div>" +
      lines + "</div></body></html>";
  // Quoted-printable as Outlook writes it: =XX for 8-bit bytes and '=', soft breaks at 76.
  std::string qp;
  std::size_t column = 0;
  for (char c : html) {
    std::string piece;
    if (c == '\r' || c == '\n') {
      piece = std::string(1, c);
      column = 0;
      qp += piece;
      continue;
    }
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 128 || c == '=') {
      static constexpr char kHex[] = "0123456789ABCDEF";
      piece = std::string("=") + kHex[u >> 4] + kHex[u & 15];
    } else {
      piece = std::string(1, c);
    }
    if (column + piece.size() > 75) {
      qp += "=\r\n";
      column = 0;
    }
    qp += piece;
    column += piece.size();
  }
  ExpectOneMoveIn(f, qp + "\r\n",
                  "Content-Type: text/html; charset=\"windows-1252\"\r\n"
                  "Content-Transfer-Encoding: quoted-printable\r\n");
}

TEST_CASE("html reply: the HTML part is not read when the mail has a text/plain body") {
  TurnFixture f;
  const std::string html = "<blockquote><pre>" + Escaped(std::string(mail::kTemplateBegin)) +
                           "\nmoves { unit: \"b-hc1\" }\n" +
                           Escaped(std::string(mail::kTemplateEnd)) + "</pre></blockquote>";
  const std::string raw = HtmlOnlyMail(
      "--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nturn: 1\r\n"
      "--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" +
          html + "\r\n--b--\r\n",
      "Content-Type: multipart/alternative; boundary=b\r\n");
  const mail::InboundMail mail = mail::ParseInbound(raw, f.limits, false);
  REQUIRE(mail.candidates.size() == 1);
  CHECK(mail.candidates[0].source == "body");
  CHECK(mail.candidates[0].bytes == "turn: 1");
  // The same HTML alone is read; an HTML attachment never is.
  const mail::InboundMail alone = mail::ParseInbound(
      HtmlOnlyMail(html, "Content-Type: text/html; charset=utf-8\r\n"), f.limits, false);
  REQUIRE(alone.candidates.size() == 1);
  CHECK(alone.candidates[0].bytes == std::string(mail::kTemplateBegin) +
                                         "\nmoves { unit: \"b-hc1\" }\n" +
                                         std::string(mail::kTemplateEnd) + "\n");
  const mail::InboundMail attached =
      mail::ParseInbound(HtmlOnlyMail(html,
                                      "Content-Type: text/html; charset=utf-8\r\n"
                                      "Content-Disposition: attachment; filename=page.html\r\n"),
                         f.limits, false);
  CHECK(attached.candidates.empty());
}

}  // namespace
}  // namespace pbem::daemon
