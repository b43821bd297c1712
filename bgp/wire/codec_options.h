// CodecOptions: the session parameters that change how UPDATEs are encoded and decoded, as
// agreed in the OPEN exchange. The speaker fills them once per session with Negotiate().
// Thread-compatible value type.
#pragma once

#include <cstddef>
#include <vector>

#include "bgp/wire/bgp_types.h"
#include "bgp/wire/capabilities.h"

namespace strata::bgp {

struct CodecOptions {
  bool four_octet_as = true;      // RFC 6793: both sides sent the capability
  bool extended_message = false;  // RFC 8654: both sides sent the capability
  PeerType peer_type = PeerType::kInternal;
  // The peer's address is a loopback address (127.0.0.0/8, ::1): the session never leaves this
  // host, so loopback next hops are host addresses on it (next_hop_rules.h).
  bool peer_on_loopback = false;

  size_t max_message_size() const {
    return extended_message ? kMaxExtendedMessageSize : kMaxMessageSize;
  }
};

struct NegotiatedSession {
  CodecOptions codec;
  std::vector<AfiSafi> families;  // advertised by both (IPv4 unicast if neither sent MP)
  bool route_refresh = false;
  bool enhanced_route_refresh = false;
  uint16_t hold_time = 0;  // the smaller of the two
  // RFC 4724: both sides sent the Graceful Restart capability. The peer's side of it: its R bit
  // (it has just restarted), its restart time, the negotiated families it listed (it can keep
  // their routes across a restart of its own) and among them those with the F bit (it kept their
  // forwarding state across the restart that just happened).
  bool graceful_restart = false;
  bool peer_restarting = false;
  uint16_t peer_restart_time = 0;
  std::vector<AfiSafi> peer_gr_families;
  std::vector<AfiSafi> peer_forwarding_preserved;
  // RFC 9494: both sides sent the LLGR capability and the peer also sent Graceful Restart
  // (4.1: LLGR without GR is disregarded). The peer's negotiated families with their F bit and
  // long-lived stale time.
  bool long_lived_graceful_restart = false;
  std::vector<LongLivedGracefulRestartCapability::Family> peer_llgr_families;
};

NegotiatedSession Negotiate(const Capabilities& local, uint16_t local_hold_time,
                            const Capabilities& remote, uint16_t remote_hold_time,
                            PeerType peer_type);

}  // namespace strata::bgp
