#include "templates/sentence_table.h"

#include <fstream>
#include <kainjow/mustache.hpp>
#include <sstream>

namespace pbem::templates {

Status ReadTemplateFile(const std::filesystem::path& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error(path.string() + ": cannot be read (missing?)");
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return Status::Ok();
}

Status ParseSentenceTable(const std::filesystem::path& path, const std::string& text,
                          SentenceTable* table) {
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) {
      return Status::Error(path.string() + ":" + std::to_string(number) +
                           ": expected \"key: sentence\"");
    }
    std::string key = line.substr(first, colon - first);
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
    std::string value = line.substr(colon + 1);
    const auto start = value.find_first_not_of(" \t");
    value = start == std::string::npos ? std::string() : value.substr(start);
    if (key.empty() || value.empty()) {
      return Status::Error(path.string() + ":" + std::to_string(number) +
                           ": empty key or sentence");
    }
    kainjow::mustache::mustache check(value);
    if (!check.is_valid()) {
      return Status::Error(path.string() + ":" + std::to_string(number) + ": " +
                           check.error_message());
    }
    if (!table->emplace(key, value).second) {
      return Status::Error(path.string() + ":" + std::to_string(number) + ": key '" + key +
                           "' given twice");
    }
  }
  return Status::Ok();
}

}  // namespace pbem::templates
