// One request and its answer held in memory, for the handlers of daemon/http_api.h: the front
// (daemon/http/server.h) reads the head and the whole body from the socket first (bounded in
// size and time), hands this pair to a worker, then writes the answer itself.
#ifndef PBEM_DAEMON_HTTP_EXCHANGE_H_
#define PBEM_DAEMON_HTTP_EXCHANGE_H_

#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/SocketAddress.h>

#include <sstream>
#include <string>

namespace pbem::daemon::http {

class BufferedResponse final : public Poco::Net::HTTPServerResponse {
 public:
  BufferedResponse() = default;

  // The front sends "100 Continue" itself, before it reads the body: nothing to do here.
  void sendContinue() override {}
  std::ostream& send() override;
  void sendFile(const std::string& path, const std::string& media_type) override;
  void sendBuffer(const void* buffer, std::size_t length) override;
  void redirect(const std::string& uri, HTTPStatus status) override;
  void requireAuthentication(const std::string& realm) override;
  bool sent() const override { return sent_; }

  // Drops what was sent so far and answers this instead (a handler that failed).
  void Replace(HTTPStatus status, const std::string& content_type, const std::string& body);

  // The status line, the header fields (Content-Length set to the body's size, Connection as
  // `keep_alive` says) and, unless `head_only`, the body.
  std::string Serialize(bool keep_alive, bool head_only);

 private:
  bool sent_ = false;
  std::ostringstream body_;
};

class BufferedRequest final : public Poco::Net::HTTPServerRequest {
 public:
  BufferedRequest(BufferedResponse& response, Poco::Net::SocketAddress client,
                  Poco::Net::SocketAddress server, const Poco::Net::HTTPServerParams& params)
      : response_(response), client_(client), server_(server), params_(params) {}

  // The decoded body: Content-Length becomes its size and Transfer-Encoding and Expect are
  // removed, so that handlers see a plain request of that length.
  void SetBody(std::string body);

  std::istream& stream() override { return body_; }
  const Poco::Net::SocketAddress& clientAddress() const override { return client_; }
  const Poco::Net::SocketAddress& serverAddress() const override { return server_; }
  const Poco::Net::HTTPServerParams& serverParams() const override { return params_; }
  Poco::Net::HTTPServerResponse& response() const override { return response_; }
  bool secure() const override { return false; }

 private:
  BufferedResponse& response_;
  Poco::Net::SocketAddress client_;
  Poco::Net::SocketAddress server_;
  const Poco::Net::HTTPServerParams& params_;
  std::istringstream body_;
};

}  // namespace pbem::daemon::http

#endif  // PBEM_DAEMON_HTTP_EXCHANGE_H_
