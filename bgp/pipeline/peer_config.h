// PipelinePeerConfig: what the pipeline needs to know about one configured peer.
//
// Set when the peer is added; the session-dependent part (the peer's router id) comes with
// peer_up. Later features plug in here as options read by their stages (route reflection client,
// graceful restart, per-peer policies) without changing the pipeline's shape.
// Thread-compatible value type.
#pragma once

#include <cstdint>
#include <optional>

#include "bgp/pipeline/route_policy.h"
#include "bgp/wire/as_path_options.h"
#include "common/ip_addr.h"

namespace strata::bgp {

struct PipelinePeerConfig {
  IpAddr address;  // the peer's address
  uint32_t peer_as = 0;
  // Our address on the session: the next hop we advertise to eBGP peers (and with next_hop_self).
  IpAddr local_address;
  // Our next hop for the other family (IPv6 routes over an IPv4 session, or the reverse).
  std::optional<IpAddr> other_family_local_address;
  bool next_hop_self = false;  // iBGP: advertise ourselves as next hop
  // iBGP: the peer is a route reflection client (RFC 4456): routes learned from it are reflected
  // to every iBGP peer, and it gets the routes learned from non-clients.
  bool route_reflector_client = false;
  RoutePolicy import_policy;  // null: accept all
  RoutePolicy export_policy;  // null: advertise all that the BGP rules allow
  // The session negotiated long-lived graceful restart (RFC 9494): it may be sent LLGR_STALE
  // routes. Set with BgpPipeline::set_llgr_negotiated before peer_up.
  bool llgr = false;
  // The speaker's own routes (networks, redistribution) enter through this pseudo-peer: a zero
  // next hop in its routes means "ourselves".
  bool local = false;
  // A single-hop external peer: a next hop it sends must be its own address or on one of our
  // directly connected subnets (RFC 4271 6.3: a third party on the shared subnet).
  bool directly_connected = false;
  // allowas-in (input filter), remove-private-as and local-as (output filter, and on input).
  AsPathOptions as_path;
  // Send the peer a default route (0.0.0.0/0, ::/0 for each family we have a next hop of) with
  // ourselves as next hop whatever the Loc-RIB holds; the Loc-RIB's default is not sent to it.
  bool default_originate = false;
};

}  // namespace strata::bgp
