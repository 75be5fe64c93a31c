// pbemd_send_mail URL TLS USER PASSWORD CA_FILE FROM TO SUBJECT
// Sends one mail with pbemd's own mailer (daemon/mail/mailer.h: BuildMimeMessage, then
// SmtpMailer over libcurl), configured exactly as pbemd configures it from pbemd.mail.out.* and
// pbemd.mail.ca_file, for tests/mail/mail_tls.sh. TLS is none, starttls or smtps; USER, PASSWORD
// and CA_FILE may be empty strings. Exit 0 when the server took the mail; else 1, with the
// mailer's error on stderr.
#include <iostream>
#include <string>

#include "daemon/config.h"
#include "daemon/mail/mailer.h"

int main(int argc, char** argv) {
  using namespace pbem::daemon;
  if (argc != 9) {
    std::cerr << "usage: pbemd_send_mail URL none|starttls|smtps USER PASSWORD CA_FILE FROM TO "
                 "SUBJECT\n";
    return 2;
  }
  MailOutConfig config;
  config.transport = MailTransport::kSmtp;
  config.smtp_url = argv[1];
  const std::string tls = argv[2];
  if (tls == "none") {
    config.tls = SmtpTls::kNone;
  } else if (tls == "starttls") {
    config.tls = SmtpTls::kStartTls;
  } else if (tls == "smtps") {
    config.tls = SmtpTls::kSmtps;
  } else {
    std::cerr << "bad TLS mode \"" << tls << "\": expected none, starttls or smtps\n";
    return 2;
  }
  config.user = argv[3];
  config.password = argv[4];
  config.ca_file = argv[5];

  pbem::storage::OutboxMail mail;
  mail.id = 1;
  mail.recipient = argv[7];
  mail.subject = argv[8];
  mail.body = "Sent by pbemd's SmtpMailer over " + tls + ".\n";
  auto message = mail::BuildMimeMessage(mail, argv[6]);
  if (!message.ok()) {
    std::cerr << message.status().ToString() << "\n";
    return 1;
  }
  mail::SmtpMailer mailer(config);
  if (pbem::Status sent = mailer.Send(*message); !sent.ok()) {
    std::cerr << sent.ToString() << "\n";
    return 1;
  }
  return 0;
}
