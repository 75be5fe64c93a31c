// Mail intake with a fake mailbox, a real SQLite store and the bundled scenario: what each
// kind of mail gets (receipt, error naming the problem, or silent drop), what is stored, and
// that a mail leaves the mailbox only after what it carried is stored.
#include "daemon/mail/intake.h"

#include <catch2/catch.hpp>
#include <memory>

#include "daemon/mail/idle.h"
#include "daemon/mail/inbound.h"
#include "daemon/mail/replies.h"
#include "templates/mail_render.h"
#include "tests/daemon/game_fixture.h"
#include "tests/daemon/intake_harness.h"

namespace pbem::daemon::mail {
namespace {

using testing::At;
using testing::BlueOrdersText;

using testing_intake::AttachmentMail;
using testing_intake::Base64;
using testing_intake::FakeMailbox;
using testing_intake::Harness;
using testing_intake::Headers;
using testing_intake::TextMail;

TEST_CASE("with the mail templates, a receipt is RenderReceipt's text and HTML",
          "[daemon][intake]") {
  Harness h;
  h.UseTemplates();
  REQUIRE(h.Handle(TextMail("alice@test.local", "m1@x", BlueOrdersText())) ==
          Disposition::kAnswered);
  // A refusal keeps the wording that names the exact problem.
  REQUIRE(h.Handle(TextMail("alice@test.local", "m2@x", BlueOrdersText("wrong-token"))) ==
          Disposition::kAnswered);
  auto outbox = h.Outbox();
  REQUIRE(outbox.size() == 2);
  CHECK(outbox[0].subject == "Re: [pbem demo] orders");  // threads with the player's mail
  CHECK_THAT(outbox[0].body,
             Catch::Contains("Your orders for game demo, turn 1 (blue) have been received"));
  CHECK_THAT(outbox[0].body, Catch::Contains("(b-i2)"));
  REQUIRE(outbox[0].attachments.size() == 1);
  CHECK(outbox[0].attachments[0].content_type == "text/html");
  CHECK_THAT(outbox[0].attachments[0].data, Catch::Contains("<html"));
  CHECK_THAT(outbox[1].body, Catch::Contains("Error: unauthenticated"));
  CHECK_THAT(outbox[1].body, Catch::Contains("not the token of side blue"));
}

TEST_CASE("text orders in the body get a receipt with one verdict per order", "[daemon][intake]") {
  Harness h;
  CHECK(h.Handle(TextMail("alice@test.local", "m1@x", BlueOrdersText())) == Disposition::kAnswered);
  auto outbox = h.Outbox();
  REQUIRE(outbox.size() == 1);
  CHECK(outbox[0].recipient == "alice@test.local");
  CHECK(outbox[0].subject == "Re: [pbem demo] orders");
  CHECK_THAT(outbox[0].body, Catch::Contains("Game demo, turn 1, side blue"));
  CHECK_THAT(outbox[0].body, Catch::Contains("move 1 (b-i2): ok"));
  auto submissions = h.Submissions();
  REQUIRE(submissions.size() == 1);
  CHECK(submissions[0].accepted);
  CHECK(submissions[0].message_id == "<m1@x>");
  CHECK(submissions[0].sender == "alice@test.local");
  pbem::v1::TurnResult verdicts;
  REQUIRE(verdicts.ParseFromString(submissions[0].verdicts));
  CHECK(verdicts.verdicts_size() > 0);
  CHECK(h.wakes == 1);
  CHECK_THAT(h.fixture.metrics.RenderPrometheus(),
             Catch::Contains("pbemd_submissions_accepted_total{channel=\"mail\"} 1"));
}

TEST_CASE("binary and JSON attachments are read; the same mail twice is stored once",
          "[daemon][intake]") {
  Harness h;
  auto parsed = codec::ParseOrders(BlueOrdersText(), codec::Format::kText, "orders");
  REQUIRE(parsed.ok());
  const std::string binary = codec::SerializeMessage(parsed.value(), codec::Format::kBinary);
  const std::string json = codec::SerializeMessage(parsed.value(), codec::Format::kJson);

  CHECK(h.Handle(AttachmentMail("alice@test.local", "bin@x", "orders.bin",
                                "application/octet-stream", binary)) == Disposition::kAnswered);
  // Same Message-ID again (a re-delivery): not stored twice, answered as a duplicate.
  CHECK(h.Handle(AttachmentMail("alice@test.local", "bin@x", "orders.bin",
                                "application/octet-stream", binary)) == Disposition::kAnswered);
  CHECK(h.Handle(AttachmentMail("ALICE@test.local", "json@x", "orders.json", "application/json",
                                json)) == Disposition::kAnswered);
  auto submissions = h.Submissions();
  REQUIRE(submissions.size() == 2);
  CHECK(submissions[0].accepted);
  CHECK(submissions[1].accepted);
  auto outbox = h.Outbox();
  REQUIRE(outbox.size() == 3);
  CHECK_THAT(outbox[1].body, Catch::Contains("sent these orders already"));
  CHECK_THAT(outbox[2].body, Catch::Contains("move 1 (b-i2): ok"));
}

struct BadCase {
  const char* name;
  std::string mail;
  const char* code;
  const char* detail;
};

TEST_CASE("bad mail from a player gets an error naming the problem and changes nothing",
          "[daemon][intake]") {
  // A mail whose orders cannot be read is placed by the game id in its subject.
  std::string bomb = Headers("alice@test.local", "bomb@x", "[pbem demo] orders") +
                     "Content-Type: multipart/mixed; boundary=\"Z\"\r\n\r\n";
  for (int i = 0; i < 40; ++i) bomb += "--Z\r\nContent-Type: text/plain\r\n\r\nx\r\n";
  bomb += "--Z--\r\n";
  std::string deep = Headers("alice@test.local", "deep@x", "[pbem demo] orders");
  for (int i = 0; i < 6; ++i) {
    deep += "Content-Type: multipart/mixed; boundary=\"D" + std::to_string(i) + "\"\r\n\r\n--D" +
            std::to_string(i) + "\r\n";
  }
  deep += "Content-Type: text/plain\r\n\r\nx\r\n";
  for (int i = 5; i >= 0; --i) deep += "--D" + std::to_string(i) + "--\r\n";
  std::string stale = BlueOrdersText();
  stale.replace(stale.find("turn: 1"), 7, "turn: 4");
  const std::string other_game = [] {
    std::string text = BlueOrdersText();
    text.replace(text.find("game_id: \"demo\""), 15, "game_id: \"other\"");
    return text;
  }();
  const std::string orange_side = [] {
    std::string text = BlueOrdersText();
    text.replace(text.find("side: SIDE_BLUE"), 15, "side: SIDE_ORANGE");
    return text;
  }();

  const std::vector<BadCase> cases = {
      {"text that is not orders",
       TextMail("alice@test.local", "a@x", "move b-i2 to 1610\n", "[pbem demo] orders"), kMalformed,
       "body:1:1: Message type \"pbem.v1.Orders\" has no field named \"move\""},
      {"unknown field", TextMail("alice@test.local", "b@x", BlueOrdersText() + "speed: 3\n"),
       kMalformed, "speed"},
      {"broken JSON naming the game",
       TextMail("alice@test.local", "c@x", "{\"gameId\": \"demo\", \"turn\": }"), kMalformed,
       "body"},
      {"no orders at all", TextMail("alice@test.local", "d@x", "   \r\n", "demo"), kMalformed,
       "holds no orders"},
      {"missing token", TextMail("alice@test.local", "e@x", BlueOrdersText("")), kUnauthenticated,
       "no token"},
      {"wrong token", TextMail("alice@test.local", "f@x", BlueOrdersText("tok-orange")),
       kUnauthenticated, "not the token of side blue"},
      {"the other side's orders", TextMail("alice@test.local", "g@x", orange_side),
       kUnauthenticated, "for side orange; you play side blue"},
      {"stale turn", TextMail("alice@test.local", "h@x", stale), kStaleTurn,
       "for turn 4; the game is at turn 1"},
      {"another game", TextMail("alice@test.local", "i@x", other_game, "[pbem demo] orders"),
       kWrongGame, "for game \"other\""},
      {"multipart bomb", bomb, kMalformed, "more than 32 MIME parts"},
      {"nesting bomb", deep, kMalformed, "nested deeper than 4"},
      {"oversized",
       TextMail("alice@test.local", "j@x", BlueOrdersText() + std::string(2 << 20, '#')),
       kOversized, "larger than 1048576 bytes"},
      {"binary garbage attachment",
       AttachmentMail("alice@test.local", "k@x", "orders.bin", "application/octet-stream",
                      std::string("\xff\xfe\x00\x01garbage", 11)),
       kMalformed, "orders.bin"},
      {"bad MIME boundary",
       Headers("alice@test.local", "l@x", "Re: [pbem demo] orders received") +
           "Content-Type: multipart/mixed; boundary=\"Q\"\r\n\r\nno boundary ever\r\n",
       kMalformed, "MIME"},
  };
  // The refusals are the mail templates' (the player's language, English here), with the
  // stable code and the sentence naming the exact problem.
  Harness h;
  h.UseTemplates();
  const std::string demo_state = h.fixture.repository.GetGame("demo")->state;
  std::size_t expected_replies = 0;
  for (const BadCase& c : cases) {
    INFO("case: " << c.name);
    REQUIRE(h.Handle(c.mail) == Disposition::kAnswered);
    ++expected_replies;
    auto outbox = h.Outbox();
    REQUIRE(outbox.size() == expected_replies);
    const storage::OutboxMail& reply = outbox.back();
    CHECK(reply.recipient == "alice@test.local");
    CHECK_THAT(reply.body, Catch::Contains(std::string("Error: ") + c.code));
    CHECK_THAT(reply.body, Catch::Contains(c.detail));
    CHECK_THAT(reply.body, Catch::StartsWith("Hello,\n"));
    CHECK_THAT(reply.body, Catch::Contains("Nothing in your mail has been taken"));
    REQUIRE(reply.attachments.size() == 1);
    CHECK(reply.attachments[0].content_type == "text/html");
    CHECK_THAT(reply.attachments[0].data, Catch::Contains(std::string("<code>") + c.code));
    auto submissions = h.Submissions();
    REQUIRE_FALSE(submissions.empty());
    CHECK_FALSE(submissions.back().accepted);
    CHECK_THAT(submissions.back().reason, Catch::StartsWith(c.code));
  }
  // Nothing changed in the game.
  auto game = h.fixture.repository.GetGame("demo");
  REQUIRE(game.ok());
  CHECK(game->state == demo_state);
  CHECK(game->turns_committed == 0);
  CHECK(h.Submissions("other").empty());
  CHECK_THAT(
      h.fixture.metrics.RenderPrometheus(),
      Catch::Contains("pbemd_submissions_rejected_total{channel=\"mail\",reason=\"malformed\"}"));
}

TEST_CASE("refused mails of a sender no token proved keep only their first bytes",
          "[daemon][intake]") {
  // Anyone can write a player's address in From:. What such a mail may leave in the store is
  // bounded; a refusal after the token matched (here a stale turn) keeps the whole mail.
  Harness h;
  const std::string padding = "# " + std::string(200000, 'x') + "\n";
  std::string stale = BlueOrdersText() + padding;
  stale.replace(stale.find("turn: 1"), 7, "turn: 4");
  struct Case {
    const char* name;
    std::string mail;
    std::string code;
    bool whole;
  };
  const std::vector<Case> cases = {
      {"wrong token", TextMail("alice@test.local", "w1@x", BlueOrdersText("tok-orange") + padding),
       kUnauthenticated, false},
      {"unreadable orders",
       TextMail("alice@test.local", "w2@x", "move b-i2 to 1610\n" + padding, "[pbem demo] orders"),
       kMalformed, false},
      {"oversized",
       TextMail("alice@test.local", "w3@x", BlueOrdersText() + std::string(2 << 20, '#')),
       kOversized, false},
      {"stale turn, right token", TextMail("alice@test.local", "w4@x", stale), kStaleTurn, true},
  };
  for (const Case& c : cases) {
    INFO("case: " << c.name);
    REQUIRE(h.Handle(c.mail) == Disposition::kAnswered);
    auto submissions = h.Submissions();
    REQUIRE_FALSE(submissions.empty());
    const storage::Submission& stored = submissions.back();
    CHECK_FALSE(stored.accepted);
    CHECK_THAT(stored.reason, Catch::StartsWith(c.code));
    if (c.whole) {
      CHECK(stored.raw.size() > 200000);
      CHECK_THAT(stored.reason, !Catch::Contains("kept"));
    } else {
      CHECK(stored.raw.size() == kUnprovenRawKept);
      CHECK(stored.raw == c.mail.substr(0, kUnprovenRawKept));
      CHECK_THAT(stored.reason, Catch::Contains("bytes received from a sender not proven by a "
                                                "token; the first 8192 kept)"));
    }
  }
  // Accepted orders keep every byte, padding included.
  REQUIRE(h.Handle(TextMail("alice@test.local", "w5@x", BlueOrdersText() + padding)) ==
          Disposition::kAnswered);
  auto submissions = h.Submissions();
  REQUIRE(submissions.back().accepted);
  CHECK(submissions.back().raw.size() > 200000);
}

TEST_CASE("an address no token proved gets a bounded number of refusals an hour",
          "[daemon][intake]") {
  // Anyone can write a player's address in From: pbemd must not flood that player's mailbox.
  Harness h;
  h.config.mail_in.refusal_replies_per_hour = 3;
  MailIntake intake{h.fixture.repository, h.fixture.desk, h.fixture.metrics, *h.logger, h.config};
  auto handle = [&](const std::string& id, const std::string& body, storage::Timestamp now) {
    FetchedMessage m;
    m.data = TextMail("alice@test.local", id, body);
    m.size_bytes = m.data.size();
    return intake.Handle(m, now);
  };
  const std::string wrong_token = BlueOrdersText("tok-orange");
  for (int i = 0; i < 5; ++i) {
    INFO("mail " << i);
    CHECK(handle("spoof" + std::to_string(i) + "@x", wrong_token, At(100 + i)) ==
          Disposition::kAnswered);
  }
  CHECK(h.Submissions().size() == 5);  // every one stored, refused
  CHECK(h.Outbox().size() == 3);       // three answered
  CHECK_THAT(h.fixture.metrics.RenderPrometheus(),
             Catch::Contains("pbemd_mail_refusal_replies_withheld_total 2\n"));
  // A refusal after the token matched is always answered (here: a turn that is not open).
  std::string stale = BlueOrdersText();
  stale.replace(stale.find("turn: 1"), 7, "turn: 4");
  CHECK(handle("stale@x", stale, At(200)) == Disposition::kAnswered);
  CHECK(h.Outbox().size() == 4);
  CHECK_THAT(h.Outbox().back().body, Catch::Contains("turn 4"));
  // An hour after the first, the count frees one reply at a time.
  CHECK(handle("later1@x", wrong_token, At(100 + 3600)) == Disposition::kAnswered);
  CHECK(h.Outbox().size() == 5);
  CHECK(handle("later2@x", wrong_token, At(100 + 3600)) == Disposition::kAnswered);
  CHECK(h.Outbox().size() == 5);
  CHECK(h.Submissions().size() == 8);
}

TEST_CASE("a refusal is written in the player's language", "[daemon][intake]") {
  Harness h;
  h.fixture.AddGame("partie", {{"blue", "jean@test.local", "tok-jean", "fr"},
                               {"orange", "marie@test.local", "tok-marie", "fr"}});
  h.UseTemplates();
  std::string orders = BlueOrdersText("tok-marie");
  orders.replace(orders.find("game_id: \"demo\""), 15, "game_id: \"partie\"");
  std::string stale = BlueOrdersText("tok-jean");
  stale.replace(stale.find("game_id: \"demo\""), 15, "game_id: \"partie\"");
  stale.replace(stale.find("turn: 1"), 7, "turn: 3");
  REQUIRE(h.Handle(TextMail("jean@test.local", "fr1@x", orders, "[pbem partie] ordres")) ==
          Disposition::kAnswered);
  REQUIRE(h.Handle(TextMail("jean@test.local", "fr2@x", stale, "Re: [pbem partie] ordres")) ==
          Disposition::kAnswered);
  // An English player of the same server still gets English.
  REQUIRE(h.Handle(TextMail("alice@test.local", "en1@x", BlueOrdersText("tok-orange"))) ==
          Disposition::kAnswered);
  auto outbox = h.Outbox();
  REQUIRE(outbox.size() == 3);
  CHECK(outbox[0].subject == "Re: [pbem partie] ordres\u00a0: non accepté");
  CHECK_THAT(outbox[0].body, Catch::StartsWith("Bonjour,\n"));
  CHECK_THAT(outbox[0].body, Catch::Contains("son expéditeur ou son jeton ne correspond pas"));
  CHECK_THAT(outbox[0].body, Catch::Contains("Code d'erreur\u00a0: unauthenticated\n"));
  CHECK_THAT(
      outbox[0].body,
      Catch::Contains("Détail (en anglais, tel que l'arbitre l'enregistre)\u00a0: the token in "
                      "the orders is not the token of side blue"));
  // "Re: " is not doubled; the turns come from the orders and the game.
  CHECK(outbox[1].subject ==
        "Re: [pbem partie] ordres\u00a0: ordres pour le tour 3, la partie en est au tour 1");
  CHECK_THAT(outbox[1].body, Catch::Contains("Code d'erreur\u00a0: stale_turn"));
  CHECK(outbox[2].subject == "Re: [pbem demo] orders: not accepted");
  CHECK_THAT(outbox[2].body, Catch::StartsWith("Hello,\n"));
  CHECK_THAT(outbox[2].body, Catch::Contains("Error: unauthenticated\nDetail: the token in the "
                                             "orders is not the token of side blue\n"));
}

TEST_CASE("unknown senders, bounces and pbemd's own mail are dropped without reply",
          "[daemon][intake]") {
  Harness h;
  // Valid orders with the right token, but from an address that plays no side.
  CHECK(h.Handle(TextMail("mallory@evil.test", "x1@x", BlueOrdersText())) == Disposition::kDropped);
  // A player of another game sending garbage about this one.
  CHECK(h.Handle(TextMail("carol@test.local", "x2@x", "garbage", "demo")) == Disposition::kDropped);
  CHECK(h.Handle("Subject: no sender\r\n\r\nhello") == Disposition::kDropped);
  CHECK(h.Handle("From: alice@test.local\r\nAuto-Submitted: auto-replied\r\n\r\nout of office") ==
        Disposition::kDropped);
  CHECK(h.Handle(TextMail("pbem@game.test", "x3@x", "loop")) == Disposition::kDropped);
  CHECK(h.Outbox().empty());
  CHECK(h.Submissions().empty());
  CHECK_THAT(h.fixture.metrics.RenderPrometheus(), Catch::Contains("pbemd_mails_dropped_total 5"));
}

TEST_CASE("a poll deletes what it stored and keeps what it could not read", "[daemon][intake]") {
  Harness h;
  FakeMailbox mailbox;
  mailbox.Add(TextMail("alice@test.local", "p1@x", BlueOrdersText()));
  mailbox.Add(TextMail("mallory@evil.test", "p2@x", "spam"));
  const std::uint32_t stuck = mailbox.Add(TextMail("alice@test.local", "p3@x", "x"));
  mailbox.unfetchable = stuck;
  auto stats = h.intake.PollOnce(mailbox, At(100));
  REQUIRE(stats.ok());
  CHECK(stats->fetched == 2);
  CHECK(stats->answered == 1);
  CHECK(stats->dropped == 1);
  CHECK(stats->kept == 1);
  REQUIRE(mailbox.messages.size() == 1);
  CHECK(mailbox.messages.count(stuck) == 1);

  mailbox.down = true;
  CHECK_FALSE(h.intake.PollOnce(mailbox, At(200)).ok());
  CHECK_THAT(h.fixture.metrics.RenderPrometheus(),
             Catch::Contains("pbemd_mailbox_polls_total{outcome=\"failed\"} 1"));
}

TEST_CASE("one instance reads the mailbox at a time; another takes over when it goes",
          "[daemon][intake]") {
  Harness h;
  // A second instance on the same store, with its own repository (connection) and intake.
  auto other_repository = std::make_unique<storage::SqliteRepository>(h.fixture.dir.path());
  REQUIRE(other_repository->OpenOrMigrate().ok());
  Metrics other_metrics;
  auto other = std::make_unique<MailIntake>(*other_repository, h.fixture.desk, other_metrics,
                                            *h.logger, h.config);
  FakeMailbox mailbox;
  mailbox.Add(TextMail("alice@test.local", "l1@x", BlueOrdersText()));

  auto led = other->PollIfLeader(mailbox, At(100));
  REQUIRE(led.ok());
  REQUIRE(led->has_value());  // the first to poll leads
  CHECK((*led)->answered == 1);
  CHECK_THAT(other_metrics.RenderPrometheus(), Catch::Contains("pbemd_mail_intake_leader 1"));

  mailbox.Add(TextMail("alice@test.local", "l2@x", "garbage"));
  auto followed = h.intake.PollIfLeader(mailbox, At(200));
  REQUIRE(followed.ok());
  CHECK_FALSE(followed->has_value());
  CHECK(mailbox.messages.size() == 1);  // left for the leader
  CHECK_THAT(h.fixture.metrics.RenderPrometheus(), Catch::Contains("pbemd_mail_intake_leader 0"));

  // The leader goes away (its connection closes): the follower's next poll takes over.
  other.reset();
  other_repository.reset();
  auto took_over = h.intake.PollIfLeader(mailbox, At(300));
  REQUIRE(took_over.ok());
  REQUIRE(took_over->has_value());
  CHECK((*took_over)->answered == 1);
  CHECK(mailbox.messages.empty());
  CHECK_THAT(h.fixture.metrics.RenderPrometheus(), Catch::Contains("pbemd_mail_intake_leader 1"));

  // Stepping down lets another take it at once.
  h.intake.StepDown();
  storage::SqliteRepository third(h.fixture.dir.path());
  REQUIRE(third.OpenOrMigrate().ok());
  CHECK(*third.TryLock(kIntakeLock));
}

TEST_CASE("addresses and game id hints are read from the headers and bodies", "[daemon][intake]") {
  CHECK(BareAddress("Alice Smith <Alice@Test.Local>") == "alice@test.local");
  CHECK(BareAddress("bob@test.local") == "bob@test.local");
  CHECK(BareAddress("\"Eve\" <>").empty());
  CHECK(BareAddress("no address").empty());
  // Issue 13, finding 8: one address rule everywhere (daemon/validate.h).
  CHECK(BareAddress("<a@b,c@d>").empty());
  CHECK(BareAddress("@").empty());
  CHECK(BareAddress("a@").empty());
  CHECK(BareAddress("<a..b@c>").empty());
  InboundMail mail;
  mail.subject = "Re: [pbem g-1] orders";
  mail.candidates.push_back({"body", std::nullopt, "game_id: \"g-7\"\nturn: x", false, ""});
  CHECK(GameIdHints(mail) == std::vector<std::string>{"g-7", "Re", "pbem", "g-1", "orders"});
}

}  // namespace
}  // namespace pbem::daemon::mail

namespace pbem::daemon::mail {
namespace {

TEST_CASE("IMAP IDLE: new mail announcements, quoting and the mailbox of the URL",
          "[daemon][intake]") {
  CHECK(AnnouncesNewMail("* 3 EXISTS"));
  CHECK(AnnouncesNewMail("* 12 exists"));
  CHECK(AnnouncesNewMail("* 0 EXISTS\r"));
  CHECK_FALSE(AnnouncesNewMail("* 3 EXPUNGE"));
  CHECK_FALSE(AnnouncesNewMail("* 3 RECENT"));
  CHECK_FALSE(AnnouncesNewMail("* OK Still here"));
  CHECK_FALSE(AnnouncesNewMail("* EXISTS"));
  CHECK_FALSE(AnnouncesNewMail("i3 OK EXISTS"));
  CHECK(ImapQuoted("game") == "\"game\"");
  CHECK(ImapQuoted(R"(pa"ss\w)") == R"("pa\"ss\\w")");
  CHECK(MailboxOfUrl("imap://127.0.0.1:1143/INBOX") == "INBOX");
  CHECK(MailboxOfUrl("imaps://mail.example.org/Orders/") == "Orders");
  CHECK(MailboxOfUrl("imap://mail.example.org") == "INBOX");
  CHECK(MailboxOfUrl("imap://mail.example.org/") == "INBOX");
}

TEST_CASE("UID SEARCH responses are read line by line", "[daemon][intake]") {
  CHECK(ParseSearchResponse("* SEARCH 3 1 17\r\n").size() == 3);
  CHECK(ParseSearchResponse("* SEARCH 3 1 17\r\n") == std::vector<std::uint32_t>{1, 3, 17});
  CHECK(ParseSearchResponse("* SEARCH\r\n").empty());
  CHECK(ParseSearchResponse("* OK [UIDNEXT 4]\r\n* SEARCH 2\r\n* 1 EXISTS\r\n") ==
        std::vector<std::uint32_t>{2});
  CHECK(ParseSearchResponse("* SEARCH 0 x 5\r\n") == std::vector<std::uint32_t>{5});
}

}  // namespace
}  // namespace pbem::daemon::mail
