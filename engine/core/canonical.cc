#include "engine/core/canonical.h"

#include <limits>

namespace pbem::engine {

void CanonicalWriter::Sep() {
  if (!fresh_) out_ += ' ';
  fresh_ = false;
}

CanonicalWriter& CanonicalWriter::Word(std::string_view w) {
  Sep();
  out_ += w;
  return *this;
}

CanonicalWriter& CanonicalWriter::Id(std::string_view id) {
  Sep();
  out_ += std::to_string(id.size());
  out_ += ':';
  out_ += id;
  return *this;
}

CanonicalWriter& CanonicalWriter::Int(std::int64_t v) {
  Sep();
  out_ += std::to_string(v);
  return *this;
}

void CanonicalWriter::End() {
  out_ += '\n';
  fresh_ = true;
}

bool CanonicalReader::Sep() {
  if (fresh_) {
    fresh_ = false;
    return true;
  }
  if (rest_.empty() || rest_.front() != ' ') return false;
  rest_.remove_prefix(1);
  return true;
}

std::optional<std::string_view> CanonicalReader::Word() {
  if (!Sep()) return std::nullopt;
  std::size_t n = 0;
  while (n < rest_.size() && rest_[n] != ' ' && rest_[n] != '\n') ++n;
  if (n == 0) return std::nullopt;
  const std::string_view word = rest_.substr(0, n);
  rest_.remove_prefix(n);
  return word;
}

bool CanonicalReader::Expect(std::string_view word) {
  const std::optional<std::string_view> w = Word();
  return w && *w == word;
}

std::optional<std::int64_t> CanonicalReader::Int() {
  const std::optional<std::string_view> w = Word();
  if (!w) return std::nullopt;
  std::string_view digits = *w;
  const bool negative = digits.front() == '-';
  if (negative) digits.remove_prefix(1);
  if (digits.empty() || digits.size() > 19 || (digits.size() > 1 && digits.front() == '0')) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (value > kMax + (negative ? 1 : 0)) return std::nullopt;
  if (negative && value == 0) return std::nullopt;  // "-0" is not canonical
  if (negative) return static_cast<std::int64_t>(0 - value);
  return static_cast<std::int64_t>(value);
}

std::optional<std::int64_t> CanonicalReader::IntIn(std::int64_t min, std::int64_t max) {
  const std::optional<std::int64_t> v = Int();
  if (!v || *v < min || *v > max) return std::nullopt;
  return v;
}

std::optional<std::string> CanonicalReader::Id() {
  if (!Sep()) return std::nullopt;
  std::size_t n = 0;
  std::size_t length = 0;
  while (n < rest_.size() && n < 10 && rest_[n] >= '0' && rest_[n] <= '9') {
    length = length * 10 + static_cast<std::size_t>(rest_[n] - '0');
    ++n;
  }
  if (n == 0 || (n > 1 && rest_.front() == '0') || n >= rest_.size() || rest_[n] != ':') {
    return std::nullopt;
  }
  if (length > rest_.size() - n - 1) return std::nullopt;
  std::string id(rest_.substr(n + 1, length));
  for (const char c : id) {
    if (c == '\n') ++line_;  // an id may hold a newline; keep line numbers honest
  }
  rest_.remove_prefix(n + 1 + length);
  return id;
}

bool CanonicalReader::End() {
  if (rest_.empty() || rest_.front() != '\n') return false;
  rest_.remove_prefix(1);
  ++line_;
  fresh_ = true;
  return true;
}

}  // namespace pbem::engine
