// DropTcp (tests): shuts down every IPv4 TCP connection of this process to or from `port`, a
// session lost with no NOTIFICATION, as when a speaker crashes or a link dies. Returns how many.
#pragma once

#include <cstdint>

namespace strata::bgp {

int DropTcp(uint16_t port);

}  // namespace strata::bgp
