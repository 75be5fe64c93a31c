// Private to the codec: what the converters of a system's data files (m42_codec.cc,
// wme_codec.cc) share. Conversion collects problems as (field path, message), located at the
// end (text_locations.h's Locator); scalars are read through bounded checks that name the valid
// range; ids are checked as the canonical text writes them; one table per enum maps the proto
// value and the engine value both ways.
#ifndef PBEM_PROTO_CODEC_DATA_CHECKER_H_
#define PBEM_PROTO_CODEC_DATA_CHECKER_H_

#include <google/protobuf/generated_enum_reflection.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/table/shapes.h"
#include "proto/codec/codec.h"
#include "proto/codec/shown.h"
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

// Thousandths back to the nearest double, which protobuf's printers write as the thousandths'
// own decimal (Checker::Decimal3 reads it back exactly).
inline double FromThousandths(std::int64_t thousandths) {
  return static_cast<double>(thousandths) / 1000;
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
    Add(path, id.empty()
                  ? "missing (an id is required)"
                  : "'" + Shown(id) + "' is not an id (1 to 64 letters, digits, '_', '-' or '.')");
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
  // A word: an id without '-' or '.' (a feature's kind, for the map and the mails).
  bool Word(const std::string& path, std::string_view word) {
    if (IsId(word) && word.find_first_of("-.") == std::string_view::npos) return true;
    Add(path, "must be a word (1 to 64 letters, digits or '_')");
    return false;
  }
  // A scenario's players: 1 to `max` ids, none twice, in order into `out`.
  void Players(const google::protobuf::RepeatedPtrField<std::string>& players, int max,
               std::vector<std::string>& out) {
    if (!Count("players", players.size(), 1, max)) return;
    std::set<std::string> seen;
    for (int i = 0; i < players.size(); ++i) {
      const std::string path = Indexed("players", i);
      if (Id(path, players[i]) && Unique(path, players[i], seen)) out.push_back(players[i]);
    }
  }
  // A scenario's `ruleset`, when given, must be the loaded ruleset's.
  void SameRuleset(const std::string& written, const std::string& loaded) {
    if (!written.empty() && written != loaded) {
      Add("ruleset",
          "the scenario is written for '" + Shown(written) + "', the ruleset is '" + loaded + "'");
    }
  }
  // A point given as two coordinates named `x` and `y` (each within -limit..limit), times
  // `units_per` table units; a missing one (`has` false) is a problem at `path`.
  std::optional<table::Point> Point(const std::string& path, bool has, std::string_view x,
                                    std::int64_t x_value, std::string_view y, std::int64_t y_value,
                                    std::int64_t limit, table::Coord units_per) {
    if (!has) {
      Add(path, "missing (a point is required)");
      return std::nullopt;
    }
    std::int64_t px = 0;
    std::int64_t py = 0;
    // Both checked, so that both are reported.
    const bool x_ok = InRange(path + "." + std::string(x), x_value, -limit, limit, px);
    const bool y_ok = InRange(path + "." + std::string(y), y_value, -limit, limit, py);
    if (!x_ok || !y_ok) return std::nullopt;
    return table::Point::Make(px * units_per, py * units_per);
  }
  // The points of `list` (low..high of them), each read by `read(path, element)`; none if any
  // is wrong.
  template <typename List, typename Read>
  std::optional<std::vector<table::Point>> Points(const std::string& path, const List& list,
                                                  int low, int high, Read read) {
    if (!Count(path, list.size(), low, high)) return std::nullopt;
    std::vector<table::Point> out;
    bool ok = true;
    for (int i = 0; i < list.size(); ++i) {
      const std::optional<table::Point> point = read(Indexed(path, i), list[i]);
      ok = ok && point.has_value();
      if (point) out.push_back(*point);
    }
    if (!ok) return std::nullopt;
    return out;
  }
  // A simple polygon of non-zero area, or a problem at `path`.
  std::optional<table::Polygon> SimplePolygon(const std::string& path,
                                              std::optional<std::vector<table::Point>> points) {
    if (!points) return std::nullopt;
    auto polygon = table::Polygon::Make(std::move(*points));
    if (!polygon) Add(path, "not a simple polygon (edges cross, or its area is zero)");
    return polygon;
  }
  // A number players write in decimal (orders: m42_orders.proto, wme_orders.proto): `value`
  // in -limit..limit `units` ("inches"), at most 3 decimals, as exact thousandths into `out`.
  // The value is the nearest double to what was written (protobuf's parsers round correctly);
  // x1000 must lie within 1e-6 of an integer: every 3-place decimal within a limit of up to
  // 1e6 does, and none with a fourth non-zero place. `thousandth` names the step in the
  // message ("an inch").
  bool Decimal3(const std::string& path, double value, double limit, std::string_view units,
                std::string_view thousandth, std::int64_t& out) {
    if (!std::isfinite(value) || value < -limit || value > limit) {
      Add(path, "must be " + Number(-limit) + ".." + Number(limit) + " " + std::string(units) +
                    ", got " + Number(value));
      return false;
    }
    const double scaled = value * 1000;
    const double nearest = std::nearbyint(scaled);
    if (std::fabs(scaled - nearest) > 1e-6) {
      Add(path, Number(value) + " has more than 3 decimals (thousandths of " +
                    std::string(thousandth) + " at most)");
      return false;
    }
    out = static_cast<std::int64_t>(nearest);
    return true;
  }
  static std::string Number(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.10g", value);
    return buffer;
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

// A text-format file of `Message` parsed, then converted by `convert(message, locator)`.
template <typename Message, typename Convert>
auto LoadText(std::string_view text, std::string_view source, Convert convert)
    -> decltype(convert(std::declval<const Message&>(), std::declval<const Locator&>())) {
  Message proto;
  ParseInfoTree tree;
  auto parsed = ParseText(text, source, proto, &tree);
  if (!parsed.ok()) return parsed.errors();
  const Locator locator({TextSource{std::string(source), text, &proto, &tree}},
                        std::string(source));
  return convert(proto, locator);
}

// A message players send in any format (orders), then converted by `convert(message,
// locator)`: text with its lines (LoadText), JSON and binary with field paths only; a negative
// zero read as zero (NormaliseNegativeZeros).
template <typename Message, typename Convert>
auto LoadAnyFormat(std::string_view bytes, Format format, std::string_view source, Convert convert)
    -> decltype(convert(std::declval<const Message&>(), std::declval<const Locator&>())) {
  if (format == Format::kText) {
    return LoadText<Message>(bytes, source, [&convert](const Message& parsed, const Locator& at) {
      Message proto = parsed;  // the locator keeps pointing at `parsed`
      NormaliseNegativeZeros(proto);
      return convert(proto, at);
    });
  }
  Message proto;
  auto parsed = ParseMessage(bytes, format, source, proto);
  if (!parsed.ok()) return parsed.errors();
  NormaliseNegativeZeros(proto);
  return convert(proto, Locator({}, std::string(source)));
}

// The files of a ruleset directory merged into one `Message` (ParseAndMerge), then converted.
template <typename Message, typename Convert>
auto LoadFiles(const std::vector<NamedText>& files, Convert convert)
    -> decltype(convert(std::declval<const Message&>(), std::declval<const Locator&>())) {
  using R = decltype(convert(std::declval<const Message&>(), std::declval<const Locator&>()));
  if (files.empty()) return R::Fail("ruleset", "no ruleset files given");
  Message merged;
  auto parsed = ParseAndMerge(files, merged);
  if (!parsed.ok()) return parsed.errors();
  return convert(merged, Locator(std::move(parsed.value().sources), files.front().name));
}

}  // namespace pbem::codec::internal

#endif  // PBEM_PROTO_CODEC_DATA_CHECKER_H_
