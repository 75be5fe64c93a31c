// The welcome mails of a new game (issue 14): one per player, in the player's language
// (templates/mail/<lang>/welcome.*), telling their side, who plays the other side, the
// scenario, their token, how to send orders (by mail, over HTTP), when the first turn is due
// and where the rules are (attached when the ruleset directory has them: RULES.md in English,
// REGLES.md in French). The player of the side that moves first gets "your move, due by ..."
// at the top and the side's orders template, attached and quoted (orders_template.h), with the
// player's own token in it. The caller stores them with the game, in one transaction
// (GameRepository::CreateGameWithPlayers), so that no game exists whose players were not told.
#ifndef PBEM_DAEMON_WELCOME_MAIL_H_
#define PBEM_DAEMON_WELCOME_MAIL_H_

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "daemon/game_catalog.h"
#include "storage/game_repository.h"
#include "templates/mail_render.h"

namespace pbem::daemon {

struct WelcomeContext {
  const ScenarioData* data = nullptr;  // REQUIRES: not null
  std::string game_id;
  std::string reply_to;  // pbemd's own address (pbemd.mail.from)
  // <rulesets_dir>/<ruleset>/RULES.md (REGLES.md) is attached when it can be read.
  std::filesystem::path rulesets_dir;
  // When the first turn's orders are due; nullopt when the game has no timeout.
  std::optional<std::chrono::sys_seconds> deadline;
};

// One mail per player, in the order given. Fails only when a template does not render.
Result<std::vector<storage::NewMail>> WelcomeMails(const templates::MailTemplates& templates,
                                                   const WelcomeContext& context,
                                                   const std::vector<storage::NewPlayer>& players,
                                                   storage::Timestamp now);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_WELCOME_MAIL_H_
