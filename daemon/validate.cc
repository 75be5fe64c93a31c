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

bool IsControl(std::uint32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||  // C0, DEL, C1
         cp == 0x2028 || cp == 0x2029;                             // line, paragraph separators
}

// Characters that show nothing (or only change how their neighbours show): format characters,
// bidirectional controls, fillers, selectors, tags, noncharacters and private use.
bool IsInvisible(std::uint32_t cp) {
  switch (cp) {
    case 0x00AD:  // soft hyphen
    case 0x034F:  // combining grapheme joiner
    case 0x061C:  // Arabic letter mark
    case 0x115F:  // Hangul choseong filler
    case 0x1160:  // Hangul jungseong filler
    case 0x17B4:  // Khmer vowel inherent aq
    case 0x17B5:  // Khmer vowel inherent aa
    case 0x2800:  // braille pattern blank
    case 0x3164:  // Hangul filler
    case 0xFEFF:  // zero-width no-break space (BOM)
    case 0xFFA0:  // halfwidth Hangul filler
      return true;
    default:
      break;
  }
  return (cp >= 0x180B && cp <= 0x180F) ||    // Mongolian selectors, vowel separator
         (cp >= 0x200B && cp <= 0x200F) ||    // zero-width space, joiners, LRM, RLM
         (cp >= 0x202A && cp <= 0x202E) ||    // bidirectional embeddings and overrides
         (cp >= 0x2060 && cp <= 0x206F) ||    // word joiner, invisible operators, isolates
         (cp >= 0xFE00 && cp <= 0xFE0F) ||    // variation selectors
         (cp >= 0xFFF0 && cp <= 0xFFFB) ||    // interlinear annotations
         (cp >= 0x1BCA0 && cp <= 0x1BCA3) ||  // shorthand format controls
         (cp >= 0x1D173 && cp <= 0x1D17A) ||  // musical format controls
         (cp >= 0xE0000 && cp <= 0xE0FFF) ||  // tags, variation selectors supplement
         (cp >= 0xE000 && cp <= 0xF8FF) ||    // private use
         cp >= 0xF0000 ||                     // private use planes 15 and 16
         (cp & 0xFFFE) == 0xFFFE || (cp >= 0xFDD0 && cp <= 0xFDEF);  // noncharacters
}

// Spaces other than U+0020: they look like it (or like nothing) and make a second name.
bool IsOtherSpace(std::uint32_t cp) {
  return cp == 0x00A0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x202F ||
         cp == 0x205F || cp == 0x3000;
}

bool IsCombiningMark(std::uint32_t cp) {
  return (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
         (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x20D0 && cp <= 0x20FF) ||
         (cp >= 0xFE20 && cp <= 0xFE2F);
}

std::string CodePointName(std::uint32_t cp) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string digits;
  for (int shift = cp > 0xFFFF ? 16 : 12; shift >= 0; shift -= 4)
    digits += kHex[(cp >> shift) & 15];
  return "U+" + digits;
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
  const std::string too_long = "is longer than " + std::to_string(max_chars) + " characters";
  if (name.size() > 4 * max_chars || name.size() > kMaxNameBytes) {
    return too_long + (name.size() > kMaxNameBytes
                           ? " or " + std::to_string(kMaxNameBytes) + " bytes"
                           : std::string());
  }
  std::size_t chars = 0;
  std::uint32_t previous = 0;
  int marks = 0;  // combining marks in a row
  for (std::size_t i = 0; i < name.size();) {
    const std::optional<std::uint32_t> cp = NextCodePoint(name, i);
    if (!cp) return std::string("is not valid UTF-8");
    if (IsControl(*cp)) {
      return std::string(*cp == '\r' || *cp == '\n' ? "may not hold a line break"
                         : *cp == 0                 ? "may not hold a NUL byte"
                                                    : "may not hold a control character");
    }
    if (IsInvisible(*cp)) {
      return "may not hold " + CodePointName(*cp) +
             ", an invisible or direction-changing character";
    }
    if (IsOtherSpace(*cp)) {
      return "may not hold " + CodePointName(*cp) + ": the only space allowed is the plain one";
    }
    if (*cp == ' ' && previous == ' ') return std::string("may not hold two spaces in a row");
    if (IsCombiningMark(*cp)) {
      if (chars == 0 || previous == ' ') {
        return "may not start a word with an accent alone (" + CodePointName(*cp) + ")";
      }
      if (previous < 0x80) {
        return "has an accent typed apart from its letter (" + CodePointName(*cp) +
               "): type the accented letter itself (é, not e + accent)";
      }
      if (++marks > 2) return std::string("may not stack more than two accents on a letter");
    } else {
      marks = 0;
    }
    previous = *cp;
    ++chars;
  }
  if (chars > max_chars) return too_long;
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
