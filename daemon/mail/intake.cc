#include "daemon/mail/intake.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string_view>

#include "daemon/fault_point.h"
#include "daemon/mail/inbound.h"
#include "daemon/mail/replies.h"
#include "proto/codec/codec.h"
#include "templates/mail_render.h"

namespace pbem::daemon::mail {
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

struct Identified {
  storage::Game game;
  storage::Player player;
};

}  // namespace

MailIntake::MailIntake(storage::GameRepository& repository, OrderDesk& desk, Metrics& metrics,
                       spdlog::logger& logger, const DaemonConfig& config,
                       std::function<void()> on_mail_queued)
    : repository_(repository),
      desk_(desk),
      metrics_(metrics),
      logger_(logger),
      limits_(config.limits),
      own_address_(Lower(config.mail_from)),
      quarantine_folder_(config.mail_in.quarantine_folder),
      attempts_(config.data_dir.empty() ? std::filesystem::path()
                                        : config.data_dir / "mail-attempts"),
      on_mail_queued_(std::move(on_mail_queued)),
      refusal_replies_per_hour_(config.mail_in.refusal_replies_per_hour) {}

Status MailIntake::Reply(const storage::NewMail& mail) {
  Result<std::int64_t> id = repository_.EnqueueMail(mail);
  if (!id.ok()) return id.status();
  metrics_.MailQueued();
  if (on_mail_queued_) on_mail_queued_();
  return Status::Ok();
}

bool MailIntake::UnprovenRefusalAllowed(const std::string& address, storage::Timestamp now) {
  std::deque<storage::Timestamp>& sent = unproven_refusals_[address];
  while (!sent.empty() && sent.front() <= now - std::chrono::hours(1)) sent.pop_front();
  if (static_cast<int>(sent.size()) >= refusal_replies_per_hour_) return false;
  sent.push_back(now);
  return true;
}

Disposition MailIntake::Handle(const FetchedMessage& message, storage::Timestamp now) {
  try {
    return HandleUnsafe(message, now);
  } catch (const std::exception& e) {
    // A bug, not a bad mail: keep the mail for the next poll (its attempt stays recorded, so
    // it goes to quarantine after the second), but never stop the daemon.
    logger_.error("event=mail_intake_failed error={}", QuoteLogValue(e.what()));
    return Disposition::kFailed;
  } catch (...) {
    logger_.error("event=mail_intake_failed error=\"unknown exception\"");
    return Disposition::kFailed;
  }
}

storage::NewMail MailIntake::RefusalMail(const storage::Game& game, const storage::Player& player,
                                         const pbem::v1::Orders* orders,
                                         const FetchedMessage& message, const InboundMail& mail,
                                         const DeskOutcome& outcome, storage::Timestamp now) {
  templates::ErrorReplyInput refusal;
  refusal.player = mail.from;
  refusal.player_name = player.name;
  // A wrong game is named as the orders name it; anything else is about the player's game.
  refusal.game_id = outcome.code == kWrongGame && orders != nullptr && !orders->game_id().empty()
                        ? orders->game_id()
                        : game.id;
  refusal.code = outcome.code;
  refusal.detail = outcome.detail;
  refusal.original_subject = mail.subject;
  refusal.verdicts = outcome.verdicts;
  refusal.system = outcome.system;  // another system's verdicts, worded by its words
  refusal.system_verdicts = outcome.system_verdicts;
  refusal.current_turn = static_cast<int>(outcome.turn);
  refusal.received_turn = orders != nullptr ? orders->turn() : 0;
  refusal.size_bytes = static_cast<std::int64_t>(message.size_bytes);
  refusal.limit_bytes = static_cast<std::int64_t>(limits_.max_message_bytes);
  if (templates_ == nullptr) return PlainErrorMail(refusal, now);
  std::shared_ptr<const ScenarioData> data;
  if (catalog_ != nullptr && !refusal.verdicts.empty()) {
    if (auto found = catalog_->Scenario(game.scenario); found.ok()) data = *found;
  }
  refusal.scenario = data ? &data->scenario : nullptr;
  // The player's language (a known player: unknown senders get no reply at all).
  const templates::Language language =
      templates::ParseLanguage(player.language).value_or(templates::Language::kEnglish);
  std::string render_error;
  storage::NewMail reply = ErrorMail(*templates_, language, refusal, now, &render_error);
  if (!render_error.empty()) {
    logger_.warn("event=error_template_failed code={} error={}", outcome.code,
                 QuoteLogValue(render_error));
  }
  return reply;
}

Disposition MailIntake::HandleUnsafe(const FetchedMessage& message, storage::Timestamp now) {
  const InboundMail mail = ParseInbound(message.data, limits_, message.truncated);
  // TEST-ONLY (daemon/fault_point.h): e.g. a crash while processing this mail.
  FaultPoint(kFaultIntakeBeforeHandle, "subject=" + QuoteLogValue(mail.subject) +
                                           " message_id=" + QuoteLogValue(mail.message_id));
  if (mail.from.empty() || mail.auto_submitted || mail.from == own_address_) {
    logger_.info("event=mail_dropped reason={} from={} message_id={}",
                 mail.from.empty() ? "no_sender" : "auto_submitted", QuoteLogValue(mail.from),
                 QuoteLogValue(mail.message_id));
    metrics_.MailDropped();
    return Disposition::kDropped;
  }
  if (command_hook_ && !message.truncated && mail.structure_error.empty()) {
    if (std::optional<Disposition> handled = command_hook_(mail, now)) {
      logger_.info("event=mail_command from={} message_id={} disposition={}",
                   QuoteLogValue(mail.from), QuoteLogValue(mail.message_id),
                   static_cast<int>(*handled));
      if (*handled == Disposition::kAnswered && on_mail_queued_) on_mail_queued_();
      if (*handled == Disposition::kDropped) metrics_.MailDropped();
      return *handled;
    }
  }

  // The orders: the first candidate that parses; else the first candidate's error.
  std::optional<pbem::v1::Orders> orders;
  std::string parse_error;
  std::string code;
  if (message.truncated) {
    code = kOversized;
    parse_error = "the mail is larger than " + std::to_string(limits_.max_message_bytes) +
                  " bytes; send the orders alone, as text or as a binary attachment";
  } else if (!mail.structure_error.empty()) {
    code = kMalformed;
    parse_error = mail.structure_error;
  } else {
    for (const OrdersCandidate& candidate : mail.candidates) {
      if (!candidate.error.empty()) {  // e.g. an unknown charset: named as it is
        if (parse_error.empty()) parse_error = candidate.error;
        continue;
      }
      auto parsed = codec::ParseOrders(candidate.bytes, candidate.format, candidate.source);
      if (parsed.ok()) {
        orders = std::move(parsed).value();
        break;
      }
      if (parse_error.empty()) parse_error = parsed.ErrorText();
    }
    if (!orders) {
      code = kMalformed;
      if (parse_error.empty()) {
        parse_error = "the mail holds no orders (no text body and no orders attachment)";
      }
      while (!parse_error.empty() && parse_error.back() == '\n') parse_error.pop_back();
    }
  }

  // Who sent it: a player of the game the orders name (or that the mail mentions).
  std::vector<std::string> game_ids;
  if (orders && !orders->game_id().empty()) game_ids.push_back(orders->game_id());
  for (const std::string& hint : GameIdHints(mail)) {
    if (std::find(game_ids.begin(), game_ids.end(), hint) == game_ids.end()) {
      game_ids.push_back(hint);
    }
  }
  std::optional<Identified> who;
  for (const std::string& game_id : game_ids) {
    Result<storage::Game> game = repository_.GetGame(game_id);
    if (!game.ok()) {
      if (game.status().code() == StatusCode::kNotFound) continue;
      logger_.error("event=mail_store_failed error={}", QuoteLogValue(game.status().ToString()));
      return Disposition::kRetryLater;
    }
    Result<std::vector<storage::Player>> players = repository_.ListPlayers(game_id);
    if (!players.ok()) {
      logger_.error("event=mail_store_failed error={}", QuoteLogValue(players.status().ToString()));
      return Disposition::kRetryLater;
    }
    for (const storage::Player& player : *players) {
      if (Lower(player.mail_address) == mail.from) {
        who = Identified{*game, player};
        break;
      }
    }
    if (who) break;
  }
  if (!who) {
    logger_.info("event=mail_dropped reason=unknown_sender from={} message_id={} games={}",
                 QuoteLogValue(mail.from), QuoteLogValue(mail.message_id), game_ids.size());
    metrics_.MailDropped();
    return Disposition::kDropped;
  }

  Envelope envelope;
  envelope.channel = storage::Channel::kMail;
  envelope.sender = mail.from;
  envelope.message_id = mail.message_id;
  envelope.raw = message.data;
  envelope.received_at = now;

  Result<DeskOutcome> outcome =
      code.empty() ? desk_.Submit(repository_, who->game, who->player, *orders, envelope)
                   : desk_.Refuse(repository_, who->game, code, parse_error, envelope);
  if (!outcome.ok()) {
    logger_.error("event=mail_store_failed game={} from={} error={}", who->game.id,
                  QuoteLogValue(mail.from), QuoteLogValue(outcome.status().ToString()));
    return Disposition::kRetryLater;
  }
  storage::NewMail reply;
  if (outcome->accepted) {
    ReceiptInfo info;
    info.game_id = outcome->game_id;
    info.turn = outcome->turn;
    info.side = outcome->side;
    info.verdicts = outcome->verdicts;
    info.system_verdicts = outcome->system_verdicts;
    info.label_width = outcome->label_width;
    info.duplicate = outcome->duplicate;
    info.original_subject = mail.subject;
    reply = ReceiptMail(mail.from, info, now);
    if (templates_ != nullptr && !outcome->duplicate) {
      templates::ReceiptInput input;
      std::shared_ptr<const ScenarioData> data;
      if (catalog_ != nullptr && outcome->system.empty()) {
        if (auto found = catalog_->Scenario(who->game.scenario); found.ok()) data = *found;
      }
      input.scenario = data ? &data->scenario : nullptr;
      input.verdicts = outcome->verdicts;
      input.system = outcome->system;  // another system's verdicts, worded by its words
      input.system_verdicts = outcome->system_verdicts;
      input.game_id = outcome->game_id;
      input.turn = static_cast<int>(outcome->turn);
      input.side = outcome->side;
      input.player = mail.from;
      input.player_name = who->player.name;
      templates::Mail rendered;
      if (templates::Status made =
              templates_->RenderReceipt(templates::ParseLanguage(who->player.language)
                                            .value_or(templates::Language::kEnglish),
                                        input, &rendered);
          made.ok) {
        if (mail.subject.empty()) reply.subject = rendered.subject;
        reply.body = rendered.text;
        reply.attachments.push_back(storage::Attachment{"", "text/html", rendered.html});
      } else {
        logger_.warn("event=receipt_template_failed error={}", QuoteLogValue(made.message));
      }
    }
  } else {
    if (!outcome->sender_proven && !UnprovenRefusalAllowed(mail.from, now)) {
      logger_.warn(
          "event=refusal_reply_withheld game={} from={} message_id={} code={} submission={} "
          "per_hour={}",
          who->game.id, QuoteLogValue(mail.from), QuoteLogValue(mail.message_id),
          QuoteLogValue(outcome->code), outcome->submission_id, refusal_replies_per_hour_);
      metrics_.RefusalReplyWithheld();
      return Disposition::kAnswered;  // stored: the mail may go
    }
    reply = RefusalMail(who->game, who->player, orders ? &*orders : nullptr, message, mail,
                        *outcome, now);
  }
  logger_.info(
      "event=mail_submission game={} side={} from={} message_id={} accepted={} duplicate={} "
      "code={} submission={}",
      who->game.id, who->player.side, QuoteLogValue(mail.from), QuoteLogValue(mail.message_id),
      outcome->accepted, outcome->duplicate, QuoteLogValue(outcome->code), outcome->submission_id);
  Status queued = Reply(reply);
  if (!queued.ok()) {
    // Stored but not answered: keep the mail; the next poll finds the duplicate and answers.
    logger_.error("event=mail_reply_failed error={}", QuoteLogValue(queued.ToString()));
    return Disposition::kRetryLater;
  }
  return Disposition::kAnswered;
}

Result<PollStats> MailIntake::PollOnce(Mailbox& mailbox, storage::Timestamp now) {
  Result<std::vector<std::uint32_t>> uids = mailbox.ListUids();
  if (!uids.ok()) {
    metrics_.MailboxPoll(false);
    return uids.status();
  }
  metrics_.MailboxPoll(true);
  PollStats stats;
  for (std::uint32_t uid : *uids) {
    Result<FetchedMessage> message = mailbox.Fetch(uid, limits_.max_message_bytes);
    if (!message.ok()) {
      logger_.warn("event=mail_fetch_failed uid={} error={}", uid,
                   QuoteLogValue(message.status().ToString()));
      ++stats.kept;
      continue;
    }
    ++stats.fetched;
    const std::string key = AttemptLog::KeyOf(message->data);
    const int attempts = attempts_.Count(key);
    if (attempts >= AttemptLog::kMaxAttempts) {
      Quarantine(mailbox, uid, *message, key, attempts, now) ? ++stats.quarantined : ++stats.kept;
      continue;
    }
    // On disk before the processing starts: a crash in it is counted too.
    if (Status recorded = attempts_.Record(key, attempts + 1); !recorded.ok()) {
      logger_.error("event=mail_attempt_record_failed uid={} error={}", uid,
                    QuoteLogValue(recorded.ToString()));
      ++stats.kept;
      continue;
    }
    const Disposition disposition = Handle(*message, now);
    if (disposition == Disposition::kFailed) {
      ++stats.kept;
      continue;
    }
    if (disposition == Disposition::kRetryLater) {
      // The store failed. While the database cannot be reached that is not the mail's fault:
      // the attempt is forgotten and the mail waits for the database. Otherwise the failure
      // may be the mail's own (a value the store refuses, every time): it counts like a
      // crash, so such a mail is quarantined after two tries (its sender told) instead of
      // being tried again at every poll, forever.
      if (metrics_.database_down().has_value()) attempts_.Clear(key);
      ++stats.kept;
      continue;
    }
    disposition == Disposition::kAnswered ? ++stats.answered : ++stats.dropped;
    Status deleted = mailbox.Delete(uid);
    if (!deleted.ok()) {
      // Stored already: when it comes back it is a duplicate and is answered as one.
      logger_.warn("event=mail_delete_failed uid={} error={}", uid,
                   QuoteLogValue(deleted.ToString()));
    }
    attempts_.Clear(key);
  }
  return stats;
}

storage::NewMail MailIntake::QuarantineMail(const InboundMail& mail, storage::Timestamp now) {
  templates::ErrorReplyInput refusal;
  refusal.player = mail.from;
  refusal.original_subject = mail.subject;
  refusal.code = "quarantined";
  // The sender's language when they play a game the subject names; else English.
  templates::Language language = templates::Language::kEnglish;
  for (const std::string& game_id : GameIdHints(mail)) {
    Result<std::vector<storage::Player>> players = repository_.ListPlayers(game_id);
    if (!players.ok()) continue;
    const auto player = std::find_if(players->begin(), players->end(), [&mail](const auto& p) {
      return Lower(p.mail_address) == mail.from;
    });
    if (player == players->end()) continue;
    refusal.game_id = game_id;
    refusal.player_name = player->name;
    language = templates::ParseLanguage(player->language).value_or(language);
    break;
  }
  refusal.detail =
      language == templates::Language::kFrench
          ? "pbemd a échoué deux fois en lisant ce message et l'a mis de côté pour "
            "l'administrateur du serveur\u00a0; rien de son contenu n'a été pris en compte"
          : "pbemd failed twice while reading this mail and has set it aside for the server's "
            "administrator; nothing in it was taken into account";
  if (templates_ == nullptr) return PlainErrorMail(refusal, now);
  std::string render_error;
  storage::NewMail reply = ErrorMail(*templates_, language, refusal, now, &render_error);
  if (!render_error.empty()) {
    logger_.warn("event=error_template_failed code=quarantined error={}",
                 QuoteLogValue(render_error));
  }
  return reply;
}

bool MailIntake::Quarantine(Mailbox& mailbox, std::uint32_t uid, const FetchedMessage& message,
                            const std::string& key, int attempts, storage::Timestamp now) {
  // Only the headers, with the bounded scanner: whatever failed is not run again.
  const InboundMail mail = ParseInbound(message.data, limits_, /*headers_only=*/true);
  if (attempts < AttemptLog::kToldSender) {
    if (!mail.from.empty() && !mail.auto_submitted && mail.from != own_address_) {
      if (Status queued = Reply(QuarantineMail(mail, now)); !queued.ok()) {
        logger_.error("event=mail_quarantine_failed uid={} error={}", uid,
                      QuoteLogValue(queued.ToString()));
        return false;
      }
    }
    if (Status told = attempts_.Record(key, AttemptLog::kToldSender); !told.ok()) {
      logger_.warn("event=mail_attempt_record_failed uid={} error={}", uid,
                   QuoteLogValue(told.ToString()));
    }
  }
  if (Status moved = mailbox.MoveTo(uid, quarantine_folder_); !moved.ok()) {
    logger_.error("event=mail_quarantine_failed uid={} folder={} error={}", uid,
                  QuoteLogValue(quarantine_folder_), QuoteLogValue(moved.ToString()));
    return false;
  }
  attempts_.Clear(key);
  metrics_.MailQuarantined();
  logger_.warn(
      "event=mail_quarantined uid={} folder={} from={} message_id={} subject={} attempts={}", uid,
      QuoteLogValue(quarantine_folder_), QuoteLogValue(mail.from), QuoteLogValue(mail.message_id),
      QuoteLogValue(mail.subject), std::min(attempts, AttemptLog::kMaxAttempts));
  return true;
}

Result<std::optional<PollStats>> MailIntake::PollIfLeader(Mailbox& mailbox,
                                                          storage::Timestamp now) {
  // At every poll, not only the first: the lock lives on the database connection, and when
  // that broke (PostgreSQL restarted) it is gone and another instance may have it now. While
  // held, TryLock answers from memory; after a reconnection it takes the lock again or says
  // that someone else has it (storage/connection.h).
  Result<bool> taken = repository_.TryLock(kIntakeLock);
  if (!taken.ok()) return taken.status();
  if (leader_ && !*taken) {
    leader_ = false;
    logger_.warn("event=mail_intake_leadership_lost reason=\"the database connection broke\"");
  }
  if (!leader_) {
    if (!*taken) {
      if (!told_follower_) {
        logger_.info("event=mail_intake_follower reason=\"another instance reads the mailbox\"");
        told_follower_ = true;
      }
      metrics_.IntakeLeader(false);
      return std::optional<PollStats>();
    }
    leader_ = true;
    told_follower_ = false;
    metrics_.IntakeLeader(true);
    logger_.info("event=mail_intake_leader");
  }
  Result<PollStats> stats = PollOnce(mailbox, now);
  if (!stats.ok()) return stats.status();
  return std::optional<PollStats>(*stats);
}

void MailIntake::StepDown() {
  if (!leader_) return;
  if (Status released = repository_.Unlock(kIntakeLock); !released.ok()) {
    logger_.warn("event=mail_intake_unlock_failed error={}", QuoteLogValue(released.ToString()));
  }
  leader_ = false;
  metrics_.IntakeLeader(false);
}

}  // namespace pbem::daemon::mail
