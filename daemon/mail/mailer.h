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
#include <string_view>

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
  // Delivers one message. A non-OK status carries the transport's error: INVALID_ARGUMENT
  // when the message is refused for good (the relay answered 5xx to its recipient or to its
  // data), so sending it again would fail the same way; any other code means "try later".
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
// transfer 60 s. One connection per message. A 5xx answer to RCPT TO or to the message's data
// is a refusal for good (INVALID_ARGUMENT, see SmtpRefusedForGood); anything else (no
// connection, TLS, AUTH, a 4xx, a 5xx to MAIL FROM: the sender address is the operator's to
// fix, and it would refuse every mail) is "try later".
// Whether a failed SMTP transfer was a refusal for good of this message: libcurl's result
// `curl_code`, the last SMTP reply code (CURLINFO_RESPONSE_CODE, 0 when none) and libcurl's
// error text ("RCPT failed: 550", "MAIL failed: 553", ...).
bool SmtpRefusedForGood(int curl_code, long smtp_code, std::string_view error);

class SmtpMailer final : public Mailer {
 public:
  explicit SmtpMailer(MailOutConfig config) : config_(std::move(config)) {}
  Status Send(const OutgoingMessage& message) override;

 private:
  MailOutConfig config_;
};

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_MAILER_H_
