// Test support for the mail intake tests: a fake mailbox, mails as players write them, and a
// harness around a MailIntake over a real SQLite store with the bundled scenario.
#ifndef PBEM_TESTS_DAEMON_INTAKE_HARNESS_H_
#define PBEM_TESTS_DAEMON_INTAKE_HARNESS_H_

#include <Poco/Base64Encoder.h>

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/mail/intake.h"
#include "templates/mail_render.h"
#include "tests/daemon/game_fixture.h"

namespace pbem::daemon::mail::testing_intake {

using pbem::daemon::testing::At;

class FakeMailbox final : public Mailbox {
 public:
  std::uint32_t Add(std::string data) {
    messages[++next_uid] = std::move(data);
    return next_uid;
  }
  Result<std::vector<std::uint32_t>> ListUids() override {
    if (down) return Status::IoError("IMAP down");
    std::vector<std::uint32_t> uids;
    for (const auto& [uid, data] : messages) uids.push_back(uid);
    return uids;
  }
  Result<FetchedMessage> Fetch(std::uint32_t uid, std::size_t max_bytes) override {
    if (uid == unfetchable) return Status::IoError("fetch failed");
    FetchedMessage m;
    m.data = messages.at(uid).substr(0, max_bytes);
    m.truncated = messages.at(uid).size() > max_bytes;
    return m;
  }
  Status Delete(std::uint32_t uid) override {
    messages.erase(uid);
    return Status::Ok();
  }
  Status MoveTo(std::uint32_t uid, const std::string& folder) override {
    if (move_fails) return Status::IoError("COPY failed");
    folders[folder].push_back(messages.at(uid));
    return Delete(uid);
  }
  std::map<std::uint32_t, std::string> messages;
  std::map<std::string, std::vector<std::string>> folders;
  bool move_fails = false;
  std::uint32_t next_uid = 0;
  std::uint32_t unfetchable = 0;
  bool down = false;
};

inline std::string Base64(const std::string& bytes) {
  std::ostringstream out;
  Poco::Base64Encoder encoder(out);
  encoder << bytes;
  encoder.close();
  return out.str();
}

inline std::string Headers(const std::string& from, const std::string& message_id,
                           const std::string& subject = "[pbem demo] orders") {
  return "From: Player <" + from + ">\r\nTo: pbem@game.test\r\nSubject: " + subject +
         "\r\nMessage-ID: <" + message_id + ">\r\nMIME-Version: 1.0\r\n";
}

inline std::string TextMail(const std::string& from, const std::string& message_id,
                            const std::string& body,
                            const std::string& subject = "[pbem demo] orders") {
  return Headers(from, message_id, subject) + "Content-Type: text/plain; charset=utf-8\r\n\r\n" +
         body;
}

inline std::string AttachmentMail(const std::string& from, const std::string& message_id,
                                  const std::string& filename, const std::string& type,
                                  const std::string& bytes) {
  return Headers(from, message_id) +
         "Content-Type: multipart/mixed; boundary=\"B1\"\r\n\r\n"
         "--B1\r\nContent-Type: text/plain\r\n\r\nMy orders are attached.\r\n"
         "--B1\r\nContent-Type: " +
         type + "\r\nContent-Disposition: attachment; filename=\"" + filename +
         "\"\r\nContent-Transfer-Encoding: base64\r\n\r\n" + Base64(bytes) + "\r\n--B1--\r\n";
}

struct Harness {
  pbem::daemon::testing::GameFixture fixture;
  std::shared_ptr<spdlog::logger> logger = pbem::daemon::testing::NullLogger();
  DaemonConfig config = [this] {
    DaemonConfig c;
    c.mail_from = "pbem@game.test";
    c.data_dir = fixture.dir.path();  // the attempt log (mail-attempts/) goes there
    return c;
  }();
  int wakes = 0;
  MailIntake intake{fixture.repository, fixture.desk, fixture.metrics, *logger, config,
                    [this] { ++wakes; }};

  // Replies from the project's mail templates, as pbemd sends them.
  templates::MailTemplates mail_templates;
  void UseTemplates() {
    REQUIRE(templates::MailTemplates::Load(
                pbem::daemon::testing::SourceDir() / "templates" / "mail", &mail_templates)
                .ok);
    intake.UseTemplates(&mail_templates, &fixture.catalog);
  }

  // Handles one mail; returns the disposition.
  Disposition Handle(const std::string& data, storage::Timestamp now = At(100)) {
    FetchedMessage m;
    m.data = data.substr(0, config.limits.max_message_bytes);
    m.truncated = data.size() > config.limits.max_message_bytes;
    m.size_bytes = data.size();
    return intake.Handle(m, now);
  }
  std::vector<storage::OutboxMail> Outbox() {
    auto due = fixture.repository.DueMail(At(1000000), 1000);
    REQUIRE(due.ok());
    return *due;
  }
  std::vector<storage::Submission> Submissions(const std::string& game = "demo") {
    auto list = fixture.repository.ListSubmissions(game);
    REQUIRE(list.ok());
    return *list;
  }
};

}  // namespace pbem::daemon::mail::testing_intake

#endif  // PBEM_TESTS_DAEMON_INTAKE_HARNESS_H_
