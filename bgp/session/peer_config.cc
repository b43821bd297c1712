#include "bgp/session/peer_config.h"

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
  if (multihop_ttl) return *multihop_ttl;
  return peer_type() == PeerType::kExternal ? 1 : 64;
}

std::string PeerConfig::Name() const {
  std::string s = peer_address.ToString() + " AS " + std::to_string(peer_as);
  if (!description.empty()) s += " (" + description + ")";
  return s;
}

}  // namespace strata::bgp
