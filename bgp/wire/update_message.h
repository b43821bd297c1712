// UpdateMessage: the BGP UPDATE message (RFC 4271 4.3) with the multiprotocol reach and unreach
// attributes (RFC 4760) held apart from the path attributes they travel with.
//
// Encoding is driven by the attribute handler table (attribute_table.h), in type code order.
// Decoding, with the RFC 7606 error handling, is in update_decoder.h; packing many prefixes into
// as few UPDATEs as fit is in update_packer.h. Thread-compatible value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bgp/wire/bgp_types.h"
#include "bgp/wire/codec_options.h"
#include "bgp/wire/path_attributes.h"
#include "common/ip_prefix.h"
#include "common/status.h"

namespace strata::bgp {

struct MpReach {
  AfiSafi afi_safi;
  IpAddr next_hop;
  std::optional<IpAddr> link_local_next_hop;  // IPv6: the second half of a 32-byte next hop
  std::vector<IpPrefix> nlri;
  friend bool operator==(const MpReach&, const MpReach&) = default;
};

struct MpUnreach {
  AfiSafi afi_safi;
  std::vector<IpPrefix> withdrawn;
  friend bool operator==(const MpUnreach&, const MpUnreach&) = default;
};

struct UpdateMessage {
  std::vector<IpPrefix> withdrawn;  // IPv4
  PathAttributes attrs;
  std::optional<MpReach> mp_reach;
  std::optional<MpUnreach> mp_unreach;
  std::vector<IpPrefix> nlri;  // IPv4

  // The family whose End-of-RIB marker this is (RFC 4724 2): an empty UPDATE for IPv4 unicast,
  // an UPDATE holding only an empty MP_UNREACH_NLRI for other families.
  std::optional<AfiSafi> EndOfRib() const;
  // True if some prefix is announced (NLRI field or MP_REACH_NLRI).
  bool HasReachable() const;
  // The attributes of the routes this UPDATE announces in `family`: for the MP_REACH_NLRI
  // family, the next hop comes from that attribute.
  PathAttributes AttributesFor(Family family) const;
  std::string ToString() const;
  friend bool operator==(const UpdateMessage&, const UpdateMessage&) = default;
};

// The whole message. Fails if it would exceed the session's maximum message size.
StatusOr<std::vector<uint8_t>> EncodeUpdate(const UpdateMessage& update,
                                            const CodecOptions& options);
// The End-of-RIB marker for a family.
std::vector<uint8_t> EncodeEndOfRib(AfiSafi family);

}  // namespace strata::bgp
