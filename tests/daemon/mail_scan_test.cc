// The bounded scanners that replace regular expressions on mail text (daemon/mail/scan.h):
// the language each accepts, its edges, and inputs that made std::regex overflow the stack.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "daemon/mail/scan.h"

namespace pbem::daemon::mail {
namespace {

using Strings = std::vector<std::string>;

TEST_CASE("game id fields: text format and JSON keys, bounded values", "[daemon][scan]") {
  CHECK(GameIdFields("game_id: \"g-7\"\nturn: 1", 64) == Strings{"g-7"});
  CHECK(GameIdFields("{\"gameId\" : \"a\", \"game_id\":\"b\", \"gameid\":\"c\"}", 64) ==
        Strings{"a", "b", "c"});
  CHECK(GameIdFields("\"game_Id\":\"d\"", 64) == Strings{"d"});
  CHECK(GameIdFields("game_id\n\t:\r\n \"e\"", 64) == Strings{"e"});  // blanks around ':'
  // Not fields: no colon, no quotes, empty, a backslash, an unquoted JSON key spelled gameId.
  CHECK(GameIdFields("game_id \"x\"", 64).empty());
  CHECK(GameIdFields("game_id: x", 64).empty());
  CHECK(GameIdFields("game_id: \"\"", 64).empty());
  CHECK(GameIdFields("game_id: \"a\\\"b\"", 64).empty());
  CHECK(GameIdFields("gameId: \"x\"", 64).empty());
  // 64 bytes is the longest value; 65 is no value at all.
  CHECK(GameIdFields("game_id: \"" + std::string(64, 'v') + "\"", 64) ==
        Strings{std::string(64, 'v')});
  CHECK(GameIdFields("game_id: \"" + std::string(65, 'v') + "\"", 64).empty());
  // A broken field does not hide the next one; values are capped.
  CHECK(GameIdFields("game_id: game_id: \"z\"", 64) == Strings{"z"});
  CHECK(GameIdFields("game_id:\"1\" game_id:\"2\" game_id:\"3\"", 2) == Strings{"1", "2"});
  // A value may hold any byte but '"' and '\' (as the regular expression had it).
  CHECK(GameIdFields("game_id: \"a b\nc\"", 64) == Strings{"a b\nc"});
}

TEST_CASE("game id fields: a key after any byte, near-keys passed over", "[daemon][scan]") {
  // The scan skips bytes that cannot start a key ('g' or '"') without comparing: a key
  // right after another byte, or after a near-key, is still found.
  CHECK(GameIdFields("xgame_id: \"k\"", 64) == Strings{"k"});
  CHECK(GameIdFields("ggame_id: \"k\"", 64) == Strings{"k"});
  CHECK(GameIdFields("gamegame_id: \"k\"", 64) == Strings{"k"});
  CHECK(GameIdFields("\"\"gameId\": \"j\"", 64) == Strings{"j"});
  CHECK(GameIdFields("\"game\"game_id:\"m\"\"gameid\":\"n\"", 64) == Strings{"m", "n"});
  CHECK(GameIdFields(std::string(100000, 'x') + "game_id: \"far\"", 64) == Strings{"far"});
  CHECK(GameIdFields("game_i", 64).empty());
  CHECK(GameIdFields("\"game_i", 64).empty());
}

TEST_CASE("game id fields: the inputs that crashed the regular expression", "[daemon][scan]") {
  // issue 13, finding 1: `game_id` followed by 30,000 blanks overflowed std::regex's stack.
  CHECK(GameIdFields("game_id" + std::string(30000, ' '), 64).empty());
  CHECK(GameIdFields("game_id" + std::string(1 << 20, ' ') + ": \"g\"", 64) == Strings{"g"});
  CHECK(GameIdFields("game_id:" + std::string(1 << 20, '\t'), 64).empty());
  std::string quotes;
  for (int i = 0; i < 100000; ++i) quotes += "\"game_id\": \"";
  CHECK(GameIdFields(quotes, 64).empty());
  std::string many;
  for (int i = 0; i < 50000; ++i) many += "game_id   ";
  CHECK(GameIdFields(many, 64).empty());
}

TEST_CASE("subject words: runs of at most 64 bytes, at most N", "[daemon][scan]") {
  CHECK(SubjectWords("Re: [pbem g-1] orders", 20) == Strings{"Re", "pbem", "g-1", "orders"});
  CHECK(SubjectWords("-x _y .z", 20) == Strings{"x", "y", "z"});
  CHECK(SubjectWords("a.b_c-d", 20) == Strings{"a.b_c-d"});
  CHECK(SubjectWords("", 20).empty());
  CHECK(SubjectWords(std::string(130, 'w'), 20) ==
        Strings{std::string(64, 'w'), std::string(64, 'w'), "ww"});
  CHECK(SubjectWords(std::string(64, 'w') + "-x", 20) == Strings{std::string(64, 'w'), "x"});
  CHECK(SubjectWords("a b c d", 2) == Strings{"a", "b"});
  CHECK(SubjectWords("\xc3\xa9t\xc3\xa9 ok", 20) == Strings{"t", "ok"});
  CHECK(SubjectWords(std::string(1 << 20, ' ') + "end", 20) == Strings{"end"});
}

TEST_CASE("command lines: the keyword alone on a line with its arguments", "[daemon][scan]") {
  using Args = std::optional<Strings>;
  CHECK(FindCommandLine("join ligue1 Alice fr", "join", 2, 3) == Args{{"ligue1", "Alice", "fr"}});
  CHECK(FindCommandLine("Hello\r\n  JoIn\tl  p \t\r\r\nbye", "join", 2, 3) == Args{{"l", "p"}});
  CHECK(FindCommandLine("resign g tok\n", "resign", 2, 2) == Args{{"g", "tok"}});
  CHECK(FindCommandLine("x\nresign g tok", "resign", 2, 2) == Args{{"g", "tok"}});
  // The first line that is a command wins; lines that are not are passed over.
  CHECK(FindCommandLine("join a\njoin b c\njoin d e", "join", 2, 3) == Args{{"b", "c"}});
  // Too few or too many arguments, another keyword, text before the keyword.
  CHECK_FALSE(FindCommandLine("join a", "join", 2, 3));
  CHECK_FALSE(FindCommandLine("join a b c d", "join", 2, 3));
  CHECK_FALSE(FindCommandLine("resign g", "resign", 2, 2));
  CHECK_FALSE(FindCommandLine("joiner a b", "join", 2, 3));
  CHECK_FALSE(FindCommandLine("please join a b", "join", 2, 3));
  CHECK_FALSE(FindCommandLine("", "join", 2, 3));
  // Only spaces and tabs separate; any other blank spoils the line (as \S did).
  CHECK_FALSE(FindCommandLine("join a\rb c", "join", 2, 3));
  CHECK_FALSE(FindCommandLine("join a\fb", "join", 2, 3));
  CHECK_FALSE(FindCommandLine("\rjoin a b", "join", 2, 3));
  // Bytes beyond ASCII are argument bytes like any other.
  CHECK(FindCommandLine("join l \xc3\xa9lise", "join", 2, 3) == Args{{"l", "\xc3\xa9lise"}});
  // Long inputs: linear, no recursion.
  CHECK_FALSE(FindCommandLine("join" + std::string(1 << 20, ' '), "join", 2, 3));
  CHECK_FALSE(FindCommandLine(std::string(1 << 20, '\n'), "join", 2, 3));
  CHECK(FindCommandLine(std::string(1 << 20, ' ') + "join a b", "join", 2, 3) == Args{{"a", "b"}});
  std::string words = "join";
  for (int i = 0; i < 100000; ++i) words += " w";
  CHECK_FALSE(FindCommandLine(words, "join", 2, 3));
}

}  // namespace
}  // namespace pbem::daemon::mail
