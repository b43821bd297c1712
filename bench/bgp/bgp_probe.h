// Probe routes of strata-bgp-bench: the attributes a feeder announces them with, and encoded
// messages joined into one buffer for one send.
#pragma once

#include <cstdint>
#include <vector>

#include "bgp/wire/update_packer.h"
#include "common/ip_addr.h"

namespace strata::bench {

inline bgp::PathAttributes ProbeAttrs(uint32_t feeder_as, const char* next_hop) {
  bgp::PathAttributes a;
  a.origin = bgp::Origin::kIgp;
  a.as_path = bgp::AsPath::Sequence({feeder_as, 64496});
  a.next_hop = *IpAddr::Parse(next_hop);
  return a;
}

inline std::vector<uint8_t> Concat(const StatusOr<bgp::EncodedMessages>& msgs) {
  std::vector<uint8_t> out;
  if (!msgs.ok()) return out;
  for (const auto& m : *msgs) out.insert(out.end(), m.begin(), m.end());
  return out;
}

}  // namespace strata::bench
