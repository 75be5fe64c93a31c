// The HTTP API on a loopback port over a GameFixture's store, for tests of the game routes:
// the admin token is "admin-token-0123456789", bodies are limited to 64 KiB.
#ifndef PBEM_TESTS_DAEMON_GAMES_SERVER_H_
#define PBEM_TESTS_DAEMON_GAMES_SERVER_H_

#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/ServerSocket.h>

#include <memory>
#include <string>

#include "daemon/http_api.h"
#include "storage/sqlite_repository.h"
#include "tests/daemon/game_fixture.h"
#include "tests/support/http_client.h"

namespace pbem::daemon::testing {

// The API's services over the fixture's store. With `mail`, the archive page is served too
// (built under the fixture's directory); with `mail_from` as well, a game created is stored
// with its welcome mails.
inline ApiServices FixtureServices(GameFixture& fixture,
                                   const templates::MailTemplates* mail = nullptr,
                                   const std::string& mail_from = "") {
  ApiServices services;
  if (mail != nullptr) {
    services.mail_templates = mail;
    services.mail_from = mail_from;
    services.archive_template_dir = SourceDir() / "templates" / "archive";
    services.archive_cache_dir = fixture.dir.path() / "archive-cache";
  }
  const std::filesystem::path dir = fixture.dir.path();
  services.open_repository = [dir]() -> Result<std::unique_ptr<storage::GameRepository>> {
    auto repository = std::make_unique<storage::SqliteRepository>(dir);
    Result<int> opened = repository->OpenOrMigrate();
    if (!opened.ok()) return opened.status();
    return std::unique_ptr<storage::GameRepository>(std::move(repository));
  };
  services.catalog = &fixture.catalog;
  services.desk = &fixture.desk;
  services.max_body_bytes = 64 * 1024;
  services.admin_token = "admin-token-0123456789";
  return services;
}

class GamesServer {
 public:
  // With `mail`, the archive page is served too (built under the fixture's directory); with
  // `mail_from` as well, a game created is stored with its welcome mails.
  explicit GamesServer(GameFixture& fixture, const templates::MailTemplates* mail = nullptr,
                       const std::string& mail_from = "")
      : socket_(Poco::Net::SocketAddress("127.0.0.1", 0)),
        server_(
            new ApiRequestHandlerFactory(NullLogger(), FixtureServices(fixture, mail, mail_from)),
            socket_, new Poco::Net::HTTPServerParams) {
    server_.start();
  }
  ~GamesServer() { server_.stopAll(true); }

  pbem::testing::HttpReply Send(const std::string& method, const std::string& uri,
                                const std::string& body = "", const std::string& content_type = "",
                                const std::string& token = "", const std::string& accept = "") {
    return pbem::testing::SendHttp(socket_.address().port(), method, uri, body, content_type, token,
                                   accept);
  }

 private:
  Poco::Net::ServerSocket socket_;
  Poco::Net::HTTPServer server_;
};

}  // namespace pbem::daemon::testing

#endif  // PBEM_TESTS_DAEMON_GAMES_SERVER_H_
