#include "libipc/peer_credentials.h"

#include <sys/socket.h>

namespace strata::ipc {

std::string PeerCredentials::ToString() const {
  return "uid " + std::to_string(uid) + " pid " + std::to_string(pid);
}

std::optional<PeerCredentials> PeerCredentialsOf(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0 ||
      addr.ss_family != AF_UNIX) {
    return std::nullopt;
  }
  ucred cred{};
  socklen_t clen = sizeof cred;
  if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0 || clen != sizeof cred) {
    return std::nullopt;
  }
  return PeerCredentials{cred.pid, cred.uid, cred.gid};
}

}  // namespace strata::ipc
