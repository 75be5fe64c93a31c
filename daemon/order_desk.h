// OrderDesk: judges one order submission from an identified sender and stores it, whatever
// the channel (mail intake, HTTP). The checks, in order:
//   1. the orders name the player's game            (else wrong_game)
//   2. they name the player's side and carry the player's token, or the reply key of the
//      player-turn open now (reply_key.h)              (else unauthenticated)
//   3. they are for the turn being played and the side to move (else stale_turn)
//   4. engine::ValidateOrders: header verdicts (game finished ...) refuse the whole set
//      (rejected_orders); order verdicts are reported, and the set is accepted
// A game of another system (M42, wme: storage::Game::system) is judged through the game-system
// interface (engine/system/game_system.h) instead of 2-4: the orders' `player` must be the
// player's side, the token as above; the game as LoadAny reads it must wait for that turn and
// player (else stale_turn); the system's DecodeOrders reads the canonical envelope (else
// malformed, its message naming the field); CheckOrders gives the verdicts with the dice key the
// turn loop will resolve with (DiceKey(open turn's seed, canonical orders)), so that what is
// answered accepted is played exactly so. A "header" verdict that is not ok refuses the set
// (rejected_orders). Such a submission stores the canonical envelope as `orders` and no
// `verdicts` (the verdicts are the turn result's once played); DeskOutcome::system_verdicts
// carries them to the answer.
// Every submission, accepted or not, is stored with RecordSubmission; an accepted one with the
// orders exactly as validated (codec::CanonicalOrders), which the turn is resolved with. Duplicates
// (the same Message-ID, or the same bytes as the side's latest accepted orders) are
// duplicates of ACCEPTED submissions of the same side only, and are answered as accepted.
// An accepted submission is stored only if no turn was committed since it was judged (the
// store checks under the game's row lock); otherwise it is judged again and refused as
// stale_turn naming the turn the game is at. The verdicts are stored as a pbem.v1.TurnResult
// holding only game_id, turn, side and verdicts.
#ifndef PBEM_DAEMON_ORDER_DESK_H_
#define PBEM_DAEMON_ORDER_DESK_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "daemon/game_catalog.h"
#include "daemon/metrics.h"
#include "engine/morne_plaine/verdict.h"
#include "engine/system/game_system.h"
#include "pbem/v1/orders.pb.h"
#include "storage/game_repository.h"

namespace pbem::daemon {

struct Envelope {
  storage::Channel channel = storage::Channel::kMail;
  std::string sender;      // mail address, or the HTTP client's identity
  std::string message_id;  // mail only
  std::string raw;         // the whole message / request body, stored as is (but see below)
  storage::Timestamp received_at;
  // The sender proved who they are before the orders were read (HTTP: the bearer token).
  // A mail's sender is proven only by the token inside its orders (DeskOutcome below).
  bool sender_proven = false;
};

// A refused submission whose sender is not proven (a mail From: anyone can write, orders that
// could not be read, or whose token did not match) keeps at most this many bytes of `raw`, and
// its reason says how many were received: anyone could otherwise fill the store with refused
// mails in a player's name. Accepted submissions, and refusals of a proven sender (stale turn,
// orders the engine refuses), keep every byte.
inline constexpr std::size_t kUnprovenRawKept = 8192;

struct DeskOutcome {
  bool accepted = false;
  bool duplicate = false;
  std::string code;    // empty when accepted; else a stable code (daemon/mail/replies.h)
  std::string detail;  // what exactly is wrong
  std::string game_id;
  std::int64_t turn = 0;  // the game turn the orders were judged against
  std::string side;
  std::vector<engine::OrderVerdict> verdicts;  // Morne Plaine's games
  int label_width = 2;
  // A game of another system: its registry key ("m42", "wme") and the verdicts of its
  // CheckOrders, in the orders' order (empty for a Morne Plaine game, `system` "").
  std::string system;
  std::vector<game_system::Verdict> system_verdicts;
  std::int64_t submission_id = 0;
  bool sender_proven = false;  // the orders carried the side's token or the open reply key
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
  // Checks 1-4 against `game` as given; stores nothing.
  Result<DeskOutcome> Judge(storage::GameRepository& repository, const storage::Game& game,
                            const storage::Player& player, const pbem::v1::Orders& orders);
  // Judge's checks for a game of another system than Morne Plaine, after those every game
  // shares (wrong game, game over, another system's body); `outcome` holds what they set.
  Result<DeskOutcome> JudgeSystem(storage::GameRepository& repository, const storage::Game& game,
                                  const storage::Player& player, const pbem::v1::Orders& orders,
                                  DeskOutcome outcome);
  // Stores the judged submission (with `orders` when accepted); nullopt when it was accepted
  // but the game moved on meanwhile (nothing stored: judge it again).
  Result<std::optional<DeskOutcome>> Store(storage::GameRepository& repository,
                                           const storage::Game& game, DeskOutcome outcome,
                                           const pbem::v1::Orders* orders,
                                           const Envelope& envelope);

  GameCatalog& catalog_;
  Metrics& metrics_;
  std::function<void(const std::string&)> on_accepted_;
};

// "mail" or "http".
const char* ChannelName(storage::Channel channel);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_ORDER_DESK_H_
