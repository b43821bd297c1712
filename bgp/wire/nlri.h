// Prefix encoding of the NLRI, Withdrawn Routes and MP_(UN)REACH_NLRI fields (RFC 4271 4.3,
// RFC 4760 5): a length in bits followed by just enough bytes to hold it.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "bgp/wire/byte_writer.h"
#include "common/ip_prefix.h"
#include "common/status.h"

namespace strata::bgp {

// Bytes the prefix takes on the wire: 1 + ceil(len / 8).
inline size_t PrefixWireSize(const IpPrefix& p) {
  return 1 + (static_cast<size_t>(p.len()) + 7) / 8;
}

void EncodePrefix(const IpPrefix& p, ByteWriter& w);

// Appends the prefixes in `bytes` to `out`. Malformed: a length past the family's maximum or a
// prefix that runs past the end. Host bits beyond the length are cleared, not refused.
Status DecodePrefixes(std::span<const uint8_t> bytes, Family family, std::vector<IpPrefix>& out);

}  // namespace strata::bgp
