#include "fea/netlink/rule_codec.h"

#include <libmnl/libmnl.h>
#include <linux/fib_rules.h>
#include <linux/if.h>
#include <linux/rtnetlink.h>

#include <array>

namespace strata::fea::netlink {

void AppendIifRule(std::vector<uint8_t>& out, uint16_t type, const IifRule& rule, uint32_t seq) {
  alignas(nlmsghdr) std::array<uint8_t, 128> buf{};
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = type;
  nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
  if (type == RTM_NEWRULE) nlh->nlmsg_flags |= NLM_F_CREATE | NLM_F_EXCL;
  nlh->nlmsg_seq = seq;
  auto* frh = static_cast<fib_rule_hdr*>(mnl_nlmsg_put_extra_header(nlh, sizeof(fib_rule_hdr)));
  frh->family = rule.family;
  frh->action = FR_ACT_TO_TBL;
  frh->table = rule.table < 256 ? static_cast<uint8_t>(rule.table) : uint8_t{RT_TABLE_UNSPEC};
  mnl_attr_put_strz(nlh, FRA_IIFNAME, rule.iif.substr(0, IFNAMSIZ - 1).c_str());
  mnl_attr_put_u32(nlh, FRA_TABLE, rule.table);
  mnl_attr_put_u32(nlh, FRA_PRIORITY, rule.priority);
  mnl_attr_put_u8(nlh, FRA_PROTOCOL, rule.protocol);
  out.insert(out.end(), buf.data(), buf.data() + nlh->nlmsg_len);
}

}  // namespace strata::fea::netlink
