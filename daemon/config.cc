#include "daemon/config.h"

#include <Poco/AutoPtr.h>
#include <Poco/Exception.h>
#include <Poco/Net/IPAddress.h>
#include <Poco/String.h>
#include <Poco/Util/AbstractConfiguration.h>
#include <Poco/Util/LayeredConfiguration.h>
#include <Poco/Util/MapConfiguration.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <utility>
#include <vector>

namespace pbem::daemon {
namespace {

constexpr std::array<std::string_view, 4> kKnownKeys = {kDataDirKey, kHttpPortKey, kHttpAddressKey,
                                                        kOutboxDirKey};

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

}  // namespace

Result<DaemonConfig> LoadDaemonConfig(const Poco::Util::AbstractConfiguration& config) {
  std::vector<std::string> errors;
  DaemonConfig result;

  const std::string data_dir = ReadString(config, kDataDirKey, kDefaultDataDir, errors);
  if (data_dir.empty()) {
    errors.push_back(std::string(kDataDirKey) + ": must not be empty");
  }
  result.data_dir = data_dir;

  const std::string port_text =
      ReadString(config, kHttpPortKey, std::to_string(kDefaultHttpPort), errors);
  unsigned long port = 0;
  const char* const port_end = port_text.data() + port_text.size();
  const auto [parsed_end, parse_error] = std::from_chars(port_text.data(), port_end, port);
  if (port_text.empty() || parse_error != std::errc() || parsed_end != port_end || port < 1 ||
      port > 65535) {
    errors.push_back(std::string(kHttpPortKey) + ": " + Quoted(port_text) +
                     " is not a valid TCP port (expected an integer from 1 to 65535)");
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

  const std::string default_outbox = (result.data_dir / "outbox").string();
  const std::string outbox_dir = ReadString(config, kOutboxDirKey, default_outbox, errors);
  if (outbox_dir.empty()) {
    errors.push_back(std::string(kOutboxDirKey) + ": must not be empty");
  }
  result.outbox_dir = outbox_dir;

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
  for (std::string_view key : kKnownKeys) {
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
  const std::pair<std::string_view, std::string> fields[] = {
      {kDataDirKey, config.data_dir.string()},
      {kHttpAddressKey, config.http_address},
      {kHttpPortKey, std::to_string(config.http_port)},
      {kOutboxDirKey, config.outbox_dir.string()},
  };
  std::string line;
  for (const auto& [key, value] : fields) {
    if (!line.empty()) line += ' ';
    line += key;
    line += '=';
    line += IsSecretKey(key) ? "<redacted>" : QuoteLogValue(value);
  }
  return line;
}

void LogDaemonConfig(const DaemonConfig& config, spdlog::logger& logger) {
  logger.info("event=config {}", DescribeForLog(config));
}

}  // namespace pbem::daemon
