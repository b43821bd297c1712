// PeerCredentials: who is at the other end of a Unix stream socket, as the kernel says
// (SO_PEERCRED: the peer's pid, uid and gid when it connected). Callers cannot forge it, so
// the Finder grants operator tools rights by it and logs it with state-changing calls.
// Thread-compatible (one getsockopt).
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

namespace strata::ipc {

struct PeerCredentials {
  pid_t pid = 0;
  uid_t uid = 0;
  gid_t gid = 0;
  // "uid 1000 pid 4242", for logs.
  std::string ToString() const;
};

// The credentials of the peer of Unix socket `fd`; nullopt for another kind of socket.
std::optional<PeerCredentials> PeerCredentialsOf(int fd);

}  // namespace strata::ipc
