// What every mail pbemd writes to a player starts from: the player's language and the outbox
// entry of a rendered mail.
#ifndef PBEM_DAEMON_PLAYER_MAIL_H_
#define PBEM_DAEMON_PLAYER_MAIL_H_

#include <string>

#include "storage/game_repository.h"
#include "templates/mail_render.h"

namespace pbem::daemon {

// The language `player` reads (storage Player::language); English for a tag the templates do
// not know.
inline templates::Language LanguageOf(const storage::Player& player) {
  return templates::ParseLanguage(player.language).value_or(templates::Language::kEnglish);
}

// The outbox entry of `mail` for `recipient`, due at `now`: subject and text body, with the HTML
// body as its first part when `with_html` (the caller adds other parts after it).
inline storage::NewMail NewMailOf(const std::string& recipient, const templates::Mail& mail,
                                  storage::Timestamp now, bool with_html = true) {
  storage::NewMail out;
  out.recipient = recipient;
  out.subject = mail.subject;
  out.body = mail.text;
  out.next_try = now;
  if (with_html) out.attachments.push_back(storage::Attachment{"", "text/html", mail.html});
  return out;
}

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_PLAYER_MAIL_H_
