#include <google/protobuf/descriptor.h>
#include <google/protobuf/text_format.h>

#include "daemon/cli/scenario_parts.h"

namespace pbem::cli::scenario {
namespace {

// ---- Protobuf field values as text ----------------------------------------

// One field value as the mismatch lines show it: strings quoted and escaped,
// enums by name, everything else quoted too so that every value reads alike.
std::string FieldValueText(const gpb::Message& message, const gpb::FieldDescriptor* field,
                           int index) {
  std::string text;
  gpb::TextFormat::PrintFieldValueToString(message, field, index, &text);
  if (field->cpp_type() == gpb::FieldDescriptor::CPPTYPE_STRING) return text;
  return Quote(text);
}

std::string FieldText(const gpb::Message& message, const gpb::FieldDescriptor* field) {
  if (!field->is_repeated()) return FieldValueText(message, field, -1);
  const int n = message.GetReflection()->FieldSize(message, field);
  std::string out = "[";
  for (int i = 0; i < n; ++i) {
    if (i > 0) out += ", ";
    out += FieldValueText(message, field, i);
  }
  out += "]";
  return out;
}

}  // namespace

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string Quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += c;
    }
  }
  out += '"';
  return out;
}

std::string Mismatch(std::string_view field, std::string_view expected, std::string_view actual) {
  std::string line(field);
  line += ": expected ";
  line += expected;
  line += ", actual ";
  line += actual;
  return line;
}

std::vector<std::string> ErrorStrings(const std::vector<codec::Error>& errors) {
  std::vector<std::string> out;
  out.reserve(errors.size());
  for (const codec::Error& e : errors) out.push_back(e.ToString());
  return out;
}

// True when `path` is `dir` or lies below it (both absolute and normalised).
bool IsUnder(const fs::path& path, const fs::path& dir) {
  auto p = path.begin();
  for (auto d = dir.begin(); d != dir.end(); ++d, ++p) {
    if (d->empty()) continue;  // trailing separator
    if (p == path.end() || *p != *d) return false;
  }
  return true;
}

fs::path Normal(const fs::path& path) { return fs::weakly_canonical(fs::absolute(path)); }

// The fields `expected` sets (proto3: non-default, or present when
// `optional`), except those named in `skip`.
std::vector<const gpb::FieldDescriptor*> SetFields(const gpb::Message& expected,
                                                   const std::set<std::string>& skip) {
  std::vector<const gpb::FieldDescriptor*> fields;
  expected.GetReflection()->ListFields(expected, &fields);
  std::vector<const gpb::FieldDescriptor*> out;
  for (const gpb::FieldDescriptor* f : fields) {
    if (skip.count(f->name()) == 0) out.push_back(f);
  }
  return out;
}

// Mismatch lines for every field set in `expected` whose value in `actual`
// (same message type) differs. Partial expectations: unset fields are not
// compared.
std::vector<std::string> DiffSetFields(const gpb::Message& expected, const gpb::Message& actual,
                                       std::string_view prefix, const std::set<std::string>& skip) {
  std::vector<std::string> out;
  for (const gpb::FieldDescriptor* f : SetFields(expected, skip)) {
    const std::string e = FieldText(expected, f);
    const std::string a = FieldText(actual, f);
    if (e != a) out.push_back(Mismatch(std::string(prefix) + "." + f->name(), e, a));
  }
  return out;
}

// True when every field set in `expected` has the same value in `actual`.
bool MatchesSetFields(const gpb::Message& expected, const gpb::Message& actual,
                      const std::set<std::string>& skip) {
  return DiffSetFields(expected, actual, "", skip).empty();
}

std::string ShortText(const gpb::Message& message) {
  std::string text;
  gpb::TextFormat::Printer printer;
  printer.SetSingleLineMode(true);
  printer.SetUseShortRepeatedPrimitives(true);
  printer.PrintToString(message, &text);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return "{" + text + "}";
}

}  // namespace pbem::cli::scenario
