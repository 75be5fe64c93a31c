// The body of an order request sent as text (text/plain, application/json), checked before it
// is parsed, so that what is accepted is what the sender meant and reads the same every time:
//   - the charset parameter: absent, utf-8 or us-ascii: the body must be UTF-8 as it is;
//     iso-8859-1 (latin1, latin-1, l1) or windows-1252: transcoded to UTF-8 (every byte is a
//     character); any other charset is refused.
//   - a UTF-8 byte order mark at the very start is dropped.
//   - no control character but tab, line feed and carriage return (no NUL, no ESC, no DEL...),
//     also inside a comment: a comment a reader cannot see is no place to hide bytes.
// The refusal names the first offending byte: its offset, line and column.
#ifndef PBEM_DAEMON_TEXT_BODY_H_
#define PBEM_DAEMON_TEXT_BODY_H_

#include <string>
#include <string_view>

#include "storage/status.h"

namespace pbem::daemon {

// The body as UTF-8 text, or INVALID_ARGUMENT with a sentence naming what is wrong.
Result<std::string> TextBody(std::string_view body, std::string_view content_type);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_TEXT_BODY_H_
