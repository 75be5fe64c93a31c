// TurnLoop: the TurnJob of pbemd, built on daemon/turn (issue 7). For each game:
//   - Open(): when a game is created, opens its first player-turn (draws and stores the dice
//     seed) and returns the commitment to publish.
//   - ResolveIfDue(): nothing while the game is paused or over. Once the side to move has accepted
//   orders for the open turn (its
//     latest accepted submission wins), or once the turn's deadline (opened_at + the game's
//     turn_timeout + the grace period) has passed (then with no orders: a missed turn),
//     resolves the turn with its committed seed and commits, in ONE transaction: the turn,
//     the next state, the next player-turn opened with a fresh seed, and one results mail per
//     player of the game, through daemon/turn ResolveAndCommit (the one commit path, the one
//     the crash test kills). The commit is refused when an order of the side was accepted
//     after the one read (storage TurnCommit::played_submission): then it resolves again. Before
//     the deadline it reminds the side to move once (the game's reminder_before); a turn resolved
//     without orders counts a missed turn for its player, and TurnLoopOptions::forfeit_after_missed
//     of them end the game (EndGame).
// A results mail: subject, text and HTML from templates/mail_render (RenderResults) in the
// player's language, the map of the next state with the turn's events in that language: the part
// where the turn's action was, at full scale at the top of the HTML (inline), and the whole map
// attached as "<game>-turn-<n>-<side>.png" (daemon/results_maps.h); the revealed seed of the
// turn and the commitment of the next one.
#ifndef PBEM_DAEMON_TURN_LOOP_H_
#define PBEM_DAEMON_TURN_LOOP_H_

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daemon/config.h"
#include "daemon/game_catalog.h"
#include "daemon/metrics.h"
#include "daemon/turn/dice.h"
#include "daemon/turn/system_turn.h"
#include "daemon/turn/turn_job.h"
#include "daemon/turn_job.h"
#include "pbem/v1/orders.pb.h"
#include "storage/game_repository.h"
#include "templates/mail_render.h"

namespace pbem::daemon {

struct TurnLoopOptions {
  // Added to every deadline before a turn is resolved without orders.
  std::chrono::seconds grace{0};
  // The inline map; off in tests that do not look at it (rendering costs ~10 ms).
  bool map_image = true;
  // A player who has missed this many turns (no orders by the deadline) forfeits: the game
  // ends with the other side winning (storage EndGame). 0: never.
  int forfeit_after_missed = 0;
};

// The orders of the side to move found among a game's submissions.
struct PendingOrders {
  pbem::v1::Orders orders;
  std::int64_t submission_id = 0;
};

class TurnLoop final : public TurnJob {
 public:
  // All must outlive the loop. `templates` loaded (MailTemplates::Load).
  TurnLoop(GameCatalog& catalog, const templates::MailTemplates& templates, EntropySource& entropy,
           Metrics& metrics, const LimitsConfig& limits, TurnLoopOptions options = {})
      : catalog_(catalog),
        templates_(templates),
        entropy_(entropy),
        metrics_(metrics),
        limits_(limits),
        options_(options) {}

  // Opens the player-turn the game waits for (idempotent). FAILED_PRECONDITION when the game
  // is finished.
  Result<OpenedTurn> Open(storage::GameRepository& repository, const std::string& game_id,
                          storage::Timestamp now);

  Result<bool> ResolveIfDue(storage::GameRepository& repository, const std::string& game_id,
                            storage::Timestamp now) override;
  // ResolveIfDue; when nothing was due, the wake-up NextWake would give, from ResolveOnce's
  // own reads.
  Result<GameVisit> Visit(storage::GameRepository& repository, const std::string& game_id,
                          storage::Timestamp now) override;

  // The earliest time ResolveOnce would act, read as it reads the game: at once when a player
  // is past the forfeit limit, the turn is not opened yet or the side to move has orders in;
  // else the reminder time (when one is still to send) or the deadline + grace, whichever
  // comes first; nullopt when the game is over or paused or its turn has no deadline.
  Result<std::optional<storage::Timestamp>> NextWake(storage::GameRepository& repository,
                                                     const std::string& game_id,
                                                     storage::Timestamp now) override;

  // One mail per player, in their language (templates RenderTurnStuck), naming the turn the
  // game waits for when its state still loads.
  Result<std::vector<storage::NewMail>> StuckMails(storage::GameRepository& repository,
                                                   const std::string& game_id,
                                                   storage::Timestamp now) override;

  // The latest accepted orders of `side` for the position after `turns_committed` turns;
  // nullopt when there are none. The orders are the ones the desk validated, as stored with
  // the submission (a submission stored before schema 8 is read back from its raw bytes: a
  // mail as intake took it, HTTP the body).
  Result<std::optional<PendingOrders>> FindOrders(storage::GameRepository& repository,
                                                  const std::string& game_id,
                                                  std::int64_t turns_committed,
                                                  const std::string& side);

  // When the open turn's orders are due (opened_at + turn_timeout + the time the game stood
  // paused while it was open), without the grace;
  // nullopt when the game has no timeout.
  static std::optional<storage::Timestamp> Deadline(const storage::Game& game,
                                                    const storage::OpenTurn& open);

 private:
  // One try: true when a turn was committed, false when nothing was due, nullopt when the
  // commit was refused because the stored orders changed meanwhile (try again). When it
  // returns false having read all NextWake reads, it sets `visit`'s wake-up.
  Result<std::optional<bool>> ResolveOnce(storage::GameRepository& repository,
                                          const std::string& game_id, storage::Timestamp now,
                                          GameVisit& visit);
  // The wake-up of a game whose open turn waits for orders due at `deadline`: its deadline +
  // the grace, or its reminder when one is still to send and comes first.
  storage::Timestamp WaitingWake(const storage::Game& game, const storage::OpenTurn& open,
                                 storage::Timestamp deadline) const;
  // The end of a game by forfeit: its result and one mail per player.
  struct Forfeit {
    storage::GameEnding ending;
    std::vector<storage::NewMail> mails;
  };
  // The result and the mails (in each player's language) of `loser`'s forfeit.
  Forfeit ForfeitOf(const std::vector<storage::Player>& players, const storage::Player& loser,
                    const std::string& game_id, storage::Timestamp now) const;
  // Ends the game when a player has missed forfeit_after_missed turns; true when it is over.
  // (A missed turn that reaches the limit ends the game in its own commit; this catches games
  // stored otherwise, e.g. before the limit was lowered.)
  Result<bool> MaybeForfeit(storage::GameRepository& repository, const storage::Game& game,
                            storage::Timestamp now);
  // What a results mail says of the next player-turn `next` (nullopt at the end): its dice
  // commitment and, when the game has a timeout, its deadline.
  static void NextTurnWords(const storage::Game& game, const std::optional<storage::OpenTurn>& next,
                            std::string& commitment,
                            std::optional<std::chrono::sys_seconds>& deadline);
  // ResolveOnce's answer when MaybeForfeit ended the game (false), found it ended by another
  // process meanwhile (nullopt: read it again) or failed; nullopt when the game goes on.
  std::optional<Result<std::optional<bool>>> ForfeitTry(storage::GameRepository& repository,
                                                        const storage::Game& game,
                                                        storage::Timestamp now);
  // ResolveOnce's answer once the commit was tried (`committed` its status): nullopt (try
  // again) when refused because orders were accepted meanwhile or another process committed
  // first; false when it was a replay; true, counting the turn and its `mail_count` mails.
  Result<std::optional<bool>> CommitTry(const Status& committed, bool replayed,
                                        std::size_t mail_count);
  // A Morne Plaine game's scenario and state, for the orders template a reminder carries.
  struct OrdersTemplateOf {
    const ScenarioData& data;
    const engine::GameState& state;
  };
  // Reminds the player to move (open.side) once, reminder_before its deadline
  // (RenderReminder), with the side's orders template (orders_template.h AskToMoveNext) when
  // `orders_template` is given (Morne Plaine's games; other systems have none yet). True when
  // it wrote to the game (the turn marked reminded, by this call or, racing, by another
  // process's).
  Result<bool> MaybeRemind(storage::GameRepository& repository, const storage::Game& game, int turn,
                           const std::optional<OrdersTemplateOf>& orders_template,
                           const storage::OpenTurn& open, storage::Timestamp deadline,
                           storage::Timestamp now);
  // When `side` reaches forfeit_after_missed with this missed turn, the game's end and its
  // mails, added to `after` (committed with the turn: no order can be accepted for a turn that
  // will never be played).
  void ForfeitWithMissedTurn(const std::vector<storage::Player>& players, const std::string& side,
                             const std::string& game_id, storage::Timestamp now,
                             TurnAftermath& after) const;

  // The path of a game of another system than Morne Plaine (turn_loop_system.cc): ResolveOnce
  // and NextWake through the game-system interface and the system turn job
  // (daemon/turn/system_turn.h); the same decisions in the same order.
  Result<std::optional<bool>> ResolveSystemOnce(storage::GameRepository& repository,
                                                const storage::Game& game, storage::Timestamp now,
                                                GameVisit& visit);
  Result<std::optional<storage::Timestamp>> SystemNextWake(storage::GameRepository& repository,
                                                           const storage::Game& game,
                                                           storage::Timestamp now);
  // The latest accepted orders of `player` for the position after `turns_committed` turns, as
  // the desk stored them (the canonical orders envelope); nullopt when there are none.
  struct PendingEnvelope {
    Bytes envelope;
    std::int64_t submission_id = 0;
  };
  Result<std::optional<PendingEnvelope>> FindSystemOrders(storage::GameRepository& repository,
                                                          const std::string& game_id,
                                                          std::int64_t turns_committed,
                                                          const std::string& player);
  // The results mails of a system game's player-turn (RenderSystemResults), one per player.
  Result<std::vector<storage::NewMail>> SystemResultsMails(
      const std::vector<storage::Player>& players, const storage::Game& game,
      const game_system::GameSystem& system, const game_system::Setup& setup,
      const SystemResolution& resolution, const storage::OpenTurn& open,
      const std::optional<storage::OpenTurn>& next, storage::Timestamp now, bool orders_missed);
  Result<std::vector<storage::NewMail>> ResultsMails(
      const std::vector<storage::Player>& players, const storage::Game& game,
      const ScenarioData& data, const engine::GameState& before, const Resolution& resolution,
      const storage::OpenTurn& open, const std::optional<storage::OpenTurn>& next,
      storage::Timestamp now, bool orders_missed);

  GameCatalog& catalog_;
  const templates::MailTemplates& templates_;
  EntropySource& entropy_;
  Metrics& metrics_;
  const LimitsConfig& limits_;
  TurnLoopOptions options_;
};

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_TURN_LOOP_H_
