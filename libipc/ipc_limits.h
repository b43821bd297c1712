// IpcLimits: what one peer may make a Strata process spend on IPC.
//
// Every process that serves targets accepts connections from anyone who can reach its sockets
// (the run directory is 0700, but root and the process's own user can, and "stcp" listens on
// TCP). These limits keep such a caller from exhausting the process's memory or descriptors:
//  - a frame (lean families) or message (gRPC) received is at most `max_frame_bytes`; a call
//    to an interface listed in `interface_max_frame_bytes` ("rib/1.0") has that limit instead,
//    checked as soon as the frame's method is in, before the rest arrives. A frame over the
//    limit closes the connection (RESOURCE_EXHAUSTED).
//  - the receive buffer grows with the bytes actually read, never from a length prefix alone;
//  - an accepted connection must complete its first frame, and every frame it starts, within
//    `frame_timeout`, else it is closed (a peer that connects and sends nothing, or a length
//    prefix and nothing more, holds no slot for long);
//  - a listener holds at most `max_connections` connections, and at most
//    `max_connections_per_peer` from one peer (a Unix socket's peer is its user id, a TCP
//    peer its address); connections from the process's own user count only towards the total,
//    since all of a router's processes run as one user. Connections over a limit are closed at
//    once and logged.
// Connections a process opens itself (to the Finder, to targets it resolved) receive mostly
// replies, which may be large listings, so they use `max_reply_frame_bytes`.
// Plain value type.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace strata::ipc {

struct IpcLimits {
  uint32_t max_frame_bytes = 8u << 20;
  std::map<std::string, uint32_t, std::less<>> interface_max_frame_bytes;
  uint32_t max_reply_frame_bytes = 64u << 20;
  std::chrono::milliseconds frame_timeout{10000};
  size_t max_connections = 1024;
  size_t max_connections_per_peer = 64;

  // The limit for a call whose method is "INSTANCE/IFACE/VERSION/METHOD".
  uint32_t CallLimit(std::string_view method) const;
  // The largest limit any call may have: what a frame may claim before its method is known.
  uint32_t LargestCallLimit() const;

  // The defaults, changed by the environment where set: STRATA_IPC_MAX_FRAME_BYTES,
  // STRATA_IPC_FRAME_TIMEOUT_MS, STRATA_IPC_MAX_CONNECTIONS, STRATA_IPC_MAX_CONNECTIONS_PER_PEER
  // and STRATA_IPC_INTERFACE_MAX_FRAME_BYTES ("rib/1.0=33554432,fea/1.0=16777216").
  static IpcLimits FromEnvironment();
};

}  // namespace strata::ipc
