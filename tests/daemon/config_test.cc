#include "daemon/config.h"

#include <Poco/AutoPtr.h>
#include <Poco/Util/Application.h>
#include <Poco/Util/LayeredConfiguration.h>
#include <Poco/Util/MapConfiguration.h>
#include <Poco/Util/SystemConfiguration.h>
#include <stdlib.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/temp_dir.h"

namespace pbem::daemon {
namespace {

using Poco::AutoPtr;
using Poco::Util::MapConfiguration;

Result<DaemonConfig> LoadFrom(const std::string& key, const std::string& value) {
  AutoPtr<MapConfiguration> config(new MapConfiguration);
  config->setString(key, value);
  return LoadDaemonConfig(*config);
}

TEST_CASE("defaults apply when nothing is set", "[daemon][config]") {
  AutoPtr<MapConfiguration> empty(new MapConfiguration);
  Result<DaemonConfig> loaded = LoadDaemonConfig(*empty);
  REQUIRE(loaded.ok());
  CHECK(loaded->data_dir == "./pbem-data");
  CHECK(loaded->http_address == "127.0.0.1");
  CHECK(loaded->http_port == 8080);
  CHECK(loaded->outbox_dir == std::filesystem::path("./pbem-data") / "outbox");
}

TEST_CASE("the instance name defaults to host-pid; a bad one is refused", "[daemon][config]") {
  AutoPtr<MapConfiguration> empty(new MapConfiguration);
  Result<DaemonConfig> loaded = LoadDaemonConfig(*empty);
  REQUIRE(loaded.ok());
  const std::string pid = "-" + std::to_string(::getpid());
  REQUIRE(loaded->instance_name.size() > pid.size());
  CHECK(loaded->instance_name.substr(loaded->instance_name.size() - pid.size()) == pid);
  CHECK(loaded->mail_out.claim_lease == std::chrono::seconds(300));

  Result<DaemonConfig> named = LoadFrom("pbemd.instance.name", "pbemd-a.eu_1");
  REQUIRE(named.ok());
  CHECK(named->instance_name == "pbemd-a.eu_1");
  for (const char* bad : {"two words", "a/b", "x\"y"}) {
    Result<DaemonConfig> refused = LoadFrom("pbemd.instance.name", bad);
    REQUIRE_FALSE(refused.ok());
    CHECK_THAT(refused.status().message(), Catch::Contains("pbemd.instance.name"));
  }
  REQUIRE_FALSE(LoadFrom("pbemd.instance.name", std::string(65, 'x')).ok());
  Result<DaemonConfig> no_lease = LoadFrom("pbemd.mail.out.claim_seconds", "0");
  REQUIRE_FALSE(no_lease.ok());
  CHECK_THAT(no_lease.status().message(), Catch::Contains("pbemd.mail.out.claim_seconds"));
  CHECK(LoadFrom("pbemd.mail.out.claim_seconds", "5")->mail_out.claim_lease ==
        std::chrono::seconds(5));
}

TEST_CASE("the outbox follows the data directory unless set", "[daemon][config]") {
  AutoPtr<MapConfiguration> config(new MapConfiguration);
  config->setString("pbemd.data_dir", "/srv/pbem");
  config->setString("pbemd.http.port", " 9000 ");
  config->setString("pbemd.http.address", "::1");
  Result<DaemonConfig> loaded = LoadDaemonConfig(*config);
  REQUIRE(loaded.ok());
  CHECK(loaded->outbox_dir == "/srv/pbem/outbox");
  CHECK(loaded->http_port == 9000);
  CHECK(loaded->http_address == "::1");

  config->setString("pbemd.outbox_dir", "/var/spool/pbem");
  Result<DaemonConfig> with_outbox = LoadDaemonConfig(*config);
  REQUIRE(with_outbox.ok());
  CHECK(with_outbox->outbox_dir == "/var/spool/pbem");
}

TEST_CASE("a bad port is refused with an error naming the key and the value", "[daemon][config]") {
  for (const std::string bad : {"70000", "-1", "http", "80x", "", "65536", "8080.5"}) {
    INFO("port value: \"" << bad << "\"");
    Result<DaemonConfig> loaded = LoadFrom("pbemd.http.port", bad);
    REQUIRE_FALSE(loaded.ok());
    CHECK(loaded.status().code() == StatusCode::kInvalidArgument);
    CHECK_THAT(loaded.status().message(),
               Catch::Contains("pbemd.http.port: \"" + bad + "\" is not a valid TCP port"));
    CHECK_THAT(loaded.status().message(), Catch::Contains("1 to 65535"));
  }
  CHECK(LoadFrom("pbemd.http.port", "1").ok());
  CHECK(LoadFrom("pbemd.http.port", "65535").ok());
  // 0: the system picks the port when pbemd binds (pbemd_main.cc then fixes the public URL).
  Result<DaemonConfig> any = LoadFrom("pbemd.http.port", "0");
  REQUIRE(any.ok());
  CHECK(any->http_port == 0);
  CHECK(any->http_public_url == DefaultPublicUrl(any->http_address, 0));
  CHECK(DefaultPublicUrl("::1", 8080) == "http://[::1]:8080");
}

TEST_CASE("outbox retries are bounded: max_attempts, default 120", "[daemon][config]") {
  Result<DaemonConfig> defaults = LoadFrom("pbemd.instance.name", "x");
  REQUIRE(defaults.ok());
  CHECK(defaults->mail_out.max_attempts == 120);
  CHECK(LoadFrom("pbemd.mail.out.max_attempts", "3")->mail_out.max_attempts == 3);
  for (const std::string bad : {"0", "-2", "x", "100001"}) {
    INFO("max_attempts: \"" << bad << "\"");
    Result<DaemonConfig> loaded = LoadFrom("pbemd.mail.out.max_attempts", bad);
    REQUIRE_FALSE(loaded.ok());
    CHECK_THAT(loaded.status().message(), Catch::Contains("pbemd.mail.out.max_attempts"));
  }
}

TEST_CASE("sent outbox mails are kept keep_sent_days: default 30, 0 forever, bounded",
          "[daemon][config]") {
  Result<DaemonConfig> defaults = LoadFrom("pbemd.instance.name", "x");
  REQUIRE(defaults.ok());
  CHECK(defaults->mail_out.keep_sent == std::chrono::days(30));
  CHECK(LoadFrom("pbemd.outbox.keep_sent_days", "0")->mail_out.keep_sent == std::chrono::days(0));
  CHECK(LoadFrom("pbemd.outbox.keep_sent_days", "3650")->mail_out.keep_sent ==
        std::chrono::days(3650));
  for (const std::string bad : {"-1", "3651", "x", "", "1.5", "99999999999999999999"}) {
    INFO("keep_sent_days: \"" << bad << "\"");
    Result<DaemonConfig> loaded = LoadFrom("pbemd.outbox.keep_sent_days", bad);
    REQUIRE_FALSE(loaded.ok());
    CHECK_THAT(loaded.status().message(), Catch::Contains("pbemd.outbox.keep_sent_days"));
  }
}

TEST_CASE("failing turns: retry_max_ms and max_failures, defaults and bounds", "[daemon][config]") {
  Result<DaemonConfig> defaults = LoadFrom("pbemd.instance.name", "x");
  REQUIRE(defaults.ok());
  CHECK(defaults->turns.retry_max == std::chrono::milliseconds(300000));
  CHECK(defaults->turns.max_failures == 10);
  CHECK(LoadFrom("pbemd.turns.max_failures", "3")->turns.max_failures == 3);
  CHECK(LoadFrom("pbemd.turns.retry_max_ms", "60000")->turns.retry_max ==
        std::chrono::milliseconds(60000));
  for (const auto& [key, bad] : std::vector<std::pair<std::string, std::string>>{
           {"pbemd.turns.max_failures", "0"},
           {"pbemd.turns.max_failures", "1001"},
           {"pbemd.turns.max_failures", "x"},
           {"pbemd.turns.retry_max_ms", "5"},
           {"pbemd.turns.retry_max_ms", "500"}}) {  // less than poll_ms (1000)
    INFO(key << ": \"" << bad << "\"");
    Result<DaemonConfig> loaded = LoadFrom(key, bad);
    REQUIRE_FALSE(loaded.ok());
    CHECK_THAT(loaded.status().message(), Catch::Contains(key));
  }
}

TEST_CASE("an address that does not parse is refused, naming the key", "[daemon][config]") {
  for (const std::string bad : {"localhost", "127.0.0.256", "", "1.2.3"}) {
    INFO("address value: \"" << bad << "\"");
    Result<DaemonConfig> loaded = LoadFrom("pbemd.http.address", bad);
    REQUIRE_FALSE(loaded.ok());
    CHECK_THAT(loaded.status().message(),
               Catch::Contains("pbemd.http.address: \"" + bad + "\" is not an IP address"));
  }
}

TEST_CASE("empty directories are refused and every problem is reported", "[daemon][config]") {
  AutoPtr<MapConfiguration> config(new MapConfiguration);
  config->setString("pbemd.data_dir", "");
  config->setString("pbemd.outbox_dir", "");
  config->setString("pbemd.http.port", "99999");
  Result<DaemonConfig> loaded = LoadDaemonConfig(*config);
  REQUIRE_FALSE(loaded.ok());
  const std::string& message = loaded.status().message();
  CHECK_THAT(message, Catch::Contains("pbemd.data_dir: must not be empty"));
  CHECK_THAT(message, Catch::Contains("pbemd.outbox_dir: must not be empty"));
  CHECK_THAT(message, Catch::Contains("pbemd.http.port: \"99999\""));
}

// The links of mails (issue 14 point 12): where players reach the HTTP API.
TEST_CASE("the public URL defaults to pbemd's own address; a bad one is refused",
          "[daemon][config]") {
  AutoPtr<MapConfiguration> empty(new MapConfiguration);
  CHECK(LoadDaemonConfig(*empty)->http_public_url == "http://127.0.0.1:8080");
  AutoPtr<MapConfiguration> config(new MapConfiguration);
  config->setString("pbemd.http.address", "::1");
  config->setString("pbemd.http.port", "9000");
  config->setString("pbemd.http.public_url", "");  // as the sample file leaves it
  CHECK(LoadDaemonConfig(*config)->http_public_url == "http://[::1]:9000");
  config->setString("pbemd.http.public_url", "https://games.example.org/pbem/");
  CHECK(LoadDaemonConfig(*config)->http_public_url == "https://games.example.org/pbem");
  for (const char* bad : {"ftp://x.example", "games.example.org", "http://a b.example",
                          "http://x.example/\r\nBcc: y"}) {
    Result<DaemonConfig> refused = LoadFrom("pbemd.http.public_url", bad);
    INFO(bad);
    REQUIRE_FALSE(refused.ok());
    CHECK_THAT(refused.status().message(), Catch::Contains("pbemd.http.public_url"));
  }
}

TEST_CASE("environment variable names follow the keys", "[daemon][config]") {
  CHECK(EnvironmentVariableFor("pbemd.http.port") == "PBEMD_HTTP_PORT");
  CHECK(EnvironmentVariableFor("pbemd.data_dir") == "PBEMD_DATA_DIR");
}

TEST_CASE("layers: command line over environment over file over defaults", "[daemon][config]") {
  using Poco::Util::Application;
  REQUIRE(setenv("PBEMD_HTTP_PORT", "9001", 1) == 0);
  REQUIRE(setenv("PBEMD_DATA_DIR", "/from/env", 1) == 0);

  AutoPtr<Poco::Util::LayeredConfiguration> config(new Poco::Util::LayeredConfiguration);
  config->add(new Poco::Util::SystemConfiguration, Application::PRIO_SYSTEM, false);
  AutoPtr<MapConfiguration> file(new MapConfiguration);
  file->setString("pbemd.http.port", "7000");
  file->setString("pbemd.http.address", "127.0.0.2");
  config->add(file, Application::PRIO_DEFAULT);
  AddEnvironmentLayer(*config, -50);

  Result<DaemonConfig> from_env = LoadDaemonConfig(*config);
  REQUIRE(from_env.ok());
  CHECK(from_env->http_port == 9001);            // environment beats the file
  CHECK(from_env->http_address == "127.0.0.2");  // the file beats the default
  CHECK(from_env->data_dir == "/from/env");

  AutoPtr<MapConfiguration> command_line(new MapConfiguration);
  command_line->setString("pbemd.http.port", "9002");
  config->add(command_line, Application::PRIO_APPLICATION);
  Result<DaemonConfig> from_command_line = LoadDaemonConfig(*config);
  REQUIRE(from_command_line.ok());
  CHECK(from_command_line->http_port == 9002);

  unsetenv("PBEMD_HTTP_PORT");
  unsetenv("PBEMD_DATA_DIR");
}

TEST_CASE("the log line lists every setting and hides secrets", "[daemon][config]") {
  AutoPtr<MapConfiguration> map(new MapConfiguration);
  map->setString("pbemd.data_dir", "/srv/pbem data");
  map->setString("pbemd.http.port", "8081");
  map->setString("pbemd.mail.in.url", "imap://127.0.0.1:1143/INBOX");
  map->setString("pbemd.mail.in.user", "game");
  map->setString("pbemd.mail.in.password", "hunter2");
  map->setString("pbemd.mail.out.transport", "smtp");
  map->setString("pbemd.mail.out.smtp_url", "smtp://127.0.0.1:2525");
  map->setString("pbemd.mail.out.password", "s3cret");
  map->setString("pbemd.db.backend", "postgresql");
  map->setString("pbemd.db.postgresql", "host=h dbname=d password=pgpw");
  Result<DaemonConfig> config = LoadDaemonConfig(*map);
  REQUIRE(config.ok());
  const std::string line = DescribeForLog(*config);
  for (std::string_view key : KnownKeys()) {
    CHECK_THAT(line, Catch::Contains(std::string(key) + "="));
  }
  CHECK_THAT(line, Catch::Contains("pbemd.data_dir=\"/srv/pbem data\""));
  CHECK_THAT(line, Catch::Contains("pbemd.mail.in.password=<redacted>"));
  CHECK_THAT(line, Catch::Contains("pbemd.mail.out.password=<redacted>"));
  CHECK_THAT(line, Catch::Contains("pbemd.db.postgresql=<redacted>"));
  CHECK_THAT(line, !Catch::Contains("hunter2"));
  CHECK_THAT(line, !Catch::Contains("s3cret"));
  CHECK_THAT(line, !Catch::Contains("pgpw"));

  CHECK(QuoteLogValue("plain") == "plain");
  CHECK(QuoteLogValue("") == "\"\"");
  CHECK(QuoteLogValue("two words") == "\"two words\"");
  CHECK(QuoteLogValue(R"(say "hi" \ bye)") == R"("say \"hi\" \\ bye")");

  CHECK(IsSecretKey("pbemd.smtp.password"));
  CHECK(IsSecretKey("pbemd.imap.PASSWD"));
  CHECK(IsSecretKey("pbemd.api.token"));
  CHECK(IsSecretKey("pbemd.tls.private_key"));
  CHECK_FALSE(IsSecretKey("pbemd.http.port"));
  CHECK_FALSE(IsSecretKey("pbemd.data_dir"));
}

TEST_CASE("an unknown pbemd key is refused, naming it", "[daemon][config]") {
  Result<DaemonConfig> loaded = LoadFrom("pbemd.http.prot", "8080");
  REQUIRE_FALSE(loaded.ok());
  CHECK_THAT(loaded.status().message(), Catch::Contains("pbemd.http.prot: unknown key"));
  // Keys outside pbemd.* (Poco's application.*, system.*) are not ours to judge.
  CHECK(LoadFrom("application.name", "x").ok());
}

TEST_CASE("backend, transport and TLS are checked with clear errors", "[daemon][config]") {
  Result<DaemonConfig> backend = LoadFrom("pbemd.db.backend", "mysql");
  REQUIRE_FALSE(backend.ok());
  CHECK_THAT(backend.status().message(),
             Catch::Contains("pbemd.db.backend: \"mysql\" is not one of: sqlite, postgresql"));

  Result<DaemonConfig> no_conn = LoadFrom("pbemd.db.backend", "postgresql");
  REQUIRE_FALSE(no_conn.ok());
  CHECK_THAT(no_conn.status().message(), Catch::Contains("pbemd.db.postgresql: must be set"));

  Result<DaemonConfig> transport = LoadFrom("pbemd.mail.out.transport", "carrier-pigeon");
  REQUIRE_FALSE(transport.ok());
  CHECK_THAT(transport.status().message(),
             Catch::Contains("pbemd.mail.out.transport: \"carrier-pigeon\" is not one of"));

  Result<DaemonConfig> no_url = LoadFrom("pbemd.mail.out.transport", "smtp");
  REQUIRE_FALSE(no_url.ok());
  CHECK_THAT(no_url.status().message(), Catch::Contains("pbemd.mail.out.smtp_url: must be set"));

  AutoPtr<MapConfiguration> smtps(new MapConfiguration);
  smtps->setString("pbemd.mail.out.transport", "smtp");
  smtps->setString("pbemd.mail.out.smtp_url", "smtp://mail.example.org:465");
  smtps->setString("pbemd.mail.out.tls", "smtps");
  Result<DaemonConfig> mismatch = LoadDaemonConfig(*smtps);
  REQUIRE_FALSE(mismatch.ok());
  CHECK_THAT(mismatch.status().message(),
             Catch::Contains("pbemd.mail.out.smtp_url: \"smtp://mail.example.org:465\" is not a "
                             "URL of the form smtps://host:port"));
  smtps->setString("pbemd.mail.out.smtp_url", "smtps://mail.example.org:465");
  Result<DaemonConfig> good = LoadDaemonConfig(*smtps);
  REQUIRE(good.ok());
  CHECK(good->mail_out.tls == SmtpTls::kSmtps);
  CHECK(good->mail_out.transport == MailTransport::kSmtp);

  Result<DaemonConfig> imap = LoadFrom("pbemd.mail.in.url", "http://x/INBOX");
  REQUIRE_FALSE(imap.ok());
  CHECK_THAT(imap.status().message(), Catch::Contains("pbemd.mail.in.url: \"http://x/INBOX\""));
  CHECK_THAT(imap.status().message(), Catch::Contains("pbemd.mail.in.user: must be set"));

  Result<DaemonConfig> poll = LoadFrom("pbemd.mail.in.poll_seconds", "0");
  REQUIRE_FALSE(poll.ok());
  CHECK_THAT(poll.status().message(),
             Catch::Contains("pbemd.mail.in.poll_seconds: \"0\" is not an integer from 1 to"));

  Result<DaemonConfig> ca = LoadFrom("pbemd.mail.ca_file", "/nonexistent/ca.pem");
  REQUIRE_FALSE(ca.ok());
  CHECK_THAT(ca.status().message(),
             Catch::Contains("pbemd.mail.ca_file: \"/nonexistent/ca.pem\" is not a readable file"));
  const std::string here =
      (std::filesystem::path(PBEM_SOURCE_DIR) / "deploy" / "pbemd.properties").string();
  Result<DaemonConfig> ca_ok = LoadFrom("pbemd.mail.ca_file", here);
  REQUIRE(ca_ok.ok());
  CHECK(ca_ok->mail_in.ca_file == here);  // one bundle for both mail servers
  CHECK(ca_ok->mail_out.ca_file == here);

  Result<DaemonConfig> workers = LoadFrom("pbemd.http.workers", "0");
  REQUIRE_FALSE(workers.ok());
  CHECK_THAT(workers.status().message(), Catch::Contains("pbemd.http.workers"));
  Result<DaemonConfig> header_timeout = LoadFrom("pbemd.http.header_timeout_ms", "18000");
  REQUIRE(header_timeout.ok());
  CHECK(header_timeout->http.header_timeout == std::chrono::milliseconds(18000));

  Result<DaemonConfig> size = LoadFrom("pbemd.limits.max_message_bytes", "10");
  REQUIRE_FALSE(size.ok());
  CHECK_THAT(size.status().message(), Catch::Contains("pbemd.limits.max_message_bytes"));
}

TEST_CASE("mail and limits have working defaults", "[daemon][config]") {
  AutoPtr<MapConfiguration> empty(new MapConfiguration);
  Result<DaemonConfig> loaded = LoadDaemonConfig(*empty);
  REQUIRE(loaded.ok());
  CHECK(loaded->db_backend == DbBackend::kSqlite);
  CHECK(loaded->mail_out.transport == MailTransport::kFile);
  CHECK_FALSE(loaded->mail_in.enabled());
  CHECK(loaded->limits.max_message_bytes == 1 << 20);
  CHECK(loaded->http.workers == 8);
  CHECK(loaded->http.queue == 64);
  CHECK(loaded->http.max_connections == 256);
  CHECK(loaded->http.header_timeout == std::chrono::milliseconds(10000));
  CHECK(loaded->http.idle_timeout == std::chrono::milliseconds(5000));
  CHECK(loaded->mail_from == "pbem@localhost");
  CHECK(std::filesystem::exists(loaded->scenarios_dir / "bois-de-la-morne.textproto"));
}

// Issue 14, point 11: an installed pbemd read its data from the build tree whatever
// PBEM_DATA_DIR said (seen failing before the fix: the three directories were the source tree's).
TEST_CASE("the bundled data: PBEM_DATA_DIR, else the install prefix, else the source tree",
          "[daemon][config]") {
  testing::TempDir prefix("pbem-config-prefix");
  const std::filesystem::path share = prefix.path() / "share" / "pbem";
  std::filesystem::create_directories(share / "engine" / "scenarios");
  std::filesystem::create_directories(prefix.path() / "bin");
  const std::filesystem::path source = PBEM_SOURCE_DIR;

  AutoPtr<MapConfiguration> config(new MapConfiguration);
  config->setString("system.env.PBEM_DATA_DIR", share.string());
  Result<DaemonConfig> from_env = LoadDaemonConfig(*config);
  REQUIRE(from_env.ok());
  CHECK(from_env->scenarios_dir == share / "engine" / "scenarios");
  CHECK(from_env->rulesets_dir == share / "engine" / "rulesets");
  CHECK(from_env->mail_templates_dir == share / "templates" / "mail");

  // A key still wins over the variable.
  config->setString("pbemd.scenarios_dir", "/elsewhere/scenarios");
  CHECK(LoadDaemonConfig(*config)->scenarios_dir == "/elsewhere/scenarios");
  config->remove("pbemd.scenarios_dir");

  // A variable naming no directory is an error naming it, not a silent fallback.
  config->setString("system.env.PBEM_DATA_DIR", (prefix.path() / "missing").string());
  Result<DaemonConfig> missing = LoadDaemonConfig(*config);
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.status().message(), Catch::Contains("PBEM_DATA_DIR"));
  CHECK_THAT(missing.status().message(), Catch::Contains("missing"));

  // No variable: <pbemd's directory>/../share/pbem when it holds engine/scenarios (Poco's
  // application.dir ends with '/').
  config->remove("system.env.PBEM_DATA_DIR");
  config->setString("application.dir", (prefix.path() / "bin").string() + "/");
  CHECK(LoadDaemonConfig(*config)->scenarios_dir == share / "engine" / "scenarios");
  config->setString("application.dir", (prefix.path() / "bin").string());
  CHECK(LoadDaemonConfig(*config)->rulesets_dir == share / "engine" / "rulesets");

  // Running from the build tree: no share/pbem beside bin/, the source tree.
  std::filesystem::remove_all(share);
  CHECK(LoadDaemonConfig(*config)->scenarios_dir == source / "engine" / "scenarios");
  CHECK(LoadDaemonConfig(*config)->mail_templates_dir == source / "templates" / "mail");
}

}  // namespace
}  // namespace pbem::daemon

namespace pbem::daemon {
namespace {

TEST_CASE("the quarantine folder defaults to Quarantine; a name unsafe in IMAP is refused",
          "[daemon][config]") {
  AutoPtr<MapConfiguration> empty(new MapConfiguration);
  Result<DaemonConfig> loaded = LoadDaemonConfig(*empty);
  REQUIRE(loaded.ok());
  CHECK(loaded->mail_in.quarantine_folder == "Quarantine");
  REQUIRE(LoadFrom("pbemd.mail.in.quarantine_folder", "INBOX/Held.2026").ok());
  for (const std::string& bad :
       std::vector<std::string>{"", "a b", "x\"y", "/root", "a\r\nb", std::string(65, 'q')}) {
    INFO("folder: \"" << bad << "\"");
    Result<DaemonConfig> refused = LoadFrom("pbemd.mail.in.quarantine_folder", bad);
    REQUIRE_FALSE(refused.ok());
    CHECK_THAT(refused.status().message(), Catch::Contains("pbemd.mail.in.quarantine_folder: ") &&
                                               Catch::Contains("is not a folder name"));
  }
}

}  // namespace
}  // namespace pbem::daemon
