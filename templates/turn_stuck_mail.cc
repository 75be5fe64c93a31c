// The notice of a turn the referee could not resolve (daemon/scheduler.h: a game stuck after
// its turn job failed too often), worded in templates/mail/<lang>/turn_stuck.{subject,txt}.
#include <kainjow/mustache.hpp>
#include <string>

#include "templates/mail_render.h"
#include "templates/mail_text.h"

namespace pbem::templates {

Status MailTemplates::RenderTurnStuck(Language language, const TurnStuckInput& in,
                                      Mail* out) const {
  kainjow::mustache::data d;
  detail::SetGreeting(d, in.player_name);
  d.set("game", in.game_id);
  d.set("has_turn", in.turn > 0);
  d.set("turn", std::to_string(in.turn));
  d.set("side", Word(language, "side", in.side));
  return detail::RenderTextMail(Set(language), "turn_stuck", d, out);
}

}  // namespace pbem::templates
