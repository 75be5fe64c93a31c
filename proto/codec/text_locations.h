// Private to the codec: where things are in text-format inputs.
//
// The text-format parser records, per field, where each occurrence starts
// (ParseInfoTree). A list written with the bracket syntax ("cells: [...]")
// is one occurrence, so the position of its N-th element is found by
// re-tokenising the text from the occurrence. Locator turns a field path of a
// message merged from several files ("terrain[3].move_costs", indices into
// the merged lists) into "file:line:col" and the path within that file.
#ifndef PBEM_PROTO_CODEC_TEXT_LOCATIONS_H_
#define PBEM_PROTO_CODEC_TEXT_LOCATIONS_H_

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "proto/codec/codec.h"

namespace pbem::codec::internal {

using ParseInfoTree = google::protobuf::TextFormat::ParseInfoTree;

// A 0-based position as the protobuf tokenizer counts it (tabs advance to
// the next multiple of 8). line < 0: unknown.
struct TextPos {
  int line = -1;
  int column = -1;
  bool known() const { return line >= 0; }
};

// "source:line:col" with 1-based numbers, or "source" when line < 0.
std::string Where(std::string_view source, int line, int column);
inline std::string Where(std::string_view source, TextPos pos) {
  return Where(source, pos.line, pos.column);
}

// Parses `bytes` as text format into `out` (cleared first), recording
// locations into `locations` when not null. Errors: "source:line:col".
Result<std::monostate> ParseText(std::string_view bytes, std::string_view source,
                                 google::protobuf::Message& out, ParseInfoTree* locations);

// Start of the last token that starts before `pos` (pos itself if none).
TextPos TokenBefore(std::string_view text, TextPos pos);

// One text-format input: its name, its text and what the parser recorded.
struct TextSource {
  std::string name;
  std::string_view text;
  const google::protobuf::Message* message = nullptr;
  const ParseInfoTree* tree = nullptr;
};

// The tokens of one text, as the text-format parser reads them, in text
// order. Built once per text and reused for every position asked of it:
// tokenising again per field made an input with N errors cost N whole
// tokenisations.
class TokenIndex {
 public:
  struct Token;
  explicit TokenIndex(std::string_view text);
  ~TokenIndex();
  TokenIndex(TokenIndex&&) noexcept;
  TokenIndex& operator=(TokenIndex&&) noexcept;

  const std::vector<Token>& tokens() const { return tokens_; }
  // The index of the token that starts at `pos`, if one does.
  std::optional<std::size_t> Find(TextPos pos) const;

 private:
  std::vector<Token> tokens_;
};

// Start of each element of the repeated `field` in `tree` (a tree of
// `text`, tokenised as `tokens`), in element order; handles "field: [a, b]"
// lists.
std::vector<TextPos> ElementPositions(const TokenIndex& tokens, const ParseInfoTree* tree,
                                      const google::protobuf::FieldDescriptor* field);

// Start of element `index` of repeated `field` (index -1: a singular field).
TextPos FieldPosition(const TokenIndex& tokens, const ParseInfoTree* tree,
                      const google::protobuf::FieldDescriptor* field, int index);

// A field path "a.b[2].c", parsed.
struct PathSegment {
  std::string name;
  std::optional<int> index;
};
std::optional<std::vector<PathSegment>> ParsePath(std::string_view path);
std::string FormatPath(const std::vector<PathSegment>& segments);

// Text files of one message type parsed each into its own message and merged, in order, into
// one (repeated fields append, a later file's singular field overrides): a ruleset directory.
// `sources` point into `messages` and `trees`, kept alive here for a Locator.
struct MergedTexts {
  std::vector<std::unique_ptr<google::protobuf::Message>> messages;
  std::vector<std::unique_ptr<ParseInfoTree>> trees;
  std::vector<TextSource> sources;
};
// Parses every file (errors of all of them, "file:line:col") and merges them into `merged`
// (cleared first), which also gives the message type.
Result<MergedTexts> ParseAndMerge(const std::vector<NamedText>& files,
                                  google::protobuf::Message& merged);

// Maps field paths of a message merged (MergeFrom, in order) from `sources`
// to the file and line they came from. With no sources, errors name
// `fallback` and the path as given.
class Locator {
 public:
  Locator(std::vector<TextSource> sources, std::string fallback)
      : sources_(std::move(sources)), fallback_(std::move(fallback)), tokens_(sources_.size()) {}

  // An error "file:line:col" + "path-in-that-file: message". The line is the
  // deepest element of the path that the file spells out (for a missing
  // field, the line of the message that should hold it).
  Error At(std::string_view path, std::string_view message) const;

 private:
  // The tokens of source `file`, made on first use (most inputs have no
  // error, and then no position is ever asked).
  const TokenIndex& Tokens(std::size_t file) const;

  std::vector<TextSource> sources_;
  std::string fallback_;
  mutable std::vector<std::optional<TokenIndex>> tokens_;
};

}  // namespace pbem::codec::internal

#endif  // PBEM_PROTO_CODEC_TEXT_LOCATIONS_H_
