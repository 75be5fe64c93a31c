// Private to the codec: what the converters of a system's data files (m42_codec.cc,
// wme_codec.cc) share. Conversion collects problems as (field path, message), located at the
// end (text_locations.h's Locator); scalars are read through bounded checks that name the valid
// range; ids are checked as the canonical text writes them; one table per enum maps the proto
// value and the engine value both ways.
#ifndef PBEM_PROTO_CODEC_DATA_CHECKER_H_
#define PBEM_PROTO_CODEC_DATA_CHECKER_H_

#include <google/protobuf/generated_enum_reflection.h>

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "proto/codec/codec.h"
#include "proto/codec/text_locations.h"

namespace pbem::codec::internal {

inline constexpr std::size_t kMaxIdBytes = 64;

struct Problem {
  std::string path;
  std::string message;
};

// Each problem at its file, line and column.
inline std::vector<Error> Located(const std::vector<Problem>& problems, const Locator& locator) {
  std::vector<Error> errors;
  for (const Problem& p : problems) errors.push_back(locator.At(p.path, p.message));
  return errors;
}

inline std::string Indexed(std::string_view list, int i) {
  return std::string(list) + "[" + std::to_string(i) + "]";
}

inline std::string Range(std::int64_t low, std::int64_t high) {
  return std::to_string(low) + ".." + std::to_string(high);
}

// An engine enum and its proto value: one table per enum serves both directions.
template <typename P, typename E>
struct EnumPair {
  P proto;
  E engine;
};

template <typename P, typename E, std::size_t N>
P ToProtoEnum(const EnumPair<P, E> (&table)[N], E value) {
  for (const auto& pair : table) {
    if (pair.engine == value) return pair.proto;
  }
  return P{};
}

template <typename P>
std::string EnumName(P value) {
  const google::protobuf::EnumValueDescriptor* d =
      google::protobuf::GetEnumDescriptor<P>()->FindValueByNumber(value);
  return d != nullptr ? d->name() : std::to_string(static_cast<int>(value));
}

// Letters, digits, '_', '-' and '.', 1 to 64 bytes (canonical text writes ids between spaces).
inline bool IsId(std::string_view id) {
  if (id.empty() || id.size() > kMaxIdBytes) return false;
  for (const char c : id) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!word && c != '_' && c != '-' && c != '.') return false;
  }
  return true;
}

// What both converters share: the problem list and the bounded reads of scalars.
class Checker {
 public:
  std::vector<Problem>& problems() { return problems_; }

 protected:
  void Add(std::string path, std::string message) {
    problems_.push_back(Problem{std::move(path), std::move(message)});
  }
  // `value` into `out` when within [low, high]; else a problem naming the range.
  template <typename T>
  bool InRange(const std::string& path, std::int64_t value, std::int64_t low, std::int64_t high,
               T& out) {
    if (value < low || value > high) {
      Add(path, "must be " + Range(low, high) + ", got " + std::to_string(value));
      return false;
    }
    out = static_cast<T>(value);
    return true;
  }
  bool Count(const std::string& path, int size, int low, int high) {
    if (size >= low && size <= high) return true;
    Add(path, "needs " + Range(low, high) + " entries, got " + std::to_string(size));
    return false;
  }
  bool Id(const std::string& path, std::string_view id) {
    if (IsId(id)) return true;
    Add(path, id.empty() ? "missing (an id is required)"
                         : "'" + std::string(id.substr(0, kMaxIdBytes)) +
                               "' is not an id (1 to 64 letters, digits, '_', '-' or '.')");
    return false;
  }
  template <typename P, typename E, std::size_t N>
  void Enum(const std::string& path, bool has, P value, const EnumPair<P, E> (&table)[N], E& out) {
    if (!has) return;
    std::string names;
    for (const auto& pair : table) {
      if (pair.proto == value) {
        out = pair.engine;
        return;
      }
      names += (names.empty() ? "" : ", ") + EnumName(pair.proto);
    }
    Add(path, "must be one of " + names + ", got " + EnumName(value));
  }

  bool Unique(const std::string& path, const std::string& id, std::set<std::string>& seen) {
    if (seen.insert(id).second) return true;
    Add(path, "duplicate id '" + id + "'");
    return false;
  }
  // The id of a feature, unit or base: well formed and unique within `seen`.
  bool NewId(const std::string& path, const std::string& id, std::set<std::string>& seen) {
    return Id(path + ".id", id) && Unique(path + ".id", id, seen);
  }
  void FormatVersion(std::uint32_t version) {
    if (version > 1) {
      Add("format_version", "format version " + std::to_string(version) +
                                " is not supported (this build reads version 1)");
    }
  }

 private:
  std::vector<Problem> problems_;
};

}  // namespace pbem::codec::internal

#endif  // PBEM_PROTO_CODEC_DATA_CHECKER_H_
