// Validation of what strangers send, at the boundary where it enters (HTTP bodies, mail
// commands, CLI arguments): mail addresses, display names, header-bound text. One validator
// per kind, used everywhere that kind enters, so that what is stored and later put into a mail
// header or an SQL row has passed the same rule. Hand-written scanners: linear, no recursion,
// no std::regex. Each check returns nullopt when the value is good, else a sentence fragment
// saying what is wrong, for an error that names the field ("\"email\" " + problem).
#ifndef PBEM_DAEMON_VALIDATE_H_
#define PBEM_DAEMON_VALIDATE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pbem::daemon {

// RFC 5321's limits: a path holds at most 256 octets with its angle brackets.
inline constexpr std::size_t kMaxAddressBytes = 254;
inline constexpr std::size_t kMaxLocalPartBytes = 64;

// An RFC 5322 addr-spec without comments, folding white space or obsolete forms: a local part
// that is a dot-atom or a quoted string, '@', a domain that is a dot-atom or a domain literal
// ("[192.0.2.1]"); ASCII only (no SMTPUTF8); at most kMaxAddressBytes (local part at most
// kMaxLocalPartBytes); no CR, LF, NUL or other control character anywhere. Refuses "@", "a@",
// "a@b,c@d", "a@b\r\nBcc: c@d".
std::optional<std::string> MailAddressProblem(std::string_view address);
inline bool IsMailAddress(std::string_view address) { return !MailAddressProblem(address); }

// A person's or a league's display name, the one rule for every door a name comes in by
// (HTTP, mail commands, the CLI): valid UTF-8, 1 to `max_chars` characters (code points) and
// at most kMaxNameBytes bytes, with nothing that lets a name pass for another one:
//  - no C0 or C1 control, DEL, line or paragraph separator;
//  - nothing invisible: no bidirectional mark, embedding, override or isolate, no zero-width
//    character, word joiner, soft hyphen, variation selector, tag, filler, BOM or
//    noncharacter, no private-use character;
//  - one kind of space, the ASCII space, never two in a row, none leading or trailing;
//  - an accent is typed with its letter ("é", not "e" + U+0301), a combining mark never opens
//    the name and at most two follow one another.
// "Hélène Dupré", "Łukasz Żółć" and "李小龍" are names.
inline constexpr std::size_t kMaxNameChars = 64;
inline constexpr std::size_t kMaxNameBytes = 4 * kMaxNameChars;
std::optional<std::string> DisplayNameProblem(std::string_view name,
                                              std::size_t max_chars = kMaxNameChars);

// True when `text` holds no CR, LF, NUL or other C0 control character (TAB aside) and no DEL:
// it can be put into one mail header line without starting another header.
bool IsHeaderSafe(std::string_view text);
// `text` with every character IsHeaderSafe refuses (a CR LF pair counts as one) replaced by a
// space: for text that is worded into a header (a subject quoting a player's subject).
std::string HeaderSafe(std::string_view text);

// An identifier that names files, URLs and mail subjects (a game id, a league id, a scenario
// name): 1 to `max_chars` ASCII letters, digits, '-', '_' or '.', starting with a letter or a
// digit (so never "." or "..").
bool IsIdentifier(std::string_view text, std::size_t max_chars);
inline bool IsGameId(std::string_view text) { return IsIdentifier(text, 64); }

// A game's deadlines, in seconds: a turn timeout of 0 (no deadline) or from kMinTurnTimeout to
// kMaxTurnTimeout, and a reminder of 0 (none) or less than the timeout. Nullopt when good,
// else the sentence naming the field (turnTimeoutSeconds, reminderBeforeSeconds) that is wrong.
inline constexpr std::int64_t kMinTurnTimeoutSeconds = 1;
inline constexpr std::int64_t kMaxTurnTimeoutSeconds = 366LL * 24 * 3600;
std::optional<std::string> DeadlinesProblem(std::int64_t turn_timeout_s,
                                            std::int64_t reminder_before_s);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_VALIDATE_H_
