// Subjects with accents (issue 20: the French deadline-extension subject showed a double
// space): a long French subject goes through BuildMimeMessage, its Subject header is read back
// from the raw message, unfolded and decoded, and must equal the subject exactly, whether the
// decoder drops the white space between encoded words (RFC 2047, ours) or keeps it (Poco's);
// no encoded word passes 75 bytes nor cuts a character, no line passes 78 bytes. Decoding: what
// mail clients write (words cut inside a character, B and Q, Latin-1, encoded words next to
// plain text) comes out as they meant it.
#include "daemon/mail/header_words.h"

#include <Poco/Net/MessageHeader.h>

#include <catch2/catch.hpp>

#include "daemon/mail/inbound.h"
#include "daemon/mail/mailer.h"

namespace pbem::daemon::mail {
namespace {

// The Subject field of a raw message: its value as written (folds included).
std::string RawSubject(const std::string& raw) {
  const std::size_t at = raw.find("\r\nSubject: ");
  REQUIRE(at != std::string::npos);
  std::size_t end = at + 2;
  do {
    end = raw.find("\r\n", end + 1);
  } while (end + 2 < raw.size() && (raw[end + 2] == ' ' || raw[end + 2] == '\t'));
  return raw.substr(at + 2 + 9, end - at - 2 - 9);
}

std::string Unfolded(std::string value) {
  for (std::size_t at; (at = value.find("\r\n")) != std::string::npos;) value.erase(at, 2);
  return value;
}

bool ValidUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

TEST_CASE("subjects: a long French subject decodes exactly, by RFC 2047 and by Poco") {
  const std::vector<std::string> subjects = {
      // the deadline extension as league/fr/extension.subject words it, and longer ones
      "Partie ligue-printemps-s1-r2-g3 : délai prolongé de 2 jours 3 heures 15 minutes",
      "Partie demo : la date limite du tour est repoussée au jeudi 19 novembre 2026 à 08 h 13",
      "Re: Partie demo : votre ordre a été refusé, l'unité « Général de Brigade » est éliminée",
      "Ligue Été : fin de saison, le classement définitif et le champion de la saison 1 — "
      "félicitations à Hélène Dupré",
      "Partie x : ééééééééééééééééééééééééééééééééééééééééééééééé",  // one long run
      "Partie demo : délai  prolongé",                               // two spaces
      "Game demo: your move",                                        // plain ASCII
  };
  for (const std::string& subject : subjects) {
    storage::OutboxMail mail;
    mail.id = 7;
    mail.recipient = "bob@test.local";
    mail.subject = subject;
    mail.body = "x\n";
    Result<OutgoingMessage> built = BuildMimeMessage(mail, "game@test.local");
    REQUIRE(built.ok());
    const std::string raw_value = RawSubject(built->data);
    INFO(subject << "\n" << raw_value);
    // Lines of at most 78 bytes (but an unbreakable ASCII word), encoded words of at most 75,
    // each a whole number of characters.
    std::size_t start = 0;
    while (start <= raw_value.size()) {
      std::size_t end = raw_value.find("\r\n", start);
      if (end == std::string::npos) end = raw_value.size();
      CHECK(end - start + (start == 0 ? 9 : 0) <= 78);
      start = end + 2;
    }
    for (std::size_t at = raw_value.find("=?"); at != std::string::npos;
         at = raw_value.find("=?", at + 2)) {
      const std::size_t end = raw_value.find("?=", at + 10);
      REQUIRE(end != std::string::npos);
      CHECK(end + 2 - at <= 75);
      const std::string alone = DecodeHeaderText(raw_value.substr(at, end + 2 - at));
      CHECK(ValidUtf8(alone));
      at = end;
    }
    CHECK(DecodeHeaderText(raw_value) == subject);
    CHECK(ParseInbound(built->data, LimitsConfig{}, true).subject == subject);
    // A decoder that keeps the space between encoded words (Poco's) reads it right too, but
    // for a run of accented words too long for one encoded word: the only case in which two
    // encoded words stand side by side; then the cut is after a space, never inside a word.
    const std::string unfolded = Unfolded(raw_value);
    const bool side_by_side = unfolded.find("?= =?") != std::string::npos;
    CHECK(side_by_side == (subject.find("été refusé") != std::string::npos ||
                           subject.find("ééééé") != std::string::npos));
    if (!side_by_side) {
      CHECK(Poco::Net::MessageHeader::decodeWord(unfolded) == subject);
    } else if (subject.find("ééééé") == std::string::npos) {
      CHECK(unfolded.find("_?= =?") != std::string::npos);
    }
  }
}

TEST_CASE("subjects: encoded words as mail clients write them are decoded") {
  // A character cut across two B words (as Gmail cuts them), folded.
  CHECK(DecodeHeaderText("=?UTF-8?B?UmU6IETD?=\r\n =?UTF-8?B?qWxhaQ==?=") == "Re: Délai");
  // Q with '_' for spaces, lower-case q, Latin-1, a language (RFC 2231).
  CHECK(DecodeHeaderText("=?utf-8?q?d=C3=A9lai_prolong=C3=A9?=") == "délai prolongé");
  CHECK(DecodeHeaderText("=?ISO-8859-1?Q?d=E9lai?=") == "délai");
  CHECK(DecodeHeaderText("=?UTF-8*fr?Q?=C3=A0?=") == "à");
  // Spaces between an encoded word and plain text are kept; between two encoded words not.
  CHECK(DecodeHeaderText("Re: =?UTF-8?Q?d=C3=A9lai?= prolong\xC3\xA9 =?UTF-8?Q?=C3=A0?=  "
                         "=?UTF-8?Q?_8_h?=") == "Re: délai prolongé à 8 h");
  // What is no encoded word stays as written.
  CHECK(DecodeHeaderText("a =? b =?UTF-8?Q?x y?= =?UTF-8?B?***?= =?UTF-8?Q?=ZZ?=") ==
        "a =? b =?UTF-8?Q?x y?= =?UTF-8?B?***?= =?UTF-8?Q?=ZZ?=");
  CHECK(DecodeHeaderText("=?unknown-charset?Q?abc?=") == "abc");
  CHECK(DecodeHeaderText("") == "");
}

}  // namespace
}  // namespace pbem::daemon::mail
