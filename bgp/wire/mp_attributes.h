// MP_REACH_NLRI and MP_UNREACH_NLRI (RFC 4760 3, 4) for IPv4 and IPv6 unicast, with the IPv6
// next hop of RFC 2545 (16 bytes global, or 32 with a link-local address after it).
//
// Other AFI/SAFIs are ignored on receipt: we only negotiate the two unicast families. These are
// the decode and encode functions of the attribute table's MP rows; the packer uses the sizes.
#pragma once

#include <cstddef>
#include <span>

#include "bgp/wire/attribute_table.h"

namespace strata::bgp {

Status DecodeMpReach(std::span<const uint8_t> value, AttrDecodeContext& ctx);
Status DecodeMpUnreach(std::span<const uint8_t> value, AttrDecodeContext& ctx);
bool EncodeMpReach(const AttrEncodeInput& in, ByteWriter& value);
bool EncodeMpUnreach(const AttrEncodeInput& in, ByteWriter& value);

// Bytes of an MP_REACH_NLRI value before its NLRI: AFI, SAFI, next hop length and next hop,
// reserved byte.
size_t MpReachFixedSize(const MpReach& reach);
// Bytes of an MP_UNREACH_NLRI value before its withdrawn routes: AFI, SAFI.
inline constexpr size_t kMpUnreachFixedSize = 3;

}  // namespace strata::bgp
