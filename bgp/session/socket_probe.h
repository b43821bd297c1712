// ProbeSessionSocket: asks the kernel now whether it would take the socket settings of a peer's
// session, so that add_peer / change_peer refuse them up front instead of the session failing
// later: opens a TCP socket of the peer's family, binds the local address (port 0) if one is
// set, sets the TTL, the GTSM minimum TTL and the MD5 key for the peer, and closes it again.
// Nothing is connected or sent. IsLocalAddress tells whether a peer address is this host's own,
// so that a speaker refuses a peer it would reach on its own listening socket.
// Threading: any thread.
#pragma once

#include <optional>

#include "bgp/session/peer_config.h"
#include "common/status.h"

namespace strata::bgp {

// InvalidArgument naming the setting the kernel refused (local_address, ttl_security_hops,
// multihop_ttl or md5_password).
Status ProbeSessionSocket(const PeerConfig& config);

// Whether `addr` is an address of this host in the process's network namespace: one assigned
// to an interface (getifaddrs(3)), or any of 127.0.0.0/8, which the kernel delivers locally.
bool IsLocalAddress(const IpAddr& addr);

// An address of family `f` on the interface that holds `local` (getifaddrs(3)), to send as the
// next hop of routes of the other family than a session's: the first one that is neither
// loopback, link-local nor IPv4-mapped. Unset when `local` is on no interface or that interface
// has none.
std::optional<IpAddr> InterfaceAddressOfFamily(const IpAddr& local, Family f);

}  // namespace strata::bgp
