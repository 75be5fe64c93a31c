// pbemd: the pbem service. Loads its configuration (see daemon/config.h), opens the game store,
// serves the HTTP API on the configured address and stops cleanly (exit code 0) on SIGTERM or
// SIGINT.
#include <Poco/Exception.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Util/HelpFormatter.h>
#include <Poco/Util/Option.h>
#include <Poco/Util/OptionCallback.h>
#include <Poco/Util/OptionSet.h>
#include <Poco/Util/ServerApplication.h>
#include <curl/curl.h>
#include <signal.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "daemon/config.h"
#include "daemon/database_health.h"
#include "daemon/fault_point.h"
#include "daemon/game_catalog.h"
#include "daemon/http/server.h"
#include "daemon/http_api.h"
#include "daemon/league_api.h"
#include "daemon/mail/commands.h"
#include "daemon/mail/idle.h"
#include "daemon/mail/intake.h"
#include "daemon/mail/mailbox.h"
#include "daemon/mail/mailer.h"
#include "daemon/mail/outbox_sender.h"
#include "daemon/metrics.h"
#include "daemon/order_desk.h"
#include "daemon/repository_factory.h"
#include "daemon/scheduler.h"
#include "daemon/turn_loop.h"
#include "daemon/worker.h"

namespace pbem::daemon {
namespace {

using Poco::Util::Application;
using Poco::Util::Option;
using Poco::Util::OptionCallback;
using Poco::Util::OptionSet;

// Between the command line (PRIO_APPLICATION, -100) and a --config file (PRIO_DEFAULT, 0).
constexpr int kEnvironmentPriority = -50;

storage::Timestamp Now() {
  return std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
}

std::shared_ptr<spdlog::logger> MakeLogger() {
  auto logger = spdlog::stdout_logger_mt("pbemd");
  logger->set_pattern("ts=%Y-%m-%dT%H:%M:%S.%e%z level=%l logger=%n %v");
  logger->flush_on(spdlog::level::info);  // stdout is a pipe under journald and in tests
  return logger;
}

constexpr const char* kLeaguePassLock = "league-pass";

class Pbemd final : public Poco::Util::ServerApplication {
 protected:
  void defineOptions(OptionSet& options) override {
    ServerApplication::defineOptions(options);
    options.addOption(Option("help", "h", "Print this help and exit.")
                          .required(false)
                          .repeatable(false)
                          .callback(OptionCallback<Pbemd>(this, &Pbemd::HandleHelp)));
    options.addOption(
        Option("config", "c", "Load settings from FILE (.properties, .ini, .json or .xml).")
            .required(false)
            .repeatable(false)
            .argument("FILE")
            .callback(OptionCallback<Pbemd>(this, &Pbemd::HandleConfig)));
    options.addOption(
        Option("define", "D", "Set a setting, e.g. -Dpbemd.http.port=8081 (overrides all).")
            .required(false)
            .repeatable(true)
            .argument("KEY=VALUE")
            .callback(OptionCallback<Pbemd>(this, &Pbemd::HandleDefine)));
  }

  int main(const ArgVec& args) override {
    if (help_requested_) return EXIT_OK;
    auto logger = MakeLogger();
    if (!args.empty()) {
      logger->error("event=bad_arguments error={} hint=\"see --help\"",
                    QuoteLogValue("unexpected argument: " + args.front()));
      return EXIT_USAGE;
    }

    std::optional<DaemonConfig> loaded = LoadConfig(*logger);
    if (!loaded) return EXIT_CONFIG;
    // The HTTP port is bound first (listened on once everything else is ready): with
    // pbemd.http.port=0 the system picks a free port, and it is known before anything uses it.
    // Not the ServerSocket(address) constructor: it sets SO_REUSEPORT too, and a second pbemd
    // would then share the port instead of failing.
    Poco::Net::ServerSocket socket;
    try {
      socket.bind(Poco::Net::SocketAddress(loaded->http_address, loaded->http_port),
                  /*reuseAddress=*/true, /*reusePort=*/false);
    } catch (const Poco::Exception& e) {
      logger->error("event=startup_failed address={} port={} error={}", loaded->http_address,
                    loaded->http_port, QuoteLogValue(e.displayText()));
      return EXIT_UNAVAILABLE;
    }
    if (loaded->http_port == 0) {
      const bool default_url = loaded->http_public_url == DefaultPublicUrl(loaded->http_address, 0);
      loaded->http_port = socket.address().port();
      if (default_url) {
        loaded->http_public_url = DefaultPublicUrl(loaded->http_address, loaded->http_port);
      }
    }
    const DaemonConfig& settings = *loaded;
    LogDaemonConfig(settings, *logger);

    std::error_code error;
    std::filesystem::create_directories(settings.outbox_dir, error);
    if (error) {
      logger->error("event=startup_failed dir={} error={}",
                    QuoteLogValue(settings.outbox_dir.string()), QuoteLogValue(error.message()));
      return EXIT_CANTCREAT;
    }
    auto metrics = std::make_shared<Metrics>();
    metrics->SetInstance(settings.instance_name);
    // Every thread's repository reports to it: the loss and the return are logged once.
    DatabaseHealth database_health(*metrics, logger.get());
    Result<std::unique_ptr<storage::GameRepository>> repository =
        OpenRepository(settings, &database_health);
    if (!repository.ok()) {
      logger->error("event=startup_failed store={} error={}",
                    QuoteLogValue(DescribeStore(settings)),
                    QuoteLogValue(repository.status().ToString()));
      return EXIT_IOERR;
    }
    Result<int> schema = (*repository)->SchemaVersion();
    logger->info("event=storage_open db={} schema_version={}",
                 QuoteLogValue(DescribeStore(settings)), schema.ok() ? *schema : -1);

    // Mail out: its own repository (one per thread) and transport.
    Result<std::unique_ptr<storage::GameRepository>> outbox_repository =
        OpenRepository(settings, &database_health);
    if (!outbox_repository.ok()) {
      logger->error("event=startup_failed error={}",
                    QuoteLogValue(outbox_repository.status().ToString()));
      return EXIT_IOERR;
    }
    std::unique_ptr<mail::Mailer> mailer;
    if (settings.mail_out.transport == MailTransport::kSmtp) {
      mailer = std::make_unique<mail::SmtpMailer>(settings.mail_out);
    } else {
      mailer = std::make_unique<mail::FileMailer>(settings.outbox_dir);
    }
    // TEST-ONLY fault points (daemon/fault_point.h): none armed unless PBEM_FAULT is set.
    Result<std::vector<FaultEntry>> faults = ArmedFaultPoints(logger.get());
    if (!faults.ok()) {
      logger->critical("event=config_invalid error={}", QuoteLogValue(faults.status().ToString()));
      return EXIT_CONFIG;
    }
    if (!faults->empty()) {
      logger->warn("event=fault_points_armed note=\"test-only (PBEM_FAULT); never in production\"");
    }
    mail::OutboxSender sender(**outbox_repository, *mailer, settings.mail_from,
                              settings.instance_name, settings.mail_out, *metrics, *logger);
    PeriodicWorker outbox_worker(settings.mail_out.poll_interval, [&] {
      Result<mail::OutboxPass> pass = sender.RunOnce(Now());
      // Unreachable database: DatabaseHealth logged it once; no line per pass.
      if (!pass.ok() && pass.status().code() != StatusCode::kUnavailable) {
        logger->error("event=outbox_pass_failed error={}", QuoteLogValue(pass.status().ToString()));
      }
      // Sent mails past pbemd.outbox.keep_sent_days (at most hourly; bounded batches).
      Result<int> pruned = sender.Prune(Now());
      if (!pruned.ok() && pruned.status().code() != StatusCode::kUnavailable) {
        logger->error("event=outbox_prune_failed error={}",
                      QuoteLogValue(pruned.status().ToString()));
      }
    });

    // Mail in: its own repository and IMAP connection, when a mailbox is configured.
    GameCatalog catalog(settings.scenarios_dir, settings.rulesets_dir);
    OrderDesk desk(catalog, *metrics);
    std::unique_ptr<storage::GameRepository> intake_repository;
    std::unique_ptr<mail::ImapMailbox> mailbox;
    std::unique_ptr<mail::MailIntake> intake;
    std::unique_ptr<PeriodicWorker> intake_worker;
    std::unique_ptr<mail::ImapIdleWatcher> idle_watcher;
    if (settings.mail_in.enabled()) {
      Result<std::unique_ptr<storage::GameRepository>> opened =
          OpenRepository(settings, &database_health);
      if (!opened.ok()) {
        logger->error("event=startup_failed error={}", QuoteLogValue(opened.status().ToString()));
        return EXIT_IOERR;
      }
      intake_repository = std::move(opened).value();
      mailbox = std::make_unique<mail::ImapMailbox>(settings.mail_in);
      intake = std::make_unique<mail::MailIntake>(*intake_repository, desk, *metrics, *logger,
                                                  settings, [&] { outbox_worker.Wake(); });
      intake_worker = std::make_unique<PeriodicWorker>(
          std::chrono::duration_cast<std::chrono::milliseconds>(settings.mail_in.poll_interval),
          [&] {
            // Only the instance holding the intake lock reads the mailbox (others skip).
            Result<std::optional<mail::PollStats>> stats = intake->PollIfLeader(*mailbox, Now());
            if (!stats.ok() && stats.status().code() == StatusCode::kUnavailable) {
              // The database is unreachable: logged once by DatabaseHealth.
            } else if (!stats.ok()) {
              logger->warn("event=mailbox_poll_failed error={}",
                           QuoteLogValue(stats.status().ToString()));
            } else if (stats->has_value() && ((*stats)->fetched > 0 || (*stats)->kept > 0)) {
              logger->info("event=mailbox_poll fetched={} answered={} dropped={} kept={}",
                           (*stats)->fetched, (*stats)->answered, (*stats)->dropped,
                           (*stats)->kept);
            }
          });
      if (settings.mail_in.idle) {
        idle_watcher = std::make_unique<mail::ImapIdleWatcher>(
            settings.mail_in, *logger, [&intake_worker] { intake_worker->Wake(); });
      }
    }

    // Turns: the scheduler's own repository; results mails from the templates.
    templates::MailTemplates mail_templates;
    if (templates::Status loaded_templates =
            templates::MailTemplates::Load(settings.mail_templates_dir, &mail_templates);
        !loaded_templates.ok) {
      logger->error("event=startup_failed error={}", QuoteLogValue(loaded_templates.message));
      return EXIT_CONFIG;
    }
    Result<std::unique_ptr<storage::GameRepository>> turn_repository =
        OpenRepository(settings, &database_health);
    if (!turn_repository.ok()) {
      logger->error("event=startup_failed error={}",
                    QuoteLogValue(turn_repository.status().ToString()));
      return EXIT_IOERR;
    }
    SystemEntropy entropy;
    TurnLoopOptions turn_options;
    turn_options.grace = settings.turns.grace;
    turn_options.forfeit_after_missed = settings.turns.forfeit_after_missed;
    TurnLoop turn_loop(catalog, mail_templates, entropy, *metrics, settings.limits, turn_options);
    SystemClock clock;
    SchedulerOptions scheduler_options;
    scheduler_options.retry_base = settings.turns.poll_interval;
    scheduler_options.retry_max = settings.turns.retry_max;
    scheduler_options.max_failures = settings.turns.max_failures;
    scheduler_options.metrics = metrics.get();
    Scheduler scheduler(**turn_repository, turn_loop, clock, logger.get(), scheduler_options);
    if (FaultArmed(kFaultSchedulerAfterGameLock)) {
      // TEST-ONLY: stop holding a due game's lock, after a turn was resolved and its mail
      // claimed (tests/daemon/two_instances.sh).
      scheduler.SetAfterLockHook([&](const std::string& game_id) {
        if (metrics->turns_resolved() == 0) return;
        Result<storage::Game> game = (*turn_repository)->GetGame(game_id);
        if (!game.ok()) return;
        Result<GameContext> context = catalog.Load(*game);
        if (!context.ok() || context->finished) return;
        Result<std::optional<PendingOrders>> pending = turn_loop.FindOrders(
            **turn_repository, game_id, game->turns_committed, context->turn.side);
        if (!pending.ok() || !pending->has_value()) return;
        WaitForFaultPoint(kFaultOutboxAfterSend);
        FaultPoint(kFaultSchedulerAfterGameLock, "game=" + game_id);
      });
    }
    // Leagues (daemon/league_api.h): after each scheduler pass, the league pass records the
    // league games that ended (on the scheduler's repository, which is also the league store).
    LeagueServices league_services;
    league_services.catalog = &catalog;
    league_services.entropy = &entropy;
    league_services.template_dir = settings.mail_templates_dir.parent_path() / "league";
    league_services.admin_token = settings.http_admin_token;
    league_services.places = {settings.mail_from, settings.http_public_url};
    league_services.mail = &mail_templates;
    league_services.logger = logger.get();
    auto* league_store = dynamic_cast<storage::LeagueRepository*>(turn_repository->get());
    PeriodicWorker turn_worker(settings.turns.poll_interval, [&] {
      Result<SchedulerPass> pass = scheduler.Pass();
      if (!pass.ok()) {
        if (pass.status().code() != StatusCode::kUnavailable) {  // else logged once
          logger->error("event=scheduler_pass_failed error={}",
                        QuoteLogValue(pass.status().ToString()));
        }
      } else {
        for (int i = 0; i < pass->busy; ++i) metrics->GameBusy();
        if (pass->turns_resolved > 0 || pass->stuck > 0) outbox_worker.Wake();
      }
      if (league_store == nullptr) return;
      // One instance at a time records results and starts next rounds (several pbemd on one
      // database): the others skip the pass while the lock is held elsewhere.
      Result<bool> held = (*turn_repository)->TryLock(kLeaguePassLock);
      if (!held.ok() || !*held) return;
      Result<LeaguePass> leagues = RecordLeagueResults(league_services, **turn_repository,
                                                       *league_store, Now(), logger.get());
      if (Status unlocked = (*turn_repository)->Unlock(kLeaguePassLock); !unlocked.ok()) {
        logger->error("event=league_pass_unlock_failed error={}",
                      QuoteLogValue(unlocked.ToString()));
      }
      if (!leagues.ok()) {
        logger->error("event=league_pass_failed error={}",
                      QuoteLogValue(leagues.status().ToString()));
      } else if (leagues->recorded > 0 || leagues->rounds_recovered > 0) {
        outbox_worker.Wake();
      }
    });
    desk.OnAccepted([&turn_worker](const std::string&) { turn_worker.Wake(); });
    if (intake) intake->UseTemplates(&mail_templates, &catalog);
    // Resignation ("resign <game> <token>") and joining a league ("join <league> <name>
    // [en|fr]") by mail, on the intake's own repository (when it keeps leagues); then the
    // commands status, archive and help (daemon/mail/commands.h).
    HandledMessages join_mails;
    mail::CommandServices command_services;
    command_services.catalog = &catalog;
    command_services.templates = &mail_templates;
    command_services.address = settings.mail_from;
    command_services.public_url = settings.http_public_url;
    if (intake) {
      auto* intake_leagues = dynamic_cast<storage::LeagueRepository*>(intake_repository.get());
      intake->UseCommandHook(
          [&, intake_leagues](const mail::InboundMail& mail,
                              storage::Timestamp now) -> std::optional<mail::Disposition> {
            if (intake_leagues != nullptr) {
              if (auto resigned = HandleResignationMail(league_services, mail, *intake_repository,
                                                        *intake_leagues, now)) {
                return resigned;
              }
              if (auto joined = HandleJoinMail(league_services, mail, *intake_repository,
                                               *intake_leagues, join_mails, now)) {
                return joined;
              }
            }
            return mail::HandleCommandMail(command_services, mail, *intake_repository, now);
          });
    }

    ApiServices services;
    services.turns = &turn_loop;
    services.mail_templates = &mail_templates;
    services.archive_template_dir = settings.mail_templates_dir.parent_path() / "archive";
    services.archive_cache_dir = settings.data_dir / "archive-cache";
    services.metrics = metrics;
    services.open_repository = [&settings, &database_health] {
      return OpenRepository(settings, &database_health);
    };
    services.catalog = &catalog;
    services.desk = &desk;
    services.max_body_bytes = settings.limits.max_message_bytes;
    services.retry_after = settings.http.retry_after;
    services.read_cache_bytes = static_cast<std::size_t>(settings.http.read_cache_bytes);
    services.admin_token = settings.http_admin_token;
    services.mail_from = settings.mail_from;
    services.rulesets_dir = settings.rulesets_dir;
    services.leagues = &league_services;

    // The HTTP front (daemon/http/server.h says why it is not Poco's HTTPServer).
    http::ServerLimits http_limits;
    http_limits.workers = settings.http.workers;
    http_limits.queue = settings.http.queue;
    http_limits.max_connections = settings.http.max_connections;
    http_limits.header_timeout = settings.http.header_timeout;
    http_limits.body_timeout = settings.http.body_timeout;
    http_limits.idle_timeout = settings.http.idle_timeout;
    http_limits.retry_after = settings.http.retry_after;
    http_limits.max_header_bytes = static_cast<std::size_t>(settings.http.max_header_bytes);
    http_limits.max_header_fields = settings.http.max_header_fields;
    http_limits.max_body_bytes = settings.limits.max_message_bytes;
    std::unique_ptr<http::Server> server;
    try {
      socket.listen(std::max(64, settings.http.max_connections));
      server = std::make_unique<http::Server>(
          std::move(socket),
          std::make_unique<ApiRequestHandlerFactory>(logger, std::move(services)), http_limits,
          logger);
      server->Start();
    } catch (const Poco::Exception& e) {
      logger->error("event=startup_failed address={} port={} error={}", settings.http_address,
                    settings.http_port, QuoteLogValue(e.displayText()));
      return EXIT_UNAVAILABLE;
    }
    logger->info("event=listening address={} port={} instance={}", settings.http_address,
                 settings.http_port, QuoteLogValue(settings.instance_name));
    outbox_worker.Start();
    if (intake_worker) intake_worker->Start();
    if (idle_watcher) idle_watcher->Start();
    turn_worker.Start();

    waitForTerminationRequest();

    logger->info("event=stopping");
    server->Stop();  // the requests being handled finish and are answered
    server.reset();
    if (idle_watcher) idle_watcher->Stop();
    if (intake_worker) intake_worker->Stop();
    if (intake) intake->StepDown();
    turn_worker.Stop();
    outbox_worker.Stop();
    logger->info("event=stopped");
    logger->flush();
    return EXIT_OK;
  }

 private:
  void HandleHelp(const std::string& /*name*/, const std::string& /*value*/) {
    Poco::Util::HelpFormatter help(options());
    help.setCommand(commandName());
    help.setUsage("[OPTIONS]");
    help.setHeader(
        "The pbem service: the HTTP API (GET /healthz, GET /metrics), mail intake over IMAP\n"
        "and the outbox (file or SMTP transport).\n"
        "Every setting is a pbemd.* key, documented with its default in\n"
        "deploy/pbemd.properties (e.g. pbemd.data_dir, pbemd.http.port,\n"
        "pbemd.mail.in.url, pbemd.mail.out.transport). Each can also be set in the\n"
        "environment: the key upper-cased with '.' -> '_' (PBEMD_HTTP_PORT).\n"
        "Priority: -D, then environment, then --config file, then defaults.\n"
        "--daemon detaches (ServerApplication); SIGTERM stops cleanly.");
    help.format(std::cout);
    stopOptionsProcessing();
    help_requested_ = true;
  }

  void HandleConfig(const std::string& /*name*/, const std::string& value) { config_file_ = value; }

  void HandleDefine(const std::string& /*name*/, const std::string& value) {
    defines_.push_back(value);
  }

  // Builds the configuration layers and reads DaemonConfig from them; logs any error.
  std::optional<DaemonConfig> LoadConfig(spdlog::logger& logger) {
    try {
      for (const std::string& define : defines_) {
        const std::string::size_type eq = define.find('=');
        if (eq == std::string::npos || eq == 0) {
          logger.error("event=config_invalid error={}",
                       QuoteLogValue("-D" + define + ": expected KEY=VALUE"));
          return std::nullopt;
        }
        config().setString(define.substr(0, eq), define.substr(eq + 1));  // PRIO_APPLICATION
      }
      AddEnvironmentLayer(config(), kEnvironmentPriority);
      if (!config_file_.empty()) loadConfiguration(config_file_, PRIO_DEFAULT);
    } catch (const Poco::Exception& e) {
      logger.error("event=config_invalid file={} error={}", QuoteLogValue(config_file_),
                   QuoteLogValue(e.displayText()));
      return std::nullopt;
    }
    Result<DaemonConfig> loaded = LoadDaemonConfig(config());
    if (!loaded.ok()) {
      logger.error("event=config_invalid error={}", QuoteLogValue(loaded.status().message()));
      return std::nullopt;
    }
    return std::move(loaded).value();
  }

  bool help_requested_ = false;
  std::string config_file_;
  std::vector<std::string> defines_;
};

}  // namespace
}  // namespace pbem::daemon

int main(int argc, char** argv) {
  // Block the termination signals before any thread starts, so every thread inherits the mask
  // and only waitForTerminationRequest() (sigwait) receives them.
  sigset_t termination;
  sigemptyset(&termination);
  sigaddset(&termination, SIGINT);
  sigaddset(&termination, SIGTERM);
  sigaddset(&termination, SIGQUIT);
  pthread_sigmask(SIG_BLOCK, &termination, nullptr);

  curl_global_init(CURL_GLOBAL_DEFAULT);  // before any thread: it is not thread-safe
  int rc = 0;
  {
    pbem::daemon::Pbemd app;
    rc = app.run(argc, argv);
  }
  curl_global_cleanup();
  return rc;
}
