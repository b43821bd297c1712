#include "fea/netlink/netlink_link_kernel.h"

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>

#include "fea/netlink/link_codec.h"
#include "fea/netlink/rule_codec.h"

namespace strata::fea::netlink {
namespace {

// The unreachable default route of `family` in `table` (RTM_NEWROUTE: created or replaced;
// RTM_DELROUTE: naming the protocol and priority).
void AppendGuardRoute(std::vector<uint8_t>& out, uint16_t type, uint8_t family, uint32_t table,
                      uint8_t protocol, uint32_t seq) {
  alignas(nlmsghdr) std::array<uint8_t, 128> buf{};
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = type;
  nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
  if (type == RTM_NEWROUTE) nlh->nlmsg_flags |= NLM_F_CREATE | NLM_F_REPLACE;
  nlh->nlmsg_seq = seq;
  auto* rtm = static_cast<rtmsg*>(mnl_nlmsg_put_extra_header(nlh, sizeof(rtmsg)));
  rtm->rtm_family = family;
  rtm->rtm_table = table < 256 ? static_cast<uint8_t>(table) : uint8_t{RT_TABLE_UNSPEC};
  rtm->rtm_protocol = protocol;
  rtm->rtm_scope = RT_SCOPE_UNIVERSE;
  rtm->rtm_type = RTN_UNREACHABLE;
  mnl_attr_put_u32(nlh, RTA_TABLE, table);
  mnl_attr_put_u32(nlh, RTA_PRIORITY, kGuardMetric);
  out.insert(out.end(), buf.data(), buf.data() + nlh->nlmsg_len);
}

// net.ipv6.conf.IFNAME.keep_addr_on_down = 1 (absent without IPv6: nothing to keep).
void KeepIpv6Addresses(uint32_t ifindex) {
  std::array<char, IF_NAMESIZE> name{};
  if (if_indextoname(ifindex, name.data()) == nullptr) return;
  std::ofstream f(std::string("/proc/sys/net/ipv6/conf/") + name.data() + "/keep_addr_on_down");
  if (f) f << "1\n";
}

}  // namespace

StatusOr<std::unique_ptr<NetlinkLinkKernel>> NetlinkLinkKernel::Open(uint8_t protocol) {
  auto sock = NlSocket::Open(0);
  if (!sock.ok()) return sock.status();
  return std::unique_ptr<NetlinkLinkKernel>(new NetlinkLinkKernel(std::move(*sock), protocol));
}

Status NetlinkLinkKernel::Send(const std::vector<uint8_t>& msgs, uint32_t first_seq, size_t count,
                               const std::string& what, std::initializer_list<int> fine) {
  auto errs = sock_->Transact(msgs, first_seq, count);
  if (!errs.ok()) return errs.status();
  for (int e : *errs) {
    if (e == 0 || std::find(fine.begin(), fine.end(), e) != fine.end()) continue;
    return Status(StatusCode::kFailedPrecondition, what + ": " + std::strerror(e));
  }
  return Status();
}

StatusOr<uint32_t> NetlinkLinkKernel::CreateVrf(const std::string& name, uint32_t table,
                                                const std::string& alias) {
  std::vector<uint8_t> msgs;
  const uint32_t seq = sock_->ReserveSeq(2);
  AppendVrfCreate(msgs, name, table, seq);
  // The alias and IFF_UP by name: the new device's ifindex is not known yet.
  LinkSet set;
  set.name = name;
  set.up = true;
  set.alias = alias;
  AppendLinkSet(msgs, set, seq + 1);
  auto errs = sock_->Transact(msgs, seq, 2);
  if (!errs.ok()) return errs.status();
  // No "vrf" link kind (CONFIG_NET_VRF off): EOPNOTSUPP.
  if ((*errs)[0] == EOPNOTSUPP) return Unimplemented("the kernel has no VRF devices");
  for (int e : *errs) {
    if (e != 0) {
      return Status(StatusCode::kFailedPrecondition,
                    "creating VRF device " + name + ": " + std::strerror(e));
    }
  }
  const unsigned index = if_nametoindex(name.c_str());
  if (index == 0) return Internal("VRF device " + name + " made but not found");
  return uint32_t{index};
}

Status NetlinkLinkKernel::SetUp(uint32_t ifindex) {
  std::vector<uint8_t> msgs;
  const uint32_t seq = sock_->NextSeq();
  LinkSet set;
  set.ifindex = ifindex;
  set.up = true;
  AppendLinkSet(msgs, set, seq);
  return Send(msgs, seq, 1, "setting link " + std::to_string(ifindex) + " up");
}

Status NetlinkLinkKernel::SetMaster(uint32_t ifindex, uint32_t master) {
  KeepIpv6Addresses(ifindex);
  std::vector<uint8_t> msgs;
  const uint32_t seq = sock_->NextSeq();
  LinkSet set;
  set.ifindex = ifindex;
  set.master = master;
  AppendLinkSet(msgs, set, seq);
  return Send(
      msgs, seq, 1,
      "setting the master of link " + std::to_string(ifindex) + " to " + std::to_string(master));
}

Status NetlinkLinkKernel::DeleteLink(uint32_t ifindex) {
  std::vector<uint8_t> msgs;
  const uint32_t seq = sock_->NextSeq();
  AppendLinkDelete(msgs, ifindex, seq);
  return Send(msgs, seq, 1, "deleting link " + std::to_string(ifindex));
}

Status NetlinkLinkKernel::Guard(uint16_t type, uint32_t table) {
  std::vector<uint8_t> msgs;
  const uint32_t seq = sock_->ReserveSeq(2);
  AppendGuardRoute(msgs, type, AF_INET, table, protocol_, seq);
  AppendGuardRoute(msgs, type, AF_INET6, table, protocol_, seq + 1);
  // No IPv6 on the host; a guard already gone.
  return Send(msgs, seq, 2, "guard route of table " + std::to_string(table),
              {EAFNOSUPPORT, type == RTM_DELROUTE ? ESRCH : 0});
}

Status NetlinkLinkKernel::Rule(uint16_t type, const std::string& iif, uint32_t table) {
  std::vector<uint8_t> msgs;
  const uint32_t seq = sock_->ReserveSeq(2);
  IifRule rule{iif, table, kIifRulePriority, protocol_, AF_INET};
  AppendIifRule(msgs, type, rule, seq);
  rule.family = AF_INET6;
  AppendIifRule(msgs, type, rule, seq + 1);
  // No IPv6; a rule already there (a restart), or already gone.
  return Send(msgs, seq, 2, "rule iif " + iif + " lookup " + std::to_string(table),
              {EAFNOSUPPORT, type == RTM_NEWRULE ? EEXIST : ENOENT});
}

Status NetlinkLinkKernel::AddIifRule(const std::string& iif, uint32_t table) {
  return Rule(RTM_NEWRULE, iif, table);
}

Status NetlinkLinkKernel::DeleteIifRule(const std::string& iif, uint32_t table) {
  return Rule(RTM_DELRULE, iif, table);
}

Status NetlinkLinkKernel::AddGuard(uint32_t table) { return Guard(RTM_NEWROUTE, table); }

Status NetlinkLinkKernel::DeleteGuard(uint32_t table) { return Guard(RTM_DELROUTE, table); }

}  // namespace strata::fea::netlink
