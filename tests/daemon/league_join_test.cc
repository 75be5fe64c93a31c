// Issue 13, finding 8: joining a league over HTTP and by mail checks the address as an RFC 5322
// addr-spec and the name as printable UTF-8, with an error naming the field; one address per
// league, enforced by the store.
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "daemon/league_api.h"
#include "daemon/turn/dice.h"
#include "tests/daemon/game_fixture.h"

namespace pbem::daemon {
namespace {

struct LeagueFixture : testing::GameFixture {
  LeagueFixture() : entropy("league-join-test") {
    services.catalog = &catalog;
    services.entropy = &entropy;
    services.template_dir = testing::SourceDir() / "templates" / "league";
    services.admin_token = "admin-token";
    LeagueAnswer created = Post({"leagues"}, R"({"id":"club"})", "admin-token");
    INFO(created.body);
    REQUIRE(created.status == 201);
  }

  LeagueAnswer Post(std::vector<std::string> segments, const std::string& body,
                    const std::string& token = "") {
    LeagueRequest request;
    request.method = "POST";
    request.segments = std::move(segments);
    request.body = body;
    request.bearer_token = token;
    return HandleLeagueRequest(services, request, repository, repository, testing::At(10));
  }
  LeagueAnswer Join(const std::string& body) { return Post({"leagues", "club", "players"}, body); }

  FixedEntropy entropy;
  LeagueServices services;
};

std::string Field(const LeagueAnswer& answer, const std::string& name) {
  return Poco::JSON::Parser()
      .parse(answer.body)
      .extract<Poco::JSON::Object::Ptr>()
      ->getObject("error")
      ->getValue<std::string>(name);
}

TEST_CASE("league join refuses what is not an address, naming the field", "[daemon][league]") {
  LeagueFixture f;
  for (const std::string& email :
       std::vector<std::string>{R"("@")", R"("a@")", R"("a@b,c@d")", R"("a\u0000@b")",
                                R"("a@b\r\nBcc: eve@x")", R"("Ann <a@b>")", R"("")", R"(7)"}) {
    INFO(email);
    LeagueAnswer answer = f.Join(R"({"name":"ann","email":)" + email + "}");
    CHECK(answer.status == 400);
    CHECK(Field(answer, "code") == "malformed");
    CHECK_THAT(Field(answer, "message"), Catch::Contains("\"email\""));
  }
  for (const std::string& name :
       std::vector<std::string>{R"("")", R"("a\nb")", R"("a\u0000b")", R"(" ann")",
                                "\"" + std::string(65, 'x') + "\"", R"(["ann"])"}) {
    INFO(name);
    LeagueAnswer answer = f.Join(R"({"email":"ann@example.org","name":)" + name + "}");
    CHECK(answer.status == 400);
    CHECK_THAT(Field(answer, "message"), Catch::Contains("\"name\""));
  }
  CHECK(f.repository.ListLeaguePlayers("club")->empty());
}

TEST_CASE("league join takes accented names; one address per league", "[daemon][league]") {
  LeagueFixture f;
  LeagueAnswer helene =
      f.Join(R"({"name":"Hélène Dupré","email":"Helene@Example.FR","language":"fr"})");
  INFO(helene.body);
  REQUIRE(helene.status == 201);
  auto players = f.repository.ListLeaguePlayers("club");
  REQUIRE(players->size() == 1);
  CHECK((*players)[0].player == "Hélène Dupré");
  CHECK((*players)[0].mail_address == "helene@example.fr");
  // Issue 20: joining over HTTP is confirmed by mail, in the player's language, with the token
  // the reply gave (as joining by mail replies).
  const std::string token = Poco::JSON::Parser()
                                .parse(helene.body)
                                .extract<Poco::JSON::Object::Ptr>()
                                ->getValue<std::string>("token");
  auto mails = f.repository.DueMail(storage::Timestamp::max(), 10);
  REQUIRE(mails.ok());
  REQUIRE(mails->size() == 1);
  CHECK(mails->at(0).recipient == "helene@example.fr");
  CHECK(mails->at(0).subject == "Ligue club\u00a0: votre inscription sous le nom Hélène Dupré");
  CHECK_THAT(mails->at(0).body, Catch::Contains("Votre jeton de ligue\u00a0: " + token));
  CHECK_THAT(helene.body, Catch::Contains("\"confirmationQueued\":true"));
  LeagueAnswer again = f.Join(R"({"name":"Hélène D.","email":"HELENE@example.fr"})");
  CHECK(again.status == 409);
  CHECK(Field(again, "code") == "already_joined");
  CHECK(f.repository.ListLeaguePlayers("club")->size() == 1);
  CHECK(f.repository.DueMail(storage::Timestamp::max(), 10)->size() == 1);  // no second mail
}

TEST_CASE("league bodies: nesting and numbers are bounded, naming the field", "[daemon][league]") {
  LeagueFixture f;
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  LeagueAnswer nested = f.Post({"leagues"}, R"({"id":"deep","x":)" + deep + "}", "admin-token");
  CHECK(nested.status == 400);
  CHECK_THAT(Field(nested, "message"), Catch::Contains("nested deeper than 64"));
  for (const auto& [body, field] :
       {std::pair{R"({"id":"l2","turnTimeoutSeconds":9223372036854775807})", "turnTimeoutSeconds"},
        std::pair{R"({"id":"l2","turnTimeoutSeconds":31622401})", "turnTimeoutSeconds"},
        std::pair{R"({"id":"l2","turnTimeoutSeconds":600,"reminderBeforeSeconds":600})",
                  "reminderBeforeSeconds"},
        std::pair{R"({"id":"l2","points":{"draw":99999999999}})", "points.draw"},
        std::pair{R"({"id":"l2","swissRounds":"3"})", "swissRounds"},
        std::pair{R"({"id":"l2","limits":[{"finished":0,"maxGames":1e9}]})", "limits[0].maxGames"},
        std::pair{R"({"id":"l2","name":"Club\r\nBcc: eve@x"})", "\"name\""},
        std::pair{R"({"id":"l2","organiserToken":"12345678\r\nX"})", "organiserToken"}}) {
    INFO(body);
    LeagueAnswer answer = f.Post({"leagues"}, body, "admin-token");
    CHECK(answer.status == 400);
    CHECK_THAT(Field(answer, "message"), Catch::Contains(field));
  }
  CHECK(f.repository.GetLeague("l2").status().code() == StatusCode::kNotFound);
  LeagueAnswer start =
      f.Post({"leagues", "club", "start"}, R"({"season":4294967297})", "admin-token");
  CHECK(start.status == 400);
  CHECK_THAT(Field(start, "message"), Catch::Contains("season"));
}

TEST_CASE("league join by mail: the same address rule", "[daemon][league]") {
  LeagueFixture f;
  HandledMessages handled;
  mail::InboundMail mail;
  mail.from = "a@b,c@d";  // what no sender parse gives any more; refused here too
  mail.message_id = "<m1@x>";
  mail.candidates.push_back({"body", std::nullopt, "join club ann\n", false, ""});
  std::optional<mail::Disposition> done =
      HandleJoinMail(f.services, mail, f.repository, f.repository, handled, testing::At(20));
  CHECK_FALSE(done.has_value());
  CHECK(f.repository.ListLeaguePlayers("club")->empty());
  CHECK(f.repository.DueMail(testing::At(1'000'000), 10)->empty());  // no reply to it either
  mail.from = "ann@example.org";
  mail.message_id = "<m2@x>";
  done = HandleJoinMail(f.services, mail, f.repository, f.repository, handled, testing::At(20));
  REQUIRE(done.has_value());
  CHECK(*done == mail::Disposition::kAnswered);
  CHECK(f.repository.ListLeaguePlayers("club")->size() == 1);
}

}  // namespace
}  // namespace pbem::daemon
