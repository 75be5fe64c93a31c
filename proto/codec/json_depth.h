// A bound on the nesting of JSON text, checked by one linear scan before any JSON parser sees
// the text: parsers recurse once per nested array or object, so untrusted JSON nested 200,000
// deep would exhaust the stack (or, in the protobuf parser, be skipped as an unknown value).
#ifndef PBEM_PROTO_CODEC_JSON_DEPTH_H_
#define PBEM_PROTO_CODEC_JSON_DEPTH_H_

#include <optional>
#include <string>
#include <string_view>

namespace pbem::codec {

// The deepest nesting of arrays and objects accepted in untrusted JSON. Every message pbem
// reads as JSON (orders, game and league bodies) nests fewer than 10 levels.
inline constexpr int kMaxJsonDepth = 64;

// Nullopt when no array or object of `text` is nested deeper than `max_depth` (brackets inside
// strings do not count); otherwise the sentence saying where the limit is passed. The text
// need not be valid JSON: the parser that follows says what else is wrong. No recursion.
std::optional<std::string> JsonDepthProblem(std::string_view text, int max_depth = kMaxJsonDepth);

}  // namespace pbem::codec

#endif  // PBEM_PROTO_CODEC_JSON_DEPTH_H_
