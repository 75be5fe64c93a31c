// Formats: detection, parsing and deterministic serialisation of any pbem.v1
// message, and reading input files.
#include "proto/codec/codec.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/util/json_util.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#include "proto/codec/json_depth.h"
#include "proto/codec/text_locations.h"

namespace pbem::codec {

namespace pb = google::protobuf;

std::string Error::ToString() const {
  if (where.empty()) return message;
  return where + ": " + message;
}

std::optional<Format> ParseFormat(std::string_view name) {
  if (name == "binary") return Format::kBinary;
  if (name == "text") return Format::kText;
  if (name == "json") return Format::kJson;
  return std::nullopt;
}

std::string_view FormatName(Format format) {
  switch (format) {
    case Format::kBinary:
      return "binary";
    case Format::kText:
      return "text";
    case Format::kJson:
      return "json";
  }
  return "?";
}

namespace {

// True when `bytes` is well-formed UTF-8 (no overlong forms, no surrogates).
bool IsValidUtf8(std::string_view bytes) {
  std::size_t i = 0;
  while (i < bytes.size()) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int extra = 0;
    std::uint32_t cp = 0;
    if ((c & 0xE0) == 0xC0) {
      extra = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + static_cast<std::size_t>(extra) >= bytes.size()) return false;
    for (int k = 1; k <= extra; ++k) {
      const auto cc = static_cast<unsigned char>(bytes[i + static_cast<std::size_t>(k)]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    static constexpr std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += static_cast<std::size_t>(extra) + 1;
  }
  return true;
}

// Collects the text-format parser's errors and warnings (0-based places).
class CollectingErrors final : public pb::io::ErrorCollector {
 public:
  struct Entry {
    int line;
    int column;
    std::string message;
  };

  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    errors_.push_back(Entry{line, column, message});
  }
  void AddWarning(int line, pb::io::ColumnNumber column, const std::string& message) override {
    warnings_.push_back(Entry{line, column, "warning: " + message});
  }

  const std::vector<Entry>& errors() const { return errors_; }
  const std::vector<Entry>& warnings() const { return warnings_; }

 private:
  std::vector<Entry> errors_;
  std::vector<Entry> warnings_;
};

// The parser reports some errors after it has consumed the offending token
// (an unknown field name, a bad enum or boolean value), so its place is the
// token after it, often on the next line. Point at the offending token.
bool ReportedAfterToken(std::string_view message) {
  for (const std::string_view marker :
       {"has no field named", "Invalid value for", "Unknown enumeration value",
        "is specified multiple times", "out of range", "Unknown extension", "Invalid UTF-8",
        "Reserved field"}) {
    if (message.find(marker) != std::string_view::npos) return true;
  }
  return false;
}

// Binary parsing keeps fields it does not know in the unknown field set; we
// reject them like the text and JSON parsers do. Returns the path of the
// first message holding one, or nullopt.
std::optional<std::string> FindUnknownFields(const pb::Message& message, const std::string& path) {
  const pb::Reflection* refl = message.GetReflection();
  const pb::UnknownFieldSet& unknown = refl->GetUnknownFields(message);
  if (!unknown.empty()) {
    return (path.empty() ? std::string() : path + ": ") + "unknown field number " +
           std::to_string(unknown.field(0).number());
  }
  std::vector<const pb::FieldDescriptor*> fields;
  refl->ListFields(message, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    if (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    const std::string sub = path.empty() ? field->name() : path + "." + field->name();
    if (field->is_repeated()) {
      for (int i = 0; i < refl->FieldSize(message, field); ++i) {
        if (auto found = FindUnknownFields(refl->GetRepeatedMessage(message, field, i),
                                           sub + "[" + std::to_string(i) + "]")) {
          return found;
        }
      }
    } else if (auto found = FindUnknownFields(refl->GetMessage(message, field), sub)) {
      return found;
    }
  }
  return std::nullopt;
}

// proto3 strings must be UTF-8, but the text-format parser only logs a string that is not:
// such a message serialises to binary that does not parse back, so orders accepted this way
// could not be resolved from their stored bytes. Returns "path: not valid UTF-8 text" for
// the first such string, or nullopt.
std::optional<std::string> FindInvalidUtf8(const pb::Message& message, const std::string& path) {
  const pb::Reflection* refl = message.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  refl->ListFields(message, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    const std::string sub = path.empty() ? field->name() : path + "." + field->name();
    const int count = field->is_repeated() ? refl->FieldSize(message, field) : 1;
    for (int i = 0; i < count; ++i) {
      const std::string at = field->is_repeated() ? sub + "[" + std::to_string(i) + "]" : sub;
      if (field->type() == pb::FieldDescriptor::TYPE_STRING) {
        std::string scratch;
        const std::string& value =
            field->is_repeated() ? refl->GetRepeatedStringReference(message, field, i, &scratch)
                                 : refl->GetStringReference(message, field, &scratch);
        if (!IsValidUtf8(value)) return at + ": not valid UTF-8 text";
      } else if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
        const pb::Message& sub_message = field->is_repeated()
                                             ? refl->GetRepeatedMessage(message, field, i)
                                             : refl->GetMessage(message, field);
        if (auto found = FindInvalidUtf8(sub_message, at)) return found;
      }
    }
  }
  return std::nullopt;
}

std::string OversizeMessage(std::size_t size) {
  return "oversized input: " + std::to_string(size) + " bytes, the limit is " +
         std::to_string(kMaxInputBytes) + " bytes (4 MiB)";
}

}  // namespace

Format DetectFormat(std::string_view bytes) {
  for (const char ch : bytes) {
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') continue;
    if (ch == '{') return Format::kJson;
    break;
  }
  for (const char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == 0x7F) return Format::kBinary;
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') {
      return Format::kBinary;
    }
  }
  return IsValidUtf8(bytes) ? Format::kText : Format::kBinary;
}

namespace internal {

Result<std::monostate> ParseText(std::string_view bytes, std::string_view source, pb::Message& out,
                                 pb::TextFormat::ParseInfoTree* locations) {
  out.Clear();
  if (bytes.size() > kMaxInputBytes) {
    return Result<std::monostate>::Fail(std::string(source), OversizeMessage(bytes.size()));
  }
  CollectingErrors errors;
  pb::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  parser.AllowUnknownField(false);
  parser.AllowUnknownExtension(false);
  parser.SetRecursionLimit(kMaxNestingDepth);
  if (locations != nullptr) parser.WriteLocationsTo(locations);
  pb::io::ArrayInputStream input(bytes.data(), static_cast<int>(bytes.size()));
  if (!parser.Parse(&input, &out)) {
    std::vector<Error> all;
    for (const auto& e : errors.errors()) {
      TextPos pos{e.line, e.column};
      if (ReportedAfterToken(e.message)) pos = TokenBefore(bytes, pos);
      all.push_back(Error{Where(source, pos), e.message});
    }
    for (const auto& w : errors.warnings()) {
      all.push_back(Error{Where(source, w.line, w.column), w.message});
    }
    if (all.empty()) all.push_back(Error{std::string(source), "not valid text format"});
    out.Clear();
    return all;
  }
  if (auto invalid = FindInvalidUtf8(out, "")) {
    out.Clear();
    return Result<std::monostate>::Fail(std::string(source), *invalid);
  }
  return std::monostate{};
}

}  // namespace internal

Result<std::monostate> ParseMessage(std::string_view bytes, Format format, std::string_view source,
                                    pb::Message& out) {
  out.Clear();
  if (bytes.size() > kMaxInputBytes) {
    return Result<std::monostate>::Fail(std::string(source), OversizeMessage(bytes.size()));
  }
  switch (format) {
    case Format::kText:
      return internal::ParseText(bytes, source, out, nullptr);
    case Format::kJson: {
      // Bounded before the parser recurses (json_depth.h).
      if (std::optional<std::string> deep = JsonDepthProblem(bytes)) {
        return Result<std::monostate>::Fail(std::string(source), *deep);
      }
      pb::util::JsonParseOptions options;
      options.ignore_unknown_fields = false;
      const auto status =
          pb::util::JsonStringToMessage(pb::StringPiece(bytes.data(), bytes.size()), &out, options);
      if (!status.ok()) {
        out.Clear();
        return Result<std::monostate>::Fail(std::string(source), std::string(status.message()));
      }
      if (auto invalid = FindInvalidUtf8(out, "")) {
        out.Clear();
        return Result<std::monostate>::Fail(std::string(source), *invalid);
      }
      return std::monostate{};
    }
    case Format::kBinary: {
      pb::io::CodedInputStream coded(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                     static_cast<int>(bytes.size()));
      coded.SetRecursionLimit(kMaxNestingDepth);
      // Untrusted bytes must not write to the service's log: protobuf logs a string field's
      // invalid UTF-8 (and too-deep nesting) itself before failing. The caller says it.
      const pb::LogSilencer quiet;
      if (!out.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage()) {
        out.Clear();
        return Result<std::monostate>::Fail(
            std::string(source), "not a valid binary " + out.GetDescriptor()->full_name() +
                                     " (cut short, a text field that is not UTF-8, or nested "
                                     "deeper than " +
                                     std::to_string(kMaxNestingDepth) + ")");
      }
      if (auto unknown = FindUnknownFields(out, "")) {
        out.Clear();
        return Result<std::monostate>::Fail(
            std::string(source),
            "not a valid binary " + out.GetDescriptor()->full_name() + " (" + *unknown + ")");
      }
      return std::monostate{};
    }
  }
  return Result<std::monostate>::Fail(std::string(source), "unknown format");
}

std::string SerializeMessage(const pb::Message& message, Format format) {
  std::string out;
  switch (format) {
    case Format::kBinary: {
      pb::io::StringOutputStream stream(&out);
      pb::io::CodedOutputStream coded(&stream);
      coded.SetSerializationDeterministic(true);
      message.SerializeToCodedStream(&coded);
      break;
    }
    case Format::kText: {
      pb::TextFormat::Printer printer;
      printer.PrintToString(message, &out);
      break;
    }
    case Format::kJson: {
      pb::util::JsonPrintOptions options;
      options.add_whitespace = true;
      options.always_print_primitive_fields = false;
      options.preserve_proto_field_names = false;
      const auto status = pb::util::MessageToJsonString(message, &out, options);
      if (!status.ok()) out.clear();  // only on invalid UTF-8 in a string field
      if (out.empty() || out.back() != '\n') out += '\n';
      break;
    }
  }
  return out;
}

Result<std::string> ReadFile(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Result<std::string>::Fail(name, "is a directory, expected a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Result<std::string>::Fail(name, std::string("cannot open: ") + std::strerror(errno));
  }
  std::string data;
  char buffer[65536];
  while (in) {
    in.read(buffer, sizeof buffer);
    data.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (data.size() > kMaxInputBytes) {
      return Result<std::string>::Fail(name, OversizeMessage(data.size()) + " (or more)");
    }
  }
  if (in.bad()) return Result<std::string>::Fail(name, "read error");
  return data;
}

void NormaliseNegativeZeros(pb::Message& message) {
  const pb::Reflection* reflection = message.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    const bool repeated = field->is_repeated();
    const int count = repeated ? reflection->FieldSize(message, field) : 1;
    for (int i = 0; i < count; ++i) {
      switch (field->cpp_type()) {
        case pb::FieldDescriptor::CPPTYPE_DOUBLE: {
          const double v = repeated ? reflection->GetRepeatedDouble(message, field, i)
                                    : reflection->GetDouble(message, field);
          if (v == 0 && std::signbit(v)) {
            repeated ? reflection->SetRepeatedDouble(&message, field, i, 0.0)
                     : reflection->SetDouble(&message, field, 0.0);
          }
          break;
        }
        case pb::FieldDescriptor::CPPTYPE_FLOAT: {
          const float v = repeated ? reflection->GetRepeatedFloat(message, field, i)
                                   : reflection->GetFloat(message, field);
          if (v == 0 && std::signbit(v)) {
            repeated ? reflection->SetRepeatedFloat(&message, field, i, 0.0F)
                     : reflection->SetFloat(&message, field, 0.0F);
          }
          break;
        }
        case pb::FieldDescriptor::CPPTYPE_MESSAGE:
          NormaliseNegativeZeros(repeated ? *reflection->MutableRepeatedMessage(&message, field, i)
                                          : *reflection->MutableMessage(&message, field));
          break;
        default:
          break;
      }
    }
  }
}

}  // namespace pbem::codec
