#include "daemon/mail/html_text.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace pbem::daemon::mail {
namespace {

char LowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'; }

// Elements that begin and end a line of text.
bool IsBlock(std::string_view name) {
  static constexpr std::array<std::string_view, 24> kBlocks = {
      "p",  "div",     "li",      "tr",     "table",  "ul",     "ol",   "dl",
      "dt", "dd",      "h1",      "h2",     "h3",     "h4",     "h5",   "h6",
      "hr", "section", "article", "header", "footer", "center", "form", "address"};
  return std::find(kBlocks.begin(), kBlocks.end(), name) != kBlocks.end();
}

// Elements whose contents are not text for a reader.
bool IsDropped(std::string_view name) {
  return name == "script" || name == "style" || name == "title" || name == "template";
}

// The text being built, line by line, with the current quoting.
class Writer {
 public:
  explicit Writer(std::size_t max) : max_(max) {}

  bool Full() const { return out_.size() >= max_; }
  void set_depth(int depth) { depth_ = depth; }
  int depth() const { return depth_; }

  // Text of the line: a pending collapsed space first, the quoting before the first byte.
  void Text(std::string_view text) {
    if (pending_space_ && has_content_) out_ += ' ';
    pending_space_ = false;
    Prefix();
    out_.append(text);
    has_content_ = true;
  }
  // White space outside <pre>: one space between words, none at the start of a line.
  void Space() { pending_space_ = true; }
  // Ends the current line, empty or not (<br>, a newline in <pre>).
  void Break() {
    Prefix();
    out_ += '\n';
    line_open_ = false;
    has_content_ = false;
    pending_space_ = false;
  }
  // Ends the current line if it holds text (the edges of a block).
  void EndLine() {
    if (has_content_) Break();
    pending_space_ = false;
  }

  std::string Take() {
    if (has_content_) Break();
    if (out_.size() > max_) {
      std::size_t cut = max_;
      // Not in the middle of a UTF-8 sequence.
      while (cut > 0 && (static_cast<unsigned char>(out_[cut]) & 0xC0) == 0x80) --cut;
      out_.resize(cut);
    }
    return std::move(out_);
  }

 private:
  void Prefix() {
    if (line_open_) return;
    for (int i = 0; i < std::min(depth_, kMaxHtmlQuoteDepth); ++i) out_ += "> ";
    line_open_ = true;
  }

  std::string out_;
  std::size_t max_;
  int depth_ = 0;
  bool line_open_ = false;    // the quoting of the current line is written
  bool has_content_ = false;  // text follows it
  bool pending_space_ = false;
};

void AppendUtf8(std::uint32_t code, std::string& out) {
  if (code == 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) code = 0xFFFD;
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// The entity at html[at] == '&': its text and length, or an empty text when it is none we
// decode (the '&' is then text).
struct Entity {
  std::string text;
  std::size_t length = 0;
};
Entity DecodeEntity(std::string_view html, std::size_t at) {
  constexpr std::size_t kMaxEntity = 12;
  std::size_t end = at + 1;
  while (end < html.size() && end - at <= kMaxEntity && (IsAlnum(html[end]) || html[end] == '#')) {
    ++end;
  }
  if (end >= html.size() || html[end] != ';' || end == at + 1) return {};
  const std::string_view name = html.substr(at + 1, end - at - 1);
  Entity entity;
  entity.length = end - at + 1;
  if (name[0] == '#') {
    const bool hex = name.size() > 1 && (name[1] == 'x' || name[1] == 'X');
    const std::string_view digits = name.substr(hex ? 2 : 1);
    if (digits.empty() || digits.size() > 8) return {};
    std::uint32_t code = 0;
    for (char c : digits) {
      int value = -1;
      if (c >= '0' && c <= '9') value = c - '0';
      if (hex && c >= 'a' && c <= 'f') value = c - 'a' + 10;
      if (hex && c >= 'A' && c <= 'F') value = c - 'A' + 10;
      if (value < 0) return {};
      code = code * (hex ? 16 : 10) + static_cast<std::uint32_t>(value);
    }
    if (code == 0xA0) code = ' ';  // a non-breaking space is a space in orders
    AppendUtf8(code, entity.text);
    return entity;
  }
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kNamed = {
      {{"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}, {"nbsp", " "}}};
  for (const auto& [entity_name, text] : kNamed) {
    if (name == entity_name) {
      entity.text = text;
      return entity;
    }
  }
  return {};
}

// The offset just past "</name" ... ">" from `from` (case-insensitive), or the end of the input.
std::size_t SkipContents(std::string_view html, std::size_t from, std::string_view name) {
  for (std::size_t at = html.find('<', from); at != std::string_view::npos;
       at = html.find('<', at + 1)) {
    if (at + 1 + name.size() >= html.size() || html[at + 1] != '/') continue;
    bool match = true;
    for (std::size_t i = 0; i < name.size() && match; ++i) {
      match = LowerAscii(html[at + 2 + i]) == name[i];
    }
    if (!match) continue;
    const std::size_t close = html.find('>', at);
    return close == std::string_view::npos ? html.size() : close + 1;
  }
  return html.size();
}

}  // namespace

std::string HtmlToText(std::string_view html, std::size_t max_output) {
  Writer out(max_output);
  int pre = 0;
  int depth = 0;  // <blockquote> levels open (the quoting written is capped, not this count)
  std::size_t at = 0;
  while (at < html.size() && !out.Full()) {
    const char c = html[at];
    if (c == '<' && at + 1 < html.size()) {
      const char next = html[at + 1];
      if (next == '!' || next == '?') {  // a comment, a doctype, <![if ...]>
        const bool comment = html.substr(at, 4) == "<!--";
        const std::size_t end = comment ? html.find("-->", at + 4) : html.find('>', at);
        at = end == std::string_view::npos ? html.size() : end + (comment ? 3 : 1);
        continue;
      }
      const bool closing = next == '/';
      std::size_t name_at = at + (closing ? 2 : 1);
      if (name_at < html.size() && IsAlpha(html[name_at])) {
        // A tag: its name, lower-case (at most 16 bytes kept), then to its '>', over quoted
        // attribute values.
        std::string name;
        std::size_t i = name_at;
        while (i < html.size() && !IsSpace(html[i]) && html[i] != '/' && html[i] != '>') {
          if (name.size() < 16) name += LowerAscii(html[i]);
          ++i;
        }
        char quote = 0;
        bool after_equals = false;
        for (; i < html.size(); ++i) {
          const char t = html[i];
          if (quote != 0) {
            if (t == quote) quote = 0;
          } else if (t == '>') {
            break;
          } else if ((t == '"' || t == '\'') && after_equals) {
            quote = t;
          } else if (!IsSpace(t)) {
            after_equals = t == '=';
          }
        }
        at = i < html.size() ? i + 1 : html.size();
        if (!closing && IsDropped(name)) {
          at = SkipContents(html, at, name);
        } else if (name == "br") {
          out.Break();
        } else if (name == "blockquote") {
          out.EndLine();
          depth = closing ? std::max(0, depth - 1) : depth + 1;
          out.set_depth(depth);
        } else if (name == "pre") {
          out.EndLine();
          pre = closing ? std::max(0, pre - 1) : pre + 1;
        } else if (IsBlock(name)) {
          out.EndLine();
        } else if (name == "td" || name == "th") {
          out.Space();
        }
        continue;
      }
    }
    if (c == '&') {
      const Entity entity = DecodeEntity(html, at);
      if (entity.length > 0) {
        out.Text(entity.text);
        at += entity.length;
        continue;
      }
    }
    if (IsSpace(c)) {
      if (pre == 0) {
        out.Space();
      } else if (c == '\n') {
        out.Break();
      } else if (c != '\r') {
        out.Text(std::string_view(&html[at], 1));
      }
      ++at;
      continue;
    }
    if (static_cast<unsigned char>(c) == 0xC2 && at + 1 < html.size() &&
        static_cast<unsigned char>(html[at + 1]) == 0xA0) {
      out.Text(" ");  // U+00A0 written as it is
      at += 2;
      continue;
    }
    // A run of plain bytes at once.
    std::size_t end = at + 1;
    while (end < html.size() && html[end] != '<' && html[end] != '&' && !IsSpace(html[end]) &&
           static_cast<unsigned char>(html[end]) != 0xC2) {
      ++end;
    }
    out.Text(html.substr(at, end - at));
    at = end;
  }
  return out.Take();
}

}  // namespace pbem::daemon::mail
