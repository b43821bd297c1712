// Packing of many prefixes into as few UPDATE messages as the session's maximum size allows.
//
// The speaker groups the prefixes to advertise by their shared attribute set and calls
// PackAnnouncements once per group: IPv4 unicast prefixes go in the NLRI field, other families in
// MP_REACH_NLRI. Withdrawals go in the Withdrawn Routes field or MP_UNREACH_NLRI. Prefixes keep
// their order, each appears exactly once, and every message is at most max_message_size() bytes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bgp/wire/codec_options.h"
#include "bgp/wire/path_attributes.h"
#include "common/ip_prefix.h"
#include "common/status.h"

namespace strata::bgp {

using EncodedMessages = std::vector<std::vector<uint8_t>>;

// REQUIRES for success: every prefix is of `family`; attrs.next_hop is set and of the family
// (link_local_next_hop optional, IPv6 only); the attributes leave room for at least one prefix.
StatusOr<EncodedMessages> PackAnnouncements(const PathAttributes& attrs, AfiSafi family,
                                            std::span<const IpPrefix> prefixes,
                                            const CodecOptions& options);

// IPv4 unicast in two steps, so that a sender can keep the first per attribute set: the UPDATE
// with `attrs` and no prefixes (REQUIRES for success: an IPv4 next hop), then messages of
// that base with the prefixes appended. PackAnnouncements(attrs, kIpv4Unicast, ...) is the two.
StatusOr<std::vector<uint8_t>> EncodeNlriBase(const PathAttributes& attrs,
                                              const CodecOptions& options);
// REQUIRES for success: every prefix is IPv4; `base` leaves room for at least one prefix.
StatusOr<EncodedMessages> PackNlri(std::span<const uint8_t> base,
                                   std::span<const IpPrefix> prefixes, const CodecOptions& options);

// REQUIRES for success: every prefix is of `family`.
StatusOr<EncodedMessages> PackWithdrawals(AfiSafi family, std::span<const IpPrefix> prefixes,
                                          const CodecOptions& options);

}  // namespace strata::bgp
