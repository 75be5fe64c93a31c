#include "proto/codec/text_locations.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <charconv>
#include <utility>

namespace pbem::codec::internal {

namespace pb = google::protobuf;

std::string Where(std::string_view source, int line, int column) {
  std::string out(source);
  if (line < 0) return out;
  out += ':';
  out += std::to_string(line + 1);
  if (column >= 0) {
    out += ':';
    out += std::to_string(column + 1);
  }
  return out;
}

namespace {

class IgnoreErrors final : public pb::io::ErrorCollector {
 public:
  void AddError(int, pb::io::ColumnNumber, const std::string&) override {}
};

}  // namespace

// What the positions need of a token: its type, and which symbol it is (the
// tokenizer's symbols are one character; 0 for any other token).
struct TokenIndex::Token {
  pb::io::Tokenizer::TokenType type;
  char symbol;
  int line;
  int column;
};

namespace {

using Token = TokenIndex::Token;

// Tokenises like the text-format parser does, so positions match the ones
// the parser recorded.
void ConfigureLikeTheParser(pb::io::Tokenizer& tokenizer) {
  tokenizer.set_comment_style(pb::io::Tokenizer::SH_COMMENT_STYLE);
  tokenizer.set_require_space_after_number(false);
  tokenizer.set_allow_f_after_float(true);
  tokenizer.set_allow_multiline_strings(true);
}

std::vector<Token> Tokenize(std::string_view text) {
  std::vector<Token> out;
  pb::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  IgnoreErrors errors;
  pb::io::Tokenizer tokenizer(&input, &errors);
  ConfigureLikeTheParser(tokenizer);
  while (tokenizer.Next()) {
    const auto& t = tokenizer.current();
    const bool symbol = t.type == pb::io::Tokenizer::TYPE_SYMBOL && t.text.size() == 1;
    out.push_back(Token{t.type, symbol ? t.text[0] : '\0', t.line, t.column});
  }
  return out;
}

bool IsSymbol(const Token& t, char s) { return t.symbol == s; }

// Skips one value starting at tokens[i] (a message in braces or angle
// brackets, a list, or a scalar that may span tokens like "- 1" or
// "a" "b"); returns the index after it. Stops at ',' or a closing bracket
// at depth 0.
std::size_t SkipValue(const std::vector<Token>& tokens, std::size_t i) {
  int depth = 0;
  for (; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (IsSymbol(t, '{') || IsSymbol(t, '<') || IsSymbol(t, '[')) {
      ++depth;
    } else if (IsSymbol(t, '}') || IsSymbol(t, '>') || IsSymbol(t, ']')) {
      if (depth == 0) return i;
      --depth;
      if (depth == 0) return i + 1;
    } else if (depth == 0 && (IsSymbol(t, ',') || IsSymbol(t, ';'))) {
      return i;
    } else if (depth == 0 && i + 1 < tokens.size()) {
      // A scalar ends where the next token starts a new field: an
      // identifier directly after a complete scalar token.
      const Token& next = tokens[i + 1];
      const bool sign = IsSymbol(t, '-');
      const bool string_continues =
          t.type == pb::io::Tokenizer::TYPE_STRING && next.type == pb::io::Tokenizer::TYPE_STRING;
      if (!sign && !string_continues) return i + 1;
    }
  }
  return i;
}

}  // namespace

TokenIndex::TokenIndex(std::string_view text) : tokens_(Tokenize(text)) {}
TokenIndex::~TokenIndex() = default;
TokenIndex::TokenIndex(TokenIndex&&) noexcept = default;
TokenIndex& TokenIndex::operator=(TokenIndex&&) noexcept = default;

std::optional<std::size_t> TokenIndex::Find(TextPos pos) const {
  // The tokenizer yields tokens in text order: (line, column) increases.
  const auto it =
      std::lower_bound(tokens_.begin(), tokens_.end(), pos, [](const Token& t, const TextPos& p) {
        return t.line < p.line || (t.line == p.line && t.column < p.column);
      });
  if (it == tokens_.end() || it->line != pos.line || it->column != pos.column) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(it - tokens_.begin());
}

TextPos TokenBefore(std::string_view text, TextPos pos) {
  // Reads tokens only up to `pos` (the parser's error is often early in a long text).
  pb::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  IgnoreErrors errors;
  pb::io::Tokenizer tokenizer(&input, &errors);
  ConfigureLikeTheParser(tokenizer);
  TextPos out = pos;
  while (tokenizer.Next()) {
    const auto& t = tokenizer.current();
    if (t.line > pos.line || (t.line == pos.line && t.column >= pos.column)) break;
    out = TextPos{t.line, t.column};
  }
  return out;
}

std::vector<TextPos> ElementPositions(const TokenIndex& index, const ParseInfoTree* tree,
                                      const pb::FieldDescriptor* field) {
  std::vector<TextPos> out;
  if (tree == nullptr || field == nullptr || !field->is_repeated()) return out;
  std::vector<TextPos> occurrences;
  for (int i = 0;; ++i) {
    const auto loc = tree->GetLocation(field, i);
    if (loc.line < 0) break;
    occurrences.push_back(TextPos{loc.line, loc.column});
  }
  if (occurrences.empty()) return out;

  const std::vector<Token>& tokens = index.tokens();
  for (const TextPos& occ : occurrences) {
    const std::optional<std::size_t> at = index.Find(occ);
    if (!at) {
      out.push_back(occ);
      continue;
    }
    std::size_t i = *at;
    // The field name: an identifier, or "[full.name]" for an extension.
    if (IsSymbol(tokens[i], '[')) {
      while (i < tokens.size() && !IsSymbol(tokens[i], ']')) ++i;
    }
    ++i;
    if (i < tokens.size() && IsSymbol(tokens[i], ':')) ++i;
    if (i >= tokens.size() || !IsSymbol(tokens[i], '[')) {
      out.push_back(occ);  // "field: value" or "field { ... }": one element
      continue;
    }
    ++i;  // into the list
    while (i < tokens.size() && !IsSymbol(tokens[i], ']')) {
      out.push_back(TextPos{tokens[i].line, tokens[i].column});
      i = SkipValue(tokens, i);
      if (i < tokens.size() && IsSymbol(tokens[i], ',')) ++i;
    }
  }
  return out;
}

TextPos FieldPosition(const TokenIndex& tokens, const ParseInfoTree* tree,
                      const pb::FieldDescriptor* field, int index) {
  if (tree == nullptr || field == nullptr) return {};
  if (!field->is_repeated()) {
    const auto loc = tree->GetLocation(field, -1);
    return TextPos{loc.line, loc.column};
  }
  if (index < 0) index = 0;
  const std::vector<TextPos> all = ElementPositions(tokens, tree, field);
  if (static_cast<std::size_t>(index) < all.size()) return all[static_cast<std::size_t>(index)];
  if (!all.empty()) return all.front();
  return {};
}

std::optional<std::vector<PathSegment>> ParsePath(std::string_view path) {
  std::vector<PathSegment> out;
  std::size_t i = 0;
  while (i < path.size()) {
    PathSegment seg;
    const std::size_t start = i;
    while (i < path.size() && path[i] != '.' && path[i] != '[') ++i;
    seg.name = std::string(path.substr(start, i - start));
    if (seg.name.empty()) return std::nullopt;
    if (i < path.size() && path[i] == '[') {
      const std::size_t close = path.find(']', i);
      if (close == std::string_view::npos) return std::nullopt;
      std::string_view digits = path.substr(i + 1, close - i - 1);
      // Tolerate stray quotes around the index ("cells[5"]").
      while (!digits.empty() && digits.back() == '"') digits.remove_suffix(1);
      int value = 0;
      const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      if (ec != std::errc() || ptr != digits.data() + digits.size() || value < 0) {
        return std::nullopt;
      }
      seg.index = value;
      i = close + 1;
    }
    out.push_back(std::move(seg));
    if (i < path.size()) {
      if (path[i] != '.') return std::nullopt;
      ++i;
      if (i == path.size()) return std::nullopt;
    }
  }
  if (out.empty()) return std::nullopt;
  return out;
}

std::string FormatPath(const std::vector<PathSegment>& segments) {
  std::string out;
  for (const PathSegment& seg : segments) {
    if (!out.empty()) out += '.';
    out += seg.name;
    if (seg.index) out += "[" + std::to_string(*seg.index) + "]";
  }
  return out;
}

const TokenIndex& Locator::Tokens(std::size_t file) const {
  if (!tokens_[file]) tokens_[file].emplace(sources_[file].text);
  return *tokens_[file];
}

Error Locator::At(std::string_view path, std::string_view message) const {
  const auto parsed = ParsePath(path);
  if (!parsed || sources_.empty()) {
    const std::string where = sources_.size() == 1 ? sources_.front().name : fallback_;
    return Error{where, std::string(path) + ": " + std::string(message)};
  }
  std::vector<PathSegment> local = *parsed;

  // One cursor per file that may hold the element; the walk narrows them
  // down to one file as soon as a list index or a set field decides it.
  struct Cursor {
    std::size_t file;
    const pb::Message* message;
    const ParseInfoTree* tree;
  };
  std::vector<Cursor> cursors;
  for (std::size_t f = 0; f < sources_.size(); ++f) {
    cursors.push_back(Cursor{f, sources_[f].message, sources_[f].tree});
  }
  const pb::Descriptor* desc = sources_.front().message->GetDescriptor();
  std::optional<std::size_t> best_file;
  TextPos best;
  const auto note = [&](const Cursor& c, TextPos pos) {
    if (pos.known()) {
      best_file = c.file;
      best = pos;
    }
  };

  for (std::size_t k = 0; k < local.size(); ++k) {
    PathSegment& seg = local[k];
    const pb::FieldDescriptor* field = desc->FindFieldByName(seg.name);
    if (field == nullptr) break;
    const bool last = k + 1 == local.size();
    const bool is_message = field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE;

    if (field->is_repeated()) {
      if (seg.index) {
        // Find the file that contributed merged element `index`.
        int index = *seg.index;
        std::optional<Cursor> found;
        for (const Cursor& c : cursors) {
          const int n = c.message->GetReflection()->FieldSize(*c.message, field);
          if (index < n) {
            found = c;
            break;
          }
          index -= n;
        }
        if (!found) break;
        seg.index = index;
        cursors = {*found};
        const Cursor& c = cursors.front();
        note(c, FieldPosition(Tokens(c.file), c.tree, field, index));
        if (!is_message || last) break;
        const pb::Reflection* refl = c.message->GetReflection();
        cursors.front().message = &refl->GetRepeatedMessage(*c.message, field, index);
        cursors.front().tree = c.tree ? c.tree->GetTreeForNested(field, index) : nullptr;
        desc = field->message_type();
        continue;
      }
      // The list as a whole ("terrain[3].move_costs" lacks a class): the
      // message holding it is the place. At the top level, the first file
      // that has elements of it.
      for (const Cursor& c : cursors) {
        if (c.message->GetReflection()->FieldSize(*c.message, field) > 0) {
          cursors = {c};
          if (!best_file) note(c, FieldPosition(Tokens(c.file), c.tree, field, 0));
          break;
        }
      }
      break;
    }

    // A singular field: with several candidate files, keep those that set it
    // (a later file overrides an earlier one).
    std::vector<Cursor> setting;
    for (const Cursor& c : cursors) {
      if (c.message->GetReflection()->HasField(*c.message, field)) setting.push_back(c);
    }
    if (setting.empty()) break;
    if (!is_message || last) {
      const Cursor& c = setting.back();
      cursors = {c};
      note(c, FieldPosition(Tokens(c.file), c.tree, field, -1));
      break;
    }
    cursors.clear();
    for (const Cursor& c : setting) {
      if (setting.size() == 1) note(c, FieldPosition(Tokens(c.file), c.tree, field, -1));
      cursors.push_back(Cursor{c.file, &c.message->GetReflection()->GetMessage(*c.message, field),
                               c.tree ? c.tree->GetTreeForNested(field, -1) : nullptr});
    }
    desc = field->message_type();
  }

  std::string where;
  std::string shown = std::string(path);
  if (best_file) {
    where = Where(sources_[*best_file].name, best);
    shown = FormatPath(local);
  } else if (cursors.size() == 1) {
    where = sources_[cursors.front().file].name;
    shown = FormatPath(local);
  } else if (sources_.size() == 1) {
    where = sources_.front().name;
  } else {
    where = fallback_;
  }
  return Error{where, shown + ": " + std::string(message)};
}

Result<MergedTexts> ParseAndMerge(const std::vector<NamedText>& files, pb::Message& merged) {
  merged.Clear();
  MergedTexts out;
  std::vector<Error> errors;
  for (const NamedText& file : files) {
    out.messages.emplace_back(merged.New());
    out.trees.push_back(std::make_unique<ParseInfoTree>());
    auto parsed = ParseText(file.text, file.name, *out.messages.back(), out.trees.back().get());
    if (!parsed.ok()) errors.insert(errors.end(), parsed.errors().begin(), parsed.errors().end());
  }
  if (!errors.empty()) return errors;
  for (std::size_t i = 0; i < files.size(); ++i) {
    merged.MergeFrom(*out.messages[i]);
    out.sources.push_back(
        TextSource{files[i].name, files[i].text, out.messages[i].get(), out.trees[i].get()});
  }
  return out;
}

}  // namespace pbem::codec::internal
