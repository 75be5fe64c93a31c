// DaemonConfig: every setting of pbemd, read once at start from a Poco configuration into a
// typed, validated struct. Nothing else in the daemon reads configuration keys. Every key is
// documented with its default in deploy/pbemd.properties.
//
// Layers, highest priority first (see pbemd_main.cc):
//   command line  -Dpbemd.http.port=8081 / --define=...
//   environment   PBEMD_HTTP_PORT=8081 (the key upper-cased, '.' -> '_'), AddEnvironmentLayer
//   file          --config=FILE (.properties, .ini, .json or .xml)
//   defaults      written in LoadDaemonConfig
// A key under "pbemd." that pbemd does not know is an error (a typo must not be ignored).
#ifndef PBEM_DAEMON_CONFIG_H_
#define PBEM_DAEMON_CONFIG_H_

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "storage/connection.h"
#include "storage/status.h"

namespace Poco::Util {
class AbstractConfiguration;
class LayeredConfiguration;
}  // namespace Poco::Util

namespace spdlog {
class logger;
}  // namespace spdlog

namespace pbem::daemon {

inline constexpr std::string_view kDataDirKey = "pbemd.data_dir";
inline constexpr std::string_view kDbBackendKey = "pbemd.db.backend";
inline constexpr std::string_view kDbPostgresqlKey = "pbemd.db.postgresql";
inline constexpr std::string_view kDbReconnectMinMsKey = "pbemd.db.reconnect_min_ms";
inline constexpr std::string_view kDbReconnectMaxMsKey = "pbemd.db.reconnect_max_ms";
inline constexpr std::string_view kHttpPortKey = "pbemd.http.port";
inline constexpr std::string_view kHttpAddressKey = "pbemd.http.address";
inline constexpr std::string_view kHttpAdminTokenKey = "pbemd.http.admin_token";
inline constexpr std::string_view kHttpPublicUrlKey = "pbemd.http.public_url";
inline constexpr std::string_view kHttpWorkersKey = "pbemd.http.workers";
inline constexpr std::string_view kHttpQueueKey = "pbemd.http.queue";
inline constexpr std::string_view kHttpMaxConnectionsKey = "pbemd.http.max_connections";
inline constexpr std::string_view kHttpHeaderTimeoutMsKey = "pbemd.http.header_timeout_ms";
inline constexpr std::string_view kHttpBodyTimeoutMsKey = "pbemd.http.body_timeout_ms";
inline constexpr std::string_view kHttpIdleTimeoutMsKey = "pbemd.http.idle_timeout_ms";
inline constexpr std::string_view kHttpRetryAfterSecondsKey = "pbemd.http.retry_after_seconds";
inline constexpr std::string_view kHttpMaxHeaderBytesKey = "pbemd.http.max_header_bytes";
inline constexpr std::string_view kHttpMaxHeaderFieldsKey = "pbemd.http.max_header_fields";
inline constexpr std::string_view kHttpReadCacheBytesKey = "pbemd.http.read_cache_bytes";
inline constexpr std::string_view kScenariosDirKey = "pbemd.scenarios_dir";
inline constexpr std::string_view kRulesetsDirKey = "pbemd.rulesets_dir";
inline constexpr std::string_view kMailFromKey = "pbemd.mail.from";
inline constexpr std::string_view kMailInUrlKey = "pbemd.mail.in.url";
inline constexpr std::string_view kMailInUserKey = "pbemd.mail.in.user";
inline constexpr std::string_view kMailInPasswordKey = "pbemd.mail.in.password";
inline constexpr std::string_view kMailInPollSecondsKey = "pbemd.mail.in.poll_seconds";
inline constexpr std::string_view kMailInIdleKey = "pbemd.mail.in.idle";
inline constexpr std::string_view kMailInQuarantineFolderKey = "pbemd.mail.in.quarantine_folder";
inline constexpr std::string_view kMailInRefusalRepliesKey =
    "pbemd.mail.in.refusal_replies_per_hour";
inline constexpr std::string_view kMailOutTransportKey = "pbemd.mail.out.transport";
inline constexpr std::string_view kOutboxDirKey = "pbemd.outbox_dir";
inline constexpr std::string_view kMailOutSmtpUrlKey = "pbemd.mail.out.smtp_url";
inline constexpr std::string_view kMailOutUserKey = "pbemd.mail.out.user";
inline constexpr std::string_view kMailOutPasswordKey = "pbemd.mail.out.password";
inline constexpr std::string_view kMailOutTlsKey = "pbemd.mail.out.tls";
inline constexpr std::string_view kMailOutPollMsKey = "pbemd.mail.out.poll_ms";
inline constexpr std::string_view kMailOutRetryBaseKey = "pbemd.mail.out.retry_base_seconds";
inline constexpr std::string_view kMailOutRetryMaxKey = "pbemd.mail.out.retry_max_seconds";
inline constexpr std::string_view kMailOutMaxAttemptsKey = "pbemd.mail.out.max_attempts";
inline constexpr std::string_view kMaxMessageBytesKey = "pbemd.limits.max_message_bytes";
inline constexpr std::string_view kMaxMimePartsKey = "pbemd.limits.max_mime_parts";
inline constexpr std::string_view kMaxMimeDepthKey = "pbemd.limits.max_mime_depth";
inline constexpr std::string_view kMailCaFileKey = "pbemd.mail.ca_file";
inline constexpr std::string_view kMailTemplatesDirKey = "pbemd.mail_templates_dir";
inline constexpr std::string_view kTurnsPollMsKey = "pbemd.turns.poll_ms";
inline constexpr std::string_view kTurnsGraceSecondsKey = "pbemd.turns.grace_seconds";
inline constexpr std::string_view kTurnsForfeitKey = "pbemd.turns.forfeit_after_missed";
inline constexpr std::string_view kTurnsRetryMaxMsKey = "pbemd.turns.retry_max_ms";
inline constexpr std::string_view kTurnsMaxFailuresKey = "pbemd.turns.max_failures";
inline constexpr std::string_view kInstanceNameKey = "pbemd.instance.name";
inline constexpr std::string_view kMailOutClaimSecondsKey = "pbemd.mail.out.claim_seconds";
inline constexpr std::string_view kOutboxKeepSentDaysKey = "pbemd.outbox.keep_sent_days";

// The environment variable naming the bundled data directory (engine/scenarios,
// engine/rulesets, templates/mail, ...): the default of pbemd.scenarios_dir, .rulesets_dir and
// .mail_templates_dir. Unset: <pbemd's directory>/../share/pbem when it exists (installed),
// else the source tree pbemd was built from. Set to a missing directory: an error.
inline constexpr std::string_view kDataDirVariable = "PBEM_DATA_DIR";

// Every key pbemd knows, in the order of deploy/pbemd.properties.
const std::vector<std::string_view>& KnownKeys();

inline constexpr std::string_view kDefaultDataDir = "./pbem-data";
inline constexpr std::uint16_t kDefaultHttpPort = 8080;
inline constexpr std::string_view kDefaultHttpAddress = "127.0.0.1";

enum class DbBackend { kSqlite, kPostgresql };
enum class MailTransport { kFile, kSmtp };
// none: plain SMTP; starttls: upgrade with STARTTLS (required); smtps: TLS from the start.
enum class SmtpTls { kNone, kStartTls, kSmtps };

struct MailInConfig {
  std::string url;  // pbemd.mail.in.url: imap://host:port/INBOX (or imaps://); empty = off
  std::string user;
  std::string password;
  std::chrono::seconds poll_interval{30};
  bool idle = true;  // pbemd.mail.in.idle: also wait in IMAP IDLE, polling at once on new mail
  std::filesystem::path ca_file;  // pbemd.mail.ca_file: verifies imaps://; empty = system CAs
  // pbemd.mail.in.quarantine_folder: where a mail that failed to process twice goes (created
  // when missing); 1 to 64 of letters, digits, '.', '_', '-', '/'.
  std::string quarantine_folder = "Quarantine";
  // pbemd.mail.in.refusal_replies_per_hour: refusals mailed to one address in an hour when no
  // token proved the sender (anyone can write a player's address in From:); further ones are
  // stored and counted, not answered. Refusals after the token matched are always answered.
  int refusal_replies_per_hour = 20;
  bool enabled() const { return !url.empty(); }
};

struct MailOutConfig {
  MailTransport transport = MailTransport::kFile;
  std::filesystem::path outbox_dir;  // pbemd.outbox_dir: where the file transport writes .eml
  std::string smtp_url;              // smtp://host:port or smtps://host:port
  std::string user;
  std::string password;
  SmtpTls tls = SmtpTls::kNone;
  std::filesystem::path ca_file;  // pbemd.mail.ca_file: verifies the server's certificate
  std::chrono::milliseconds poll_interval{1000};
  std::chrono::seconds retry_base{30};   // first retry after this, then doubling ...
  std::chrono::seconds retry_max{3600};  // ... up to this
  // pbemd.mail.out.max_attempts: a mail that failed this many times (a transient failure each
  // time) is dead-lettered; one the relay refuses for good (SMTP 5xx) is at the first. With
  // the default backoff, 120 attempts last about 4.8 days (Postfix's queue lifetime is 5).
  int max_attempts = 120;
  // How long a claim on outbox mails (storage ClaimDueMail) lasts: a pass must send its batch
  // within it, and mails claimed by an instance that died are sent by another after it.
  std::chrono::seconds claim_lease{300};
  // pbemd.outbox.keep_sent_days: a sent mail is deleted from the outbox (its copy is the
  // recipient's) this long after it was sent; 0 keeps every one. Pending mails and dead
  // letters are never deleted (daemon/mail/outbox_sender.h, OutboxSender::Prune).
  std::chrono::days keep_sent{30};
};

// The HTTP front's bounds (daemon/http/server.h); bodies are bounded by
// limits.max_message_bytes.
struct HttpConfig {
  int workers = 8;            // handlers running at once
  int queue = 64;             // complete requests waiting for a worker; more get 503
  int max_connections = 256;  // open connections; more get 503 at once
  std::chrono::milliseconds header_timeout{10000};  // to receive a whole request head
  std::chrono::milliseconds body_timeout{30000};    // to receive a whole body (and to send)
  std::chrono::milliseconds idle_timeout{5000};     // a kept-alive connection with no request
  std::chrono::seconds retry_after{2};              // Retry-After of a 503
  int max_header_bytes = 16384;                     // request line and header fields
  int max_header_fields = 64;
  // The encoded game states and maps kept in memory for the next read (daemon/read_cache.h);
  // 0: none.
  std::int64_t read_cache_bytes = std::int64_t{32} << 20;
};

struct LimitsConfig {
  std::size_t max_message_bytes = 1 << 20;  // a larger mail or request body is refused
  int max_mime_parts = 32;                  // parts in the whole message, nested included
  int max_mime_depth = 4;                   // nesting of multiparts
};

struct TurnsConfig {
  std::chrono::milliseconds poll_interval{1000};  // between two passes over the games
  std::chrono::seconds grace{0};  // added to every deadline before a turn goes without orders
  int forfeit_after_missed = 0;   // a player missing this many turns forfeits; 0: never
  // A game whose turn job fails (not a database outage) is tried again after poll_interval,
  // then twice as long each time, up to retry_max; after max_failures in a row it is stuck
  // until an operator retries it (daemon/scheduler.h, pbem turns retry).
  std::chrono::milliseconds retry_max{300000};
  int max_failures = 10;
};

struct DaemonConfig {
  // pbemd.instance.name: this process among those sharing one database (outbox claims, logs,
  // /metrics). Default: <hostname>-<pid>. Letters, digits, '.', '_' and '-'; 1 to 64.
  std::string instance_name;
  std::filesystem::path data_dir;  // pbemd.data_dir: the SQLite database and what is stored
  DbBackend db_backend = DbBackend::kSqlite;
  std::string db_postgresql;  // libpq key=value connection string (postgresql backend)
  // pbemd.db.reconnect_min_ms / _max_ms: a broken database connection is made again at
  // once, then after min, doubling up to max (storage/connection.h).
  storage::ReconnectPolicy db_reconnect;
  std::string http_address;  // pbemd.http.address: an IPv4 or IPv6 address to bind
  // pbemd.http.port: 1..65535, or 0: a port the system picks when pbemd binds, logged as
  // event=listening port=N (tests read it there: no race between picking a port and binding).
  std::uint16_t http_port = 0;
  std::string http_admin_token;  // pbemd.http.admin_token: empty = no game creation
  // pbemd.http.public_url: where players reach the HTTP API (http(s)://host[:port][/path], no
  // trailing '/'), for the links of mails. Default: http://<http.address>:<http.port>.
  std::string http_public_url;
  HttpConfig http;                           // pbemd.http.workers, .queue, ..._timeout_ms
  std::filesystem::path outbox_dir;          // pbemd.outbox_dir: default <data_dir>/outbox
  std::filesystem::path scenarios_dir;       // <name>.textproto for each game's scenario
  std::filesystem::path rulesets_dir;        // <ruleset>/ directories of *.textproto
  std::filesystem::path mail_templates_dir;  // <lang>/ of templates/mail (mail_render.h)
  std::string mail_from;                     // From: of every mail pbemd sends
  MailInConfig mail_in;
  MailOutConfig mail_out;  // mail_out.outbox_dir == outbox_dir
  LimitsConfig limits;
  TurnsConfig turns;
};

// The default of pbemd.http.public_url: http://ADDRESS:PORT (an IPv6 address bracketed).
std::string DefaultPublicUrl(const std::string& http_address, std::uint16_t port);

// Reads every pbemd.* setting, applying defaults, and validates them. On failure the
// INVALID_ARGUMENT message names each bad key and its value, e.g.
//   pbemd.http.port: "70000" is not a valid TCP port (expected an integer from 1 to 65535)
// (several problems are joined with "; "). Unknown pbemd.* keys are errors too.
Result<DaemonConfig> LoadDaemonConfig(const Poco::Util::AbstractConfiguration& config);

// The environment variable for a key: "pbemd.http.port" -> "PBEMD_HTTP_PORT".
std::string EnvironmentVariableFor(std::string_view key);

// Adds a read-only layer at `priority` holding each known key whose environment variable is
// set. Reads the environment through `config`'s "system.env." keys (Poco's
// SystemConfiguration layer, which every Poco application has).
void AddEnvironmentLayer(Poco::Util::LayeredConfiguration& config, int priority);

// True for keys whose values must never be logged (passwords, secrets, tokens, private keys).
bool IsSecretKey(std::string_view key);

// A value for a key=value log line: as is when it is non-empty and has no space, quote or
// backslash; otherwise in double quotes with " and \ escaped by a backslash.
std::string QuoteLogValue(std::string_view value);

// One line of key=value pairs, secrets replaced by "<redacted>" (the PostgreSQL connection
// string is redacted too: it may hold a password).
std::string DescribeForLog(const DaemonConfig& config);

// Logs DescribeForLog at info level as event=config.
void LogDaemonConfig(const DaemonConfig& config, spdlog::logger& logger);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_CONFIG_H_
