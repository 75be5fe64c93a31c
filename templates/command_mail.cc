// The replies to the mail commands status, archive and help (daemon/mail/commands.h), worded
// in templates/mail/<lang>/command_*.{subject,txt} like every other mail.
#include <kainjow/mustache.hpp>
#include <string>
#include <vector>

#include "templates/mail_render.h"
#include "templates/mail_text.h"

namespace pbem::templates {

namespace mst = kainjow::mustache;

namespace {

void SetLinks(const std::string& history_url, const std::string& archive_url, mst::data& d) {
  d.set("has_links", !history_url.empty());
  d.set("history_url", history_url);
  d.set("archive_url", archive_url);
}

}  // namespace

Status MailTemplates::RenderGameStatus(Language language, const GameStatusInput& in,
                                       std::string* text) const {
  mst::data d;
  d.set("game", in.game_id);
  d.set("scenario", in.scenario);
  d.set("unreadable", !in.unreadable.empty());
  d.set("reason", in.unreadable);
  d.set("turn", std::to_string(in.turn));
  d.set("side", Word(language, "side", in.side));
  d.set("mover", Word(language, "side", in.mover));
  d.set("over", in.over);
  d.set("has_result", !in.result.empty());
  d.set("result", in.result);
  d.set("your_move", in.mover == in.side);
  d.set("orders_in", in.orders_in);
  d.set("received", in.orders_in ? FormatDate(language, in.received) : std::string());
  d.set("paused", in.paused);
  d.set("has_deadline", in.open_turn && in.deadline.has_value());
  d.set("no_deadline", in.open_turn && !in.deadline.has_value());
  d.set("deadline", in.deadline ? FormatDate(language, *in.deadline) : std::string());
  SetLinks(in.history_url, in.archive_url, d);
  return detail::RenderTextFile(Set(language), "command_game.txt", d, text);
}

Status MailTemplates::RenderCommandReply(Language language, const CommandReplyInput& in,
                                         Mail* out) const {
  mst::data d;
  detail::SetGreeting(d, in.player_name);
  d.set("game", in.game_id);
  mst::data games{mst::data::type::list};
  for (const std::string& text : in.games) {
    mst::data item;
    item.set("text", text);
    games.push_back(item);
  }
  d.set("games", games);
  d.set("cut", in.cut_at > 0);
  d.set("max", std::to_string(in.cut_at));
  using Archive = CommandReplyInput::Archive;
  d.set("attached", in.archive == Archive::kAttached);
  d.set("too_large", in.archive == Archive::kTooLarge);
  d.set("no_archive", in.archive == Archive::kNone);
  d.set("turns", std::to_string(in.player_turns));
  d.set("file", in.file);
  SetLinks(in.history_url, in.archive_url, d);
  d.set("names_no_game", in.names_no_game);
  d.set("has_named", !in.named_game.empty());
  d.set("named", in.named_game);
  d.set("address", in.address);
  d.set("has_url", !in.public_url.empty());
  d.set("url", in.public_url);
  const char* kind = "command_help";
  switch (in.kind) {
    case CommandReplyKind::kStatus:
      kind = "command_status";
      break;
    case CommandReplyKind::kGames:
      kind = "command_games";
      break;
    case CommandReplyKind::kArchive:
      kind = "command_archive";
      break;
    case CommandReplyKind::kHelp:
      break;
  }
  return detail::RenderTextMail(Set(language), kind, d, out);
}

}  // namespace pbem::templates
