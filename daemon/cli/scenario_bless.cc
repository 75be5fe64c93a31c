#include <google/protobuf/text_format.h>

#include <fstream>

#include "daemon/cli/scenario_parts.h"

namespace pbem::cli::scenario {
namespace {

bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Skips a comment or a string literal starting at `i`; returns the index
// after it, or `i` when there is none there.
std::size_t SkipCommentOrString(const std::string& text, std::size_t i) {
  if (text[i] == '#') {
    const std::size_t eol = text.find('\n', i);
    return eol == std::string::npos ? text.size() : eol + 1;
  }
  if (text[i] == '"' || text[i] == '\'') {
    const char quote = text[i];
    std::size_t j = i + 1;
    while (j < text.size() && text[j] != quote && text[j] != '\n') {
      j += text[j] == '\\' ? 2 : 1;
    }
    return std::min(j + 1, text.size());
  }
  return i;
}

// The [begin, end) range of the top-level `expect { ... }` (or `expect: {`,
// `expect < ... >`) block of a text-format file, from the `e` of `expect` to
// just after the closing bracket.
std::optional<std::pair<std::size_t, std::size_t>> FindTopLevelBlock(const std::string& text,
                                                                     std::string_view name) {
  int depth = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    if (const std::size_t after = SkipCommentOrString(text, i); after != i) {
      i = after;
      continue;
    }
    const char c = text[i];
    if (c == '{' || c == '<') {
      ++depth;
      ++i;
      continue;
    }
    if (c == '}' || c == '>') {
      --depth;
      ++i;
      continue;
    }
    if (!IsIdentChar(c)) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && IsIdentChar(text[j])) ++j;
    if (depth != 0 || std::string_view(text).substr(i, j - i) != name) {
      i = j;
      continue;
    }
    // Found the field name at top level: find its opening bracket.
    std::size_t k = j;
    const auto skip_blank = [&] {
      while (k < text.size()) {
        if (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\r') {
          ++k;
        } else if (text[k] == '#') {
          k = SkipCommentOrString(text, k);
        } else {
          break;
        }
      }
    };
    skip_blank();
    if (k < text.size() && text[k] == ':') {
      ++k;
      skip_blank();
    }
    if (k >= text.size() || (text[k] != '{' && text[k] != '<')) return std::nullopt;
    int inner = 0;
    while (k < text.size()) {
      if (const std::size_t after = SkipCommentOrString(text, k); after != k) {
        k = after;
        continue;
      }
      if (text[k] == '{' || text[k] == '<') ++inner;
      if (text[k] == '}' || text[k] == '>') {
        if (--inner == 0) return std::make_pair(i, k + 1);
      }
      ++k;
    }
    return std::nullopt;  // unbalanced; the parser would have refused it
  }
  return std::nullopt;
}

}  // namespace

std::string ExpectBlockText(const v1::Expect& expect) {
  gpb::TextFormat::Printer printer;
  printer.SetInitialIndentLevel(1);
  printer.SetUseShortRepeatedPrimitives(true);
  std::string body;
  printer.PrintToString(expect, &body);
  return "expect {\n" + body + "}";
}

// Rewrites the expect block of `file`; returns an error message or "".
std::string Bless(const fs::path& file, const v1::Expect& actual) {
  const codec::Result<std::string> bytes = codec::ReadFile(file);
  if (!bytes.ok()) return bytes.ErrorText();
  std::string text = bytes.value();
  const std::string block = ExpectBlockText(actual);
  if (const auto range = FindTopLevelBlock(text, "expect")) {
    text.replace(range->first, range->second - range->first, block);
  } else {
    if (!text.empty() && text.back() != '\n') text += '\n';
    text += block + "\n";
  }
  const fs::path tmp = file.string() + ".bless-tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) return "cannot write " + tmp.string();
  }
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) return "cannot replace " + file.string() + ": " + ec.message();
  return "";
}

}  // namespace pbem::cli::scenario
