#include "daemon/mail/scan.h"

#include <algorithm>

namespace pbem::daemon::mail {
namespace {

bool IsWordStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool IsWordByte(char c) { return IsWordStart(c) || c == '_' || c == '.' || c == '-'; }

char LowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool StartsWith(std::string_view text, std::size_t at, std::string_view prefix) {
  return text.size() - at >= prefix.size() && text.compare(at, prefix.size(), prefix) == 0;
}

// The end of a game-id key starting at `at`, or npos.
std::size_t KeyEnd(std::string_view text, std::size_t at) {
  if (StartsWith(text, at, "game_id")) return at + 7;
  if (!StartsWith(text, at, "\"game")) return std::string_view::npos;
  std::size_t p = at + 5;
  if (p < text.size() && text[p] == '_') ++p;
  if (p < text.size() && (text[p] == 'i' || text[p] == 'I') && StartsWith(text, p + 1, "d\"")) {
    return p + 3;
  }
  return std::string_view::npos;
}

std::size_t SkipBlanks(std::string_view text, std::size_t p) {
  while (p < text.size() && IsBlank(text[p])) ++p;
  return p;
}

}  // namespace

bool IsBlank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

std::vector<std::string> GameIdFields(std::string_view text, std::size_t max_values) {
  constexpr std::size_t kMaxValue = 64;
  std::vector<std::string> values;
  std::size_t at = 0;
  while (at < text.size() && values.size() < max_values) {
    // A key starts with 'g' or '"': other bytes are passed without comparing strings (a
    // compare per byte made a 64 KiB body cost 128 Ki string compares).
    if (text[at] != 'g' && text[at] != '"') {
      ++at;
      continue;
    }
    const std::size_t key_end = KeyEnd(text, at);
    if (key_end == std::string_view::npos) {
      ++at;
      continue;
    }
    // Each blank run below follows a key (or its colon) and ends before the next key can
    // start, so over the whole text every byte is looked at a bounded number of times.
    std::size_t p = SkipBlanks(text, key_end);
    if (p < text.size() && text[p] == ':')
      p = SkipBlanks(text, p + 1);
    else
      p = std::string_view::npos;
    if (p != std::string_view::npos && p < text.size() && text[p] == '"') {
      const std::size_t value = p + 1;
      std::size_t end = value;
      while (end < text.size() && end - value <= kMaxValue && text[end] != '"' &&
             text[end] != '\\') {
        ++end;
      }
      if (end < text.size() && text[end] == '"' && end > value && end - value <= kMaxValue) {
        values.emplace_back(text.substr(value, end - value));
        at = end + 1;
        continue;
      }
    }
    ++at;
  }
  return values;
}

std::vector<std::string> SubjectWords(std::string_view subject, std::size_t max_words) {
  constexpr std::size_t kMaxWord = 64;
  std::vector<std::string> words;
  std::size_t at = 0;
  while (at < subject.size() && words.size() < max_words) {
    if (!IsWordStart(subject[at])) {
      ++at;
      continue;
    }
    std::size_t end = at + 1;
    while (end < subject.size() && end - at < kMaxWord && IsWordByte(subject[end])) ++end;
    words.emplace_back(subject.substr(at, end - at));
    at = end;
  }
  return words;
}

std::optional<std::vector<std::string>> FindCommandLine(std::string_view text,
                                                        std::string_view keyword,
                                                        std::size_t min_args,
                                                        std::size_t max_args) {
  std::size_t line_start = 0;
  while (line_start <= text.size()) {
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    std::string_view line = text.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    // Trailing [ \t\r]*, leading [ \t]*.
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
      line.remove_suffix(1);
    }
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    // Tokens separated by runs of [ \t]; any other blank inside a token spoils the line.
    std::vector<std::string_view> tokens;
    bool spoiled = false;
    std::size_t p = 0;
    while (p < line.size() && !spoiled && tokens.size() <= max_args + 1) {
      std::size_t end = p;
      while (end < line.size() && line[end] != ' ' && line[end] != '\t') {
        if (IsBlank(line[end])) spoiled = true;
        ++end;
      }
      tokens.push_back(line.substr(p, end - p));
      p = end;
      while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
    }
    if (spoiled || p < line.size() || tokens.empty()) continue;
    const std::string_view first = tokens.front();
    if (first.size() != keyword.size() ||
        !std::equal(first.begin(), first.end(), keyword.begin(),
                    [](char a, char b) { return LowerAscii(a) == LowerAscii(b); })) {
      continue;
    }
    const std::size_t args = tokens.size() - 1;
    if (args < min_args || args > max_args) continue;
    return std::vector<std::string>(tokens.begin() + 1, tokens.end());
  }
  return std::nullopt;
}

ScannedHeaders ScanHeaders(std::string_view raw, std::size_t max_fields) {
  constexpr std::size_t kMaxName = 256;
  ScannedHeaders out;
  std::size_t at = 0;
  bool in_field = false;  // the last line was a kept field (continuations append to it)
  while (at < raw.size()) {
    std::size_t end = raw.find('\n', at);
    const std::size_t next = end == std::string_view::npos ? raw.size() : end + 1;
    if (end == std::string_view::npos) end = raw.size();
    std::string_view line = raw.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    at = next;
    if (line.empty()) break;  // the blank line: the body follows
    if (line.front() == ' ' || line.front() == '\t') {
      if (in_field)
        out.fields.back().value.append(line);
      else if (out.count == 0)
        ++out.bad_lines;
      continue;
    }
    const std::size_t colon = line.find(':');
    bool good = colon != std::string_view::npos && colon > 0 && colon <= kMaxName;
    for (std::size_t i = 0; good && i < colon; ++i) {
      const auto c = static_cast<unsigned char>(line[i]);
      good = c > 0x20 && c < 0x7F;
    }
    if (!good) {
      ++out.bad_lines;
      in_field = false;
      continue;
    }
    ++out.count;
    in_field = out.fields.size() < max_fields;
    if (in_field) {
      std::string_view value = line.substr(colon + 1);
      while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) {
        value.remove_prefix(1);
      }
      out.fields.push_back({std::string(line.substr(0, colon)), std::string(value)});
    }
  }
  out.body_offset = at;
  return out;
}

std::string OneLine(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) c = ' ';
  }
  return out;
}

}  // namespace pbem::daemon::mail
