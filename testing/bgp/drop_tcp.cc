#include "testing/bgp/drop_tcp.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace strata::bgp {

int DropTcp(uint16_t port) {
  int dropped = 0;
  for (int fd = 3; fd < 4096; ++fd) {
    int type = 0;
    socklen_t len = sizeof(type);
    if (::getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_STREAM) continue;
    sockaddr_in self{}, peer{};
    socklen_t sl = sizeof(self), pl = sizeof(peer);
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&self), &sl) != 0) continue;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &pl) != 0) continue;
    if (self.sin_family != AF_INET) continue;
    if (ntohs(self.sin_port) != port && ntohs(peer.sin_port) != port) continue;
    ::shutdown(fd, SHUT_RDWR);
    ++dropped;
  }
  return dropped;
}

}  // namespace strata::bgp
