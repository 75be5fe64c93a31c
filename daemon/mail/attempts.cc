#include "daemon/mail/attempts.h"

#include <Poco/DigestEngine.h>
#include <Poco/SHA1Engine.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <system_error>

namespace pbem::daemon::mail {
namespace {

Status WriteAll(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::IoError(std::string("write: ") + std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
  return Status::Ok();
}

Status SyncPath(const std::filesystem::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return Status::IoError("open " + path.string() + ": " + std::strerror(errno));
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return Status::IoError("fsync " + path.string() + ": " + std::strerror(errno));
  return Status::Ok();
}

}  // namespace

std::string AttemptLog::KeyOf(std::string_view data) {
  Poco::SHA1Engine sha1;
  sha1.update(data.data(), static_cast<unsigned>(data.size()));
  return Poco::DigestEngine::digestToHex(sha1.digest());
}

int AttemptLog::Count(const std::string& key) const {
  if (dir_.empty()) {
    const auto it = memory_.find(key);
    return it == memory_.end() ? 0 : it->second;
  }
  std::ifstream in(dir_ / key);
  char text[16] = {};
  in.read(text, sizeof text - 1);
  int count = 0;
  std::from_chars(text, text + in.gcount(), count);
  return count;
}

Status AttemptLog::Record(const std::string& key, int count) {
  if (dir_.empty()) {
    memory_[key] = count;
    return Status::Ok();
  }
  std::error_code error;
  std::filesystem::create_directories(dir_, error);
  if (error) return Status::IoError("create " + dir_.string() + ": " + error.message());
  const std::filesystem::path path = dir_ / key;
  const std::filesystem::path temporary = dir_ / (key + ".tmp");
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Status::IoError("open " + temporary.string() + ": " + std::strerror(errno));
  Status written = WriteAll(fd, std::to_string(count));
  if (written.ok() && ::fsync(fd) != 0) {
    written = Status::IoError("fsync " + temporary.string() + ": " + std::strerror(errno));
  }
  ::close(fd);
  if (!written.ok()) return written;
  std::filesystem::rename(temporary, path, error);
  if (error) return Status::IoError("rename " + path.string() + ": " + error.message());
  return SyncPath(dir_, O_RDONLY | O_DIRECTORY);
}

void AttemptLog::Clear(const std::string& key) {
  if (dir_.empty()) {
    memory_.erase(key);
    return;
  }
  std::error_code ignored;
  std::filesystem::remove(dir_ / key, ignored);
}

}  // namespace pbem::daemon::mail
