#include "bgp/session/peer_config.h"

#include <string>

namespace strata::bgp {

Status PeerConfig::Validate() const {
  if (peer_address.is_zero()) return InvalidArgument("peer address is unset");
  if (peer_as == 0) return InvalidArgument("peer AS is 0");
  if (local_as == 0) return InvalidArgument("local AS is 0");
  if (!router_id.is_v4() || router_id.is_zero()) {
    return InvalidArgument("router id must be a non-zero IPv4 address");
  }
  if (local_address && local_address->family() != peer_address.family()) {
    return InvalidArgument("local address and peer address differ in family");
  }
  if (hold_time == 1 || hold_time == 2) return InvalidArgument("hold time must be 0 or >= 3");
  if (hold_time != 0 && keepalive_time > hold_time) {
    return InvalidArgument("keepalive time exceeds hold time");
  }
  if (connect_retry.count() <= 0) return InvalidArgument("connect retry must be positive");
  if (open_hold.count() <= 0) return InvalidArgument("open hold must be positive");
  if (delay_open && delay_open->count() <= 0) return InvalidArgument("delay open must be positive");
  if (idle_hold.count() <= 0 || idle_hold_max < idle_hold) {
    return InvalidArgument("idle hold must be positive and at most idle hold max");
  }
  if (multihop_ttl && *multihop_ttl == 0) return InvalidArgument("multihop TTL is 0");
  if (md5_password.size() > 80) return InvalidArgument("MD5 password longer than 80 bytes");
  if (ttl_security_hops) {
    if (*ttl_security_hops == 0 || *ttl_security_hops > 254) {
      return InvalidArgument("TTL security hops must be 1..254");
    }
    if (multihop_ttl) return InvalidArgument("TTL security and multihop TTL exclude each other");
  }
  if (max_prefixes_warning_pct == 0 || max_prefixes_warning_pct > 100) {
    return InvalidArgument("max prefixes warning percentage must be 1..100");
  }
  if (max_prefixes_restart.count() < 0) {
    return InvalidArgument("max prefixes restart time is negative");
  }
  if (route_reflector_client && peer_as != local_as) {
    return InvalidArgument("route_reflector_client is for iBGP peers only (peer AS " +
                           std::to_string(peer_as) + " is not the local AS " +
                           std::to_string(local_as) + ")");
  }
  const bool external = peer_type() == PeerType::kExternal;
  if (as_path.local_as != 0) {
    if (!external) return InvalidArgument("local-as is for eBGP peers only");
    if (as_path.local_as == local_as || as_path.local_as == peer_as) {
      return InvalidArgument("local-as must differ from the local AS and the peer AS");
    }
  }
  if (as_path.remove_private_as != RemovePrivateAs::kOff && !external) {
    return InvalidArgument("remove-private-as is for eBGP peers only");
  }
  if (as_path.allowas_in > 10) return InvalidArgument("allowas-in must be 1..10");
  if (families.empty()) return InvalidArgument("no address family configured");
  for (const AfiSafi& f : families) {
    if (!f.IpFamily() || f.safi != kSafiUnicast) {
      return InvalidArgument("unsupported address family " + f.ToString());
    }
  }
  for (CapabilityCode code : required_capabilities) {
    if (code == CapabilityCode::kAddPath) return InvalidArgument("ADD-PATH cannot be required");
  }
  if (write_low_water > write_high_water) {
    return InvalidArgument("write low water exceeds high water");
  }
  return Status::Ok();
}

uint8_t PeerConfig::ttl() const {
  if (ttl_security_hops) return 255;
  if (multihop_ttl) return *multihop_ttl;
  return peer_type() == PeerType::kInternal ? 64 : 1;
}

uint8_t PeerConfig::min_ttl() const {
  if (!ttl_security_hops) return 0;
  return static_cast<uint8_t>(256 - *ttl_security_hops);
}

std::string PeerConfig::Name() const {
  std::string s = peer_address.ToString() + " AS " + std::to_string(peer_as);
  if (!description.empty()) s += " (" + description + ")";
  return s;
}

}  // namespace strata::bgp
