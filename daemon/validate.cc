#include "daemon/validate.h"

#include <cstdint>

namespace pbem::daemon {
namespace {

bool IsAlpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }

// RFC 5322 3.2.3 atext.
bool IsAtext(unsigned char c) {
  if (IsAlpha(c) || IsDigit(c)) return true;
  switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '/':
    case '=':
    case '?':
    case '^':
    case '_':
    case '`':
    case '{':
    case '|':
    case '}':
    case '~':
      return true;
    default:
      return false;
  }
}

// RFC 5322 3.2.4 qtext (no obsolete forms).
bool IsQtext(unsigned char c) { return c == 33 || (c >= 35 && c <= 91) || (c >= 93 && c <= 126); }
// RFC 5322 3.4.1 dtext.
bool IsDtext(unsigned char c) { return (c >= 33 && c <= 90) || (c >= 94 && c <= 126); }
bool IsVchar(unsigned char c) { return c >= 33 && c <= 126; }

// A dot-atom: atext runs separated by single dots, none empty. `what` names the part.
std::optional<std::string> DotAtomProblem(std::string_view text, const std::string& what) {
  if (text.empty()) return what + " is empty";
  if (text.front() == '.' || text.back() == '.') {
    return what + " may not begin or end with a dot";
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '.') {
      if (text[i + 1] == '.') return what + " may not hold two dots in a row";
      continue;
    }
    if (!IsAtext(c)) {
      return what + " may not hold " +
             (c >= 33 && c <= 126 ? "'" + std::string(1, static_cast<char>(c)) + "'"
                                  : "byte " + std::to_string(c));
    }
  }
  return std::nullopt;
}

// Decodes one UTF-8 code point at `i` (advanced past it); nullopt when the bytes there are not
// a shortest-form encoding of a scalar value.
std::optional<std::uint32_t> NextCodePoint(std::string_view s, std::size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  std::size_t n = 0;
  std::uint32_t cp = 0;
  std::uint32_t min = 0;
  if ((b0 & 0xE0) == 0xC0) {
    n = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    n = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    n = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return std::nullopt;
  }
  if (i + n > s.size()) return std::nullopt;
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return std::nullopt;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
  i += n;
  return cp;
}

bool IsPrintableCodePoint(std::uint32_t cp) {
  if (cp < 0x20 || cp == 0x7F) return false;                         // C0, DEL
  if (cp >= 0x80 && cp <= 0x9F) return false;                        // C1
  if (cp == 0x2028 || cp == 0x2029) return false;                    // line, paragraph separators
  if (cp >= 0x202A && cp <= 0x202E) return false;                    // bidirectional embeddings
  if (cp >= 0x2066 && cp <= 0x2069) return false;                    // bidirectional isolates
  if (cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB)) return false;  // BOM, annotations
  if ((cp & 0xFFFE) == 0xFFFE || (cp >= 0xFDD0 && cp <= 0xFDEF)) return false;  // noncharacters
  return true;
}

bool IsHeaderUnsafe(unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7F; }

}  // namespace

std::optional<std::string> MailAddressProblem(std::string_view address) {
  if (address.empty()) return std::string("is empty: a mail address is name@domain");
  if (address.size() > kMaxAddressBytes) {
    return "is longer than " + std::to_string(kMaxAddressBytes) + " bytes";
  }
  for (const char ch : address) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\r' || c == '\n') return std::string("may not hold a line break");
    if (c == 0) return std::string("may not hold a NUL byte");
    if (c >= 0x80) return std::string("must be ASCII (no accented letters)");
    if (c < 0x20 || c == 0x7F) return std::string("may not hold a control character");
  }
  // The local part: a quoted string runs to its closing quote; a dot-atom to the '@'.
  std::size_t at = 0;
  if (address.front() == '"') {
    std::size_t i = 1;
    bool closed = false;
    while (i < address.size()) {
      const auto c = static_cast<unsigned char>(address[i]);
      if (c == '"') {
        closed = true;
        break;
      }
      if (c == '\\') {
        if (i + 1 >= address.size()) break;
        const auto next = static_cast<unsigned char>(address[i + 1]);
        if (!IsVchar(next) && next != ' ' && next != '\t') {
          return std::string("has a bad escape in its quoted local part");
        }
        i += 2;
        continue;
      }
      if (!IsQtext(c) && c != ' ' && c != '\t') {
        return std::string("has a bad character in its quoted local part");
      }
      ++i;
    }
    if (!closed) return std::string("has an unclosed quote");
    at = i + 1;
    if (at >= address.size() || address[at] != '@') {
      return std::string("must have '@' right after the quoted local part");
    }
  } else {
    at = address.find('@');
    if (at == std::string_view::npos)
      return std::string("has no '@': a mail address is name@domain");
    if (std::optional<std::string> bad =
            DotAtomProblem(address.substr(0, at), "the part before '@'")) {
      return bad;
    }
  }
  if (at > kMaxLocalPartBytes) {
    return "has more than " + std::to_string(kMaxLocalPartBytes) + " bytes before '@'";
  }
  const std::string_view domain = address.substr(at + 1);
  if (domain.empty()) return std::string("has no domain after '@'");
  if (domain.front() == '[') {
    if (domain.size() < 3 || domain.back() != ']')
      return std::string("has an unclosed domain literal");
    for (const char ch : domain.substr(1, domain.size() - 2)) {
      if (!IsDtext(static_cast<unsigned char>(ch))) {
        return std::string("has a bad character in its domain literal");
      }
    }
    return std::nullopt;
  }
  return DotAtomProblem(domain, "the domain");
}

std::optional<std::string> DisplayNameProblem(std::string_view name, std::size_t max_chars) {
  if (name.empty()) return std::string("is empty");
  if (name.size() > 4 * max_chars) {
    return "is longer than " + std::to_string(max_chars) + " characters";
  }
  std::size_t chars = 0;
  for (std::size_t i = 0; i < name.size();) {
    const std::optional<std::uint32_t> cp = NextCodePoint(name, i);
    if (!cp) return std::string("is not valid UTF-8");
    if (!IsPrintableCodePoint(*cp)) {
      return std::string(*cp == '\r' || *cp == '\n' ? "may not hold a line break"
                         : *cp == 0                 ? "may not hold a NUL byte"
                                                    : "may not hold a control character");
    }
    ++chars;
  }
  if (chars > max_chars) return "is longer than " + std::to_string(max_chars) + " characters";
  if (name.front() == ' ' || name.back() == ' ') {
    return std::string("may not begin or end with a space");
  }
  return std::nullopt;
}

bool IsIdentifier(std::string_view text, std::size_t max_chars) {
  if (text.empty() || text.size() > max_chars) return false;
  if (!IsAlpha(static_cast<unsigned char>(text[0])) &&
      !IsDigit(static_cast<unsigned char>(text[0]))) {
    return false;
  }
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (!IsAlpha(c) && !IsDigit(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

std::optional<std::string> DeadlinesProblem(std::int64_t turn_timeout_s,
                                            std::int64_t reminder_before_s) {
  if (turn_timeout_s != 0 &&
      (turn_timeout_s < kMinTurnTimeoutSeconds || turn_timeout_s > kMaxTurnTimeoutSeconds)) {
    return "turnTimeoutSeconds is 0 (no deadline) or from " +
           std::to_string(kMinTurnTimeoutSeconds) + " to " +
           std::to_string(kMaxTurnTimeoutSeconds) + " (366 days), not " +
           std::to_string(turn_timeout_s);
  }
  if (reminder_before_s < 0 || (reminder_before_s > 0 && reminder_before_s >= turn_timeout_s)) {
    return "reminderBeforeSeconds is 0 (no reminder) or a number of seconds less than "
           "turnTimeoutSeconds, not " +
           std::to_string(reminder_before_s);
  }
  return std::nullopt;
}

bool IsHeaderSafe(std::string_view text) {
  for (const char ch : text) {
    if (IsHeaderUnsafe(static_cast<unsigned char>(ch))) return false;
  }
  return true;
}

std::string HeaderSafe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (!IsHeaderUnsafe(c)) {
      out += text[i];
    } else if (!(c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
      out += ' ';
    }
  }
  return out;
}

}  // namespace pbem::daemon
