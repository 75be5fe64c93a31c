// Bodies in the charset their mail declares, to UTF-8 before the orders are parsed (issue 13,
// finding 9): glibc's iconv, which knows every charset mail clients write (iso-8859-1 to -16,
// windows-1250 to -1258, koi8-r, utf-16 with its byte-order mark...) by its IANA name and
// aliases, with no table of our own and no library beyond the C library.
#ifndef PBEM_DAEMON_MAIL_CHARSET_H_
#define PBEM_DAEMON_MAIL_CHARSET_H_

#include <string>
#include <string_view>

#include "storage/status.h"

namespace pbem::daemon::mail {

// `bytes` in `charset` (a MIME charset parameter, any case), as UTF-8. An empty charset,
// us-ascii and utf-8 leave the bytes as they are (the parser judges them). A name that is not a
// charset's (unknown to iconv, or other than letters, digits and "-_.:", or longer than 40
// bytes) fails naming it, as does a byte sequence invalid in that charset.
Result<std::string> ToUtf8(std::string_view bytes, std::string_view charset);

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_CHARSET_H_
