// Syntactic rules for a received next hop (RFC 4271 5.1.3 and 6.3, RFC 7606 7.3 and 7.11): a
// next hop must be a valid host address. Not one: IPv4 0.0.0.0/8 ("this network"), 127.0.0.0/8
// (loopback), 224.0.0.0/4 (multicast), 240.0.0.0/4 (reserved, with 255.255.255.255); IPv6 ::
// (unspecified), ::1 (loopback), ff00::/8 (multicast). A loopback address is a host address only
// on its own host: it is accepted from a peer that is itself at a loopback address (a session
// that never leaves the host), refused from any other. The decoder treats an UPDATE whose next
// hop breaks them as withdraw. Whether a host address is usable (our own, off-link from a
// single-hop external peer, a subnet's broadcast address) depends on the router's interfaces
// and is judged by the pipeline's next-hop resolver. Threading: pure functions.
#pragma once

#include <optional>
#include <string>

#include "common/ip_addr.h"

namespace strata::bgp {

// Why `nh` is not a host address ("multicast", ...), or nothing when it is one; a loopback
// address counts as one when `peer_on_loopback`.
std::optional<std::string> NonHostNextHop(const IpAddr& nh, bool peer_on_loopback);

// 127.0.0.0/8 or ::1.
bool IsLoopback(const IpAddr& a);

}  // namespace strata::bgp
