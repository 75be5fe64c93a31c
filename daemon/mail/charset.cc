#include "daemon/mail/charset.h"

#include <iconv.h>

#include <cerrno>
#include <string>

#include "daemon/mail/scan.h"

namespace pbem::daemon::mail {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool IsCharsetName(std::string_view name) {
  if (name.empty() || name.size() > 40) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
                    c == '.' || c == ':';
    if (!ok) return false;
  }
  return true;
}

class Iconv {
 public:
  explicit Iconv(const std::string& from) : cd_(iconv_open("UTF-8", from.c_str())) {}
  ~Iconv() {
    if (ok()) iconv_close(cd_);
  }
  Iconv(const Iconv&) = delete;
  Iconv& operator=(const Iconv&) = delete;
  bool ok() const { return cd_ != reinterpret_cast<iconv_t>(-1); }
  iconv_t get() const { return cd_; }

 private:
  iconv_t cd_;
};

}  // namespace

Result<std::string> ToUtf8(std::string_view bytes, std::string_view charset) {
  const std::string name = Lower(charset);
  if (name.empty() || name == "utf-8" || name == "utf8" || name == "us-ascii" || name == "ascii") {
    return std::string(bytes);
  }
  const std::string shown = "\"" + OneLine(charset.substr(0, 60)) + "\"";
  if (!IsCharsetName(name)) {
    return Status::InvalidArgument("the charset " + shown +
                                   " is not one pbemd knows: send the orders in UTF-8");
  }
  Iconv cd(name);
  if (!cd.ok()) {
    return Status::InvalidArgument("the charset " + shown +
                                   " is not one pbemd knows: send the orders in UTF-8");
  }
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 2 + 16);
  char* in = const_cast<char*>(bytes.data());  // iconv's signature; it does not write there
  std::size_t in_left = bytes.size();
  char buffer[4096];
  // Each round consumes input or fails: the loop ends after at most one round per 4 KiB of
  // output plus one, as no charset expands a byte into more than a few of UTF-8's.
  while (true) {
    char* dst = buffer;
    std::size_t dst_left = sizeof buffer;
    const std::size_t done = iconv(cd.get(), in_left > 0 ? &in : nullptr,
                                   in_left > 0 ? &in_left : nullptr, &dst, &dst_left);
    out.append(buffer, sizeof buffer - dst_left);
    if (done != static_cast<std::size_t>(-1)) {
      if (in_left == 0) {
        // Flush a stateful charset's shift state, then done.
        dst = buffer;
        dst_left = sizeof buffer;
        iconv(cd.get(), nullptr, nullptr, &dst, &dst_left);
        out.append(buffer, sizeof buffer - dst_left);
        return out;
      }
      break;  // iconv said done with input left: never, but never loop on it either
    }
    if (errno == E2BIG) continue;  // the buffer is full: it went forward
    break;
  }
  {
    const std::size_t offset = bytes.size() - in_left;
    return Status::InvalidArgument("the text is not valid " + shown + " at byte " +
                                   std::to_string(offset + 1) +
                                   ": send the orders in UTF-8, or in the charset the mail names");
  }
}

}  // namespace pbem::daemon::mail
