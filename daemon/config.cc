#include "daemon/config.h"

#include <Poco/AutoPtr.h>
#include <Poco/Environment.h>
#include <Poco/Exception.h>
#include <Poco/Net/IPAddress.h>
#include <Poco/Process.h>
#include <Poco/String.h>
#include <Poco/URI.h>
#include <Poco/Util/AbstractConfiguration.h>
#include <Poco/Util/LayeredConfiguration.h>
#include <Poco/Util/MapConfiguration.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <utility>
#include <vector>

#include "daemon/validate.h"

#ifndef PBEM_SOURCE_DIR
#define PBEM_SOURCE_DIR "."
#endif

namespace pbem::daemon {
namespace {

// Reads a key as a trimmed string; problems (e.g. a bad ${...} reference) go to `errors`.
std::string ReadString(const Poco::Util::AbstractConfiguration& config, std::string_view key,
                       std::string_view fallback, std::vector<std::string>& errors) {
  try {
    return Poco::trim(config.getString(std::string(key), std::string(fallback)));
  } catch (const Poco::Exception& e) {
    errors.push_back(std::string(key) + ": cannot be read: " + e.displayText());
    return std::string(fallback);
  }
}

std::string Quoted(std::string_view value) { return "\"" + std::string(value) + "\""; }

// An integer in [min, max]; a bad value is reported and `fallback` returned.
long ReadInteger(const Poco::Util::AbstractConfiguration& config, std::string_view key,
                 long fallback, long min, long max, std::vector<std::string>& errors) {
  const std::string text = ReadString(config, key, std::to_string(fallback), errors);
  long value = 0;
  const char* const end = text.data() + text.size();
  const auto [parsed_end, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || parsed_end != end || value < min || value > max) {
    errors.push_back(std::string(key) + ": " + Quoted(text) + " is not an integer from " +
                     std::to_string(min) + " to " + std::to_string(max));
    return fallback;
  }
  return value;
}

// One of `choices` (case-sensitive); returns its index, or 0 after reporting a bad value.
std::size_t ReadChoice(const Poco::Util::AbstractConfiguration& config, std::string_view key,
                       const std::vector<std::string_view>& choices,
                       std::vector<std::string>& errors) {
  const std::string text = ReadString(config, key, choices.front(), errors);
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (text == choices[i]) return i;
  }
  std::string list;
  for (std::string_view choice : choices) {
    if (!list.empty()) list += ", ";
    list += choice;
  }
  errors.push_back(std::string(key) + ": " + Quoted(text) + " is not one of: " + list);
  return 0;
}

// Collects every leaf key under `root` (e.g. "pbemd").
void CollectKeys(const Poco::Util::AbstractConfiguration& config, const std::string& root,
                 std::vector<std::string>& out) {
  Poco::Util::AbstractConfiguration::Keys children;
  config.keys(root, children);
  if (children.empty()) {
    out.push_back(root);
    return;
  }
  if (config.hasProperty(root)) out.push_back(root);
  for (const std::string& child : children) CollectKeys(config, root + "." + child, out);
}

// A URL with one of `schemes` and a host; otherwise an error naming the key.
// The directory holding the bundled engine/{scenarios,rulesets} and templates/{mail,archive,
// league}, the default of the *_dir keys: $PBEM_DATA_DIR when set (read through the
// configuration's system.env. keys; the unit sets it); else <pbemd's directory>/../share/pbem
// when it has engine/scenarios (an installed pbemd: cmake --install lays it out so); else the
// source tree pbemd was built from (running from the build tree).
std::filesystem::path BundledDataDir(const Poco::Util::AbstractConfiguration& config,
                                     std::vector<std::string>& errors) {
  const std::string env = config.getString("system.env." + std::string(kDataDirVariable), "");
  if (!env.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(env, ec)) {
      errors.push_back(std::string(kDataDirVariable) + ": " + Quoted(env) +
                       " is not a directory (expected the bundled data, e.g. "
                       "/usr/local/share/pbem)");
    }
    return env;
  }
  const std::string exe_dir = config.getString("application.dir", "");
  if (!exe_dir.empty()) {
    std::filesystem::path bin = exe_dir;
    if (!bin.has_filename()) bin = bin.parent_path();  // Poco ends it with '/'
    const std::filesystem::path installed = bin.parent_path() / "share" / "pbem";
    std::error_code ec;
    if (std::filesystem::is_directory(installed / "engine" / "scenarios", ec)) return installed;
  }
  return PBEM_SOURCE_DIR;
}

void CheckUrl(std::string_view key, const std::string& url, const std::vector<std::string>& schemes,
              std::vector<std::string>& errors) {
  std::string expected;
  for (const std::string& scheme : schemes) {
    if (!expected.empty()) expected += " or ";
    expected += scheme + "://host:port";
  }
  try {
    const Poco::URI uri(url);
    if (std::find(schemes.begin(), schemes.end(), uri.getScheme()) != schemes.end() &&
        !uri.getHost().empty()) {
      return;
    }
  } catch (const Poco::Exception&) {
  }
  errors.push_back(std::string(key) + ": " + Quoted(url) + " is not a URL of the form " + expected);
}

}  // namespace

const std::vector<std::string_view>& KnownKeys() {
  static const std::vector<std::string_view> keys = {
      kDataDirKey,
      kDbBackendKey,
      kDbPostgresqlKey,
      kDbReconnectMinMsKey,
      kDbReconnectMaxMsKey,
      kHttpAddressKey,
      kHttpPortKey,
      kHttpAdminTokenKey,
      kHttpPublicUrlKey,
      kHttpWorkersKey,
      kHttpQueueKey,
      kHttpMaxConnectionsKey,
      kHttpHeaderTimeoutMsKey,
      kHttpBodyTimeoutMsKey,
      kHttpIdleTimeoutMsKey,
      kHttpRetryAfterSecondsKey,
      kHttpMaxHeaderBytesKey,
      kHttpMaxHeaderFieldsKey,
      kHttpReadCacheBytesKey,
      kScenariosDirKey,
      kRulesetsDirKey,
      kMailFromKey,
      kMailInUrlKey,
      kMailInUserKey,
      kMailInPasswordKey,
      kMailInPollSecondsKey,
      kMailInIdleKey,
      kMailOutTransportKey,
      kOutboxDirKey,
      kMailOutSmtpUrlKey,
      kMailOutUserKey,
      kMailOutPasswordKey,
      kMailOutTlsKey,
      kMailCaFileKey,
      kMailOutPollMsKey,
      kMailOutRetryBaseKey,
      kMailOutRetryMaxKey,
      kMailOutMaxAttemptsKey,
      kMaxMessageBytesKey,
      kMaxMimePartsKey,
      kMaxMimeDepthKey,
      kTurnsPollMsKey,
      kTurnsGraceSecondsKey,
      kMailTemplatesDirKey,
      kTurnsForfeitKey,
      kTurnsRetryMaxMsKey,
      kTurnsMaxFailuresKey,
      kInstanceNameKey,
      kMailOutClaimSecondsKey,
      kOutboxKeepSentDaysKey,
      kMailInQuarantineFolderKey,
      kMailInRefusalRepliesKey,
  };
  return keys;
}

std::string DefaultPublicUrl(const std::string& http_address, std::uint16_t port) {
  const bool v6 = http_address.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + http_address + "]" : http_address) + ":" + std::to_string(port);
}

Result<DaemonConfig> LoadDaemonConfig(const Poco::Util::AbstractConfiguration& config) {
  std::vector<std::string> errors;
  DaemonConfig result;

  {
    std::vector<std::string> present;
    try {
      CollectKeys(config, "pbemd", present);
    } catch (const Poco::Exception& e) {
      errors.push_back("pbemd.*: cannot list the keys: " + e.displayText());
    }
    const auto& known = KnownKeys();
    for (const std::string& key : present) {
      if (key == "pbemd") continue;
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        errors.push_back(key + ": unknown key (see deploy/pbemd.properties for every key)");
      }
    }
  }

  const std::string data_dir = ReadString(config, kDataDirKey, kDefaultDataDir, errors);
  if (data_dir.empty()) {
    errors.push_back(std::string(kDataDirKey) + ": must not be empty");
  }
  result.data_dir = data_dir;

  result.db_backend = ReadChoice(config, kDbBackendKey, {"sqlite", "postgresql"}, errors) == 0
                          ? DbBackend::kSqlite
                          : DbBackend::kPostgresql;
  result.db_postgresql = ReadString(config, kDbPostgresqlKey, "", errors);
  if (result.db_backend == DbBackend::kPostgresql) {
    if (result.db_postgresql.empty()) {
      errors.push_back(std::string(kDbPostgresqlKey) +
                       ": must be set when pbemd.db.backend is postgresql (libpq key=value "
                       "pairs, e.g. host=127.0.0.1 port=5432 dbname=pbem user=pbem)");
    } else if (result.db_postgresql.find('=') == std::string::npos) {
      errors.push_back(std::string(kDbPostgresqlKey) +
                       ": is not a libpq key=value connection string (no '='); the "
                       "postgresql:// URI form is not accepted");
    }
  }

  result.db_reconnect.first_delay =
      std::chrono::milliseconds(ReadInteger(config, kDbReconnectMinMsKey, 100, 1, 60000, errors));
  result.db_reconnect.max_delay =
      std::chrono::milliseconds(ReadInteger(config, kDbReconnectMaxMsKey, 5000, 1, 600000, errors));
  if (result.db_reconnect.max_delay < result.db_reconnect.first_delay) {
    errors.push_back(std::string(kDbReconnectMaxMsKey) + ": must not be less than " +
                     std::string(kDbReconnectMinMsKey));
  }

  const std::string port_text =
      ReadString(config, kHttpPortKey, std::to_string(kDefaultHttpPort), errors);
  unsigned long port = 0;
  const char* const port_end = port_text.data() + port_text.size();
  const auto [parsed_end, parse_error] = std::from_chars(port_text.data(), port_end, port);
  if (port_text.empty() || parse_error != std::errc() || parsed_end != port_end || port > 65535) {
    errors.push_back(std::string(kHttpPortKey) + ": " + Quoted(port_text) +
                     " is not a valid TCP port (expected an integer from 1 to 65535, or 0 for "
                     "any free port)");
  } else {
    result.http_port = static_cast<std::uint16_t>(port);
  }

  result.http_address = ReadString(config, kHttpAddressKey, kDefaultHttpAddress, errors);
  Poco::Net::IPAddress address;
  // inet_aton would read "1.2.3" as 1.2.0.3: accept IPv4 only in dotted-quad form.
  if (!Poco::Net::IPAddress::tryParse(result.http_address, address) ||
      (address.family() == Poco::Net::IPAddress::IPv4 &&
       address.toString() != result.http_address)) {
    errors.push_back(std::string(kHttpAddressKey) + ": " + Quoted(result.http_address) +
                     " is not an IP address (expected e.g. 127.0.0.1 or ::1)");
  }

  result.http_admin_token = ReadString(config, kHttpAdminTokenKey, "", errors);
  if (!result.http_admin_token.empty() && result.http_admin_token.size() < 16) {
    errors.push_back(std::string(kHttpAdminTokenKey) +
                     ": must be at least 16 characters long (or empty: no game creation)");
  }

  result.http_public_url = ReadString(config, kHttpPublicUrlKey, "", errors);
  // Unset or empty: pbemd's own address (checked as http_address and http_port are; with port
  // 0, pbemd_main.cc puts the bound port into it).
  const bool url_given = !result.http_public_url.empty();
  if (!url_given) result.http_public_url = DefaultPublicUrl(result.http_address, result.http_port);
  while (!result.http_public_url.empty() && result.http_public_url.back() == '/') {
    result.http_public_url.pop_back();
  }
  const bool has_control = std::any_of(result.http_public_url.begin(), result.http_public_url.end(),
                                       [](unsigned char c) { return c <= ' ' || c == 0x7F; });
  if (url_given && has_control) {
    errors.push_back(std::string(kHttpPublicUrlKey) + ": " + Quoted(result.http_public_url) +
                     " holds a blank or a control character");
  } else if (url_given && result.http_public_url.find_first_of("\"<>") != std::string::npos) {
    errors.push_back(std::string(kHttpPublicUrlKey) + ": " + Quoted(result.http_public_url) +
                     " may not hold a quote, '<' or '>'");
  } else if (url_given) {
    CheckUrl(kHttpPublicUrlKey, result.http_public_url, {"http", "https"}, errors);
  }

  HttpConfig& http = result.http;
  http.workers = static_cast<int>(ReadInteger(config, kHttpWorkersKey, 8, 1, 256, errors));
  http.queue = static_cast<int>(ReadInteger(config, kHttpQueueKey, 64, 0, 10000, errors));
  http.max_connections =
      static_cast<int>(ReadInteger(config, kHttpMaxConnectionsKey, 256, 1, 10000, errors));
  http.header_timeout = std::chrono::milliseconds(
      ReadInteger(config, kHttpHeaderTimeoutMsKey, 10000, 100, 600000, errors));
  http.body_timeout = std::chrono::milliseconds(
      ReadInteger(config, kHttpBodyTimeoutMsKey, 30000, 100, 600000, errors));
  http.idle_timeout = std::chrono::milliseconds(
      ReadInteger(config, kHttpIdleTimeoutMsKey, 5000, 100, 600000, errors));
  http.retry_after =
      std::chrono::seconds(ReadInteger(config, kHttpRetryAfterSecondsKey, 2, 1, 3600, errors));
  http.max_header_bytes =
      static_cast<int>(ReadInteger(config, kHttpMaxHeaderBytesKey, 16384, 1024, 1 << 20, errors));
  http.max_header_fields =
      static_cast<int>(ReadInteger(config, kHttpMaxHeaderFieldsKey, 64, 1, 1000, errors));
  http.read_cache_bytes = ReadInteger(config, kHttpReadCacheBytesKey, std::int64_t{32} << 20, 0,
                                      std::int64_t{1} << 36, errors);

  const std::string default_outbox = (result.data_dir / "outbox").string();
  const std::string outbox_dir = ReadString(config, kOutboxDirKey, default_outbox, errors);
  if (outbox_dir.empty()) {
    errors.push_back(std::string(kOutboxDirKey) + ": must not be empty");
  }
  result.outbox_dir = outbox_dir;

  const std::filesystem::path source_dir = BundledDataDir(config, errors);
  result.scenarios_dir =
      ReadString(config, kScenariosDirKey, (source_dir / "engine" / "scenarios").string(), errors);
  result.rulesets_dir =
      ReadString(config, kRulesetsDirKey, (source_dir / "engine" / "rulesets").string(), errors);
  result.mail_templates_dir = ReadString(config, kMailTemplatesDirKey,
                                         (source_dir / "templates" / "mail").string(), errors);

  result.mail_from = ReadString(config, kMailFromKey, "pbem@localhost", errors);
  if (result.mail_from.find('@') == std::string::npos ||
      result.mail_from.find_first_of(" <>\"") != std::string::npos) {
    errors.push_back(std::string(kMailFromKey) + ": " + Quoted(result.mail_from) +
                     " is not a bare mail address (expected e.g. pbem@example.org)");
  }

  MailInConfig& in = result.mail_in;
  in.url = ReadString(config, kMailInUrlKey, "", errors);
  in.user = ReadString(config, kMailInUserKey, "", errors);
  in.password = ReadString(config, kMailInPasswordKey, "", errors);
  in.poll_interval =
      std::chrono::seconds(ReadInteger(config, kMailInPollSecondsKey, 30, 1, 86400, errors));
  in.idle = ReadChoice(config, kMailInIdleKey, {"true", "false"}, errors) == 0;
  in.quarantine_folder = ReadString(config, kMailInQuarantineFolderKey, "Quarantine", errors);
  in.refusal_replies_per_hour =
      static_cast<int>(ReadInteger(config, kMailInRefusalRepliesKey, 20, 1, 10000, errors));
  {
    const std::string& folder = in.quarantine_folder;
    bool valid = !folder.empty() && folder.size() <= 64 && folder.front() != '/';
    for (char c : folder) {
      valid = valid && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' || c == '/');
    }
    if (!valid) {
      errors.push_back(std::string(kMailInQuarantineFolderKey) + ": " + Quoted(folder) +
                       " is not a folder name (1 to 64 of letters, digits, '.', '_', '-', '/')");
    }
  }
  if (in.enabled()) {
    CheckUrl(kMailInUrlKey, in.url, {"imap", "imaps"}, errors);
    if (in.user.empty()) {
      errors.push_back(std::string(kMailInUserKey) + ": must be set when pbemd.mail.in.url is");
    }
  }

  // One CA bundle for both mail servers' certificates (imaps://, STARTTLS, smtps://). Peer and
  // host name are always verified; empty: the system's bundle (ca-certificates).
  const std::filesystem::path ca_file = ReadString(config, kMailCaFileKey, "", errors);
  if (!ca_file.empty()) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(ca_file, error)) {
      errors.push_back(std::string(kMailCaFileKey) + ": " + Quoted(ca_file.string()) +
                       " is not a readable file (expected a PEM bundle of CA certificates)");
    }
  }
  in.ca_file = ca_file;

  MailOutConfig& out = result.mail_out;
  out.outbox_dir = result.outbox_dir;
  out.ca_file = ca_file;
  out.transport = ReadChoice(config, kMailOutTransportKey, {"file", "smtp"}, errors) == 0
                      ? MailTransport::kFile
                      : MailTransport::kSmtp;
  out.smtp_url = ReadString(config, kMailOutSmtpUrlKey, "", errors);
  out.user = ReadString(config, kMailOutUserKey, "", errors);
  out.password = ReadString(config, kMailOutPasswordKey, "", errors);
  switch (ReadChoice(config, kMailOutTlsKey, {"none", "starttls", "smtps"}, errors)) {
    case 0:
      out.tls = SmtpTls::kNone;
      break;
    case 1:
      out.tls = SmtpTls::kStartTls;
      break;
    default:
      out.tls = SmtpTls::kSmtps;
      break;
  }
  out.poll_interval =
      std::chrono::milliseconds(ReadInteger(config, kMailOutPollMsKey, 1000, 10, 600000, errors));
  out.retry_base =
      std::chrono::seconds(ReadInteger(config, kMailOutRetryBaseKey, 30, 1, 86400, errors));
  out.retry_max =
      std::chrono::seconds(ReadInteger(config, kMailOutRetryMaxKey, 3600, 1, 604800, errors));
  out.max_attempts =
      static_cast<int>(ReadInteger(config, kMailOutMaxAttemptsKey, 120, 1, 100000, errors));
  out.claim_lease =
      std::chrono::seconds(ReadInteger(config, kMailOutClaimSecondsKey, 300, 1, 86400, errors));
  // At most ten years: the cutoff (now - days) stays far from overflowing.
  out.keep_sent =
      std::chrono::days(ReadInteger(config, kOutboxKeepSentDaysKey, 30, 0, 3650, errors));
  if (out.retry_max < out.retry_base) {
    errors.push_back(std::string(kMailOutRetryMaxKey) + ": must not be less than " +
                     std::string(kMailOutRetryBaseKey));
  }
  if (out.transport == MailTransport::kSmtp) {
    if (out.smtp_url.empty()) {
      errors.push_back(std::string(kMailOutSmtpUrlKey) +
                       ": must be set when pbemd.mail.out.transport is smtp");
    } else {
      CheckUrl(kMailOutSmtpUrlKey, out.smtp_url,
               {out.tls == SmtpTls::kSmtps ? std::string("smtps") : std::string("smtp")}, errors);
    }
  }

  // <hostname>-<pid>, the host name cut so that the default always fits the 64 characters.
  const std::string default_instance =
      Poco::Environment::nodeName().substr(0, 48) + "-" + std::to_string(Poco::Process::id());
  result.instance_name = ReadString(config, kInstanceNameKey, default_instance, errors);
  if (result.instance_name.empty() || result.instance_name.size() > 64 ||
      !std::all_of(result.instance_name.begin(), result.instance_name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
      })) {
    errors.push_back(std::string(kInstanceNameKey) + ": " + Quoted(result.instance_name) +
                     " is not an instance name (expected 1 to 64 letters, digits, '.', '_' or "
                     "'-', e.g. pbemd-a)");
  }

  LimitsConfig& limits = result.limits;
  limits.max_message_bytes = static_cast<std::size_t>(
      ReadInteger(config, kMaxMessageBytesKey, 1 << 20, 1024, 4 << 20, errors));
  limits.max_mime_parts =
      static_cast<int>(ReadInteger(config, kMaxMimePartsKey, 32, 1, 1000, errors));
  limits.max_mime_depth = static_cast<int>(ReadInteger(config, kMaxMimeDepthKey, 4, 1, 20, errors));
  result.turns.poll_interval =
      std::chrono::milliseconds(ReadInteger(config, kTurnsPollMsKey, 1000, 10, 600000, errors));
  result.turns.grace =
      std::chrono::seconds(ReadInteger(config, kTurnsGraceSecondsKey, 0, 0, 604800, errors));
  result.turns.forfeit_after_missed =
      static_cast<int>(ReadInteger(config, kTurnsForfeitKey, 0, 0, 1000, errors));
  result.turns.retry_max = std::chrono::milliseconds(
      ReadInteger(config, kTurnsRetryMaxMsKey, 300000, 10, 86400000, errors));
  result.turns.max_failures =
      static_cast<int>(ReadInteger(config, kTurnsMaxFailuresKey, 10, 1, 1000, errors));
  if (result.turns.retry_max < result.turns.poll_interval) {
    errors.push_back(std::string(kTurnsRetryMaxMsKey) + ": must not be less than " +
                     std::string(kTurnsPollMsKey));
  }

  if (!errors.empty()) {
    std::string message = "invalid configuration: ";
    for (std::size_t i = 0; i < errors.size(); ++i) {
      if (i > 0) message += "; ";
      message += errors[i];
    }
    return Status::InvalidArgument(std::move(message));
  }
  return result;
}

std::string EnvironmentVariableFor(std::string_view key) {
  std::string name(key);
  for (char& c : name) {
    c = (c == '.') ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return name;
}

void AddEnvironmentLayer(Poco::Util::LayeredConfiguration& config, int priority) {
  Poco::AutoPtr<Poco::Util::MapConfiguration> layer(new Poco::Util::MapConfiguration);
  for (std::string_view key : KnownKeys()) {
    const std::string env_key = "system.env." + EnvironmentVariableFor(key);
    if (config.hasProperty(env_key)) {
      // Raw: an environment value is taken literally, never ${...}-expanded.
      layer->setString(std::string(key), config.getRawString(env_key));
    }
  }
  config.add(layer, "environment", priority, /*writeable=*/false);
}

bool IsSecretKey(std::string_view key) {
  std::string lower(key);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (std::string_view marker : {"password", "passwd", "secret", "token", "private_key"}) {
    if (lower.find(marker) != std::string::npos) return true;
  }
  return false;
}

std::string QuoteLogValue(std::string_view value) {
  if (!value.empty() && value.find_first_of(" \t\n\"\\") == std::string_view::npos) {
    return std::string(value);
  }
  std::string quoted = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += (c == '\n') ? ' ' : c;
  }
  quoted += '"';
  return quoted;
}

std::string DescribeForLog(const DaemonConfig& config) {
  const auto& out = config.mail_out;
  const std::pair<std::string_view, std::string> fields[] = {
      {kDataDirKey, config.data_dir.string()},
      {kDbBackendKey, config.db_backend == DbBackend::kSqlite ? "sqlite" : "postgresql"},
      {kDbPostgresqlKey, config.db_postgresql.empty() ? "" : "<redacted>"},
      {kDbReconnectMinMsKey, std::to_string(config.db_reconnect.first_delay.count())},
      {kDbReconnectMaxMsKey, std::to_string(config.db_reconnect.max_delay.count())},
      {kHttpAddressKey, config.http_address},
      {kHttpPortKey, std::to_string(config.http_port)},
      {kHttpAdminTokenKey, config.http_admin_token},
      {kHttpPublicUrlKey, config.http_public_url},
      {kHttpWorkersKey, std::to_string(config.http.workers)},
      {kHttpQueueKey, std::to_string(config.http.queue)},
      {kHttpMaxConnectionsKey, std::to_string(config.http.max_connections)},
      {kHttpHeaderTimeoutMsKey, std::to_string(config.http.header_timeout.count())},
      {kHttpBodyTimeoutMsKey, std::to_string(config.http.body_timeout.count())},
      {kHttpIdleTimeoutMsKey, std::to_string(config.http.idle_timeout.count())},
      {kHttpRetryAfterSecondsKey, std::to_string(config.http.retry_after.count())},
      {kHttpMaxHeaderBytesKey, std::to_string(config.http.max_header_bytes)},
      {kHttpMaxHeaderFieldsKey, std::to_string(config.http.max_header_fields)},
      {kHttpReadCacheBytesKey, std::to_string(config.http.read_cache_bytes)},
      {kOutboxDirKey, config.outbox_dir.string()},
      {kScenariosDirKey, config.scenarios_dir.string()},
      {kRulesetsDirKey, config.rulesets_dir.string()},
      {kMailFromKey, config.mail_from},
      {kMailInUrlKey, config.mail_in.url},
      {kMailInUserKey, config.mail_in.user},
      {kMailInPasswordKey, config.mail_in.password},
      {kMailInPollSecondsKey, std::to_string(config.mail_in.poll_interval.count())},
      {kMailInIdleKey, config.mail_in.idle ? "true" : "false"},
      {kMailInQuarantineFolderKey, config.mail_in.quarantine_folder},
      {kMailInRefusalRepliesKey, std::to_string(config.mail_in.refusal_replies_per_hour)},
      {kMailOutTransportKey, out.transport == MailTransport::kFile ? "file" : "smtp"},
      {kMailOutSmtpUrlKey, out.smtp_url},
      {kMailOutUserKey, out.user},
      {kMailOutPasswordKey, out.password},
      {kMailOutTlsKey,
       out.tls == SmtpTls::kNone ? "none" : (out.tls == SmtpTls::kStartTls ? "starttls" : "smtps")},
      {kMailOutPollMsKey, std::to_string(out.poll_interval.count())},
      {kMailOutRetryBaseKey, std::to_string(out.retry_base.count())},
      {kMailOutRetryMaxKey, std::to_string(out.retry_max.count())},
      {kMailOutMaxAttemptsKey, std::to_string(out.max_attempts)},
      {kMaxMessageBytesKey, std::to_string(config.limits.max_message_bytes)},
      {kMaxMimePartsKey, std::to_string(config.limits.max_mime_parts)},
      {kMaxMimeDepthKey, std::to_string(config.limits.max_mime_depth)},
      {kMailTemplatesDirKey, config.mail_templates_dir.string()},
      {kTurnsPollMsKey, std::to_string(config.turns.poll_interval.count())},
      {kTurnsGraceSecondsKey, std::to_string(config.turns.grace.count())},
      {kTurnsForfeitKey, std::to_string(config.turns.forfeit_after_missed)},
      {kTurnsRetryMaxMsKey, std::to_string(config.turns.retry_max.count())},
      {kTurnsMaxFailuresKey, std::to_string(config.turns.max_failures)},
      {kInstanceNameKey, config.instance_name},
      {kMailOutClaimSecondsKey, std::to_string(out.claim_lease.count())},
      {kOutboxKeepSentDaysKey, std::to_string(out.keep_sent.count())},
      {kMailCaFileKey, out.ca_file.string()},
  };
  std::string line;
  for (const auto& [key, value] : fields) {
    if (!line.empty()) line += ' ';
    line += key;
    line += '=';
    line += (IsSecretKey(key) && !value.empty()) ? "<redacted>" : QuoteLogValue(value);
  }
  return line;
}

void LogDaemonConfig(const DaemonConfig& config, spdlog::logger& logger) {
  logger.info("event=config {}", DescribeForLog(config));
}

}  // namespace pbem::daemon
