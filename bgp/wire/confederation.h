// Confederation: the RFC 5065 confederation this speaker's AS belongs to, and the rules that
// depend on it but not on any one layer: how a peer relates to us (PeerType), which AS a peer
// sees as ours, AS_PATH loop detection and the first-AS check of confederation peers.
//
// With a confederation the configured local AS is our member AS: a peer in the same member AS is
// internal (iBGP), a peer in another member AS is confederation-external, every other peer is
// external and knows us by the confederation identifier (in its OPEN and in AS_PATH).
// Thread-compatible value type; the functions are pure.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "bgp/wire/as_path.h"
#include "bgp/wire/bgp_types.h"

namespace strata::bgp {

struct Confederation {
  uint32_t identifier = 0;        // 0: no confederation
  std::vector<uint32_t> members;  // the other member ASes (ours may be listed too)

  bool enabled() const { return identifier != 0; }
  bool IsMember(uint32_t asn) const;
  friend bool operator==(const Confederation&, const Confederation&) = default;
};

// "internal", "confed-external", "external" (for show commands).
std::string_view PeerTypeName(PeerType type);

// Internal if peer_as == local_as, confederation-external if peer_as is a member AS, else
// external.
PeerType ClassifyPeer(uint32_t peer_as, uint32_t local_as, const Confederation& confed);

// The AS we are to a peer of `type`: the confederation identifier for external peers when a
// confederation is configured, else the local (member) AS. Sent in OPEN, prepended to AS_PATH.
uint32_t AsSeenBy(PeerType type, uint32_t local_as, const Confederation& confed);

// RFC 4271 9.1.2 and RFC 5065 6: the path holds our member AS (in any segment) or, inside a
// non-confederation segment, our confederation identifier, more than `allowed` times
// (allowas-in; 0: at all).
bool IsAsLoop(const AsPath& path, uint32_t local_as, const Confederation& confed,
              size_t allowed = 0);

// RFC 5065 6, the first-AS check of a confederation-external peer: the path starts with an
// AS_CONFED_SEQUENCE whose first AS is the peer's.
bool ConfedFirstAsMatches(const AsPath& path, uint32_t peer_as);

}  // namespace strata::bgp
