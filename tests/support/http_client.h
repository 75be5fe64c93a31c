// One HTTP request to a server on loopback (Poco HTTPClientSession) and its reply, with the
// API's JSON error body taken apart. Header-only; for tests of the HTTP API and pbemd.
#ifndef PBEM_TESTS_SUPPORT_HTTP_CLIENT_H_
#define PBEM_TESTS_SUPPORT_HTTP_CLIENT_H_

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>

#include <string>

namespace pbem::testing {

struct HttpReply {
  int status = 0;
  std::string content_type;
  std::string retry_after;  // the Retry-After header; empty when there is none
  std::string body;
  Poco::JSON::Object::Ptr json() const {
    return Poco::JSON::Parser().parse(body).extract<Poco::JSON::Object::Ptr>();
  }
  // {"error":{"code","message"}}
  std::string error_code() const {
    return json()->getObject("error")->getValue<std::string>("code");
  }
  std::string error_message() const {
    return json()->getObject("error")->getValue<std::string>("message");
  }
};

// `token` goes as "Authorization: Bearer <token>" when not empty.
inline HttpReply SendHttp(int port, const std::string& method, const std::string& uri,
                          const std::string& body = "", const std::string& content_type = "",
                          const std::string& token = "", const std::string& accept = "") {
  Poco::Net::HTTPClientSession session("127.0.0.1", static_cast<Poco::UInt16>(port));
  session.setTimeout(Poco::Timespan(30, 0));
  Poco::Net::HTTPRequest request(method, uri, Poco::Net::HTTPMessage::HTTP_1_1);
  if (!token.empty()) request.set("Authorization", "Bearer " + token);
  if (!accept.empty()) request.set("Accept", accept);
  if (!content_type.empty()) request.setContentType(content_type);
  request.setContentLength(static_cast<std::streamsize>(body.size()));
  session.sendRequest(request) << body;
  Poco::Net::HTTPResponse response;
  std::istream& in = session.receiveResponse(response);
  HttpReply reply;
  reply.status = static_cast<int>(response.getStatus());
  reply.content_type = response.getContentType();
  reply.retry_after = response.get("Retry-After", "");
  Poco::StreamCopier::copyToString(in, reply.body);
  return reply;
}

}  // namespace pbem::testing

#endif  // PBEM_TESTS_SUPPORT_HTTP_CLIENT_H_
