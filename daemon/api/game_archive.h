// A game's archives over HTTP: the archive page (templates/archive.h) at
// /v1/games/{id}/archive/[FILE], built on first request per game and number of turns into
// <cache dir>/<id>-<turns>/ and served from there, and the verifiable archive file at
// /v1/games/{id}/export (what `pbem export` writes and `pbem verify` checks).
#ifndef PBEM_DAEMON_API_GAME_ARCHIVE_H_
#define PBEM_DAEMON_API_GAME_ARCHIVE_H_

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
}  // namespace pbem::daemon

namespace pbem::daemon::api {

class GameArchive {
 public:
  // `catalog` and `logger` must outlive this object. The page is off (404) unless
  // `mail_templates` is set and `cache_dir` is not empty.
  GameArchive(GameCatalog& catalog, const templates::MailTemplates* mail_templates,
              std::filesystem::path template_dir, std::filesystem::path cache_dir,
              spdlog::logger& logger)
      : catalog_(catalog),
        mail_templates_(mail_templates),
        template_dir_(std::move(template_dir)),
        cache_dir_(std::move(cache_dir)),
        logger_(logger) {}

  // `file` of the archive page ("index.html", a turn page, a map, style.css).
  Answer Page(storage::GameRepository& repository, const std::string& id, const std::string& file);
  // The game's pbem.v1.Archive, binary.
  Answer Export(storage::GameRepository& repository, const std::string& id);

 private:
  std::optional<Answer> WriteArchiveDir(storage::GameRepository& repository,
                                        const storage::Game& game,
                                        const std::filesystem::path& dir);
  Answer StoreError(const Status& status, const std::string& what) {
    return api::StoreError(logger_, status, what);
  }

  GameCatalog& catalog_;
  const templates::MailTemplates* mail_templates_;
  std::filesystem::path template_dir_;
  std::filesystem::path cache_dir_;
  spdlog::logger& logger_;
};

}  // namespace pbem::daemon::api

#endif  // PBEM_DAEMON_API_GAME_ARCHIVE_H_
