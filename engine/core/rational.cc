#include "engine/core/rational.h"

#include <charconv>

namespace pbem::engine {

std::string Rational::ToString() const {
  if (den_ == 1) return std::to_string(num_);
  return std::to_string(num_) + "/" + std::to_string(den_);
}

namespace {

std::optional<std::int64_t> ParseInt(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<Rational> ParseRational(std::string_view text) {
  if (text.size() > 24) return std::nullopt;
  if (const auto slash = text.find('/'); slash != std::string_view::npos) {
    const auto n = ParseInt(text.substr(0, slash));
    const auto d = ParseInt(text.substr(slash + 1));
    if (!n || !d || *d == 0) return std::nullopt;
    return Rational(*n, *d);
  }
  if (const auto dot = text.find('.'); dot != std::string_view::npos) {
    const std::string_view whole = text.substr(0, dot);
    const std::string_view frac = text.substr(dot + 1);
    if (frac.empty() || frac.size() > 6 || frac.front() == '-' || frac.front() == '+') {
      return std::nullopt;
    }
    const bool negative = !whole.empty() && whole.front() == '-';
    const auto w = whole.empty() || whole == "-" ? std::optional<std::int64_t>(0) : ParseInt(whole);
    const auto f = ParseInt(frac);
    if (!w || !f) return std::nullopt;
    std::int64_t scale = 1;
    for (std::size_t i = 0; i < frac.size(); ++i) scale *= 10;
    const std::int64_t magnitude = (*w < 0 ? -*w : *w) * scale + *f;
    return Rational(negative ? -magnitude : magnitude, scale);
  }
  const auto n = ParseInt(text);
  if (!n) return std::nullopt;
  return Rational(*n);
}

}  // namespace pbem::engine
