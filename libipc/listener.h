// Listener: accepts connections of a lean family ("sunix" socket path, "stcp" host:port) and
// hands each one to its owner as a Channel. A Unix socket file left by a dead process is
// replaced; the file is removed when the listener closes. The socket file is 0600, 0660 when
// the directory lets its group in (SocketFileMode).
//
// Each accepted channel gets the listener's IpcLimits and, on a Unix socket, its peer's
// credentials. Connections beyond `max_connections` in all or `max_connections_per_peer` from
// one peer (a user other than the listener's own, or a TCP address) are closed as they come,
// logged (the first of each run of refusals) and counted in refused().
// Threading: the io_context thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "common/asio.h"
#include "common/log.h"
#include "common/status.h"
#include "libipc/channel.h"
#include "libipc/ipc_limits.h"

namespace strata::ipc {

class Listener {
 public:
  using AcceptHandler = std::function<void(std::shared_ptr<Channel>)>;

  // Opens and starts accepting. For "stcp", port 0 picks a free port (see address()).
  static StatusOr<std::unique_ptr<Listener>> Open(boost::asio::io_context& io,
                                                  const std::string& protocol,
                                                  const std::string& address,
                                                  AcceptHandler on_accept,
                                                  const IpcLimits& limits = {});
  ~Listener();

  const std::string& protocol() const { return protocol_; }
  // The bound address: the socket path, or "127.0.0.1:40123".
  const std::string& address() const { return address_; }
  void Close();

  size_t connections() const { return counts_->total; }
  uint64_t refused() const { return refused_; }

 private:
  Listener(boost::asio::io_context& io, std::string protocol);
  void Accept();
  // The connection slot for `socket`'s peer, or null when a limit is reached.
  std::shared_ptr<void> TakeSlot(const std::string& peer_key, bool own_user);

  struct Counts {
    size_t total = 0;
    std::map<std::string, size_t> per_peer;
  };

  boost::asio::io_context& io_;
  std::string protocol_;
  std::string address_;
  boost::asio::basic_socket_acceptor<boost::asio::generic::stream_protocol> acceptor_;
  AcceptHandler on_accept_;
  IpcLimits limits_;
  std::shared_ptr<Counts> counts_ = std::make_shared<Counts>();
  uint64_t refused_ = 0;
  bool refusing_ = false;  // logged the current run of refusals
  std::shared_ptr<spdlog::logger> log_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::ipc
