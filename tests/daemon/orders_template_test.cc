// The orders template (issue 14): every unit of the side to move appears in it, it parses back
// to orders with no order, a line un-commented and filled in gives that order, and the same
// holds once the template has been quoted in a reply ("> ") between the player's words. The
// welcome mails name side, token, deadline and rules, and only the side that moves first gets
// a template. A results mail's template carries the open turn's reply key, which the desk
// takes as the player's token for that turn only.
#include "daemon/orders_template.h"

#include <catch2/catch.hpp>

#include "daemon/mail/inbound.h"
#include "daemon/mail/quoted_orders.h"
#include "daemon/reply_key.h"
#include "daemon/turn_loop.h"
#include "daemon/welcome_mail.h"
#include "engine/hex/hex.h"
#include "proto/codec/codec.h"
#include "tests/daemon/turn_fixture.h"

namespace pbem::daemon {
namespace {

using testing::At;
using testing::SourceDir;
using testing::TurnFixture;

std::shared_ptr<const ScenarioData> Bundled(TurnFixture& f) {
  auto data = f.catalog.Scenario("bois-de-la-morne");
  REQUIRE(data.ok());
  return *data;
}

pbem::v1::Orders Parsed(const std::string& text) {
  auto orders = codec::ParseOrders(text, codec::Format::kText, "template");
  INFO(orders.ErrorText() << text);
  REQUIRE(orders.ok());
  return orders.value();
}

// `text` with the commented order line that starts with `starts` made an order, `replace`
// put in place of `destination: ""`.
std::string Uncommented(std::string text, const std::string& starts, const std::string& replace) {
  const std::size_t at = text.find("# " + starts);
  REQUIRE(at != std::string::npos);
  text.erase(at, 2);
  const std::size_t empty = text.find("destination: \"\"", at);
  REQUIRE(empty != std::string::npos);
  text.replace(empty, std::string("destination: \"\"").size(), replace);
  return text;
}

std::string Quote(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    out += line.empty() ? ">\n" : "> " + line + "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

TEST_CASE("orders template: every unit of the side, parses to no order, round trip") {
  TurnFixture f;
  auto data = Bundled(f);
  const engine::GameState state = engine::InitialState(data->scenario, "demo");
  for (const templates::Language language : templates::kAllLanguages) {
    OrdersTemplateInput input{&data->ruleset, &data->scenario, &state, "demo", "tok-blue"};
    const std::string text = OrdersTemplate(f.mail_templates, language, input);
    INFO(text);
    CHECK(text.rfind(std::string(mail::kTemplateBegin) + "\n", 0) == 0);
    CHECK(text.find(std::string(mail::kTemplateEnd) + "\n") ==
          text.size() - 1 - mail::kTemplateEnd.size());
    int units = 0;
    for (std::size_t i = 0; i < data->scenario.units.size(); ++i) {
      const engine::UnitSpec& spec = data->scenario.units[i];
      if (spec.side != state.side_to_move) {
        CHECK(text.find("\"" + spec.id + "\"") == std::string::npos);
        continue;
      }
      ++units;
      const std::string hex = engine::FormatLabel(*state.units[i].hex, 2);
      CHECK(text.find("# moves { unit: \"" + spec.id + "\" from: \"" + hex + "\"") !=
            std::string::npos);
      CHECK(text.find(spec.name) != std::string::npos);
    }
    CHECK(units > 0);
    // Every line short enough for a mail client not to wrap it, even quoted.
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = text.find('\n', start);
      CHECK(end - start <= 76);
      start = end + 1;
    }
    const pbem::v1::Orders empty = Parsed(text);
    CHECK(empty.game_id() == "demo");
    CHECK(empty.turn() == 1);
    CHECK(empty.side() == pbem::v1::SIDE_BLUE);
    CHECK(empty.token() == "tok-blue");
    CHECK(empty.moves_size() == 0);
    CHECK(empty.bombardments_size() == 0);
    CHECK(empty.attacks_size() == 0);
    CHECK(empty.placements_size() == 0);

    const std::string edited =
        Uncommented(text, "moves { unit: \"b-hc1\"", "destination: \"2307\"");
    const pbem::v1::Orders one = Parsed(edited);
    REQUIRE(one.moves_size() == 1);
    CHECK(one.moves(0).unit() == "b-hc1");
    CHECK(one.moves(0).from() == "2303");
    CHECK(one.moves(0).destination() == "2307");

    // Quoted once or twice, between a greeting, a "wrote:" line and a signature.
    for (const std::string& reply : {"Here you are.\n-- \nAlice\n\nOn Monday pbem wrote:\n" +
                                         Quote(edited) + "> -- \n> pbem\n",
                                     "Bonjour,\n\n" + Quote(Quote(edited)) + "\nMerci\n",
                                     "Voici.\n" + edited + "Merci\n-- \nA.\n"}) {
      const std::optional<std::string> found = mail::TemplateInReply(reply);
      INFO(reply);
      REQUIRE(found);
      const pbem::v1::Orders back = Parsed(*found);
      REQUIRE(back.moves_size() == 1);
      CHECK(back.moves(0).destination() == "2307");
      CHECK(back.token() == "tok-blue");
    }
  }
}

TEST_CASE("quoted orders: quoting removed, markers required, nothing outside them") {
  CHECK(mail::Unquoted("> > x") == "x");
  CHECK(mail::Unquoted(">>x") == "x");
  CHECK(mail::Unquoted(" > x") == "x");
  CHECK(mail::Unquoted("x > y") == "x > y");
  const std::string begin(mail::kTemplateBegin), end(mail::kTemplateEnd);
  CHECK_FALSE(mail::TemplateInReply("turn: 3\n"));
  CHECK_FALSE(mail::TemplateInReply("> " + begin + "\n> turn: 3\n"));  // no end: no template
  CHECK(*mail::TemplateInReply("junk\n> " + begin + "\r\n> turn: 3  \r\n>" + end + "\nafter\n> " +
                               begin + "\n") == begin + "\nturn: 3\n" + end + "\n");
}

TEST_CASE("orders template: a quoted reply is read as the template's orders by the intake") {
  TurnFixture f;
  auto data = Bundled(f);
  const engine::GameState state = engine::InitialState(data->scenario, "demo");
  OrdersTemplateInput input{&data->ruleset, &data->scenario, &state, "demo", "tok-blue"};
  const std::string edited =
      Uncommented(OrdersTemplate(f.mail_templates, templates::Language::kEnglish, input),
                  "moves { unit: \"b-hc1\"", "destination: \"2307\"");
  const std::string raw =
      "From: Alice <alice@test.local>\r\nTo: referee@test.local\r\n"
      "Subject: Re: Game demo: you play blue, your move\r\nMessage-ID: <r1@test.local>\r\n"
      "Content-Type: text/plain; charset=utf-8\r\n\r\nMy move.\r\n\r\nOn Monday pbem wrote:\r\n" +
      Quote(edited);
  const mail::InboundMail mail = mail::ParseInbound(raw, f.limits, false);
  REQUIRE(mail.candidates.size() == 1);
  const pbem::v1::Orders orders = Parsed(mail.candidates[0].bytes);
  REQUIRE(orders.moves_size() == 1);
  CHECK(orders.moves(0).unit() == "b-hc1");
  const std::vector<std::string> hints = mail::GameIdHints(mail);
  REQUIRE_FALSE(hints.empty());
  CHECK(hints[0] == "demo");
}

TEST_CASE("welcome mails: side, token, deadline, rules; the template for the first side only") {
  TurnFixture f;
  auto data = Bundled(f);
  WelcomeContext context;
  context.data = data.get();
  context.game_id = "w1";
  context.reply_to = "referee@test.local";
  context.rulesets_dir = SourceDir() / "engine" / "rulesets";
  context.deadline = std::chrono::sys_seconds(std::chrono::seconds(1'795'075'980));
  std::vector<storage::NewPlayer> players{{"w1", "blue", "ann@test.local", "tok-ann-1", "en"},
                                          {"w1", "orange", "ben@test.local", "tok-ben-1", "fr"}};
  auto mails = WelcomeMails(f.mail_templates, context, players, At(5));
  REQUIRE(mails.ok());
  REQUIRE(mails->size() == 2);
  const storage::NewMail& blue = (*mails)[0];
  const storage::NewMail& orange = (*mails)[1];
  INFO(blue.body);
  INFO(orange.body);
  CHECK(blue.recipient == "ann@test.local");
  CHECK(blue.body.rfind("Your move, due by Thursday 19 November 2026 at 08:13 UTC.", 0) == 0);
  CHECK(blue.subject == "Game w1: you play blue, your move");
  CHECK(blue.body.find("Your token is: tok-ann-1") != std::string::npos);
  CHECK(blue.body.find("The orange side is played by ben@test.local") != std::string::npos);
  CHECK(blue.body.find("engine/rulesets/morne-plaine/RULES.md") != std::string::npos);
  CHECK(blue.body.find("POST /v1/games/w1/orders") != std::string::npos);
  // The template, quoted in the body and attached, with the player's token: a reply parses.
  const std::optional<std::string> quoted = mail::TemplateInReply(blue.body);
  REQUIRE(quoted);
  CHECK(Parsed(*quoted).token() == "tok-ann-1");
  bool has_template = false, has_rules = false;
  for (const storage::Attachment& a : blue.attachments) {
    if (a.filename == "orders-w1-turn1-blue.textproto") has_template = a.data == *quoted;
    if (a.filename == "RULES.md") has_rules = a.data.find("# ") == 0;
    if (a.content_type == "text/html") {
      CHECK(a.data.find("Your move, due by Thursday 19 November 2026 at 08:13 UTC.") <
            a.data.find("<p>Hello,</p>"));
      CHECK(a.data.find("<p>Hello,</p>") != std::string::npos);  // no address in a greeting
      CHECK(a.data.find("orders: begin") != std::string::npos);
    }
  }
  CHECK(has_template);
  CHECK(has_rules);

  CHECK(orange.subject == "Partie w1\u00a0: vous jouez le camp orange");
  CHECK(orange.body.rfind("Bonjour,\n", 0) == 0);
  CHECK(orange.body.find("Votre jeton\u00a0: tok-ben-1") != std::string::npos);
  CHECK(orange.body.find("Le camp bleu joue le premier") != std::string::npos);
  CHECK(orange.body.find("avant le jeudi 19 novembre 2026 à 8 h 13 UTC") != std::string::npos);
  CHECK(orange.body.find("REGLES.md") != std::string::npos);
  CHECK_FALSE(mail::TemplateInReply(orange.body));
  for (const storage::Attachment& a : orange.attachments) {
    CHECK(a.filename.find("orders-") == std::string::npos);
  }
}

TEST_CASE("results mail: the side to move gets the template with the turn's reply key") {
  TurnFixture f;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits,
                TurnLoopOptions{std::chrono::seconds(0), /*map_image=*/false, 0});
  REQUIRE(loop.Open(f.repository, "demo", At(10)).ok());
  // Blue's turn 1, with a key made for it: accepted as blue's token.
  Result<storage::OpenTurn> open = f.repository.GetOpenTurn("demo", 1, "blue");
  REQUIRE(open.ok());
  const std::string blue_key = ReplyKey(open->dice_seed, "demo", 1, "blue");
  CHECK(ReplyKeyTurn(blue_key) == 1);
  CHECK_FALSE(f.SubmitHttp("demo", "blue", testing::BlueOrdersText("reply-1-00"), At(11)).accepted);
  DeskOutcome blue = f.SubmitHttp("demo", "blue", testing::BlueOrdersText(blue_key), At(12));
  INFO(blue.code << " " << blue.detail);
  REQUIRE(blue.accepted);
  REQUIRE(*loop.ResolveIfDue(f.repository, "demo", At(20)));

  // Orange's results mail asks orange to move, with the template and orange's key; blue's
  // does not.
  const std::vector<storage::OutboxMail> due = f.Due();
  const storage::OutboxMail* orange_mail = nullptr;
  for (const storage::OutboxMail& m : due) {
    if (m.recipient == "Bob@Test.Local") orange_mail = &m;
    if (m.recipient == "alice@test.local") {
      CHECK_FALSE(mail::TemplateInReply(m.body));
      CHECK(m.body.rfind("Your move", 0) == std::string::npos);
    }
  }
  REQUIRE(orange_mail != nullptr);
  INFO(orange_mail->body);
  CHECK(orange_mail->body.rfind("Your move (this game has no deadline).", 0) == 0);
  const std::optional<std::string> quoted = mail::TemplateInReply(orange_mail->body);
  REQUIRE(quoted);
  const pbem::v1::Orders orders = Parsed(*quoted);
  CHECK(orders.side() == pbem::v1::SIDE_ORANGE);
  CHECK(orders.turn() == 1);
  CHECK(ReplyKeyTurn(orders.token()) == 1);
  bool attached = false;
  for (const auto& a : orange_mail->attachments) {
    attached =
        attached || (a.filename == "orders-demo-turn1-orange.textproto" && a.data == *quoted);
  }
  CHECK(attached);
  // The template as sent is a valid submission (no order) with orange's reply key.
  DeskOutcome orange = f.SubmitHttp("demo", "orange", *quoted, At(21));
  INFO(orange.code << " " << orange.detail);
  CHECK(orange.accepted);
  // Blue's key of the turn already played opens nothing any more.
  DeskOutcome stale = f.SubmitHttp("demo", "blue", testing::BlueOrdersText(blue_key), At(22));
  CHECK(stale.code == "unauthenticated");
}

}  // namespace
}  // namespace pbem::daemon
