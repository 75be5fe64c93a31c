#include "templates/system_words.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <kainjow/mustache.hpp>
#include <optional>
#include <utility>

#include "proto/codec/shown.h"
#include "templates/french_typography.h"

namespace pbem::templates {

namespace mst = kainjow::mustache;

namespace {

// The length units of game_system::Arg that units.table must word.
constexpr std::array<std::string_view, 2> kLengthUnits{game_system::kThousandthsOfAnInch,
                                                       game_system::kThousandthsOfACm};
constexpr std::string_view kDecimalMark = "decimal_mark";
// The language whose tables follow templates/french_typography.h's rule (LanguageCode).
constexpr std::string_view kFrench = "fr";

std::string Identity(const std::string& s) { return s; }

std::string RenderPlain(const std::string& sentence, const mst::data& fields) {
  mst::mustache tmpl(sentence);
  tmpl.set_custom_escape(Identity);
  return tmpl.render(fields);
}

std::optional<std::int64_t> ParseInt(const std::string& text) {
  std::int64_t n = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, n);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return n;
}

// A value that can name a mustache section ("not_behind", "confused"): lower-case letters,
// digits and '_'.
bool IsWord(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

Status LoadTable(const std::filesystem::path& path, bool french, SentenceTable* table) {
  std::string text;
  if (Status s = ReadTemplateFile(path, &text); !s.ok) return s;
  if (french) {
    if (Status s = CheckFrenchSpacing(path, text); !s.ok) return s;
  }
  return ParseSentenceTable(path, text, table);
}

}  // namespace

std::string ThousandthsText(std::int64_t thousandths, std::string_view decimal_mark) {
  // Unsigned so that the most negative value has a magnitude.
  const bool negative = thousandths < 0;
  const std::uint64_t size = negative ? 0 - static_cast<std::uint64_t>(thousandths)
                                      : static_cast<std::uint64_t>(thousandths);
  std::string out = (negative ? "-" : "") + std::to_string(size / 1000);
  std::uint64_t fraction = size % 1000;
  if (fraction == 0) return out;
  std::string digits = std::to_string(1000 + fraction).substr(1);  // "500", "025", "001"
  while (digits.back() == '0') digits.pop_back();
  return out + std::string(decimal_mark) + digits;
}

Status SystemWords::Load(const std::filesystem::path& mail_dir, std::string_view language,
                         const game_system::GameSystem& system, SystemWords* out) {
  SystemWords loaded;
  const bool french = language == kFrench;
  const std::filesystem::path systems = mail_dir / std::string(language) / "systems";
  const std::filesystem::path reasons = systems / std::string(system.name()) / "reasons.table";
  if (Status s = LoadTable(reasons, french, &loaded.reasons_); !s.ok) return s;
  const std::vector<std::string> codes = system.ReasonCodes();
  for (const std::string& code : codes) {
    if (loaded.reasons_.find(code) == loaded.reasons_.end()) {
      return Status::Error(reasons.string() + ": no sentence for '" + code + "'");
    }
  }
  for (const auto& [key, sentence] : loaded.reasons_) {
    if (std::find(codes.begin(), codes.end(), key) == codes.end()) {
      return Status::Error(reasons.string() + ": '" + key + "' is not a reason code of " +
                           std::string(system.name()));
    }
  }
  const std::filesystem::path units = systems / "units.table";
  if (Status s = LoadTable(units, french, &loaded.units_); !s.ok) return s;
  for (const auto& [key, sentence] : loaded.units_) {
    if (key != kDecimalMark &&
        std::find(kLengthUnits.begin(), kLengthUnits.end(), key) == kLengthUnits.end()) {
      return Status::Error(units.string() + ": '" + key + "' is not a unit");
    }
  }
  for (const std::string_view key : kLengthUnits) {
    if (loaded.units_.find(key) == loaded.units_.end()) {
      return Status::Error(units.string() + ": no sentence for '" + std::string(key) + "'");
    }
  }
  const auto mark = loaded.units_.find(kDecimalMark);
  if (mark == loaded.units_.end()) {
    return Status::Error(units.string() + ": no '" + std::string(kDecimalMark) + "'");
  }
  loaded.decimal_mark_ = mark->second;
  *out = std::move(loaded);
  return Status::Ok();
}

std::string SystemWords::ArgText(const game_system::Arg& arg) const {
  // Ids and words as given, cut as codec::Shown cuts what a player wrote (an unknown unit).
  if (arg.unit.empty()) return codec::Shown(arg.value);
  const auto sentence = units_.find(arg.unit);
  const std::optional<std::int64_t> n = ParseInt(arg.value);
  // A unit this language does not word, or a value that is not a number: shown as given.
  if (sentence == units_.end() || !n) return arg.value + " " + arg.unit;
  mst::data fields;
  fields.set("number", ThousandthsText(*n, decimal_mark_));
  fields.set("one", *n == 1000);
  fields.set("below_two", *n > -2000 && *n < 2000);
  return RenderPlain(sentence->second, fields);
}

Status SystemWords::Sentence(const game_system::Verdict& verdict, std::string* out) const {
  out->clear();
  if (verdict.reason.empty()) return Status::Ok();
  const auto sentence = reasons_.find(verdict.reason);
  if (sentence == reasons_.end()) {
    return Status::Error("no sentence for reason '" + verdict.reason + "'");
  }
  mst::data fields;
  fields.set("unit", codec::Shown(verdict.unit));
  fields.set("order", verdict.order);
  for (const game_system::Arg& arg : verdict.args) {
    fields.set(arg.name, ArgText(arg));
    if (IsWord(arg.value)) fields.set(arg.name + "_" + arg.value, true);
  }
  *out = RenderPlain(sentence->second, fields);
  return Status::Ok();
}

}  // namespace pbem::templates
