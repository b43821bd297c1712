#include "fea/netlink/route_codec.h"

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <array>
#include <cstring>

#include "fea/netlink/attr_table.h"

namespace strata::fea::netlink {
namespace {

// Large enough for kMaxNextHops IPv6 next hops.
constexpr size_t kMsgBuf = 8192;

uint8_t FamilyOf(const IpPrefix& p) { return p.is_v4() ? AF_INET : AF_INET6; }

void PutAddr(nlmsghdr* nlh, uint16_t type, const IpAddr& a) {
  auto b = a.bytes();
  mnl_attr_put(nlh, type, b.size(), b.data());
}

// Space needed for the next-hop part of a route message, to check before writing.
size_t NextHopSpace(const KernelRoute& r) {
  const size_t addr = r.prefix.is_v4() ? 4 : 16;
  return r.nexthops.size() * (RTNH_ALIGN(sizeof(rtnexthop)) + MNL_ATTR_HDRLEN + addr + 8) + 64;
}

StatusOr<IpAddr> AddrOf(const nlattr* a, uint8_t family) {
  const size_t want = family == AF_INET ? 4 : 16;
  if (mnl_attr_get_payload_len(a) != want) {
    return Status(StatusCode::kDataLoss, "address attribute of the wrong length");
  }
  return IpAddr::FromBytes(
      {static_cast<const uint8_t*>(mnl_attr_get_payload(a)), mnl_attr_get_payload_len(a)});
}

uint8_t RtnOf(RouteType t) {
  switch (t) {
    case RouteType::kUnicast:
      return RTN_UNICAST;
    case RouteType::kBlackhole:
      return RTN_BLACKHOLE;
    case RouteType::kUnreachable:
      return RTN_UNREACHABLE;
    case RouteType::kProhibit:
      return RTN_PROHIBIT;
  }
  return RTN_UNICAST;
}

// The types the FEA installs; nullopt for the others (local, broadcast, multicast, throw, ...).
std::optional<RouteType> TypeOfRtn(uint8_t rtn) {
  switch (rtn) {
    case RTN_UNICAST:
      return RouteType::kUnicast;
    case RTN_BLACKHOLE:
      return RouteType::kBlackhole;
    case RTN_UNREACHABLE:
      return RouteType::kUnreachable;
    case RTN_PROHIBIT:
      return RouteType::kProhibit;
    default:
      return std::nullopt;
  }
}

bool IsU32(const nlattr* a) { return a != nullptr && mnl_attr_get_payload_len(a) == 4; }

Status ParseMultipath(const nlattr* mp, uint8_t family, KernelRoute& r) {
  const auto* p = static_cast<const uint8_t*>(mnl_attr_get_payload(mp));
  int left = static_cast<int>(mnl_attr_get_payload_len(mp));
  auto* rtnh = reinterpret_cast<const rtnexthop*>(p);
  while (left >= static_cast<int>(sizeof(rtnexthop))) {
    if (rtnh->rtnh_len < sizeof(rtnexthop) || rtnh->rtnh_len > left) {
      return Status(StatusCode::kDataLoss, "malformed RTA_MULTIPATH entry");
    }
    KernelNextHop nh;
    nh.ifindex = static_cast<uint32_t>(rtnh->rtnh_ifindex);
    nh.weight = uint32_t{rtnh->rtnh_hops} + 1;
    std::array<const nlattr*, RTA_MAX + 1> tb{};
    const size_t attr_len = rtnh->rtnh_len - RTNH_ALIGN(sizeof(rtnexthop));
    if (rtnh->rtnh_len > RTNH_ALIGN(sizeof(rtnexthop)) &&
        !ParseAttrs(reinterpret_cast<const uint8_t*>(rtnh) + RTNH_ALIGN(sizeof(rtnexthop)),
                    attr_len, tb)) {
      return Status(StatusCode::kDataLoss, "malformed next-hop attributes");
    }
    if (tb[RTA_GATEWAY] != nullptr) {
      auto gw = AddrOf(tb[RTA_GATEWAY], family);
      if (!gw.ok()) return gw.status();
      nh.gateway = *gw;
    }
    // An entry naming neither gateway nor device leads nowhere, as a lone next hop without them
    // (ParseRouteMessage) does not.
    if (nh.gateway || nh.ifindex != 0) r.nexthops.push_back(nh);
    const int step = static_cast<int>(RTNH_ALIGN(rtnh->rtnh_len));
    left -= step;
    rtnh = reinterpret_cast<const rtnexthop*>(reinterpret_cast<const uint8_t*>(rtnh) + step);
  }
  return Status();
}

}  // namespace

Status AppendRouteRequest(std::vector<uint8_t>& out, const KernelOp& op, uint32_t seq,
                          uint32_t nexthop_id) {
  const KernelRoute& r = op.route;
  if (r.nexthops.size() > kMaxNextHops) return InvalidArgument("too many next hops");
  // RTA_GATEWAY is read in the route's family; another family's gateway would be refused by the
  // kernel (and by ParseRouteMessage).
  for (const KernelNextHop& nh : r.nexthops) {
    if (nh.gateway && nh.gateway->family() != r.prefix.family()) {
      return InvalidArgument("gateway " + nh.gateway->ToString() + " of another family than " +
                             r.prefix.ToString());
    }
  }
  if (NextHopSpace(r) > kMsgBuf / 2) return InvalidArgument("route too large");
  alignas(nlmsghdr) std::array<uint8_t, kMsgBuf> buf{};
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_seq = seq;
  nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
  switch (op.type) {
    case KernelOpType::kAdd:
      nlh->nlmsg_type = RTM_NEWROUTE;
      nlh->nlmsg_flags |= NLM_F_CREATE | NLM_F_EXCL;
      break;
    case KernelOpType::kReplace:
      nlh->nlmsg_type = RTM_NEWROUTE;
      nlh->nlmsg_flags |= NLM_F_CREATE | NLM_F_REPLACE;
      break;
    case KernelOpType::kDelete:
      nlh->nlmsg_type = RTM_DELROUTE;
      break;
  }
  auto* rtm = static_cast<rtmsg*>(mnl_nlmsg_put_extra_header(nlh, sizeof(rtmsg)));
  rtm->rtm_family = FamilyOf(r.prefix);
  rtm->rtm_dst_len = static_cast<uint8_t>(r.prefix.len());
  rtm->rtm_table = static_cast<uint8_t>(r.table < 256 ? r.table : unsigned{RT_TABLE_UNSPEC});
  rtm->rtm_protocol = r.protocol;
  bool any_gateway = false;
  for (const auto& nh : r.nexthops) any_gateway |= nh.gateway.has_value();
  const bool unicast = r.type == RouteType::kUnicast;
  rtm->rtm_scope =
      (!unicast || any_gateway || r.prefix.is_v4() == false) ? RT_SCOPE_UNIVERSE : RT_SCOPE_LINK;
  if (op.type == KernelOpType::kDelete) rtm->rtm_scope = RT_SCOPE_NOWHERE;
  rtm->rtm_type = RtnOf(r.type);
  mnl_attr_put_u32(nlh, RTA_TABLE, r.table);
  PutAddr(nlh, RTA_DST, r.prefix.addr());
  mnl_attr_put_u32(nlh, RTA_PRIORITY, r.metric);
  if (op.type != KernelOpType::kDelete && nexthop_id != 0) {
    mnl_attr_put_u32(nlh, RTA_NH_ID, nexthop_id);
  } else if (op.type != KernelOpType::kDelete && r.nexthops.size() == 1) {
    const auto& nh = r.nexthops[0];
    if (nh.gateway) PutAddr(nlh, RTA_GATEWAY, *nh.gateway);
    if (nh.ifindex != 0) mnl_attr_put_u32(nlh, RTA_OIF, nh.ifindex);
  } else if (op.type != KernelOpType::kDelete && r.nexthops.size() > 1) {
    nlattr* mp = mnl_attr_nest_start(nlh, RTA_MULTIPATH);
    for (const auto& nh : r.nexthops) {
      auto* rtnh = static_cast<rtnexthop*>(mnl_nlmsg_get_payload_tail(nlh));
      std::memset(rtnh, 0, sizeof(*rtnh));
      nlh->nlmsg_len += RTNH_ALIGN(sizeof(rtnexthop));
      rtnh->rtnh_ifindex = static_cast<int>(nh.ifindex);
      rtnh->rtnh_hops = static_cast<uint8_t>(nh.weight == 0 ? 0 : nh.weight - 1);
      if (nh.gateway) PutAddr(nlh, RTA_GATEWAY, *nh.gateway);
      rtnh->rtnh_len =
          static_cast<unsigned short>(static_cast<uint8_t*>(mnl_nlmsg_get_payload_tail(nlh)) -
                                      reinterpret_cast<uint8_t*>(rtnh));
    }
    mnl_attr_nest_end(nlh, mp);
  }
  out.insert(out.end(), buf.data(), buf.data() + nlh->nlmsg_len);
  return Status();
}

void AppendDumpRequest(std::vector<uint8_t>& out, uint16_t type, uint8_t family, uint32_t seq) {
  alignas(nlmsghdr) std::array<uint8_t, 256> buf{};
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = type;
  nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
  nlh->nlmsg_seq = seq;
  // rtmsg is the largest of the three family headers; each starts with the family byte.
  auto* rtm = static_cast<rtmsg*>(mnl_nlmsg_put_extra_header(nlh, sizeof(rtmsg)));
  rtm->rtm_family = family;
  out.insert(out.end(), buf.data(), buf.data() + nlh->nlmsg_len);
}

StatusOr<std::optional<KernelRoute>> ParseRouteMessage(const nlmsghdr* nlh,
                                                       const NexthopResolver& resolve) {
  if (nlh->nlmsg_type != RTM_NEWROUTE && nlh->nlmsg_type != RTM_DELROUTE) {
    return Status(StatusCode::kDataLoss, "not a route message");
  }
  if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(rtmsg))) {
    return Status(StatusCode::kDataLoss, "route message too short");
  }
  const auto* rtm = static_cast<const rtmsg*>(mnl_nlmsg_get_payload(nlh));
  if (rtm->rtm_family != AF_INET && rtm->rtm_family != AF_INET6)
    return std::optional<KernelRoute>();
  const std::optional<RouteType> type = TypeOfRtn(rtm->rtm_type);
  if (!type) return std::optional<KernelRoute>();
  if (rtm->rtm_flags & RTM_F_CLONED) return std::optional<KernelRoute>();
  std::array<const nlattr*, RTA_MAX + 1> tb{};
  if (!ParseMessageAttrs(nlh, sizeof(rtmsg), tb)) {
    return Status(StatusCode::kDataLoss, "malformed route attributes");
  }
  const uint8_t family = rtm->rtm_family;
  const int max_len = family == AF_INET ? 32 : 128;
  if (rtm->rtm_dst_len > max_len) return Status(StatusCode::kDataLoss, "bad prefix length");
  KernelRoute r;
  r.table = IsU32(tb[RTA_TABLE]) ? mnl_attr_get_u32(tb[RTA_TABLE]) : rtm->rtm_table;
  r.protocol = rtm->rtm_protocol;
  r.type = *type;
  r.metric = IsU32(tb[RTA_PRIORITY]) ? mnl_attr_get_u32(tb[RTA_PRIORITY]) : 0;
  IpAddr dst = IpAddr::Zero(family == AF_INET ? Family::kIpv4 : Family::kIpv6);
  if (tb[RTA_DST] != nullptr) {
    auto a = AddrOf(tb[RTA_DST], family);
    if (!a.ok()) return a.status();
    dst = *a;
  }
  r.prefix = IpPrefix(dst, rtm->rtm_dst_len);
  // A VRF table's guard is the VRF device's (VrfDevices), never adopted or swept as a route.
  if (r.type == RouteType::kUnreachable && rtm->rtm_dst_len == 0 && r.metric == kGuardMetric) {
    return std::optional<KernelRoute>();
  }
  if (r.type != RouteType::kUnicast) return std::optional<KernelRoute>(std::move(r));
  if (tb[RTA_MULTIPATH] != nullptr) {
    if (Status s = ParseMultipath(tb[RTA_MULTIPATH], family, r); !s.ok()) return s;
    // A lone next hop has no weight (the kernel ignores it; our requests spell one next hop
    // without RTA_MULTIPATH): read back, it equals the route we would install.
    if (r.nexthops.size() == 1) r.nexthops.front().weight = 1;
  } else {
    KernelNextHop nh;
    if (tb[RTA_GATEWAY] != nullptr) {
      auto gw = AddrOf(tb[RTA_GATEWAY], family);
      if (!gw.ok()) return gw.status();
      nh.gateway = *gw;
    }
    if (tb[RTA_OIF] != nullptr) {
      if (!IsU32(tb[RTA_OIF])) return Status(StatusCode::kDataLoss, "bad RTA_OIF");
      nh.ifindex = mnl_attr_get_u32(tb[RTA_OIF]);
    }
    if (nh.gateway || nh.ifindex != 0) {
      r.nexthops.push_back(nh);
    } else if (tb[RTA_NH_ID] != nullptr && resolve) {
      if (!IsU32(tb[RTA_NH_ID])) return Status(StatusCode::kDataLoss, "bad RTA_NH_ID");
      if (auto known = resolve(mnl_attr_get_u32(tb[RTA_NH_ID]))) r.nexthops.push_back(*known);
    }
  }
  return std::optional<KernelRoute>(std::move(r));
}

}  // namespace strata::fea::netlink
