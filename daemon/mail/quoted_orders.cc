#include "daemon/mail/quoted_orders.h"

namespace pbem::daemon::mail {
namespace {

std::string_view TrimmedRight(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
    line.remove_suffix(1);
  }
  return line;
}

}  // namespace

std::string_view Unquoted(std::string_view line) {
  for (;;) {
    std::size_t at = 0;
    while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
    if (at == line.size() || line[at] != '>') return line.substr(at);
    line.remove_prefix(at + 1);
    if (!line.empty() && line.front() == ' ') line.remove_prefix(1);
  }
}

std::optional<std::string> TemplateInReply(std::string_view text) {
  std::string out;
  bool inside = false;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = TrimmedRight(Unquoted(text.substr(start, end - start)));
    start = end + 1;
    if (!inside) {
      if (line == kTemplateBegin) {
        inside = true;
        out.assign(line);
        out += '\n';
      }
      continue;
    }
    out.append(line);
    out += '\n';
    if (line == kTemplateEnd) return out;
  }
  return std::nullopt;
}

}  // namespace pbem::daemon::mail
