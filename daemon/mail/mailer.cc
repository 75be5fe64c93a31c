#include "daemon/mail/mailer.h"

#include <Poco/Exception.h>
#include <Poco/Net/MailMessage.h>
#include <Poco/Net/MailRecipient.h>
#include <Poco/Net/StringPartSource.h>
#include <curl/curl.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <system_error>

#include "daemon/mail/header_words.h"
#include "daemon/validate.h"

namespace pbem::daemon::mail {
namespace {

using Poco::Net::MailMessage;
using Poco::Net::StringPartSource;

std::string DomainOf(const std::string& address) {
  const auto at = address.rfind('@');
  return at == std::string::npos ? std::string("localhost") : address.substr(at + 1);
}

}  // namespace

Result<OutgoingMessage> BuildMimeMessage(const storage::OutboxMail& mail, const std::string& from) {
  // Nothing that could end a header line reaches one: the addresses must be addr-specs
  // (refused otherwise), the subject and file names have their control characters replaced
  // by spaces (they quote text a player wrote).
  for (const auto& [what, address] :
       {std::pair{"recipient", &mail.recipient}, std::pair{"sender", &from}}) {
    if (std::optional<std::string> wrong = MailAddressProblem(*address)) {
      return Status::InvalidArgument("outbox mail " + std::to_string(mail.id) + ": the " + what +
                                     " " + *wrong);
    }
  }
  const std::string subject = HeaderSafe(mail.subject);
  try {
    MailMessage message;
    message.setSender(from);
    message.addRecipient(
        Poco::Net::MailRecipient(Poco::Net::MailRecipient::PRIMARY_RECIPIENT, mail.recipient));
    // Not MailMessage::encodeWord: header_words.h says why.
    message.setSubject(EncodeHeaderText(subject, std::string_view("Subject: ").size()));
    message.set("Message-ID",
                "<pbemd-outbox-" + std::to_string(mail.id) + "@" + DomainOf(from) + ">");
    message.set("Auto-Submitted", "auto-generated");

    const storage::Attachment* html = nullptr;
    std::vector<const storage::Attachment*> inline_images;
    std::vector<const storage::Attachment*> attachments;
    for (const storage::Attachment& a : mail.attachments) {
      if (a.filename.empty() && a.content_type.rfind("text/html", 0) == 0) html = &a;
    }
    // An image the HTML shows ("cid:" + its name) goes inline; every other part with a name
    // (the whole map, a file to edit) is an attachment the reader saves.
    for (const storage::Attachment& a : mail.attachments) {
      if (&a == html) continue;
      if (html != nullptr && a.content_type.rfind("image/", 0) == 0 && !a.filename.empty() &&
          html->data.find("cid:" + a.filename) != std::string::npos) {
        inline_images.push_back(&a);
      } else {
        attachments.push_back(&a);
      }
    }

    if (html == nullptr && inline_images.empty() && attachments.empty()) {
      message.setContentType("text/plain; charset=UTF-8");
      message.setContent(mail.body, MailMessage::ENCODING_QUOTED_PRINTABLE);
    } else {
      // multipart/related when the HTML refers to inline images, else multipart/mixed.
      if (!inline_images.empty()) {
        message.setContentType("multipart/related; type=\"multipart/alternative\"");
      }
      if (html != nullptr) {
        auto* alternative = new Poco::Net::MultipartSource("multipart/alternative");
        alternative->addPart("", new StringPartSource(mail.body, "text/plain; charset=UTF-8"),
                             MailMessage::CONTENT_INLINE, MailMessage::ENCODING_QUOTED_PRINTABLE);
        alternative->addPart("", new StringPartSource(html->data, "text/html; charset=UTF-8"),
                             MailMessage::CONTENT_INLINE, MailMessage::ENCODING_QUOTED_PRINTABLE);
        message.addContent(alternative, MailMessage::ENCODING_7BIT);
      } else {
        message.addContent(new StringPartSource(mail.body, "text/plain; charset=UTF-8"),
                           MailMessage::ENCODING_QUOTED_PRINTABLE);
      }
      for (const storage::Attachment* image : inline_images) {
        const std::string name = HeaderSafe(image->filename);
        auto* source = new StringPartSource(image->data, HeaderSafe(image->content_type), name);
        source->headers().set("Content-ID", "<" + name + ">");
        message.addPart(name, source, MailMessage::CONTENT_INLINE, MailMessage::ENCODING_BASE64);
      }
      for (const storage::Attachment* attachment : attachments) {
        const std::string type = attachment->content_type.empty()
                                     ? "application/octet-stream"
                                     : HeaderSafe(attachment->content_type);
        const std::string name =
            attachment->filename.empty() ? "attachment" : HeaderSafe(attachment->filename);
        message.addAttachment(name, new StringPartSource(attachment->data, type, name),
                              MailMessage::ENCODING_BASE64);
      }
    }
    std::ostringstream out;
    message.write(out);
    return OutgoingMessage{"outbox-" + std::to_string(mail.id), from, mail.recipient, out.str()};
  } catch (const Poco::Exception& e) {
    return Status::Internal("building the MIME message of outbox mail " + std::to_string(mail.id) +
                            ": " + e.displayText());
  }
}

Status FileMailer::Send(const OutgoingMessage& message) {
  std::error_code error;
  std::filesystem::create_directories(dir_, error);
  if (error) {
    return Status::IoError("creating the outbox directory " + dir_.string() + ": " +
                           error.message());
  }
  const std::filesystem::path final_path = dir_ / (message.name + ".eml");
  const std::filesystem::path temp_path = dir_ / ("." + message.name + ".eml.tmp");
  {
    std::ofstream out(temp_path, std::ios::binary | std::ios::trunc);
    out.write(message.data.data(), static_cast<std::streamsize>(message.data.size()));
    out.flush();
    if (!out) return Status::IoError("writing " + temp_path.string() + ": " + std::strerror(errno));
  }
  std::filesystem::rename(temp_path, final_path, error);
  if (error) {
    return Status::IoError("renaming " + temp_path.string() + " to " + final_path.string() + ": " +
                           error.message());
  }
  return Status::Ok();
}

namespace {

struct UploadState {
  const std::string* data;
  std::size_t offset = 0;
};

std::size_t ReadChunk(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto* state = static_cast<UploadState*>(user);
  const std::size_t left = state->data->size() - state->offset;
  const std::size_t n = std::min(left, size * count);
  std::memcpy(buffer, state->data->data() + state->offset, n);
  state->offset += n;
  return n;
}

}  // namespace

bool SmtpRefusedForGood(int curl_code, long smtp_code, std::string_view error) {
  if (smtp_code < 500 || smtp_code > 599) return false;
  // RCPT TO refused (libcurl: CURLE_SEND_ERROR, "RCPT failed: <code>"), or the data refused
  // after the final dot (CURLE_RECV_ERROR, or CURLE_SEND_ERROR "DATA failed").
  if (curl_code == CURLE_SEND_ERROR) {
    return error.rfind("RCPT failed", 0) == 0 || error.rfind("DATA failed", 0) == 0;
  }
  return curl_code == CURLE_RECV_ERROR && error.rfind("MAIL", 0) != 0;
}

Status SmtpMailer::Send(const OutgoingMessage& message) {
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
  if (!curl) return Status::Internal("curl_easy_init failed");
  CURL* h = curl.get();
  char error_buffer[CURL_ERROR_SIZE] = {};
  UploadState upload{&message.data};
  curl_slist* recipients = curl_slist_append(nullptr, ("<" + message.to + ">").c_str());
  const std::string mail_from = "<" + message.from + ">";

  curl_easy_setopt(h, CURLOPT_URL, config_.smtp_url.c_str());
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT, 60L);
  if (config_.tls == SmtpTls::kStartTls) curl_easy_setopt(h, CURLOPT_USE_SSL, CURLUSESSL_ALL);
  // libcurl verifies the peer and the host name by default; the CA bundle may be our own.
  if (!config_.ca_file.empty()) curl_easy_setopt(h, CURLOPT_CAINFO, config_.ca_file.c_str());
  if (!config_.user.empty()) {
    curl_easy_setopt(h, CURLOPT_USERNAME, config_.user.c_str());
    curl_easy_setopt(h, CURLOPT_PASSWORD, config_.password.c_str());
  }
  curl_easy_setopt(h, CURLOPT_MAIL_FROM, mail_from.c_str());
  curl_easy_setopt(h, CURLOPT_MAIL_RCPT, recipients);
  curl_easy_setopt(h, CURLOPT_READFUNCTION, &ReadChunk);
  curl_easy_setopt(h, CURLOPT_READDATA, &upload);
  curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(message.data.size()));
  const CURLcode code = curl_easy_perform(h);
  curl_slist_free_all(recipients);
  if (code != CURLE_OK) {
    long response = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &response);
    std::string detail = error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(code);
    if (response != 0) detail += " (SMTP " + std::to_string(response) + ")";
    if (SmtpRefusedForGood(code, response, detail)) {
      return Status::InvalidArgument("SMTP to " + message.to + " via " + config_.smtp_url +
                                     ": refused for good: " + detail);
    }
    return Status::IoError("SMTP to " + message.to + " via " + config_.smtp_url + ": " + detail);
  }
  return Status::Ok();
}

}  // namespace pbem::daemon::mail
