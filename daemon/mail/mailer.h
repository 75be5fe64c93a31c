// Mail out: turning an outbox mail into an RFC 5322 message (BuildMimeMessage) and handing it
// to a transport (Mailer): FileMailer writes .eml files into a directory (the embedded
// default: no mail server needed), SmtpMailer sends over SMTP with libcurl.
//
// How an outbox mail (storage::OutboxMail) maps to MIME, since the outbox stores one body and
// a list of attachments:
//   - body                                   -> the text/plain part
//   - an attachment with an EMPTY filename and content type text/html
//                                            -> the text/html alternative of the body
//   - an attachment whose content type is image/*
//                                            -> an inline part, Content-ID <filename>, so the
//                                               HTML can show it as <img src="cid:filename">
//   - any other attachment                   -> a regular attachment
// With no html and no attachment the message is a single text/plain part.
#ifndef PBEM_DAEMON_MAIL_MAILER_H_
#define PBEM_DAEMON_MAIL_MAILER_H_

#include <filesystem>
#include <string>

#include "daemon/config.h"
#include "storage/game_repository.h"
#include "storage/status.h"

namespace pbem::daemon::mail {

// A message ready for the wire.
struct OutgoingMessage {
  std::string name;  // unique and stable per outbox mail, e.g. "outbox-42" (file names, logs)
  std::string from;  // bare envelope sender
  std::string to;    // bare envelope recipient
  std::string data;  // the whole RFC 5322 message, CRLF line ends
};

// Builds the message for an outbox mail (see the mapping above). The Message-ID is
// <pbemd-outbox-ID@DOMAIN-OF-FROM>, stable across retries. Never throws.
Result<OutgoingMessage> BuildMimeMessage(const storage::OutboxMail& mail, const std::string& from);

class Mailer {
 public:
  virtual ~Mailer() = default;
  // Delivers one message; a non-OK status (with the transport's error) means "try later".
  virtual Status Send(const OutgoingMessage& message) = 0;
};

// Writes <dir>/<name>.eml (via a temporary file and a rename, so a reader never sees half a
// message). Creates the directory when missing.
class FileMailer final : public Mailer {
 public:
  explicit FileMailer(std::filesystem::path dir) : dir_(std::move(dir)) {}
  Status Send(const OutgoingMessage& message) override;

 private:
  std::filesystem::path dir_;
};

// SMTP with libcurl: smtp:// (plain, or upgraded with STARTTLS which is then required) or
// smtps:// (TLS from the start); AUTH when a user is configured. Connect timeout 10 s, whole
// transfer 60 s. One connection per message.
class SmtpMailer final : public Mailer {
 public:
  explicit SmtpMailer(MailOutConfig config) : config_(std::move(config)) {}
  Status Send(const OutgoingMessage& message) override;

 private:
  MailOutConfig config_;
};

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_MAILER_H_
