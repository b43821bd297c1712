// Listener: accepts connections of a lean family ("sunix" socket path, "stcp" host:port) and
// hands each one to its owner as a Channel. A Unix socket file left by a dead process is
// replaced; the file is removed when the listener closes. Threading: the io_context thread.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/asio.h"
#include "common/status.h"
#include "libipc/channel.h"

namespace strata::ipc {

class Listener {
 public:
  using AcceptHandler = std::function<void(std::shared_ptr<Channel>)>;

  // Opens and starts accepting. For "stcp", port 0 picks a free port (see address()).
  static StatusOr<std::unique_ptr<Listener>> Open(boost::asio::io_context& io,
                                                  const std::string& protocol,
                                                  const std::string& address,
                                                  AcceptHandler on_accept);
  ~Listener();

  const std::string& protocol() const { return protocol_; }
  // The bound address: the socket path, or "127.0.0.1:40123".
  const std::string& address() const { return address_; }
  void Close();

 private:
  Listener(boost::asio::io_context& io, std::string protocol);
  void Accept();

  boost::asio::io_context& io_;
  std::string protocol_;
  std::string address_;
  boost::asio::basic_socket_acceptor<boost::asio::generic::stream_protocol> acceptor_;
  AcceptHandler on_accept_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::ipc
