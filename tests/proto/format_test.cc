// Formats: detection, parsing errors with places, deterministic round trips.
#include <google/protobuf/stubs/logging.h>

#include <catch2/catch.hpp>

#include "proto/codec/codec.h"
#include "proto/codec/shown.h"
#include "tests/proto/test_data.h"

namespace pbem::codec {
namespace {

using testing::ColumnOf;
using testing::LineOf;

const char kOrdersText[] = R"txt(format_version: 1
game_id: "g-42"
turn: 3
side: SIDE_BLUE
token: "s3cret"
placements { unit: "b-inf-1" hex: "0203" }
bombardments { unit: "b-art-1" target: "0507" }
moves {
  unit: "b-cav-1"
  path: ["0304", "0305", "0405"]
  no_charge_at: "0305"
}
moves { unit: "b-inf-2" destination: "0808" from: "0707" no_charge: true }
attacks { attacker: "b-cav-1" defender: "o-inf-1" }
message: "À vous, messieurs les Anglais"
)txt";

TEST_CASE("format names parse and print", "[format]") {
  CHECK(ParseFormat("binary") == Format::kBinary);
  CHECK(ParseFormat("text") == Format::kText);
  CHECK(ParseFormat("json") == Format::kJson);
  CHECK_FALSE(ParseFormat("yaml").has_value());
  CHECK(FormatName(Format::kJson) == "json");
}

TEST_CASE("format detection", "[format]") {
  CHECK(DetectFormat(kOrdersText) == Format::kText);
  CHECK(DetectFormat("  \n { \"turn\": 3 }") == Format::kJson);
  CHECK(DetectFormat("") == Format::kText);

  pbem::v1::Orders orders;
  REQUIRE(ParseMessage(kOrdersText, Format::kText, "o.textproto", orders).ok());
  CHECK(DetectFormat(SerializeMessage(orders, Format::kBinary)) == Format::kBinary);
  CHECK(DetectFormat(SerializeMessage(orders, Format::kJson)) == Format::kJson);
  CHECK(DetectFormat(SerializeMessage(orders, Format::kText)) == Format::kText);
  // Bytes that are not UTF-8 are binary even without control characters.
  CHECK(DetectFormat("abc\xff\xfe") == Format::kBinary);
}

TEST_CASE("orders round-trip text -> binary -> JSON -> binary with identical bytes", "[format]") {
  pbem::v1::Orders from_text;
  REQUIRE(ParseMessage(kOrdersText, Format::kText, "o.textproto", from_text).ok());
  const std::string binary1 = SerializeMessage(from_text, Format::kBinary);

  pbem::v1::Orders from_binary;
  REQUIRE(ParseMessage(binary1, Format::kBinary, "o.bin", from_binary).ok());
  const std::string json = SerializeMessage(from_binary, Format::kJson);
  CHECK(json.find("\"gameId\": \"g-42\"") != std::string::npos);
  CHECK(json.find("\"SIDE_BLUE\"") != std::string::npos);
  CHECK(json.back() == '\n');

  pbem::v1::Orders from_json;
  const auto parsed = ParseMessage(json, Format::kJson, "o.json", from_json);
  INFO(parsed.ErrorText());
  REQUIRE(parsed.ok());
  const std::string binary2 = SerializeMessage(from_json, Format::kBinary);
  CHECK(binary1 == binary2);

  // And back to text: the same message.
  pbem::v1::Orders again;
  REQUIRE(ParseMessage(SerializeMessage(from_json, Format::kText), Format::kText, "t", again).ok());
  CHECK(SerializeMessage(again, Format::kBinary) == binary1);
}

TEST_CASE("a malformed text message names the line and column", "[format]") {
  const std::string text =
      "game_id: \"g\"\nturn: 3\nmoves { unit: \"a\" path: [\"0101\" \"0102\" }\n";
  pbem::v1::Orders orders;
  const auto result = ParseMessage(text, Format::kText, "bad.textproto", orders);
  REQUIRE_FALSE(result.ok());
  const std::string where = result.errors().front().where;
  CHECK(where.rfind("bad.textproto:3:", 0) == 0);
  INFO(result.ErrorText());
  CHECK(result.ErrorText().find("bad.textproto:3:") != std::string::npos);
}

TEST_CASE("an unknown field is an error in text, JSON and binary", "[format]") {
  const std::string text = "game_id: \"g\"\nturn: 3\nsidee: SIDE_BLUE\n";
  pbem::v1::Orders orders;
  const auto t = ParseMessage(text, Format::kText, "u.textproto", orders);
  REQUIRE_FALSE(t.ok());
  CHECK(t.errors().front().where == "u.textproto:" + std::to_string(LineOf(text, "sidee")) + ":" +
                                        std::to_string(ColumnOf(text, "sidee")));
  CHECK(t.errors().front().message.find("sidee") != std::string::npos);

  const auto j = ParseMessage(R"({"gameId": "g", "bogus": 1})", Format::kJson, "u.json", orders);
  REQUIRE_FALSE(j.ok());
  CHECK(j.errors().front().where == "u.json");
  CHECK(j.errors().front().message.find("bogus") != std::string::npos);

  // Field 99, varint 1: not in the schema.
  const std::string binary = std::string("\x98\x06\x01", 3);
  const auto b = ParseMessage(binary, Format::kBinary, "u.bin", orders);
  REQUIRE_FALSE(b.ok());
  CHECK(b.ErrorText() == "u.bin: not a valid binary pbem.v1.Orders (unknown field number 99)\n");
}

TEST_CASE("garbage binary is refused with the message type", "[format]") {
  pbem::v1::Orders orders;
  const auto b = ParseMessage(std::string("\x0a\xff\xff", 3), Format::kBinary, "g.bin", orders);
  REQUIRE_FALSE(b.ok());
  CHECK(b.ErrorText() ==
        "g.bin: not a valid binary pbem.v1.Orders (cut short, a text field that is not UTF-8, or "
        "nested deeper than 32)\n");
  // A text field that is not UTF-8: refused, and nothing written to the log by protobuf.
  static int logged = 0;
  const google::protobuf::LogHandler* before = google::protobuf::SetLogHandler(
      [](google::protobuf::LogLevel, const char*, int, const std::string&) { ++logged; });
  pbem::v1::Orders utf8;
  const auto u8 = ParseMessage(std::string("\x12\x02\xff\xfe", 4), Format::kBinary, "u8.bin", utf8);
  google::protobuf::SetLogHandler(before);
  CHECK(logged == 0);
  CHECK(u8.ErrorText().rfind("u8.bin: not a valid binary pbem.v1.Orders (cut short, a text", 0) ==
        0);
}

TEST_CASE("oversized input is refused before parsing", "[format]") {
  const std::string big(kMaxInputBytes + 1, ' ');
  pbem::v1::Orders orders;
  for (const Format f : {Format::kText, Format::kJson, Format::kBinary}) {
    const auto r = ParseMessage(big, f, "big", orders);
    REQUIRE_FALSE(r.ok());
    CHECK(r.ErrorText().find("big: oversized input") == 0);
  }
}

TEST_CASE("a string that is not UTF-8 is refused in text format, naming the field", "[format]") {
  // Found by fuzz_orders_text (corpus/orders_text/latin1-byte-in-message-string.textproto): a
  // Latin-1 byte in a string parsed as text, but its binary serialisation does not parse
  // back, so orders accepted this way could never be resolved from their stored bytes.
  for (const std::string& text :
       {std::string("game_id: \"demo\"\nmessage: \"caf\xe9\"\n"),
        std::string("moves { unit: \"b-i1\" path: [\"0203\", \"02\\351\"] }\n")}) {
    INFO(text);
    pbem::v1::Orders orders;
    const auto r = ParseMessage(text, Format::kText, "latin1.textproto", orders);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.ErrorText(), Catch::Contains("not valid UTF-8"));
    CHECK(orders.ByteSizeLong() == 0);
    const auto o = ParseOrders(text, Format::kText, "latin1.textproto");
    REQUIRE_FALSE(o.ok());
  }
  pbem::v1::Orders orders;
  const auto r = ParseMessage("moves { unit: \"b-i1\" path: [\"0203\", \"02\\351\"] }",
                              Format::kText, "l", orders);
  CHECK(r.ErrorText() == "l: moves[0].path[1]: not valid UTF-8 text\n");
  // Valid UTF-8 (an é written as UTF-8, or as an escape of its UTF-8 bytes) parses.
  CHECK(ParseMessage("message: \"caf\xc3\xa9 \\303\\251\"", Format::kText, "u", orders).ok());
}

TEST_CASE("input nested 200,000 deep is refused in every format, without recursing", "[format]") {
  constexpr int kDeep = 200000;
  std::string text;
  std::string json = "{\"moves\": ";
  std::string binary;
  for (int i = 0; i < kDeep; ++i) {
    text += "moves { ";
    json += '[';
    binary += "\x9b\x06";  // field 99, start group: unknown groups nest in the wire format
  }
  pbem::v1::Orders orders;
  const auto t = ParseMessage(text, Format::kText, "deep.textproto", orders);
  const auto j = ParseMessage(json, Format::kJson, "deep.json", orders);
  const auto b = ParseMessage(binary, Format::kBinary, "deep.bin", orders);
  for (const auto* r : {&t, &j, &b}) {
    REQUIRE_FALSE(r->ok());
    CHECK_FALSE(r->errors().empty());
  }
  CHECK(b.ErrorText() ==
        "deep.bin: not a valid binary pbem.v1.Orders (cut short, a text field that is not "
        "UTF-8, or nested deeper than 32)\n");
  CHECK(orders.moves_size() == 0);
}

TEST_CASE("binary messages nested deeper than kMaxNestingDepth are refused", "[format]") {
  // Archive > Ruleset > TerrainType > MoveCost is 3 levels; a chain of unknown groups just
  // past the limit is refused, one just under it is refused only for its unknown field.
  std::string under;
  std::string over;
  for (int i = 0; i < kMaxNestingDepth - 1; ++i) under += "\x9b\x06";
  for (int i = 0; i < kMaxNestingDepth - 1; ++i) under += "\x9c\x06";  // end group
  for (int i = 0; i < kMaxNestingDepth + 1; ++i) over += "\x9b\x06";
  for (int i = 0; i < kMaxNestingDepth + 1; ++i) over += "\x9c\x06";
  pbem::v1::Orders orders;
  CHECK(ParseMessage(under, Format::kBinary, "u.bin", orders).ErrorText() ==
        "u.bin: not a valid binary pbem.v1.Orders (unknown field number 99)\n");
  CHECK(ParseMessage(over, Format::kBinary, "o.bin", orders).ErrorText() ==
        "o.bin: not a valid binary pbem.v1.Orders (cut short, a text field that is not UTF-8, or "
        "nested deeper than 32)\n");
}

TEST_CASE("ParseOrders detects the format and records where each order is", "[format]") {
  OrdersLocations where;
  const auto parsed = ParseOrders(kOrdersText, std::nullopt, "o.textproto", &where);
  REQUIRE(parsed.ok());
  CHECK(parsed.value().moves_size() == 2);
  REQUIRE(where.moves.size() == 2);
  CHECK(where.moves[0].line == LineOf(kOrdersText, "moves {\n"));
  CHECK(where.moves[1].line == LineOf(kOrdersText, "moves { unit: \"b-inf-2\""));
  REQUIRE(where.attacks.size() == 1);
  CHECK(where.attacks[0].line == LineOf(kOrdersText, "attacks"));

  engine::OrderVerdict v;
  v.order_kind = engine::OrderKind::kMove;
  v.index = 1;
  CHECK(where.Where("o.textproto", v) ==
        "o.textproto:" + std::to_string(LineOf(kOrdersText, "moves { unit: \"b-inf-2\"")) + ":1");
  v.order_kind = engine::OrderKind::kHeader;
  v.reason = engine::Reason::kWrongTurn;
  CHECK(where.Where("o.textproto", v) == "o.textproto:3:1");

  const std::string binary = SerializeMessage(parsed.value(), Format::kBinary);
  const auto from_binary = ParseOrders(binary, std::nullopt, "o.bin");
  REQUIRE(from_binary.ok());
  CHECK(from_binary.value().game_id() == "g-42");
}

TEST_CASE("orders in a list of messages are located element by element", "[format]") {
  const std::string text =
      "turn: 1\n"
      "moves: [\n"
      "  { unit: \"a\" path: \"0101\" },\n"
      "  { unit: \"b\" path: \"0102\" }\n"
      "]\n"
      "moves { unit: \"c\" destination: \"0303\" }\n";
  OrdersLocations where;
  const auto parsed = ParseOrders(text, Format::kText, "l.textproto", &where);
  REQUIRE(parsed.ok());
  REQUIRE(where.moves.size() == 3);
  CHECK(where.moves[0].line == 3);
  CHECK(where.moves[0].column == 3);
  CHECK(where.moves[1].line == 4);
  CHECK(where.moves[2].line == 6);
}

TEST_CASE("ReadFile reports a missing file by name", "[format]") {
  const auto r = ReadFile("/nonexistent/dir/orders.textproto");
  REQUIRE_FALSE(r.ok());
  CHECK(r.ErrorText().find("/nonexistent/dir/orders.textproto: cannot open") == 0);
}

}  // namespace
}  // namespace pbem::codec

TEST_CASE("codec::Shown: at most 64 bytes on a character boundary, no control characters") {
  CHECK(pbem::codec::Shown("blue") == "blue");
  CHECK(pbem::codec::Shown(std::string(64, 'a')) == std::string(64, 'a'));
  CHECK(pbem::codec::Shown(std::string(65, 'a')) == std::string(64, 'a') + "...");
  // 63 ASCII bytes then "é" (2 bytes): the cut does not split the character.
  CHECK(pbem::codec::Shown(std::string(63, 'a') + "\xc3\xa9z") == std::string(63, 'a') + "...");
  CHECK(pbem::codec::Shown("a\r\nb\tc\x7f") == "a??b?c?");
}
