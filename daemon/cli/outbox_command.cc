// pbem outbox dead [--db DB]
// pbem outbox requeue ID... | --all [--db DB]
//
// The operator's view of the outbox's dead letters (storage GameRepository::DeadMail,
// RequeueMail): the mails pbemd stopped sending (daemon/mail/outbox_sender.h). Requeueing is
// safe while pbemd runs: the store changes in one transaction, and pbemd's next outbox pass
// sends the mail.
#include <charconv>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "daemon/cli/cli.h"
#include "storage/game_repository.h"

namespace pbem::cli {
namespace {

// At most this many dead letters per listing or `requeue --all` (each is read whole, maps
// attached).
constexpr int kBatch = 500;

int ListDead(storage::GameRepository& repository) {
  Result<std::vector<storage::OutboxMail>> dead = repository.DeadMail(kBatch);
  if (!dead.ok()) {
    std::cerr << "pbem: " << dead.status().ToString() << "\n";
    return kExitProblems;
  }
  std::cout << dead->size() << (dead->size() == 1 ? " dead letter" : " dead letters")
            << (static_cast<int>(dead->size()) == kBatch
                    ? " (the first " + std::to_string(kBatch) + ")"
                    : std::string())
            << "\n";
  for (const storage::OutboxMail& mail : *dead) {
    std::cout << mail.id << "  " << IsoTime(*mail.failed_at) << "  attempts " << mail.attempts
              << "  to " << OneLine(mail.recipient) << "  subject \"" << OneLine(mail.subject)
              << "\"\n    last error: " << OneLine(mail.last_error) << "\n";
  }
  return kExitOk;
}

int Requeue(storage::GameRepository& repository, const std::vector<std::int64_t>& ids) {
  const auto now =
      std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
  int exit_code = kExitOk;
  for (const std::int64_t id : ids) {
    Status requeued = repository.RequeueMail(id, now);
    if (!requeued.ok()) {
      std::cerr << "pbem: " << requeued.ToString() << "\n";
      exit_code = kExitProblems;
      continue;
    }
    std::cout << "requeued mail " << id << "\n";
  }
  return exit_code;
}

}  // namespace

int RunOutboxCommand(const Args& args) {
  if (args.empty()) return UsageError("outbox", "outbox: which command? dead or requeue");
  if (WantsHelp(args)) {
    std::cout << *Usage("outbox");
    return kExitOk;
  }
  const std::string& sub = args.front();
  std::optional<std::string> db;
  std::vector<std::int64_t> ids;
  bool all = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--db") {
      if (i + 1 >= args.size()) return UsageError("outbox", "outbox: --db needs a value");
      db = args[++i];
    } else if (a == "--all" && sub == "requeue") {
      all = true;
    } else if (sub == "requeue" && !a.empty() && a[0] != '-') {
      std::int64_t id = 0;
      const auto [end, error] = std::from_chars(a.data(), a.data() + a.size(), id);
      if (error != std::errc() || end != a.data() + a.size() || id <= 0) {
        return UsageError("outbox", "outbox requeue: '" + a + "' is not a mail id");
      }
      ids.push_back(id);
    } else {
      return UsageError("outbox", "outbox " + sub + ": unexpected '" + a + "'");
    }
  }
  if (sub != "dead" && sub != "requeue") {
    return UsageError("outbox", "outbox: unknown command '" + sub + "'");
  }
  if (sub == "requeue" && all == !ids.empty()) {
    return UsageError("outbox", "outbox requeue: name mail ids, or --all");
  }
  auto repository = OpenGameStore(db, /*must_exist=*/true);
  if (!repository) return kExitProblems;
  if (sub == "dead") return ListDead(*repository);
  if (all) {
    Result<std::vector<storage::OutboxMail>> dead = repository->DeadMail(kBatch);
    if (!dead.ok()) {
      std::cerr << "pbem: " << dead.status().ToString() << "\n";
      return kExitProblems;
    }
    for (const storage::OutboxMail& mail : *dead) ids.push_back(mail.id);
    if (ids.empty()) std::cout << "no dead letters\n";
  }
  return Requeue(*repository, ids);
}

}  // namespace pbem::cli
