// PeerConfig: everything the session layer needs to know about one BGP neighbor, with the
// defaults of RFC 4271 10 where the RFC suggests one (hold time 90 s, keepalive a third of it).
//
// The process fills one per configured neighbor and hands it to a PeerSession; Validate() is the
// single place where a bad value (from the config file or an IPC call) becomes an error value.
// Thread-compatible value type.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bgp/wire/as_path_options.h"
#include "bgp/wire/bgp_types.h"
#include "bgp/wire/capabilities.h"
#include "bgp/wire/confederation.h"
#include "common/ip_addr.h"
#include "common/status.h"

namespace strata::bgp {

using Millis = std::chrono::milliseconds;

struct PeerConfig {
  IpAddr peer_address;
  uint16_t peer_port = 179;  // where we connect to; tests use other ports
  uint32_t peer_as = 0;
  uint32_t local_as = 0;  // with a confederation: our member AS
  // RFC 5065: external peers get the identifier in our OPEN; peers in member ASes are
  // confederation-external.
  Confederation confed;
  IpAddr router_id;                     // our BGP identifier, IPv4
  std::optional<IpAddr> local_address;  // bound before connecting; any when unset
  bool passive = false;                 // never connect, only accept
  std::string description;

  uint16_t hold_time = 90;              // seconds; 0 disables hold and keepalive timers, else >= 3
  uint16_t keepalive_time = 0;          // seconds; 0 means hold_time / 3
  Millis connect_retry{5000};           // ConnectRetryTimer
  Millis open_hold{240000};             // hold timer while waiting for the peer's OPEN (RFC 4271 8)
  std::optional<Millis> delay_open;     // DelayOpenTimer (RFC 4271 8.1.1, optional attribute)
  Millis idle_hold{1000};               // first IdleHoldTimer after an error; doubles on each error
  Millis idle_hold_max{120000};         // ceiling of the exponential backoff
  Millis stable_time{300000};           // an Established period this long resets the backoff
  std::optional<uint8_t> multihop_ttl;  // eBGP multihop; single-hop eBGP sends with TTL 1

  // SO_BINDTODEVICE of the session's sockets: the VR's VRF device (common/vrf_name.h); "" none.
  std::string bind_device;

  // Session safety.
  std::string md5_password;  // RFC 2385 TCP MD5 key, at most 80 bytes; empty: none
  // RFC 5082 GTSM: we send with TTL 255 and accept only TTL >= 256 - hops (1..254); excludes
  // multihop_ttl.
  std::optional<uint8_t> ttl_security_hops;
  // eBGP: an UPDATE whose AS_PATH does not start with the peer's AS is treated as withdraw
  // (FRR's default "enforce-first-as").
  bool enforce_first_as = true;
  // Adj-RIB-In limit: 0 none. Over it the session is torn down with Cease / Maximum Number of
  // Prefixes Reached (RFC 4486) and stays down for max_prefixes_restart (0: until reset or
  // enable). A log line warns once the count reaches max_prefixes_warning_pct percent.
  uint32_t max_prefixes = 0;
  uint8_t max_prefixes_warning_pct = 75;
  Millis max_prefixes_restart{0};

  bool next_hop_self = false;  // for the pipeline's export side
  // The next hop sent with routes of the other family than the session's (IPv6 routes on an
  // IPv4 session, IPv4 routes on an IPv6 one). Unset: an address of that family on the
  // interface that holds the session's local address (neither loopback nor link-local), as
  // FRR picks it; without one, no route of that family is sent.
  std::optional<IpAddr> other_family_next_hop;
  // RFC 4456: the peer is a route reflection client of ours (iBGP only), for the pipeline.
  bool route_reflector_client = false;
  uint32_t mrai_ms = 0;  // MinRouteAdvertisementInterval for the pipeline; 0 = none
  // allowas-in, remove-private-as, local-as (the session uses local_as for our OPEN; external
  // peers only, like remove-private-as), for the pipeline.
  AsPathOptions as_path;
  bool default_originate = false;  // for the pipeline

  // Capabilities we advertise.
  std::vector<AfiSafi> families{kIpv4Unicast};
  bool route_refresh = true;
  bool enhanced_route_refresh = true;
  bool extended_message = true;
  std::optional<GracefulRestartCapability> graceful_restart;  // advertised as given
  // RFC 9494, advertised as given (with graceful_restart, which it needs).
  std::optional<LongLivedGracefulRestartCapability> long_lived_graceful_restart;
  // Capabilities the peer must advertise, or we refuse the OPEN with Unsupported Capability.
  // kMultiprotocol means every family above.
  std::vector<CapabilityCode> required_capabilities;

  // Write queue accounting for flow control: blocked at high, writable again at low.
  size_t write_high_water = 1 << 20;
  size_t write_low_water = 256 << 10;

  // Checks ranges and consistency; the message names the field.
  Status Validate() const;
  PeerType peer_type() const { return ClassifyPeer(peer_as, local_as, confed); }
  // The AS we put in our OPEN: the peer's local-as if set, else the confederation identifier for
  // an external peer.
  uint32_t open_as() const {
    return as_path.local_as != 0 ? as_path.local_as : AsSeenBy(peer_type(), local_as, confed);
  }
  // TTL of our packets: 255 with GTSM, the multihop value if set, 1 for eBGP and confederation
  // eBGP, else 64 (iBGP).
  uint8_t ttl() const;
  // The lowest TTL accepted from the peer: 256 - hops with GTSM, else 0 (no check).
  uint8_t min_ttl() const;
  // "192.0.2.1 AS 65001 (upstream)".
  std::string Name() const;
};

}  // namespace strata::bgp
