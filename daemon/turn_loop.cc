#include "daemon/turn_loop.h"

#include <algorithm>
#include <utility>

#include "daemon/fault_point.h"
#include "daemon/mail/inbound.h"
#include "daemon/orders_template.h"
#include "daemon/player_mail.h"
#include "daemon/results_maps.h"
#include "engine/morne_plaine/ids.h"
#include "proto/codec/codec.h"
#include "proto/codec/systems.h"

namespace pbem::daemon {

namespace {

std::string SideText(engine::Side side) { return std::string(engine::SideName(side)); }

std::optional<pbem::v1::Orders> OrdersOf(const storage::Submission& submission,
                                         const LimitsConfig& limits) {
  if (submission.channel == storage::Channel::kHttp) {
    auto parsed = codec::ParseOrders(submission.raw, std::nullopt, "request body");
    if (parsed.ok()) return std::move(parsed).value();
    return std::nullopt;
  }
  const mail::InboundMail mail = mail::ParseInbound(submission.raw, limits, false);
  for (const mail::OrdersCandidate& candidate : mail.candidates) {
    auto parsed = codec::ParseOrders(candidate.bytes, candidate.format, candidate.source);
    if (parsed.ok()) return std::move(parsed).value();
  }
  return std::nullopt;
}

std::chrono::sys_seconds ToSeconds(storage::Timestamp t) {
  return std::chrono::floor<std::chrono::seconds>(t);
}

}  // namespace

void TurnLoop::NextTurnWords(const storage::Game& game,
                             const std::optional<storage::OpenTurn>& next, std::string& commitment,
                             std::optional<std::chrono::sys_seconds>& deadline) {
  if (!next) return;
  commitment = CommitmentFor(next->dice_seed).commitment();
  if (std::optional<storage::Timestamp> due = Deadline(game, *next)) deadline = ToSeconds(*due);
}

std::optional<storage::Timestamp> TurnLoop::Deadline(const storage::Game& game,
                                                     const storage::OpenTurn& open) {
  return TurnDeadline(game, open);
}

Result<OpenedTurn> TurnLoop::Open(storage::GameRepository& repository, const std::string& game_id,
                                  storage::Timestamp now) {
  Result<storage::Game> game = repository.GetGame(game_id);
  if (!game.ok()) return game.status();
  if (game->system != codec::kMornePlaineSystem) {
    Result<GameContext> context = catalog_.LoadAny(*game);
    if (!context.ok()) return context.status();
    const ScenarioData& data = *context->data;
    return OpenSystemTurn(repository, *data.system, data.setup, game_id, entropy_, now);
  }
  Result<std::shared_ptr<const ScenarioData>> data = catalog_.ScenarioOf(*game);
  if (!data.ok()) return data.status();
  return OpenTurn(repository, (*data)->scenario, game_id, entropy_, now);
}

Result<std::optional<PendingOrders>> TurnLoop::FindOrders(storage::GameRepository& repository,
                                                          const std::string& game_id,
                                                          std::int64_t turns_committed,
                                                          const std::string& side) {
  Result<std::vector<storage::Submission>> submissions =
      repository.ListTurnSubmissions(game_id, turns_committed);
  if (!submissions.ok()) return submissions.status();
  for (auto it = submissions->rbegin(); it != submissions->rend(); ++it) {
    if (!it->accepted || it->turn != turns_committed) continue;
    if (!it->side.empty()) {
      if (it->side != side) continue;
      // The orders exactly as the desk validated them: never the raw bytes read again.
      pbem::v1::Orders orders;
      if (!orders.ParseFromString(it->orders)) {
        return Status::Internal("game " + game_id + ": the validated orders of submission " +
                                std::to_string(it->id) + " do not parse");
      }
      return std::optional<PendingOrders>(PendingOrders{std::move(orders), it->id});
    }
    // Stored before schema 8 (no side, no validated orders): read back as intake took them.
    std::optional<pbem::v1::Orders> orders = OrdersOf(*it, limits_);
    if (!orders) continue;
    const std::optional<engine::Side> named = codec::SideFromProto(orders->side());
    if (!named || SideText(*named) != side) continue;
    return std::optional<PendingOrders>(PendingOrders{std::move(*orders), it->id});
  }
  return std::optional<PendingOrders>();
}

Result<GameVisit> TurnLoop::Visit(storage::GameRepository& repository, const std::string& game_id,
                                  storage::Timestamp now) {
  // A commit refused because an order was accepted meanwhile (or another process committed)
  // is resolved again at once, with what is stored now.
  constexpr int kAttempts = 4;
  // TEST-ONLY (daemon/fault_point.h): the job fails here as a broken stored game would.
  if (Status failed = FaultFailure(kFaultTurnLoopResolve, "game=" + game_id); !failed.ok()) {
    return failed;
  }
  for (int attempt = 1;; ++attempt) {
    GameVisit visit;
    Result<std::optional<bool>> done = ResolveOnce(repository, game_id, now, visit);
    if (!done.ok()) return done.status();
    if (done->has_value()) {
      visit.resolved = **done;
      return visit;
    }
    if (attempt == kAttempts) return GameVisit{};  // the next pass tries again
  }
}

Result<bool> TurnLoop::ResolveIfDue(storage::GameRepository& repository, const std::string& game_id,
                                    storage::Timestamp now) {
  Result<GameVisit> visit = Visit(repository, game_id, now);
  if (!visit.ok()) return visit.status();
  return visit->resolved;
}

storage::Timestamp TurnLoop::WaitingWake(const storage::Game& game, const storage::OpenTurn& open,
                                         storage::Timestamp deadline) const {
  storage::Timestamp wake = deadline + options_.grace;
  // MaybeRemind's own conditions, but for the time.
  if (game.deadlines.reminder_before.count() > 0 && !open.reminded_at &&
      deadline.time_since_epoch().count() < kFarFutureMs) {
    wake = std::min(wake, deadline - ClampedDuration(game.deadlines.reminder_before));
  }
  return wake;
}

Result<std::optional<bool>> TurnLoop::ResolveOnce(storage::GameRepository& repository,
                                                  const std::string& game_id,
                                                  storage::Timestamp now, GameVisit& visit) {
  // NextWake's answers where this try stops having read what NextWake reads and written
  // nothing (after a write the scheduler reads the game again: NextWake).
  bool wrote = false;
  const auto idle = [&visit, &wrote](std::optional<storage::Timestamp> wake) {
    visit.wake_known = !wrote;
    visit.wake = wake;
    return Result<std::optional<bool>>(false);
  };
  Result<storage::Game> game = repository.GetGame(game_id);
  if (!game.ok()) return game.status();
  if (game->system != codec::kMornePlaineSystem) {
    return ResolveSystemOnce(repository, *game, now, visit);
  }
  Result<GameContext> context = catalog_.Load(*game);
  if (!context.ok()) return context.status();
  const ScenarioData& data = *context->data;
  const engine::GameState& state = context->state;
  if (state.finished || !game->result.empty() || game->paused_at) return idle(std::nullopt);
  if (auto ended = ForfeitTry(repository, *game, now)) return *ended;
  Result<OpenedTurn> opened = OpenTurn(repository, *game, state, entropy_, now);
  if (!opened.ok()) return opened.status();
  wrote = opened->recorded;
  const std::string side = SideText(state.side_to_move);

  Result<std::optional<PendingOrders>> pending =
      FindOrders(repository, game_id, game->turns_committed, side);
  if (!pending.ok()) return pending.status();
  CommitPlan plan;
  plan.based_on = game->turns_committed;
  plan.entropy = &entropy_;
  pbem::v1::Orders orders;
  if (pending->has_value()) {
    orders = std::move((*pending)->orders);
    plan.played_submission = (*pending)->submission_id;
  } else {
    const std::optional<storage::Timestamp> deadline = Deadline(*game, opened->stored);
    if (!deadline) return idle(std::nullopt);
    if (now < *deadline + options_.grace) {
      Result<bool> reminded =
          MaybeRemind(repository, *game, state.turn, OrdersTemplateOf{data, state}, opened->stored,
                      *deadline, now);
      if (!reminded.ok()) return reminded.status();
      if (*reminded) wrote = true;
      return idle(WaitingWake(*game, opened->stored, *deadline));
    }
    plan.missed = true;
    // Missed: the side plays no orders this turn.
    orders.set_game_id(game_id);
    orders.set_turn(state.turn);
    orders.set_side(codec::SideToProto(state.side_to_move));
  }
  Result<std::vector<storage::Player>> players = repository.ListPlayers(game_id);
  if (!players.ok()) return players.status();
  std::size_t mail_count = 0;
  plan.aftermath = [&](const engine::GameState& before, const Resolution& resolution,
                       const storage::OpenTurn& open,
                       const std::optional<storage::OpenTurn>& next) -> Result<TurnAftermath> {
    Result<std::vector<storage::NewMail>> mails =
        ResultsMails(*players, *game, data, before, resolution, open, next, now, plan.missed);
    if (!mails.ok()) return mails.status();
    TurnAftermath after;
    after.mails = std::move(*mails);
    if (plan.missed) ForfeitWithMissedTurn(*players, side, game_id, now, after);
    mail_count = after.mails.size();
    return after;
  };
  FaultPoint(kFaultTurnLoopBeforeCommit, "game=" + game_id);
  Result<ResolvedTurn> committed =
      ResolveAndCommit(repository, data.ruleset, data.scenario, game_id, orders, now, plan);
  return CommitTry(committed.status(), committed.ok() && committed->committed.replayed, mail_count);
}

std::optional<Result<std::optional<bool>>> TurnLoop::ForfeitTry(storage::GameRepository& repository,
                                                                const storage::Game& game,
                                                                storage::Timestamp now) {
  Result<bool> ended = MaybeForfeit(repository, game, now);
  if (ended.ok() && !*ended) return std::nullopt;
  // A turn committed since the game was read (EndGame's compare-and-set): read it again.
  if (!ended.ok() && ended.status().code() == StatusCode::kFailedPrecondition) {
    return Result<std::optional<bool>>(std::optional<bool>());
  }
  return ended.ok() ? Result<std::optional<bool>>(false)
                    : Result<std::optional<bool>>(ended.status());
}

Result<std::optional<bool>> TurnLoop::CommitTry(const Status& committed, bool replayed,
                                                std::size_t mail_count) {
  if (!committed.ok()) {
    // An order accepted meanwhile, or another process committed from the same state first:
    // resolve again from what is stored.
    if (committed.code() == StatusCode::kFailedPrecondition) return std::optional<bool>();
    return committed;
  }
  if (replayed) return {false};
  metrics_.TurnResolved();
  for (std::size_t i = 0; i < mail_count; ++i) metrics_.MailQueued();
  return {true};
}

Result<std::optional<storage::Timestamp>> TurnLoop::NextWake(storage::GameRepository& repository,
                                                             const std::string& game_id,
                                                             storage::Timestamp now) {
  using Wake = std::optional<storage::Timestamp>;
  // Each test below is ResolveOnce's own, in its order: a reason it acts is a wake-up here.
  Result<storage::Game> game = repository.GetGame(game_id);
  if (!game.ok()) return game.status();
  if (game->system != codec::kMornePlaineSystem) return SystemNextWake(repository, *game, now);
  Result<GameContext> context = catalog_.Load(*game);
  if (!context.ok()) return context.status();
  const engine::GameState& state = context->state;
  if (state.finished || !game->result.empty() || game->paused_at) return Wake();
  if (options_.forfeit_after_missed > 0) {
    Result<std::vector<storage::Player>> players = repository.ListPlayers(game_id);
    if (!players.ok()) return players.status();
    for (const storage::Player& player : *players) {
      if (player.missed_turns >= options_.forfeit_after_missed) return Wake(now);
    }
  }
  const std::string side = SideText(state.side_to_move);
  Result<storage::OpenTurn> open = repository.GetOpenTurn(game_id, state.turn, side);
  if (!open.ok() && open.status().code() == StatusCode::kNotFound) return Wake(now);
  if (!open.ok()) return open.status();
  Result<std::optional<PendingOrders>> pending =
      FindOrders(repository, game_id, game->turns_committed, side);
  if (!pending.ok()) return pending.status();
  if (pending->has_value()) return Wake(now);
  const std::optional<storage::Timestamp> deadline = Deadline(*game, *open);
  if (!deadline) return Wake();
  return Wake(WaitingWake(*game, *open, *deadline));
}

Result<std::vector<storage::NewMail>> TurnLoop::StuckMails(storage::GameRepository& repository,
                                                           const std::string& game_id,
                                                           storage::Timestamp now) {
  Result<std::vector<storage::Player>> players = repository.ListPlayers(game_id);
  if (!players.ok()) return players.status();
  templates::TurnStuckInput input;
  input.game_id = game_id;
  // The turn it waits for, when the game still loads (what failed may be its stored state).
  if (Result<storage::Game> game = repository.GetGame(game_id); game.ok()) {
    if (Result<GameContext> context = catalog_.LoadAny(*game); context.ok()) {
      input.turn = context->turn.turn;
      input.side = context->turn.side;
    }
  }
  std::vector<storage::NewMail> mails;
  for (const storage::Player& player : *players) {
    input.player_name = player.name;
    templates::Mail mail;
    if (templates::Status rendered = templates_.RenderTurnStuck(
            templates::ParseLanguage(player.language).value_or(templates::Language::kEnglish),
            input, &mail);
        !rendered.ok) {
      return Status::Internal("the stuck notice of game " + game_id + ": " + rendered.message);
    }
    storage::NewMail out;
    out.recipient = player.mail_address;
    out.subject = mail.subject;
    out.body = mail.text;
    out.next_try = now;
    mails.push_back(std::move(out));
  }
  return mails;
}

void TurnLoop::ForfeitWithMissedTurn(const std::vector<storage::Player>& players,
                                     const std::string& side, const std::string& game_id,
                                     storage::Timestamp now, TurnAftermath& after) const {
  if (options_.forfeit_after_missed <= 0) return;
  for (const storage::Player& loser : players) {
    if (loser.side != side || loser.missed_turns + 1 < options_.forfeit_after_missed) continue;
    storage::Player counted = loser;
    counted.missed_turns += 1;
    Forfeit forfeit = ForfeitOf(players, counted, game_id, now);
    after.end = std::move(forfeit.ending);
    for (storage::NewMail& mail : forfeit.mails) after.mails.push_back(std::move(mail));
  }
}

TurnLoop::Forfeit TurnLoop::ForfeitOf(const std::vector<storage::Player>& players,
                                      const storage::Player& loser, const std::string& game_id,
                                      storage::Timestamp now) const {
  std::string winner;
  for (const storage::Player& p : players) {
    if (p.side != loser.side) winner = p.side;
  }
  Forfeit out;
  out.ending.kind = storage::GameEndKind::kForfeit;
  out.ending.winner = winner;
  out.ending.level = winner.empty() ? "draw" : "total";
  out.ending.text = (winner.empty() ? std::string("no winner") : winner + " wins") + ": " +
                    loser.side + " forfeited after missing " + std::to_string(loser.missed_turns) +
                    " turns";
  for (const storage::Player& p : players) {
    storage::NewMail mail;
    mail.recipient = p.mail_address;
    if (templates::ParseLanguage(p.language) == templates::Language::kFrench) {
      const auto camp = [&](const std::string& side) {
        return "le camp " + templates_.Word(templates::Language::kFrench, "side", side);
      };
      mail.subject = "Partie " + game_id + "\u00a0: la partie est terminée";
      mail.body =
          "La partie " + game_id + " est terminée\u00a0: " + camp(loser.side) +
          " perd par forfait, faute d'ordres pendant " + std::to_string(loser.missed_turns) +
          (loser.missed_turns > 1 ? " tours" : " tour") +
          (winner.empty() ? std::string(".") : "\u00a0; victoire pour " + camp(winner) + ".") +
          "\n";
    } else {
      mail.subject = "Game " + game_id + ": the game is over";
      mail.body = "Game " + game_id + " is over. " + out.ending.text + ".\n";
    }
    mail.next_try = now;
    out.mails.push_back(std::move(mail));
  }
  return out;
}

Result<bool> TurnLoop::MaybeForfeit(storage::GameRepository& repository, const storage::Game& game,
                                    storage::Timestamp now) {
  if (options_.forfeit_after_missed <= 0 || !game.result.empty()) return false;
  Result<std::vector<storage::Player>> players = repository.ListPlayers(game.id);
  if (!players.ok()) return players.status();
  for (const storage::Player& loser : *players) {
    if (loser.missed_turns < options_.forfeit_after_missed) continue;
    Forfeit forfeit = ForfeitOf(*players, loser, game.id, now);
    Result<bool> ended =
        repository.EndGame(game.id, game.turns_committed, forfeit.ending, now, forfeit.mails);
    if (!ended.ok()) return ended.status();
    if (*ended) {
      for (std::size_t i = 0; i < forfeit.mails.size(); ++i) metrics_.MailQueued();
    }
    return true;
  }
  return false;
}

Result<bool> TurnLoop::MaybeRemind(storage::GameRepository& repository, const storage::Game& game,
                                   int turn, const std::optional<OrdersTemplateOf>& orders_template,
                                   const storage::OpenTurn& open, storage::Timestamp deadline,
                                   storage::Timestamp now) {
  // A deadline clamped to the end of time is none to remind of.
  if (game.deadlines.reminder_before.count() <= 0 || open.reminded_at ||
      deadline.time_since_epoch().count() >= kFarFutureMs ||
      now < deadline - ClampedDuration(game.deadlines.reminder_before)) {
    return false;
  }
  bool wrote = false;
  Result<std::vector<storage::Player>> players = repository.ListPlayers(game.id);
  if (!players.ok()) return players.status();
  for (const storage::Player& player : *players) {
    if (player.side != open.side) continue;
    templates::ReminderInput input;
    input.game_id = game.id;
    input.turn = turn;
    input.side = open.side;
    input.player = player.mail_address;
    input.player_name = player.name;
    input.deadline = ToSeconds(deadline);
    input.time_left = std::chrono::floor<std::chrono::minutes>(deadline - now);
    templates::Mail mail;
    if (templates::Status rendered = templates_.RenderReminder(
            templates::ParseLanguage(player.language).value_or(templates::Language::kEnglish),
            input, &mail);
        !rendered.ok) {
      return Status::Internal("the reminder of game " + game.id + ": " + rendered.message);
    }
    storage::NewMail out;
    out.recipient = player.mail_address;
    out.subject = mail.subject;
    out.body = mail.text;
    out.attachments.push_back(storage::Attachment{"", "text/html", mail.html});
    out.next_try = now;
    if (orders_template) {
      const ScenarioData& data = orders_template->data;
      if (Status asked = AskToMoveNext(
              templates_,
              templates::ParseLanguage(player.language).value_or(templates::Language::kEnglish),
              data.ruleset, data.scenario, orders_template->state, open, ToSeconds(deadline), &out);
          !asked.ok()) {
        return Status::Internal("the reminder of game " + game.id + ": " + asked.message());
      }
    }
    Result<bool> recorded = repository.RecordReminder(game.id, open.turn, open.side, now, out);
    if (!recorded.ok()) return recorded.status();
    if (*recorded) metrics_.MailQueued();
    wrote = true;  // RecordReminder marks the turn reminded even when another process won
  }
  return wrote;
}

Result<std::vector<storage::NewMail>> TurnLoop::ResultsMails(
    const std::vector<storage::Player>& players, const storage::Game& game,
    const ScenarioData& data, const engine::GameState& before, const Resolution& resolution,
    const storage::OpenTurn& open, const std::optional<storage::OpenTurn>& next,
    storage::Timestamp now, bool orders_missed) {
  const std::string what = "the results of turn " + std::to_string(before.turn) + " " +
                           SideText(before.side_to_move) + " of game " + game.id;
  auto result = codec::TurnResultFromProto(resolution.result_proto, data.scenario, what);
  if (!result.ok()) return Status::Internal(what + ": " + result.ErrorText());

  // Drawn per language on the first mail that needs it (daemon/results_maps.h).
  ResultsMaps maps(data, resolution.next, result.value().events, game.id, before.turn,
                   before.side_to_move, templates_);

  templates::ResultsInput input;
  input.scenario = &data.scenario;
  input.result = &result.value();
  input.game_id = game.id;
  input.turn = before.turn;
  input.side = SideText(before.side_to_move);
  input.revealed_seed = Hex(open.dice_seed);
  input.orders_missed = orders_missed;
  NextTurnWords(game, next, input.next_commitment, input.next_deadline);
  std::vector<storage::NewMail> mails;
  for (const storage::Player& player : players) {
    input.player = player.mail_address;
    input.player_name = player.name;  // a league player's league name, else as created
    const templates::Language language = LanguageOf(player);
    templates::Mail mail;
    if (templates::Status rendered = templates_.RenderResults(language, input, &mail);
        !rendered.ok) {
      return Status::Internal(what + ": rendering the mail of " + player.side + ": " +
                              rendered.message);
    }
    storage::NewMail out = NewMailOf(player.mail_address, mail, now, /*with_html=*/false);
    if (options_.map_image) {
      Result<const ResultsMapFiles*> files = maps.For(language);
      if (!files.ok()) return files.status();
      out.attachments.push_back(storage::Attachment{
          "", "text/html",
          WithActionMap(mail.html, **files, templates_.Word(language, "map", "action"))});
      out.attachments.push_back((*files)->action);
      out.attachments.push_back((*files)->whole);
    } else {
      out.attachments.push_back(storage::Attachment{"", "text/html", mail.html});
    }
    if (next && !resolution.next.finished && player.side == next->side) {
      if (Status asked = AskToMoveNext(templates_, language, data.ruleset, data.scenario,
                                       resolution.next, *next, input.next_deadline, &out);
          !asked.ok()) {
        return Status::Internal(what + ": " + asked.message());
      }
    }
    mails.push_back(std::move(out));
  }
  return mails;
}

}  // namespace pbem::daemon
