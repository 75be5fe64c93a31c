// Mail out: MIME building, the file transport, and the outbox sender's retries with backoff,
// against a real SQLite store and a fake transport that can be switched off.
#include <Poco/Net/MailMessage.h>
#include <Poco/Net/PartHandler.h>
#include <Poco/StreamCopier.h>
#include <curl/curl.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "daemon/mail/mailer.h"
#include "daemon/mail/outbox_sender.h"
#include "daemon/metrics.h"
#include "storage/sqlite_repository.h"
#include "tests/daemon/test_support.h"

namespace pbem::daemon::mail {
namespace {

using testing::At;

class FakeMailer final : public Mailer {
 public:
  Status Send(const OutgoingMessage& message) override {
    ++tries[message.to];
    if (down) return Status::IoError("connection refused");
    if (message.to == refused) {
      return Status::InvalidArgument("refused for good: RCPT failed: 550 (SMTP 550)");
    }
    if (message.to == busy) return Status::IoError("RCPT failed: 450 (SMTP 450)");
    sent.push_back(message);
    return Status::Ok();
  }
  bool down = false;
  std::string refused;  // answered as refused for good
  std::string busy;     // answered "try later", always
  std::map<std::string, int> tries;
  std::vector<OutgoingMessage> sent;
};

struct Part {
  std::string content_type;
  std::string disposition;
  std::string content_id;
  std::string body;
};

class CollectParts final : public Poco::Net::PartHandler {
 public:
  void handlePart(const Poco::Net::MessageHeader& header, std::istream& stream) override {
    Part part;
    part.content_type = header.get("Content-Type", "");
    part.disposition = header.get("Content-Disposition", "");
    part.content_id = header.get("Content-ID", "");
    Poco::StreamCopier::copyToString(stream, part.body);
    parts.push_back(part);
  }
  std::vector<Part> parts;
};

storage::NewMail Mail(std::string to, storage::Timestamp when) {
  storage::NewMail mail;
  mail.recipient = std::move(to);
  mail.subject = "pbem demo: turn 3";
  mail.body = "Your orders were received.\n";
  mail.next_try = when;
  return mail;
}

TEST_CASE("a plain outbox mail becomes one text/plain message", "[daemon][mail]") {
  storage::OutboxMail mail;
  mail.id = 7;
  mail.recipient = "alice@test.local";
  mail.subject = "Tour 2 \xc3\xa0 jouer";  // non-ASCII: RFC 2047 encoded
  mail.body = "Bonjour\n";
  Result<OutgoingMessage> built = BuildMimeMessage(mail, "pbem@game.test");
  REQUIRE(built.ok());
  CHECK(built->name == "outbox-7");
  CHECK(built->to == "alice@test.local");
  CHECK_THAT(built->data, Catch::Contains("Message-ID: <pbemd-outbox-7@game.test>"));
  // Only the word that needs it encoded (daemon/mail/header_words.h).
  CHECK_THAT(built->data, Catch::Contains("\r\nSubject: Tour 2 =?UTF-8?Q?=C3=A0?= jouer\r\n"));
  CHECK_THAT(built->data, Catch::Contains("Content-Type: text/plain; charset=UTF-8"));

  std::istringstream in(built->data);
  Poco::Net::MailMessage parsed;
  parsed.read(in);
  CHECK(parsed.getSender() == "pbem@game.test");
  CHECK_THAT(parsed.getContent(), Catch::StartsWith("Bonjour"));
}

TEST_CASE("html alternative, inline image and attachment are laid out as MIME parts",
          "[daemon][mail]") {
  storage::OutboxMail mail;
  mail.id = 9;
  mail.recipient = "bob@test.local";
  mail.subject = "results";
  mail.body = "text body";
  const std::string png("\x89PNG\r\n\x1a\n\x00\x01\x02", 11);
  mail.attachments = {{"", "text/html", "<p>html <img src=\"cid:map.png\"></p>"},
                      {"map.png", "image/png", png},
                      {"orders.bin", "application/octet-stream", std::string("\x00\xff", 2)}};
  Result<OutgoingMessage> built = BuildMimeMessage(mail, "pbem@game.test");
  REQUIRE(built.ok());
  CHECK_THAT(built->data, Catch::Contains("multipart/related"));
  CHECK_THAT(built->data, Catch::Contains("multipart/alternative"));

  std::istringstream in(built->data);
  Poco::Net::MailMessage parsed;
  CollectParts handler;
  parsed.read(in, handler);
  REQUIRE(handler.parts.size() == 3);
  CHECK_THAT(handler.parts[0].content_type, Catch::StartsWith("multipart/alternative"));
  CHECK_THAT(handler.parts[0].body, Catch::Contains("text body"));
  CHECK_THAT(handler.parts[0].body, Catch::Contains("text/html"));
  CHECK(handler.parts[1].content_type.rfind("image/png", 0) == 0);
  CHECK(handler.parts[1].content_id == "<map.png>");
  CHECK_THAT(handler.parts[1].disposition, Catch::StartsWith("inline"));
  CHECK(handler.parts[1].body == png);  // base64 decoded by Poco
  CHECK_THAT(handler.parts[2].disposition, Catch::StartsWith("attachment"));
  CHECK(handler.parts[2].body == std::string("\x00\xff", 2));
}

TEST_CASE("an image the HTML does not show is an attachment, not an inline part",
          "[daemon][mail]") {
  // The results mail: the action crop shown at the top, the whole map to save.
  storage::OutboxMail mail;
  mail.id = 10;
  mail.recipient = "bob@test.local";
  mail.subject = "results";
  mail.body = "text body";
  const std::string crop("\x89PNG\r\n\x1a\n\x00\x01", 10);
  const std::string whole("\x89PNG\r\n\x1a\n\x00\x02", 10);
  mail.attachments = {{"", "text/html", "<p><img src=\"cid:g-turn-1-blue-action.png\"></p>"},
                      {"g-turn-1-blue-action.png", "image/png", crop},
                      {"g-turn-1-blue.png", "image/png", whole}};
  Result<OutgoingMessage> built = BuildMimeMessage(mail, "pbem@game.test");
  REQUIRE(built.ok());
  std::istringstream in(built->data);
  Poco::Net::MailMessage parsed;
  CollectParts handler;
  parsed.read(in, handler);
  REQUIRE(handler.parts.size() == 3);
  CHECK(handler.parts[1].content_id == "<g-turn-1-blue-action.png>");
  CHECK_THAT(handler.parts[1].disposition, Catch::StartsWith("inline"));
  CHECK(handler.parts[1].body == crop);
  CHECK_THAT(handler.parts[2].disposition, Catch::StartsWith("attachment"));
  CHECK_THAT(handler.parts[2].disposition, Catch::Contains("g-turn-1-blue.png"));
  CHECK(handler.parts[2].content_id.empty());
  CHECK(handler.parts[2].body == whole);
}

TEST_CASE("the file transport writes one complete .eml per mail", "[daemon][mail]") {
  testing::TempDir dir;
  FileMailer mailer(dir.path() / "outbox");
  REQUIRE(mailer.Send({"outbox-1", "a@x", "b@y", "Subject: hi\r\n\r\nbody\r\n"}).ok());
  std::ifstream in(dir.path() / "outbox" / "outbox-1.eml", std::ios::binary);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  CHECK(content == "Subject: hi\r\n\r\nbody\r\n");
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path() / "outbox"),
                      std::filesystem::directory_iterator()) == 1);
}

TEST_CASE("backoff doubles from the base and stops at the maximum", "[daemon][mail]") {
  using std::chrono::seconds;
  CHECK(NextAttempt(At(100), 1, seconds(30), seconds(300)) == At(130));
  CHECK(NextAttempt(At(100), 2, seconds(30), seconds(300)) == At(160));
  CHECK(NextAttempt(At(100), 3, seconds(30), seconds(300)) == At(220));
  CHECK(NextAttempt(At(100), 4, seconds(30), seconds(300)) == At(340));
  CHECK(NextAttempt(At(100), 5, seconds(30), seconds(300)) == At(400));
  CHECK(NextAttempt(At(100), 60, seconds(30), seconds(300)) == At(400));
}

TEST_CASE("nothing is lost while the mail server is down", "[daemon][mail]") {
  testing::TempDir dir;
  storage::SqliteRepository repository(dir.path());
  REQUIRE(repository.OpenOrMigrate().ok());
  REQUIRE(repository.EnqueueMail(Mail("alice@test.local", At(1000))).ok());
  REQUIRE(repository.EnqueueMail(Mail("bob@test.local", At(1000))).ok());
  REQUIRE(repository.EnqueueMail(Mail("carol@test.local", At(5000))).ok());  // not yet due

  FakeMailer mailer;
  mailer.down = true;
  MailOutConfig config;
  config.retry_base = std::chrono::seconds(30);
  config.retry_max = std::chrono::seconds(3600);
  Metrics metrics;
  auto logger = testing::NullLogger();
  OutboxSender sender(repository, mailer, "pbem@game.test", "pbemd-test", config, metrics, *logger);

  Result<OutboxPass> first = sender.RunOnce(At(1000));
  REQUIRE(first.ok());
  CHECK(first->sent == 0);
  CHECK(first->failed == 2);
  Result<storage::OutboxMail> alice = repository.GetMail(1);
  REQUIRE(alice.ok());
  CHECK(alice->attempts == 1);
  CHECK(alice->next_try == At(1030));
  CHECK_THAT(alice->last_error, Catch::Contains("connection refused"));
  CHECK_FALSE(alice->sent_at.has_value());

  // Still down at the retry: the delay doubles.
  Result<OutboxPass> second = sender.RunOnce(At(1030));
  REQUIRE(second.ok());
  CHECK(second->failed == 2);
  CHECK(repository.GetMail(1)->next_try == At(1090));

  // Not due yet: nothing is tried.
  mailer.down = false;
  Result<OutboxPass> early = sender.RunOnce(At(1089));
  REQUIRE(early.ok());
  CHECK(early->sent == 0);
  CHECK(early->failed == 0);

  // Back up: both are sent, exactly once.
  Result<OutboxPass> third = sender.RunOnce(At(1090));
  REQUIRE(third.ok());
  CHECK(third->sent == 2);
  REQUIRE(mailer.sent.size() == 2);
  CHECK(mailer.sent[0].to == "alice@test.local");
  CHECK(mailer.sent[1].to == "bob@test.local");
  CHECK(repository.GetMail(1)->sent_at == At(1090));
  Result<OutboxPass> again = sender.RunOnce(At(2000));
  REQUIRE(again.ok());
  CHECK(again->sent == 0);
  CHECK(mailer.sent.size() == 2);

  Result<OutboxPass> carol = sender.RunOnce(At(5000));
  REQUIRE(carol.ok());
  CHECK(carol->sent == 1);
  CHECK(metrics.mails_sent() == 3);
  CHECK(metrics.mails_failed() == 4);
  CHECK_THAT(metrics.RenderPrometheus(), Catch::Contains("pbemd_mails_sent_total 3\n"));
  CHECK_THAT(metrics.RenderPrometheus(), Catch::Contains("pbemd_mails_failed_total 4\n"));
}

TEST_CASE("a recipient refused for good is dead-lettered at once; the others go out",
          "[daemon][mail]") {
  testing::TempDir dir;
  storage::SqliteRepository repository(dir.path());
  REQUIRE(repository.OpenOrMigrate().ok());
  REQUIRE(repository.EnqueueMail(Mail("alice@test.local", At(1000))).ok());
  REQUIRE(repository.EnqueueMail(Mail("nobody@test.local", At(1000))).ok());
  REQUIRE(repository.EnqueueMail(Mail("bob@test.local", At(1000))).ok());
  FakeMailer mailer;
  mailer.refused = "nobody@test.local";
  MailOutConfig config;
  Metrics metrics;
  auto logger = testing::NullLogger();
  OutboxSender sender(repository, mailer, "pbem@game.test", "pbemd-test", config, metrics, *logger);

  Result<OutboxPass> pass = sender.RunOnce(At(1000));
  REQUIRE(pass.ok());
  CHECK(pass->sent == 2);
  CHECK(pass->dead == 1);
  Result<storage::OutboxMail> dead = repository.GetMail(2);
  REQUIRE(dead.ok());
  CHECK(dead->failed_at == At(1000));
  CHECK(dead->attempts == 1);
  CHECK_THAT(dead->last_error, Catch::Contains("550"));
  // Never tried again, however long pbemd runs; kept for the operator.
  for (int hour = 1; hour <= 48; ++hour) REQUIRE(sender.RunOnce(At(1000 + hour * 3600)).ok());
  CHECK(mailer.tries["nobody@test.local"] == 1);
  REQUIRE(repository.DeadMail(10)->size() == 1);
  CHECK(metrics.mails_dead_lettered() == 1);
  CHECK_THAT(metrics.RenderPrometheus(), Catch::Contains("pbemd_mails_dead_lettered_total 1\n"));

  // Requeued by the operator (pbem outbox requeue), once the address is fixed: sent.
  mailer.refused.clear();
  REQUIRE(repository.RequeueMail(2, At(200'000'000)).ok());
  Result<OutboxPass> after = sender.RunOnce(At(200'000'000));
  REQUIRE(after.ok());
  CHECK(after->sent == 1);
  CHECK(repository.GetMail(2)->sent_at == At(200'000'000));
}

TEST_CASE("a mail that keeps failing is retried with backoff, then dead-lettered",
          "[daemon][mail]") {
  testing::TempDir dir;
  storage::SqliteRepository repository(dir.path());
  REQUIRE(repository.OpenOrMigrate().ok());
  REQUIRE(repository.EnqueueMail(Mail("busy@test.local", At(1000))).ok());
  REQUIRE(repository.EnqueueMail(Mail("alice@test.local", At(1000))).ok());
  FakeMailer mailer;
  mailer.busy = "busy@test.local";
  MailOutConfig config;
  config.retry_base = std::chrono::seconds(1);
  config.retry_max = std::chrono::seconds(4);
  config.max_attempts = 4;
  Metrics metrics;
  auto logger = testing::NullLogger();
  OutboxSender sender(repository, mailer, "pbem@game.test", "pbemd-test", config, metrics, *logger);

  // Attempts at 0, +1 s, +2 s, +4 s: the fourth dead-letters it.
  const std::int64_t kTries[] = {1000, 1001, 1003, 1007};
  for (std::size_t i = 0; i < 4; ++i) {
    INFO("attempt " << i + 1);
    CHECK(sender.RunOnce(At(kTries[i] - 1))->failed == 0);  // not due yet: not tried
    Result<OutboxPass> pass = sender.RunOnce(At(kTries[i]));
    REQUIRE(pass.ok());
    CHECK(pass->failed == 1);
    CHECK(pass->dead == (i == 3 ? 1 : 0));
  }
  Result<storage::OutboxMail> dead = repository.GetMail(1);
  REQUIRE(dead.ok());
  CHECK(dead->attempts == 4);
  CHECK(dead->failed_at == At(1007));
  for (int hour = 1; hour <= 48; ++hour) REQUIRE(sender.RunOnce(At(1007 + hour * 3600)).ok());
  CHECK(mailer.tries["busy@test.local"] == 4);
  CHECK(mailer.tries["alice@test.local"] == 1);
  CHECK(metrics.mails_dead_lettered() == 1);
  CHECK(metrics.mails_failed() == 4);
}

TEST_CASE("sent mails past keep_sent are pruned by the outbox pass, hourly, and counted",
          "[daemon][mail]") {
  testing::TempDir dir;
  storage::SqliteRepository repository(dir.path());
  REQUIRE(repository.OpenOrMigrate().ok());
  constexpr std::int64_t kDay = 24 * 3600;
  // 203 results mails sent on day 0 (more than two batches of 100), one refused for good, one
  // never sent (the relay answers "try later"), one sent on day 10.
  for (int i = 0; i < 203; ++i) {
    REQUIRE(repository.EnqueueMail(Mail("p" + std::to_string(i) + "@test.local", At(0))).ok());
  }
  REQUIRE(repository.EnqueueMail(Mail("nobody@test.local", At(0))).ok());
  REQUIRE(repository.EnqueueMail(Mail("busy@test.local", At(0))).ok());
  FakeMailer mailer;
  mailer.refused = "nobody@test.local";
  mailer.busy = "busy@test.local";
  MailOutConfig config;
  config.max_attempts = 1'000'000;
  Metrics metrics;
  auto logger = testing::NullLogger();
  OutboxSender sender(repository, mailer, "pbem@game.test", "pbemd-test", config, metrics, *logger);
  CHECK(config.keep_sent == std::chrono::days(30));  // the default
  while (sender.RunOnce(At(0), 500)->sent > 0) {
  }
  REQUIRE(repository.EnqueueMail(Mail("late@test.local", At(10 * kDay))).ok());
  REQUIRE(sender.RunOnce(At(10 * kDay))->sent == 1);

  // Half an hour before day 30: nothing is 30 days old.
  const std::int64_t first_pass = 30 * kDay - 1800;
  Result<int> early = sender.Prune(At(first_pass));
  REQUIRE(early.ok());
  CHECK(*early == 0);
  // Day 30 and a second: the 203 are due to go, but the pass prunes once an hour.
  CHECK(*sender.Prune(At(30 * kDay + 1)) == 0);
  CHECK(repository.GetMail(1).ok());
  // An hour after the last: two batches of 100 (at most two a pass, here), and since there
  // may be more, the next pass goes on at once with the rest.
  const std::int64_t hour = std::chrono::seconds(OutboxSender::kPruneInterval).count();
  Result<int> pruned = sender.Prune(At(first_pass + hour), 100, 2);
  REQUIRE(pruned.ok());
  CHECK(*pruned == 200);
  CHECK(repository.GetMail(1).status().code() == StatusCode::kNotFound);
  CHECK(repository.GetMail(201).ok());
  CHECK(*sender.Prune(At(first_pass + hour + 1), 100, 2) == 3);
  CHECK(repository.GetMail(203).status().code() == StatusCode::kNotFound);
  CHECK(*sender.Prune(At(first_pass + hour + 2), 100, 2) == 0);  // done: an hour to wait
  CHECK(metrics.outbox_pruned() == 203);
  CHECK_THAT(metrics.RenderPrometheus(), Catch::Contains("pbemd_outbox_pruned_total 203\n"));
  // The dead letter and the mail still being tried stay; so does the late one.
  CHECK(repository.DeadMail(10)->size() == 1);
  Result<std::vector<storage::OutboxMail>> pending = repository.DueMail(At(100 * kDay), 10);
  REQUIRE(pending.ok());
  REQUIRE(pending->size() == 1);
  CHECK(pending->front().recipient == "busy@test.local");
  const std::int64_t late = 206;
  CHECK(repository.GetMail(late)->recipient == "late@test.local");

  // Day 40 and a second: the late mail goes too (the pass prunes with its own batch sizes).
  REQUIRE(repository.EnqueueMail(Mail("newest@test.local", At(39 * kDay))).ok());
  REQUIRE(sender.RunOnce(At(39 * kDay))->sent == 1);
  CHECK(*sender.Prune(At(40 * kDay + 1)) == 1);
  CHECK(repository.GetMail(late).status().code() == StatusCode::kNotFound);
  CHECK(metrics.outbox_pruned() == 204);
  CHECK(repository.DeadMail(10)->size() == 1);
}

TEST_CASE("keep_sent 0 keeps every sent mail", "[daemon][mail]") {
  testing::TempDir dir;
  storage::SqliteRepository repository(dir.path());
  REQUIRE(repository.OpenOrMigrate().ok());
  for (int i = 0; i < 3; ++i) REQUIRE(repository.EnqueueMail(Mail("a@test.local", At(0))).ok());
  FakeMailer mailer;
  MailOutConfig config;
  config.keep_sent = std::chrono::days(0);
  Metrics metrics;
  auto logger = testing::NullLogger();
  OutboxSender sender(repository, mailer, "pbem@game.test", "pbemd-test", config, metrics, *logger);
  REQUIRE(sender.RunOnce(At(0))->sent == 3);
  CHECK(*sender.Prune(At(10'000 * 24 * 3600)) == 0);
  CHECK(repository.GetMail(1)->sent_at == At(0));
  CHECK(metrics.outbox_pruned() == 0);
}

TEST_CASE("only a 5xx to RCPT TO or to the data is a refusal for good", "[daemon][mail]") {
  CHECK(SmtpRefusedForGood(CURLE_SEND_ERROR, 550, "RCPT failed: 550 (SMTP 550)"));
  CHECK(SmtpRefusedForGood(CURLE_SEND_ERROR, 554, "DATA failed: 554"));
  CHECK(SmtpRefusedForGood(CURLE_RECV_ERROR, 552, "Failure when receiving data from the peer"));
  CHECK_FALSE(SmtpRefusedForGood(CURLE_SEND_ERROR, 450, "RCPT failed: 450"));
  CHECK_FALSE(SmtpRefusedForGood(CURLE_SEND_ERROR, 553, "MAIL failed: 553"));
  CHECK_FALSE(SmtpRefusedForGood(CURLE_LOGIN_DENIED, 535, "Login denied"));
  CHECK_FALSE(SmtpRefusedForGood(CURLE_COULDNT_CONNECT, 0, "Couldn't connect to server"));
  CHECK_FALSE(SmtpRefusedForGood(CURLE_SEND_ERROR, 250, "Send failure: Broken pipe"));
}

TEST_CASE("two instances: each mail sent once; a dead instance's claim is taken over later",
          "[daemon][mail]") {
  testing::TempDir dir;
  storage::SqliteRepository repository_a(dir.path()), repository_b(dir.path());
  REQUIRE(repository_a.OpenOrMigrate().ok());
  REQUIRE(repository_b.OpenOrMigrate().ok());
  for (const char* to : {"a@test.local", "b@test.local", "c@test.local", "d@test.local"}) {
    REQUIRE(repository_a.EnqueueMail(Mail(to, At(1000))).ok());
  }
  MailOutConfig config;
  config.claim_lease = std::chrono::seconds(60);
  Metrics metrics;
  auto logger = testing::NullLogger();
  FakeMailer mailer_b;
  OutboxSender sender_b(repository_b, mailer_b, "pbem@game.test", "pbemd-b", config, metrics,
                        *logger);
  // Instance a claims two mails, then dies before sending them (no MarkMailSent).
  Result<std::vector<storage::OutboxMail>> claimed_by_a =
      repository_a.ClaimDueMail(At(1000), 2, "pbemd-a", std::chrono::seconds(60));
  REQUIRE(claimed_by_a.ok());
  REQUIRE(claimed_by_a->size() == 2);

  // b sends the two others only, while a's claim runs.
  Result<OutboxPass> first = sender_b.RunOnce(At(1000));
  REQUIRE(first.ok());
  CHECK(first->sent == 2);
  Result<OutboxPass> during = sender_b.RunOnce(At(1059));
  REQUIRE(during.ok());
  CHECK(during->sent == 0);
  // a's claim runs out 60 s after it was made: b sends a's two mails, each once.
  Result<OutboxPass> after = sender_b.RunOnce(At(1060));
  REQUIRE(after.ok());
  CHECK(after->sent == 2);
  REQUIRE(mailer_b.sent.size() == 4);
  std::vector<std::string> recipients;
  for (const auto& sent : mailer_b.sent) recipients.push_back(sent.to);
  std::sort(recipients.begin(), recipients.end());
  CHECK(recipients ==
        std::vector<std::string>{"a@test.local", "b@test.local", "c@test.local", "d@test.local"});
  for (const storage::OutboxMail& mail : *claimed_by_a) {
    Result<storage::OutboxMail> stored = repository_a.GetMail(mail.id);
    REQUIRE(stored.ok());
    CHECK(stored->sent_at == At(1060));
    CHECK(stored->claimed_by == "pbemd-b");
  }
  CHECK(sender_b.RunOnce(At(999999))->sent == 0);
}

}  // namespace
}  // namespace pbem::daemon::mail
