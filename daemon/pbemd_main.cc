// pbemd: the pbem service. Loads its configuration (see daemon/config.h), opens the game store,
// serves the HTTP API on the configured address and stops cleanly (exit code 0) on SIGTERM or
// SIGINT.
#include <Poco/Exception.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Util/HelpFormatter.h>
#include <Poco/Util/Option.h>
#include <Poco/Util/OptionCallback.h>
#include <Poco/Util/OptionSet.h>
#include <Poco/Util/ServerApplication.h>
#include <signal.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "daemon/config.h"
#include "daemon/http_api.h"
#include "storage/sqlite_repository.h"

namespace pbem::daemon {
namespace {

using Poco::Util::Application;
using Poco::Util::Option;
using Poco::Util::OptionCallback;
using Poco::Util::OptionSet;

// Between the command line (PRIO_APPLICATION, -100) and a --config file (PRIO_DEFAULT, 0).
constexpr int kEnvironmentPriority = -50;

std::shared_ptr<spdlog::logger> MakeLogger() {
  auto logger = spdlog::stdout_logger_mt("pbemd");
  logger->set_pattern("ts=%Y-%m-%dT%H:%M:%S.%e%z level=%l logger=%n %v");
  logger->flush_on(spdlog::level::info);  // stdout is a pipe under journald and in tests
  return logger;
}

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
    const DaemonConfig& settings = *loaded;
    LogDaemonConfig(settings, *logger);

    std::error_code error;
    std::filesystem::create_directories(settings.outbox_dir, error);
    if (error) {
      logger->error("event=startup_failed dir={} error={}",
                    QuoteLogValue(settings.outbox_dir.string()), QuoteLogValue(error.message()));
      return EXIT_CANTCREAT;
    }
    storage::SqliteRepository repository(settings.data_dir);
    Result<int> schema = repository.OpenOrMigrate();
    if (!schema.ok()) {
      logger->error("event=startup_failed error={}", QuoteLogValue(schema.status().ToString()));
      return EXIT_IOERR;
    }
    logger->info("event=storage_open db={} schema_version={}", repository.database_path().string(),
                 *schema);

    std::unique_ptr<Poco::Net::HTTPServer> server;
    try {
      // Not the ServerSocket(address) constructor: it sets SO_REUSEPORT too, and a second
      // pbemd would then share the port instead of failing.
      Poco::Net::ServerSocket socket;
      socket.bind(Poco::Net::SocketAddress(settings.http_address, settings.http_port),
                  /*reuseAddress=*/true, /*reusePort=*/false);
      socket.listen(64);
      Poco::Net::HTTPServerParams::Ptr params = new Poco::Net::HTTPServerParams;
      params->setMaxThreads(4);
      params->setMaxQueued(64);
      server = std::make_unique<Poco::Net::HTTPServer>(new ApiRequestHandlerFactory(logger), socket,
                                                       params);
      server->start();
    } catch (const Poco::Exception& e) {
      logger->error("event=startup_failed address={} port={} error={}", settings.http_address,
                    settings.http_port, QuoteLogValue(e.displayText()));
      return EXIT_UNAVAILABLE;
    }
    logger->info("event=listening address={} port={}", settings.http_address, settings.http_port);

    waitForTerminationRequest();

    logger->info("event=stopping");
    server->stopAll(/*abortCurrent=*/false);
    server.reset();
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
        "The pbem service: serves the HTTP API (GET /healthz).\n"
        "Settings (default):\n"
        "  pbemd.data_dir      (./pbem-data)\n"
        "  pbemd.http.address  (127.0.0.1)\n"
        "  pbemd.http.port     (8080)\n"
        "  pbemd.outbox_dir    (<data_dir>/outbox)\n"
        "Each can also be set in the environment: PBEMD_DATA_DIR,\n"
        "PBEMD_HTTP_ADDRESS, PBEMD_HTTP_PORT, PBEMD_OUTBOX_DIR.\n"
        "Priority: -D, then environment, then --config file, then\n"
        "defaults.");
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

  pbem::daemon::Pbemd app;
  return app.run(argc, argv);
}
