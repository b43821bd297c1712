// Rule codec: builds the RTM_NEWRULE / RTM_DELRULE requests of a VR's interface rule,
// `iif IFNAME lookup TABLE` (what steers a VR's packets to its table on a kernel without VRF
// devices). Stateless free functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace strata::fea::netlink {

struct IifRule {
  std::string iif;
  uint32_t table = 0;
  uint32_t priority = 0;
  uint8_t protocol = 0;  // FRA_PROTOCOL: whose rule
  uint8_t family = 0;    // AF_INET or AF_INET6
};

// type: RTM_NEWRULE (NLM_F_CREATE|NLM_F_EXCL) or RTM_DELRULE; NLM_F_ACK, sequence `seq`.
void AppendIifRule(std::vector<uint8_t>& out, uint16_t type, const IifRule& rule, uint32_t seq);

}  // namespace strata::fea::netlink
