#include "daemon/mail/header_words.h"

#include <optional>
#include <vector>

#include "daemon/mail/charset.h"

namespace pbem::daemon::mail {
namespace {

constexpr std::size_t kMaxLine = 78;
constexpr std::string_view kPrefix = "=?UTF-8?Q?";
constexpr std::string_view kSuffix = "?=";
constexpr std::size_t kMaxEncodedWord = 75;  // RFC 2047 2

bool IsAsciiWord(std::string_view word) {
  for (char c : word) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return word.find("=?") == std::string_view::npos;  // would read as an encoded word
}

// One character of `text` at `at` (a whole UTF-8 sequence, or one byte when it is not one),
// Q-encoded.
std::string QChar(std::string_view text, std::size_t& at) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const unsigned char lead = static_cast<unsigned char>(text[at]);
  std::size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  for (std::size_t i = 1; i < length; ++i) {
    if (at + i >= text.size() || (static_cast<unsigned char>(text[at + i]) & 0xC0) != 0x80) {
      length = 1;
      break;
    }
  }
  std::string out;
  for (std::size_t i = 0; i < length; ++i) {
    const char c = text[at + i];
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == ' ') {
      out += '_';
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '!' || c == '*' || c == '+' || c == '-' || c == '/') {
      out += c;
    } else {
      out += '=';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  at += length;
  return out;
}

// `run` (words with their spaces) as encoded words of at most kMaxEncodedWord bytes, cut after
// a space where one fits ("_" ends the word), else between two characters.
std::vector<std::string> EncodedWords(std::string_view run) {
  std::vector<std::string> words;
  std::string word(kPrefix);
  std::size_t at = 0;
  std::size_t space_cut = 0;  // the word's length, and the run's offset, after its last space
  std::size_t space_at = 0;
  while (at < run.size()) {
    const std::size_t char_at = at;
    const std::string encoded = QChar(run, at);
    if (word.size() + encoded.size() + kSuffix.size() > kMaxEncodedWord) {
      if (space_cut > 0) {
        word.resize(space_cut);
        at = space_at;  // each character is encoded again at most once: the cut is linear
      } else {
        at = char_at;
      }
      words.push_back(word + std::string(kSuffix));
      word = kPrefix;
      space_cut = 0;
      continue;
    }
    word += encoded;
    if (run[char_at] == ' ') {
      space_cut = word.size();
      space_at = at;
    }
  }
  words.push_back(word + std::string(kSuffix));
  return words;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> DecodeB(std::string_view text) {
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (char c : text) {
    int v;
    if (c >= 'A' && c <= 'Z')
      v = c - 'A';
    else if (c >= 'a' && c <= 'z')
      v = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      v = c - '0' + 52;
    else if (c == '+')
      v = 62;
    else if (c == '/')
      v = 63;
    else if (c == '=')
      break;
    else
      return std::nullopt;
    buffer = (buffer << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xFF);
    }
  }
  return out;
}

std::optional<std::string> DecodeQ(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '_') {
      out += ' ';
    } else if (text[i] == '=') {
      const int high = i + 1 < text.size() ? HexValue(text[i + 1]) : -1;
      const int low = i + 2 < text.size() ? HexValue(text[i + 2]) : -1;
      if (high < 0 || low < 0) return std::nullopt;
      out += static_cast<char>(high * 16 + low);
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// The encoded word at value[at] ("=?charset?X?text?="): its charset (without an RFC 2231
// language), its bytes, its length; nullopt when there is none there.
struct EncodedWord {
  std::string charset;
  std::string bytes;
  std::size_t length = 0;
};
std::optional<EncodedWord> ReadEncodedWord(std::string_view value, std::size_t at) {
  constexpr std::size_t kMaxWord = 256;  // longer than any client writes; bounds the look
  if (value.substr(at, 2) != "=?") return std::nullopt;
  const std::string_view rest = value.substr(at + 2, kMaxWord);
  const std::size_t q1 = rest.find('?');
  if (q1 == std::string_view::npos || q1 == 0 || q1 + 2 >= rest.size() || rest[q1 + 2] != '?') {
    return std::nullopt;
  }
  const char encoding = rest[q1 + 1];
  const std::size_t end = rest.find("?=", q1 + 3);
  if (end == std::string_view::npos) return std::nullopt;
  const std::string_view text = rest.substr(q1 + 3, end - q1 - 3);
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') return std::nullopt;
  }
  std::optional<std::string> bytes;
  if (encoding == 'B' || encoding == 'b') bytes = DecodeB(text);
  if (encoding == 'Q' || encoding == 'q') bytes = DecodeQ(text);
  if (!bytes) return std::nullopt;
  EncodedWord word;
  word.charset = std::string(rest.substr(0, std::min(q1, rest.find('*'))));
  word.bytes = std::move(*bytes);
  word.length = 2 + end + 2;
  return word;
}

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

std::string EncodeHeaderText(std::string_view text, std::size_t used) {
  // Tokens: ASCII words as they are, each run of words needing encoding as encoded words.
  std::vector<std::string> tokens;
  std::size_t start = 0;
  std::string run;
  bool in_run = false;
  const auto end_run = [&] {
    if (!in_run) return;
    for (std::string& word : EncodedWords(run)) tokens.push_back(std::move(word));
    run.clear();
    in_run = false;
  };
  bool all_ascii = true;
  while (start <= text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    if (!IsAsciiWord(word)) {
      all_ascii = false;
      if (in_run) run += ' ';
      run += word;
      in_run = true;
    } else if (in_run && word.empty()) {
      run += ' ';  // two spaces inside a run
    } else {
      end_run();
      tokens.emplace_back(word);
    }
    start = end + 1;
  }
  end_run();
  if (all_ascii) return std::string(text);
  std::string out;
  std::size_t line = used;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i > 0) {
      if (line + 1 + tokens[i].size() > kMaxLine && line > 1) {
        out += "\r\n ";
        line = 1;
      } else {
        out += ' ';
        ++line;
      }
    }
    out += tokens[i];
    line += tokens[i].size();
  }
  return out;
}

std::string DecodeHeaderText(std::string_view value) {
  std::string out;
  std::string blanks;          // white space after the last token, not yet written
  bool after_encoded = false;  // the last token was an encoded word
  std::string charset, bytes;  // adjacent encoded words' bytes, converted together
  const auto flush = [&] {
    if (bytes.empty() && charset.empty()) return;
    Result<std::string> utf8 = ToUtf8(bytes, charset);
    out += utf8.ok() ? *utf8 : bytes;
    bytes.clear();
    charset.clear();
  };
  std::size_t at = 0;
  while (at < value.size()) {
    if (IsBlank(value[at])) {
      if (value[at] != '\r' && value[at] != '\n') blanks += value[at];
      ++at;
      continue;
    }
    if (std::optional<EncodedWord> word = ReadEncodedWord(value, at)) {
      if (!after_encoded || word->charset != charset) {
        flush();
        if (!after_encoded) out += blanks;
      }
      blanks.clear();
      charset = word->charset;
      bytes += word->bytes;
      after_encoded = true;
      at += word->length;
      continue;
    }
    flush();
    out += blanks;
    blanks.clear();
    after_encoded = false;
    std::size_t end = at;
    while (end < value.size() && !IsBlank(value[end]) &&
           (end == at || value.substr(end, 2) != "=?")) {
      ++end;
    }
    out.append(value.substr(at, end - at));
    at = end;
  }
  flush();
  out += blanks;
  return out;
}

}  // namespace pbem::daemon::mail
