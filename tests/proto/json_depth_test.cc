// JsonDepthProblem and the JSON parse of orders: nesting is bounded before any parser
// recurses (issue 13, finding 8: JSON nested 200,000 deep was accepted as empty orders).
#include "proto/codec/json_depth.h"

#include <catch2/catch.hpp>
#include <string>

#include "proto/codec/codec.h"

namespace pbem::codec {
namespace {

std::string Nested(int depth, char open, char close) {
  return std::string(static_cast<std::size_t>(depth), open) +
         std::string(static_cast<std::size_t>(depth), close);
}

TEST_CASE("JSON depth counts arrays and objects, not brackets in strings", "[codec][json]") {
  CHECK_FALSE(JsonDepthProblem(Nested(64, '[', ']')).has_value());
  CHECK(JsonDepthProblem(Nested(65, '[', ']')).has_value());
  CHECK_FALSE(JsonDepthProblem(R"({"a": "[[[[[[[[[[", "b": "\"[[[[[[[["})", 2).has_value());
  CHECK(JsonDepthProblem(R"({"a": {"b": [1]}})", 2).has_value());
  CHECK_FALSE(JsonDepthProblem(R"({"a": {"b": 1}, "c": {"d": 2}})", 2).has_value());
  // Unbalanced closers do not let a deeper document through.
  CHECK(JsonDepthProblem("]]]]" + Nested(3, '{', '}'), 2).has_value());
  const std::optional<std::string> problem = JsonDepthProblem(Nested(200000, '[', ']'));
  REQUIRE(problem.has_value());
  CHECK_THAT(*problem, Catch::Contains("nested deeper than 64"));
}

TEST_CASE("orders nested 200,000 deep are refused, not read as empty orders", "[codec][json]") {
  for (const std::string& body :
       {R"({"moves": )" + Nested(200000, '[', ']') + "}",
        R"({"gameId": "g", "x": )" + Nested(200000, '{', '}') + "}", Nested(200000, '[', ']')}) {
    const auto parsed = ParseOrders(body, Format::kJson, "request body");
    REQUIRE_FALSE(parsed.ok());
    CHECK_THAT(parsed.ErrorText(), Catch::Contains("nested deeper than 64"));
    // Detected as JSON too (format guessed from the bytes, as for a mail attachment).
    const auto guessed = ParseOrders(body, std::nullopt, "attachment");
    CHECK_FALSE(guessed.ok());
  }
  // Real orders still parse.
  CHECK(
      ParseOrders(R"({"gameId": "g", "turn": 1, "moves": [{"unit": "a", "destination": "0101"}]})",
                  Format::kJson, "request body")
          .ok());
}

}  // namespace
}  // namespace pbem::codec
