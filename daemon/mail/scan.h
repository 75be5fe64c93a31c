// Bounded, linear scanners over untrusted mail text, in place of regular expressions (a
// std::regex recurses once per character it matches and overflows the stack on long input:
// issue 13, finding 1). Each scanner reads its input once from left to right with a constant
// look-ahead (at most one bounded field value), never recurses, and allocates at most its
// results. Each documents the exact language it accepts.
#ifndef PBEM_DAEMON_MAIL_SCAN_H_
#define PBEM_DAEMON_MAIL_SCAN_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pbem::daemon::mail {

// Blanks as the C locale's isspace has them: space, \t, \n, \v, \f, \r.
bool IsBlank(char c);

// The values of game-id fields in `text`, leftmost first, matches not overlapping:
//   key    := 'game_id' | '"game' ['_'] ('i' | 'I') 'd"'
//   field  := key BLANK* ':' BLANK* '"' VALUE '"'
//   VALUE  := 1 to 64 bytes, none of them '"' or '\'
// (text format `game_id: "x"`, JSON `"gameId": "x"` / `"game_id": "x"`). A key whose field
// does not complete is skipped and the search goes on one byte further. Values beyond
// `max_values` are not looked for.
std::vector<std::string> GameIdFields(std::string_view text, std::size_t max_values);

// The words of a subject, leftmost first: maximal runs of at most 64 bytes that start with an
// ASCII letter or digit and go on with letters, digits, '_', '.', '-' (a longer run gives
// several words, 64 bytes each). At most `max_words`.
std::vector<std::string> SubjectWords(std::string_view subject, std::size_t max_words);

// A command alone on a line: the first line of `text` (lines end at '\n') that reads
//   [ \t]* KEYWORD ([ \t]+ ARG){min_args..max_args} [ \t\r]*
// where KEYWORD matches `keyword` in any ASCII case and an ARG is one or more bytes none of
// which is a blank (IsBlank). Its args; nullopt when no line is such a command.
std::optional<std::vector<std::string>> FindCommandLine(std::string_view text,
                                                        std::string_view keyword,
                                                        std::size_t min_args, std::size_t max_args);

struct HeaderField {
  std::string name;   // as written
  std::string value;  // unfolded: each line break of a folded field removed; no CR or LF left
};

struct ScannedHeaders {
  std::vector<HeaderField> fields;  // at most the max_fields first
  std::size_t count = 0;            // every field, also those past max_fields
  std::size_t body_offset = 0;      // where the body starts (after the blank line), or the end
  std::size_t bad_lines = 0;        // lines that are neither a field nor a continuation
};

// The header block of a mail: lines up to the first empty line ("\r\n" or "\n"), each
//   NAME ':' VALUE      NAME: 1 to 256 printable ASCII bytes but ':'
// or a continuation (starts with a space or a tab) of the field above. Other lines are counted
// in bad_lines and skipped. Linear in the header block, whatever its size.
ScannedHeaders ScanHeaders(std::string_view raw, std::size_t max_fields);

// `text` with every control byte (below 0x20, and 0x7F) replaced by a space: safe to put in a
// header of a reply (no CR or LF can end the line).
std::string OneLine(std::string_view text);

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_SCAN_H_
