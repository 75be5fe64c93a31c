// The orders template in a reply (issue 14): every mail asking a player to move carries the
// side's orders template between two marker lines (kTemplateBegin, kTemplateEnd:
// daemon/orders_template.h writes them). A player replies with the template edited, quoted by
// their mail client ("> " before each line, perhaps several levels) or not, between their own
// words, a "wrote:" line and a signature. TemplateInReply finds the first begin marker, takes
// the lines up to the next end marker, and removes the quoting from each, so that what is left
// is the text-format orders the player edited, and nothing else of the mail.
//
// Hostile input: one linear pass, no regex, no recursion; a begin marker with no end marker
// after it is no template (nullopt: the mail is read as before).
#ifndef PBEM_DAEMON_MAIL_QUOTED_ORDERS_H_
#define PBEM_DAEMON_MAIL_QUOTED_ORDERS_H_

#include <optional>
#include <string>
#include <string_view>

namespace pbem::daemon::mail {

// The first and last lines of an orders template: text-format comments, so that the template
// parses as it is, markers included.
inline constexpr std::string_view kTemplateBegin = "#--- pbem orders: begin ---";
inline constexpr std::string_view kTemplateEnd = "#--- pbem orders: end ---";

// The line without its quoting: leading blanks and '>' characters, each '>' with at most one
// blank after it ("> > x", ">>x", " > x" all give "x").
std::string_view Unquoted(std::string_view line);

// The template's lines (markers included), unquoted and joined with '\n'; nullopt when `text`
// holds no begin marker followed by an end marker.
std::optional<std::string> TemplateInReply(std::string_view text);

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_QUOTED_ORDERS_H_
