// OrderDesk: judges one order submission from an identified sender and stores it, whatever
// the channel (mail intake, HTTP). The checks, in order:
//   1. the orders name the player's game            (else wrong_game)
//   2. they name the player's side and carry the player's token (else unauthenticated)
//   3. they are for the turn being played           (else stale_turn)
//   4. engine::ValidateOrders: header verdicts (game finished ...) refuse the whole set
//      (rejected_orders); order verdicts are reported, and the set is accepted
// Every submission, accepted or not, is stored with RecordSubmission (duplicates, by
// Message-ID or by content, are stored once); the verdicts are stored as a pbem.v1.TurnResult
// holding only game_id, turn, side and verdicts.
#ifndef PBEM_DAEMON_ORDER_DESK_H_
#define PBEM_DAEMON_ORDER_DESK_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "daemon/game_catalog.h"
#include "daemon/metrics.h"
#include "engine/verdict.h"
#include "pbem/v1/orders.pb.h"
#include "storage/game_repository.h"

namespace pbem::daemon {

struct Envelope {
  storage::Channel channel = storage::Channel::kMail;
  std::string sender;      // mail address, or the HTTP client's identity
  std::string message_id;  // mail only
  std::string raw;         // the whole message / request body, stored as is
  storage::Timestamp received_at;
};

struct DeskOutcome {
  bool accepted = false;
  bool duplicate = false;
  std::string code;    // empty when accepted; else a stable code (daemon/mail/replies.h)
  std::string detail;  // what exactly is wrong
  std::string game_id;
  std::int64_t turn = 0;  // the game turn the orders were judged against
  std::string side;
  std::vector<engine::OrderVerdict> verdicts;
  int label_width = 2;
  std::int64_t submission_id = 0;
};

class OrderDesk {
 public:
  OrderDesk(GameCatalog& catalog, Metrics& metrics) : catalog_(catalog), metrics_(metrics) {}

  // Judges `orders` from `player` of `game` (see the header comment) and, when `record`,
  // stores the submission. Fails only when the store fails (nothing was judged final).
  Result<DeskOutcome> Submit(storage::GameRepository& repository, const storage::Game& game,
                             const storage::Player& player, const pbem::v1::Orders& orders,
                             const Envelope& envelope, bool record = true);

  // Called (on the submitting thread) after new orders were accepted and stored, e.g. to
  // wake the scheduler. Set before the desk is shared between threads.
  void OnAccepted(std::function<void(const std::string& game_id)> callback) {
    on_accepted_ = std::move(callback);
  }

  // Stores a refused submission (code and detail) for `game` and counts it.
  Result<DeskOutcome> Refuse(storage::GameRepository& repository, const storage::Game& game,
                             const std::string& code, const std::string& detail,
                             const Envelope& envelope);

 private:
  Result<DeskOutcome> Store(storage::GameRepository& repository, const storage::Game& game,
                            DeskOutcome outcome, const Envelope& envelope, bool record);

  GameCatalog& catalog_;
  Metrics& metrics_;
  std::function<void(const std::string&)> on_accepted_;
};

// "mail" or "http".
const char* ChannelName(storage::Channel channel);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_ORDER_DESK_H_
