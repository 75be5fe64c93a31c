// The admin's game operations over HTTP (the admin token, pbemd.http.admin_token):
// POST /v1/games creates a game, its players and their welcome mails in one transaction and
// opens its first turn; POST /v1/games/{id}/pause|resume stops or restarts its clock.
#ifndef PBEM_DAEMON_API_GAME_ADMIN_H_
#define PBEM_DAEMON_API_GAME_ADMIN_H_

#include <filesystem>
#include <optional>
#include <string>

#include "daemon/api/answer.h"
#include "storage/game_repository.h"

namespace pbem::templates {
class MailTemplates;
}  // namespace pbem::templates

namespace pbem::daemon {
class GameCatalog;
class TurnLoop;
}  // namespace pbem::daemon

namespace pbem::daemon::api {

// What game creation needs besides the store.
struct GameAdminSettings {
  std::string admin_token;  // empty: every operation is refused (403)
  // Opens the first turn of a new game; null: the scheduler opens it at its next pass.
  TurnLoop* turns = nullptr;
  // The welcome mails: written when mail_templates is set and mail_from is not empty.
  const templates::MailTemplates* mail_templates = nullptr;
  std::string mail_from;
  std::filesystem::path rulesets_dir;  // where the rules the welcome mails attach are
};

class GameAdmin {
 public:
  // `catalog`, `settings` and `logger` must outlive this object.
  GameAdmin(GameCatalog& catalog, const GameAdminSettings& settings, spdlog::logger& logger)
      : catalog_(catalog), settings_(settings), logger_(logger) {}

  // A 403 unless `token` is the admin token; `what` names what is off without one.
  std::optional<Answer> RefuseUnlessAdmin(const std::string& token, const std::string& what) const;
  // 201 with the game (and its open turn), from the JSON `body`. REQUIRES: the admin checked.
  Answer CreateGame(storage::GameRepository& repository, const std::string& body);
  // Pauses or resumes a game's clock (the scheduler leaves a paused game alone). REQUIRES: the
  // admin checked.
  Answer Pause(storage::GameRepository& repository, const std::string& game_id, bool pause);

 private:
  Answer StoreError(const Status& status, const std::string& what) {
    return api::StoreError(logger_, status, what);
  }

  GameCatalog& catalog_;
  const GameAdminSettings& settings_;
  spdlog::logger& logger_;
};

}  // namespace pbem::daemon::api

#endif  // PBEM_DAEMON_API_GAME_ADMIN_H_
