#include "daemon/http/exchange.h"

#include <Poco/DateTimeFormat.h>
#include <Poco/DateTimeFormatter.h>
#include <Poco/Timestamp.h>

#include <fstream>
#include <iterator>

namespace pbem::daemon::http {

std::ostream& BufferedResponse::send() {
  sent_ = true;
  return body_;
}

void BufferedResponse::sendFile(const std::string& path, const std::string& media_type) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    setStatusAndReason(HTTP_NOT_FOUND);
  } else {
    setContentType(media_type);
    body_ << in.rdbuf();
  }
  sent_ = true;
}

void BufferedResponse::sendBuffer(const void* buffer, std::size_t length) {
  body_.write(static_cast<const char*>(buffer), static_cast<std::streamsize>(length));
  sent_ = true;
}

void BufferedResponse::redirect(const std::string& uri, HTTPStatus status) {
  setStatusAndReason(status);
  set("Location", uri);
  sent_ = true;
}

void BufferedResponse::requireAuthentication(const std::string& realm) {
  setStatusAndReason(HTTP_UNAUTHORIZED);
  set("WWW-Authenticate", "Basic realm=\"" + realm + "\"");
  sent_ = true;
}

void BufferedResponse::Replace(HTTPStatus status, const std::string& content_type,
                               const std::string& body) {
  clear();  // the header fields a handler may have set
  setStatusAndReason(status);
  setContentType(content_type);
  body_.str("");
  body_.clear();
  body_ << body;
  sent_ = true;
}

std::string BufferedResponse::Serialize(bool keep_alive, bool head_only) {
  const std::string body = body_.str();
  setChunkedTransferEncoding(false);
  // A 304 has no body, and no Content-Length (RFC 9110 8.6: it would have to be the 200's).
  const bool not_modified = getStatus() == HTTP_NOT_MODIFIED;
  if (not_modified) {
    erase("Content-Length");
    erase("Content-Type");
  } else {
    setContentLength64(static_cast<Poco::Int64>(body.size()));
  }
  setKeepAlive(keep_alive);
  set("Date",
      Poco::DateTimeFormatter::format(Poco::Timestamp(), Poco::DateTimeFormat::HTTP_FORMAT));
  std::ostringstream out;
  write(out);
  if (!head_only && !not_modified) out << body;
  return out.str();
}

void BufferedRequest::SetBody(std::string body) {
  erase("Transfer-Encoding");
  erase("Expect");
  if (body.empty()) {
    erase("Content-Length");
  } else {
    setContentLength64(static_cast<Poco::Int64>(body.size()));
  }
  body_.str(std::move(body));
  body_.clear();
}

}  // namespace pbem::daemon::http
