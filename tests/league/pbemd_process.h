// The real pbemd for league tests (tests/league/league_pbemd_test.cc,
// league_organiser_test.cc): started on a free loopback port with SQLite and the file outbox,
// stopped with SIGTERM; and the outbox read back (decoded subjects and texts, game tokens).
#ifndef PBEM_TESTS_LEAGUE_PBEMD_PROCESS_H_
#define PBEM_TESTS_LEAGUE_PBEMD_PROCESS_H_

#include <Poco/Base64Decoder.h>
#include <Poco/Net/MailMessage.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/StreamCopier.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/http_client.h"

namespace pbem {
namespace pbemd_process {

namespace fs = std::filesystem;

inline constexpr const char* kAdmin = "admin-secret-0123456789";
using Reply = testing::HttpReply;

// The real pbemd on a free loopback port, stopped with SIGTERM at the end.
class Pbemd {
 public:
  // `extra`: more -D settings.
  explicit Pbemd(const fs::path& dir, std::vector<std::string> extra = {})
      : dir_(dir), extra_(std::move(extra)) {
    for (int attempt = 0; attempt < 5 && !ready_; ++attempt) {
      {
        Poco::Net::ServerSocket probe(Poco::Net::SocketAddress("127.0.0.1", 0));
        port_ = probe.address().port();
      }
      Launch();
      for (int i = 0; i < 100 && !ready_; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        try {
          ready_ = Send("GET", "/healthz").status == 200;
        } catch (const Poco::Exception&) {
        }
        int status = 0;
        if (!ready_ && waitpid(pid_, &status, WNOHANG) == pid_) {
          pid_ = -1;
          break;  // exited (the port was taken): try another
        }
      }
    }
    REQUIRE(ready_);
  }
  ~Pbemd() { Stop(); }

  int Stop() {
    if (pid_ <= 0) return -1;
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  std::string Log() const {
    std::ifstream in(dir_ / "pbemd.log");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  Reply Send(const std::string& method, const std::string& uri, const std::string& body = "",
             const std::string& token = "", const std::string& content_type = "",
             const std::string& accept = "") const {
    return testing::SendHttp(port_, method, uri, body, content_type, token, accept);
  }

  fs::path outbox() const { return dir_ / "outbox"; }

 private:
  void Launch() {
    const std::vector<std::string> args = {
        PBEMD_BINARY,
        "-Dpbemd.data_dir=" + (dir_ / "data").string(),
        "-Dpbemd.outbox_dir=" + outbox().string(),
        "-Dpbemd.http.address=127.0.0.1",
        "-Dpbemd.http.port=" + std::to_string(port_),
        std::string("-Dpbemd.http.admin_token=") + kAdmin,
        "-Dpbemd.mail.from=referee@pbem.example",
        "-Dpbemd.turns.poll_ms=20",
        "-Dpbemd.mail.out.poll_ms=50",
    };
    std::vector<std::string> all = args;
    all.insert(all.end(), extra_.begin(), extra_.end());
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      const int log = open((dir_ / "pbemd.log").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      dup2(log, 1);
      dup2(log, 2);
      std::vector<char*> argv;
      for (const auto& a : all) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
  }

  fs::path dir_;
  std::vector<std::string> extra_;
  int port_ = 0;
  pid_t pid_ = -1;
  bool ready_ = false;
};

// A header as written by the mailer, its RFC 2047 encoded words ("=?UTF-8?q?...?=", Q or B
// encoding as Poco writes them) decoded; whitespace between encoded words dropped.
inline std::string DecodeHeader(const std::string& raw) {
  static const std::regex kWord(R"(=\?[^?]+\?([qQbB])\?([^?]*)\?=)");
  std::string out;
  std::size_t at = 0;
  for (std::sregex_iterator it(raw.begin(), raw.end(), kWord), end; it != end; ++it) {
    std::string between = raw.substr(at, static_cast<std::size_t>(it->position()) - at);
    if (between.find_first_not_of(" \t\r\n") != std::string::npos || at == 0) out += between;
    const std::string text = (*it)[2];
    if ((*it)[1] == "q" || (*it)[1] == "Q") {
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '_') {
          out += ' ';
        } else if (text[i] == '=' && i + 2 < text.size()) {
          out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
          i += 2;
        } else {
          out += text[i];
        }
      }
    } else {
      std::istringstream in(text);
      Poco::Base64Decoder decoder(in);
      std::string decoded;
      Poco::StreamCopier::copyToString(decoder, decoded);
      out += decoded;
    }
    at = static_cast<std::size_t>(it->position() + it->length());
  }
  return out + raw.substr(at);
}

// Every mail in the file outbox: recipient, subject and decoded text.
struct Mail {
  std::string to, subject, text;
};
inline std::vector<Mail> ReadOutbox(const fs::path& dir) {
  std::vector<Mail> mails;
  if (!fs::exists(dir)) return mails;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".eml" || entry.path().filename().string()[0] == '.') continue;
    std::ifstream in(entry.path(), std::ios::binary);
    Poco::Net::MailMessage message;
    message.read(in);
    Mail m;
    m.to = message.get("To", "");  // "<address>" or "address"
    m.to.erase(std::remove(m.to.begin(), m.to.end(), '<'), m.to.end());
    m.to.erase(std::remove(m.to.begin(), m.to.end(), '>'), m.to.end());
    m.subject = DecodeHeader(message.getSubject());
    m.text = message.getContent();
    mails.push_back(std::move(m));
  }
  return mails;
}

// (game, side) -> token, from the "your games" mails of every player.
inline std::map<std::pair<std::string, std::string>, std::string> Tokens(const fs::path& outbox) {
  static const std::regex kEnglish(
      R"(Game (\S+): you play (blue|orange) against .+\.\n +Your token for this game: (\w+))");
  // French mails name the sides in French: the camp "bleu" is side blue.
  static const std::regex kFrench(
      "Partie (\\S+)\u00a0: vous jouez le camp (bleu|orange) contre .+\\.\n +Votre jeton pour "
      "cette partie\u00a0: (\\w+)");
  std::map<std::pair<std::string, std::string>, std::string> tokens;
  for (const Mail& m : ReadOutbox(outbox)) {
    for (const std::regex* re : {&kEnglish, &kFrench}) {
      for (std::sregex_iterator it(m.text.begin(), m.text.end(), *re), end; it != end; ++it) {
        const std::string side = (*it)[2] == "bleu" ? "blue" : std::string((*it)[2]);
        tokens[{(*it)[1], side}] = (*it)[3];
      }
    }
  }
  return tokens;
}

}  // namespace pbemd_process
}  // namespace pbem

#endif  // PBEM_TESTS_LEAGUE_PBEMD_PROCESS_H_
