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

#include "daemon/mail/scan.h"

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
         Decode(body, header.get("Content-Transfer-Encoding", "")));
  }

 private:
  void Leaf(const MessageHeader& header, const std::string& type, std::string bytes) {
    const std::string filename = FileName(header);
    const std::string lower_name = Lower(filename);
    const std::string disposition = Lower(header.get("Content-Disposition", ""));
    const bool attachment = !filename.empty() || disposition.rfind("attachment", 0) == 0;
    OrdersCandidate candidate;
    candidate.attachment = attachment;
    candidate.source = attachment ? "attachment " + (filename.empty() ? type : filename) : "body";
    if (type == "application/octet-stream" || type == "application/x-protobuf" ||
        type == "application/protobuf" || type == "application/vnd.google.protobuf" ||
        EndsWith(lower_name, ".bin") || EndsWith(lower_name, ".pb") ||
        EndsWith(lower_name, ".binpb")) {
      candidate.format = codec::Format::kBinary;
    } else if (type == "application/json" || EndsWith(lower_name, ".json")) {
      candidate.format = codec::Format::kJson;
    } else if (EndsWith(lower_name, ".textproto") || EndsWith(lower_name, ".txtpb") ||
               EndsWith(lower_name, ".pbtxt")) {
      candidate.format = codec::Format::kText;
    } else if (type == "text/plain") {
      // Orders in the body: text format or JSON, told apart by the codec; a signature
      // ("-- " line) is cut off.
      const auto signature = bytes.find("\n-- \n");
      if (signature != std::string::npos) bytes.resize(signature + 1);
      const auto signature_crlf = bytes.find("\n-- \r\n");
      if (signature_crlf != std::string::npos) bytes.resize(signature_crlf + 1);
      if (Poco::trim(bytes).empty()) return;
    } else {
      return;  // html, images, ...: never orders
    }
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
  const auto at = address.find('@');
  if (at == std::string::npos || at == 0 || at + 1 == address.size() ||
      address.find_first_of(" \t<>\",;") != std::string::npos) {
    return "";
  }
  return address;
}

InboundMail ParseInbound(const std::string& raw, const LimitsConfig& limits, bool headers_only) {
  InboundMail mail;
  std::istringstream in(raw);
  MessageHeader header;
  header.setFieldLimit(200);
  try {
    header.read(in);
  } catch (const Poco::Exception& e) {
    mail.structure_error = "the mail headers do not parse: " + e.displayText();
    return mail;
  }
  mail.from = BareAddress(header.get("From", ""));
  mail.message_id = Poco::trim(header.get("Message-ID", ""));
  mail.subject = Poco::trim(header.get("Subject", ""));
  const std::string auto_submitted = Lower(Poco::trim(header.get("Auto-Submitted", "no")));
  mail.auto_submitted = auto_submitted != "no";
  if (headers_only) return mail;
  // The blank line after the headers: MessageHeader::read stops at it.
  if (in.peek() == '\r') in.get();
  if (in.peek() == '\n') in.get();
  try {
    Walker walker(limits, mail);
    walker.Walk(header, in, 0);
  } catch (const StructureError& e) {
    mail.structure_error = e.what();
    mail.candidates.clear();
  } catch (const Poco::Exception& e) {
    mail.structure_error = "the MIME structure does not parse: " + e.displayText();
    mail.candidates.clear();
  } catch (const std::exception& e) {
    mail.structure_error = std::string("the MIME structure does not parse: ") + e.what();
    mail.candidates.clear();
  }
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
  for (const OrdersCandidate& candidate : mail.candidates) {
    if (candidate.format == codec::Format::kBinary) continue;
    const std::string_view head = std::string_view(candidate.bytes).substr(0, 64 * 1024);
    for (const std::string& id : GameIdFields(head, 64)) add(id);
  }
  for (const std::string& word : SubjectWords(mail.subject, 20)) add(word);
  return hints;
}

}  // namespace pbem::daemon::mail
