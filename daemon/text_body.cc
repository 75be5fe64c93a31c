#include "daemon/text_body.h"

#include <Poco/Exception.h>
#include <Poco/Latin1Encoding.h>
#include <Poco/Net/MediaType.h>
#include <Poco/String.h>
#include <Poco/TextConverter.h>
#include <Poco/UTF8Encoding.h>
#include <Poco/Windows1252Encoding.h>

#include <cstdio>

namespace pbem::daemon {

namespace {

// The length of the well-formed UTF-8 sequence at bytes[i] (no overlong forms, no
// surrogates, nothing above U+10FFFF); 0 when there is none.
std::size_t Utf8Length(std::string_view bytes, std::size_t i) {
  const auto c = static_cast<unsigned char>(bytes[i]);
  if (c < 0x80) return 1;
  std::size_t extra = 0;
  std::uint32_t cp = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    extra = 1;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    extra = 2;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    extra = 3;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + extra >= bytes.size()) return 0;
  for (std::size_t k = 1; k <= extra; ++k) {
    const auto next = static_cast<unsigned char>(bytes[i + k]);
    if ((next & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (next & 0x3F);
  }
  if ((extra == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
      (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF))) {
    return 0;
  }
  return extra + 1;
}

std::string Position(std::string_view text, std::size_t at) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++column;
    }
  }
  return "byte " + std::to_string(at) + " (line " + std::to_string(line) + ", column " +
         std::to_string(column) + ")";
}

std::string HexByte(unsigned char c) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "0x%02X", c);
  return buffer;
}

}  // namespace

Result<std::string> TextBody(std::string_view body, std::string_view content_type) {
  std::string charset;
  try {
    const Poco::Net::MediaType type{std::string(content_type)};
    if (type.hasParameter("charset")) {
      charset = Poco::toLower(Poco::trim(type.getParameter("charset")));
      if (charset.size() >= 2 && charset.front() == '"' && charset.back() == '"') {
        charset = charset.substr(1, charset.size() - 2);
      }
    }
  } catch (const Poco::Exception&) {
    return Status::InvalidArgument("the Content-Type \"" + std::string(content_type) +
                                   "\" does not parse");
  }
  std::string text;
  if (charset.empty() || charset == "utf-8" || charset == "utf8" || charset == "us-ascii") {
    text.assign(body);
  } else if (charset == "iso-8859-1" || charset == "latin1" || charset == "latin-1" ||
             charset == "l1" || charset == "windows-1252" || charset == "cp1252") {
    Poco::Latin1Encoding latin1;
    Poco::Windows1252Encoding windows;
    Poco::UTF8Encoding utf8;
    const bool is_windows = charset == "windows-1252" || charset == "cp1252";
    Poco::TextConverter converter(is_windows ? static_cast<Poco::TextEncoding&>(windows)
                                             : static_cast<Poco::TextEncoding&>(latin1),
                                  utf8);
    if (converter.convert(body.data(), static_cast<int>(body.size()), text) != 0) {
      return Status::InvalidArgument("the body is not valid " + charset +
                                     " (bytes with no character in that charset)");
    }
  } else {
    return Status::InvalidArgument("the charset \"" + charset +
                                   "\" is not supported: send UTF-8 (charset=utf-8), or "
                                   "declare charset=iso-8859-1 or windows-1252");
  }
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      return Status::InvalidArgument("the text holds the control character " + HexByte(c) + " at " +
                                     Position(text, i) +
                                     ": only tab, line feed and carriage return may appear");
    }
    if (c == 0x7F) {
      return Status::InvalidArgument("the text holds the control character 0x7F (DEL) at " +
                                     Position(text, i));
    }
    const std::size_t length = Utf8Length(text, i);
    if (length == 0) {
      return Status::InvalidArgument(
          "the text is not UTF-8: byte " + HexByte(c) + " at " + Position(text, i) +
          " starts no UTF-8 character; send UTF-8, or declare the charset (e.g. "
          "\"Content-Type: text/plain; charset=iso-8859-1\")");
    }
    i += length;
  }
  return text;
}

}  // namespace pbem::daemon
