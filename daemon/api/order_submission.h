// Orders over HTTP: POST /v1/games/{id}/orders (stored, with per-order verdicts) and
// .../orders/check (the verdicts and each destination order's cheapest path; nothing stored),
// through the order desk (daemon/order_desk.h) that mail intake uses too.
#ifndef PBEM_DAEMON_API_ORDER_SUBMISSION_H_
#define PBEM_DAEMON_API_ORDER_SUBMISSION_H_

#include <optional>
#include <string>

#include "daemon/api/answer.h"
#include "storage/game_repository.h"
#include "templates/mail_render.h"

namespace pbem::daemon {
class GameCatalog;
class OrderDesk;
}  // namespace pbem::daemon

namespace pbem::daemon::api {

// A submission as the request carries it.
struct OrdersRequest {
  std::string body;          // binary protobuf, text format or JSON
  std::string content_type;  // the request's Content-Type ("" when none: detected)
  std::string token;         // the bearer token ("" when none)
  // The language of the verdicts' "text" (?lang=); nullopt: the player's.
  std::optional<templates::Language> language;
  bool record = true;  // false: check only, nothing stored
};

class OrderSubmission {
 public:
  // `catalog`, `desk` and `logger` must outlive this object; `mail_templates` may be null (no
  // templates loaded: tests only; a verdict's "text" is then its codes).
  OrderSubmission(GameCatalog& catalog, OrderDesk& desk,
                  const templates::MailTemplates* mail_templates, spdlog::logger& logger)
      : catalog_(catalog), desk_(desk), mail_templates_(mail_templates), logger_(logger) {}

  Answer Submit(storage::GameRepository& repository, const std::string& id,
                const OrdersRequest& request);

 private:
  Answer StoreError(const Status& status, const std::string& what) {
    return api::StoreError(logger_, status, what);
  }

  GameCatalog& catalog_;
  OrderDesk& desk_;
  const templates::MailTemplates* mail_templates_;
  spdlog::logger& logger_;
};

}  // namespace pbem::daemon::api

#endif  // PBEM_DAEMON_API_ORDER_SUBMISSION_H_
