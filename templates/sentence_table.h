// The sentence tables of the mail templates (templates/mail/<lang>/*.table and
// templates/mail/<lang>/systems/...): one "key: sentence" a line, the sentence a mustache
// template over the arguments of a verdict or event; '#' starts a comment line, blank lines are
// ignored. Shared by MailTemplates::Load (Morne Plaine's tables) and SystemWords::Load (a game
// system's reason sentences) so that there is one parser.
#ifndef PBEM_TEMPLATES_SENTENCE_TABLE_H_
#define PBEM_TEMPLATES_SENTENCE_TABLE_H_

#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "templates/status.h"

namespace pbem::templates {

using SentenceTable = std::map<std::string, std::string, std::less<>>;

// The whole file at `path`; an error naming it when it cannot be read.
Status ReadTemplateFile(const std::filesystem::path& path, std::string* out);

// Adds the lines of `text` (read from `path`, named in errors with the line number) to
// `table`. Fails on a line without ':', an empty key or sentence, a sentence that is not valid
// mustache, and a key given twice.
Status ParseSentenceTable(const std::filesystem::path& path, const std::string& text,
                          SentenceTable* table);

}  // namespace pbem::templates

#endif  // PBEM_TEMPLATES_SENTENCE_TABLE_H_
