// DaemonConfig: every setting of pbemd, read once at start from a Poco configuration into a
// typed, validated struct. Nothing else in the daemon reads configuration keys.
//
// Layers, highest priority first (see pbemd_main.cc):
//   command line  -Dpbemd.http.port=8081 / --define=...
//   environment   PBEMD_HTTP_PORT=8081 (the key upper-cased, '.' -> '_'), AddEnvironmentLayer
//   file          --config=FILE (.properties, .ini, .json or .xml)
//   defaults      written in LoadDaemonConfig
#ifndef PBEM_DAEMON_CONFIG_H_
#define PBEM_DAEMON_CONFIG_H_

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

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
inline constexpr std::string_view kHttpPortKey = "pbemd.http.port";
inline constexpr std::string_view kHttpAddressKey = "pbemd.http.address";
inline constexpr std::string_view kOutboxDirKey = "pbemd.outbox_dir";

inline constexpr std::string_view kDefaultDataDir = "./pbem-data";
inline constexpr std::uint16_t kDefaultHttpPort = 8080;
inline constexpr std::string_view kDefaultHttpAddress = "127.0.0.1";

struct DaemonConfig {
  std::filesystem::path data_dir;    // pbemd.data_dir: the database and everything stored
  std::string http_address;          // pbemd.http.address: an IPv4 or IPv6 address to bind
  std::uint16_t http_port = 0;       // pbemd.http.port: 1..65535
  std::filesystem::path outbox_dir;  // pbemd.outbox_dir: default <data_dir>/outbox
};

// Reads every pbemd.* setting, applying defaults, and validates them. On failure the
// INVALID_ARGUMENT message names each bad key and its value, e.g.
//   pbemd.http.port: "70000" is not a valid TCP port (expected an integer from 1 to 65535)
// (several problems are joined with "; ").
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

// One line of key=value pairs, secrets replaced by "<redacted>".
std::string DescribeForLog(const DaemonConfig& config);

// Logs DescribeForLog at info level as event=config.
void LogDaemonConfig(const DaemonConfig& config, spdlog::logger& logger);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_CONFIG_H_
