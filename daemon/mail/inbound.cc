#include "daemon/mail/inbound.h"

#include <Poco/Base64Decoder.h>
#include <Poco/Exception.h>
#include <Poco/Net/MediaType.h>
#include <Poco/Net/MessageHeader.h>
#include <Poco/Net/MultipartReader.h>
#include <Poco/Net/QuotedPrintableDecoder.h>
#include <Poco/StreamCopier.h>
#include <Poco/String.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <string_view>

#include "daemon/mail/charset.h"
#include "daemon/mail/header_words.h"
#include "daemon/mail/html_text.h"
#include "daemon/mail/quoted_orders.h"
#include "daemon/mail/scan.h"
#include "daemon/validate.h"

namespace pbem::daemon::mail {
namespace {

using Poco::Net::MessageHeader;

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Cuts a signature ("-- " line) and what follows it off a text body.
void CutSignature(std::string& bytes) {
  const auto signature = bytes.find("\n-- \n");
  if (signature != std::string::npos) bytes.resize(signature + 1);
  const auto signature_crlf = bytes.find("\n-- \r\n");
  if (signature_crlf != std::string::npos) bytes.resize(signature_crlf + 1);
}

class StructureError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string Decode(const std::string& body, const std::string& encoding) {
  const std::string e = Lower(Poco::trim(encoding));
  std::istringstream in(body);
  std::string out;
  if (e == "base64") {
    Poco::Base64Decoder decoder(in);
    Poco::StreamCopier::copyToString(decoder, out);
  } else if (e == "quoted-printable") {
    Poco::Net::QuotedPrintableDecoder decoder(in);
    Poco::StreamCopier::copyToString(decoder, out);
  } else {
    out = body;
  }
  return out;
}

// The file name of a part: Content-Disposition filename=, else Content-Type name=.
std::string FileName(const MessageHeader& header) {
  std::string value;
  Poco::Net::NameValueCollection params;
  if (header.has("Content-Disposition")) {
    MessageHeader::splitParameters(header.get("Content-Disposition"), value, params);
    if (params.has("filename")) return params.get("filename");
  }
  if (header.has("Content-Type")) {
    params.clear();
    MessageHeader::splitParameters(header.get("Content-Type"), value, params);
    if (params.has("name")) return params.get("name");
  }
  return "";
}

class Walker {
 public:
  Walker(const LimitsConfig& limits, InboundMail& mail) : limits_(limits), mail_(mail) {}

  void Walk(const MessageHeader& header, std::istream& stream, int depth) {
    const std::string type_text = header.get("Content-Type", "text/plain");
    Poco::Net::MediaType type(type_text);
    if (Lower(type.getType()) == "multipart") {
      if (depth >= limits_.max_mime_depth) {
        throw StructureError("multiparts nested deeper than " +
                             std::to_string(limits_.max_mime_depth) + " levels");
      }
      const std::string boundary = type.getParameter("boundary");
      if (boundary.empty()) throw StructureError("a multipart without a boundary");
      Poco::Net::MultipartReader reader(stream, boundary);
      while (reader.hasNextPart()) {
        if (++parts_ > limits_.max_mime_parts) {
          throw StructureError("more than " + std::to_string(limits_.max_mime_parts) +
                               " MIME parts");
        }
        MessageHeader part_header;
        reader.nextPart(part_header);
        Walk(part_header, reader.stream(), depth + 1);
      }
      return;
    }
    std::string body;
    Poco::StreamCopier::copyToString(stream, body);
    Leaf(header, Lower(type.getType() + "/" + type.getSubType()),
         type.hasParameter("charset") ? Poco::trim(type.getParameter("charset")) : std::string(),
         Decode(body, header.get("Content-Transfer-Encoding", "")));
  }

 private:
  void Leaf(const MessageHeader& header, const std::string& type, const std::string& charset,
            std::string bytes) {
    const std::string filename = FileName(header);
    const std::string lower_name = Lower(filename);
    const std::string disposition = Lower(header.get("Content-Disposition", ""));
    const bool attachment = !filename.empty() || disposition.rfind("attachment", 0) == 0;
    OrdersCandidate candidate;
    candidate.attachment = attachment;
    candidate.source = attachment ? "attachment " + (filename.empty() ? type : filename) : "body";
    // The file name first (a client may type any attachment application/octet-stream), then
    // the type; an octet-stream, a .txt or an unnamed part is judged by its content
    // (codec::DetectFormat: JSON, UTF-8 text, else binary).
    if (EndsWith(lower_name, ".textproto") || EndsWith(lower_name, ".txtpb") ||
        EndsWith(lower_name, ".pbtxt")) {
      candidate.format = codec::Format::kText;
    } else if (EndsWith(lower_name, ".json")) {
      candidate.format = codec::Format::kJson;
    } else if (EndsWith(lower_name, ".bin") || EndsWith(lower_name, ".pb") ||
               EndsWith(lower_name, ".binpb") || type == "application/x-protobuf" ||
               type == "application/protobuf" || type == "application/vnd.google.protobuf") {
      candidate.format = codec::Format::kBinary;
    } else if (type == "application/json") {
      candidate.format = codec::Format::kJson;
    } else if (type == "application/octet-stream") {
      // judged by content
    } else if (type == "text/plain") {
      if (!attachment) plain_body_ = true;
      if (!PlainText(candidate, bytes)) return;
    } else if (type == "text/html" && !attachment) {
      // Read only when the mail has no text/plain body (Finish).
      if (!html_body_) html_body_ = HtmlBody{std::move(bytes), charset};
      return;
    } else {
      return;  // images, ...: never orders
    }
    // Text in a declared charset becomes UTF-8 first; binary orders have no charset.
    if (candidate.format != codec::Format::kBinary && !charset.empty()) {
      Result<std::string> utf8 = ToUtf8(bytes, charset);
      if (!utf8.ok()) {
        candidate.error = candidate.source + ": " + utf8.status().message();
      } else {
        bytes = std::move(utf8).value();
      }
    }
    Add(std::move(candidate), std::move(bytes));
  }

 public:
  // After the walk: a mail whose only body is text/html (a webmail replying in HTML, the
  // orders template quoted in <blockquote> and <pre>) is read as the text it shows
  // (html_text.h), like a text/plain body.
  void Finish() {
    if (plain_body_ || !html_body_) return;
    OrdersCandidate candidate;
    candidate.source = "body (HTML)";
    std::string html = std::move(html_body_->bytes);
    if (!html_body_->charset.empty()) {
      Result<std::string> utf8 = ToUtf8(html, html_body_->charset);
      if (!utf8.ok()) {
        candidate.error = candidate.source + ": " + utf8.status().message();
      } else {
        html = std::move(utf8).value();
      }
    }
    std::string text = HtmlToText(html);
    if (!PlainText(candidate, text)) return;
    Add(std::move(candidate), std::move(text));
  }

 private:
  struct HtmlBody {
    std::string bytes;
    std::string charset;
  };

  // A text body: the orders template alone when the text holds one, else the text without its
  // signature; false when nothing is left.
  static bool PlainText(OrdersCandidate& candidate, std::string& bytes) {
    if (std::optional<std::string> edited = TemplateInReply(bytes)) {
      // A reply holding the orders template (quoted or not, between the player's words and
      // before or after a signature): the template alone (quoted_orders.h).
      candidate.format = codec::Format::kText;
      candidate.source += " (orders template)";
      bytes = std::move(*edited);
      return true;
    }
    // Orders in the body: text format or JSON, told apart by the codec; a signature
    // ("-- " line) is cut off.
    CutSignature(bytes);
    return !Poco::trim(bytes).empty();
  }

  void Add(OrdersCandidate candidate, std::string bytes) {
    const bool attachment = candidate.attachment;
    candidate.bytes = std::move(bytes);
    if (attachment) {
      mail_.candidates.insert(mail_.candidates.begin() + attachments_++, std::move(candidate));
    } else {
      mail_.candidates.push_back(std::move(candidate));
    }
  }

  const LimitsConfig& limits_;
  InboundMail& mail_;
  int parts_ = 0;
  std::ptrdiff_t attachments_ = 0;
  bool plain_body_ = false;
  std::optional<HtmlBody> html_body_;
};

}  // namespace

std::string BareAddress(const std::string& header_value) {
  std::string address = header_value;
  const auto open = header_value.rfind('<');
  if (open != std::string::npos) {
    const auto close = header_value.find('>', open);
    if (close == std::string::npos) return "";
    address = header_value.substr(open + 1, close - open - 1);
  }
  address = Lower(Poco::trim(address));
  // The one address rule of pbemd (daemon/validate.h): "a@b,c@d" or "@" is no sender.
  if (!IsMailAddress(address)) return "";
  return address;
}

InboundMail ParseInbound(const std::string& raw, const LimitsConfig& limits, bool headers_only) {
  InboundMail mail;
  // Our own bounded scanner (Poco's MessageHeader::read throws past its field limit and at
  // long values, and the sender would be lost with the rest): every field is counted, the
  // first kMaxHeaderFields kept.
  const ScannedHeaders scanned = ScanHeaders(raw, kMaxHeaderFields);
  const auto first = [&scanned](std::string_view name) -> const std::string* {
    for (const HeaderField& field : scanned.fields) {
      if (Poco::icompare(field.name, std::string(name)) == 0) return &field.value;
    }
    return nullptr;
  };
  const auto get = [&first](std::string_view name, const std::string& fallback) {
    const std::string* value = first(name);
    return value != nullptr ? *value : fallback;
  };
  mail.from = BareAddress(get("From", ""));
  mail.message_id = OneLine(Poco::trim(get("Message-ID", "")));
  // RFC 2047 encoded words, as UTF-8 (not Poco's decodeWord: header_words.h says why).
  const std::string subject = DecodeHeaderText(Poco::trim(get("Subject", "")));
  mail.subject = OneLine(Poco::trim(subject));  // a CR or LF decoded from =0D=0A never reaches
                                                // the "Re:" header of a reply
  const std::string auto_submitted = Lower(Poco::trim(get("Auto-Submitted", "no")));
  mail.auto_submitted = auto_submitted != "no";
  if (scanned.count > kMaxHeaderFields) {
    mail.structure_error = "the mail has " + std::to_string(scanned.count) +
                           " header fields, more than the " + std::to_string(kMaxHeaderFields) +
                           " pbemd reads: send the orders in a new mail, not a forward of a "
                           "forward";
  }
  if (headers_only) return mail;
  MessageHeader header;
  for (const char* name : {"Content-Type", "Content-Transfer-Encoding", "Content-Disposition"}) {
    if (const std::string* value = first(name)) header.set(name, *value);
  }
  std::istringstream in(raw.substr(std::min(scanned.body_offset, raw.size())));
  try {
    Walker walker(limits, mail);
    walker.Walk(header, in, 0);
    walker.Finish();
    return mail;
  } catch (const StructureError& e) {
    mail.structure_error = e.what();
  } catch (const Poco::Exception& e) {
    mail.structure_error = "the MIME structure does not parse: " + e.displayText();
  } catch (const std::exception& e) {
    mail.structure_error = std::string("the MIME structure does not parse: ") + e.what();
  }
  // The parts read before the error stay: the mail is refused, but the game they name tells
  // the intake whom to answer (else a player's malformed mail was dropped unanswered).
  return mail;
}

std::vector<std::string> GameIdHints(const InboundMail& mail) {
  std::vector<std::string> hints;
  const auto add = [&hints](const std::string& id) {
    if (!id.empty() && id.size() <= 64 &&
        std::find(hints.begin(), hints.end(), id) == hints.end()) {
      hints.push_back(id);
    }
  };
  // Each hint may cost the intake two queries: a mail names one game, so a few suffice.
  for (const OrdersCandidate& candidate : mail.candidates) {
    if (candidate.format == codec::Format::kBinary) continue;
    const std::string_view head = std::string_view(candidate.bytes).substr(0, 64 * 1024);
    for (const std::string& id : GameIdFields(head, kMaxBodyHints)) {
      if (hints.size() < kMaxBodyHints) add(id);
    }
  }
  for (const std::string& word : SubjectWords(mail.subject, kMaxSubjectHints)) add(word);
  return hints;
}

}  // namespace pbem::daemon::mail
