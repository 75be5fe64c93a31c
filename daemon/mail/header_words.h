// Non-ASCII text in mail headers: RFC 2047 encoded words, both ways (issue 20: a French
// subject showed a double space).
//
// Poco's MailMessage::encodeWord cuts its output every 64 bytes into adjacent encoded words,
// wherever it is, even inside a UTF-8 character, and Poco's MessageHeader::decodeWord keeps
// the white space between adjacent encoded words, which RFC 2047 (6.2) says to drop: a subject
// encoded by one and decoded by the other gained a space at each cut ("délai prolongé de
// 2 jours" became "délai prolongé de  2 jours"), and a client that decodes each word alone saw
// a broken character when a cut fell inside one. So:
//  - EncodeHeaderText encodes only the words that need it; consecutive ones form one encoded
//    word (their spaces inside it), cut only when longer than an encoded word may be (75
//    bytes), after a space where one fits, never inside a character; lines are folded at
//    spaces before 78 bytes. ASCII words stay as written, so the spaces around them are plain
//    spaces every decoder keeps (only such a long run of accented words leaves two encoded
//    words side by side, where a decoder like Poco's shows one space more).
//  - DecodeHeaderText decodes encoded words (B and Q, any charset iconv knows: charset.h),
//    drops the white space between two of them, and joins the bytes of adjacent words in the
//    same charset before converting them (a character cut across two words comes out whole).
// Hostile input: one pass, no regex, no recursion.
#ifndef PBEM_DAEMON_MAIL_HEADER_WORDS_H_
#define PBEM_DAEMON_MAIL_HEADER_WORDS_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace pbem::daemon::mail {

// `text` (UTF-8, one line: daemon/validate.h's HeaderSafe) as a header value, folded with
// "\r\n " where a line would pass 78 bytes; `used` is the length of the line's start before
// the value ("Subject: " = 9).
std::string EncodeHeaderText(std::string_view text, std::size_t used);

// A header value (folded or not) with its encoded words decoded, as UTF-8. Text that is no
// encoded word (bad base64, no "?=") is kept as written; the bytes of a word in a charset
// iconv does not know are kept as they are.
std::string DecodeHeaderText(std::string_view value);

}  // namespace pbem::daemon::mail

#endif  // PBEM_DAEMON_MAIL_HEADER_WORDS_H_
