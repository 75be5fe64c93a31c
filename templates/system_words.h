// A game system's order verdicts in a player's language (issues 16 and 17): the sentence for
// each reason code the system gives, read from data and checked against the system's own codes,
// never a code shown to a player. System-neutral: it knows a system only through the
// game-system interface (engine/system/game_system.h), so a new system needs tables, not code.
//
// Files, under the mail template directory (DefaultMailTemplateDir) and a language directory
// ("en", "fr"):
// - systems/<system>/reasons.table: "CODE: sentence" (templates/sentence_table.h) for every
//   code of GameSystem::ReasonCodes(), no other key. The sentence is mustache over
//     {{unit}}, {{order}}: the verdict's unit and order kind;
//     {{<arg>}} for each Verdict::args by its name ({{model}}, {{limit}}, ...), a length
//       (Arg::unit kThousandthsOfAnInch / kThousandthsOfACm) worded by units.table;
//     {{#<arg>_<value>}}...{{/<arg>_<value>}}: a section shown when the arg's value is that
//       word ({{#detail_not_behind}}): how a sentence words an arg that is a condition code.
// - systems/<system>/events.table: "kind: sentence" for every code of GameSystem::EventKinds(),
//   no other key. The sentence is mustache over {{unit}} (Event::unit) and the Event::args as
//   for a verdict: {{<arg>}} worded, {{#<arg>_<value>}} for an arg whose value is a word
//   ("advance", "true", "0").
// - systems/units.table: "decimal_mark" (the language's, "." or ","), and one sentence per
//   unit (the lengths, and angles in thousandths of a degree) over {{number}} (the value in
//   that unit, with the decimal mark) and the sections {{#one}} (exactly 1) and {{#below_two}}
//   (less than 2 in size: French singular).
// Every system loaded here has both tables. Morne Plaine has none: its verdicts and events are
// worded by its own templates (MailTemplates, templates/mail/<lang>/*.table, from the events'
// `detail`) and SystemWords is not loaded for it; Load fails naming its missing reasons.table.
// Every sentence is parsed once, by Load; Sentence and ArgText render the parsed form. A loaded
// SystemWords is immutable and may be shared between threads.
#ifndef PBEM_TEMPLATES_SYSTEM_WORDS_H_
#define PBEM_TEMPLATES_SYSTEM_WORDS_H_

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "engine/system/game_system.h"
#include "templates/status.h"

namespace pbem::templates {

class SystemWords {
 public:
  // Loads `system`'s reasons and events tables and the units table of `language` (a language
  // directory under `mail_dir`). Fails naming the file: unreadable, not a table, a code of
  // system.ReasonCodes() or system.EventKinds() with no sentence, a key that is not one of its
  // codes, a condition word
  // of system.ConditionArgs() that its reason's sentence does not word (no section
  // {{#<arg>_<word>}} with text in it: the player would read an empty clause), a unit without
  // its sentence; in French ("fr"), a space that breaks templates/french_typography.h's rule.
  static Status Load(const std::filesystem::path& mail_dir, std::string_view language,
                     const game_system::GameSystem& system, SystemWords* out);

  // The sentence for `verdict` (plain text: the caller escapes it for HTML). "" for a verdict
  // without a reason; an error for a code this table does not word (another system's verdict).
  Status Sentence(const game_system::Verdict& verdict, std::string* out) const;

  // The sentence for `event` (plain text: the caller escapes it for HTML); an error for a kind
  // this table does not word (another system's event).
  Status EventSentence(const game_system::Event& event, std::string* out) const;

  // An argument's value as the sentences show it: a length in the language's words and
  // number format ("2.5\"", "2,5 pouces"), anything else as it is.
  std::string ArgText(const game_system::Arg& arg) const;

 private:
  // A sentence's mustache, parsed (system_words.cc).
  class Parsed;
  using ParsedTable = std::map<std::string, std::shared_ptr<const Parsed>, std::less<>>;

  ParsedTable reasons_;
  ParsedTable events_;
  ParsedTable units_;
  std::string decimal_mark_;
};

// `thousandths` / 1000 as a decimal number with `decimal_mark`, exact, trailing zeros dropped:
// 2500 -> "2.5", 12000 -> "12", 1 -> "0.001", -1250 -> "-1.25".
std::string ThousandthsText(std::int64_t thousandths, std::string_view decimal_mark);

}  // namespace pbem::templates

#endif  // PBEM_TEMPLATES_SYSTEM_WORDS_H_
