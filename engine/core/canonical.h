// Canonical text: integers and ids only, for bytes that must be equal for equal values under
// every compiler (hashes, stored states). Tokens are separated by one space, lines end with
// '\n'; an id is written length-prefixed ("5:b_hq1"), so no id can fake a separator; a word
// is a bare token ("state", "-"). CanonicalReader reads it back from untrusted bytes: every
// read is bounded by what is left, and a failure names the line.
#ifndef PBEM_ENGINE_CORE_CANONICAL_H_
#define PBEM_ENGINE_CORE_CANONICAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pbem::engine {

class CanonicalWriter {
 public:
  CanonicalWriter& Word(std::string_view w);
  CanonicalWriter& Id(std::string_view id);
  CanonicalWriter& Int(std::int64_t v);
  CanonicalWriter& Opt(const std::optional<std::int64_t>& v) { return v ? Int(*v) : Word("-"); }
  void End();
  std::string Take() { return std::move(out_); }

 private:
  void Sep();
  std::string out_;
  bool fresh_ = true;
};

class CanonicalReader {
 public:
  explicit CanonicalReader(std::string_view bytes) : rest_(bytes) {}

  // Each reads the next token of the current line; nullopt (or false) when it is missing or
  // not of that form. Word never reads past the line; Id's length is bounded by the bytes left.
  std::optional<std::string_view> Word();
  bool Expect(std::string_view word);  // the next token is exactly `word`
  std::optional<std::string> Id();
  std::optional<std::int64_t> Int();
  std::optional<std::int64_t> IntIn(std::int64_t min, std::int64_t max);
  // True when the current line ends here; moves to the next line.
  bool End();
  bool AtEnd() const { return rest_.empty(); }
  // True when the current line has no token left.
  bool AtLineEnd() const { return !rest_.empty() && rest_.front() == '\n'; }
  int line() const { return line_; }

 private:
  bool Sep();
  std::string_view rest_;
  int line_ = 1;
  bool fresh_ = true;
};

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_CORE_CANONICAL_H_
