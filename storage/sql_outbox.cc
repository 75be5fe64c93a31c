// SqlRepository: the outbox and named locks (the class is split across storage/sql_*.cc:
// sql_internal.h lists them).
#include <Poco/SHA2Engine.h>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "storage/sql_internal.h"

namespace pbem::storage {

using namespace sql_internal;  // NOLINT: the implementation's own helpers (sql_internal.h)

std::int64_t SqlRepository::InsertMail(const NewMail& mail) {
  std::string recipient = mail.recipient, subject = mail.subject, body = mail.body;
  Poco::Int64 next_try = ToMillis(mail.next_try);
  std::vector<Poco::Int64> id;
  *session_ << Sql(
      "INSERT INTO outbox (recipient, subject, body, attempts, next_try_ms, "
      "last_error) VALUES (?, ?, ?, 0, ?, '') RETURNING id"),
      use(recipient), use(subject), use(body), use(next_try), into(id), now;
  if (id.empty()) throw Poco::Data::DataException("INSERT INTO outbox returned no id");
  Poco::Int64 mail_id = id[0];
  for (std::size_t i = 0; i < mail.attachments.size(); ++i) {
    int ordinal = static_cast<int>(i);
    std::string filename = mail.attachments[i].filename;
    std::string content_type = mail.attachments[i].content_type;
    BLOB data = ToBlob(mail.attachments[i].data);
    *session_ << Sql(
        "INSERT INTO outbox_attachments (mail_id, ordinal, filename, content_type, "
        "data) VALUES (?, ?, ?, ?, ?)"),
        use(mail_id), use(ordinal), use(filename), use(content_type), use(data), now;
  }
  return mail_id;
}

Result<std::int64_t> SqlRepository::EnqueueMail(const NewMail& mail) {
  if (session_ == nullptr) return NotOpen();
  return Guarded("enqueueing a mail to " + mail.recipient + " in " + store_name_,
                 [&]() -> Result<std::int64_t> {
                   Transaction transaction(*session_, dialect_);
                   std::int64_t id = InsertMail(mail);
                   transaction.Commit();
                   return id;
                 });
}

std::vector<Attachment> SqlRepository::ReadAttachments(std::int64_t mail_id) {
  Poco::Int64 id = mail_id;
  std::vector<std::string> filename, content_type;
  std::vector<BLOB> data;
  *session_ << Sql(
      "SELECT filename, content_type, COALESCE(data, {empty_blob}) "
      "FROM outbox_attachments WHERE mail_id = ? ORDER BY ordinal"),
      use(id), into(filename), into(content_type), into(data), now;
  std::vector<Attachment> attachments;
  for (std::size_t i = 0; i < filename.size(); ++i) {
    attachments.push_back(Attachment{filename[i], content_type[i], FromBlob(data[i])});
  }
  return attachments;
}

// `where` (the WHERE and ORDER BY clauses) takes params.size() Int64 parameters, 1 or 2.
std::vector<OutboxMail> SqlRepository::ReadMails(const std::string& where,
                                                 const std::vector<std::int64_t>& params) {
  std::vector<Poco::Int64> bound(params.begin(), params.end());
  std::vector<Poco::Int64> id, attempts, next_try, sent_at, claimed_until, failed_at;
  std::vector<int> sent;
  std::vector<std::string> recipient, subject, body, last_error, claimed_by;
  Poco::Data::Statement select(*session_);
  select << Sql(
      "SELECT id, recipient, subject, body, attempts, next_try_ms, "
      "CASE WHEN sent_at_ms IS NULL THEN 0 ELSE 1 END, COALESCE(sent_at_ms, 0), "
      "last_error, COALESCE(claimed_by, ''), COALESCE(claimed_until_ms, -1), "
      "COALESCE(failed_at_ms, -1) FROM outbox " +
      where);
  for (Poco::Int64& param : bound) select, use(param);
  select, into(id), into(recipient), into(subject), into(body), into(attempts), into(next_try),
      into(sent), into(sent_at), into(last_error), into(claimed_by), into(claimed_until),
      into(failed_at);
  select.execute();
  std::vector<OutboxMail> mails;
  for (std::size_t i = 0; i < id.size(); ++i) {
    OutboxMail mail;
    mail.id = id[i];
    mail.recipient = recipient[i];
    mail.subject = subject[i];
    mail.body = body[i];
    mail.attachments = ReadAttachments(id[i]);
    mail.attempts = attempts[i];
    mail.next_try = FromMillis(next_try[i]);
    if (sent[i] != 0) mail.sent_at = FromMillis(sent_at[i]);
    mail.last_error = last_error[i];
    mail.claimed_by = claimed_by[i];
    if (claimed_until[i] >= 0) mail.claimed_until = FromMillis(claimed_until[i]);
    if (failed_at[i] >= 0) mail.failed_at = FromMillis(failed_at[i]);
    mails.push_back(std::move(mail));
  }
  return mails;
}

Result<std::vector<OutboxMail>> SqlRepository::DueMail(Timestamp now_time, int limit) {
  if (session_ == nullptr) return NotOpen();
  if (limit <= 0) return std::vector<OutboxMail>();
  return Guarded("reading due mail from " + store_name_, [&]() -> Result<std::vector<OutboxMail>> {
    return ReadMails(
        "WHERE sent_at_ms IS NULL AND failed_at_ms IS NULL AND next_try_ms <= ? "
        "ORDER BY next_try_ms, id LIMIT ?",
        {ToMillis(now_time), limit});
  });
}

Result<std::vector<OutboxMail>> SqlRepository::ClaimDueMail(Timestamp now_time, int limit,
                                                            const std::string& claimant,
                                                            std::chrono::milliseconds lease) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "claiming due mail for " + claimant + " in " + store_name_;
  if (claimant.empty()) return Status::InvalidArgument(what + ": the claimant is empty");
  if (lease.count() <= 0) return Status::InvalidArgument(what + ": the lease is not positive");
  if (limit <= 0) return std::vector<OutboxMail>();
  return Guarded(what, [&]() -> Result<std::vector<OutboxMail>> {
    std::vector<Poco::Int64> ids;
    {
      Transaction transaction(*session_, dialect_);
      Poco::Int64 at = ToMillis(now_time), until = ToMillis(now_time + lease), count = limit;
      std::string name = claimant;
      *session_ << Sql(
          "SELECT id FROM outbox WHERE sent_at_ms IS NULL AND failed_at_ms IS NULL "
          "AND next_try_ms <= ? AND (claimed_until_ms IS NULL OR claimed_until_ms <= ?) "
          "ORDER BY next_try_ms, id LIMIT ?" +
          dialect_.skip_locked_suffix),
          use(at), use(at), use(count), into(ids), now;
      for (Poco::Int64& id : ids) {
        *session_ << Sql("UPDATE outbox SET claimed_by = ?, claimed_until_ms = ? WHERE id = ?"),
            use(name), use(until), use(id), now;
      }
      transaction.Commit();
    }
    std::vector<OutboxMail> mails;
    for (Poco::Int64 id : ids) {
      std::vector<OutboxMail> one = ReadMails("WHERE id = ?", {id});
      if (!one.empty()) mails.push_back(std::move(one[0]));
    }
    return mails;
  });
}

Result<OutboxMail> SqlRepository::GetMail(std::int64_t mail_id) {
  if (session_ == nullptr) return NotOpen();
  return Guarded("reading mail " + std::to_string(mail_id) + " from " + store_name_,
                 [&]() -> Result<OutboxMail> {
                   std::vector<OutboxMail> mails = ReadMails("WHERE id = ?", {mail_id});
                   if (mails.empty()) {
                     return Status::NotFound("mail " + std::to_string(mail_id) +
                                             " is not in the outbox of " + store_name_);
                   }
                   return std::move(mails[0]);
                 });
}

Status SqlRepository::MarkMailSent(std::int64_t mail_id, Timestamp sent_at) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "marking mail " + std::to_string(mail_id) + " sent in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    Poco::Int64 id = mail_id, sent = ToMillis(sent_at);
    int count = 0;
    *session_ << Sql("SELECT count(*) FROM outbox WHERE id = ?"), use(id), into(count), now;
    if (count == 0) return Status::NotFound(what + ": no such mail");
    *session_ << Sql(
        "UPDATE outbox SET sent_at_ms = ?, claimed_until_ms = NULL "
        "WHERE id = ? AND sent_at_ms IS NULL"),
        use(sent), use(id), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Status SqlRepository::RequireUnsent(std::int64_t mail_id, const std::string& what) {
  Poco::Int64 id = mail_id;
  std::vector<int> sent;
  *session_ << Sql(
      "SELECT CASE WHEN sent_at_ms IS NULL THEN 0 ELSE 1 END FROM outbox "
      "WHERE id = ?"),
      use(id), into(sent), now;
  if (sent.empty()) return Status::NotFound(what + ": no such mail");
  if (sent[0] != 0) return Status::FailedPrecondition(what + ": it was sent already");
  return Status::Ok();
}

Status SqlRepository::MarkMailFailed(std::int64_t mail_id, Timestamp next_try,
                                     const std::string& error) {
  if (session_ == nullptr) return NotOpen();
  const std::string what =
      "recording a failed attempt of mail " + std::to_string(mail_id) + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    Poco::Int64 id = mail_id, next = ToMillis(next_try);
    std::string message = error;
    if (Status unsent = RequireUnsent(id, what); !unsent.ok()) return unsent;
    *session_ << Sql(
        "UPDATE outbox SET attempts = attempts + 1, next_try_ms = ?, "
        "last_error = ?, claimed_until_ms = NULL WHERE id = ?"),
        use(next), use(message), use(id), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Status SqlRepository::MarkMailDead(std::int64_t mail_id, Timestamp failed_at,
                                   const std::string& error) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "dead-lettering mail " + std::to_string(mail_id) + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    Poco::Int64 id = mail_id, at = ToMillis(failed_at);
    std::string message = error;
    if (Status unsent = RequireUnsent(id, what); !unsent.ok()) return unsent;
    *session_ << Sql(
        "UPDATE outbox SET attempts = attempts + 1, failed_at_ms = COALESCE(failed_at_ms, ?), "
        "last_error = ?, claimed_until_ms = NULL WHERE id = ?"),
        use(at), use(message), use(id), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Result<std::vector<OutboxMail>> SqlRepository::DeadMail(int limit) {
  if (session_ == nullptr) return NotOpen();
  if (limit <= 0) return std::vector<OutboxMail>();
  return Guarded("reading the dead letters of " + store_name_,
                 [&]() -> Result<std::vector<OutboxMail>> {
                   return ReadMails("WHERE failed_at_ms IS NOT NULL ORDER BY id LIMIT ?", {limit});
                 });
}

Status SqlRepository::RequeueMail(std::int64_t mail_id, Timestamp next_try) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "requeueing mail " + std::to_string(mail_id) + " in " + store_name_;
  return Guarded(what, [&]() -> Status {
    Transaction transaction(*session_, dialect_);
    Poco::Int64 id = mail_id, next = ToMillis(next_try);
    std::vector<int> dead;
    *session_ << Sql(
        "SELECT CASE WHEN failed_at_ms IS NULL THEN 0 ELSE 1 END FROM outbox WHERE id = ?"),
        use(id), into(dead), now;
    if (dead.empty()) return Status::NotFound(what + ": no such mail");
    if (dead[0] == 0) {
      return Status::FailedPrecondition(what + ": it is not a dead letter (sent, or queued)");
    }
    *session_ << Sql(
        "UPDATE outbox SET failed_at_ms = NULL, attempts = 0, next_try_ms = ?, "
        "claimed_until_ms = NULL WHERE id = ?"),
        use(next), use(id), now;
    transaction.Commit();
    return Status::Ok();
  });
}

Result<int> SqlRepository::PruneSentMail(Timestamp sent_before, int limit) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "pruning sent mail from " + store_name_;
  if (limit <= 0) return Status::InvalidArgument(what + ": the limit is not positive");
  return Guarded(what, [&]() -> Result<int> {
    Transaction transaction(*session_, dialect_);
    // The newest mail stays, whatever its age: SQLite numbers a new row after the largest id,
    // and a mail's id is its Message-ID (<pbemd-outbox-ID@domain>), never to be used twice.
    Poco::Int64 newest = 0;
    *session_ << Sql("SELECT COALESCE(MAX(id), 0) FROM outbox"), into(newest), now;
    Poco::Int64 before = ToMillis(sent_before), count = limit;
    std::vector<Poco::Int64> ids, sent_at;
    // Earliest sent first, on the index outbox_sent; dead letters and unsent mails never.
    // Another instance pruning at once takes other rows (PostgreSQL: SKIP LOCKED).
    *session_ << Sql(
        "SELECT id, sent_at_ms FROM outbox WHERE sent_at_ms IS NOT NULL AND failed_at_ms IS NULL "
        "AND sent_at_ms < ? AND id < ? ORDER BY sent_at_ms, id LIMIT ?" +
        dialect_.skip_locked_suffix),
        use(before), use(newest), use(count), into(ids), into(sent_at), now;
    if (ids.empty()) return 0;
    // The batch: the sent mails up to its last (sent_at_ms, id), one statement per table.
    Poco::Int64 last_sent = sent_at.back(), last_id = ids.back();
    const std::string batch =
        "sent_at_ms IS NOT NULL AND failed_at_ms IS NULL AND sent_at_ms <= ? "
        "AND (sent_at_ms < ? OR id <= ?) AND id < ?";
    *session_ << Sql(
        "DELETE FROM outbox_attachments WHERE mail_id IN (SELECT id FROM outbox WHERE " + batch +
        ")"),
        use(last_sent), use(last_sent), use(last_id), use(newest), now;
    std::vector<Poco::Int64> deleted;
    *session_ << Sql("DELETE FROM outbox WHERE " + batch + " RETURNING id"), use(last_sent),
        use(last_sent), use(last_id), use(newest), into(deleted), now;
    transaction.Commit();
    return static_cast<int>(deleted.size());
  });
}

// --- cooperative locks ------------------------------------------------------------------------

std::int64_t SqlRepository::LockKey(const std::string& name) {
  Poco::SHA2Engine engine(Poco::SHA2Engine::SHA_256);
  engine.update(name.data(), static_cast<unsigned>(name.size()));
  const Poco::DigestEngine::Digest& digest = engine.digest();
  std::uint64_t key = 0;
  for (int i = 0; i < 8; ++i) key = (key << 8) | digest[static_cast<std::size_t>(i)];
  return static_cast<std::int64_t>(key >> 1);
}

Result<bool> SqlRepository::TryLock(const std::string& name) {
  if (session_ == nullptr) return NotOpen();
  const std::string what = "taking the lock \"" + name + "\" in " + store_name_;
  if (name.empty()) return Status::InvalidArgument(what + ": the lock name is empty");
  if (locks_held_.count(name) > 0) return true;
  // Lost with a broken connection: the caller takes it again, on the new connection.
  locks_lost_.erase(name);
  return Guarded(
      what,
      [&]() -> Result<bool> {
        Result<bool> taken = AcquireLock(LockKey(name));
        if (!taken.ok()) return Status::IoError(what + ": " + taken.status().message());
        if (*taken) locks_held_.insert(name);
        return *taken;
      },
      LostLocks::kAllow);
}

Status SqlRepository::Unlock(const std::string& name) {
  if (session_ == nullptr) return NotOpen();
  // Lost with a broken connection: the server freed it already.
  if (locks_lost_.erase(name) > 0) return Status::Ok();
  if (locks_held_.erase(name) == 0) return Status::Ok();
  const std::string what = "releasing the lock \"" + name + "\" in " + store_name_;
  return Guarded(
      what,
      [&]() -> Status {
        Status released = ReleaseLock(LockKey(name));
        if (!released.ok()) return Status::IoError(what + ": " + released.message());
        return Status::Ok();
      },
      LostLocks::kAllow);
}

// --- leagues ----------------------------------------------------------------------------------

}  // namespace pbem::storage
