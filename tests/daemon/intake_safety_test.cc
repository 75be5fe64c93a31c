// Mail intake against hostile and unusual mail (issue 13, findings 1 and 9): inputs that
// crashed pbemd, the quarantine of a mail that fails twice, attachments typed
// application/octet-stream, bodies in a declared charset, header floods, and reply headers that
// no inbound field can extend.
#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

#include "daemon/mail/attempts.h"
#include "daemon/mail/inbound.h"
#include "daemon/mail/intake.h"
#include "daemon/mail/mailer.h"
#include "proto/codec/codec.h"
#include "tests/daemon/game_fixture.h"
#include "tests/daemon/intake_harness.h"

namespace pbem::daemon::mail {
namespace {

using testing::At;
using testing::BlueOrdersText;
using testing_intake::AttachmentMail;
using testing_intake::FakeMailbox;
using testing_intake::Harness;
using testing_intake::Headers;
using testing_intake::TextMail;

TEST_CASE("mails that overflowed the regular expression's stack are answered",
          "[daemon][intake][safety]") {
  Harness h;
  std::string quotes;
  for (int i = 0; i < 20000; ++i) quotes += "\"game_id\": \"";
  const std::vector<std::string> bodies = {
      "game_id" + std::string(30000, ' '),            // the mail of the report
      "game_id" + std::string(1000000, ' '),          // 1 MB of blanks (under the size limit)
      "game_id:" + std::string(1000000, '\t') + "x",  // after the colon
      quotes,                                         // nested quotes
  };
  int n = 0;
  for (const std::string& body : bodies) {
    INFO("body " << n);
    REQUIRE(h.Handle(TextMail("alice@test.local", "big" + std::to_string(n++) + "@x", body)) ==
            Disposition::kAnswered);
  }
  const auto outbox = h.Outbox();
  REQUIRE(outbox.size() == bodies.size());
  for (const auto& reply : outbox) {
    CHECK(reply.recipient == "alice@test.local");
    CHECK_THAT(reply.body, Catch::Contains("Error: malformed"));
  }
}

TEST_CASE("game id hints are few whatever the mail holds", "[daemon][intake][safety]") {
  InboundMail mail;
  std::string many;
  for (int i = 0; i < 5000; ++i) many += "game_id: \"g" + std::to_string(i) + "\"\n";
  for (int i = 0; i < 32; ++i) mail.candidates.push_back({"body", std::nullopt, many, false, ""});
  for (int i = 0; i < 100; ++i) mail.subject += "w" + std::to_string(i) + " ";
  const std::vector<std::string> hints = GameIdHints(mail);
  REQUIRE(hints.size() == kMaxBodyHints + kMaxSubjectHints);
  CHECK(hints.front() == "g0");
  CHECK(hints[kMaxBodyHints - 1] == "g7");
  CHECK(hints.back() == "w19");
}

TEST_CASE("a mail whose processing fails twice goes to quarantine; the sender is told",
          "[daemon][intake][safety]") {
  Harness h;
  h.UseTemplates();
  h.fixture.AddGame("partie", {{"blue", "jean@test.local", "tok-jean", "fr"},
                               {"orange", "marie@test.local", "tok-marie", "fr"}});
  int hook_calls = 0;
  h.intake.UseCommandHook([&hook_calls](const InboundMail& mail, storage::Timestamp) {
    if (mail.subject.find("poison") != std::string::npos) {
      ++hook_calls;
      throw std::runtime_error("a bug reading this mail");
    }
    return std::optional<Disposition>();
  });
  FakeMailbox mailbox;
  const std::uint32_t poison =
      mailbox.Add(TextMail("jean@test.local", "poison@x", "hello", "[pbem partie] poison"));
  mailbox.Add(TextMail("alice@test.local", "good@x", BlueOrdersText()));

  auto first = h.intake.PollOnce(mailbox, At(100));
  REQUIRE(first.ok());
  CHECK(first->answered == 1);  // the other mail is not held up
  CHECK(first->kept == 1);
  auto second = h.intake.PollOnce(mailbox, At(200));
  REQUIRE(second.ok());
  CHECK(second->kept == 1);
  CHECK(hook_calls == 2);
  CHECK(mailbox.messages.count(poison) == 1);

  auto third = h.intake.PollOnce(mailbox, At(300));
  REQUIRE(third.ok());
  CHECK(third->quarantined == 1);
  CHECK(hook_calls == 2);  // not processed a third time
  CHECK(mailbox.messages.empty());
  REQUIRE(mailbox.folders["Quarantine"].size() == 1);
  CHECK_THAT(mailbox.folders["Quarantine"][0], Catch::Contains("Message-ID: <poison@x>"));
  CHECK_THAT(h.fixture.metrics.RenderPrometheus(),
             Catch::Contains("pbemd_mail_quarantined_total 1"));
  const auto outbox = h.Outbox();
  REQUIRE(outbox.size() == 2);
  CHECK(outbox[1].recipient == "jean@test.local");
  CHECK_THAT(outbox[1].body, Catch::StartsWith("Bonjour,\n"));
  CHECK_THAT(outbox[1].body, Catch::Contains("a échoué deux fois"));
  CHECK_THAT(outbox[1].body, Catch::Contains("serveur\u00a0;"));  // French spacing
  CHECK_THAT(outbox[1].body, Catch::Contains("quarantined"));
}

TEST_CASE("a mail the store keeps failing on is quarantined, unless the database is down",
          "[daemon][intake][safety]") {
  Harness h;
  // The store failing on this mail only (the hook's kRetryLater: "the store failed").
  int tries = 0;
  h.intake.UseCommandHook([&tries](const InboundMail& mail, storage::Timestamp) {
    if (mail.subject.find("stuck") == std::string::npos) return std::optional<Disposition>();
    ++tries;
    return std::optional<Disposition>(Disposition::kRetryLater);
  });
  FakeMailbox mailbox;
  mailbox.Add(TextMail("alice@test.local", "stuck@x", "hello", "stuck"));

  // While the database is down, the mail waits, however many polls it takes.
  h.fixture.metrics.DatabaseDown("test: the store cannot be reached");
  for (int poll = 1; poll <= 4; ++poll) {
    auto stats = h.intake.PollOnce(mailbox, At(100 * poll));
    REQUIRE(stats.ok());
    CHECK(stats->kept == 1);
  }
  CHECK(tries == 4);
  CHECK(mailbox.folders["Quarantine"].empty());

  // The database is up and the store still fails on it: two tries, then quarantine.
  h.fixture.metrics.DatabaseUp();
  for (int poll = 5; poll <= 6; ++poll) REQUIRE(h.intake.PollOnce(mailbox, At(100 * poll)).ok());
  CHECK(tries == 6);
  auto last = h.intake.PollOnce(mailbox, At(700));
  REQUIRE(last.ok());
  CHECK(last->quarantined == 1);
  CHECK(tries == 6);  // not tried a third time
  CHECK(mailbox.messages.empty());
  CHECK(mailbox.folders["Quarantine"].size() == 1);
}

TEST_CASE("attempts survive a restart: a mail that crashed pbemd twice is not processed again",
          "[daemon][intake][safety]") {
  const std::string mail =
      TextMail("stranger@elsewhere.test", "crash@x", "anything", "crashes pbemd");
  Harness h;
  // Two earlier runs began this mail and died in it: their records are on disk.
  {
    AttemptLog earlier(h.config.data_dir / "mail-attempts");
    REQUIRE(earlier.Record(AttemptLog::KeyOf(mail), 2).ok());
  }
  bool processed = false;
  h.intake.UseCommandHook([&processed](const InboundMail&, storage::Timestamp) {
    processed = true;
    return std::optional<Disposition>();
  });
  FakeMailbox mailbox;
  mailbox.Add(mail);
  SECTION("moved, and the sender (a stranger: English) told") {
    auto stats = h.intake.PollOnce(mailbox, At(100));
    REQUIRE(stats.ok());
    CHECK(stats->quarantined == 1);
    CHECK_FALSE(processed);
    CHECK(mailbox.folders["Quarantine"].size() == 1);
    const auto outbox = h.Outbox();
    REQUIRE(outbox.size() == 1);
    CHECK(outbox[0].recipient == "stranger@elsewhere.test");
    CHECK_THAT(outbox[0].body, Catch::Contains("failed twice"));
    // Forgotten once moved.
    CHECK(AttemptLog(h.config.data_dir / "mail-attempts").Count(AttemptLog::KeyOf(mail)) == 0);
  }
  SECTION("a failed move keeps the mail, and the sender is told once") {
    mailbox.move_fails = true;
    REQUIRE(h.intake.PollOnce(mailbox, At(100)).ok());
    REQUIRE(h.intake.PollOnce(mailbox, At(200)).ok());
    CHECK(mailbox.messages.size() == 1);
    mailbox.move_fails = false;
    auto stats = h.intake.PollOnce(mailbox, At(300));
    REQUIRE(stats.ok());
    CHECK(stats->quarantined == 1);
    CHECK_FALSE(processed);
    CHECK(h.Outbox().size() == 1);
  }
}

TEST_CASE("a mail processed normally leaves no attempt behind", "[daemon][intake][safety]") {
  Harness h;
  FakeMailbox mailbox;
  const std::string mail = TextMail("alice@test.local", "ok@x", BlueOrdersText());
  mailbox.Add(mail);
  REQUIRE(h.intake.PollOnce(mailbox, At(100)).ok());
  CHECK(AttemptLog(h.config.data_dir / "mail-attempts").Count(AttemptLog::KeyOf(mail)) == 0);
}

TEST_CASE("text orders typed application/octet-stream are read by name and content",
          "[daemon][intake][safety]") {
  Harness h;
  auto parsed = codec::ParseOrders(BlueOrdersText(), codec::Format::kText, "orders");
  REQUIRE(parsed.ok());
  const std::string json = codec::SerializeMessage(parsed.value(), codec::Format::kJson);
  const std::string binary = codec::SerializeMessage(parsed.value(), codec::Format::kBinary);
  const auto octet = [&](const std::string& id, const std::string& name, const std::string& bytes) {
    return h.Handle(
        AttachmentMail("alice@test.local", id, name, "application/octet-stream", bytes));
  };
  CHECK(octet("t1@x", "orders.textproto", BlueOrdersText()) == Disposition::kAnswered);
  CHECK(octet("t2@x", "orders.txt", BlueOrdersText() + "\n# second\n") == Disposition::kAnswered);
  CHECK(octet("t3@x", "orders.json", json) == Disposition::kAnswered);
  CHECK(octet("t4@x", "orders", BlueOrdersText() + "\n# third\n") == Disposition::kAnswered);
  CHECK(octet("t5@x", "orders.bin", binary) == Disposition::kAnswered);
  const auto outbox = h.Outbox();
  REQUIRE(outbox.size() == 5);
  for (const auto& reply : outbox) {
    CHECK_THAT(reply.body, Catch::Contains("move 1 (b-i2): ok") ||
                               Catch::Contains("sent these orders already"));
  }
  const auto submissions = h.Submissions();
  REQUIRE(submissions.size() == 5);  // each a revision: other bytes
  for (const auto& submission : submissions) CHECK(submission.accepted);
}

std::string Latin1Body(const std::string& charset, const std::string& comment_bytes) {
  return Headers("alice@test.local", charset + "@x") + "Content-Type: text/plain; charset=\"" +
         charset + "\"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n# " + comment_bytes + "\n" +
         BlueOrdersText();
}

TEST_CASE("bodies in a declared charset are read as UTF-8; an unknown one is named",
          "[daemon][intake][safety]") {
  Harness h;
  // "Ordres de la brigade: à l'aube, été" in Latin-1 and in windows-1252 (with a euro sign).
  CHECK(h.Handle(Latin1Body("iso-8859-1", "Ordres \xe0 l'aube, \xe9t\xe9")) ==
        Disposition::kAnswered);
  CHECK(h.Handle(Latin1Body("ISO-8859-15", "co\xfbt \xa4 5")) == Disposition::kAnswered);
  CHECK(h.Handle(Latin1Body("windows-1252", "co\xfbt \x80 5 \x93guillemets\x94")) ==
        Disposition::kAnswered);
  CHECK(h.Handle(Latin1Body("x-klingon", "\xe9")) == Disposition::kAnswered);
  CHECK(h.Handle(Latin1Body("utf-8//TRANSLIT", "\xe9")) == Disposition::kAnswered);
  const auto outbox = h.Outbox();
  REQUIRE(outbox.size() == 5);
  for (int i = 0; i < 3; ++i) CHECK_THAT(outbox[i].body, Catch::Contains("move 1 (b-i2): ok"));
  CHECK_THAT(outbox[3].body, Catch::Contains("Error: malformed"));
  CHECK_THAT(outbox[3].body, Catch::Contains("the charset \"x-klingon\" is not one pbemd knows"));
  CHECK_THAT(outbox[4].body, Catch::Contains("the charset \"utf-8//TRANSLIT\" is not one"));
  const auto submissions = h.Submissions();
  REQUIRE(submissions.size() == 5);
  for (int i = 0; i < 3; ++i) CHECK(submissions[i].accepted);
  CHECK_FALSE(submissions[3].accepted);
}

TEST_CASE("a mail with too many header fields is answered, not dropped",
          "[daemon][intake][safety]") {
  Harness h;
  std::string mail = Headers("alice@test.local", "flood@x");
  for (int i = 0; i < 300; ++i) mail += "X-Relay-" + std::to_string(i) + ": hop\r\n";
  mail += "Content-Type: text/plain\r\n\r\n" + BlueOrdersText();
  REQUIRE(h.Handle(mail) == Disposition::kAnswered);
  const auto outbox = h.Outbox();
  REQUIRE(outbox.size() == 1);
  CHECK(outbox[0].recipient == "alice@test.local");
  CHECK_THAT(outbox[0].body, Catch::Contains("Error: malformed"));
  CHECK_THAT(outbox[0].body, Catch::Contains("the mail has 306 header fields, more than the 200"));
  CHECK(h.Submissions().size() == 1);
  CHECK_FALSE(h.Submissions()[0].accepted);
  // A header line longer than Poco's 8 KiB limit no longer loses the sender either.
  REQUIRE(h.Handle(Headers("alice@test.local", "long@x") + "X-Long: " + std::string(20000, 'x') +
                   "\r\n\r\n" + BlueOrdersText()) == Disposition::kAnswered);
  CHECK(h.Outbox().size() == 2);
}

TEST_CASE("a malformed multipart is answered when an earlier part names the game",
          "[daemon][intake][safety]") {
  Harness h;
  // The second part has more header fields than Poco's part reader takes (100); the subject
  // does not name the game: only the first part's game_id tells who alice plays for.
  std::string mail = Headers("alice@test.local", "parts@x", "my orders") +
                     "Content-Type: multipart/mixed; boundary=\"B1\"\r\n\r\n"
                     "--B1\r\nContent-Type: text/plain\r\n\r\n" +
                     BlueOrdersText() + "\r\n--B1\r\n";
  for (int i = 0; i < 150; ++i) mail += "X-Part-" + std::to_string(i) + ": x\r\n";
  mail += "Content-Type: text/plain\r\n\r\nmore\r\n--B1--\r\n";
  REQUIRE(h.Handle(mail) == Disposition::kAnswered);
  const auto outbox = h.Outbox();
  REQUIRE(outbox.size() == 1);
  CHECK(outbox[0].recipient == "alice@test.local");
  CHECK_THAT(outbox[0].body, Catch::Contains("Error: malformed"));
  CHECK_THAT(outbox[0].body, Catch::Contains("the MIME structure does not parse"));
  REQUIRE(h.Submissions().size() == 1);
  CHECK_FALSE(h.Submissions()[0].accepted);  // refused: never read as orders
}

TEST_CASE("nothing from an inbound header reaches a reply header unchecked",
          "[daemon][intake][safety]") {
  CHECK(BareAddress("a@b.test\r\nBcc: x@y.test").empty());
  CHECK(BareAddress("<a@b.test\r\nBcc: x@y.test>").empty());
  CHECK(BareAddress("a@b.test,c@d.test").empty());
  // The one address rule (daemon/validate.h): RFC 5322 quoted local parts and dot-atom
  // domains are addresses; none can end a header line.
  CHECK(BareAddress("\"quoted local\"@b.test") == "\"quoted local\"@b.test");
  CHECK(BareAddress("a..b@c.test").empty());
  CHECK(BareAddress("a@-c.test") == "a@-c.test");
  CHECK(BareAddress(std::string("a@c.test\0x", 10)).empty());
  CHECK(BareAddress("@c.test").empty());
  CHECK(BareAddress("a@").empty());
  CHECK(BareAddress(std::string(65, 'a') + "@c.test").empty());
  CHECK(BareAddress("Bob O'Neil <bob.o'neil+pbem@mail.test>") == "bob.o'neil+pbem@mail.test");
  CHECK(BareAddress("x <a@localhost>") == "a@localhost");

  Harness h;
  // An encoded subject that decodes to CR LF: the reply's subject stays one line.
  REQUIRE(h.Handle(TextMail("alice@test.local", "inj@x", BlueOrdersText(),
                            "=?utf-8?q?orders=0D=0ABcc:_victim@else.test?=")) ==
          Disposition::kAnswered);
  const auto outbox = h.Outbox();
  REQUIRE(outbox.size() == 1);
  CHECK(outbox[0].subject.find_first_of("\r\n") == std::string::npos);
  CHECK_THAT(outbox[0].subject, Catch::Contains("orders  Bcc: victim@else.test"));
}

TEST_CASE("the mailer sends to plain addresses only, with one-line subjects",
          "[daemon][intake][safety]") {
  storage::OutboxMail mail;
  mail.id = 7;
  mail.recipient = "alice@test.local\r\nBcc: victim@else.test";
  mail.subject = "Results";
  mail.body = "body";
  Result<OutgoingMessage> refused = BuildMimeMessage(mail, "pbem@game.test");
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.status().message(),
             Catch::Contains("the recipient may not hold a line break"));
  mail.recipient = "alice@test.local";
  mail.subject = "Results\r\nBcc: victim@else.test";
  Result<OutgoingMessage> built = BuildMimeMessage(mail, "pbem@game.test");
  REQUIRE(built.ok());
  CHECK(built->data.find("\nBcc:") == std::string::npos);
  CHECK_THAT(built->data, Catch::Contains("Subject: Results Bcc: victim@else.test"));
}

}  // namespace
}  // namespace pbem::daemon::mail
