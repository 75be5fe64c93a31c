// The one spacing rule of the French words (templates/README.md, "French typography"): U+00A0
// NO-BREAK SPACE before ':' ';' '!' '?' and inside « », so that no mail client or map legend
// breaks a line before the mark or leaves a guillemet alone at a line's end. Checked when the
// French templates are loaded (MailTemplates::Load, SystemWords::Load) and, over every file under
// a fr/ directory of templates/, by templates_mail_tests.
//
// Not checked: a ':' with no space at all before it. In these files such a colon is syntax far
// more often than prose ("key: sentence" table keys, "Re:", "Authorization: Bearer",
// "game_id: ...", "path: [...]", CSS "color: #666", URLs, times), and a lexical check cannot tell
// the two apart without a list of exceptions that would be wrong the other way. The files were
// read for it by hand when the rule was made (no prose colon without its space was found).
#ifndef PBEM_TEMPLATES_FRENCH_TYPOGRAPHY_H_
#define PBEM_TEMPLATES_FRENCH_TYPOGRAPHY_H_

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "templates/status.h"

namespace pbem::templates {

// UTF-8 of U+00A0, the space the French words put before ':' ';' '!' '?' and inside « ».
inline constexpr std::string_view kNoBreakSpace = "\xc2\xa0";

// Every breach of the rule in `text` (the contents of `path`), each "path:line: what": an
// ordinary space, a tab or U+202F before ':' ';' '!' '?' or '»'; after '«' anything but U+00A0;
// before '»' anything but U+00A0. Mustache tags ({{...}}) are not text and are skipped.
std::vector<std::string> FrenchSpacingProblems(const std::filesystem::path& path,
                                               std::string_view text);

// Ok, or an error naming the first problem of FrenchSpacingProblems (and how many more).
Status CheckFrenchSpacing(const std::filesystem::path& path, std::string_view text);

}  // namespace pbem::templates

#endif  // PBEM_TEMPLATES_FRENCH_TYPOGRAPHY_H_
